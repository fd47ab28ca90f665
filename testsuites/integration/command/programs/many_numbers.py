#!/usr/bin/env python3
"""Reports a vector of 20 million zeros: 40 MB of output."""
import sys

sys.stdin.read()
chunk = ",".join(["0"] * 1_000_000)
sys.stdout.write('{"measures": {"v": [' + ",".join([chunk] * 20) + "]}}\n")
