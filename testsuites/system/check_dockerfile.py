#!/usr/bin/python3
"""The Dockerfile and ci/install-deps agree: same script, same package lists.

There is no Docker engine to build the image, so this reads the Dockerfile instead and
fails (exit 1, one line per problem) unless:
  - every stage starts from debian:bookworm-slim or an earlier stage; the first stage,
    `build`, is the one the rules below are about;
  - packages are installed only by ci/install-deps: no apt-get/apt/dpkg/pip/npm install
    of its own in any RUN, except in the `runtime` stage, which installs nothing but the
    simverify_*.deb that ci/package made in the build stage (copied from build/package/);
  - ci/install-deps and every package list it reads for the flags the Dockerfile passes
    are COPY'd into the image before the RUN that calls it;
  - those lists are files in ci/packages/, and `ci/install-deps --print <flags>` (what
    the image installs) lists exactly the packages in them;
  - the image builds with ci/build after the sources are copied, then ci/package;
  - .dockerignore keeps ci/ in the build context.
Usage: check_dockerfile.py SOURCE_DIR
"""
import fnmatch
import re
import shlex
import subprocess

import check_main

INSTALLERS = re.compile(
    r"\b(apt-get|apt|aptitude)\s+(-\S+\s+)*install\b|\bdpkg\s+(-\S+\s+)*-i\b|"
    r"\bpip3?\s+install\b|\bnpm\s+(-\S+\s+)*(install|i)\b|\bcurl\b|\bwget\b")
# The lists each flag of ci/install-deps reads (no flag: BASE_LISTS; a flag adds to them,
# but --build-only reads build.txt alone).
BASE_LISTS = ["build.txt", "core.txt"]
FLAG_LISTS = {"": BASE_LISTS, "--build-only": ["build.txt"],
              "--unit-integration": BASE_LISTS + ["test.txt"],
              "--test": BASE_LISTS + ["test.txt", "system.txt"],
              "--bench": BASE_LISTS + ["bench.txt"], "--fuzz": BASE_LISTS + ["fuzz.txt"],
              "--all": BASE_LISTS + ["test.txt", "system.txt", "bench.txt"]}


def instructions(text):
    """(keyword, arguments) per Dockerfile instruction, continuation lines joined."""
    logical, current = [], ""
    for raw in text.splitlines():
        line = raw.strip()
        if not current and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        current += line
        keyword, _, rest = current.partition(" ")
        logical.append((keyword.upper(), rest.strip()))
        current = ""
    return logical


def split_stages(steps):
    """(base image, stage name, steps) per FROM."""
    stages = []
    for kw, args in steps:
        if kw == "FROM":
            words = args.split()
            name = words[2] if len(words) >= 3 and words[1].upper() == "AS" else None
            stages.append((words[0], name, []))
        elif stages:
            stages[-1][2].append((kw, args))
    return stages


def check_runtime(steps):
    """The runtime stage installs the build stage's package and nothing else."""
    problems = []
    copies = [args for kw, args in steps if kw == "COPY"]
    if not any("--from=build" in args and "build/package" in args for args in copies):
        problems.append("runtime: the package must be copied from the build stage's build/package/")
    installs = [args for kw, args in steps if kw == "RUN" and INSTALLERS.search(args)]
    if len(installs) != 1:
        problems.append(f"runtime: expected one RUN installing the package, found {len(installs)}")
    for args in installs:
        for command in re.split(r"&&|;", args):
            if not INSTALLERS.search(command):
                continue
            targets = [w for w in shlex.split(command)[2:] if not w.startswith("-")
                       and w != "install"]
            if not targets or any(not re.fullmatch(r"/\S*/simverify_\*\.deb", t) for t in targets):
                problems.append(f"runtime: installs something besides the simverify package: {command}")
    return problems


def package_lines(path):
    out = []
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(line)
    return out


def main(source):
    problems = []
    dockerfile = source / "Dockerfile"
    install_deps = source / "ci" / "install-deps"
    packages = source / "ci" / "packages"
    if not dockerfile.is_file():
        return [f"{dockerfile} is missing"]
    stages = split_stages(instructions(dockerfile.read_text()))
    names = []
    for base, name, _ in stages:
        if base != "debian:bookworm-slim" and base not in names:
            problems.append(f"stage {name or base}: base image must be debian:bookworm-slim "
                            f"or an earlier stage, found {base}")
        names.append(name)
    if not stages or stages[0][1] != "build":
        problems.append("the first stage must be `FROM debian:bookworm-slim AS build`")
        return problems
    runtime = [steps for _, name, steps in stages if name == "runtime"]
    if len(runtime) != 1:
        problems.append("expected one `runtime` stage (docker build --target runtime)")
    else:
        problems += check_runtime(runtime[0])
    steps = stages[0][2]

    runs = [(i, args) for i, (kw, args) in enumerate(steps) if kw == "RUN"]
    install_runs = [(i, args) for i, args in runs if "ci/install-deps" in args]
    for i, args in runs:
        if INSTALLERS.search(args):
            problems.append(f"RUN installs by hand (only ci/install-deps may install): {args}")
    if len(install_runs) != 1:
        problems.append(f"expected exactly one RUN calling ci/install-deps, found {len(install_runs)}")
        return problems
    install_at, install_cmd = install_runs[0]

    # The flags the image installs with, hence the package lists it relies on.
    words = shlex.split(install_cmd)
    flags = []
    if "ci/install-deps" in words:
        for word in words[words.index("ci/install-deps") + 1:]:
            if not word.startswith("--"):
                break
            flags.append(word)
    lists = list(dict.fromkeys(name for flag in (flags or [""])
                               for name in FLAG_LISTS.get(flag, [])))
    unknown = [f for f in flags if f not in FLAG_LISTS]
    if unknown:
        problems.append(f"ci/install-deps called with unknown flags {unknown}")

    # Everything install-deps reads must be in the image before it runs.
    copied = []
    for kw, args in steps[:install_at]:
        if kw in ("COPY", "ADD"):
            parts = [p for p in shlex.split(args) if not p.startswith("--")]
            copied += parts[:-1]

    def is_copied(rel):
        return any(src in (".", "./") or rel == src.rstrip("/") or
                   rel.startswith(src.rstrip("/") + "/") for src in copied)

    for rel in ["ci/install-deps"] + [f"ci/packages/{name}" for name in lists]:
        if not is_copied(rel):
            problems.append(f"{rel} is not copied into the image before ci/install-deps runs")

    # install-deps reads its lists from ci/packages/ and nowhere else.
    script = install_deps.read_text()
    referenced = set(re.findall(r'packages/([\w.-]+\.txt)', script))
    for name in sorted(referenced):
        if not (packages / name).is_file():
            problems.append(f"ci/install-deps reads ci/packages/{name}, which does not exist")
    for name in lists:
        if name not in referenced:
            problems.append(f"ci/install-deps does not read ci/packages/{name}")

    # What the image gets == what the lists say (the script's own view, via --print).
    printed = subprocess.run([str(install_deps), "--print", *flags], capture_output=True,
                             text=True, check=False)
    if printed.returncode != 0:
        problems.append(f"ci/install-deps --print failed: {printed.stderr.strip()}")
    else:
        expected = [pkg for name in lists for pkg in package_lines(packages / name)]
        got = printed.stdout.split()
        if sorted(got) != sorted(expected):
            problems.append(f"ci/install-deps --print {' '.join(flags)} lists {sorted(got)}, "
                            f"the package files {sorted(expected)}")

    # Every flag installs exactly its lists (e.g. --unit-integration leaves out system.txt,
    # which only the `system` tests need).
    for flag, flag_lists in FLAG_LISTS.items():
        args = [flag] if flag else []
        printed = subprocess.run([str(install_deps), "--print", *args], capture_output=True,
                                 text=True, check=False)
        expected = [pkg for name in flag_lists for pkg in package_lines(packages / name)]
        if printed.returncode != 0 or sorted(printed.stdout.split()) != sorted(expected):
            problems.append(f"ci/install-deps --print {flag} lists {sorted(printed.stdout.split())}"
                            f" (exit {printed.returncode}), its lists {sorted(expected)}")
        if not expected:
            problems.append("the package lists are empty")

    # Then the sources, then ci/build.
    build_runs = [i for i, args in runs if re.search(r"(^|\s|&&)\S*ci/build\b", args)]
    if not build_runs:
        problems.append("no RUN calls ci/build")
    else:
        copy_all = [i for i, (kw, args) in enumerate(steps)
                    if kw == "COPY" and shlex.split(args)[:1] in (["."], ["./"])]
        if not copy_all or copy_all[0] > build_runs[0]:
            problems.append("the sources (COPY . .) must be copied before ci/build runs")
        if build_runs[0] < install_at:
            problems.append("ci/build runs before ci/install-deps")
        package_runs = [i for i, args in runs if re.search(r"(^|\s|&&)\S*ci/package\b", args)]
        if not package_runs or package_runs[0] < build_runs[0]:
            problems.append("the build stage must run ci/package after ci/build (the runtime "
                            "stage installs its simverify_*.deb)")

    ignore = source / ".dockerignore"
    if ignore.is_file():
        for pattern in package_lines(ignore):
            if pattern.startswith("!"):
                continue
            for rel in ["ci", "ci/install-deps", "ci/packages", "CMakeLists.txt"]:
                if fnmatch.fnmatch(rel, pattern.rstrip("/")):
                    problems.append(f".dockerignore pattern '{pattern}' excludes {rel}")
    return problems


if __name__ == "__main__":
    check_main.run("check_dockerfile", main, __doc__,
                   "Dockerfile installs through ci/install-deps with ci/packages/ and builds with ci/build")
