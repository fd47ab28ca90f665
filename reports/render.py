#!/usr/bin/python3
"""Render a simverify results folder into a static, offline HTML site.

    /usr/bin/python3 reports/render.py RESULTS_DIR --out SITE --gate GATE.json
        [--coverage FILE] [--coverage-html DIR] [--commit SHA] [--compiler TEXT] [--date TEXT]
        [--diff DIFF.json] [--history DIFF.json...]

Reads only what the runner writes (results.json and series/*.csv beside it), the gate
decision written by `simverify gate --json` / `simverify report` (Def 5.17, 5.20: every
verdict and the coverage figures) and the comparisons `simverify diff --json` writes. The site is built in a temporary folder beside SITE and
renamed into place, so a reader never sees half a report.

Exit codes: 0 site written; 2 unreadable or malformed input (the message names the file).
"""

from __future__ import annotations

import os
import signal

if __name__ == "__main__":
    # Until main() sets its own: a stop signal during the slow imports (matplotlib) ends the
    # renderer at once and quietly, as nothing is written yet (not with a traceback).
    for _stop in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(_stop, lambda signum, frame: os._exit(128 + signum))

import argparse  # noqa: E402
import datetime as dt
import errno
import math
import re
import multiprocessing
import shutil
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import jinja2
import markupsafe

import conditions
import diagrams
import model
import plots
import trend
from model import InputError, Report, load_report, open_regular

HERE = Path(__file__).resolve().parent


# Unicode's bidirectional controls: an override shows "ELBASAELER" as "RELEASABLE".
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def terminal_text(text: str) -> str:
    """`text` as one console line (the rule of simverify's detail::terminal_text): control
    characters escaped, so what a tampered results.json holds is shown, not obeyed."""
    return "".join(f"\\u{ord(c):04x}" if ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F or c in BIDI_CONTROLS
                   else c for c in text)


def visible_bidi_controls(value: Any) -> Any:
    """Every value a template prints, with Unicode's bidirectional controls shown as their code
    points: a right-to-left override in a title, a reason or a commit would reorder the rest of
    the line, simverify's own words included ("0 newly failing" shown mirrored)."""
    if isinstance(value, str) and any(c in BIDI_CONTROLS for c in value):
        shown = "".join(f"[U+{ord(c):04X}]" if c in BIDI_CONTROLS else c for c in value)
        # Markup stays markup: the code points add no character HTML treats specially.
        return markupsafe.Markup(shown) if isinstance(value, markupsafe.Markup) else shown
    return value


def make_environment() -> jinja2.Environment:
    # Autoescape every template whatever its extension: titles, ids and reasons come from
    # user-written YAML and must never become markup. StrictUndefined turns a typo in a
    # template into an error instead of an empty cell.
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=jinja2.select_autoescape(default=True, default_for_string=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=visible_bidi_controls,
    )
    env.filters["num"] = format_number
    env.filters["signed"] = format_signed
    env.filters["duration"] = format_duration
    env.filters["value"] = format_value
    env.filters["time"] = trend.readable_time
    env.globals["sparkline"] = trend.sparkline
    return env


def format_number(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, float) and math.isnan(value):
        return "NaN"
    if value == 0 or 1e-3 <= abs(value) < 1e5:
        return f"{value:.4g}"
    return f"{value:.3e}"


def format_signed(value: float | None) -> str:
    if value is None:
        return "–"
    text = format_number(value)
    return text if text.startswith("-") else "+" + text


def format_duration(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 120:
        return f"{seconds:.1f} s"
    return f"{seconds / 60:.1f} min"


def format_value(value: Any, name: str = "") -> str:
    """A condition value as the YAML author would write it; `name` the condition's, for the
    values a name gives a shape (a scenario study's `scenarios:`)."""
    if name == "scenarios":
        return model.scenarios_text(value)
    if isinstance(value, float) or isinstance(value, int):
        return format_number(value)
    if isinstance(value, (list, dict)):
        return conditions.human(value)  # `road class B, 25 m/s`, not JSON
    return str(value)


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path, help="results folder (results.json)")
    parser.add_argument("--out", type=Path, required=True, help="site folder to write")
    parser.add_argument("--gate", type=Path, required=True,
                        help="gate decision JSON (simverify gate --json): every verdict and the coverage figures")
    parser.add_argument("--coverage", type=Path,
                        help="the coverage file the gate read: its HTML report is looked for beside it (html/)")
    parser.add_argument("--coverage-html", type=Path, help="HTML coverage report (gcovr, genhtml) to include")
    parser.add_argument("--commit", default="",
                        help="the commit verified (default: the one results.json records)")
    parser.add_argument("--compiler", default="")
    parser.add_argument("--date", default="", help="report date (default: now, UTC)")
    parser.add_argument("--diff", type=Path,
                        help="comparison with a baseline run (simverify diff --json BASE RESULTS)")
    parser.add_argument("--history", type=Path, nargs="+", default=[],
                        help="earlier runs compared with this one (simverify diff --json EARLIER RESULTS each): "
                             "each requirement's margin over them")
    parser.add_argument("--quiet", action="store_true", help="do not print the site path")
    return parser.parse_args(argv)


def report_date(given: str) -> str:
    if given:
        return given
    # SOURCE_DATE_EPOCH makes the whole site byte-for-byte reproducible when set.
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    moment = (
        dt.datetime.fromtimestamp(int(epoch), dt.timezone.utc)
        if epoch
        else dt.datetime.now(dt.timezone.utc)
    )
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def coverage_html_source(args: argparse.Namespace) -> Path | None:
    if args.coverage_html:
        if not (args.coverage_html / "index.html").is_file():
            raise InputError(f"{args.coverage_html}: no index.html (expected an HTML coverage report)")
        return args.coverage_html
    if args.coverage:
        beside = args.coverage.parent / "html"
        # Not a link: it could bring any folder of this machine into the published site.
        if not beside.is_symlink() and (beside / "index.html").is_file():
            return beside
    return None


SITE_MARKER = ".simverify-site"  # written into every site; only such a folder is replaced


def check_out(out: Path, results_dir: Path) -> None:
    """Refuse an --out that would destroy something that is not a previous report: the
    results folder itself (or a folder holding it), or any non-empty folder or file that no
    simverify report wrote. Replacing means deleting, so guess nothing."""
    if out.is_symlink() and not out.exists():  # as run --out and gate --json refuse it
        raise InputError(f"{out}: is a symbolic link to nothing ({os.readlink(out)}); "
                         "give a new folder for the report")
    out = out.resolve()
    results = results_dir.resolve()
    if out == results or out in results.parents:
        raise InputError(f"{out}: --out must not be the results folder or contain it "
                         f"(it would be replaced); use e.g. {results / 'site'}")
    here = Path.cwd().resolve()
    if out == here or out in here.parents:  # the caller's shell would sit in a deleted folder
        raise InputError(f"{out}: is the working folder or holds it; the site replaces its "
                         "folder whole, so give a folder inside it, e.g. site")
    if out.is_dir() and any(out.iterdir()) and not is_site(out):
        raise InputError(f"{out}: exists and is not a simverify report (no {SITE_MARKER}); "
                         "remove it or choose another --out")
    if out.exists() and not out.is_dir():
        raise InputError(f"{out}: exists and is not a folder")
    foreign = not_written_by_renderer(out) if out.is_dir() else None
    if foreign is not None:  # a results folder run into the site, a user's notes: deleted with it
        raise InputError(f"{out}: holds {foreign}, which simverify report did not write; the site "
                         "is replaced whole and would delete it, so move it or choose another --out")


# What the renderer writes into a site (build_site); coverage/ is a copy of an HTML report.
SITE_FILES = {SITE_MARKER: None, "index.html": None, "traceability.html": None}
SITE_FOLDERS = {"static": (".css", ".js"), "plots": (".svg", ".gv"), "requirements": (".html",)}
# Where a site that is a mount point is built, and its previous pages set aside (inside it).
IN_PLACE_STAGING = ".simverify-site-staging-"
IN_PLACE_OLD = ".simverify-site-old-"


def not_written_by_renderer(site: Path) -> Path | None:
    """The first entry of `site` the renderer does not write there, or None."""
    for entry in sorted(site.iterdir()):
        name = entry.name
        if name.startswith((IN_PLACE_STAGING, IN_PLACE_OLD)):
            continue
        if name in SITE_FILES:
            if entry.is_symlink() or not entry.is_file():
                return entry
        elif name == "coverage":
            if entry.is_symlink() or not entry.is_dir():
                return entry
        elif name in SITE_FOLDERS:
            if entry.is_symlink() or not entry.is_dir():
                return entry
            for file in sorted(entry.iterdir()):
                if file.is_symlink() or not file.is_file() or file.suffix not in SITE_FOLDERS[name]:
                    return file
        else:
            return entry
    return None


def is_mount_point(folder: Path) -> bool:
    """A mount point (a container's volume) cannot be renamed or replaced: the site is then
    swapped in entry by entry. /proc/self/mountinfo sees bind mounts of the same file system,
    which a device comparison (os.path.ismount) does not."""
    folder = folder.resolve()
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="surrogateescape") as info:
            for line in info:
                fields = line.split(" ")
                if len(fields) > 4:
                    # Spaces, tabs, newlines and backslashes are octal escapes there.
                    point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[4])
                    if Path(point) == folder:
                        return True
    except OSError:
        pass
    return os.path.ismount(folder)


def is_site(folder: Path) -> bool:
    # Only the marker says so: index.html beside static/style.css is the layout of many a web
    # project, which replacing would delete.
    marker = folder / SITE_MARKER
    return marker.is_file() and not marker.is_symlink()  # the renderer writes a regular file


def write_site(report: Report, out: Path, coverage_html: Path | None) -> None:
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    in_place = out.is_dir() and is_mount_point(out)
    if in_place:  # what a killed report left inside it
        for leftover in out.iterdir():
            if leftover.name.startswith((IN_PLACE_STAGING, IN_PLACE_OLD)):
                shutil.rmtree(leftover, ignore_errors=True)
    # Ctrl-C or SIGTERM between creating the staging folder and entering the `try` would leave
    # it behind: the signals wait until the cleanup is in place.
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, set(STOP_SIGNALS))
    try:
        staging = Path(tempfile.mkdtemp(prefix=IN_PLACE_STAGING if in_place else f".{out.name}.tmp-",
                                        dir=out if in_place else out.parent))
    except OSError as error:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        if error.errno in WRITE_ERRORS:  # the site cannot be written, not some temporary name
            raise OSError(error.errno, error.strerror, str(out)) from error
        raise
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        raise
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)  # a pending signal lands in here
        results_link = Path(os.path.relpath(report.results_dir.resolve(), out)).as_posix()
        try:
            build_site(report, staging, coverage_html, results_link)
        except OSError as error:
            raise named_in_site(error, staging, out) from error
        os.chmod(staging, 0o755)
        # From here the stop signals stay blocked until the process ends: once renamed, the site
        # is whole, and a late Ctrl-C would only fail a finished report or leave the previous
        # site's aside copy behind (simverify reports such a signal as coming after the report).
        signal.pthread_sigmask(signal.SIG_BLOCK, set(STOP_SIGNALS))
        if in_place:
            swap_in_place(staging, out)
        else:
            replace_folder(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


# Errors of writing, not reading: a full disk is the site's, whatever file was being copied.
WRITE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS}


def named_in_site(error: OSError, staging: Path, out: Path) -> OSError:
    """`error` naming the file of the site it concerns, not the staging folder, nor the
    installed stylesheet being copied when the disk filled (shutil names its source)."""
    names = [error.filename2, error.filename]
    if error.errno not in WRITE_ERRORS:
        names.reverse()
    for name in names:
        if name is None:
            continue
        try:
            inside = Path(os.fsdecode(name)).relative_to(staging)
        except (TypeError, ValueError):
            continue
        return OSError(error.errno, error.strerror, str(out / inside))
    if error.errno in WRITE_ERRORS:
        return OSError(error.errno, error.strerror, str(out))
    return error


def swap_in_place(new: Path, target: Path) -> None:
    """The site `new` (built inside `target`) in place of `target`'s previous pages, one rename
    each: a mount point cannot be renamed. index.html goes first and comes last, so a reader
    who finds it finds the new pages. Not atomic: a crash in between leaves some of each (and
    the two hidden folders, which the next report removes)."""
    old = Path(tempfile.mkdtemp(prefix=IN_PLACE_OLD, dir=target))
    entries = sorted((e for e in target.iterdir() if e not in (new, old)),
                     key=lambda e: (e.name != "index.html", e.name))
    for entry in entries:
        os.rename(entry, old / entry.name)
    for entry in sorted(new.iterdir(), key=lambda e: (e.name == "index.html", e.name)):
        os.rename(entry, target / entry.name)
    new.rmdir()
    shutil.rmtree(old, ignore_errors=True)


def replace_folder(new: Path, target: Path) -> None:
    # rename() cannot replace a non-empty folder: move the old one aside first, so the
    # window without a site is two renames long and never shows a partial one.
    old = None
    if target.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
        try:
            os.rename(target, old / "site")
        except BaseException:  # e.g. SITE is a mount point (EBUSY): nothing moved, nothing left
            old.rmdir()
            raise
    try:
        os.rename(new, target)
    except BaseException:
        if old is not None:  # put the previous site back rather than leave none
            os.rename(old / "site", target)
            old.rmdir()
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


# An HTML coverage report of a large project is tens of megabytes; a sparse file of terabytes
# copied into the site would fill the disk.
MAX_COVERAGE_HTML_BYTES = 1 << 30


def copy_regular_tree(source: Path, target: Path) -> None:
    """The folders and regular files under `source`, as lcov's HTML report has them. A link is
    not followed (it could name any file of this machine, which would then be published with
    the site) and a FIFO or device is not read (it would hang or never end): both are left out.
    More than MAX_COVERAGE_HTML_BYTES in all is an error."""
    copied_bytes = 0
    target.mkdir()
    for folder, folders, files in os.walk(source, followlinks=False):
        here = Path(folder)
        there = target / here.relative_to(source)
        for name in list(folders):
            if (here / name).is_symlink():
                folders.remove(name)
            else:
                (there / name).mkdir()
        for name in files:
            try:
                copied = open_regular(here / name, follow_links=False)
            except OSError:  # a link (ELOOP) or unreadable
                continue
            if copied is not None:
                with copied:
                    copied_bytes += os.fstat(copied.fileno()).st_size
                    if copied_bytes > MAX_COVERAGE_HTML_BYTES:
                        raise InputError(f"{source}: the HTML coverage report holds more than "
                                         f"{MAX_COVERAGE_HTML_BYTES >> 30} GiB ({here / name} and "
                                         "before it); not copied into the site")
                    with open(there / name, "wb") as copy:
                        shutil.copyfileobj(copied, copy)


def build_site(report: Report, site: Path, coverage_html: Path | None, results_link: str) -> None:
    """`results_link`: the results folder relative to the site's final place (links to
    results.json and the series CSV files; they work while the two stay side by side)."""
    env = make_environment()
    (site / SITE_MARKER).write_text("written by simverify report; the folder is replaced whole\n")
    (site / "static").mkdir()
    for name in ("style.css", "table.js"):
        shutil.copy2(HERE / "static" / name, site / "static" / name)
    (site / "plots").mkdir()
    (site / "requirements").mkdir()
    if coverage_html is not None:
        copy_regular_tree(coverage_html, site / "coverage")
        report.coverage_link = "coverage/index.html"

    def render(template: str, path: str, **context: Any) -> None:
        depth = path.count("/")
        html = env.get_template(template).render(
            report=report, root="../" * depth, page=path, results_link=results_link, **context
        )
        (site / path).write_text(html, encoding="utf-8")

    render("index.html", "index.html")
    render("traceability.html", "traceability.html")
    for requirement, (figures, drawn) in zip(report.requirements, draw_all(report, site / "plots")):
        render(
            "requirement.html",
            f"requirements/{requirement.slug}.html",
            r=requirement,
            figures=figures,
            diagrams=drawn,
        )


# What the pool's forked workers draw from: set before the pool starts, inherited by fork.
_drawing: tuple[Report, Path] | None = None


def draw_requirement(index: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One requirement's figures and block diagrams, written into the plots folder."""
    assert _drawing is not None
    report, folder = _drawing
    r = report.requirements[index]
    return plots.requirement_figures(r, report, folder), diagrams.requirement_diagrams(r, report.results_dir, folder)


def ignore_stop_signals() -> None:
    # A worker leaves stopping to the renderer, which ends the workers and removes the staging
    # folder (a Ctrl-C reaches the workers too).
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)


def draw_all(report: Report, folder: Path) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Every requirement's figures, in requirement order. Drawing (matplotlib) is nearly all of
    a report's time and the requirements' figures are independent: one worker per core."""
    global _drawing
    _drawing = (report, folder)
    workers = min(len(report.requirements), len(os.sched_getaffinity(0)))
    if workers < 2:
        return [draw_requirement(i) for i in range(len(report.requirements))]
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"),
                               initializer=ignore_stop_signals)
    try:
        drawn = list(pool.map(draw_requirement, range(len(report.requirements))))
    except BaseException:
        # Stopped (or a worker failed): what is still drawing is of no use. The workers ignore
        # the stop signals, so they are killed; waiting for them to finish could take minutes.
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.kill()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    return drawn


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def stop(signum: int, frame: Any) -> None:
    """Ctrl-C, a cancelled CI job (SIGTERM) or a closed terminal (SIGHUP): unwind once, so the
    staging folder is removed and the drawing workers are ended. The signal often comes twice
    (to the process group, and forwarded by simverify): the second must not interrupt the
    cleanup the first started."""
    for sig in STOP_SIGNALS:  # a no-op, not SIG_IGN: one already caught would raise OSError
        signal.signal(sig, lambda signum, frame: None)
    sys.exit(128 + signum)


def main(argv: list[str]) -> int:
    args = parse_arguments(argv)
    for sig in STOP_SIGNALS:
        signal.signal(sig, stop)
    try:
        check_out(args.out, args.results)
        report = load_report(
            args.results,
            gate_file=args.gate,
            metadata={
                "commit": args.commit,
                "compiler": args.compiler,
                "date": report_date(args.date),
            },
        )
        if args.diff:
            trend.attach_baseline(report, args.diff)
        if args.history:
            trend.attach_history(report, args.history)
        write_site(report, args.out, coverage_html_source(args))
    except InputError as error:
        print(f"render.py: {terminal_text(str(error))}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"render.py: {terminal_text(str(error.filename or args.out))}: {error.strerror}",
              file=sys.stderr)
        return 2
    if not args.quiet:
        print(f"report: {terminal_text(str(args.out.resolve() / 'index.html'))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
