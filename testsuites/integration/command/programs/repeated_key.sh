#!/bin/sh
# Reports its measure twice, with two values.
cat >/dev/null
echo '{"measures": {"value": 1, "value": 2}}'
