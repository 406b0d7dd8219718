"""``python -m benchmarks``: a benchmark that raises is one ``FAIL`` line and a failed run, and
the benchmarks after it still run; Ctrl-C stops the run. Goals shown as figures (``info``:
more cores needed than the machine has, out of reach of the method) are not misses. A whole
run writes its report, a partial run does not, and ``python -m benchmarks.report`` builds the
same report from the run's log."""

from __future__ import annotations

import itertools
import re
import sys
from pathlib import Path

import pytest

from benchmarks import _common, report
from benchmarks.__main__ import main

#: A benchmark whose one goal is met.
WORKS = """
from benchmarks._common import Goal

def main():
    return [Goal("works: seconds", 1.0, 2.0, "s")]
"""
#: Unique package names: a package once imported stays in ``sys.modules``.
_PACKAGES = (f"fake_benchmarks_{k}" for k in itertools.count())


def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **modules: str) -> str:
    """A package of ``bench_NAME.py`` modules (NAME=source) on ``sys.path``: its name."""
    name = next(_PACKAGES)
    folder = tmp_path / name
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    for stem, source in modules.items():
        (folder / f"bench_{stem}.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    return name


def test_a_benchmark_that_raises_is_one_line_and_the_next_one_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = package(
        tmp_path,
        monkeypatch,
        # run in name order: a raises on import, b in main(), c works
        a_import="from ndoku.errors import MissingExtra\n"
        "raise MissingExtra.of('plots', 'plot', ['matplotlib'])\n",
        b_main="def main():\n    raise ValueError('no such set\\nsee SOURCES.md')\n",
        c_works=WORKS,
    )
    assert main([], package=fake) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[:4] == [
        "== a_import",
        "FAIL a_import: MissingExtra: plots need matplotlib (the plot extra): pip install "
        "matplotlib, or in ndoku's clone pip install -e '.[plot]'",
        "== b_main",
        "FAIL b_main: ValueError: no such set",
    ]
    assert lines[4] == "== c_works" and lines[5].startswith("ok   works: seconds")
    assert lines[6:] == ["0 goal(s) missed, 0 shown as figures (info), 2 benchmark(s) failed"]
    assert "Traceback" not in out


def test_the_exit_status_counts_missed_goals_and_failures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = package(
        tmp_path,
        monkeypatch,
        works=WORKS,
        misses=WORKS.replace("1.0, 2.0", "3.0, 2.0"),
        fails="def main():\n    raise RuntimeError\n",
    )
    assert main(["works"], package=fake) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "0 goal(s) missed, 0 shown as figures (info), 0 benchmark(s) failed"
    )
    assert main(["misses", "works"], package=fake) == 1
    assert capsys.readouterr().out.splitlines()[-1] == (
        "1 goal(s) missed, 0 shown as figures (info), 0 benchmark(s) failed"
    )
    assert main(["fails"], package=fake) == 1
    assert capsys.readouterr().out.splitlines() == [
        "== fails",
        "FAIL fails: RuntimeError",
        "0 goal(s) missed, 0 shown as figures (info), 1 benchmark(s) failed",
    ]
    assert main(["nosuch"], package=fake) == 2


def test_ctrl_c_stops_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = package(
        tmp_path,
        monkeypatch,
        a_stopped="def main():\n    raise KeyboardInterrupt\n",
        b_works=WORKS,
    )
    with pytest.raises(KeyboardInterrupt):
        main([], package=fake)
    assert capsys.readouterr().out.splitlines() == ["== a_stopped"]
    assert f"{fake}.bench_b_works" not in sys.modules


#: A benchmark with a goal of each kind of ``info``, both missed, beside a met goal, marked
#: as the repository's benchmarks mark them, by the module's MARKS: the first needs a
#: million cores, the second is out of reach.
INFO = """
from benchmarks._common import Goal, Mark

MARKS = (
    Mark("cluster", cores=10**6),
    Mark("^restarts", evidence="docs/explanation/performance.md#restarts"),
)

def main():
    return [
        Goal("cluster / jobs: throughput", 0.3, 0.85, "×", higher_is_better=True,
             detail="local:2 | jobs 2"),
        Goal("restarts: slowest over median", 375.0, 10.0, "×"),
        Goal("works: seconds", 1.0, 2.0, "s"),
    ]
"""
#: A goal that needs four cores, missed, marked by its own field.
FOUR_CORES = """
from benchmarks._common import Goal

def main():
    return [Goal("parallel: speed-up", 1.2, 1.8, "×", higher_is_better=True, cores=4)]
"""


def test_info_goals_are_figures_not_misses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = package(tmp_path, monkeypatch, info=INFO)
    assert main(["info"], package=fake) == 0
    lines = capsys.readouterr().out.splitlines()
    have = _common.available_cores()
    assert re.fullmatch(
        rf"info cluster / jobs: throughput +0\.3 × +≥ 0\.85 × +needs 1000000 cores, this "
        rf"machine has {have}; local:2 \| jobs 2",
        lines[1],
    )
    assert re.fullmatch(
        r"info restarts: slowest over median +375 × +≤ 10 × +out of reach of the method: "
        r"docs/explanation/performance\.md#restarts",
        lines[2],
    )
    assert lines[3].startswith("ok   works: seconds")
    assert lines[4] == "0 goal(s) missed, 2 shown as figures (info), 0 benchmark(s) failed"


@pytest.mark.parametrize(("cores", "verdict", "status"), [(2, "info", 0), (4, "MISS", 1)])
def test_a_goal_needing_cores_is_a_goal_where_there_are_enough(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    cores: int,
    verdict: str,
    status: int,
) -> None:
    fake = package(tmp_path, monkeypatch, four=FOUR_CORES)
    monkeypatch.setattr(_common, "available_cores", lambda: cores)
    assert main(["four"], package=fake) == status
    line = capsys.readouterr().out.splitlines()[1]
    assert line.startswith(f"{verdict} parallel: speed-up")
    assert ("needs 4 cores, this machine has 2" in line) == (verdict == "info")


def test_a_whole_run_writes_its_report_and_a_partial_run_does_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = package(
        tmp_path, monkeypatch, a_info=INFO, b_misses=WORKS.replace("1.0, 2.0", "3.0, 2.0"),
        c_fails="def main():\n    raise RuntimeError('no data')\n",
    )  # fmt: skip
    written = tmp_path / fake / "report.md"
    assert main(["a_info"], package=fake) == 0
    assert not written.exists()
    assert main([], package=fake) == 1
    text = written.read_text(encoding="utf-8")
    header, _, tables = text.partition("\n\n**a_info**")
    for label in ("**Run**", "**Machine**", "**Software**", "**Result**"):
        assert label in header
    assert re.search(r"commit `([0-9a-f]{7,}|unknown)", header)
    assert re.search(r"cores, .*RAM", header)
    assert re.search(r"Python 3\.\d+\.\d+, (numpy|no numpy) \S+, (numba|no numba)", header)
    assert "4 goals: 1 ok, 1 MISS, 2 info; 1 benchmark(s) failed; exit status 1" in header
    assert tables.splitlines()[1:] == [
        "",
        "| goal | figure | target | verdict | detail |",
        "|---|---|---|---|---|",
        "| cluster / jobs: throughput | 0.3 × | ≥ 0.85 × | info | needs 1000000 cores, this "
        f"machine has {_common.available_cores()}; local:2 \\| jobs 2 |",
        "| restarts: slowest over median | 375 × | ≤ 10 × | info | out of reach of the method: "
        "[docs/explanation/performance.md#restarts](performance.md#restarts) |",
        "| works: seconds | 1 s | ≤ 2 s | ok |  |",
        "",
        "**b_misses**",
        "",
        "| goal | figure | target | verdict | detail |",
        "|---|---|---|---|---|",
        "| works: seconds | 3 s | ≤ 2 s | **MISS** |  |",
        "",
        "**c_fails**: FAIL",
        "",
        "FAIL RuntimeError: no data",
    ]
    assert [p.name for p in written.parent.glob(".report.md.*")] == []  # no temporary left
    capsys.readouterr()
    assert main(["b_misses"], package=fake) == 1  # a partial run leaves the report alone
    assert written.read_text(encoding="utf-8") == text


def test_the_report_from_a_log_is_the_runs_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = package(
        tmp_path, monkeypatch, a_info=INFO, b_fails="def main():\n    raise KeyError('x')\n"
    )
    assert main([], package=fake) == 1
    log = tmp_path / "bench.log"
    log.write_text("make: noise\n" + capsys.readouterr().out, encoding="utf-8")
    rebuilt = tmp_path / "rebuilt.md"
    assert report.main([str(log), "--out", str(rebuilt)], package=fake) == 0
    assert capsys.readouterr().out == f"{rebuilt}: 3 goals of 2 benchmarks\n"

    def body(path: Path) -> list[str]:  # all but the line with the date
        return [line for line in path.read_text().splitlines() if "**Run**" not in line]

    assert body(rebuilt) == body(tmp_path / fake / "report.md")

    # A log of before `info`: the marked goals missed; the report shows them as figures.
    old = [
        "== a_info",
        _common.Goal("cluster / jobs: throughput", 0.3, 0.85, "×", True, "local:2 | jobs 2").line(),
        _common.Goal("restarts: slowest over median", 375.0, 10.0, "×").line(),
        _common.Goal("works: seconds", 1.0, 2.0, "s").line(),
        "== b_fails",
        "FAIL b_fails: KeyError: 'x'",
        "2 goal(s) missed, 1 benchmark(s) failed",
    ]
    assert old[1].startswith("MISS") and old[2].startswith("MISS")
    log.write_text("\n".join(old) + "\n", encoding="utf-8")
    from_old = tmp_path / "old.md"
    args = [str(log), "--out", str(from_old), "--commit", "abc1234", "--date", "2026-11-28T09:30"]
    assert report.main(args, package=fake) == 0
    text = from_old.read_text()
    assert "finished 2026-11-28 09:30 UTC, commit `abc1234`" in text
    assert [r for r in text.splitlines() if r.startswith("| ")] == [
        r for r in (tmp_path / fake / "report.md").read_text().splitlines() if r.startswith("| ")
    ]


def test_a_report_is_built_from_a_whole_runs_log_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = package(tmp_path, monkeypatch, a_works=WORKS, b_works=WORKS)
    assert main(["a_works"], package=fake) == 0
    log = tmp_path / "bench.log"
    out = tmp_path / "report.md"
    for text in (capsys.readouterr().out, "== a_works\n== b_works\n"):  # partial; unfinished
        log.write_text(text, encoding="utf-8")
        assert report.main([str(log), "--out", str(out)], package=fake) == 2
        assert not out.exists()
    assert "not a whole run: no b_works" in capsys.readouterr().err


def test_the_committed_report_is_one_the_docs_include() -> None:
    committed = report.REPORT.read_text(encoding="utf-8")
    assert committed == report.PLACEHOLDER or committed.startswith("<!-- Written by `make bench`")
