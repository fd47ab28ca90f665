#!/usr/bin/python3
"""How right the progress bar's ETA is: runs `simverify run ... --progress`, reads each
redraw's ETA as it appears and, once the run has ended, prints at 5 %, 10 %, ..., 90 % of the
run the ETA shown against the time that actually remained (ratio 1 is exact; within 0.5-2 is
the goal). Usage:

    bench/eta_accuracy.py build/default/bin/simverify run requirements --out DIR

Run it twice into the same (or, with the cost memory, another) folder to see the ETA with
measured costs; set SIMVERIFY_COST_MEMORY to an empty or new file for a first run.
"""
import re
import subprocess
import sys
import time

ETA = re.compile(rb"\] (\d+)/(\d+) points.*ETA (~?)(\d+)s")


def main(command):
    start = time.monotonic()
    process = subprocess.Popen(command + ["--progress"], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
    seen, line = [], b""
    while chunk := process.stdout.read(1):
        if chunk not in (b"\r", b"\n"):
            line += chunk
            continue
        if match := ETA.search(line):
            seen.append((time.monotonic() - start, int(match[1]), int(match[2]),
                         match[3] == b"~", int(match[4])))
        line = b""
    process.wait()
    end = time.monotonic() - start
    print(f"exit {process.returncode}, {end:.1f} s, {len(seen)} progress redraws")
    ratios = []
    for share in (0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9):
        later = [s for s in seen if s[0] >= share * end]
        if not later:
            continue
        at, done, total, guess, eta = later[0]
        remaining = end - at
        ratios.append(eta / remaining)
        print(f"{share:4.0%} ({at:6.1f} s): {done}/{total} points, ETA {'~' if guess else ''}"
              f"{eta} s, remained {remaining:.1f} s, ratio {eta / remaining:.2f}")
    if ratios:
        print(f"ratios {min(ratios):.2f}-{max(ratios):.2f}")
    return process.returncode


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
