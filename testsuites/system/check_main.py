"""The command line shared by the check_*.py scripts: one argument, the source folder;
one line per problem on stderr and exit 1, or one line saying what holds and exit 0."""
import pathlib
import sys


def run(name, check, usage, holds):
    if len(sys.argv) != 2:
        sys.exit(usage)
    problems = check(pathlib.Path(sys.argv[1]))
    for problem in problems:
        print(f"{name}: {problem}", file=sys.stderr)
    if not problems:
        print(f"{name}: {holds}")
    sys.exit(1 if problems else 0)
