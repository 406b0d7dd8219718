"""The search study: the teaching searches (propagation and branching) and random-restart
hill climbing, in the library and through the command line, with their bad values."""

from __future__ import annotations

import json
import time
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndoku.errors import NdokuError
from ndoku.model.puzzle import Puzzle
from ndoku.solvers.chains import hillclimb
from ndoku.solvers.exact import solve_exact
from ndoku.solvers.study import BRANCHINGS, PROPAGATIONS, search_study
from ndoku.tasks.verify import problems

from helpers import blank_grid, kaggle, line_puzzle, load, puzzle_of

if TYPE_CHECKING:
    from conftest import CliRun

DATA = Path(__file__).parent / "data"
STRATEGIES = [(p, b) for p in PROPAGATIONS for b in BRANCHINGS]
FOUR = DATA / "sudoku4" / "wild_4x4.txt"
EASY = DATA / "sudoku9" / "norvig_easy50.txt"


def small_puzzles() -> list[Puzzle]:
    """Real puzzles every strategy solves quickly: the 4×4 set, easy 9×9, a jigsaw, a
    Samurai, and a puzzle read from pencil marks."""
    fours = [line_puzzle(FOUR, k) for k in range(9)]
    nines = [line_puzzle(EASY, k) for k in (0, 1, 4, 7)]
    shapes = ["janko/samurai/1_21x21.puzzle.txt", "sukaku/diabolical1_step20.sukaku.txt"]
    return fours + nines + [load(DATA / name) for name in shapes]


@pytest.mark.parametrize(("propagation", "branching"), STRATEGIES)
def test_every_strategy_finds_what_the_full_solver_finds(propagation: str, branching: str) -> None:
    for puzzle in small_puzzles():
        full = solve_exact(puzzle)
        found = search_study(puzzle, propagation, branching, max_nodes=200_000)
        assert (found.status, found.count, found.unique) == ("solved", 1, True)
        assert found.values is not None and full.values is not None
        assert np.array_equal(found.values, full.values)
        assert problems(puzzle, found.values) == []


def counted(count: int) -> list[str]:
    """tdoku's test puzzles with ``count`` solutions (0, or 3 and more when ``count`` is 3)."""
    lines = (DATA / "sudoku9" / "tdoku_test_puzzles_counts.txt").read_text().split()
    fields = [line.split(":") for line in lines]
    return [f[0] for f in fields if min(int(f[1]), 3) == count]


@pytest.mark.parametrize(("propagation", "branching"), STRATEGIES)
def test_no_solution_and_several_are_proved_as_the_full_solver_does(
    propagation: str, branching: str
) -> None:
    # the one puzzle of the ten without a solution that plain backtracking proves so
    # within a million nodes (985 668)
    for text, status in [(counted(0)[8], "none"), (counted(3)[0], "multiple")]:
        puzzle = puzzle_of(text)
        found = search_study(puzzle, propagation, branching, max_nodes=1_000_000)
        assert found.status == status == solve_exact(puzzle).status
        assert found.count == (2 if status == "multiple" else 0)
    empty = puzzle_of("0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n")
    clash = np.zeros(16, dtype=np.int32)
    clash[:2] = 1  # two givens 1 in a row: refused when read, proved here
    assert search_study(empty, propagation, branching, givens=clash).status == "none"


@settings(max_examples=60, deadline=None)
@given(
    line=st.integers(0, 68),
    keep=st.lists(st.integers(0, 2), min_size=81, max_size=81),
    wrong=st.one_of(st.none(), st.integers(0, 80)),
)
def test_stronger_propagation_never_searches_more_with_first_branching(
    line: int, keep: list[int], wrong: int | None
) -> None:
    """Proved in :mod:`ndoku.solvers.study` for any puzzle, with one solution, several or
    none, node limits included: full ≤ singles ≤ forward ≤ none with ``first`` branching,
    and ``none`` and ``forward`` search the same tree with ``mrv``. The puzzles: cells of a
    third of a Kaggle solution's cells (most with several solutions), one perhaps changed."""
    puzzle, solution = kaggle(line)
    givens = np.array([int(s) for s in solution], dtype=np.int32) * (np.array(keep) == 0)
    if wrong is not None:
        givens[wrong] = givens[wrong] % 9 + 1
    nodes = [
        search_study(puzzle, p, "first", max_nodes=5_000, givens=givens).nodes for p in PROPAGATIONS
    ]
    assert all(weak >= strong for weak, strong in pairwise(nodes)), nodes
    none, forward = (
        search_study(puzzle, p, "mrv", max_nodes=5_000, givens=givens) for p in ("none", "forward")
    )
    assert (none.nodes, none.guesses, none.count) == (forward.nodes, forward.guesses, forward.count)


def test_the_orders_hold_on_harder_puzzles_within_a_node_limit() -> None:
    for k in range(5):
        puzzle = line_puzzle(DATA / "sudoku9" / "norvig_top95.txt", k)
        nodes = [search_study(puzzle, p, "first", max_nodes=20_000).nodes for p in PROPAGATIONS]
        assert nodes[0] == 20_000 and all(a >= b for a, b in pairwise(nodes)), nodes
        mrv = [search_study(puzzle, p, "mrv", max_nodes=20_000).nodes for p in PROPAGATIONS[:2]]
        assert mrv[0] == mrv[1]


def test_nodes_are_counted_as_the_paper_counts_them() -> None:
    # Forward checking with mrv never meets a dead end here: the root, then a node per free
    # cell; singles solve it at the root.
    puzzle = puzzle_of("1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n")
    assert search_study(puzzle, "forward", "mrv").nodes == 1 + 12
    assert search_study(puzzle, "singles", "first").nodes == 1
    plain = search_study(puzzle, "none", "first")
    assert plain.nodes == 19 and plain.guesses == 8  # 18 placements, 8 of them choices


def test_limits_are_honoured() -> None:
    hard = line_puzzle(DATA / "sudoku9" / "norvig_top95.txt", 0)
    capped = search_study(hard, "none", "first", max_nodes=1_000)
    assert (capped.status, capped.stop, capped.nodes) == ("limit", "nodes", 1_000)
    start = time.perf_counter()
    late = search_study(hard, "forward", "first", timeout=0.2)
    assert late.stop == "timeout" and late.unique is None  # a solution, perhaps: not proved
    assert time.perf_counter() - start < 10  # generous: a hang would not end


@pytest.mark.parametrize(("propagation", "branching"), STRATEGIES[:-1])
def test_every_teaching_search_stops_at_its_timeout(propagation: str, branching: str) -> None:
    empty = puzzle_of(blank_grid(25))  # counting its solutions never ends; the stack grows
    search_study(empty, propagation, branching, max_nodes=1)  # compiled or loaded first
    start = time.perf_counter()
    counted = search_study(empty, propagation, branching, limit=10**9, timeout=0.3)
    assert counted.stop == "timeout"
    assert 0.3 <= time.perf_counter() - start < 2.0  # generous: a hang would not end


def test_bad_choices_are_refused() -> None:
    puzzle = puzzle_of("1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n")
    with pytest.raises(NdokuError, match="unknown propagation 'bogus'"):
        search_study(puzzle, "bogus", "first")
    with pytest.raises(NdokuError, match="unknown branching"):
        search_study(puzzle, "none", "last")
    with pytest.raises(NdokuError, match="max nodes"):
        search_study(puzzle, "none", "mrv", max_nodes=0)
    with pytest.raises(NdokuError, match="plateau"):
        hillclimb(puzzle, plateau=0)


@pytest.mark.parametrize("path", [FOUR, EASY])
def test_hill_climbing_solves_easy_puzzles_and_repeats_with_its_seed(path: Path) -> None:
    for k in range(3):
        puzzle = line_puzzle(path, k)
        first = hillclimb(puzzle, seed=7, max_proposals=5_000_000)
        again = hillclimb(puzzle, seed=7, max_proposals=5_000_000)
        assert first.solved and first.stop == "solved" and first.temperature == 0.0
        assert problems(puzzle, first.values) == []
        assert (first.proposals, first.restarts) == (again.proposals, again.restarts)
        assert np.array_equal(first.values, again.values)


def test_hill_climbing_restarts_after_each_plateau_and_keeps_to_its_cap() -> None:
    puzzle = line_puzzle(DATA / "sudoku9" / "forum_hardest_1106_first40.txt", 0)
    run = hillclimb(puzzle, seed=1, plateau=500, max_proposals=200_000)
    assert not run.solved and run.stop == "max-proposals" and run.proposals == 200_000
    # every climb but the last ran at least a plateau, and none is longer than it needs
    assert 200_000 // 500 >= run.restarts >= 1
    assert run.best_energy > 0 and run.energy >= run.best_energy
    assert problems(puzzle, run.best_values) != []


def test_the_command_runs_the_teaching_search(run: CliRun, tmp_path: Path) -> None:
    one = tmp_path / "easy.txt"
    one.write_text(EASY.read_text().splitlines()[0] + "\n")
    code, out, _ = run("solve", str(one), "--format", "json")
    assert code == 0 and "propagation" not in json.loads(out)
    full = json.loads(out)
    for propagation, branching in STRATEGIES:
        code, out, _ = run(
            "solve", str(one), "--method", "exact", "--propagation", propagation,
            "--branching", branching, "--format", "json",
        )  # fmt: skip
        record = json.loads(out)
        assert code == 0 and record["solution"] == full["solution"] and record["unique"]
        if (propagation, branching) != ("full", "mrv"):
            assert (record["propagation"], record["branching"]) == (propagation, branching)
    batch = tmp_path / "batch.txt"
    batch.write_text("\n".join(EASY.read_text().splitlines()[:3]) + "\n")
    code, out, err = run("solve", str(batch), "--propagation", "forward")
    assert code == 0 and len(out.splitlines()) == 3 and "3 puzzles: 3 solved" in err
    code, out, err = run("solve", str(one), "--propagation", "none", "--max-nodes", "10")
    assert code == 1 and out == "limit\n" and "node limit" in err


def test_the_command_runs_hill_climbing(run: CliRun, tmp_path: Path) -> None:
    one = tmp_path / "easy.txt"
    one.write_text(EASY.read_text().splitlines()[1] + "\n")
    args = ("solve", str(one), "--method", "hillclimb", "--seed", "4", "--format", "json")
    code, out, _ = run(*args)
    record = json.loads(out)
    assert code == 0 and record["status"] == "solved" and record["method"] == "hillclimb"
    assert record["restarts"] >= 0 and record["plateau"] > 0 and record["temperature"] == 0
    code, again, _ = run(*args)
    assert json.loads(again)["proposals"] == record["proposals"]
    code, out, _ = run(*args, "--plateau", "100", "--runs", "2")
    assert code == 0 and [json.loads(r)["plateau"] for r in out.splitlines()] == [100, 100]
    code, out, err = run("solve", str(one), "--method", "hillclimb", "--max-proposals", "10")
    assert code == 1 and out == "unsolved\n" and "proposal limit" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--propagation", "bogus"], "Invalid value for '--propagation'"),
        (["--branching", "widest"], "Invalid value for '--branching'"),
        (["--branching", "first", "--method", "metropolis"], "--branching chooses the exact"),
        (["--propagation", "full", "--method", "hillclimb"], "--propagation chooses the exact"),
        (["--propagation", "none", "--branching", "mrv", "--method", "hybrid"], "choose the"),
        (["--plateau", "10"], "--plateau ends a climb"),
        (["--plateau", "0", "--method", "hillclimb"], "Invalid value for '--plateau'"),
        (["--method", "hillclimb", "-T", "0.3"], "T = 0"),
        (["--method", "hillclimb", "--moves", "row"], "--moves steers a Monte-Carlo chain"),
        (["--method", "hillclimb", "--ladder", "0.2,0.3"], "--ladder steers"),
    ],
)
def test_bad_options_are_errors(run: CliRun, tmp_path: Path, args: list[str], message: str) -> None:
    puzzle = tmp_path / "four.txt"
    puzzle.write_text("1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n")
    code, out, err = run("solve", str(puzzle), *args)
    assert code == 2 and out == "" and "Error:" in err and message in err
