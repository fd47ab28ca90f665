#!/bin/sh
# Never answers: waits on a child process, which must be killed with it (its process group).
cat >/dev/null
echo "waiting forever" >&2
sleep 1000
