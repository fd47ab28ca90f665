# requirements/examples/failing: a failing unit requirement stops the run before the
# integration level (Alg 11, fail-fast per level): exit 1, the integration requirement
# skipped with the fail-fast reason, results.json complete and not releasable.
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${SIMVERIFY} run ${SOURCE_DIR}/requirements/examples/failing
                        --out ${WORK_DIR} --no-progress
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "expected exit 1 (not releasable), got ${rc}\n${out}\n${err}")
endif()
file(READ ${WORK_DIR}/results.json json)
string(JSON releasable GET "${json}" releasable)
string(JSON complete GET "${json}" complete)
string(JSON unit_status GET "${json}" requirements 0 status)
string(JSON integration_id GET "${json}" requirements 1 id)
string(JSON integration_status GET "${json}" requirements 1 status)
string(JSON integration_reason GET "${json}" requirements 1 reason)
if(releasable OR NOT complete OR NOT unit_status STREQUAL "failed"
   OR NOT integration_id STREQUAL "EXAMPLE-EULER-ACCURACY"
   OR NOT integration_status STREQUAL "skipped"
   OR NOT integration_reason MATCHES "level unit did not pass")
  message(FATAL_ERROR "fail-fast did not stop before integration:\n${json}")
endif()
if(NOT out MATCHES "NOT RELEASABLE")
  message(FATAL_ERROR "the console must print the verdict:\n${out}")
endif()
