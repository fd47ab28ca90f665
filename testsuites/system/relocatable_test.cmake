# The install tree is relocatable: installed into one prefix, moved to another, it still runs
# requirements and renders the HTML report, with the renderer, templates and static files of
# <prefix>/share/simverify found relative to the executable. No path of the building machine
# (checkout, build tree, first prefix) is in the executable or under share/, and the source
# tree is out of reach: the run works on a copy of a pack, in a folder of its own, without
# SIMVERIFY_REPORTS_DIR.
#   cmake -DBUILD_DIR=.. -DSOURCE_DIR=.. -DWORK_DIR=.. -P relocatable_test.cmake
foreach(var BUILD_DIR SOURCE_DIR WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "relocatable_test.cmake: -D${var}=... is required")
  endif()
endforeach()
include(${CMAKE_CURRENT_LIST_DIR}/installed_runs.cmake)

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/moved)
set(first ${WORK_DIR}/first-prefix)
set(moved ${WORK_DIR}/moved/elsewhere)
installed_step("cmake --install" ${WORK_DIR}
               ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${first})
file(RENAME ${first} ${moved})

# file(STRINGS) reads the printable strings of binaries too. A sanitizer build's executable
# holds its source paths by design (-DSANITIZED=ON): only share/ is checked then.
if(SANITIZED)
  file(GLOB_RECURSE installed ${moved}/share/*)
else()
  file(GLOB_RECURSE installed ${moved}/bin/* ${moved}/share/*)
endif()
foreach(file ${installed})
  foreach(path ${SOURCE_DIR} ${BUILD_DIR} ${first})
    file(STRINGS ${file} hits REGEX "${path}")
    if(hits)
      list(GET hits 0 hit)
      message(FATAL_ERROR "${file} names ${path} of the building machine: ${hit}")
    endif()
  endforeach()
endforeach()

check_installed_runs(${moved} ${WORK_DIR}/project ${SOURCE_DIR})
file(REMOVE_RECURSE ${WORK_DIR})
