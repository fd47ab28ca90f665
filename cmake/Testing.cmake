# simverify_add_gtest(<name> LABEL <unit|integration|system> SOURCES ... [LIBS ...])
# One GoogleTest executable, its tests discovered into CTest with the level as label.
# Unity-built with the coverage preset (cmake/Unity.cmake), so a TEST_F/TEST_P fixture is never in
# an anonymous namespace unless its tests are too: the test's class, derived from the fixture, has
# external linkage, and GCC rejects a base of internal linkage outside the main file of a
# translation unit (-Wsubobject-linkage), which every file of a unity batch is.
function(simverify_add_gtest name)
  cmake_parse_arguments(ARG "" "LABEL" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE GTest::gtest GTest::gtest_main ${ARG_LIBS})
  target_compile_definitions(${name} PRIVATE
    SIMVERIFY_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    SIMVERIFY_BINARY_DIR="${PROJECT_BINARY_DIR}")
  simverify_set_warnings(${name})
  simverify_unity_build(${name})
  gtest_discover_tests(${name} PROPERTIES LABELS ${ARG_LABEL} DISCOVERY_TIMEOUT 60)
endfunction()
