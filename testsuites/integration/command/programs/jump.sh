#!/bin/sh
# A time series with a jump at t = 1: that time twice, before and after.
cat >/dev/null
echo '{"measures": {"y.jump": {"t": [0, 1, 1, 2], "values": [0, 0, 1, 1]}}}'
