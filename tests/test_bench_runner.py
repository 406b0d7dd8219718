"""``python -m benchmarks``: a benchmark that raises is one ``FAIL`` line and a failed run, and
the benchmarks after it still run; Ctrl-C stops the run."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest

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
    assert lines[6:] == ["0 goal(s) missed, 2 benchmark(s) failed"]
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
    assert capsys.readouterr().out.splitlines()[-1] == "0 goal(s) missed, 0 benchmark(s) failed"
    assert main(["misses", "works"], package=fake) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "1 goal(s) missed, 0 benchmark(s) failed"
    assert main(["fails"], package=fake) == 1
    assert capsys.readouterr().out.splitlines() == [
        "== fails",
        "FAIL fails: RuntimeError",
        "0 goal(s) missed, 1 benchmark(s) failed",
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
