# Debian packages with CPack (`ci/package` writes them to build/package/):
#   simverify_X.Y.Z_ARCH.deb      the command line, its report renderer, the bash completion
#                                 (install component `runtime`)
#   simverify-dev_X.Y.Z_ARCH.deb  libraries, headers and the CMake package for
#                                 find_package(simverify) (component `development`)
# Depends name Debian 12 packages only: dpkg-shlibdeps derives the shared libraries the
# executable links (libyaml-cpp0.7, libfmt9, libzip4, ...), the renderer's Python modules are
# listed here. testsuites/system/package_test.cmake checks that apt knows every one of them.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME simverify)
set(CPACK_PACKAGE_VENDOR simverify)
set(CPACK_PACKAGE_CONTACT "simverify maintainers <simverify@invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/package)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime development)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME simverify)
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION
    "Verifies simulations against YAML requirements\n simverify evaluates requirements (a component, a grid of conditions, a quality\n threshold) level by level, decides releasability and renders an HTML report.")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
# The report renderer (reports/render.py): Jinja2 templates, matplotlib/NumPy/SciPy plots,
# Graphviz `dot` for the block diagrams.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS
    "python3, python3-jinja2, python3-matplotlib, python3-numpy, python3-scipy, graphviz")

set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME simverify-dev)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
set(CPACK_COMPONENT_DEVELOPMENT_DESCRIPTION
    "simverify libraries and headers\n The simulator, FMU loader, verification framework and components as static\n libraries with the CMake package for find_package(simverify).")
# What the exported targets and public headers need from the system (simverifyConfig.cmake).
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS
    "simverify (= ${PROJECT_VERSION}), cmake, g++, pkg-config, libeigen3-dev, libyaml-cpp-dev, nlohmann-json3-dev, libfmt-dev, libboost-dev, libzip-dev, libpugixml-dev")
# The GoogleTest and Boost.Test runners load only when their frameworks are found.
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SUGGESTS "libgtest-dev, libboost-test-dev")

include(CPack)
