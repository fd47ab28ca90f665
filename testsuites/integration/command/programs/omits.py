#!/usr/bin/env python3
"""Reports one of the two measures its requirement declares."""
import json
import sys

json.load(sys.stdin)
print(json.dumps({"measures": {"overshoot": 0.1}}))
