# The ETA's cost memory through the real executable: a run with the progress bar remembers
# what each requirement cost, so the next one, into another results folder, is estimated from
# measured costs (no "~" before its ETA); a run without the progress bar writes no memory.
file(REMOVE_RECURSE ${WORK_DIR})
set(pack ${SOURCE_DIR}/requirements/unit/first.yaml)
set(ENV{SIMVERIFY_COST_MEMORY} ${WORK_DIR}/cache/costs.json)

execute_process(COMMAND ${SIMVERIFY} run ${pack} --out ${WORK_DIR}/quiet --no-progress
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR EXISTS ${WORK_DIR}/cache/costs.json)
  message(FATAL_ERROR "--no-progress: expected exit 0 and no cost memory, got ${rc}\n${err}")
endif()

execute_process(COMMAND ${SIMVERIFY} run ${pack} --out ${WORK_DIR}/first --progress
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "ETA ~[0-9]")
  message(FATAL_ERROR "first run: expected exit 0 and an uninformed ETA, got ${rc}\n${out}\n${err}")
endif()
file(READ ${WORK_DIR}/cache/costs.json memory)
string(JSON format GET "${memory}" format)
string(JSON id GET "${memory}" requirements 0 id)
if(NOT format STREQUAL "simverify-costs 1" OR NOT id MATCHES "^SOLVER-ODE")
  message(FATAL_ERROR "unexpected cost memory: ${memory}")
endif()

execute_process(COMMAND ${SIMVERIFY} run ${pack} --out ${WORK_DIR}/second --progress
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "ETA [0-9]" OR out MATCHES "ETA ~")
  message(FATAL_ERROR "second run: expected exit 0 and an informed ETA, got ${rc}\n${out}\n${err}")
endif()
