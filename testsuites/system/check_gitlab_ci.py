#!/usr/bin/python3
""".gitlab-ci.yml has the shape docs/ci.md promises (a fast check; ci/gitlab-ci-local runs it).

Checks (exit 1, one line per problem):
  - stages are build, unit, integration, system, report, gate (in this order), then deploy;
  - every job's stage exists; installing happens only through ci/install-deps (no apt-get,
    pip or npm in any script);
  - jobs that run tests (ci/test, simverify run) publish JUnit with artifacts:reports:junit
    and keep it `when: always`;
  - system-requirements is `parallel: N` and feeds CI_NODE_INDEX/CI_NODE_TOTAL to --shard;
    a report-stage job merges the shards' folders and the gate decides on the merged one;
  - the coverage job runs ci/coverage, publishes Cobertura and its `coverage:` regex
    captures the percentage from lcov's and gcovr's summary lines;
  - pages runs on the default branch only; release on version tags only and needs gate;
  - runtime-image (version tags, after the gate) builds the Dockerfile's `runtime` stage and
    pushes it to $CI_REGISTRY_IMAGE.
Usage: check_gitlab_ci.py SOURCE_DIR
"""
import re

import yaml

import check_main

STAGES = ["build", "unit", "integration", "system", "report", "gate"]
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
        if re.search(r"ci/test\b|simverify run\b", script):
            junit = (job.get("artifacts") or {}).get("reports", {}).get("junit")
            if not junit:
                problems.append(f"{name}: runs tests but publishes no artifacts:reports:junit")
            if (job.get("artifacts") or {}).get("when") != "always":
                problems.append(f"{name}: test reports must be kept when the job fails "
                                f"(artifacts:when: always)")

    system = jobs.get("system-requirements", {})
    script = " ".join(lines(system.get("script")))
    if not isinstance(system.get("parallel"), int) or system.get("parallel") < 2:
        problems.append("system-requirements must shard with parallel: N (N >= 2)")
    if "--shard $CI_NODE_INDEX/$CI_NODE_TOTAL" not in script:
        problems.append("system-requirements must run --shard $CI_NODE_INDEX/$CI_NODE_TOTAL")
    shard_out = re.search(r"--out (\S+)\$CI_NODE_INDEX", script)
    merges = [(name, re.search(r"simverify merge (.*?) --out (\S+)", " ".join(lines(j.get("script")))))
              for name, j in jobs.items() if j.get("stage") == "report"]
    merges = [(name, m) for name, m in merges if m]
    if not shard_out or len(merges) != 1:
        problems.append("one report-stage job must `simverify merge` the shards' --out folders")
    else:
        name, merge = merges[0]
        if shard_out.group(1) + "*" not in merge.group(1).split():
            problems.append(f"{name} merges {merge.group(1)}, not the shards' {shard_out.group(1)}*")
        gate_script = " ".join(lines(jobs.get("gate", {}).get("script")))
        if f"simverify gate {merge.group(2)}" not in gate_script:
            problems.append(f"gate must decide on the merged folder {merge.group(2)}")

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

    pages = jobs.get("pages", {})
    rules = " ".join(str(r.get("if", "")) for r in pages.get("rules", []))
    if "$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH" not in rules:
        problems.append("pages must run only on the default branch")
    if "public" not in (pages.get("artifacts") or {}).get("paths", []):
        problems.append("pages must publish public/")
    release = jobs.get("release", {})
    rules = " ".join(str(r.get("if", "")) for r in release.get("rules", []))
    if "$CI_COMMIT_TAG =~ /^v\\d+/" not in rules:
        problems.append(r"release must run only on version tags ($CI_COMMIT_TAG =~ /^v\d+/)")
    if "gate" not in (release.get("needs") or []):
        problems.append("release must need the gate")

    image = jobs.get("runtime-image", {})
    rules = " ".join(str(r.get("if", "")) for r in image.get("rules", []))
    script = " ".join(lines(image.get("script")))
    if "$CI_COMMIT_TAG =~ /^v\\d+/" not in rules or "gate" not in (image.get("needs") or []):
        problems.append("runtime-image must run only on version tags and need the gate")
    if not re.search(r"docker build --target runtime\b.*-t \"?\$CI_REGISTRY_IMAGE:\$CI_COMMIT_TAG", script):
        problems.append("runtime-image must build the Dockerfile's runtime stage as "
                        "$CI_REGISTRY_IMAGE:$CI_COMMIT_TAG")
    if not re.search(r"docker push \"?\$CI_REGISTRY_IMAGE:\$CI_COMMIT_TAG", script):
        problems.append("runtime-image must push $CI_REGISTRY_IMAGE:$CI_COMMIT_TAG")
    return problems


if __name__ == "__main__":
    check_main.run("check_gitlab_ci", main, __doc__,
                   "stages, JUnit, Cobertura, shards, pages and release as documented")
