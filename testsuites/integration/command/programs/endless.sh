#!/bin/sh
# Never stops writing: the point must end at the output bound, not drain it for ever.
cat >/dev/null
exec yes '{"measures": {"value": 1}}'
