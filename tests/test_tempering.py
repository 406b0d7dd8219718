"""Parallel tempering: the exchange rule, bookkeeping, determinism, solutions and arguments."""

from __future__ import annotations

import itertools
import math
import sys
import time
from pathlib import Path

import numba
import numpy as np
import pytest

from ndoku.errors import NdokuError
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.chains.moves import (
    box_swap_system,
    places,
    pruned,
    unit_counts,
)
from ndoku.solvers.chains.replicas import Replicas, exchange, exchange_probability
from ndoku.solvers.chains.tempering import TemperingResult, default_ladder, tempering
from ndoku.tasks.verify import problems

from helpers import gecode25, line_puzzle, load, naive_energy

DATA = Path(__file__).parent / "data"
SAMURAI = DATA / "samurai" / "jss_ezSamurai.txt"
KYLE = DATA / "samurai" / "kyle_samurai.txt"
NINE = DATA / "sudoku9" / "kaggle_bryanpark_first69.txt"
SIXTEEN = DATA / "sudoku16" / "goomii_16x16_first40.txt"
# Puzzles that pruning does not solve on its own (the Kaggle, Goomii and Samurai ones it does).
HARDEST = DATA / "sudoku9" / "forum_hardest_1106_first40.txt"
WILD16 = DATA / "sudoku16" / "wild_16x16.txt"
FOUR = "1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n"


def same(a: TemperingResult, b: TemperingResult) -> bool:
    """Equal in everything but the wall time and the trace."""
    return (
        np.array_equal(a.values, b.values)
        and np.array_equal(a.best_values, b.best_values)
        and (a.solved, a.energy, a.best_energy, a.best_at, a.proposals, a.acceptances, a.stop)
        == (b.solved, b.energy, b.best_energy, b.best_at, b.proposals, b.acceptances, b.stop)
        and np.array_equal(a.exchange_rates, b.exchange_rates, equal_nan=True)
    )


@pytest.mark.parametrize("rule", [exchange_probability, exchange_probability.py_func])
def test_exchange_probability_is_the_metropolis_swap_rule(rule: object) -> None:
    rng = np.random.default_rng(7)
    for _ in range(500):
        t_i, t_j = rng.uniform(0.05, 2.0, 2)
        e_i, e_j = (int(e) for e in rng.integers(0, 60, 2))
        direct = min(1.0, math.exp((1 / t_i - 1 / t_j) * (e_i - e_j)))
        assert rule(1 / t_i, 1 / t_j, e_i, e_j) == pytest.approx(direct, rel=1e-12)  # type: ignore[operator]


def test_exchanges_are_taken_at_the_rule_s_rate() -> None:
    # Two rungs, the cold replica the lower one: the share of exchanges taken follows the rule.
    betas = np.array([1 / 0.25, 1 / 0.35])
    energies = np.array([4, 6], dtype=np.int64)
    rung_of = np.array([0, 1], dtype=np.int64)
    states = np.array([1, 1, 99], dtype=np.uint64)
    exchanges = np.zeros((1, 2), dtype=np.int64)
    flips = 0
    for _ in range(20_000):
        exchange(betas, rung_of, energies, states, exchanges, 0)
        flips += int(rung_of[0] == 1)
        rung_of[:] = [0, 1]  # every attempt from the same situation
    expected = exchange_probability(betas[0], betas[1], 4, 6)
    assert 0.05 < expected < 0.2
    assert exchanges[0, 0] == 20_000 and exchanges[0, 1] == flips
    assert flips / 20_000 == pytest.approx(expected, abs=4 * math.sqrt(expected / 20_000))
    # odd rounds try (1, 2), (3, 4) …: with two rungs, nothing
    exchange(betas, rung_of, energies, states, exchanges, 1)
    assert exchanges[0, 0] == 20_000


@pytest.mark.parametrize("prune", [False, True], ids=["unpruned", "pruned"])
def test_every_replica_s_energy_counts_and_masks_stay_consistent(prune: bool) -> None:
    # A ladder of near-identical, warm rungs: many exchanges, many accepted moves.
    puzzle = gecode25() if prune else load(KYLE)
    ladder = (0.5, 0.51, 0.52, 0.53, 0.54)
    system = box_swap_system(puzzle, *pruned(puzzle)) if prune else box_swap_system(puzzle)
    replicas = Replicas.start(system, ladder, seed=3)
    done = 0
    for _ in range(6):
        done += replicas.run(done, 3, 2_000)
    assert done == 18 and replicas.proposals == 18 * 2_000 * 5
    assert sorted(replicas.rung_of.tolist()) == list(range(5))
    assert (replicas.exchanges[:, 1] > 0).all()
    assert (replicas.rung_of != np.arange(5)).any()
    for r in range(5):
        values = replicas.values[r]
        assert replicas.stats[r, 0] == naive_energy(puzzle, values, system)
        assert replicas.stats[r, 1] == naive_energy(puzzle, replicas.best_values[r], system)
        counts, masks, _ = unit_counts(system, values)
        assert np.array_equal(replicas.counts[r], counts)
        assert np.array_equal(replicas.masks[r], masks)
        assert np.array_equal(replicas.place[r], places(system, values))
        fixed = system.givens > 0
        assert np.array_equal(values[fixed], system.givens[fixed])


def test_same_seed_same_result_other_seed_other_result() -> None:
    puzzle = gecode25()
    first, again, other = (
        tempering(puzzle, seed=s, max_proposals=2_000_000, exchange_every=5_000, trace_every=10**5)
        for s in (4, 4, 5)
    )
    assert same(first, again) and np.array_equal(first.trace[:, :2], again.trace[:, :2])
    assert not first.solved and first.proposals == 2_000_000
    assert len(first.trace) == 20 and first.forced == again.forced > 0
    assert not np.array_equal(first.values, other.values)


def test_thread_count_and_batching_do_not_change_the_result() -> None:
    puzzle = gecode25(1)
    threads_before = numba.get_num_threads()
    one, two = (
        tempering(puzzle, seed=2, max_proposals=3_000_000, threads=min(k, threads_before))
        for k in (1, 2)
    )
    assert numba.get_num_threads() == threads_before  # restored
    assert same(one, two)
    # the trace stride cuts the run into other batches of rounds; the result stays
    for stride in (1, 123_457):
        traced = tempering(puzzle, seed=2, max_proposals=3_000_000, trace_every=stride)
        assert same(one, traced)


@pytest.mark.parametrize(
    ("puzzle", "solves"),
    [(gecode25(1), False), (line_puzzle(NINE, 0), True)],
    ids=["unsolved", "solved-mid-round"],
)
def test_a_round_run_in_parts_runs_as_it_would_whole(
    puzzle: Puzzle, solves: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A round too long for one stretch of the timeout runs in parts: the last one exchanges,
    and a replica that solves in the middle of the round stops the run only at its end."""
    module = sys.modules[tempering.__module__]
    arguments = {"seed": 3, "exchange_every": 60_000, "max_proposals": 1_000_000, "prune": False}
    monkeypatch.setattr(module, "_FIRST_PART", 10**9)  # every call whole rounds
    whole = tempering(puzzle, **arguments)  # type: ignore[arg-type]
    monkeypatch.setattr(module, "_FIRST_PART", 777)  # parts of 777, 1554, … proposals
    parts = tempering(puzzle, **arguments)  # type: ignore[arg-type]
    assert same(whole, parts) and whole.solved == solves


@pytest.mark.parametrize("prune", [False, True], ids=["unpruned", "pruned"])
def test_rounds_run_one_by_one_equal_rounds_run_in_one_call(prune: bool) -> None:
    puzzle = gecode25(2) if prune else load(KYLE)
    system = box_swap_system(puzzle, *pruned(puzzle)) if prune else box_swap_system(puzzle)
    ladder = (0.3, 0.35, 0.4)
    apart = Replicas.start(system, ladder, seed=9)
    together = Replicas.start(system, ladder, seed=9)
    for t in range(7):
        apart.run(t, 1, 3_000)
    together.run(0, 7, 3_000)
    names = ("values", "best_values", "place", "counts", "stats", "rung_of", "states", "exchanges")
    for name in names:
        assert np.array_equal(getattr(apart, name), getattr(together, name)), name


@pytest.mark.parametrize(
    ("puzzle", "seed", "prune"),
    [
        (line_puzzle(NINE, 0), 0, False),
        (line_puzzle(HARDEST, 0), 0, True),
        (line_puzzle(SIXTEEN, 0), 1, False),
        (line_puzzle(WILD16, 1), 1, True),
        (load(SAMURAI), 2, False),
    ],
    ids=["9x9", "hard-9x9-pruned", "16x16", "16x16-pruned", "samurai"],
)
def test_solves_and_every_solution_checks(puzzle: Puzzle, seed: int, prune: bool) -> None:
    result = tempering(puzzle, seed=seed, trace_every=50_000, prune=prune)
    assert result.solved and result.stop == "solved"
    assert (result.forced > 0) == prune
    assert result.energy == result.best_energy == 0
    assert problems(puzzle, result.values) == []
    assert np.array_equal(result.values, result.best_values)
    assert (result.moves, result.schedule, result.ladder) == (
        "box",
        "tempering",
        default_ladder(puzzle, pruned=prune),
    )
    assert result.temperature == result.ladder[0]
    assert 0 <= result.best_at <= result.proposals  # 0: the pruned start's dive solved it
    if result.proposals:  # a trace row after each round
        assert result.trace[-1, 0] == result.proposals and result.trace[-1, 1] == 0
    else:
        assert prune and len(result.trace) == 0
    assert len(result.exchange_rates) == len(result.ladder) - 1


def test_limits_stop_the_run() -> None:
    puzzle = gecode25()
    for limit in (0, 3, 4, 10_001, 1_000_003):
        result = tempering(puzzle, seed=1, max_proposals=limit)
        assert result.stop == "max-proposals" and not result.solved
        # four rungs: the last round takes what the cap leaves, in whole proposals per replica
        assert limit - 4 < result.proposals <= limit
    start = time.perf_counter()
    result = tempering(puzzle, seed=1, temperatures=(20.0, 30.0), timeout=0.2)
    # the timeout counts from the call (pruning too), the chain's seconds from its start
    assert result.stop == "timeout" and time.perf_counter() - start >= 0.2
    assert 0 < result.seconds < 2.0


def test_replicas_without_temperatures_span_the_default_ends() -> None:
    puzzle = load(SAMURAI)
    ends = default_ladder(puzzle)
    ladder = tempering(puzzle, replicas=7, max_proposals=0).ladder
    assert len(ladder) == 7 and (ladder[0], ladder[-1]) == (ends[0], ends[-1])
    ratio = ladder[1] / ladder[0]
    assert all(b / a == pytest.approx(ratio, rel=1e-3) for a, b in itertools.pairwise(ladder))


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"temperatures": [0.3]}, "at least 2 temperatures, got 1"),
        ({"temperatures": []}, "at least 2 temperatures, got 0"),
        ({"replicas": 1}, "at least 2 replicas, got 1"),
        (
            {"temperatures": [0.2, -0.3]},
            "temperature must be a positive number up to 10⁶, got -0.3",
        ),
        ({"temperatures": [0.0, 0.3]}, "temperature must be a positive number up to 10⁶, got 0.0"),
        (
            {"temperatures": [0.2, math.inf]},
            "temperature must be a positive number up to 10⁶, got inf",
        ),
        (
            {"temperatures": [0.2, math.nan]},
            "temperature must be a positive number up to 10⁶, got nan",
        ),
        ({"temperatures": [0.3, 0.2]}, "must rise strictly from the coldest rung, got 0.3, 0.2"),
        ({"temperatures": [0.2, 0.2]}, "must rise strictly from the coldest rung, got 0.2, 0.2"),
        ({"temperatures": [0.2, 0.3], "replicas": 3}, "3 replicas but 2 temperatures"),
        ({"exchange_every": 0}, "exchange interval must be a whole number from 1 to 10¹⁸, got 0"),
        ({"seed": -1}, "seed must be a whole number from 0 to 10¹⁸, got -1"),
        ({"max_proposals": -1}, "max proposals must be a whole number from 0 to 10¹⁸, got -1"),
        ({"timeout": 0.0}, "timeout must be a positive number of seconds up to 10⁷, got 0.0"),
        ({"trace_every": -5}, "got -5"),
        ({"threads": 0}, "threads must be between 1 and"),
    ],
)
def test_bad_arguments_are_clear_errors(arguments: dict[str, object], message: str) -> None:
    [puzzle] = read_puzzles(text=FOUR)
    with pytest.raises(NdokuError, match=message.replace(".", r"\.")):
        tempering(puzzle, **arguments)  # type: ignore[arg-type]


def test_more_than_63_symbols_is_refused() -> None:
    rows = ["64" + " 0" * 63] + ["0" + " 0" * 63] * 63  # 64×64, boxes 8×8
    [puzzle] = read_puzzles(text="\n".join(rows) + "\n")
    assert puzzle.size == 64
    with pytest.raises(NdokuError, match="up to 63 symbols"):
        tempering(puzzle)


def test_no_possible_move_is_stuck_and_a_complete_grid_is_solved_at_once() -> None:
    # Conflict-free givens, one free cell per box: no pair to swap (as in test_metropolis).
    [dead_end] = read_puzzles(text="0 1 4 2\n2 3 1 0\n1 2 3 4\n3 4 2 1\n")
    result = tempering(dead_end, seed=0, prune=False)
    assert (result.stop, result.solved, result.proposals, result.energy) == ("stuck", False, 0, 2)
    # pruning sees that the givens leave no solution: no proposal either
    result = tempering(dead_end, seed=0)
    assert (result.stop, result.solved, result.proposals, result.forced) == (
        "propagation",
        False,
        0,
        0,
    )
    [full] = read_puzzles(text="1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n")
    result = tempering(full, seed=0, trace_every=10)
    assert (result.stop, result.solved, result.proposals, len(result.trace)) == (
        "solved",
        True,
        0,
        0,
    )
