"""The warming process beside a first ``rate`` or ``generate``: when it starts, what it
compiles and marks, and that the command's answers do not depend on it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest
from conftest import CliRun

from ndoku.tasks import warming

EASY = Path(__file__).parent / "data" / "sudoku9" / "norvig_easy50.txt"


class Spawned:
    """Stands in for ``subprocess.Popen``: records the command, runs nothing."""

    calls: ClassVar[list[list[str]]] = []

    def __init__(self, command: list[str], **_: Any) -> None:
        Spawned.calls.append(command)

    def poll(self) -> int:
        return 0


@pytest.fixture
def spawned(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[list[str]]:
    """Warming turned on, marks in an empty folder, processes recorded instead of started."""
    monkeypatch.delenv("NDOKU_WARM_ASIDE", raising=False)
    monkeypatch.setattr(warming, "cache_folder", lambda: tmp_path)
    monkeypatch.setattr(warming, "_started", [])
    monkeypatch.setattr(warming, "_cores", lambda: 2)
    monkeypatch.setattr(warming.subprocess, "Popen", Spawned)
    Spawned.calls = []
    return Spawned.calls


def test_a_process_starts_for_the_jobs_not_yet_warmed(
    spawned: list[list[str]], tmp_path: Path
) -> None:
    warming._mark("logic").touch()
    assert warming.warm_aside("logic", "metropolis")
    assert spawned == [[sys.executable, "-m", "ndoku.tasks.warming", "metropolis"]]
    assert not warming.warm_aside("metropolis")  # one per process


def test_no_process_when_warmed_on_one_core_or_turned_off(
    spawned: list[list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    for job in warming.JOBS:
        warming._mark(job).touch()
    assert not warming.warm_aside(*warming.JOBS)
    monkeypatch.setattr(warming, "_cores", lambda: 1)
    assert not warming.warm_aside("metropolis")
    monkeypatch.setattr(warming, "_cores", lambda: 2)
    monkeypatch.setenv("NDOKU_WARM_ASIDE", "0")
    assert not warming.warm_aside("metropolis")
    assert spawned == []
    with pytest.raises(ValueError, match="no warming job is named 'tempering'"):
        warming.warm_aside("tempering")


def test_the_process_compiles_and_marks_its_jobs(tmp_path: Path) -> None:
    # in this checkout's own cache: the kernels load or compile as a command's would
    done = subprocess.run(
        [sys.executable, "-m", "ndoku.tasks.warming", "logic"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert warming._mark("logic").exists()


def _timeless(out: str) -> dict[str, object]:
    record: dict[str, object] = json.loads(out)
    del record["seconds"]
    return record


def test_rate_answers_the_same_with_a_warming_process(
    run: CliRun, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one = tmp_path / "one.txt"
    one.write_text(EASY.read_text().splitlines()[0].split(",")[0][:81] + "\n")
    alone = run("rate", str(one), "--format", "json", "--chains", "0")  # the logic job only
    monkeypatch.delenv("NDOKU_WARM_ASIDE")
    monkeypatch.setattr(warming, "_started", [])
    monkeypatch.setattr(warming, "cache_folder", lambda: tmp_path)  # nothing marked: it starts
    beside = run("rate", str(one), "--format", "json", "--chains", "0")
    assert beside[0] == alone[0] == 0
    assert _timeless(beside[1]) == _timeless(alone[1])
    [process] = warming._started
    warming._stop(process)
    assert process.poll() is not None


def test_a_9x9_rate_warms_the_search_parts_first(spawned: list[list[str]], run: CliRun) -> None:
    one = EASY.read_text().splitlines()[0].split(",")[0][:81] + "\n"
    assert run("rate", "-", input=one)[0] == 0
    assert spawned == [
        [sys.executable, "-m", "ndoku.tasks.warming", "nine", "metropolis", "logic", "subsets"]
    ]


def test_a_6x6_generate_warms_no_search_parts(spawned: list[list[str]], run: CliRun) -> None:
    assert run("generate", "6x6", "--seed", "1")[0] == 0
    assert spawned == [[sys.executable, "-m", "ndoku.tasks.warming", "logic", "subsets"]]


def test_techniques_are_warmed_by_name() -> None:
    from ndoku.solvers.logic.path import warm_these

    with pytest.raises(ValueError, match="no technique is named 'naked quintuple'"):
        warm_these(["naked pair", "naked quintuple"])
    warm_these(["naked pair"])  # compiles or loads, and says nothing back
