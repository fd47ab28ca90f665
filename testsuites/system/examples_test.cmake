# Every example project under examples/ works from the INSTALLED package alone, exactly as its
# README says: installs the build tree into a temporary prefix, copies each example into a
# work folder, and runs the commands of the README's first ```sh block there, with
# /path/to/simverify replaced by the prefix and only the prefix's bin/ ahead on PATH. Each
# command must exit 0 (the examples' requirements pass).
#   cmake -DBUILD_DIR=.. -DSOURCE_DIR=.. -DWORK_DIR=.. -DCC=.. -DCXX=.. [-DC_FLAGS=..]
#         [-DCXX_FLAGS=..] [-DLINKER_FLAGS=..] -P examples_test.cmake
foreach(var BUILD_DIR SOURCE_DIR WORK_DIR CC CXX)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "examples_test.cmake: -D${var}=... is required")
  endif()
endforeach()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix}
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed:\n${err}")
endif()

file(GLOB examples LIST_DIRECTORIES true ${SOURCE_DIR}/examples/*)
set(count 0)
foreach(example ${examples})
  if(NOT EXISTS ${example}/README.md)
    continue()
  endif()
  get_filename_component(name ${example} NAME)
  set(work ${WORK_DIR}/${name})
  file(COPY ${example}/ DESTINATION ${work})
  file(REMOVE_RECURSE ${work}/build ${work}/out)  # a user's earlier build, if any

  # The README's commands: the lines of its first ```sh block.
  file(READ ${example}/README.md readme)
  string(FIND "${readme}" "```sh\n" start)
  if(start EQUAL -1)
    message(FATAL_ERROR "${name}/README.md has no ```sh block with the commands to run it")
  endif()
  math(EXPR start "${start} + 6")
  string(SUBSTRING "${readme}" ${start} -1 rest)
  string(FIND "${rest}" "```" end)
  string(SUBSTRING "${rest}" 0 ${end} block)
  string(REPLACE "/path/to/simverify" "${prefix}" block "${block}")
  string(REPLACE "\n" ";" commands "${block}")
  set(ran 0)
  foreach(command ${commands})
    if(command STREQUAL "")
      continue()
    endif()
    execute_process(
      COMMAND ${CMAKE_COMMAND} -E env "PATH=${prefix}/bin:$ENV{PATH}" "CC=${CC}" "CXX=${CXX}"
              "CFLAGS=${C_FLAGS}" "CXXFLAGS=${CXX_FLAGS}" "LDFLAGS=${LINKER_FLAGS}"
              sh -c "${command}"
      WORKING_DIRECTORY ${work}
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "examples/${name}: '${command}' exited ${rc}:\n${out}\n${err}")
    endif()
    math(EXPR ran "${ran} + 1")
  endforeach()
  # A project that built found simverify in the prefix, not in the build tree.
  if(EXISTS ${work}/build/CMakeCache.txt)
    file(STRINGS ${work}/build/CMakeCache.txt found REGEX "^simverify_DIR:")
    if(NOT found MATCHES "=${prefix}/")
      message(FATAL_ERROR "examples/${name} found simverify elsewhere: ${found}")
    endif()
  endif()
  # own-program's qualities read numbers: the default --series keeps the program's curve, one
  # CSV per grid point, which the report plots.
  if(name STREQUAL "own-program")
    file(GLOB_RECURSE series ${work}/out/series/*.csv)
    list(LENGTH series n)
    if(NOT n EQUAL 31 OR NOT EXISTS ${work}/out/site/index.html)
      message(FATAL_ERROR "examples/own-program: expected 31 series CSV files under out/series "
                          "and out/site/index.html, found ${n} CSV file(s)")
    endif()
  endif()
  if(ran LESS 2)
    message(FATAL_ERROR "examples/${name}/README.md: expected its commands, found ${ran}")
  endif()
  message(STATUS "examples/${name}: ${ran} commands passed")
  math(EXPR count "${count} + 1")
endforeach()
if(count LESS 3)
  message(FATAL_ERROR "expected at least 3 examples (FMU, program, C++), ran ${count}")
endif()
file(REMOVE_RECURSE ${prefix})
