#!/bin/sh
# Reports a boolean where a number belongs.
cat >/dev/null
echo '{"measures": {"value": true}}'
