#!/usr/bin/env bash
# The bash completion (components/cli/simverify-completion.bash) against the real executable:
# commands, each command's options, option values and files.
#   cli_completion.sh COMPLETION_SCRIPT SIMVERIFY_EXE
set -euo pipefail
completion=$1
exe=$2
source "$completion"
failures=0

# expect "WORDS..." "EXPECTED REPLIES": completes the last word of WORDS (may be empty).
expect() {
  local line=$1 expected=$2
  read -ra COMP_WORDS <<<"$line"
  [[ $line == *" " ]] && COMP_WORDS+=("")
  COMP_WORDS[0]=$exe
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  _simverify
  local got
  got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ')
  got=${got% }
  if [[ $got != "$expected" ]]; then
    echo "FAIL: '$line' completed to '$got', expected '$expected'"
    failures=$((failures + 1))
  fi
}

expect "simverify r" "report run"
expect "simverify m" "merge"
expect "simverify --v" "--version"
expect "simverify help va" "validate"
expect "simverify run --f" "--fail-fast --filter"
expect "simverify run --se" "--series"
expect "simverify run x.yaml --level " "integration system unit"
expect "simverify run x.yaml --fail-fast f" "first"
expect "simverify run x.yaml --isolation " "none process"
expect "simverify run x.yaml --jobs " ""
expect "simverify gate out --c" "--config --coverage"
expect "simverify report out --coverage-h" "--coverage-html"
expect "simverify merge --" "--help --out"
expect "simverify validate --" "--help"

# Paths: files and folders in the current folder.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/packs" && touch "$work/pack.yaml"
cd "$work"
expect "simverify validate pa" "pack.yaml packs"
expect "simverify run pack.yaml --out p" "packs"

if ((failures > 0)); then
  echo "$failures completion case(s) failed"
  exit 1
fi
echo "all completion cases passed"
