#!/bin/sh
# Reports a number beyond the range of a double.
cat >/dev/null
echo '{"measures": {"value": 1e999}}'
