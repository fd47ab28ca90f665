# simverify_unity_build(<target>): with SIMVERIFY_UNITY_BUILD (the coverage preset), compile the
# target's sources concatenated in batches (CMake's unity build). Most of a translation unit's
# time here is the code generated for the same templates (nlohmann::json, fmt, Eigen, GoogleTest)
# in every file; a batch generates it once. Named on the targets whose sources are unity-clean:
# no two files define the same name at file scope (anonymous namespaces included), and no
# unqualified call depends on which standard headers an earlier file of the batch included.
option(SIMVERIFY_UNITY_BUILD "Compile the unity-clean targets in batches (faster cold builds)" OFF)
# 40: the libraries and test programs compile in one or two batches each; measured cold
# coverage build, 2 cores: 628 s CPU with 16, 480 s with 40 (docs/ci.md).
set(SIMVERIFY_UNITY_BATCH_SIZE 40 CACHE STRING "Sources per unity batch")

# The CTest test unity_names.<target> (ci/unity-names) keeps the target unity-clean whatever the
# preset: every file-scope name of its own (anonymous namespace, static, const) is unique among
# the target's sources, so any batching of them compiles the same program.
function(simverify_unity_build target)
  if(SIMVERIFY_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON
                                               UNITY_BUILD_BATCH_SIZE ${SIMVERIFY_UNITY_BATCH_SIZE})
  endif()
  if(SIMVERIFY_BUILD_TESTS)
    get_target_property(sources ${target} SOURCES)
    get_target_property(source_dir ${target} SOURCE_DIR)
    add_test(NAME unity_names.${target} COMMAND ${PROJECT_SOURCE_DIR}/ci/unity-names ${sources}
             WORKING_DIRECTORY ${source_dir})
    set_tests_properties(unity_names.${target} PROPERTIES LABELS unit)
  endif()
endfunction()
