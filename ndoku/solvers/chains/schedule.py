"""Temperatures of the chains: the defaults by move set and puzzle, and schedules over the
proposal count.

Glossary
--------
temperature
    T: a move that raises the energy by ΔE is accepted with probability exp(−ΔE/T). The
    default (:func:`default_temperature`) depends on the move set, on N and, for box moves, on
    how much sub-grids overlap.
schedule
    T as a function of the proposal count (:class:`Schedule`): constant, exponential cooling or
    the inverse-temperature ramp, in steps of ``step`` proposals, optionally reheated after a
    stall. The kernel computes it from the count alone, so how a run is cut into kernel calls
    never changes its result.
stall, reheat
    A stall is a run of proposals without a new best energy; after ``reheat`` of them the
    schedule starts again from its first temperature.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import NdokuError
from ndoku.jit import kernel
from ndoku.model.puzzle import Puzzle
from ndoku.model.units import BOX
from ndoku.solvers.chains.broken import DISTANCES
from ndoku.solvers.chains.checks import check_choice, check_temperature
from ndoku.solvers.chains.moves import MOVES

FloatArray = NDArray[np.float64]

#: Temperature schedules (:class:`Schedule`).
SCHEDULES = ("constant", "exponential", "ramp")
#: Default temperature of a single grid by N (symbols per unit) for box moves, from the runs
#: at several temperatures in benchmarks/bench_metropolis.py; 49 is extrapolated (no 49×49
#: puzzle was measured). Other sizes (6, 8, 10, 12 …, rectangular boxes) take the entry of the
#: nearest N below.
BASE_TEMPERATURES = {4: 0.3, 9: 0.3, 16: 0.3, 25: 0.25, 36: 0.25, 49: 0.25}
#: The same for row moves and for single-site moves, measured on 9×9 only and used for every
#: N (the runs are in benchmarks/bench_metropolis.py). Single-site energies are those of the
#: textbook chain, whose best T for easier puzzles, 0.39, our easy set confirms (0.36-0.42);
#: hard puzzles want a colder chain, hence 0.33.
ROW_TEMPERATURES = {9: 0.4}
SINGLE_TEMPERATURES = {9: 0.33}
#: Pruned swap chains by N (box and row moves; single-site moves keep theirs), measured with
#: box moves on the puzzles pruning does not solve (benchmarks/bench_metropolis.py): hard 9×9
#: are fastest at 0.4-0.5, 16×16 at 0.25-0.35 (0.4 loses), 25×25 at 0.3 (0.25 and 0.4 fail).
#: Other N take the entry of the nearest N below (4×4 the 9×9 one).
PRUNED_TEMPERATURES = {9: 0.45, 16: 0.3, 25: 0.3}
#: Plain (unpruned) swap chains where rules whose broken count grows with their distance from
#: holding (:data:`~.broken.DISTANCES`: sums, skyscrapers) cover the grid: such counts make
#: the energy steeper, and the chain wants this temperature; where they cover a share of the
#: cells, T moves that share of the way to it from the puzzle's own. Box swaps on janko 9×9
#: sets (tests/data/variants), 10⁷ proposals each, puzzles solved: killer 13 of its first 20
#: at T = 0.3, 38 and 39 of its first 40 at 0.45 and 0.6, 122 and 120 of the next 122 at 0.5
#: and 0.6, all 162 at 0.55; outside sums 14, 15 and 11 of 15 at 0.45, 0.55 and 0.7;
#: skyscrapers 5, 11, 13, 12 and 14 of 15 at 0.3, 0.45, 0.55, 0.6 and 0.7. Rules of 1 per
#: broken pair stay cold: an empty 9×9 with an anti-knight and one cage solves in 0.1 s at
#: 0.3 and not in 20 s at 0.55; even-odd (15) solves at 0.3 to 0.6.
RULES_TEMPERATURE = 0.55
#: Interlocked grids whose cells lie in more units want a hotter chain (a swap there changes
#: more units): above OVERLAP_START energy units per cell, T grows by OVERLAP_SLOPE of itself
#: per unit per cell. A line through the measured best of Samurai (2.2 → 0.3) and butterfly
#: (3.0 → 0.45); windmill, sumo, shogun and sohei (2.25-2.43) fall between. Box moves only:
#: row moves refuse side-by-side overlaps, and single-site moves were measured on single grids.
OVERLAP_START = 2.2
OVERLAP_SLOPE = 0.625
# Slots of the float64 ``plan`` array: the schedule as numbers, then what the chain kernel
# reads besides: the reheat length, the trace stride, and the temperature in force (which it
# keeps there).
_KIND, _T0, _ALPHA, _STEP, _LOG_BETA0, _LOG_BETA1, _LENGTH = range(7)
PLAN_REHEAT, PLAN_EVERY, PLAN_NOW = range(7, 10)


@dataclass(frozen=True)
class Schedule:
    """Temperature as a function of the proposal count.

    The temperature changes only at the end of a *step* of ``step`` proposals; step ``k``
    (from 0) runs at

    - ``constant``: ``t0``;
    - ``exponential``: ``t0 · alpha**k``;
    - ``ramp``: ``1/β`` with ``log β = log(1/t0) + (log beta_max − log(1/t0)) · √f``, where
      ``f = min(1, k · step / length)``: log β rises as the square root of progress, then
      stays at ``log beta_max``. From ``t0 = 1`` that is the ``exp(sqrt(·))`` sequence of
      inverse temperatures of the R annealer in the background reading.

    With ``reheat > 0``, after ``reheat`` proposals without a new best energy the count
    starts again from 0 (step 0, temperature ``t0``); a constant schedule is not changed by it.

    Attributes
    ----------
    kind : str
        One of :data:`SCHEDULES`.
    t0 : float, optional
        Starting temperature; default the ``temperature`` given to
        :func:`~.metropolis.metropolis`, else :func:`default_temperature` of the puzzle and
        move set.
    alpha : float
        Exponential cooling factor per step, in (0, 1].
    step : int
        Proposals per step; 0 means one sweep (as many proposals as free cells).
    beta_max : float
        Ramp: the final inverse temperature, at least ``1 / t0``. The default 10⁵ is the R
        annealer's (frozen: at T = 10⁻⁵ no uphill move is ever taken).
    length : int
        Ramp: proposals from ``1 / t0`` to ``beta_max``.
    reheat : int
        Stall length, in proposals, that restarts the schedule; 0 = never.

    Raises
    ------
    ndoku.errors.NdokuError
        An unknown kind or a value out of range.

    Examples
    --------
    >>> Schedule("exponential", t0=1.0, alpha=0.5, step=10).temperature(25)  # step 2
    0.25
    >>> round(Schedule("ramp", t0=1.0, beta_max=100.0, length=100, step=1).temperature(25), 9)
    0.1
    >>> Schedule("cooling")
    Traceback (most recent call last):
    ...
    ndoku.errors.NdokuError: unknown schedule 'cooling': choose constant, exponential or ramp
    """

    kind: str = "constant"
    t0: float | None = None
    alpha: float = 0.999
    step: int = 0
    beta_max: float = 1e5
    length: int = 10_000_000
    reheat: int = 0

    def __post_init__(self) -> None:
        check_choice(self.kind, SCHEDULES, "schedule")
        if self.t0 is not None:
            check_temperature(self.t0, "t0")
        if not (0 < self.alpha <= 1):
            raise NdokuError(f"alpha must be in (0, 1], got {self.alpha}")
        if self.step < 0:
            raise NdokuError(f"step must be 0 (one sweep) or more proposals, got {self.step}")
        check_temperature(self.beta_max, "beta_max")
        if self.length < 1:
            raise NdokuError(f"ramp length must be 1 or more proposals, got {self.length}")
        if self.reheat < 0:
            raise NdokuError(f"reheat must be 0 (never) or more proposals, got {self.reheat}")
        if self.kind == "ramp" and self.t0 is not None and self.beta_max * self.t0 < 1:
            raise NdokuError(
                f"the ramp heats instead of cooling: beta_max {self.beta_max} is below "
                f"1/t0 = {1 / self.t0:g}"
            )

    def plan(self, t0: float, sweep: int, trace_every: int = 0) -> FloatArray:
        """The schedule as the kernel reads it, from ``t0`` with ``sweep`` proposals a sweep."""
        plan = np.zeros(PLAN_NOW + 1)
        plan[_KIND] = SCHEDULES.index(self.kind)
        plan[_T0] = t0
        plan[_ALPHA] = self.alpha
        plan[_STEP] = self.step or max(sweep, 1)
        plan[_LOG_BETA0] = -math.log(t0)
        plan[_LOG_BETA1] = math.log(self.beta_max)
        plan[_LENGTH] = self.length
        plan[PLAN_REHEAT] = self.reheat
        plan[PLAN_EVERY] = trace_every
        plan[PLAN_NOW] = math.nan  # no table built yet
        return plan

    def temperature(self, proposals: int, sweep: int = 1) -> float:
        """The temperature of proposal number ``proposals`` (from 0, no reheat), as the chain
        computes it; ``sweep``: proposals per step when ``step`` is 0. Needs ``t0``."""
        if self.t0 is None:
            raise NdokuError("the schedule has no t0 yet")
        return float(temperature_at(self.plan(self.t0, sweep), proposals))


def default_temperature(
    size: int, units_per_cell: float = 2.0, moves: str = "box", pruned: bool = False
) -> float:
    """The default temperature for sub-grids of ``size`` symbols and a move set.

    Parameters
    ----------
    size : int
        N, symbols per unit.
    units_per_cell : float
        Box moves: energy units (rows and columns) per cell on average, 2 for a single grid,
        more where sub-grids overlap (:func:`units_per_cell`). Not used by the other move sets.
    moves : str
        One of :data:`~.moves.MOVES`.
    pruned : bool
        A pruned chain (:data:`PRUNED_TEMPERATURES` for swap moves).

    Examples
    --------
    >>> default_temperature(9), default_temperature(9, 2.2), default_temperature(9, 3.0)
    (0.3, 0.3, 0.45)
    >>> default_temperature(25), default_temperature(30)
    (0.25, 0.25)
    >>> default_temperature(9, moves="row"), default_temperature(9, moves="single")
    (0.4, 0.33)
    >>> default_temperature(9, pruned=True), default_temperature(25, pruned=True)
    (0.45, 0.3)
    """
    check_choice(moves, MOVES, "move set")
    table = {"box": BASE_TEMPERATURES, "row": ROW_TEMPERATURES, "single": SINGLE_TEMPERATURES}
    bases = PRUNED_TEMPERATURES if pruned and moves != "single" else table[moves]
    base = bases[max((n for n in bases if n <= size), default=min(bases))]
    if moves != "box":
        return base
    return round(base * (1 + OVERLAP_SLOPE * max(0.0, units_per_cell - OVERLAP_START)), 4)


def puzzle_temperature(puzzle: Puzzle, moves: str = "box", pruned: bool = False) -> float:
    """The default temperature of ``puzzle``: :func:`default_temperature` of its size and,
    for box moves, of its :func:`units_per_cell` (for a pruned chain when ``pruned``); for a
    plain swap chain, warmer by the share of the cells sums and skyscrapers cover (see
    :data:`RULES_TEMPERATURE`).

    >>> import dataclasses
    >>> from ndoku.model.rules import Rule
    >>> from ndoku.tasks.generate import layout_puzzle
    >>> butterfly, classic = layout_puzzle("butterfly"), layout_puzzle("9x9")
    >>> puzzle_temperature(butterfly), puzzle_temperature(classic, "single")
    (0.45, 0.33)
    >>> rows = tuple(Rule("cage", tuple(range(9 * r, 9 * r + 9)), 45) for r in range(9))
    >>> killer = dataclasses.replace(classic, rules=rows)
    >>> puzzle_temperature(classic), puzzle_temperature(killer)
    (0.3, 0.55)
    >>> puzzle_temperature(dataclasses.replace(classic, rules=rows[:3]))  # a third covered
    0.3833
    """
    upc = units_per_cell(puzzle) if moves == "box" else 2.0
    base = default_temperature(puzzle.size, upc, moves, pruned)
    if pruned or moves == "single" or base >= RULES_TEMPERATURE:
        return base
    steep = {cell for c in puzzle.lowered.constraints if c.kind in DISTANCES for cell in c.cells}
    return round(base + (RULES_TEMPERATURE - base) * len(steep) / puzzle.n_cells, 4)


def units_per_cell(puzzle: Puzzle) -> float:
    """Box-move energy units (every unit but the boxes) per cell, on average over the cells.

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> units_per_cell(p)  # a row and a column
    2.0
    """
    units = puzzle.units
    lengths = np.diff(units.ptr)[units.kind != BOX]
    return float(lengths.sum()) / puzzle.n_cells


def steer(plan: FloatArray, temperature: float) -> None:
    """Set the temperature of a constant schedule's ``plan`` (a watched chain steered): the
    chain's kernel builds its table for it at its next call.

    >>> plan = Schedule().plan(0.3, 100)
    >>> steer(plan, 0.5); temperature_at(plan, 10)
    0.5
    >>> steer(Schedule("exponential", alpha=0.9).plan(0.3, 100), 0.5)
    Traceback (most recent call last):
    ...
    ndoku.errors.NdokuError: only a chain at a constant temperature is steered, not a schedule
    """
    if plan[_KIND] != 0:
        raise NdokuError("only a chain at a constant temperature is steered, not a schedule")
    check_temperature(temperature)
    plan[_T0] = temperature


@kernel(refcounts=True)
def temperature_at(plan: FloatArray, clock: int) -> float:
    """The temperature ``clock`` proposals after the (re)start of the schedule ``plan``."""
    kind = plan[_KIND]
    if kind == 0:
        return float(plan[_T0])
    step = np.int64(plan[_STEP])
    k = clock // step
    if kind == 1:
        return float(plan[_T0] * plan[_ALPHA] ** k)
    progress = min(1.0, k * step / plan[_LENGTH])
    low, high = plan[_LOG_BETA0], plan[_LOG_BETA1]
    return math.exp(-(low + (high - low) * math.sqrt(progress)))


@kernel(refcounts=True)
def until_change(plan: FloatArray, clock: int) -> np.int64:
    """Proposals from ``clock`` to the next step at which the temperature may change."""
    never = np.int64(1) << np.int64(62)
    kind = plan[_KIND]
    if kind == 0:
        return never
    step = np.int64(plan[_STEP])
    k = clock // step
    if kind == 2 and k * step >= plan[_LENGTH]:
        return never
    return (k + 1) * step - clock
