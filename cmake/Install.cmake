# Install the layer libraries, their headers and an exported package so that another
# project can `find_package(simverify)` and link `simverify::framework`.
include(CMakePackageConfigHelpers)

install(TARGETS simverify_simulation simverify_framework
        EXPORT simverifyTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY simulation/include/ framework/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS simverify RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(simverify_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/simverify)
install(EXPORT simverifyTargets NAMESPACE simverify:: DESTINATION ${simverify_cmake_dir})
configure_package_config_file(cmake/simverifyConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/simverifyConfig.cmake
                              INSTALL_DESTINATION ${simverify_cmake_dir})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/simverifyConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/simverifyConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/simverifyConfigVersion.cmake
        DESTINATION ${simverify_cmake_dir})
