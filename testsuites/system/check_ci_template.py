#!/usr/bin/python3
"""ci/templates/simverify.gitlab-ci.yml is a template other projects can include.

Checks (exit 1, one line per problem):
  - it is a `spec:` document (inputs requirements, shards (a number), coverage, image,
    simverify, timeout, recheck_timeout) and a document of jobs, and every `$[[ inputs.X ]]` it uses is declared;
  - its stages are validate, system, merge, report, gate, each with a job;
  - the system job is `parallel: $[[ inputs.shards ]]`, shards the whole run (no --level) with
    --shard $CI_NODE_INDEX/$CI_NODE_TOTAL and the timeout input, and may fail with exit 1 only
    (allow_failure: exit_codes: [1]) so merge, report and gate still run; merge merges those
    shards' folders; the report and gate read the merged folder and the coverage input; merge
    and report pass on exit 1 (not releasable), the gate does not and is not allowed to fail;
    the report and gate limit each point they evaluate again (--timeout from recheck_timeout,
    whose default is a finite number of seconds);
  - every script line of its jobs calls only the executable of the `simverify` input
    ($SIMVERIFY_BIN, default the installed `simverify`) or `test`: no ci/ script, build tree
    or installer of simverify's own checkout;
  - jobs that run requirements publish JUnit, kept when they fail;
  - pages runs on the default branch and publishes public/;
  - the copy-paste example in docs/ci.md is examples/ci-project/.gitlab-ci.yml (its leading
    comment aside), and that project includes this template.
Usage: check_ci_template.py SOURCE_DIR
"""
import re

import yaml

import check_main

STAGES = ["validate", "system", "merge", "report", "gate"]
INPUTS = {"requirements", "shards", "coverage", "image", "simverify", "timeout", "recheck_timeout"}
RECHECK_TIMEOUT = "${SIMVERIFY_RECHECK_TIMEOUT:+--timeout $SIMVERIFY_RECHECK_TIMEOUT}"
BIN = "$SIMVERIFY_BIN"
TEMPLATE = "ci/templates/simverify.gitlab-ci.yml"


def deep_merge(base, over):
    """GitLab's `extends`: hashes merge key by key, anything else is replaced."""
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = deep_merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def resolve(jobs, name):
    job = dict(jobs[name])
    parents = job.pop("extends", [])
    merged = {}
    for parent in [parents] if isinstance(parents, str) else parents:
        merged = deep_merge(merged, resolve(jobs, parent))
    return deep_merge(merged, job)


def main(source):
    problems = []
    text = (source / TEMPLATE).read_text()
    docs = list(yaml.safe_load_all(text))
    if len(docs) != 2 or "spec" not in (docs[0] or {}):
        return [f"{TEMPLATE}: expected a `spec:` document and a document of jobs"]
    inputs = docs[0]["spec"].get("inputs", {})
    for name in sorted(INPUTS - set(inputs)):
        problems.append(f"{TEMPLATE}: no input `{name}`")
    if inputs.get("shards", {}).get("type") != "number":
        problems.append(f"{TEMPLATE}: input `shards` must be `type: number`")
    for used in sorted(set(re.findall(r"\$\[\[\s*inputs\.([\w-]+)\s*\]\]", text)) - set(inputs)):
        problems.append(f"{TEMPLATE}: uses undeclared input `{used}`")
    if inputs.get("simverify", {}).get("default") != "simverify" or \
            inputs.get("timeout", {}).get("default") != "":
        problems.append(f"{TEMPLATE}: inputs simverify and timeout must default to the "
                        f"installed simverify and no timeout")
    if not str(inputs.get("recheck_timeout", {}).get("default", "")).isdigit() or \
            inputs["recheck_timeout"].get("type") is not None:
        problems.append(f"{TEMPLATE}: input recheck_timeout must default to a number of seconds "
                        f"as text (\"\" gives no limit), so a point that hangs ends the gate")

    doc = docs[1]
    if doc.get("stages") != STAGES:
        problems.append(f"{TEMPLATE}: stages must be {STAGES}, found {doc.get('stages')}")
    names = [k for k in doc if k != "stages" and not k.startswith(".")]
    jobs = {name: resolve(doc, name) for name in names}
    for stage in STAGES:
        if not any(job.get("stage") == stage for job in jobs.values()):
            problems.append(f"{TEMPLATE}: no job in stage {stage}")
    for name, job in jobs.items():
        for line in job.get("script", []):
            first = line.split()[0]
            if first not in (BIN, "test"):
                problems.append(f"{TEMPLATE}: {name} runs `{first}`; jobs may call only the "
                                f"simverify of the `simverify` input ({BIN})")
        if job.get("variables", {}).get("SIMVERIFY_BIN") != "$[[ inputs.simverify ]]":
            problems.append(f"{TEMPLATE}: {name} does not take SIMVERIFY_BIN from the input")
        script = " ".join(job.get("script", []))
        if f"{BIN} run" in script:
            artifacts = job.get("artifacts") or {}
            if not (artifacts.get("reports") or {}).get("junit") or artifacts.get("when") != "always":
                problems.append(f"{TEMPLATE}: {name} runs requirements without JUnit kept always")

    system = [job for job in jobs.values() if job.get("stage") == "system"]
    if len(system) != 1 or system[0].get("parallel") != "$[[ inputs.shards ]]":
        problems.append(f"{TEMPLATE}: the system job must be `parallel: $[[ inputs.shards ]]`")
    else:
        script = " ".join(system[0]["script"])
        out = re.search(r"--shard \$CI_NODE_INDEX/\$CI_NODE_TOTAL\s+"
                        r"\$\{SIMVERIFY_TIMEOUT:\+--timeout \$SIMVERIFY_TIMEOUT\}\s+"
                        r"--out (\S+)\$CI_NODE_INDEX", script)
        if "--level" in script or "--filter" in script:
            problems.append(f"{TEMPLATE}: the shards must run every level (the gate needs them all)")
        if system[0].get("allow_failure") != {"exit_codes": [1]}:
            problems.append(f"{TEMPLATE}: the shards must be allowed to fail with exit 1 only, so "
                            f"merge, report and gate run when a requirement failed")
        merge = " ".join(" ".join(j.get("script", [])) for j in jobs.values()
                         if j.get("stage") == "merge")
        merged = re.search(r"\$SIMVERIFY_BIN merge (\S+) --out (\S+) \|\| test \$\? -eq 1", merge)
        if not out or not merged or merged.group(1) != out.group(1) + "*":
            problems.append(f"{TEMPLATE}: merge must merge the system shards' --out folders")
        else:
            for stage in ("report", "gate"):
                for job in (j for j in jobs.values() if j.get("stage") == stage):
                    script = " ".join(job.get("script", []))
                    if f"{BIN} {stage} {merged.group(2)}" not in script or \
                            "$SIMVERIFY_COVERAGE" not in script:
                        problems.append(f"{TEMPLATE}: the {stage} job must read {merged.group(2)} "
                                        f"and the coverage input")
                    if "--recheck $SIMVERIFY_RECHECK" not in script or RECHECK_TIMEOUT not in script:
                        problems.append(f"{TEMPLATE}: the {stage} job must recheck with the "
                                        f"recheck_timeout input ({RECHECK_TIMEOUT})")
                    # The report is written when not releasable; the gate fails the pipeline.
                    tolerant = "|| test $? -eq 1" in script
                    if tolerant != (stage == "report") or "allow_failure" in job:
                        problems.append(f"{TEMPLATE}: the {stage} job must "
                                        f"{'pass' if stage == 'report' else 'fail'} when the run "
                                        f"is not releasable")
    pages = jobs.get("pages", {})
    rules = " ".join(str(r.get("if", "")) for r in pages.get("rules", []))
    if "$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH" not in rules or \
            "public" not in (pages.get("artifacts") or {}).get("paths", []):
        problems.append(f"{TEMPLATE}: pages must run on the default branch and publish public/")

    example = source / "examples" / "ci-project" / ".gitlab-ci.yml"
    example_text = re.sub(r"\A(#[^\n]*\n)+", "", example.read_text())
    includes = yaml.safe_load(example_text).get("include", [])
    if not any(isinstance(i, dict) and i.get("file") == TEMPLATE for i in includes):
        problems.append(f"{example} does not include {TEMPLATE}")
    docs_text = (source / "docs" / "ci.md").read_text()
    if f"```yaml\n{example_text}```" not in docs_text:
        problems.append(f"docs/ci.md lacks the complete example, {example} as it is")
    return problems


if __name__ == "__main__":
    check_main.run("check_ci_template", main, __doc__,
                   "the CI template's inputs, stages, shards and jobs, and its documented example")
