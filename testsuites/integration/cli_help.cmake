cmake_minimum_required(VERSION 3.25)  # IN_LIST
# `simverify --version` and `simverify COMMAND --help`: exit 0, the version and the revision
# built, and each command's help lists exactly the options its parser accepts (the bash
# completion reads them from there). -DSIMVERIFY -DSOURCE_DIR -DVERSION
function(simverify)
  execute_process(COMMAND ${SIMVERIFY} ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE stdout
                  ERROR_VARIABLE stderr)
  set(rc "${code}" PARENT_SCOPE)
  set(out "${stdout}" PARENT_SCOPE)
  set(err "${stderr}" PARENT_SCOPE)
endfunction()

# --version: "simverify X.Y.Z (commit REV)", REV the checkout's revision when built from one.
simverify(--version)
string(REPLACE "." "\\." version_pattern "${VERSION}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "^simverify ${version_pattern} \\(commit ([0-9a-f]+|unknown)\\)\n$")
  message(FATAL_ERROR "simverify --version: exit ${rc}, '${out}${err}'")
endif()
set(commit ${CMAKE_MATCH_1})
execute_process(COMMAND git -C ${SOURCE_DIR} rev-parse --short=12 HEAD OUTPUT_VARIABLE head
                OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE git_rc ERROR_QUIET)
if(git_rc EQUAL 0 AND NOT commit STREQUAL head)
  message(FATAL_ERROR "simverify --version names commit ${commit}, the checkout is at ${head}")
endif()

# The overview names every command and how to get its help.
simverify(--help)
foreach(command run merge list validate gate report)
  if(NOT out MATCHES "simverify ${command} ")
    message(FATAL_ERROR "simverify --help does not mention ${command}:\n${out}")
  endif()
endforeach()
if(NOT out MATCHES "COMMAND --help" OR NOT out MATCHES "--version")
  message(FATAL_ERROR "simverify --help does not say how to get a command's help:\n${out}")
endif()

foreach(command run merge list validate gate report)
  simverify(${command} --help)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "^usage: simverify ${command}" OR NOT err STREQUAL "")
    message(FATAL_ERROR "simverify ${command} --help: exit ${rc}\n${out}\n${err}")
  endif()
  set(help "${out}")
  foreach(form "${command};-h" "help;${command}")
    simverify(${form})
    if(NOT rc EQUAL 0 OR NOT out STREQUAL help)
      message(FATAL_ERROR "simverify ${form}: exit ${rc}, not the same text as --help\n${out}")
    endif()
  endforeach()

  # The parser's options (its "unknown option" error lists them) all appear in the help ...
  # (a command that takes no option says so).
  simverify(${command} --no-such-option)
  if(rc EQUAL 2 AND err MATCHES "unknown option --no-such-option; this command takes none")
    set(accepted "")
  elseif(rc EQUAL 2 AND err MATCHES "unknown option --no-such-option[^\n]*known: ([^\n]*)")
    string(REPLACE ", " ";" accepted "${CMAKE_MATCH_1}")
  else()
    message(FATAL_ERROR "simverify ${command} --no-such-option: exit ${rc}\n${err}")
  endif()
  foreach(option ${accepted})
    if(NOT help MATCHES "  ${option}[ \n]")
      message(FATAL_ERROR "simverify ${command} accepts ${option}, its --help does not list it")
    endif()
  endforeach()
  # ... and every option the help lists (besides --help) is one the parser knows.
  string(REGEX MATCHALL "\n  --[a-z][a-z-]*" listed "${help}")
  foreach(option ${listed})
    string(STRIP "${option}" option)
    if(NOT option STREQUAL "--help" AND NOT option IN_LIST accepted)
      message(FATAL_ERROR "simverify ${command} --help lists ${option}, the command rejects it")
    endif()
  endforeach()
endforeach()

simverify(help no-such-command)
if(NOT rc EQUAL 2 OR NOT err MATCHES "unknown command")
  message(FATAL_ERROR "simverify help no-such-command: exit ${rc}\n${out}\n${err}")
endif()
