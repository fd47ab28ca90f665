# Install the layer libraries, their headers, the `simverify` executable and an exported
# package, so that another project can `find_package(simverify)` and
#   - link simverify::framework (own components, its own runner),
#   - register own models into the shipped components (simverify::components: simulate,
#     sensitivity, monte_carlo, ...) and own components into the command line (run_cli),
#   - load FMUs (simverify::fmu) and write FMUs against our FMI headers (simverify/fmu/fmi2.h),
#   - run requirements as GoogleTest or Boost.Test tests (simverify::gtest, ::boost_test).
# docs/own-simulation.md shows all of it; examples/ are projects that use only this package.
# Two install components, the two Debian packages of cmake/Package.cmake: `runtime` (the
# executable, its report renderer, the bash completion) and `development` (the rest).
include(CMakePackageConfigHelpers)

install(TARGETS simverify_core simverify_simulation simverify_fmi_headers simverify_fmu
                simverify_framework simverify_components
        EXPORT simverifyTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY core/include/ simulation/include/ simulation/fmu/include/ framework/include/
                  components/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development)
install(TARGETS simverify RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)

set(simverify_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/simverify)
install(EXPORT simverifyTargets NAMESPACE simverify:: DESTINATION ${simverify_cmake_dir}
        COMPONENT development)

# The test-framework runners, in an export of their own: a project without GoogleTest or
# Boost.Test still finds the rest (simverifyConfig.cmake loads them when both are found).
if(TARGET simverify_gtest AND TARGET simverify_boost_test)
  install(TARGETS simverify_adapters_common simverify_gtest simverify_boost_test
          EXPORT simverifyAdapterTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(DIRECTORY framework/adapters/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          COMPONENT development)
  install(EXPORT simverifyAdapterTargets NAMESPACE simverify::
          DESTINATION ${simverify_cmake_dir} COMPONENT development)
endif()

set(simverify_reports_dir ${CMAKE_INSTALL_DATADIR}/simverify/reports)
configure_package_config_file(cmake/simverifyConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/simverifyConfig.cmake
                              INSTALL_DESTINATION ${simverify_cmake_dir}
                              PATH_VARS simverify_reports_dir)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/simverifyConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/simverifyConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/simverifyConfigVersion.cmake
        DESTINATION ${simverify_cmake_dir} COMPONENT development)

# The JSON Schemas, for editors in projects that use an installed simverify
# (docs/requirements-format.md, "Editor support").
install(FILES schemas/simverify-requirements.schema.json schemas/simverify-results.schema.json
        DESTINATION ${CMAKE_INSTALL_DATADIR}/simverify/schemas COMPONENT runtime)

# bash completion, where bash-completion looks for it (<prefix>/share/bash-completion/completions).
install(FILES components/cli/simverify-completion.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME simverify
        COMPONENT runtime)
