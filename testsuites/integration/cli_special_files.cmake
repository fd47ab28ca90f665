# A `.yaml` entry that is not a regular file (a FIFO, a socket, a link to nothing) is an error
# of `simverify validate` with file:line:col and exit 2, never skipped and never waited on: a
# FIFO has no writer here, so reading it would block forever (the test's TIMEOUT catches that).
# -DSIMVERIFY=<exe> -DWORK_DIR=<dir>
file(REMOVE_RECURSE ${WORK_DIR})

function(expect_refused case path what)
  execute_process(COMMAND ${SIMVERIFY} validate ${path}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 2)
    message(FATAL_ERROR "${case}: expected exit 2, got ${rc}\n${out}${err}")
  endif()
  get_filename_component(name ${path} NAME)
  if(IS_DIRECTORY ${path})
    set(name entry.yaml)
  endif()
  string(FIND "${err}" "/${name}:1:1: error: '${name}' is ${what}, not a requirement file" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${case}: expected '${name}:1:1: error: '${name}' is ${what}, ...' in:\n${err}")
  endif()
endfunction()

# One folder per kind, each with a valid file beside the bad entry: the bad entry alone fails.
foreach(kind fifo socket dangling)
  file(MAKE_DIRECTORY ${WORK_DIR}/${kind})
  file(WRITE ${WORK_DIR}/${kind}/good.yaml "requirements: []\n")
endforeach()
execute_process(COMMAND mkfifo ${WORK_DIR}/fifo/entry.yaml RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "mkfifo failed")
endif()
# Bound by a relative name from inside its folder: an absolute AF_UNIX address is limited to
# 107 bytes, which a deep build tree (a pipeline run in a clone under build/) exceeds.
execute_process(COMMAND /usr/bin/python3 -c
                        "import socket; socket.socket(socket.AF_UNIX).bind('entry.yaml')"
                WORKING_DIRECTORY ${WORK_DIR}/socket RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "could not create a socket")
endif()
file(CREATE_LINK ${WORK_DIR}/no_such_file.yaml ${WORK_DIR}/dangling/entry.yaml SYMBOLIC)

expect_refused(folder_with_fifo ${WORK_DIR}/fifo "a FIFO")
expect_refused(folder_with_socket ${WORK_DIR}/socket "a socket")
expect_refused(folder_with_dangling_link ${WORK_DIR}/dangling "a symbolic link to nothing")
expect_refused(fifo_named ${WORK_DIR}/fifo/entry.yaml "a FIFO")
