# Noise streams end to end: every noise source draws from the stream of (requirement id, axis,
# seed), so a point's result is the same for any --jobs and --shard (sharded runs merged),
# and two requirements with the same seeds get independent noise. Built-in model (`u`) and
# diagram (`u.<inport>`) alike. -DSIMVERIFY -DWORK_DIR
file(REMOVE_RECURSE ${WORK_DIR})
file(WRITE ${WORK_DIR}/pack/integrate.yaml [=[
diagram:
  blocks:
    force: {type: inport}
    x: {type: integrator}
  connections:
    - [force, x]
]=])
set(requirements "requirements:\n")
foreach(id BUILTIN-A BUILTIN-B DIAGRAM-A DIAGRAM-B)
  if(id MATCHES "^BUILTIN")
    set(model "ornstein_uhlenbeck\n      p.a: 0")
    set(axis u)
  else()
    set(model integrate.yaml)
    set(axis u.force)
  endif()
  string(APPEND requirements "  - id: NOISE-${id}
    title: x' = nu over 1 s, five seeds
    level: integration
    component: simulate
    conditions:
      model: ${model}
      method: rk4
      h: 0.1
      tf: 1.0
      seed: [1, 2, 3, 4, 5]
      ${axis}: {noise: {std: 1.0, hold: 0.1}}
    quality: {measure: final(x_end), threshold: \"<= 100\"}
")
endforeach()
file(WRITE ${WORK_DIR}/pack/noise.yaml "${requirements}")
set(pack ${WORK_DIR}/pack)

function(expect_ok)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "expected exit 0, got ${rc}: ${ARGN}\n${out}\n${err}")
  endif()
endfunction()
expect_ok(${SIMVERIFY} run ${pack} --out ${WORK_DIR}/one --no-progress --jobs 1)
expect_ok(${SIMVERIFY} run ${pack} --out ${WORK_DIR}/two --no-progress --jobs 2)
expect_ok(${SIMVERIFY} run ${pack} --out ${WORK_DIR}/s1 --no-progress --shard 1/3)
expect_ok(${SIMVERIFY} run ${pack} --out ${WORK_DIR}/s2 --no-progress --shard 2/3)
expect_ok(${SIMVERIFY} run ${pack} --out ${WORK_DIR}/s3 --no-progress --shard 3/3 --jobs 2)
expect_ok(${SIMVERIFY} merge ${WORK_DIR}/s1 ${WORK_DIR}/s2 ${WORK_DIR}/s3 --out ${WORK_DIR}/merged)

# values_<run>_<requirement id>_<point index> = the point's measured value.
function(read_values run)
  file(READ ${WORK_DIR}/${run}/results.json json)
  string(JSON n LENGTH "${json}" requirements)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON id GET "${json}" requirements ${i} id)
    string(JSON points LENGTH "${json}" requirements ${i} points)
    if(NOT points EQUAL 5)
      message(FATAL_ERROR "${run}: ${id} has ${points} points, expected 5")
    endif()
    foreach(k RANGE 4)
      string(JSON index GET "${json}" requirements ${i} points ${k} index)
      string(JSON value GET "${json}" requirements ${i} points ${k} value)
      set(values_${run}_${id}_${index} "${value}" PARENT_SCOPE)
    endforeach()
  endforeach()
endfunction()
foreach(run one two merged)
  read_values(${run})
endforeach()
foreach(id BUILTIN-A BUILTIN-B DIAGRAM-A DIAGRAM-B)
  foreach(index RANGE 4)
    set(reference "${values_one_NOISE-${id}_${index}}")
    if(reference STREQUAL "")
      message(FATAL_ERROR "NOISE-${id} point ${index}: no value")
    endif()
    foreach(run two merged)
      if(NOT "${values_${run}_NOISE-${id}_${index}}" STREQUAL reference)
        message(FATAL_ERROR "NOISE-${id} point ${index}: --jobs 1 gave ${reference}, "
                            "${run} gave ${values_${run}_NOISE-${id}_${index}}")
      endif()
    endforeach()
  endforeach()
endforeach()
# Same seeds, another requirement: other draws, for the built-in model and the diagram.
foreach(kind BUILTIN DIAGRAM)
  foreach(index RANGE 4)
    if("${values_one_NOISE-${kind}-A_${index}}" STREQUAL "${values_one_NOISE-${kind}-B_${index}}")
      message(FATAL_ERROR "NOISE-${kind}-A and -B share point ${index}'s noise: "
                          "${values_one_NOISE-${kind}-A_${index}}")
    endif()
  endforeach()
endforeach()
