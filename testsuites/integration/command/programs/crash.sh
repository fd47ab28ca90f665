#!/bin/sh
# Dies of a segmentation fault after saying so on standard error.
cat >/dev/null
echo "about to crash" >&2
kill -SEGV $$
