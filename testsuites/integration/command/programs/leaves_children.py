#!/usr/bin/env python3
"""Reports its measure and exits, leaving two `sleep 1000` that hold its standard output: one
in its process group, one in a session of its own (setsid)."""
import os
import sys

sys.stdin.read()
for new_session in (False, True):
    if os.fork() == 0:
        if new_session:
            os.setsid()
        os.execvp("sleep", ["sleep", "1000"])
print('{"measures": {"value": 1}}')
