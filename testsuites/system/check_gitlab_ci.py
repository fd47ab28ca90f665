#!/usr/bin/python3
""".gitlab-ci.yml has the shape docs/ci.md promises (a fast check; ci/gitlab-ci-local runs it).

Checks (exit 1, one line per problem):
  - stages are build, validate, unit, integration, system, merge, report, gate (in this
    order), then deploy, and the CI template's stages are among them;
  - every job's stage exists; installing happens only through ci/install-deps (no apt-get,
    pip or npm in any script);
  - jobs that run tests (ci/test) publish JUnit with artifacts:reports:junit and keep it
    `when: always`;
  - the requirements run through the CI template alone (one definition, not two): it is
    included locally with `shards` >= 2, the `simverify` input is the build job's executable
    (in its artifacts), the `coverage` input the coverage job's summary (in its artifacts, from
    a stage before the template's report); no job of this file runs simverify run, merge,
    report or gate itself, or defines a job the template has;
  - the coverage job runs ci/coverage, publishes Cobertura and its `coverage:` regex
    captures the percentage from lcov's and gcovr's summary lines;
  - release on version tags only and needs the template's gate;
  - runtime-image (version tags, after the gate) builds the Dockerfile's `runtime` stage and
    pushes it to $CI_REGISTRY_IMAGE.
Usage: check_gitlab_ci.py SOURCE_DIR
"""
import re

import yaml

import check_main

STAGES = ["build", "validate", "unit", "integration", "system", "merge", "report", "gate"]
TEMPLATE = "ci/templates/simverify.gitlab-ci.yml"
KEYWORDS = {"image", "stages", "variables", "default", "workflow", "include", "cache",
            "before_script", "after_script", "services"}


def lines(value):
    if value is None:
        return []
    return [value] if isinstance(value, str) else [str(v) for v in value]


def resolve(jobs, name, seen=()):
    """The job with `extends:` applied (deep merge of mappings, as GitLab does)."""
    job = jobs[name]
    parents = job.get("extends", [])
    parents = [parents] if isinstance(parents, str) else parents
    merged = {}
    for parent in parents:
        if parent in seen:
            raise ValueError(f"extends cycle at {parent}")
        merged = merge(merged, resolve(jobs, parent, seen + (name,)))
    return merge(merged, {k: v for k, v in job.items() if k != "extends"})


def merge(base, over):
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


def main(source):
    problems = []
    doc = yaml.safe_load((source / ".gitlab-ci.yml").read_text())
    stages = doc.get("stages", [])
    if stages[:len(STAGES)] != STAGES:
        problems.append(f"stages must start {STAGES}, found {stages}")
    default = doc.get("default", {})
    if "ci/install-deps" not in " ".join(lines(default.get("before_script"))):
        problems.append("default:before_script must run ci/install-deps")

    names = [k for k in doc if k not in KEYWORDS and not k.startswith(".")]
    jobs = {name: resolve(doc, name) for name in names}
    for name, job in jobs.items():
        if job.get("stage") not in stages:
            problems.append(f"{name}: stage {job.get('stage')} is not in stages")
        commands = lines(job.get("before_script", default.get("before_script"))) + \
            lines(job.get("script"))
        for command in commands:
            if re.search(r"\b(apt-get|apt|pip3?|npm)\s+(\S+\s+)*install\b", command):
                problems.append(f"{name}: installs by hand (use ci/install-deps): {command}")
        script = " ".join(lines(job.get("script")))
        if re.search(r"ci/test\b", script):
            junit = (job.get("artifacts") or {}).get("reports", {}).get("junit")
            if not junit:
                problems.append(f"{name}: runs tests but publishes no artifacts:reports:junit")
            if (job.get("artifacts") or {}).get("when") != "always":
                problems.append(f"{name}: test reports must be kept when the job fails "
                                f"(artifacts:when: always)")

    template = list(yaml.safe_load_all((source / TEMPLATE).read_text()))[1]
    for stage in template.get("stages", []):
        if stage not in stages:
            problems.append(f"the template's stage {stage} is not in stages")
    for name in jobs:
        if name in template:
            problems.append(f"{name}: the template defines this job already")
    includes = [i for i in doc.get("include", []) if isinstance(i, dict) and i.get("local") == TEMPLATE]
    inputs = includes[0].get("inputs", {}) if len(includes) == 1 else {}
    if len(includes) != 1:
        problems.append(f"include {TEMPLATE} once (local:), found {len(includes)}")
    elif not isinstance(inputs.get("shards"), int) or inputs["shards"] < 2:
        problems.append(f"the template's shards input must be a number >= 2, found {inputs.get('shards')}")
    for name, job in jobs.items():
        script = " ".join(lines(job.get("script")))
        if re.search(r"simverify (run|merge|report|gate)\b", script):
            problems.append(f"{name}: runs the requirements itself; the template's jobs do")

    def artifact_of(job_name, path):
        paths = (jobs.get(job_name, {}).get("artifacts") or {}).get("paths", [])
        paths = [p.replace("$SIMVERIFY_PRESET", doc.get("variables", {}).get("SIMVERIFY_PRESET", ""))
                 for p in paths]
        return any(path == p or (p.endswith("/") and path.startswith(p)) for p in paths)

    if not artifact_of("build", str(inputs.get("simverify", ""))):
        problems.append(f"the template's simverify input {inputs.get('simverify')} is not the "
                        f"build job's executable")
    if not artifact_of("coverage", str(inputs.get("coverage", ""))):
        problems.append(f"the template's coverage input {inputs.get('coverage')} is not the "
                        f"coverage job's summary")
    elif stages.index(jobs["coverage"].get("stage")) >= stages.index("report"):
        problems.append("coverage must run before the template's report stage")

    coverage = jobs.get("coverage", {})
    if "ci/coverage" not in " ".join(lines(coverage.get("script"))):
        problems.append("coverage must run ci/coverage")
    report = ((coverage.get("artifacts") or {}).get("reports") or {}).get("coverage_report", {})
    if report.get("coverage_format") != "cobertura" or not report.get("path"):
        problems.append("coverage must publish artifacts:reports:coverage_report (cobertura)")
    regex = coverage.get("coverage", "")
    match = re.fullmatch(r"/(.*)/", regex or "")
    if not match:
        problems.append(f"coverage: regex must read /.../, found {regex!r}")
    else:
        pattern = re.compile(match.group(1), re.MULTILINE)
        samples = {"  lines......: 87.3% (1234 of 1413 lines)": "87.3",  # lcov --summary
                   "lines: 91.0% (2011 out of 2210)": "91.0",           # gcovr --print-summary
                   "lines: 100% (5 out of 5)": "100"}
        for line, want in samples.items():
            found = pattern.search(f"noise\n{line}\nfunctions..: 50.0% (1 of 2)\n")
            if not found or found.group(1) != want:
                problems.append(f"coverage: regex {regex} does not capture {want} from {line!r}")
        if pattern.search("  functions..: 50.0% (1 of 2 functions)"):
            problems.append(f"coverage: regex {regex} also matches the function total")

    release = jobs.get("release", {})
    rules = " ".join(str(r.get("if", "")) for r in release.get("rules", []))
    if "$CI_COMMIT_TAG =~ /^v\\d+/" not in rules:
        problems.append(r"release must run only on version tags ($CI_COMMIT_TAG =~ /^v\d+/)")
    if "simverify-gate" not in (release.get("needs") or []):
        problems.append("release must need the gate (simverify-gate)")

    image = jobs.get("runtime-image", {})
    rules = " ".join(str(r.get("if", "")) for r in image.get("rules", []))
    script = " ".join(lines(image.get("script")))
    if "$CI_COMMIT_TAG =~ /^v\\d+/" not in rules or "simverify-gate" not in (image.get("needs") or []):
        problems.append("runtime-image must run only on version tags and need the gate")
    if not re.search(r"docker build --target runtime\b.*-t \"?\$CI_REGISTRY_IMAGE:\$CI_COMMIT_TAG", script):
        problems.append("runtime-image must build the Dockerfile's runtime stage as "
                        "$CI_REGISTRY_IMAGE:$CI_COMMIT_TAG")
    if not re.search(r"docker push \"?\$CI_REGISTRY_IMAGE:\$CI_COMMIT_TAG", script):
        problems.append("runtime-image must push $CI_REGISTRY_IMAGE:$CI_COMMIT_TAG")
    return problems


if __name__ == "__main__":
    check_main.run("check_gitlab_ci", main, __doc__,
                   "stages, JUnit, Cobertura, the CI template's inputs, release as documented")
