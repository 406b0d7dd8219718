"""Restarts of the chains, the greedy start fill of pruned chains, and near-empty grids of the
Lloyd–Amos study solved by tempering and hybrid."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

from benchmarks.bench_acs import read_instance
from ndoku.errors import NdokuError
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.chains import Restarts, metropolis, tempering
from ndoku.solvers.chains.fill import GreedyFill
from ndoku.solvers.chains.moves import pruned
from ndoku.solvers.chains.restarts import luby
from ndoku.solvers.random import generator
from ndoku.tasks.solve import Options, solve
from ndoku.tasks.verify import problems

if TYPE_CHECKING:
    from conftest import CliRun

SHIDOKU = "1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n"


@pytest.fixture
def easy9(data: Path) -> Puzzle:
    line = (data / "sudoku9" / "norvig_easy50.txt").read_text().split()[0]
    [puzzle] = read_puzzles(text=line)
    return puzzle


def test_luby_is_the_sequence_of_luby_sinclair_and_zuckerman() -> None:
    # t_i = 2^(k-1) when i = 2^k - 1, else t_(i - 2^(k-1) + 1) for 2^(k-1) ≤ i < 2^k - 1
    def reference(i: int) -> int:
        k = math.ceil(math.log2(i + 1))
        if i == 2**k - 1:
            return 2 ** (k - 1)
        return reference(i - 2 ** (k - 1) + 1)

    assert [luby(i) for i in range(1, 200)] == [reference(i) for i in range(1, 200)]


def test_restarts_happen_and_keep_the_seed_contract(easy9: Puzzle) -> None:
    small = Restarts("luby", 2_000)
    first = metropolis(easy9, seed=5, restarts=small)
    again = metropolis(easy9, seed=5, restarts=small)
    plain = metropolis(easy9, seed=5, restarts=Restarts("none"))
    other = metropolis(easy9, seed=6, restarts=small)
    assert first.solved and problems(easy9, first.values) == []
    assert first.restarts > 0 and plain.restarts == 0
    assert (first.proposals, first.restarts, first.best_at) == (
        again.proposals,
        again.restarts,
        again.best_at,
    )
    assert (first.values == again.values).all()
    # restarting changed the chain: not the run without restarts, nor another seed's
    assert first.proposals != plain.proposals
    assert (first.proposals, first.restarts) != (other.proposals, other.restarts)


def test_runs_between_restarts_follow_their_strategy(easy9: Puzzle) -> None:
    unit, cap = 1_000, 40_000
    for kind, count in (("luby", None), ("geometric", 5)):
        run = metropolis(easy9, seed=1, restarts=Restarts(kind, unit), max_proposals=cap)
        lengths = Restarts(kind, unit).lengths()
        ends = np.cumsum([next(lengths) for _ in range(60)])
        if not run.solved:  # every run that ended within the cap restarted
            assert run.restarts == int((ends < cap).sum())
        if count is not None:  # 1k, 2k, 4k, 8k, 16k end before 40k
            assert run.restarts <= count


def test_tempering_restarts_do_not_depend_on_threads(data: Path) -> None:
    [puzzle] = read_puzzles(data / "samurai" / "jss_samurai.txt")
    small = Restarts("luby", 50_000)
    one = tempering(puzzle, seed=2, restarts=small, prune=False, threads=1)
    two = tempering(puzzle, seed=2, restarts=small, prune=False, threads=2)
    assert one.restarts > 0
    assert (one.proposals, one.restarts) == (two.proposals, two.restarts)
    assert (one.values == two.values).all()


def test_bad_restarts_are_refused() -> None:
    with pytest.raises(NdokuError, match="restart strategy"):
        Restarts("sometimes")
    with pytest.raises(NdokuError, match="restart unit"):
        Restarts("luby", 0)
    [p] = read_puzzles(text=SHIDOKU)
    with pytest.raises(NdokuError, match="restarts start a chain again"):
        solve(p, "exact", Options(restarts=Restarts("none")))


def test_a_dive_keeps_the_givens_and_the_units(data: Path) -> None:
    puzzle = read_instance(data / "lloyd_amos" / "inst25x25_10_1.txt")
    givens, candidates = pruned(puzzle)
    assert candidates is not None
    fill = GreedyFill.of(puzzle, candidates)
    for seed in range(3):
        values = fill.dive(givens, generator(seed))
        assert (values[givens > 0] == givens[givens > 0]).all()
        assert ((values == 0) | ((candidates >> (values - 1).astype(np.uint64)) & 1 == 1)).all()
        units = puzzle.units
        for u in range(len(units)):
            placed = values[units[u]]
            placed = placed[placed > 0]
            assert len(set(placed.tolist())) == len(placed)
    assert (fill.dive(givens, generator(0)) == fill.dive(givens, generator(0))).all()


@pytest.mark.parametrize("name", ["inst25x25_0_0", "inst25x25_5_0", "inst25x25_10_1"])
@pytest.mark.parametrize("method", ["tempering", "hybrid"])
def test_near_empty_25x25_grids_are_solved(data: Path, name: str, method: str) -> None:
    puzzle = read_instance(data / "lloyd_amos" / f"{name}.txt")
    outcome = solve(puzzle, method, Options(seed=0, timeout=60.0))
    assert outcome.status == "solved" and outcome.values is not None
    assert problems(puzzle, outcome.values) == []


def test_a_near_empty_grid_needs_no_tempering_proposal(data: Path) -> None:
    # the dive fills it: the chains never move
    puzzle = read_instance(data / "lloyd_amos" / "inst25x25_0_0.txt")
    result = tempering(puzzle, seed=0)
    assert result.solved and result.proposals == 0 and problems(puzzle, result.values) == []


@pytest.mark.parametrize(
    ("args", "restarts"),
    [
        (["--method", "metropolis"], 0),
        (["--method", "metropolis", "--restarts", "luby", "--restart-unit", "1000"], None),
        (["--method", "metropolis", "--restart-unit", "1000"], None),
        (["--method", "metropolis", "--restarts", "geometric", "--restart-unit", "1000"], None),
        (["--method", "metropolis", "--restarts", "none"], 0),
        (["--method", "hybrid", "--restarts", "none"], 0),
        (["--method", "tempering", "--restarts", "luby"], 0),
    ],
)
def test_restarts_through_the_command_line(
    run: CliRun, data: Path, args: list[str], restarts: int | None
) -> None:
    line = (data / "sudoku9" / "norvig_easy50.txt").read_text().split()[0]
    code, out, err = run("solve", "-", "--format", "json", "--seed", "3", *args, input=line)
    assert code == 0, err
    record = json.loads(out)
    # hybrid given a setting of its chain runs the chain, without its search first
    assert record["stop"] == "solved"
    assert record["restarts"] == restarts if restarts is not None else record["restarts"] > 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--method", "metropolis", "--restarts", "sometimes"], "Invalid value for '--restarts'"),
        (["--method", "metropolis", "--restart-unit", "0"], "Invalid value for '--restart-unit'"),
        (["--method", "metropolis", "--restart-unit", "1e30"], "Invalid value for"),
        (["--restarts", "luby"], "--restarts steers a Monte-Carlo chain"),
        (["--method", "exact", "--restart-unit", "5"], "--restart-unit steers a Monte-Carlo"),
        (["--method", "hillclimb", "--restarts", "none"], "--restarts steers a Monte-Carlo"),
    ],
)
def test_bad_restart_options(run: CliRun, args: list[str], message: str) -> None:
    code, out, err = run("solve", "-", *args, input=SHIDOKU)
    assert code == 2 and out == ""
    assert "Error: " in err and message in err and "Traceback" not in err
