#!/usr/bin/python3
"""ci/k8s/ manifests are well-formed and run every system shard exactly once.

Checks (exit 1, one line per problem):
  - every ci/k8s/*.yaml parses as YAML and each document has apiVersion, kind,
    metadata.name;
  - the shard Job is batch/v1, completionMode Indexed, completions == parallelism ==
    SHARDS == the `shards` input .gitlab-ci.yml gives the CI template, restartPolicy Never;
  - its container script, run by bash for JOB_COMPLETION_INDEX = 0..N-1 with a stub
    `simverify` on PATH, calls `simverify run requirements --shard k/N --out DIR`
    for k = 1..N, each DIR distinct and on the shared volume;
  - the merge Job mounts the same PersistentVolumeClaim (which exists, ReadWriteMany) and
    runs `simverify merge`; run with the stub on N shard folders it merges all of them,
    and it refuses a missing shard.
Usage: check_k8s.py SOURCE_DIR
"""
import os
import pathlib
import shlex
import subprocess
import tempfile

import yaml

import check_main

STUB = """#!/bin/bash
printf '%s\\n' "$*" >> "$SIMVERIFY_STUB_LOG"
"""


def get(doc, *path):
    for key in path:
        if isinstance(doc, list):
            doc = doc[key] if isinstance(key, int) and key < len(doc) else None
        elif isinstance(doc, dict):
            doc = doc.get(key)
        else:
            return None
    return doc


def run_container(container, mount_path, volume_dir, extra_env):
    """Runs the container's command with bash, /results mapped to volume_dir, simverify
    stubbed. Returns (exit code, list of simverify argument lines, stderr)."""
    command = list(container.get("command", [])) + list(container.get("args", []))
    if command[:2] != ["/bin/bash", "-c"] or len(command) != 3:
        raise ValueError(f"container {container.get('name')}: expected command "
                         f"[/bin/bash, -c] and one script argument")
    script = command[2].replace(mount_path, str(volume_dir))
    with tempfile.TemporaryDirectory() as tmp:
        stub = pathlib.Path(tmp) / "simverify"
        stub.write_text(STUB)
        stub.chmod(0o755)
        log = pathlib.Path(tmp) / "calls"
        log.touch()
        env = {"PATH": f"{tmp}:{os.environ.get('PATH', '/usr/bin:/bin')}",
               "SIMVERIFY_STUB_LOG": str(log)}
        env.update({e["name"]: str(e["value"]) for e in container.get("env", [])})
        env.update(extra_env)
        done = subprocess.run(["/bin/bash", "-c", script], env=env, capture_output=True,
                              text=True, check=False, timeout=30)
        return done.returncode, log.read_text().splitlines(), done.stderr


def main(source):
    problems = []
    docs = {}
    for path in sorted((source / "ci" / "k8s").glob("*.yaml")):
        try:
            loaded = [d for d in yaml.safe_load_all(path.read_text()) if d is not None]
        except yaml.YAMLError as error:
            problems.append(f"{path.name}: not valid YAML: {error}")
            continue
        for doc in loaded:
            for field in ("apiVersion", "kind"):
                if not get(doc, field):
                    problems.append(f"{path.name}: a document lacks {field}")
            if not get(doc, "metadata", "name"):
                problems.append(f"{path.name}: a document lacks metadata.name")
            docs.setdefault(get(doc, "kind"), []).append((path.name, doc))
    if problems:
        return problems

    jobs = docs.get("Job", [])
    indexed = [(n, d) for n, d in jobs if get(d, "spec", "completionMode") == "Indexed"]
    merges = [(n, d) for n, d in jobs if get(d, "spec", "completionMode") != "Indexed"]
    if len(indexed) != 1:
        return problems + [f"expected one Indexed Job, found {len(indexed)}"]
    if len(merges) != 1:
        return problems + [f"expected one merge Job, found {len(merges)}"]
    (shard_file, shard_job), (merge_file, merge_job) = indexed[0], merges[0]

    if get(shard_job, "apiVersion") != "batch/v1":
        problems.append(f"{shard_file}: apiVersion must be batch/v1")
    spec = shard_job["spec"]
    n = spec.get("completions")
    if not isinstance(n, int) or n < 1:
        return problems + [f"{shard_file}: completions must be a positive integer"]
    if spec.get("parallelism") != n:
        problems.append(f"{shard_file}: parallelism {spec.get('parallelism')} != completions {n}")
    pod = get(spec, "template", "spec") or {}
    if pod.get("restartPolicy") != "Never":
        problems.append(f"{shard_file}: restartPolicy must be Never (podFailurePolicy needs it)")
    containers = pod.get("containers") or []
    if len(containers) != 1:
        return problems + [f"{shard_file}: expected one container"]
    container = containers[0]
    env = {e["name"]: str(e.get("value")) for e in container.get("env", [])}
    if env.get("SHARDS") != str(n):
        problems.append(f"{shard_file}: env SHARDS={env.get('SHARDS')} but completions={n}")

    # .gitlab-ci.yml shards through the CI template: its include's `shards` input.
    gitlab = yaml.safe_load((source / ".gitlab-ci.yml").read_text())
    shards = [get(i, "inputs", "shards") for i in gitlab.get("include", [])
              if isinstance(i, dict) and i.get("local") == "ci/templates/simverify.gitlab-ci.yml"]
    if shards != [n]:
        problems.append(f"{shard_file}: {n} shards, but .gitlab-ci.yml includes the CI template "
                        f"with shards: {shards}")

    # The shared volume: same claim in both Jobs, and the claim exists and is shared.
    claims = {get(d, "metadata", "name"): d for _, d in docs.get("PersistentVolumeClaim", [])}

    def mount_of(file_name, job, container):
        volumes = {v["name"]: v for v in get(job, "spec", "template", "spec", "volumes") or []}
        for mount in container.get("volumeMounts", []):
            claim = get(volumes.get(mount["name"], {}), "persistentVolumeClaim", "claimName")
            if claim:
                if claim not in claims:
                    problems.append(f"{file_name}: claim {claim} is not defined in ci/k8s/")
                elif "ReadWriteMany" not in (get(claims[claim], "spec", "accessModes") or []):
                    problems.append(f"claim {claim} must be ReadWriteMany (pods on several nodes)")
                return claim, mount["mountPath"]
        problems.append(f"{file_name}: no PersistentVolumeClaim mounted")
        return None, None

    shard_claim, shard_mount = mount_of(shard_file, shard_job, container)
    merge_container = (get(merge_job, "spec", "template", "spec", "containers") or [{}])[0]
    merge_claim, merge_mount = mount_of(merge_file, merge_job, merge_container)
    if shard_claim != merge_claim:
        problems.append(f"shards write to claim {shard_claim}, the merge reads {merge_claim}")
    if problems:
        return problems

    with tempfile.TemporaryDirectory() as volume:
        outs = []
        for index in range(n):
            rc, calls, err = run_container(container, shard_mount, volume,
                                           {"JOB_COMPLETION_INDEX": str(index)})
            if rc != 0 or len(calls) != 1:
                problems.append(f"{shard_file}: index {index}: exit {rc}, simverify calls "
                                f"{calls}: {err.strip()}")
                continue
            args = shlex.split(calls[0])
            expected = f"{index + 1}/{n}"
            shard = args[args.index("--shard") + 1] if "--shard" in args else None
            out = args[args.index("--out") + 1] if "--out" in args else None
            if args[:2] != ["run", "requirements"] or shard != expected:
                problems.append(f"{shard_file}: index {index} ran `simverify {calls[0]}`, "
                                f"expected run requirements --shard {expected}")
            if not out or not out.startswith(volume):
                problems.append(f"{shard_file}: index {index} writes {out}, not on the volume")
            outs.append(out)
            if out:
                pathlib.Path(out).mkdir(parents=True, exist_ok=True)
        if len(set(outs)) != n:
            problems.append(f"{shard_file}: shards do not write distinct folders: {outs}")
        if problems:
            return problems

        rc, calls, err = run_container(merge_container, merge_mount, volume, {})
        merge_calls = [shlex.split(c) for c in calls if c.startswith("merge ")]
        if rc != 0 or len(merge_calls) != 1:
            problems.append(f"{merge_file}: exit {rc}, simverify calls {calls}: {err.strip()}")
        else:
            merged = [a for a in merge_calls[0][1:] if a.startswith(volume)]
            if sorted(merged[:-1] if "--out" in merge_calls[0] else merged) != sorted(outs):
                problems.append(f"{merge_file}: merges {merge_calls[0]}, expected all of {outs}")
        # A missing shard must stop the merge.
        pathlib.Path(outs[-1]).rmdir()
        rc, calls, _ = run_container(merge_container, merge_mount, volume, {})
        if rc == 0 or any(c.startswith("merge ") for c in calls):
            problems.append(f"{merge_file}: merged although a shard folder is missing")
    return problems


if __name__ == "__main__":
    check_main.run("check_k8s", main, __doc__,
                   "Indexed Job runs shards 1..N once each on the shared volume; the merge Job merges them all")
