# Proves a separate project can find_package(simverify) and link simverify::framework:
# installs the build tree into a temporary prefix, configures and builds
# testsuites/consumer against that prefix only, and runs the consumer.
#   cmake -DBUILD_DIR=.. -DSOURCE_DIR=.. -DWORK_DIR=.. -DCXX=.. [-DCXX_FLAGS=..]
#         [-DLINKER_FLAGS=..] [-DBUILD_TYPE=..] -P consumer_test.cmake
foreach(var BUILD_DIR SOURCE_DIR WORK_DIR CXX)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "consumer_test.cmake: -D${var}=... is required")
  endif()
endforeach()

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (exit ${rc}):\n${out}\n${err}")
  endif()
  set(step_output "${out}${err}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK_DIR}/prefix)
set(consumer_build ${WORK_DIR}/build)
file(REMOVE_RECURSE ${WORK_DIR})

run_step("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(file lib/cmake/simverify/simverifyConfig.cmake
             lib/cmake/simverify/simverifyConfigVersion.cmake
             lib/cmake/simverify/simverifyTargets.cmake
             include/simverify/framework/runner.hpp bin/simverify)
  if(NOT EXISTS ${prefix}/${file})
    message(FATAL_ERROR "install tree lacks ${file}")
  endif()
endforeach()

# Only the install prefix may satisfy find_package: no package registry, no build tree.
run_step("configuring the consumer"
  ${CMAKE_COMMAND} -S ${SOURCE_DIR}/testsuites/consumer -B ${consumer_build}
    -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
    -DCMAKE_CXX_COMPILER=${CXX}
    "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
    "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}"
    -DCMAKE_BUILD_TYPE=${BUILD_TYPE})
if(NOT step_output MATCHES "simverify 0\\.[0-9.]+ from ${prefix}/lib/cmake/simverify")
  message(FATAL_ERROR "simverify was not found in the install prefix:\n${step_output}")
endif()
run_step("building the consumer" ${CMAKE_COMMAND} --build ${consumer_build})
run_step("running the consumer" ${consumer_build}/consumer)
message(STATUS "${step_output}")
file(REMOVE_RECURSE ${prefix})
