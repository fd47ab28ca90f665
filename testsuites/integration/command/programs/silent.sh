#!/bin/sh
# Exits 0 without writing its measures (it closes standard output first).
cat >/dev/null
exec 1>&-
echo "finished" >&2
