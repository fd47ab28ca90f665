# `simverify gate` and `simverify report` through the real executable on the renderer's small
# results fixtures (testsuites/reports/fixtures): exit codes 0/1/2, the verdict and its
# reasons, file:line:col errors, and a site that only ever appears whole. Runs in WORK_DIR,
# where there is no requirements/simverify.yaml, so the gate settings are explicit.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(fixtures ${SOURCE_DIR}/testsuites/reports/fixtures)
set(coverage ${fixtures}/coverage-summary.json)  # line 83.4%, branch 41.0%

# simverify ARGS... ; sets rc, out, err in the caller.
function(simverify)
  execute_process(COMMAND ${SIMVERIFY} ${ARGN} WORKING_DIRECTORY ${WORK_DIR}
                  RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  set(rc "${code}" PARENT_SCOPE)
  set(out "${stdout}" PARENT_SCOPE)
  set(err "${stderr}" PARENT_SCOPE)
endfunction()

function(expect what expected_rc)
  if(NOT rc STREQUAL "${expected_rc}")
    message(FATAL_ERROR "${what}: expected exit ${expected_rc}, got ${rc}\n${out}\n${err}")
  endif()
  foreach(pattern ${ARGN})
    if(NOT "${out}${err}" MATCHES "${pattern}")
      message(FATAL_ERROR "${what}: output lacks '${pattern}'\n${out}\n${err}")
    endif()
  endforeach()
endfunction()

file(WRITE ${WORK_DIR}/gate.yaml "gate:\n  levels: [unit, integration]\n  coverage: {line: 80, branch: 40}\n")
file(WRITE ${WORK_DIR}/strict.yaml "gate:\n  coverage: {line: 80, branch: 50}\n")
file(WRITE ${WORK_DIR}/bad.yaml "gate:\n  levels: [unit]\n  coverage: {line: 80, brnch: 50}\n")

# --- gate ---------------------------------------------------------------------------------
# A real run of a unit and an integration requirement (ode4 and ode2 on x' = -x; their errors
# 3.3e-7 and 6.2e-6 are far inside the bounds), held to the file it was made from.
file(WRITE ${WORK_DIR}/pack.yaml [=[requirements:
  - id: TINY-ODE4
    title: ode4 reaches exp(-t) at t = 1
    level: unit
    component: simulate
    conditions: {model: exponential, method: ode4, h: [0.1, 0.05], tf: 1}
    quality: {measure: error_end, threshold: "<= 1e-5"}
  - id: TINY-HEUN
    title: Heun reaches exp(-t) at t = 1
    level: integration
    component: simulate
    conditions: {model: exponential, method: ode2, h: 0.01, tf: 1}
    quality: {measure: error_end, threshold: "<= 1e-4"}
]=])
simverify(run ${WORK_DIR}/pack.yaml --out ${WORK_DIR}/run --no-progress)
expect("run of the small pack" 0 "verdict: RELEASABLE")
simverify(gate ${WORK_DIR}/run --coverage ${coverage} --config ${WORK_DIR}/gate.yaml
          --json ${WORK_DIR}/decision.json)
expect("gate on a passing run" 0 "gate: RELEASABLE"
       "ok   the results are those of the 2 requirement\\(s\\) in [^\n]*/pack.yaml"
       "ok   line coverage 83.4%")
file(READ ${WORK_DIR}/decision.json decision)
string(JSON releasable GET "${decision}" releasable)
if(NOT releasable)
  message(FATAL_ERROR "--json: ${decision}")
endif()
simverify(gate ${WORK_DIR}/run --recheck all)
expect("gate re-evaluating every point" 0
       "gate: evaluating 3 point\\(s\\) of 2 requirement\\(s\\) again"
       "ok   3 point\\(s\\) of 2 requirement\\(s\\), drawn at random and re-evaluated, give the values")
# --timeout: the limit of one re-evaluated point; meaningless without --recheck.
simverify(gate ${WORK_DIR}/run --recheck all --timeout 600)
expect("gate --recheck all --timeout 600" 0 "ok   3 point\\(s\\) of 2 requirement\\(s\\)")
simverify(gate ${WORK_DIR}/run --timeout 600)
expect("gate --timeout without --recheck" 2
       "--timeout limits the points --recheck evaluates again; give --recheck too")
simverify(gate ${WORK_DIR}/run --recheck 1 --timeout 0)
expect("gate --timeout 0" 2 "--timeout")
simverify(report ${WORK_DIR}/run --timeout 600 --out ${WORK_DIR}/timeout-site)
expect("report --timeout without --recheck" 2
       "--timeout limits the points --recheck evaluates again; give --recheck too")
if(EXISTS ${WORK_DIR}/timeout-site)
  message(FATAL_ERROR "report with a usage error wrote ${WORK_DIR}/timeout-site")
endif()
simverify(gate ${WORK_DIR}/run --recheck 0)
expect("gate --recheck 0" 2 "--recheck must be all or a whole number from 1 to 1000000000, got .0.")
simverify(gate ${WORK_DIR}/run --recheck some)
expect("gate --recheck some" 2 "--recheck")
# The file changed since the run: its results no longer show that it passes.
file(READ ${WORK_DIR}/pack.yaml pack)
string(REPLACE "<= 1e-4" "<= 1e-6" stricter "${pack}")
file(WRITE ${WORK_DIR}/stricter.yaml "${stricter}")
simverify(gate ${WORK_DIR}/run --requirements ${WORK_DIR}/stricter.yaml)
expect("gate against a changed requirement file" 1
       "FAIL TINY-HEUN is marked passed but its threshold is \"<= 0.0001\" in the results, \"<= 1e-06\" at [^\n]*stricter.yaml:8:9"
       "gate: NOT RELEASABLE")
simverify(gate ${WORK_DIR}/run --requirements ${WORK_DIR}/nowhere.yaml)
expect("gate with missing --requirements" 2 "nowhere.yaml")
# The fixtures are written by a script (make_fixtures.py): no requirement files behind them.
simverify(gate ${fixtures}/passing --coverage ${coverage} --config ${WORK_DIR}/gate.yaml)
expect("gate on results without their sources" 1
       "FAIL [^\n]*passing/results.json does not record the requirement files it was run from"
       "give them with --requirements PATH" "gate: NOT RELEASABLE")

simverify(gate ${fixtures}/passing --coverage ${coverage} --config ${WORK_DIR}/strict.yaml)
expect("gate below the branch bar" 1 "FAIL branch coverage 41.0% \\(410 of 1000\\) is below"
       "gate: NOT RELEASABLE")
simverify(gate ${fixtures}/passing --config ${WORK_DIR}/strict.yaml)
expect("gate with bars and no coverage" 1 "no coverage data was given")
simverify(gate ${fixtures}/incomplete)
expect("gate on an incomplete run" 1 "the run is incomplete" "SIM-LATER did not run")
simverify(gate ${fixtures}/passing --config ${WORK_DIR}/bad.yaml)
expect("gate with a bad project file" 2 "bad.yaml:3:24: error: unknown key 'brnch'"
       "did you mean 'branch'")
simverify(gate ${fixtures}/passing --coverage ${WORK_DIR}/gate.yaml)
expect("gate with a YAML file as coverage" 2 "gate.yaml: not a coverage file: expected")
simverify(gate ${WORK_DIR}/nowhere)
expect("gate on a missing folder" 2 "nowhere/results.json: cannot read results")
simverify(gate)
expect("gate without a folder" 2 "gate needs exactly one results folder")

# --- diff ---------------------------------------------------------------------------------
# baseline: everything passed at commit 0123456789ab; failing: two of them regressed.
simverify(diff ${fixtures}/baseline ${fixtures}/failing)
expect("diff with regressions" 1 "base: [^\n]*baseline/results.json \\(0123456789ab, 2026-11-20T08:00:00Z\\)"
       "regressed +SIM-ERROR +passed -> error"
       "regressed +<script>[^\n]*passed -> failed; worst 0.08 -> 0.5; margin 0.02 -> -0.4 \\(down -0.42\\)"
       "removed +SIM-RETIRED +removed \\(was passed\\)"
       "diff: 2 regressed, 0 fixed, 0 changed status, 0 new, 1 removed, 1 unchanged status")
simverify(diff ${fixtures}/baseline ${fixtures}/failing --json --points)
expect("diff --json" 1)
string(JSON format GET "${out}" format)
string(JSON first GET "${out}" requirements 0 change)
string(JSON regressions GET "${out}" counts regressed)
string(JSON point_new GET "${out}" requirements 0 points 0 passed new)
if(NOT format STREQUAL "simverify.diff/1" OR NOT first STREQUAL "regressed"
   OR NOT regressions EQUAL 2 OR NOT point_new STREQUAL "OFF")
  message(FATAL_ERROR "diff --json --points: ${out}")
endif()
simverify(diff ${fixtures}/failing ${fixtures}/baseline)
expect("diff the other way: fixes only" 0 "fixed +SIM-ERROR +error -> passed" "0 regressed, 2 fixed")
simverify(diff ${fixtures}/passing ${fixtures}/passing)
expect("diff of a run with itself" 0 "diff: 0 regressed, 0 fixed, 0 changed status, 0 new, 0 removed, 6 unchanged")
simverify(diff ${fixtures}/passing ${WORK_DIR}/nowhere)
expect("diff with a missing folder" 2 "nowhere/results.json: cannot read results")
file(MAKE_DIRECTORY ${WORK_DIR}/broken)
file(WRITE ${WORK_DIR}/broken/results.json "{\n \"format\": \"simverify.results/1\",\n \"requirements\": [}\n")
simverify(diff ${WORK_DIR}/broken ${fixtures}/passing)
expect("diff with broken JSON" 2 "broken/results.json:3:[0-9]+: not valid JSON")
# A pass its points do not support would hide a regression: refused, as the gate refuses it.
file(READ ${fixtures}/failing/results.json failing_json)
string(REPLACE "\"status\": \"failed\"" "\"status\": \"passed\"" forged_json "${failing_json}")
file(WRITE ${WORK_DIR}/broken/results.json "${forged_json}")
simverify(diff ${fixtures}/passing ${WORK_DIR}/broken)
expect("diff with a forged pass" 2 "broken/results.json: requirements\\[[0-9]+\\]: .* is marked passed but grid point 0 failed")
# Only results simverify wrote are left for the schema check (schema.results).
file(REMOVE_RECURSE ${WORK_DIR}/broken)
simverify(diff ${fixtures}/passing)
expect("diff with one folder" 2 "diff needs two results folders")

# --- report -------------------------------------------------------------------------------
simverify(report ${fixtures}/failing --coverage ${coverage} --config ${WORK_DIR}/strict.yaml
          --out ${WORK_DIR}/site)
# Exit 0: the report was rendered; the verdict (not releasable) is in its output and banner.
expect("report on a failing run" 0 "report: [^\n]*/site/index.html" "gate: NOT RELEASABLE")
file(READ ${WORK_DIR}/site/index.html index)
foreach(text "NOT RELEASABLE" "branch coverage 41.0% \\(410 of 1000\\) is below the test-ready bar"
        "SIM-ERROR error: 1 point\\(s\\) raised an error"
        "&lt;script&gt;alert\\(&#39;x&#39;\\)&lt;/script&gt; &amp; &#34;quotes&#34;")
  if(NOT index MATCHES "${text}")
    message(FATAL_ERROR "index.html lacks '${text}'")
  endif()
endforeach()
# The page's one script is its own table script; any other <script> is a hostile title.
string(REPLACE "<script src=\"static/table.js\"></script>" "" index_text "${index}")
if(index_text MATCHES "<script")
  message(FATAL_ERROR "a hostile title became markup")
endif()
file(GLOB pages ${WORK_DIR}/site/requirements/*.html)
list(LENGTH pages count)
if(NOT count EQUAL 3)
  message(FATAL_ERROR "expected 3 requirement pages, got ${count}")
endif()

# A second report replaces the site whole; nothing is left beside it.
simverify(report ${fixtures}/passing --out ${WORK_DIR}/site)
expect("report replacing a site" 0 "report: [^\n]*/site/index.html")
file(GLOB pages ${WORK_DIR}/site/requirements/*.html)
list(LENGTH pages count)
if(NOT count EQUAL 6)
  message(FATAL_ERROR "the replaced site has ${count} requirement pages, expected 6")
endif()
file(GLOB leftovers LIST_DIRECTORIES true ${WORK_DIR}/.site* ${WORK_DIR}/*.tmp*)
if(leftovers)
  message(FATAL_ERROR "temporary files left beside the site: ${leftovers}")
endif()

# Against a baseline and earlier runs: the comparison is simverify diff's.
simverify(report ${fixtures}/failing --baseline ${fixtures}/baseline
          --history ${fixtures}/baseline ${fixtures}/incomplete --out ${WORK_DIR}/compared)
expect("report --baseline --history" 0
       "compared with [^\n]*baseline/results.json: 2 newly failing, 0 fixed")
file(READ ${WORK_DIR}/compared/index.html compared)
foreach(text "Compared with <strong>0123456789ab, 2026-11-20 08:00:00 UTC</strong>"
        "2 newly failing" "newly failing</div>" "<svg class=\"spark\"" "SIM-RETIRED")
  string(FIND "${compared}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "report --baseline: index.html lacks '${text}'")
  endif()
endforeach()
# --history=A B is --history A B; the value of --out is taken whole, even "--history".
simverify(report ${fixtures}/failing --history=${fixtures}/baseline ${fixtures}/incomplete
          --out ${WORK_DIR}/compared3)
expect("report --history=A B" 0)
file(READ ${WORK_DIR}/compared3/index.html compared3)
string(FIND "${compared3}" "<svg class=\"spark\"" at)
if(at EQUAL -1)
  message(FATAL_ERROR "report --history=A B drew no history")
endif()
simverify(report ${fixtures}/failing --out --history)
expect("report --out --history" 0)
if(NOT EXISTS "${WORK_DIR}/--history/index.html")
  message(FATAL_ERROR "report --out --history: no site in the folder named --history")
endif()
simverify(report ${fixtures}/failing --baseline ${WORK_DIR}/nowhere --out ${WORK_DIR}/compared2)
expect("report with a missing baseline" 2 "nowhere/results.json: cannot read results")
simverify(report ${fixtures}/failing --history --out ${WORK_DIR}/compared2)
expect("report --history without folders" 2 "--history needs at least one results folder")
if(EXISTS ${WORK_DIR}/compared2)
  message(FATAL_ERROR "a refused report must not create its site")
endif()

# Bad input: exit 2, nothing written, an existing site kept.
simverify(report ${fixtures}/passing --config ${WORK_DIR}/bad.yaml --out ${WORK_DIR}/site2)
expect("report with a bad project file" 2 "bad.yaml:3:24: error:")
simverify(report ${WORK_DIR}/nowhere --out ${WORK_DIR}/site2)
expect("report on a missing folder" 2 "nowhere/results.json")
if(EXISTS ${WORK_DIR}/site2)
  message(FATAL_ERROR "a failed report must not create its site")
endif()
file(MAKE_DIRECTORY ${WORK_DIR}/mine)
file(WRITE ${WORK_DIR}/mine/notes.txt "keep me")
simverify(report ${fixtures}/passing --out ${WORK_DIR}/mine)
expect("report over a folder it did not write" 2 "is not a simverify report"
       "simverify: no report written")
if(NOT EXISTS ${WORK_DIR}/mine/notes.txt)
  message(FATAL_ERROR "report deleted a folder it did not write")
endif()

# Usage errors and the environment.
simverify(report ${fixtures}/passing)
expect("report without --out" 2 "report needs --out SITE")
simverify(report ${fixtures}/passing ${fixtures}/failing --out ${WORK_DIR}/x)
expect("report with two folders" 2 "report needs exactly one results folder")
simverify(report --help)
expect("report --help" 0 "--coverage-html")
simverify(report ${fixtures}/passing --out ${WORK_DIR}/x --colour red)
expect("report with an unknown option" 2 "colour")
set(ENV{SIMVERIFY_REPORTS_DIR} ${WORK_DIR})
simverify(report ${fixtures}/passing --out ${WORK_DIR}/x)
expect("report with no renderer" 2 "SIMVERIFY_REPORTS_DIR=[^\n]*: no render.py there")
unset(ENV{SIMVERIFY_REPORTS_DIR})
set(ENV{SIMVERIFY_PYTHON} ${WORK_DIR}/no-python)
simverify(report ${fixtures}/passing --out ${WORK_DIR}/x)
expect("report without python" 2 "cannot run [^\n]*no-python" "renderer failed \\(exit 127\\)")
unset(ENV{SIMVERIFY_PYTHON})
if(EXISTS ${WORK_DIR}/x)
  message(FATAL_ERROR "a failed report must not create its site")
endif()
