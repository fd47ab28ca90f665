# check_installed_runs(PREFIX PROJECT SOURCE_DIR): the simverify installed under PREFIX,
# with a clean environment (no SIMVERIFY_REPORTS_DIR) in the folder PROJECT, prints its
# version, runs a copy of a shipped pack and renders the HTML report with the renderer,
# templates and static files of PREFIX/share/simverify. Shared by relocatable_test.cmake and
# package_test.cmake.
function(installed_step what project)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=SIMVERIFY_REPORTS_DIR
                          PYTHONDONTWRITEBYTECODE=1 ${ARGN}
                  WORKING_DIRECTORY ${project}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (exit ${rc}):\n${out}\n${err}")
  endif()
  set(step_output "${out}${err}" PARENT_SCOPE)
endfunction()

function(check_installed_runs prefix project source_dir)
  foreach(file bin/simverify share/simverify/reports/render.py
               share/simverify/reports/templates/index.html
               share/simverify/reports/static/style.css
               share/bash-completion/completions/simverify
               share/simverify/schemas/simverify-requirements.schema.json
               share/simverify/schemas/simverify-results.schema.json)
    if(NOT EXISTS ${prefix}/${file})
      message(FATAL_ERROR "the installed tree ${prefix} lacks ${file}")
    endif()
  endforeach()
  file(MAKE_DIRECTORY ${project})
  # A user's project: a copy of one pack, no requirements/simverify.yaml.
  file(COPY ${source_dir}/requirements/unit/first.yaml DESTINATION ${project})
  installed_step("simverify --version" ${project} ${prefix}/bin/simverify --version)
  if(NOT step_output MATCHES "^simverify [0-9]+\\.[0-9]+\\.[0-9]+ \\(commit ")
    message(FATAL_ERROR "unexpected version line: ${step_output}")
  endif()
  installed_step("simverify run" ${project}
                 ${prefix}/bin/simverify run first.yaml --out results --no-progress)
  installed_step("simverify report" ${project} ${prefix}/bin/simverify report results --out site)
  if(NOT step_output MATCHES "report: ${project}/site/index.html")
    message(FATAL_ERROR "simverify report did not say where the report is:\n${step_output}")
  endif()
  file(READ ${project}/site/index.html index)
  foreach(expected "SOLVER-ODE4-ORDER" "static/style.css")
    if(NOT index MATCHES "${expected}")
      message(FATAL_ERROR "the report's index.html lacks '${expected}'")
    endif()
  endforeach()
  if(NOT EXISTS ${project}/site/static/style.css)
    message(FATAL_ERROR "the report lacks its style sheet (share/simverify/reports/static)")
  endif()
endfunction()
