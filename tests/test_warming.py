"""The warming process beside a first ``rate`` or ``generate``: when it starts, what it
compiles and marks, and that the command's answers do not depend on it."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest
from conftest import CliRun

from ndoku.tasks import warming

EASY = Path(__file__).parent / "data" / "sudoku9" / "norvig_easy50.txt"


class Told(io.BytesIO):
    """A process's standard input that keeps what was written after it is closed."""

    said: ClassVar[list[bytes]] = []

    def close(self) -> None:
        Told.said.append(self.getvalue())
        super().close()


class Spawned:
    """Stands in for ``subprocess.Popen``: records the command (and what its standard input
    is told), runs nothing."""

    calls: ClassVar[list[list[str]]] = []

    def __init__(self, command: list[str], stdin: Any = None, **_: Any) -> None:
        Spawned.calls.append(command)
        self.stdin = Told() if stdin == subprocess.PIPE else None

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
    Told.said = []
    return Spawned.calls


def test_a_process_starts_for_the_jobs_not_yet_warmed(
    spawned: list[list[str]], tmp_path: Path
) -> None:
    warming._mark("logic").touch()
    assert warming.warm_aside("logic", "metropolis")
    assert spawned == [[sys.executable, "-P", "-m", "ndoku.tasks.warming", "metropolis"]]
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


def test_rate_starts_the_process_first_and_tells_it_the_jobs_once_it_has_read(
    spawned: list[list[str]], run: CliRun, tmp_path: Path
) -> None:
    one = EASY.read_text().splitlines()[0].split(",")[0][:81] + "\n"
    assert run("rate", "-", input=one)[0] == 0
    assert spawned == [[sys.executable, "-P", "-m", "ndoku.tasks.warming"]]
    assert Told.said == [b"nine metropolis logic subsets\n"]  # a 9×9: the search's parts first
    small = tmp_path / "small.txt"
    small.write_text("1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n")
    warming._started.clear()  # another command
    assert run("rate", str(small), "--chains", "0")[0] == 0
    assert Told.said[1:] == [b"logic subsets\n"]


def test_the_process_reads_its_jobs_on_standard_input(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ndoku.tasks.warming"],
        input="logic nothing-of-that-name\n",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert warming._mark("logic").exists()


def test_a_6x6_generate_warms_no_search_parts(spawned: list[list[str]], run: CliRun) -> None:
    assert run("generate", "6x6", "--seed", "1")[0] == 0
    jobs = ["logic", "chains", "subsets"]
    assert spawned == [[sys.executable, "-P", "-m", "ndoku.tasks.warming", *jobs]]


def test_a_killer_generate_warms_the_ruled_search(spawned: list[list[str]], run: CliRun) -> None:
    assert run("generate", "4x4", "--rules", "killer", "--seed", "1")[0] == 0
    jobs = ["ruled", "logic", "chains", "subsets"]
    assert spawned == [[sys.executable, "-P", "-m", "ndoku.tasks.warming", *jobs]]


def test_the_chains_job_names_techniques_a_plain_path_tries() -> None:
    # a name no technique has would end the job at its first step, in a process no one reads
    from ndoku.solvers.logic.path import RULES, TECHNIQUES

    plain = [name for name, _, _ in TECHNIQUES if name not in RULES]
    assert set(warming.CHAINS) <= set(plain)


def test_techniques_are_warmed_by_name() -> None:
    from ndoku.solvers.logic.path import warm_these

    with pytest.raises(ValueError, match="no technique is named 'naked quintuple'"):
        warm_these(["naked pair", "naked quintuple"])
    warm_these(["naked pair"])  # compiles or loads, and says nothing back


def test_the_process_warms_this_ndoku_from_any_folder(tmp_path: Path) -> None:
    # A folder holding another ndoku (a second checkout): the process imports this one.
    (tmp_path / "ndoku" / "tasks").mkdir(parents=True)
    (tmp_path / "ndoku" / "__init__.py").write_text("raise SystemExit(3)\n")
    done = subprocess.run(
        warming._command([]), cwd=tmp_path, input=b"", capture_output=True, timeout=300
    )
    assert done.returncode == 0, done.stderr


def test_the_ruled_job_makes_the_version_a_ruled_solve_uses() -> None:
    # were the types another's, a first command would wait for this job's compile (the
    # lock is the kernel's), then compile its own
    from ndoku.model.puzzle import read_puzzles
    from ndoku.solvers.exact import solve_exact
    from ndoku.solvers.exact.kernels import search

    warming.JOBS["ruled"]()
    made = list(search.signatures)
    data = Path(__file__).parent / "data"
    killer = read_puzzles(data / "variants" / "killer_6x6.txt")[0]
    nine = read_puzzles(data / "variants" / "killer_9x9.txt")[0]
    thermo = read_puzzles(text="0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n\nthermo: r1c1 r1c2\n")[0]
    for puzzle in (killer, nine, thermo):
        solve_exact(puzzle)
        solve_exact(puzzle, threads=2)
    assert list(search.signatures) == made
    # a killer Samurai's search looks for locked candidates: no job for it
    samurai = read_puzzles(Path(__file__).parent.parent / "examples" / "killer_samurai.txt")[0]
    assert warming.search_jobs([samurai]) == []


def test_explain_of_a_killer_warms_the_ruled_search(spawned: list[list[str]], run: CliRun) -> None:
    killer = Path(__file__).parent / "data" / "variants" / "killer_4x4.txt"
    assert run("explain", str(killer))[0] == 0
    assert spawned == [[sys.executable, "-P", "-m", "ndoku.tasks.warming", "ruled"]]
    spawned.clear()
    assert run("hint", str(EASY))[0] == 0  # a classic 9×9's path: no search to warm
    assert spawned == []
