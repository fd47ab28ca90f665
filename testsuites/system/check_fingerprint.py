"""ci/fingerprint, on which the warm main job's reuse rests (ci/verify, ci/coverage): in a
scratch git checkout holding a copy of the script, the hash changes with any tracked or
untracked file's content, a deleted file and the words given, and with nothing else (an
ignored file such as a build tree, a timestamp). A reuse that missed a change would hand
out stale results."""
import os
import pathlib
import shutil
import subprocess
import tempfile

from check_main import run


def check(source):
    problems = []
    with tempfile.TemporaryDirectory() as scratch:
        repo = pathlib.Path(scratch)
        (repo / "ci").mkdir()
        shutil.copy2(source / "ci" / "fingerprint", repo / "ci" / "fingerprint")
        (repo / "src.cpp").write_text("int main() { return 0; }\n")
        (repo / ".gitignore").write_text("/build/\n")
        env = dict(os.environ, GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
        subprocess.run(["git", "init", "-q", str(repo)], check=True, env=env)
        subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True, env=env)

        def fingerprint(*words):
            # From another folder: the script finds its checkout itself.
            out = subprocess.run([str(repo / "ci" / "fingerprint"), *words], cwd=scratch,
                                 env=env, capture_output=True, text=True, check=True).stdout
            return out.strip()

        base = fingerprint("coverage")
        if len(base) != 64:
            return [f"expected a 64-digit hash, got {base!r}"]
        if fingerprint("coverage") != base:
            problems.append("two runs on the same tree differ")
        (repo / "build").mkdir()
        (repo / "build" / "out.o").write_text("object")
        os.utime(repo / "src.cpp", (0, 0))
        if fingerprint("coverage") != base:
            problems.append("an ignored file or a timestamp changed the hash")
        if fingerprint("coverage", "-R", "x") == base:
            problems.append("the words given do not change the hash")

        changes = {
            "a tracked file's content": lambda: (repo / "src.cpp").write_text("int main() {}\n"),
            "an untracked file": lambda: (repo / "new.yaml").write_text("requirements: []\n"),
            "a deleted tracked file": lambda: (repo / "src.cpp").unlink(),
        }
        for what, change in changes.items():
            before = fingerprint("coverage")
            change()
            if fingerprint("coverage") == before:
                problems.append(f"{what} does not change the hash")

        shutil.rmtree(repo / ".git")
        if fingerprint("coverage") != "":
            problems.append("outside a git checkout it must print nothing (nothing is reused)")
    return problems


if __name__ == "__main__":
    run("ci_fingerprint", check, "usage: check_fingerprint.py SOURCE_DIR",
        "the hash follows every file's content and the options, and nothing else")
