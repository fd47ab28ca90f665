#!/bin/sh
# A time series with no time at index 1.
cat >/dev/null
echo '{"measures": {"value": 1, "y.gap": {"t": [0, null, 2], "values": [1, 2, 3]}}}'
