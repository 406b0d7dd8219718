"""Temperature schedules, reheating, traces, chunk independence and argument checks."""

from __future__ import annotations

import importlib
import math
from pathlib import Path

import numpy as np
import pytest

from ndoku.errors import NdokuError
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.chains.metropolis import TRACE_COLUMNS, ChainResult, metropolis
from ndoku.solvers.chains.schedule import Schedule, default_temperature

from helpers import load

DATA = Path(__file__).parent / "data"
# Few givens and a cold chain: no run here comes near solving it.
KYLE = DATA / "samurai" / "kyle_samurai.txt"
TOP95 = DATA / "sudoku9" / "norvig_top95.txt"
SHIDOKU = "1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n"
# The module, whose name the package's ``metropolis`` function hides from ``import … as``.
mc = importlib.import_module("ndoku.solvers.chains.metropolis")


def hard_nine() -> Puzzle:
    [puzzle] = read_puzzles(text=TOP95.read_text().splitlines()[0].split(",")[0])
    return puzzle


def test_a_constant_trace_has_a_row_per_stride_and_one_at_the_end() -> None:
    result = metropolis(load(KYLE), seed=2, temperature=0.3, max_proposals=10_050, trace_every=1000)
    trace = result.trace
    assert trace.shape == (12, len(TRACE_COLUMNS))
    assert trace[:, 0].tolist() == [*range(0, 10_001, 1000), 10_050]
    assert (trace[:, 2] == 0.3).all() and result.temperature == 0.3
    assert math.isnan(trace[0, 3]) and ((trace[1:, 3] > 0) & (trace[1:, 3] < 1)).all()
    assert trace[-1, 1] == result.energy
    # the acceptance rates add up to the acceptances
    taken = (trace[1:, 3] * np.diff(trace[:, 0])).sum()
    assert taken == pytest.approx(result.acceptances)


def test_no_trace_by_default() -> None:
    result = metropolis(load(KYLE), seed=2, max_proposals=1000)
    assert result.trace.shape == (0, 4)
    assert (result.moves, result.schedule, result.ladder) == ("box", "constant", ())


@pytest.mark.parametrize(
    "schedule",
    [
        Schedule("exponential", t0=0.6, alpha=0.9, step=500),
        Schedule("ramp", t0=0.5, beta_max=50.0, length=20_000, step=700),
    ],
    ids=["exponential", "ramp"],
)
def test_trace_shows_the_documented_temperatures(schedule: Schedule) -> None:
    result = metropolis(
        hard_nine(), seed=1, schedule=schedule, max_proposals=30_000, trace_every=100
    )
    rows = result.trace[1:]
    proposals = rows[:, 0].astype(int)
    assert schedule.t0 is not None
    for p, temperature in zip(proposals, rows[:, 2], strict=True):
        k = (p - 1) // schedule.step  # proposal p (from 1) runs in step k
        if schedule.kind == "exponential":
            expected = schedule.t0 * schedule.alpha**k
        else:
            progress = min(1.0, k * schedule.step / schedule.length)
            low, high = math.log(1 / schedule.t0), math.log(schedule.beta_max)
            expected = math.exp(-(low + (high - low) * math.sqrt(progress)))
        assert temperature == pytest.approx(expected, rel=1e-12)
        assert temperature == schedule.temperature(p - 1)
    assert (np.diff(rows[:, 2]) <= 0).all()  # cooling only
    assert result.temperature == rows[-1, 2]
    if schedule.kind == "ramp":
        assert rows[-1, 2] == pytest.approx(1 / 50.0)


def test_a_step_of_zero_is_one_sweep() -> None:
    puzzle = hard_nine()
    free = int((puzzle.givens == 0).sum())
    schedule = Schedule("exponential", t0=0.5, alpha=0.5)
    result = metropolis(puzzle, seed=1, schedule=schedule, max_proposals=free * 3, trace_every=1)
    temperatures = result.trace[1:, 2]
    assert temperatures.tolist() == [0.5] * free + [0.25] * free + [0.125] * free


def test_reheat_restarts_the_schedule_after_each_stall() -> None:
    stall = 1500
    schedule = Schedule("exponential", t0=0.5, alpha=0.8, step=100, reheat=stall)
    result = metropolis(load(KYLE), seed=3, schedule=schedule, max_proposals=40_000, trace_every=1)
    trace = result.trace
    energies, temperatures = trace[:, 1], trace[1:, 2]
    # replay the rule: restart after `stall` proposals without a new best energy
    best, best_at, restart, restarts = energies[0], 0, 0, 0
    for p in range(1, len(trace)):
        assert temperatures[p - 1] == schedule.temperature(p - 1 - restart), p
        if energies[p] < best:
            best, best_at = energies[p], p
        if p - max(best_at, restart) >= stall:
            restart = p
            restarts += 1
    assert restarts >= 3
    assert best == result.best_energy and best_at == result.best_at
    # without reheating the temperature only falls
    cooled = metropolis(
        load(KYLE),
        seed=3,
        schedule=Schedule("exponential", t0=0.5, alpha=0.8, step=100),
        max_proposals=40_000,
        trace_every=1,
    )
    assert (np.diff(cooled.trace[1:, 2]) <= 0).all()


def test_reheat_leaves_a_constant_temperature_alone() -> None:
    puzzle = load(KYLE)
    plain = metropolis(puzzle, seed=5, max_proposals=50_000)
    reheated = metropolis(puzzle, seed=5, max_proposals=50_000, schedule=Schedule(reheat=100))
    assert same_run(plain, reheated)


def same_run(a: ChainResult, b: ChainResult) -> bool:
    return (
        np.array_equal(a.values, b.values)
        and np.array_equal(a.best_values, b.best_values)
        and np.array_equal(a.trace, b.trace, equal_nan=True)
        and (a.energy, a.best_energy, a.best_at, a.proposals, a.acceptances, a.temperature)
        == (b.energy, b.best_energy, b.best_at, b.proposals, b.acceptances, b.temperature)
    )


@pytest.mark.parametrize("moves", ["box", "row", "single"])
def test_how_the_run_is_cut_into_kernel_calls_does_not_change_it(
    moves: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    puzzle = hard_nine()
    schedule = Schedule("ramp", t0=0.6, beta_max=20.0, length=30_000, step=37, reheat=4000)
    arguments = {"seed": 7, "moves": moves, "schedule": schedule, "max_proposals": 60_000}
    whole = metropolis(puzzle, trace_every=250, **arguments)  # type: ignore[arg-type]
    # tiny, odd chunks and a trace array that starts with one row and must grow
    monkeypatch.setattr(mc, "_FIRST_CHUNK", 5)
    monkeypatch.setattr(mc, "_LAST_CHUNK", 97)
    monkeypatch.setattr(mc, "_FIRST_TRACE_ROWS", 1)
    cut = metropolis(puzzle, trace_every=250, **arguments)  # type: ignore[arg-type]
    assert same_run(whole, cut)
    assert len(whole.trace) == 60_000 // 250 + 1
    # and tracing does not change the chain
    untraced = metropolis(puzzle, **arguments)  # type: ignore[arg-type]
    assert np.array_equal(untraced.values, whole.values)
    assert untraced.acceptances == whole.acceptances


def test_the_schedule_t0_and_the_temperature_must_agree() -> None:
    puzzle = hard_nine()
    with pytest.raises(NdokuError, match=r"temperature 0\.3 and schedule t0 0\.4 disagree"):
        metropolis(puzzle, temperature=0.3, schedule=Schedule("exponential", t0=0.4))
    agreed = metropolis(
        puzzle, temperature=0.4, schedule=Schedule("exponential", t0=0.4), max_proposals=10
    )
    assert agreed.temperature == 0.4
    # without t0 the schedule starts from the temperature, else from the move set's default
    started = metropolis(
        puzzle, temperature=0.7, schedule=Schedule("exponential"), max_proposals=1, trace_every=1
    )
    assert started.trace[1, 2] == 0.7
    single = metropolis(puzzle, moves="single", max_proposals=1)
    assert single.temperature == default_temperature(9, moves="single")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"moves": "pair"}, "unknown move set 'pair': choose box, row or single"),
        ({"temperature": -0.2, "moves": "single"}, "temperature must be a positive number"),
        ({"trace_every": -1}, "trace_every must be a whole number from 0 to 10¹⁸, got -1"),
        (
            {"schedule": Schedule("ramp", beta_max=2.0), "temperature": 0.3},
            "the ramp heats instead of cooling: beta_max 2.0 is below 1/t0 = 3.33333",
        ),
    ],
)
def test_bad_arguments_are_clear_errors(arguments: dict[str, object], message: str) -> None:
    with pytest.raises(NdokuError) as error:
        metropolis(hard_nine(), **arguments)  # type: ignore[arg-type]
    assert str(error.value).startswith(message)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"kind": "linear"}, "unknown schedule 'linear': choose constant, exponential or ramp"),
        ({"alpha": 0.0}, "alpha must be in (0, 1], got 0.0"),
        ({"alpha": 1.5}, "alpha must be in (0, 1], got 1.5"),
        ({"alpha": math.nan}, "alpha must be in (0, 1], got nan"),
        ({"t0": -1.0}, "t0 must be a positive number up to 10⁶, got -1.0"),
        ({"t0": math.inf}, "t0 must be a positive number up to 10⁶, got inf"),
        ({"step": -1}, "step must be 0 (one sweep) or more proposals, got -1"),
        ({"beta_max": 0.0}, "beta_max must be a positive number up to 10⁶, got 0.0"),
        ({"length": 0}, "ramp length must be 1 or more proposals, got 0"),
        ({"reheat": -5}, "reheat must be 0 (never) or more proposals, got -5"),
        (
            {"kind": "ramp", "t0": 0.5, "beta_max": 1.0},
            "the ramp heats instead of cooling: beta_max 1.0 is below 1/t0 = 2",
        ),
    ],
)
def test_bad_schedules_are_clear_errors(fields: dict[str, object], message: str) -> None:
    with pytest.raises(NdokuError) as error:
        Schedule(**fields)  # type: ignore[arg-type]
    assert str(error.value) == message


def test_exponential_cooling_solves_an_easy_puzzle_with_every_move_set() -> None:
    [puzzle] = read_puzzles(text=SHIDOKU)
    for moves in ("box", "row", "single"):
        schedule = Schedule("exponential", t0=1.0, alpha=0.99)
        result = metropolis(puzzle, seed=4, moves=moves, schedule=schedule, trace_every=5)
        assert result.solved and result.trace[-1, 1] == 0, moves
