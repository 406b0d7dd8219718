"""One puzzle's exact search split over threads: the answer, count and status of one
thread, whichever way the threads ran; limits kept; failures raised, threads stopped."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest
from numba import types

from ndoku.errors import NdokuError
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.exact import solve_exact
from ndoku.solvers.exact import split as split_module
from ndoku.solvers.exact.kernels import search
from ndoku.solvers.exact.solver import BatchResult, solve_array
from ndoku.solvers.exact.split import solve_split
from ndoku.solvers.tables import Topology

from helpers import DATA, blank_grid, gecode25, puzzle_of

if TYPE_CHECKING:
    from conftest import CliRun

#: Seconds between a thread's looks at the others: small, so that small searches split.
OFTEN = 1e-5


def wild(path: str) -> list[Puzzle]:
    """The puzzles of a wild set with one or several solutions (its unsolvable one has
    givens that clash: it is refused when read)."""
    lines = (DATA / path).read_text().splitlines()
    return [puzzle_of(line.split()[1].split(",")[0]) for line in lines if "none" not in line]


def unsolvable() -> Puzzle:
    """A minimal 25×25 with one more given that clashes with no given, against its
    solution: no solution, which the search needs hundreds of nodes to prove."""
    puzzle = gecode25(0)
    givens = puzzle.givens.copy()
    givens[49] = 1
    return puzzle_of(puzzle.text(givens))


WILD = wild("sudoku16/wild_16x16.txt") + wild("sudoku25/wild_25x25.txt") + [unsolvable()]


@pytest.fixture
def handed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many parts the split searches of a test handed on (one entry per part)."""
    parts: list[int] = []
    hand = split_module._Split._hand

    def counting(self: Any, work: Any, key: tuple[int, ...]) -> tuple[int, ...]:
        new = hand(self, work, key)
        if new != key:
            parts.append(1)
        return new

    monkeypatch.setattr(split_module._Split, "_hand", counting)
    return parts


def one_thread(puzzle: Puzzle, limit: int, max_nodes: int = 10**9) -> BatchResult:
    topology = Topology.of(puzzle)
    return solve_array(topology, puzzle.givens[None, :], limit, max_nodes, 60.0)


def split(puzzle: Puzzle, limit: int, threads: int, **options: Any) -> BatchResult:
    topology = Topology.of(puzzle)
    timeout = options.pop("timeout", 60.0)
    max_nodes = options.pop("max_nodes", 10**9)
    return solve_split(
        topology, puzzle.givens, limit, max_nodes, timeout, threads, pause=OFTEN, **options
    )


def same_answer(a: BatchResult, b: BatchResult) -> None:
    x, y = a.result(0), b.result(0)
    assert (x.status, x.count, x.unique, x.stop) == (y.status, y.count, y.unique, y.stop)
    assert np.array_equal(a.values, b.values)


@pytest.mark.parametrize("threads", [2, 3])
def test_wild_puzzles_get_the_answer_of_one_thread(threads: int, handed: list[int]) -> None:
    statuses = set()
    for puzzle in WILD:
        alone = one_thread(puzzle, 2)
        same_answer(split(puzzle, 2, threads), alone)
        statuses.add(alone.result(0).status)
    assert statuses == {"solved", "multiple", "none"}
    assert handed  # the searches did split


@pytest.mark.parametrize(
    ("rows", "box", "limit"),
    [(6, "2x3", 300), (8, "2x4", 500), (9, "3x3", 200), (16, "4x4", 50), (16, "4x4", 100_000)],
)
def test_many_solutions_are_the_first_of_one_thread(
    rows: int, box: str, limit: int, handed: list[int]
) -> None:
    """An empty grid has more solutions than the limit: the split search stops with the same
    count and the same first solution as one thread (9×9 as pencil marks of the general
    search: the classic 9×9 has its own, which is never split)."""
    [puzzle] = read_puzzles(text=f"# box: {box}\n" + blank_grid(rows))
    for threads in (2, 4):
        same_answer(split(puzzle, limit, threads), one_thread(puzzle, limit))
    assert handed or limit < 100_000  # the smaller ones may end before a helper is idle


def test_searches_split_or_not_run_one_compiled_version() -> None:
    """Pencil marks or none, one thread or split: the kernel always gets marks (a first 25×25
    run compiled a version with None and one with marks, 4 s more)."""
    puzzle = gecode25(0)
    same_answer(split(puzzle, 2, 2), one_thread(puzzle, 2))
    solve_exact(puzzle_of(puzzle.text(puzzle.givens)), threads=1)
    marks = {signature[1] for signature in search.signatures}
    assert marks == {types.Array(types.uint64, 2, "C")}


def test_the_classic_nine_is_not_split() -> None:
    puzzle = puzzle_of("0" * 81)
    result = solve_exact(puzzle, limit=500, threads=2)
    assert (result.status, result.count) == ("multiple", 500)


def test_node_limit_is_never_passed() -> None:
    [puzzle] = read_puzzles(text=blank_grid(16))
    for threads in (2, 3):
        result = split(puzzle, 10**6, threads, max_nodes=5_000).result(0)
        assert result.stop == "nodes" and result.nodes <= 5_000


def test_timeout_stops_every_thread() -> None:
    [puzzle] = read_puzzles(text=blank_grid(25))
    before = threading.active_count()
    start = time.perf_counter()
    result = split(puzzle, 10**9, 2, timeout=0.3).result(0)
    assert result.stop == "timeout" and result.status == "multiple"
    assert time.perf_counter() - start < 2.0
    assert threading.active_count() == before


def test_a_failing_thread_raises_and_the_others_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: Any, work: Any, key: tuple[int, ...]) -> tuple[int, ...]:
        raise RuntimeError("broken hand")

    monkeypatch.setattr(split_module._Split, "_hand", broken)
    [puzzle] = read_puzzles(text=blank_grid(16))
    before = threading.active_count()
    with pytest.raises(RuntimeError, match="broken hand"):
        split(puzzle, 10**6, 2)
    assert threading.active_count() == before


def test_threads_must_be_positive() -> None:
    with pytest.raises(NdokuError, match="threads must be 1 or more"):
        solve_exact(puzzle_of("0" * 16), threads=0)


def test_a_minimal_25x25_is_proved_unique_by_two_threads() -> None:
    puzzle = gecode25(1)
    alone = solve_exact(puzzle)
    both = solve_exact(puzzle, threads=2)
    assert (both.status, both.unique) == ("solved", True)
    assert np.array_equal(both.values, alone.values)


def test_the_command_splits_one_puzzle_over_jobs(
    run: CliRun, tmp_path: Path, handed: list[int]
) -> None:
    """``--jobs``: threads for one puzzle, in a batch of one line and in a grid file."""
    line = (DATA / "sudoku25/gecode_25x25_shared6.txt").read_text().split()[1].split(",")[0]
    grid = gecode25(1).text(gecode25(1).givens)
    for name, text in (("line.txt", line + "\n"), ("grid.txt", grid)):
        path = tmp_path / name
        path.write_text(text)
        one = run("solve", str(path), "--jobs", "1")
        assert not handed
        two = run("solve", str(path), "--jobs", "2")
        assert handed
        assert one[0] == two[0] == 0 and one[1] == two[1]
        handed.clear()


def test_a_quick_search_starts_no_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """Helpers start at the first pause: a search shorter than that starts none, a long
    one starts them once."""
    started: list[int] = []
    start = split_module._Split._start_helpers

    def counting(self: Any) -> None:
        started.append(1)
        start(self)

    monkeypatch.setattr(split_module._Split, "_start_helpers", counting)
    quick = read_puzzles(DATA / "sudoku16/goomii_16x16_first40.txt")[0]
    assert solve_exact(quick, threads=4).unique
    assert not started
    assert solve_exact(gecode25(1), threads=4).unique
    assert started == [1]
