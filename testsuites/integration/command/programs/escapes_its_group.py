#!/usr/bin/env python3
"""Leaves its own process group for a child's (setpgid) and waits there, as the child does:
neither is in the group a timeout kills, and both are `sleep 1000`."""
import os
import sys
import time

sys.stdin.read()
child = os.fork()
if child == 0:
    os.setpgid(0, 0)
    os.execvp("sleep", ["sleep", "1000"])
time.sleep(0.2)
os.setpgid(0, child)
os.execvp("sleep", ["sleep", "1000"])
