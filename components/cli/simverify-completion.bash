# bash completion for simverify, installed as share/bash-completion/completions/simverify.
# Commands come from `simverify --help` and each command's options from `simverify COMMAND
# --help`, so completion always matches the executable being completed.
_simverify() {
  local cur prev exe command
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD - 1]}
  exe=${COMP_WORDS[0]}
  COMPREPLY=()
  if ((COMP_CWORD == 1)); then
    local commands
    commands=$("$exe" --help 2>/dev/null | sed -n 's/^  simverify \([a-z][a-z]*\).*/\1/p')
    mapfile -t COMPREPLY < <(compgen -W "$commands help --help --version" -- "$cur")
    return
  fi
  command=${COMP_WORDS[1]}
  case $prev in
    --level) mapfile -t COMPREPLY < <(compgen -W "unit integration system" -- "$cur"); return ;;
    --fail-fast) mapfile -t COMPREPLY < <(compgen -W "level first none" -- "$cur"); return ;;
    --isolation) mapfile -t COMPREPLY < <(compgen -W "process none" -- "$cur"); return ;;
    --series) mapfile -t COMPREPLY < <(compgen -W "quality all none" -- "$cur"); return ;;
    --jobs | --shard | --timeout | --filter) return ;;
    --out | --coverage-html) mapfile -t COMPREPLY < <(compgen -d -- "$cur"); return ;;
  esac
  if [[ $command == help && COMP_CWORD -eq 2 ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$("$exe" --help 2>/dev/null |
      sed -n 's/^  simverify \([a-z][a-z]*\).*/\1/p')" -- "$cur")
    return
  fi
  if [[ $cur == -* ]]; then
    local options
    options=$("$exe" "$command" --help 2>/dev/null | sed -n 's/^  \(--[a-z][a-z-]*\).*/\1/p')
    mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
    return
  fi
  mapfile -t COMPREPLY < <(compgen -f -- "$cur")
}
complete -o filenames -F _simverify simverify
