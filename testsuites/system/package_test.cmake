# The Debian packages (cmake/Package.cmake, ci/package): CPack builds them from this tree;
# every package their Depends name exists in Debian (apt-cache knows a candidate, or dpkg has
# it installed); the runtime package holds the executable, renderer and bash completion and,
# extracted with dpkg-deb -x into a scratch root, runs a pack and renders the report.
#   cmake -DBUILD_DIR=.. -DSOURCE_DIR=.. -DWORK_DIR=.. -P package_test.cmake
foreach(var BUILD_DIR SOURCE_DIR WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "package_test.cmake: -D${var}=... is required")
  endif()
endforeach()
include(${CMAKE_CURRENT_LIST_DIR}/installed_runs.cmake)

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
installed_step("cpack" ${WORK_DIR} cpack --config ${BUILD_DIR}/CPackConfig.cmake -B ${WORK_DIR}/package)
file(GLOB runtime_deb ${WORK_DIR}/package/simverify_*.deb)
file(GLOB dev_deb ${WORK_DIR}/package/simverify-dev_*.deb)
if(NOT runtime_deb OR NOT dev_deb)
  message(FATAL_ERROR "cpack wrote no simverify_*.deb / simverify-dev_*.deb:\n${step_output}")
endif()

foreach(deb ${runtime_deb} ${dev_deb})
  installed_step("dpkg-deb -f" ${WORK_DIR} dpkg-deb -f ${deb} Package Depends)
  set(fields "${step_output}")
  if(NOT fields MATCHES "Depends: ([^\n]+)")
    message(FATAL_ERROR "${deb} has no Depends:\n${fields}")
  endif()
  string(REGEX REPLACE " *\\([^)]*\\)" "" depends "${CMAKE_MATCH_1}")  # drop (>= 2.34)
  string(REGEX REPLACE " *[,|] *" ";" depends "${depends}")
  foreach(package ${depends})
    if(package STREQUAL "simverify")
      continue()  # the runtime package built beside it
    endif()
    execute_process(COMMAND apt-cache policy ${package} OUTPUT_VARIABLE policy ERROR_QUIET)
    execute_process(COMMAND dpkg-query -W -f=\${Status} ${package} OUTPUT_VARIABLE status
                    ERROR_QUIET)
    if(NOT policy MATCHES "Candidate: [^(\n]" AND NOT status MATCHES "install ok installed")
      message(FATAL_ERROR "${deb} depends on ${package}, which Debian does not have:\n${policy}")
    endif()
  endforeach()
  message(STATUS "${fields}")
endforeach()

installed_step("dpkg-deb -f" ${WORK_DIR} dpkg-deb -f ${runtime_deb} Depends)
foreach(package yaml-cpp python3-jinja2 python3-matplotlib)
  if(NOT step_output MATCHES "${package}")
    message(FATAL_ERROR "${runtime_deb} does not depend on ${package}:\n${step_output}")
  endif()
endforeach()

installed_step("dpkg-deb -x" ${WORK_DIR} dpkg-deb -x ${runtime_deb} ${WORK_DIR}/root)
check_installed_runs(${WORK_DIR}/root/usr ${WORK_DIR}/project ${SOURCE_DIR})
if(EXISTS ${WORK_DIR}/root/usr/include OR EXISTS ${WORK_DIR}/root/usr/lib/cmake)
  message(FATAL_ERROR "the runtime package holds development files")
endif()
installed_step("dpkg-deb -c" ${WORK_DIR} dpkg-deb -c ${dev_deb})
foreach(file usr/include/simverify/framework/runner.hpp
             usr/lib/cmake/simverify/simverifyConfig.cmake)
  if(NOT step_output MATCHES "${file}")
    message(FATAL_ERROR "${dev_deb} lacks ${file}")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK_DIR})
