#!/bin/sh
# A time series whose value at index 1 is null (NaN).
cat >/dev/null
echo '{"measures": {"y.s": {"t": [0, 1, 2], "values": [0, null, 0]}}}'
