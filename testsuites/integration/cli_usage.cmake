# Usage mistakes on every command give exit 2, a message saying what was expected, and run
# nothing (format page, "Exit codes"); --help and list/validate on a good file give exit 0.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(pack ${SOURCE_DIR}/requirements/unit/first.yaml)

# case(EXPECTED_RC PATTERN ARGS...): runs simverify ARGS in WORK_DIR.
function(case expected_rc pattern)
  execute_process(COMMAND ${SIMVERIFY} ${ARGN} WORKING_DIRECTORY ${WORK_DIR}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "${expected_rc}" OR NOT "${out}${err}" MATCHES "${pattern}")
    message(FATAL_ERROR "simverify ${ARGN}: expected exit ${expected_rc} and '${pattern}', "
                        "got ${rc}\n${out}\n${err}")
  endif()
endfunction()

case(2 "usage:")
case(0 "usage:" --help)
case(2 "unknown command 'rnu'.*did you mean 'run'" rnu)
case(2 "give at least one requirement file or folder" run)
case(2 "--level must be unit, integration or system" run ${pack} --level acceptance)
case(2 "--fail-fast must be level, first or none" run ${pack} --fail-fast never)
case(2 "--jobs must be a whole number from 1 to" run ${pack} --jobs 0)
case(2 "--jobs" run ${pack} --jobs many)
case(2 "--shard must read I/N, e.g. 2/4" run ${pack} --shard 2)
case(2 "--shard I must be a whole number from 1 to 2, got '0'" run ${pack} --shard 0/2)
case(2 "--shard I" run ${pack} --shard x/2)
case(2 "--timeout must be a number from 0.001 to 1e\\+06, got 'soon'" run ${pack} --timeout soon)
case(2 "--timeout must be a number from 0.001 to 1e\\+06, got '-1'" run ${pack} --timeout -1)
case(2 "--isolation must be process or none" run ${pack} --isolation thread)
case(2 "unknown option" run ${pack} --colour)
case(2 "unknown option --filter; this command takes none" validate --filter x ${pack})
# --filter and --level that select no requirement: exit 2 naming them, nothing run.
case(2 "--filter 'SOLVER-ODE4-ORDR' matches no requirement id \\(did you mean 'SOLVER-ODE4-ORDER'\\?\\); the 2 id\\(s\\): SOLVER-ODE4-ORDER, SOLVER-ODE1-ORDER\nnothing was run"
     run ${pack} --filter SOLVER-ODE4-ORDR)
case(2 "--filter 'SOLVR-\\*' matches no requirement id \\(did you mean 'SOLVER-\\*'\\?\\)"
     run ${pack} --filter SOLVR-*)
case(2 "--level system selects no requirement that --filter 'SOLVER-\\*' matches; there are 2 at unit \\(SOLVER-ODE4-ORDER, SOLVER-ODE1-ORDER\\)"
     run ${pack} --level system --filter SOLVER-*)
# --level alone at a level without requirements: an empty, passing selection (a project may
# have none at a level; its CI job per level must pass), results written; list says so.
case(0 "0 requirement\\(s\\), 0 grid point\\(s\\) in 1 file\\(s\\)\nno requirement is at level integration \\(there are 2 at unit\\)"
     list ${pack} --level integration)
case(0 "no requirement is at level system \\(there are 2 at unit\\): nothing to run, the level passes\nresults: empty-level/results.json"
     run ${pack} --level system --out empty-level --no-progress)
foreach(file results.json junit.xml)
  if(NOT EXISTS ${WORK_DIR}/empty-level/${file})
    message(FATAL_ERROR "run --level system of a pack without system requirements wrote no ${file}")
  endif()
endforeach()
file(READ ${WORK_DIR}/empty-level/results.json empty_results)
if(NOT empty_results MATCHES "\"requirements\": \\[\\]" OR NOT empty_results MATCHES "\"level\": \"system\"")
  message(FATAL_ERROR "empty level: expected no requirement and level system recorded:\n${empty_results}")
endif()
file(REMOVE_RECURSE ${WORK_DIR}/empty-level)
case(2 "--filter 'NOPE' matches no requirement id" list ${pack} --filter NOPE)
case(0 "SOLVER-ODE1-ORDER[^\n]*\n1 requirement\\(s\\)" list ${pack} --filter *ODE1*)
case(2 "give at least one requirement file or folder" list)
case(0 "requirement\\(s\\), [0-9]+ grid point\\(s\\)" list ${pack})
case(0 "valid" validate ${pack})
case(2 "merge needs --out DIR" merge ${WORK_DIR})
case(2 "merge needs the shard result folders" merge --out ${WORK_DIR}/m)
case(2 "cannot read results \\(expected a folder written by simverify run\\).*nothing was written"
     merge ${WORK_DIR}/none --out ${WORK_DIR}/m)
if(EXISTS ${WORK_DIR}/simverify-out)
  message(FATAL_ERROR "a usage mistake ran something: ${WORK_DIR}/simverify-out exists")
endif()
# A narrowed run whose selection passes does not call itself releasable (Def 5.17: every
# requirement); exit 0 all the same, for a developer iterating on a few.
case(0 "verdict: PASSED for the requirements --filter 'SOLVER-ODE1-\\*' selects \\(a release needs all of them"
     run ${pack} --filter SOLVER-ODE1-* --out narrowed --no-progress)
