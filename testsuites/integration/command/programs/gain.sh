#!/bin/sh
# A shell-script model: reads `gain` from the point on standard input (no JSON tool needed for
# a flat number) and reports twice it, the seed and point it was given in its environment, and
# whether its working folder started empty (it must be fresh for every point).
input=$(cat)
gain=$(printf '%s' "$input" | sed -n 's/.*"gain":\([-0-9.eE+]*\).*/\1/p')
fresh=1
[ -z "$(ls -A .)" ] || fresh=0
echo leftover > leftover.txt
doubled=$(awk "BEGIN { print 2 * $gain }")
printf '{"measures": {"doubled": %s, "fresh_folder": %s, "seed": %s, "point": %s}}\n' \
  "$doubled" "$fresh" "$SIMVERIFY_SEED" "$SIMVERIFY_POINT"
