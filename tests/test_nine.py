"""The 9×9 bit-board search against the general exact search: the same counts, statuses and
first solutions on real puzzles and on damaged ones, the same limits and pauses, and only on
the classic layout."""

from __future__ import annotations

import dataclasses
from itertools import permutations
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.exact import STOPS, nine, solve_exact
from ndoku.solvers.exact import solver as exact_solver
from ndoku.solvers.exact.kernels import STAT_STOP
from ndoku.solvers.exact.solver import BatchResult, NineWorkspace, Workspace, solve_array
from ndoku.solvers.tables import Topology
from ndoku.tasks.verify import problems

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent
SETS = [
    "norvig_top95",
    "norvig_hardest11",
    "tdoku_test_puzzles_counts",
    "forum_hardest_1106_first40",
    "sudoku_exchange_diabolical_first100",
    "kaggle_bryanpark_first69",
    "serg_benchmark_sample1k",
]


def classic() -> tuple[Puzzle, Topology]:
    [puzzle] = read_puzzles(text="0" * 81 + "\n")
    return puzzle, Topology.of(puzzle)


def both(givens: np.ndarray, limit: int = 2, max_nodes: int = 10**9) -> tuple[BatchResult, ...]:
    """The bit-board search's results and the general search's, on the same givens."""
    _, topology = classic()
    general = dataclasses.replace(topology, classic=False)
    return tuple(solve_array(t, givens, limit, max_nodes, 60.0) for t in (topology, general))


def assert_same(fast: BatchResult, slow: BatchResult) -> None:
    assert fast.statuses.tolist() == slow.statuses.tolist()
    assert fast.counts.tolist() == slow.counts.tolist()
    # A unique solution is the same whichever search found it; of several, each finds its own.
    one = (fast.counts == 1) & (fast.stats[:, STAT_STOP] == STOPS.index("complete"))
    assert (fast.values[one] == slow.values[one]).all()


def givens_of(name: str) -> np.ndarray:
    return np.stack([p.givens for p in read_puzzles(DATA / "sudoku9" / f"{name}.txt")])


@pytest.mark.parametrize("name", SETS)
def test_same_answers_as_the_general_search(name: str) -> None:
    fast, slow = both(givens_of(name))
    assert_same(fast, slow)
    puzzles = read_puzzles(DATA / "sudoku9" / f"{name}.txt")
    for puzzle, values, count in zip(puzzles, fast.values, fast.counts, strict=True):
        assert count == 0 or problems(puzzle, values) == []


def test_stronger_propagation_searches_less() -> None:
    fast, slow = both(givens_of("forum_hardest_1106_first40"))
    assert fast.nodes.sum() < slow.nodes.sum()


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(SETS[:4]),
    st.integers(0, 10**6),
    st.integers(0, 60),
    st.integers(0, 6),
    st.sampled_from([1, 2, 7]),
)
def test_damaged_puzzles(name: str, seed: int, removed: int, changed: int, limit: int) -> None:
    """Givens taken away (several solutions) or changed (often none): the same counts up to
    the limit as the general search."""
    rng = np.random.default_rng(seed)
    table = givens_of(name)
    givens = table[rng.integers(len(table))].copy()
    filled = np.flatnonzero(givens)
    givens[rng.choice(filled, min(removed, len(filled)), replace=False)] = 0
    cells = rng.choice(81, changed, replace=False)
    givens[cells] = rng.integers(0, 10, changed)
    fast, slow = both(givens[None, :].astype(np.int32), limit=limit)
    assert_same(fast, slow)


def test_counts_of_near_empty_grids() -> None:
    """A Latin band of givens has many completions: the counts agree up to a limit of 50."""
    givens = np.zeros((3, 81), dtype=np.int32)
    givens[1, :9] = np.arange(1, 10)
    givens[2, 0] = givens[2, 1] = 5  # two equal givens in a row: no solution
    fast, slow = both(givens, limit=50)
    assert_same(fast, slow)
    assert fast.counts.tolist() == [50, 50, 0]
    assert fast.statuses.tolist() == ["multiple", "multiple", "none"]


def test_node_limit_and_pauses() -> None:
    """A node limit stops each puzzle where it says; pausing and resuming (a small node
    budget per call) gives the same answers and nodes as one long call."""
    givens = givens_of("forum_hardest_1106_first40")[:10]
    _, topology = classic()
    cut = solve_array(topology, givens, 2, 5, 60.0)
    assert (cut.nodes <= 5).all() and set(cut.statuses.tolist()) <= {"limit", "solved"}
    # Thousands of solutions: a search long enough to pause several times.
    many = givens_of("norvig_top95")[:1].copy()
    many[0, np.flatnonzero(many[0])[:6]] = 0
    givens = np.concatenate([givens, many])
    limit = 10**5
    whole = solve_array(topology, givens, limit, 10**9, 60.0)
    assert whole.nodes[-1] > 3 * 2**12
    work = NineWorkspace()
    n = len(givens)
    values = np.zeros((n, 81), dtype=np.int32)
    stats = np.zeros((n, 6), dtype=np.int64)
    i = calls = 0
    while i < n:  # no clock: a pause every 2**12 nodes, and a return after each puzzle
        i = work.kernel(*work.arguments(givens, None, i, limit, 10**9, 0, 0, values, stats))
        calls += 1
    assert calls > n + 2
    paused = BatchResult(values, stats, np.zeros(n), limit)
    assert_same(paused, whole)
    assert (paused.nodes == whole.nodes).all()


@pytest.mark.parametrize(
    ("layout", "expected"),
    [
        ("9x9", True),
        ("jigsaw9", False),
        ("xsudoku", False),
        ("windoku", False),
        ("4x4", False),
        ("16x16", False),
        ("samurai", False),
    ],
)
def test_only_the_classic_layout(layout: str, expected: bool) -> None:
    [puzzle, *_] = read_puzzles(ROOT / "layouts" / f"{layout}.txt")
    assert Topology.of(puzzle).classic is expected


def test_pencil_marks_take_the_general_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bit boards have no place for pencil marks: a marked puzzle is searched generally."""
    made: list[str] = []
    for kind in (Workspace, NineWorkspace):
        init = kind.__init__

        def record(self: object, *args: object, init: object = init, kind: type = kind) -> None:
            made.append(kind.__name__)
            init(self, *args)  # type: ignore[operator]

        monkeypatch.setattr(kind, "__init__", record)
    _, topology = classic()
    topology.spare.clear()  # none left by an earlier test's search: one is made here
    givens = givens_of("norvig_top95")[:2]
    marks = np.full(givens.shape, np.uint64(0x1FF))
    solve_array(topology, givens, 2, 10**6, 60.0, marks=marks)
    solve_array(topology, givens, 2, 10**6, 60.0)
    assert made == ["Workspace", "NineWorkspace"]
    assert exact_solver.NineWorkspace is NineWorkspace


def test_rule_tables_from_their_definitions() -> None:
    """Each pattern keeps exactly the triads of the permutations inside it."""
    shapes = [sum(1 << (3 * r + p[r]) for r in range(3)) for p in permutations(range(3))]
    for t in range(512):
        inside = [m for m in shapes if t & m == m]
        assert nine._FITS[t] == (np.bitwise_or.reduce(inside) if inside else 0)
    assert nine._FITS[0b100_010_001] == 0b100_010_001 and nine._FITS[0b011_011_011] == 0
    for pos in range(27):
        r, c = divmod(pos, 9)
        expected = {
            9 * r2 + c2
            for r2 in range(3)
            for c2 in range(9)
            if (r2 == r or c2 // 3 == c // 3) and (r2, c2) != (r, c)
        }
        assert {b for b in range(27) if nine._PEERS[pos] >> b & 1} == expected


def test_warmed_parts_are_those_the_search_loads() -> None:
    # A second process compiles these ahead of a first command: a type differing from the
    # search's own calls would have the search compile them again, for nothing.
    parts = (nine._digit_rules, nine._choose, nine._weigh, nine._write)
    nine.warm_parts()
    warmed = [list(part.signatures) for part in parts]
    hard = "800000000003600000070090200050007000000045700000100030001000068008500010090000400"
    [puzzle] = read_puzzles(text=hard + "\n")
    result = solve_exact(puzzle)
    assert result.unique and result.nodes > 1  # it branched: every part was called
    assert [list(part.signatures) for part in parts] == warmed
    assert all(len(signatures) == 1 for signatures in warmed)
