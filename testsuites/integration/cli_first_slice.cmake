# The first slice end to end: run requirements/unit/first.yaml, expect exit 0 and well-formed
# results; a failing requirement gives exit 1; an invalid file gives exit 2.
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${SIMVERIFY} run ${SOURCE_DIR}/requirements/unit/first.yaml
                        --out ${WORK_DIR}/ok --no-progress
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "expected exit 0, got ${rc}\n${out}\n${err}")
endif()
file(READ ${WORK_DIR}/ok/results.json json)
string(JSON format GET "${json}" format)
string(JSON releasable GET "${json}" releasable)
string(JSON status GET "${json}" requirements 0 status)
if(NOT format STREQUAL "simverify.results/1" OR NOT releasable OR NOT status STREQUAL "passed")
  message(FATAL_ERROR "unexpected results.json: ${json}")
endif()
if(NOT EXISTS ${WORK_DIR}/ok/junit.xml)
  message(FATAL_ERROR "junit.xml missing")
endif()

file(WRITE ${WORK_DIR}/failing.yaml [=[
requirements:
  - id: TOO-STRICT
    level: unit
    component: simulate
    conditions: {model: exponential, method: ode1, h: 0.1}
    quality: {measure: error_end, threshold: "<= 1e-12"}
]=])
execute_process(COMMAND ${SIMVERIFY} run ${WORK_DIR}/failing.yaml --out ${WORK_DIR}/fail
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "expected exit 1 for a failing requirement, got ${rc}")
endif()

file(WRITE ${WORK_DIR}/invalid.yaml "requirements:\n  - id: lower-case\n")
execute_process(COMMAND ${SIMVERIFY} run ${WORK_DIR}/invalid.yaml --out ${WORK_DIR}/invalid
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "invalid.yaml:2:")
  message(FATAL_ERROR "expected exit 2 with file:line, got ${rc}: ${err}")
endif()
if(EXISTS ${WORK_DIR}/invalid/results.json)
  message(FATAL_ERROR "an invalid run must not write results")
endif()
