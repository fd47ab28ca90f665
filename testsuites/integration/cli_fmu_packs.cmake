# The FMU requirement packs through the real CLI (testsuites/fmus/packs, copied beside the
# built test FMUs): the passing pack is releasable; the failing pack ends with a verdict
# (exit 1) where each failing FMU is an error of its own points, naming what happened and
# what the FMU logged; the FMUs' private folders are gone afterwards.
#   -DSIMVERIFY=<exe> -DPACKS=<build>/fmus/packs -DWORK_DIR=<folder>
file(REMOVE_RECURSE ${WORK_DIR})
set(tmp ${WORK_DIR}/tmp)  # TMPDIR of the runs: where the FMUs are unpacked, empty after
file(MAKE_DIRECTORY ${tmp})

function(run_simverify expected)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env TMPDIR=${tmp} ${SIMVERIFY} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL ${expected})
    message(FATAL_ERROR "expected exit ${expected}, got ${rc}: simverify ${ARGN}\n${out}\n${err}")
  endif()
endfunction()

# A private folder of a process that was killed (its owner file no longer locked) is swept by
# the next process that unpacks an FMU; one whose owner file is locked (here by this script,
# a live process) and one without an owner file are left alone.
file(MAKE_DIRECTORY ${tmp}/simverify-fmu-killed/VanDerPol-abc123)
file(WRITE ${tmp}/simverify-fmu-killed/.owner "")
file(MAKE_DIRECTORY ${tmp}/simverify-fmu-living ${tmp}/simverify-fmu-noowner)
file(LOCK ${tmp}/simverify-fmu-living/.owner GUARD PROCESS)  # (GUARD FILE crashes CMake 3.25 in a script)
run_simverify(0 validate ${PACKS}/passing)
if(EXISTS ${tmp}/simverify-fmu-killed)
  message(FATAL_ERROR "the folder of a killed process was not swept")
endif()
if(NOT EXISTS ${tmp}/simverify-fmu-living/.owner OR NOT EXISTS ${tmp}/simverify-fmu-noowner)
  message(FATAL_ERROR "a folder whose owner lives, or that has no owner file, was swept")
endif()
file(LOCK ${tmp}/simverify-fmu-living/.owner RELEASE)
file(REMOVE_RECURSE ${tmp}/simverify-fmu-living ${tmp}/simverify-fmu-noowner)
run_simverify(0 run ${PACKS}/passing --out ${WORK_DIR}/passing --no-progress --jobs 2)
run_simverify(1 run ${PACKS}/failing --out ${WORK_DIR}/failing --no-progress --jobs 2
              --timeout 5)

file(READ ${WORK_DIR}/failing/results.json results)
string(JSON complete GET "${results}" complete)
if(NOT complete)
  message(FATAL_ERROR "the failing pack must run to the end")
endif()
# Every point of requirement `id` has an error containing each of the given texts.
function(expect_errors id)
  string(JSON count LENGTH "${results}" requirements)
  math(EXPR last "${count} - 1")
  foreach(r RANGE ${last})
    string(JSON rid GET "${results}" requirements ${r} id)
    if(NOT rid STREQUAL id)
      continue()
    endif()
    string(JSON points LENGTH "${results}" requirements ${r} points)
    math(EXPR last_point "${points} - 1")
    foreach(p RANGE ${last_point})
      string(JSON error GET "${results}" requirements ${r} points ${p} error)
      foreach(text ${ARGN})
        string(FIND "${error}" "${text}" at)
        if(at EQUAL -1)
          message(FATAL_ERROR "${id} point ${p}: expected '${text}' in the error, got: ${error}")
        endif()
      endforeach()
    endforeach()
    return()
  endforeach()
  message(FATAL_ERROR "no requirement ${id} in the results")
endfunction()
expect_errors(FMU-RETURNS-ERROR "FMU 'ErrorAt.fmu': fmi" "returned fmi"
              "simulated failure: the equations have no solution")
expect_errors(FMU-CRASHES "the component crashed: signal SIGSEGV"
              "FMU 'Crash.fmu' logged: " "about to crash at t = ")
expect_errors(FMU-HANGS "timed out after 5 s" "FMU 'Crash.fmu' logged: " "about to hang at t = ")
string(JSON last_status GET "${results}" requirements 3 status)
if(NOT last_status STREQUAL "passed")
  message(FATAL_ERROR "FMU-FINE-AFTER-FAILURES must pass after the failures, was ${last_status}")
endif()

file(GLOB left ${tmp}/*)
if(left)
  message(FATAL_ERROR "the FMUs' temporary folders were left behind: ${left}")
endif()
