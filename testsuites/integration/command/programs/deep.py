#!/usr/bin/env python3
"""Reports a measure nested a million levels deep."""
import sys

sys.stdin.read()
print('{"measures": {"value": ' + "[" * 1000000 + "]" * 1000000 + "}}")
