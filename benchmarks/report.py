"""``benchmarks/report.md``: the goals of the last whole ``make bench``, as the docs show them.

``python -m benchmarks`` (every benchmark, no names given) writes it at the end of its run;
``python -m benchmarks.report LOG`` builds it from a saved log of such a run (what the run
printed: its ``== NAME``, ``ok``/``MISS``/``info`` and ``FAIL`` lines; other lines are left
out). Run it with the interpreter the bench ran with: the header names that Python, numpy
and numba, and this machine. A log from before ``info`` existed gets today's marks: a goal
that a benchmark's ``MARKS`` makes a figure without a verdict is ``info`` in the report too.

The report is markdown without headings (docs/explanation/performance.md includes it, and a
heading would take an anchor from the page): a header list, then a table per benchmark.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import platform
import posixpath
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from benchmarks._common import REPO, Goal, Mark, available_cores, info_reason

#: Where the run writes the report (the tests' packages write theirs beside their modules).
REPORT = REPO / "benchmarks" / "report.md"
#: The page that includes the report: links to the docs are made relative to its folder.
PAGE = "docs/explanation/performance.md"
PLACEHOLDER = "No full `make bench` has been recorded in this checkout yet.\n"

_GOAL = re.compile(
    r"(?P<verdict>ok  |MISS|info) (?P<name>.+?) +(?P<value>\S+) (?P<unit>\S*) +"
    r"(?P<sign>[≥≤]) (?P<target>\S+) (?P=unit)(?: +(?P<detail>.*?))? *"
)
_REASON = re.compile(r"(needs \d+ cores, this machine has \d+|out of reach of the method: \S+)")
_EVIDENCE = re.compile(r"(out of reach of the method: )(docs/[^\s#]+)(#\S+)?")
_SUMMARY = re.compile(r"\d+ goal\(s\) missed, .*\d+ benchmark\(s\) failed")


@dataclass(frozen=True)
class Row:
    """One goal as the report shows it."""

    name: str
    figure: str
    goal: str
    verdict: str  # ok, MISS or info
    reason: str = ""  # why a goal is info
    detail: str = ""

    @classmethod
    def of(cls, goal: Goal) -> Row:
        figure, target = goal.figure.strip(), goal.goal.strip()
        return cls(goal.name, figure, target, goal.verdict, goal.reason, goal.detail)


@dataclass(frozen=True)
class Section:
    """A benchmark's goals, or the summary of the exception it failed with."""

    name: str
    rows: tuple[Row, ...] = ()
    failure: str | None = None


@dataclass(frozen=True)
class Header:
    """When and where the bench ran, and on what."""

    date: str
    commit: str
    machine: str
    software: str

    @classmethod
    def here(cls, commit: str | None = None, date: datetime | None = None) -> Header:
        """This machine and interpreter, ``commit`` (else the checkout's), ``date`` (else
        now)."""
        when = (date or datetime.now(UTC)).astimezone(UTC)
        return cls(
            when.strftime("%Y-%m-%d %H:%M UTC"),
            commit if commit is not None else git_commit(),
            machine(),
            software(),
        )


def machine() -> str:
    """CPU model, cores (and those usable here when fewer), RAM."""
    model = platform.processor() or platform.machine() or "unknown CPU"
    ram = "unknown RAM"
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text()
        found = re.search(r"^model name\s*:\s*(.+)$", cpuinfo, re.MULTILINE)
        model = found.group(1).strip() if found else model
        meminfo = Path("/proc/meminfo").read_text()
        total = re.search(r"^MemTotal:\s*(\d+) kB", meminfo, re.MULTILINE)
        ram = f"{int(total.group(1)) / 2**20:.1f} GiB RAM" if total else ram
    except OSError:
        pass
    count, usable = os.cpu_count() or 1, available_cores()
    cores = f"{count} cores" + (f" ({usable} usable)" if usable < count else "")
    return f"{model}, {cores}, {ram}"


def software() -> str:
    def of(package: str) -> str:
        try:
            return f"{package} {version(package)}"
        except PackageNotFoundError:
            return f"no {package}"

    return f"Python {platform.python_version()}, {of('numpy')}, {of('numba')}"


def git_commit() -> str:
    """The checkout's commit, and whether its code (ndoku, benchmarks, pyproject.toml) has
    uncommitted changes; what the bench writes (this report, its figures) does not count."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "--", "ndoku", "benchmarks",
             "pyproject.toml"],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    changed = [
        line
        for line in status
        if not line[3:].startswith(("benchmarks/report.md", "benchmarks/figures/"))
    ]
    return head + (" with uncommitted changes to the code" if changed else "")


def _cell(text: str) -> str:
    """Text for a table cell: pipes, stars, backticks, angle brackets and underscores that
    could start emphasis escaped."""
    text = re.sub(r"([\\|*`<])", r"\\\1", text)
    return re.sub(r"(?<!\w)_|_(?!\w)", r"\\_", text)


def _reason(reason: str) -> str:
    """The reason, a path of the docs in it a link from :data:`PAGE`."""
    parts = _EVIDENCE.fullmatch(reason)
    if parts is None:
        return _cell(reason)
    lead, path, anchor = parts.group(1), parts.group(2), parts.group(3) or ""
    href = posixpath.relpath(path, posixpath.dirname(PAGE)) + anchor
    return f"{_cell(lead)}[{_cell(path + anchor)}]({href})"


def render(header: Header, sections: list[Section]) -> str:
    """The report's markdown."""
    rows = [row for section in sections for row in section.rows]
    count = {v: sum(row.verdict == v for row in rows) for v in ("ok", "MISS", "info")}
    failed = sum(section.failure is not None for section in sections)
    status = 1 if count["MISS"] or failed else 0
    out = [
        "<!-- Written by `make bench` (python -m benchmarks, every benchmark), or from a saved "
        "log by python -m benchmarks.report LOG. -->",
        "",
        f"- **Run**: `make bench`, finished {header.date}, commit `{header.commit}`",
        f"- **Machine**: {_cell(header.machine)}",
        f"- **Software**: {header.software}",
        f"- **Result**: {len(rows)} goals: {count['ok']} ok, {count['MISS']} MISS, "
        f"{count['info']} info; {failed} benchmark(s) failed; exit status {status}",
        "",
        "`info`: a figure shown without a verdict and not counted as a miss, the reason in "
        "its detail: the goal needs more cores than this machine has, or the project's own "
        "measurements show it out of reach of the method.",
    ]
    for section in sections:
        out += ["", f"**{section.name}**" + ("" if section.failure is None else ": FAIL"), ""]
        if section.failure is not None:
            out.append(f"FAIL {_cell(section.failure)}")
            continue
        if not section.rows:
            out.append("No goals.")
            continue
        out += ["| goal | figure | target | verdict | detail |", "|---|---|---|---|---|"]
        for row in section.rows:
            detail = "; ".join(part for part in (_reason(row.reason), _cell(row.detail)) if part)
            verdict = "**MISS**" if row.verdict == "MISS" else row.verdict
            out.append(
                f"| {_cell(row.name)} | {_cell(row.figure)} | {_cell(row.goal)} | {verdict} "
                f"| {detail} |"
            )
    return "\n".join(out) + "\n"


def write_atomically(path: Path, text: str) -> None:
    """``text`` into ``path`` by a temporary file beside it renamed over it: a reader sees
    the old report or the new one, never a part."""
    descriptor, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    temporary = Path(name)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        temporary.chmod(0o644)
        temporary.replace(path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


@functools.cache
def marks_of(package: str, name: str) -> tuple[Mark, ...]:
    """The ``MARKS`` of benchmark ``name`` of ``package`` (none when it cannot be imported:
    a warning says so)."""
    try:
        module = importlib.import_module(f"{package}.bench_{name}")
    except Exception as exc:
        print(f"warning: bench_{name} not imported ({exc}): its goals unmarked", file=sys.stderr)
        return ()
    return tuple(getattr(module, "MARKS", ()))


def parse_log(text: str, package: str = "benchmarks") -> list[Section]:
    """The sections of a whole run's log, the ``MARKS`` of today's benchmarks applied.

    Raises
    ------
    ValueError
        The log is not of a whole run: it does not end its run (the last line of counts), or
        it misses a benchmark of ``package``.
    """
    sections: list[Section] = []
    finished = False
    for line in text.splitlines():
        if line.startswith("== "):
            sections.append(Section(line[3:].strip()))
        elif _SUMMARY.fullmatch(line):
            finished = True
        elif sections and line.startswith("FAIL "):
            name, _, failure = line[5:].partition(": ")
            sections[-1] = Section(sections[-1].name, sections[-1].rows, failure or name)
        elif sections and (found := _GOAL.fullmatch(line)):
            row = _row(found, marks_of(package, sections[-1].name))
            sections[-1] = Section(sections[-1].name, (*sections[-1].rows, row))
    if not finished:
        raise ValueError("the log does not end a run (no line 'N goal(s) missed, ...')")
    folder = Path(importlib.import_module(package).__path__[0])
    known = {p.stem.removeprefix("bench_") for p in folder.glob("bench_*.py")}
    missing = sorted(known - {s.name for s in sections})
    if missing:
        raise ValueError(f"not a whole run: no {', '.join(missing)}")
    return sections


def _row(found: re.Match[str], marks: tuple[Mark, ...]) -> Row:
    verdict, name, unit = found["verdict"].strip(), found["name"], found["unit"]
    detail, reason = found["detail"] or "", ""
    given = _REASON.match(detail) if verdict == "info" else None
    if given:
        reason, detail = given.group(1), detail[given.end() :].removeprefix("; ")
    else:
        mark = next((m for m in marks if m.matches(name)), None)
        reason = "" if mark is None else info_reason(mark.cores, mark.evidence)
        verdict = "info" if reason else verdict
    figure = f"{found['value']} {unit}".strip()
    goal = f"{found['sign']} {found['target']} {unit}".strip()
    return Row(name, figure, goal, verdict, reason, detail)


def main(argv: list[str] | None = None, package: str = "benchmarks") -> int:
    """``python -m benchmarks.report LOG [--out PATH] [--commit C] [--date D]``: the exit
    status, 2 when the log is not of a whole run (no report written then)."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.report",
        description="Build benchmarks/report.md from the saved log of a whole `make bench`.",
    )
    parser.add_argument("log", type=Path, help="what `make bench` printed")
    parser.add_argument("--out", type=Path, default=REPORT, help="default: %(default)s")
    parser.add_argument("--commit", help="the commit the bench ran (default: this checkout's)")
    parser.add_argument(
        "--date", help="when the run finished, ISO 8601 (default: the log's last change)"
    )
    args = parser.parse_args(argv)
    try:
        sections = parse_log(args.log.read_text(encoding="utf-8"), package)
    except (OSError, ValueError) as exc:
        print(f"{args.log}: {exc}", file=sys.stderr)
        return 2
    if args.date:
        date = datetime.fromisoformat(args.date)
        date = date if date.tzinfo else date.replace(tzinfo=UTC)
    else:
        date = datetime.fromtimestamp(args.log.stat().st_mtime, UTC)
    write_atomically(args.out, render(Header.here(args.commit, date), sections))
    rows = sum(len(s.rows) for s in sections)
    print(f"{args.out}: {rows} goals of {len(sections)} benchmarks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
