#!/bin/sh
# A time series whose time goes back at index 1.
cat >/dev/null
echo '{"measures": {"value": 1, "y.back": {"t": [1, 0, 0], "values": [1, 2, 3]}}}'
