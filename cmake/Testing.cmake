# simverify_add_gtest(<name> LABEL <unit|integration|system> SOURCES ... [LIBS ...])
# One GoogleTest executable, its tests discovered into CTest with the level as label.
function(simverify_add_gtest name)
  cmake_parse_arguments(ARG "" "LABEL" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE GTest::gtest GTest::gtest_main ${ARG_LIBS})
  target_compile_definitions(${name} PRIVATE
    SIMVERIFY_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    SIMVERIFY_BINARY_DIR="${PROJECT_BINARY_DIR}")
  simverify_set_warnings(${name})
  gtest_discover_tests(${name} PROPERTIES LABELS ${ARG_LABEL} DISCOVERY_TIMEOUT 60)
endfunction()
