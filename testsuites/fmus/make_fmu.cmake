# Zips a staged FMU folder (modelDescription.xml, binaries/<platform>/<id>.so, ...) into an
# .fmu file, entries relative to the folder as the FMI standard's "FMU Distribution" asks.
#   cmake -DSTAGING=<folder> -DOUTPUT=<file.fmu> -P make_fmu.cmake
foreach(var STAGING OUTPUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "make_fmu.cmake: -D${var}=... is required")
  endif()
endforeach()
file(GLOB_RECURSE entries RELATIVE ${STAGING} ${STAGING}/*)
list(SORT entries)
get_filename_component(output_dir ${OUTPUT} DIRECTORY)
file(MAKE_DIRECTORY ${output_dir})
# ARCHIVE_CREATE stores PATHS as given, relative to the working directory of this script.
file(ARCHIVE_CREATE OUTPUT ${OUTPUT}.partial PATHS ${entries} FORMAT zip)
file(RENAME ${OUTPUT}.partial ${OUTPUT})
