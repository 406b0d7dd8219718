"""Metropolis solvers: box, row or single-site moves under a temperature schedule.

Glossary
--------
move set
    What a proposal changes (:data:`MOVES`). ``box``: two free cells of one box swap their
    values, every box stays a permutation of the symbols. ``row``: the same within rows, every
    row stays a permutation (not possible where sub-grids overlap side by side). ``single``:
    one free cell takes another value; nothing is kept a permutation.
state
    Swap moves: each move group (box or row) holds a permutation, givens fixed, free cells
    filled with the group's missing symbols at random (from the seed; pruned, each to one of
    its candidates). Single-site moves: each free cell a random symbol.
pair
    Two free cells of one move group: the swaps there are. A proposal picks a pair uniformly
    among all pairs of all groups (pruned, those that are not guided swaps); the pairs never
    depend on the state, so proposals are symmetric and the chain is a proper Metropolis
    chain. Single-site proposals pick one of the free cells × (N − 1) other values
    uniformly, symmetric as well.
pruning, candidates
    Before a chain starts, propagation and all-different matching (:func:`pruned`) fix the
    cells they force, which become givens, and leave every other cell its *candidates*: the
    symbols some solution may put there. A pruned swap chain keeps to them through guided
    swaps and the penalty.
guided swap
    Pruned swap moves only (:data:`GUIDED_SHARE` of the proposals; the rest uniform pairs).
    A free cell c is drawn uniformly; if its symbol x is a candidate, one of its k − 1 other
    candidates, y, is drawn uniformly, and c swaps with the cell d of its group holding y
    (else nothing is proposed). So the swap of c and d is proposed from c's side when x and y
    are both candidates of c, from d's side when both are candidates of d, and the swap back
    under the same conditions with the same probabilities: proposals are symmetric. d may
    land outside its candidates: the penalty charges it. Guided swaps alone reach every state
    within the candidates (each pairing of a group's free cells with candidates leads to any
    other through states with one cell outside), hence every solution; a state where no free
    cell of a group holds a candidate they never reach.
penalty
    Pruned swap moves: :data:`PENALTY` of energy per free cell holding a symbol outside its
    candidates (0 in every solution).
energy
    Swap moves: Σ over every unit that is not a move group (rows and columns for box moves,
    columns, boxes and extra units for row moves) of N − (number of distinct symbols).
    Pruned, plus the penalty. Single-site moves: the number of peer pairs holding the same
    symbol, a pair with a given counting :data:`GIVEN_PENALTY`. Either way 0 exactly when
    the puzzle is solved.
changed units
    The energy units that hold one cell of a pair but not the other: only their counts change
    in a swap (a unit holding both keeps its symbols). The *pair table* lists them per pair.
conflicts
    Single-site moves: ``conflicts[c, s]``, the energy that free cell ``c`` would share with
    its peers if it held ``s`` (free peers holding ``s`` count 1, given ones
    :data:`GIVEN_PENALTY`). ΔE of a change x → y is ``conflicts[c, y] − conflicts[c, x]``.
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
trace
    Every ``trace_every`` proposals a row: proposal, energy, temperature and the acceptance rate
    since the previous row (:data:`TRACE_COLUMNS`).
counts, seen, repeated
    ``counts[u, s]``: how many cells of energy unit ``u`` hold symbol ``s``; bit ``s`` of
    ``masks[u, SEEN]`` is set when that count is at least 1, of ``masks[u, REPEATED]`` when it
    is at least 2. ΔE of a swap follows from two bits per changed unit.

Each proposal draws one 64-bit random number: its high half picks the move, its low half is
compared with ``2**32 · exp(−ΔE/T)`` to accept an uphill move. A guided swap draws two more:
one for its cell, one for the candidate the cell takes.
"""

from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ndoku.errors import NdokuError
from ndoku.jit import compile_notice
from ndoku.limits import CHAIN_MAX_SYMBOLS, DEFAULT_MAX_PROPOSALS, DEFAULT_TIMEOUT
from ndoku.model.puzzle import Puzzle
from ndoku.model.units import BOX, Units
from ndoku.solvers.bits import copy
from ndoku.solvers.exact import candidates as cell_candidates
from ndoku.solvers.exact import fixed_values
from ndoku.solvers.random import advance, below, chain_state, generator

IntArray = NDArray[np.int32]
PairArray = NDArray[np.uint32]
GuideArray = NDArray[np.uint16]
FloatArray = NDArray[np.float64]

#: Move sets: swaps within a box, swaps within a row, single-site changes.
MOVES = ("box", "row", "single")
#: Temperature schedules (:class:`Schedule`).
SCHEDULES = ("constant", "exponential", "ramp")
#: Default temperature of a single grid by N (symbols per unit) for box moves, from the sweep
#: recorded in benchmarks/bench_metropolis.py; 49 is extrapolated (no 49×49 puzzle was
#: measured). Other sizes (6, 8, 10, 12 …, rectangular boxes) take the entry of the nearest N
#: below.
BASE_TEMPERATURES = {4: 0.3, 9: 0.3, 16: 0.3, 25: 0.25, 36: 0.25, 49: 0.25}
#: The same for row moves and for single-site moves, measured on 9×9 only and used for every
#: N (the sweep is in benchmarks/bench_metropolis.py). Single-site energies are those of the
#: textbook chain, whose best T for easier puzzles, 0.39, our easy set confirms (0.36-0.42);
#: hard puzzles want a colder chain, hence 0.33.
ROW_TEMPERATURES = {9: 0.4}
SINGLE_TEMPERATURES = {9: 0.33}
#: Pruned swap chains by N (box and row moves; single-site moves keep theirs), measured with
#: box moves on the puzzles pruning does not solve (benchmarks/bench_metropolis.py): hard 9×9
#: are fastest at 0.4-0.5, 16×16 at 0.25-0.35 (0.4 loses), 25×25 at 0.3 (0.25 and 0.4 fail).
#: Other N take the entry of the nearest N below (4×4 the 9×9 one).
PRUNED_TEMPERATURES = {9: 0.45, 16: 0.3, 25: 0.3}
#: Interlocked grids whose cells lie in more units want a hotter chain (a swap there changes
#: more units): above OVERLAP_START energy units per cell, T grows by OVERLAP_SLOPE of itself
#: per unit per cell. A line through the measured best of Samurai (2.2 → 0.3) and butterfly
#: (3.0 → 0.45); windmill, sumo, shogun and sohei (2.25-2.43) fall between. Box moves only:
#: row moves refuse side-by-side overlaps, and single-site moves were measured on single grids.
OVERLAP_START = 2.2
OVERLAP_SLOPE = 0.625
#: Single-site energy of a peer pair in which one cell is a given (a free pair counts 1): a
#: clash with a given is surely wrong, as in the textbook chain this move set follows.
GIVEN_PENALTY = 5
#: Pruned swap chains: the energy of a free cell that holds a symbol outside its candidates,
#: and the share of proposals that are guided swaps (the rest uniform pairs, so that every
#: state can be reached). On 25×25 a penalty of 2 needs about twice the proposals of 1, and
#: shares of 0.75, 0.9 and 1 do not differ beyond the noise (benchmarks/bench_tempering.py).
PENALTY = 1
GUIDED_SHARE = 0.9
#: Columns of ``ChainResult.trace``.
TRACE_COLUMNS = ("proposal", "energy", "temperature", "acceptance")
#: Columns of ``masks``.
SEEN, REPEATED = 0, 1
_FIRST_CHUNK = 1 << 14
_LAST_CHUNK = 1 << 22
_FIRST_TRACE_ROWS = 1 << 10
_LOW32 = np.uint64(0xFFFFFFFF)
_ONE = np.uint64(1)
_TWO = np.uint64(2)
_A = np.uint64(3)  # column of a pair's first changed unit of a (of b: _A + width)
# Kernel kinds, and the slots of the int64 ``stats`` array a kernel carries between calls
# (the first five are those the move kernels keep; the rest belong to the driver).
_SWAP, _SINGLE = 0, 1
# Columns of SwapSystem.guide, and slots of SwapSystem.mix.
_GROUP, _POSITION, _COUNT, _OPTIONS = range(4)
_PAIR_SLOTS, _GUIDED_SLOTS, _PENALTY = range(3)
_ENERGY, _BEST, _BEST_AT, _DONE, _TAKEN, _RESTART, _ROWS, _ROW_TAKEN = range(8)
# Slots of the float64 ``plan`` array: the schedule as numbers, and the temperature in force.
_KIND, _T0, _ALPHA, _STEP, _LOG_BETA0, _LOG_BETA1, _LENGTH, _REHEAT, _EVERY, _NOW = range(10)


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
        Starting temperature; default the ``temperature`` given to :func:`metropolis`, else
        :func:`default_temperature` of the puzzle and move set.
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
        if self.kind not in SCHEDULES:
            raise NdokuError(f"unknown schedule {self.kind!r}: choose {_choices(SCHEDULES)}")
        if self.t0 is not None:
            _check_temperature(self.t0, "t0")
        if not (0 < self.alpha <= 1):
            raise NdokuError(f"alpha must be in (0, 1], got {self.alpha}")
        if self.step < 0:
            raise NdokuError(f"step must be 0 (one sweep) or more proposals, got {self.step}")
        if not (math.isfinite(self.beta_max) and self.beta_max > 0):
            raise NdokuError(f"beta_max must be a positive number, got {self.beta_max}")
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
        plan = np.zeros(10)
        plan[_KIND] = SCHEDULES.index(self.kind)
        plan[_T0] = t0
        plan[_ALPHA] = self.alpha
        plan[_STEP] = self.step or max(sweep, 1)
        plan[_LOG_BETA0] = -math.log(t0)
        plan[_LOG_BETA1] = math.log(self.beta_max)
        plan[_LENGTH] = self.length
        plan[_REHEAT] = self.reheat
        plan[_EVERY] = trace_every
        plan[_NOW] = math.nan  # no table built yet
        return plan

    def temperature(self, proposals: int, sweep: int = 1) -> float:
        """The temperature of proposal number ``proposals`` (from 0, no reheat), as the chain
        computes it; ``sweep``: proposals per step when ``step`` is 0. Needs ``t0``."""
        if self.t0 is None:
            raise NdokuError("the schedule has no t0 yet")
        return float(_temperature_at(self.plan(self.t0, sweep), proposals))


def _choices(names: tuple[str, ...]) -> str:
    return ", ".join(names[:-1]) + " or " + names[-1]


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
        One of :data:`MOVES`.
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
    _check_moves(moves)
    table = {"box": BASE_TEMPERATURES, "row": ROW_TEMPERATURES, "single": SINGLE_TEMPERATURES}
    bases = PRUNED_TEMPERATURES if pruned and moves != "single" else table[moves]
    base = bases[max((n for n in bases if n <= size), default=min(bases))]
    if moves != "box":
        return base
    return round(base * (1 + OVERLAP_SLOPE * max(0.0, units_per_cell - OVERLAP_START)), 4)


def puzzle_temperature(puzzle: Puzzle, moves: str = "box", pruned: bool = False) -> float:
    """The default temperature of ``puzzle``: :func:`default_temperature` of its size and,
    for box moves, of its :func:`units_per_cell` (for a pruned chain when ``pruned``).

    >>> from ndoku.tasks.generate import layout_puzzle
    >>> butterfly, classic = layout_puzzle("butterfly"), layout_puzzle("9x9")
    >>> puzzle_temperature(butterfly), puzzle_temperature(classic, "single")
    (0.45, 0.33)
    """
    upc = units_per_cell(puzzle) if moves == "box" else 2.0
    return default_temperature(puzzle.size, upc, moves, pruned)


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


@dataclass(frozen=True)
class ChainResult:
    """What a Monte-Carlo run did.

    Attributes
    ----------
    solved : bool
        True when the chain reached energy 0 (``values`` is then a solution).
    values : ndarray of int32
        The final state (a solution when solved).
    best_values : ndarray of int32
        The lowest-energy state seen.
    energy, best_energy : int
        Energy of the final and of the best state.
    best_at : int
        The proposal at which the best state was first reached.
    proposals, acceptances : int
        Moves tried and moves taken.
    seconds : float
        Wall time of the chain (compiling excluded).
    stop : str
        ``solved``, ``max-proposals``, ``timeout``, ``stuck`` (no move possible) or
        ``propagation`` (pruning found that the givens contradict each other: the puzzle has
        no solution; no proposal was made, the state is an unpruned start).
    moves : str
        The move set: ``box`` (swaps within a box), ``row`` or ``single`` (single-site).
    schedule : str
        ``constant``, or the name of the temperature schedule that ran.
    ladder : tuple of float
        Parallel tempering: the replicas' temperatures, coldest first; empty otherwise.
    trace : ndarray of float64, shape (rows, 4)
        Every ``trace_every`` proposals: proposal, energy, temperature, and the acceptance
        rate since the previous row (see :data:`TRACE_COLUMNS`); also a first row at proposal
        0 (acceptance NaN) and a last one at the final proposal. Empty when not traced.
    seed : int
        The seed the run used.
    temperature : float
        The temperature in force at the end of the run (the schedule's start when no proposal
        was made).
    forced : int
        Cells that pruning fixed besides the givens (0 when the chain did not prune).
    """

    solved: bool
    values: IntArray
    best_values: IntArray
    energy: int
    best_energy: int
    best_at: int
    proposals: int
    acceptances: int
    seconds: float
    seed: int
    temperature: float
    stop: str
    moves: str = "box"
    schedule: str = "constant"
    ladder: tuple[float, ...] = ()
    trace: NDArray[np.float64] = field(default_factory=lambda: np.zeros((0, 4)))
    forced: int = 0


@dataclass(frozen=True, eq=False)
class SwapSystem:
    """Plain arrays a swap kernel works on: move groups, pairs, energy units and candidates.

    Attributes
    ----------
    groups : Units
        The move groups (boxes or rows); ``initial_state`` fills their free cells.
    pairs : ndarray of uint32, shape (pairs, 3 + 2 · width)
        Per pair: cell ``a``, cell ``b``, the number ``k`` of changed units listed, then
        ``width`` slots of a's changed units and ``width`` of b's, each padded with the dummy
        unit (index ``units``, never holding a symbol, so it adds 0 to ΔE).
    unit_ptr, unit_cells : ndarray of int32
        The energy units (CSR); ``cell_unit_ptr, cell_units``: cell → energy units.
    givens : ndarray of int32
        The fixed cells.
    pruned : bool
        Whether the cells have candidates (then guided swaps and the penalty are on).
    allowed : ndarray of uint64, shape (cells,)
        Bit ``s`` set when symbol ``s`` is a candidate of the cell (every symbol unpruned).
    free : ndarray of int32
        The free cells, group by group: a guided swap starts from one of them.
    guide : ndarray of uint16, shape (cells, 3 + N)
        Per cell: its group, its position among the group's free cells, the number of its
        candidates among the group's missing symbols, then those symbols, rising.
    group_pairs : ndarray of uint32, shape (groups, 2)
        Per group: the row of its first pair in ``pairs``, and its number of free cells.
    mix : ndarray of int64, shape (3,)
        Proposal slots of uniform pairs (every pair, or none), guided slots per free cell,
        and the penalty.
    """

    size: int
    groups: Units
    pairs: PairArray
    unit_ptr: IntArray
    unit_cells: IntArray
    cell_unit_ptr: IntArray
    cell_units: IntArray
    givens: IntArray
    pruned: bool
    allowed: NDArray[np.uint64]
    free: IntArray
    guide: GuideArray
    group_pairs: PairArray
    mix: NDArray[np.int64]

    @property
    def n_units(self) -> int:
        return len(self.unit_ptr) - 1

    @property
    def penalty(self) -> int:
        return int(self.mix[_PENALTY])

    @property
    def largest_change(self) -> int:
        """The largest ΔE of a swap: every changed unit of both cells, and both penalties."""
        return int(self.pairs.shape[1]) - 3 + 2 * self.penalty

    @property
    def kernel_arrays(
        self,
    ) -> tuple[
        PairArray, IntArray, IntArray, NDArray[np.uint64], IntArray, GuideArray, PairArray,
        NDArray[np.int64],
    ]:  # fmt: skip
        """What a swap kernel reads besides the state: pairs … cell_units, allowed … mix."""
        return (
            self.pairs,
            self.cell_unit_ptr,
            self.cell_units,
            self.allowed,
            self.free,
            self.guide,
            self.group_pairs,
            self.mix,
        )


def pruned(
    puzzle: Puzzle, givens: IntArray | None = None
) -> tuple[IntArray, NDArray[np.uint64] | None]:
    """The givens plus every cell propagation fixes, and every cell's candidates.

    Propagation and all-different matching (:func:`ndoku.solvers.exact.candidates`) to a fixpoint:
    every solution holds each cell's value among its candidates, so a chain may start from
    them.

    Returns
    -------
    givens : ndarray of int32
        The fixed cells (the givens alone when the candidates are None).
    candidates : ndarray of uint64 or None
        Bit ``v − 1`` of a cell's mask is set while value ``v`` is possible; None when the
        givens contradict each other (the puzzle has no solution).

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 0 0\\n0 0 0 0\\n0 0 0 2\\n")
    >>> givens, candidates = pruned(p)
    >>> givens.tolist()[:4], [bin(int(m)) for m in candidates[:4]]
    ([1, 0, 0, 0], ['0b1', '0b1110', '0b1110', '0b1100'])
    """
    fixed = puzzle.givens if givens is None else givens
    masks, ok = cell_candidates(puzzle, fixed)
    if not ok:
        return fixed.astype(np.int32), None
    return np.where(fixed > 0, fixed, fixed_values(masks)).astype(np.int32), masks


def box_swap_system(
    puzzle: Puzzle,
    givens: IntArray | None = None,
    candidates: NDArray[np.uint64] | None = None,
) -> SwapSystem:
    """Boxes as move groups, all other units as energy units.

    With ``candidates`` (from :func:`pruned`, whose givens should come along) the chain
    makes guided swaps and charges the penalty; without, it swaps uniform pairs only.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> system = box_swap_system(p)
    >>> system.n_units, len(system.pairs)  # 4 rows + 4 columns; 3 free cells per box
    (8, 12)
    """
    units = puzzle.units
    return _swap_system(puzzle, units.kind == BOX, givens, candidates)


def row_swap_system(
    puzzle: Puzzle,
    givens: IntArray | None = None,
    candidates: NDArray[np.uint64] | None = None,
) -> SwapSystem:
    """Rows as move groups; columns, boxes and extra units as energy units.

    A row is any unit whose cells lie on one canvas row (a jigsaw region can be one). Each cell
    must lie in exactly one row, which sub-grids that overlap side by side break.
    ``candidates`` as for :func:`box_swap_system`.

    Raises
    ------
    ndoku.errors.NdokuError
        A cell in two rows (a Samurai's shared boxes), naming the cell.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> system = row_swap_system(p)
    >>> system.n_units, len(system.pairs)  # 4 columns + 4 boxes; 3 free cells per row
    (8, 12)
    """
    units = puzzle.units
    row_of = puzzle.cell_rc[units.cells, 0]
    starts = units.ptr[:-1]
    is_row = np.minimum.reduceat(row_of, starts) == np.maximum.reduceat(row_of, starts)
    rows_per_cell = np.bincount(units.select(is_row).cells, minlength=puzzle.n_cells)
    if (rows_per_cell != 1).any():
        cell = int(np.argmax(rows_per_cell != 1))
        where = "two rows (sub-grids overlap side by side)" if rows_per_cell[cell] else "no row"
        raise NdokuError(
            f"row moves need every cell in exactly one row, but the cell at "
            f"{puzzle.locate(cell)} lies in {where}: use moves 'box' or 'single'"
        )
    return _swap_system(puzzle, is_row, givens, candidates)


def _swap_system(
    puzzle: Puzzle,
    is_group: NDArray[np.bool_],
    givens: IntArray | None,
    candidates: NDArray[np.uint64] | None,
) -> SwapSystem:
    """The units where ``is_group`` holds as move groups, the others as energy units."""
    if puzzle.size > CHAIN_MAX_SYMBOLS:
        raise NdokuError(f"the Metropolis solver handles up to {CHAIN_MAX_SYMBOLS} symbols")
    fixed = puzzle.givens if givens is None else givens
    units = puzzle.units
    groups = units.select(is_group)
    energy = units.select(~is_group)
    cell_unit_ptr, cell_units = energy.of_cells(puzzle.n_cells)
    free = [g[fixed[g] == 0] for g in (groups[i] for i in range(len(groups)))]
    pairs = _pair_table(free, cell_unit_ptr, cell_units, len(energy))
    every = np.uint64(((1 << puzzle.size) - 1) << 1)  # bits 1 … N
    allowed = np.full(puzzle.n_cells, every, dtype=np.uint64)
    if candidates is not None:
        allowed &= np.asarray(candidates, dtype=np.uint64) << _ONE
    guide, group_pairs = _guide(groups, free, fixed, allowed, puzzle.size)
    free_cells = np.concatenate([*free, np.zeros(0, np.int32)]).astype(np.int32)
    mix = _mix(len(pairs), len(free_cells), candidates is not None)
    return SwapSystem(
        puzzle.size, groups, pairs, energy.ptr, energy.cells, cell_unit_ptr, cell_units, fixed,
        candidates is not None, allowed, free_cells, guide, group_pairs, mix,
    )  # fmt: skip


def _guide(
    groups: Units, free: list[IntArray], fixed: IntArray, allowed: NDArray[np.uint64], size: int
) -> tuple[GuideArray, PairArray]:
    """The guide and group_pairs tables of :class:`SwapSystem`; leaves in ``allowed`` only the
    group's missing symbols (a guided swap finds each of them in a free cell)."""
    # uint16 rather than int32: the table is read at random, and half the size is faster
    guide = np.zeros((len(fixed), _OPTIONS + size), dtype=np.uint16)
    group_pairs = np.zeros((len(free), 2), dtype=np.uint32)
    symbols = np.arange(1, size + 1, dtype=np.uint64)
    first = 0
    for g, cells in enumerate(free):
        guide[groups[g], _GROUP] = g
        guide[cells, _POSITION] = np.arange(len(cells))
        present = fixed[groups[g]]
        taken = np.bitwise_or.reduce(_ONE << present[present > 0].astype(np.uint64), initial=0)
        allowed[cells] &= ~np.uint64(taken)
        holds = ((allowed[cells, None] >> symbols) & _ONE) == 1  # (cells, N)
        guide[cells, _COUNT] = holds.sum(axis=1)
        # each row's allowed symbols first, rising (a stable sort keeps their order)
        order = np.argsort(~holds, axis=1, kind="stable") + 1
        guide[cells, _OPTIONS:] = np.where(np.sort(~holds, axis=1), 0, order)
        group_pairs[g] = first, len(cells)
        first += len(cells) * (len(cells) - 1) // 2
    return guide, group_pairs


def _mix(n_pairs: int, n_free: int, guided: bool) -> NDArray[np.int64]:
    """The ``mix`` of :class:`SwapSystem`: uniform pairs only, or :data:`GUIDED_SHARE` of the
    proposals guided (as near as whole slots per free cell allow) and the penalty."""
    if not guided or n_free == 0:
        return np.array([n_pairs, 0, 0], dtype=np.int64)
    if GUIDED_SHARE >= 1:
        return np.array([0, 1, PENALTY], dtype=np.int64)
    per_cell = max(1, round(GUIDED_SHARE / (1 - GUIDED_SHARE) * n_pairs / n_free))
    return np.array([n_pairs, per_cell, PENALTY], dtype=np.int64)


def _pair_table(
    free: list[IntArray], cell_unit_ptr: IntArray, cell_units: IntArray, n_units: int
) -> PairArray:
    """Every pair of free cells of each group, with the units each cell has and the other lacks."""
    ends = [np.triu_indices(len(f), 1) for f in free]
    a = np.concatenate([f[i] for f, (i, _) in zip(free, ends, strict=True)] + [np.zeros(0, int)])
    b = np.concatenate([f[j] for f, (_, j) in zip(free, ends, strict=True)] + [np.zeros(0, int)])
    # cell → its units as a dense row, padded with the dummy unit n_units
    per_cell = np.diff(cell_unit_ptr)
    dense = np.full((len(per_cell), int(per_cell.max(initial=0))), n_units, dtype=np.int32)
    dense[np.repeat(np.arange(len(per_cell)), per_cell), _ranks(per_cell)] = cell_units
    ua, ub = dense[a], dense[b]
    only_a = (ua[:, :, None] != ub[:, None, :]).all(axis=2) & (ua != n_units)
    only_b = (ub[:, :, None] != ua[:, None, :]).all(axis=2) & (ub != n_units)
    k = np.maximum(only_a.sum(axis=1), only_b.sum(axis=1))
    # the kernel always reads two units per side; every cell has two energy units (a row and a
    # column for box moves, a column and a box for row moves), so dense rows are that wide
    width = max(int(k.max(initial=0)), 2)
    sides = [
        np.take_along_axis(np.where(only, u, n_units), np.argsort(~only, axis=1, kind="stable"), 1)
        for u, only in ((ua, only_a), (ub, only_b))
    ]
    return np.column_stack([a, b, k, sides[0][:, :width], sides[1][:, :width]]).astype(np.uint32)


def _ranks(lengths: IntArray) -> NDArray[np.intp]:
    """``0 .. len-1`` for each CSR row, concatenated."""
    starts = np.repeat(np.cumsum(lengths) - lengths, lengths)
    return np.arange(int(lengths.sum())) - starts


def initial_state(system: SwapSystem, seed: int) -> IntArray:
    """Givens kept; each group's free cells get its missing symbols in random order.

    Pruned, the order is a random matching of the cells to the symbols that gives each cell
    one of its candidates (where the matching leaves cells without, the rest at random).
    """
    rng = generator(seed)
    values = system.givens.copy()
    groups = system.groups
    for g in range(len(groups)):
        cells = groups[g]
        free = cells[values[cells] == 0]
        missing = np.setdiff1d(np.arange(1, system.size + 1), values[cells])
        if system.pruned:
            values[free] = _random_matching(free, missing, system.allowed, rng)
        else:
            values[free] = rng.permutation(missing)
    return values.astype(np.int32)


def _random_matching(
    cells: IntArray, missing: IntArray, allowed: NDArray[np.uint64], rng: np.random.Generator
) -> IntArray:
    """``missing`` spread over ``cells``, each to a cell allowing it as far as a maximum
    matching manages (augmenting paths, cells and symbols tried in random order)."""
    options = [
        [s for s in rng.permutation(missing).tolist() if int(allowed[c]) >> s & 1] for c in cells
    ]
    holder: dict[int, int] = {}  # symbol → position in cells

    def augment(i: int, seen: set[int]) -> bool:
        for s in options[i]:
            if s not in seen:
                seen.add(s)
                if s not in holder or augment(holder[s], seen):
                    holder[s] = i
                    return True
        return False

    for i in rng.permutation(len(cells)).tolist():
        augment(i, set())
    filled = np.zeros(len(cells), dtype=np.int32)
    filled[list(holder.values())] = list(holder)
    left = [s for s in missing.tolist() if s not in holder]
    filled[filled == 0] = rng.permutation(np.array(left, dtype=np.int32))
    return filled


def places(system: SwapSystem, values: IntArray) -> IntArray:
    """``place[g, s]``: the free cell of group ``g`` that holds symbol ``s`` (−1: none).

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> system = box_swap_system(p)
    >>> places(system, initial_state(system, 0))[0].tolist()  # the top-left box lacks 2, 3, 4
    [-1, -1, 4, 5, 1]
    """
    place = np.full((len(system.groups), system.size + 1), -1, dtype=np.int32)
    place[system.guide[system.free, _GROUP], values[system.free]] = system.free
    return place


def unit_counts(
    system: SwapSystem, values: IntArray
) -> tuple[NDArray[np.int32], NDArray[np.uint64], int]:
    """Symbol counts and seen/repeated masks per energy unit (plus the dummy), and the energy.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 2 3 4\\n3 4 1 2\\n2 1 4 3\\n4 3 2 1\\n")
    >>> system = box_swap_system(p)
    >>> unit_counts(system, p.givens)[2], unit_counts(system, p.givens[::-1].copy())[2]
    (0, 0)
    >>> unit_counts(system, np.full(16, 1, dtype=np.int32))[2]  # 8 units, 3 short each
    24
    """
    n_units = system.n_units
    counts = np.zeros((n_units + 1, system.size + 1), dtype=np.int32)
    unit_of = np.repeat(np.arange(n_units), np.diff(system.unit_ptr))
    np.add.at(counts, (unit_of, values[system.unit_cells]), 1)
    bits = np.left_shift(np.uint64(1), np.arange(system.size + 1, dtype=np.uint64))
    masks = np.zeros((n_units + 1, 2), dtype=np.uint64)
    masks[:, SEEN] = np.bitwise_or.reduce(np.where(counts >= 1, bits, np.uint64(0)), axis=1)
    masks[:, REPEATED] = np.bitwise_or.reduce(np.where(counts >= 2, bits, np.uint64(0)), axis=1)
    lengths = np.diff(system.unit_ptr)
    energy = int((lengths - (counts[:n_units, 1:] > 0).sum(axis=1)).sum())
    return counts, masks, energy + system.penalty * outside(system, values)


def outside(system: SwapSystem, values: IntArray) -> int:
    """Free cells whose symbol is not one of their candidates (0 unpruned).

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 0 0\\n0 0 0 0\\n0 0 0 2\\n")
    >>> givens, candidates = pruned(p)
    >>> system = box_swap_system(p, givens, candidates)
    >>> values = initial_state(system, 0)
    >>> outside(system, values), outside(system, values[::-1].copy())
    (0, 4)
    """
    free = system.free
    held = values[free].astype(np.uint64)
    return int((((system.allowed[free] >> held) & _ONE) == 0).sum())


@dataclass(frozen=True, eq=False)
class SiteSystem:
    """Plain arrays the single-site kernel works on.

    Attributes
    ----------
    free : ndarray of int32
        The free cells; a proposal picks one of them and one of the N − 1 other values.
    free_peer_ptr, free_peers : ndarray of int32
        CSR over positions in ``free`` → the free peers (cell numbers), whose ``conflicts``
        follow a change.
    peer_ptr, peers : ndarray of int32
        CSR of cell → every peer (the puzzle's peer graph).
    """

    size: int
    free: IntArray
    free_peer_ptr: IntArray
    free_peers: IntArray
    peer_ptr: IntArray
    peers: IntArray
    givens: IntArray

    @property
    def largest_change(self) -> int:
        """The largest ΔE of a move: all of a cell's peers, given ones weighted."""
        weight = np.where(self.givens[self.peers] > 0, GIVEN_PENALTY, 1)
        per_cell = np.add.reduceat(weight, self.peer_ptr[:-1]) if len(weight) else np.zeros(1)
        return int(per_cell[np.diff(self.peer_ptr) > 0].max(initial=0))


def single_site_system(puzzle: Puzzle, givens: IntArray | None = None) -> SiteSystem:
    """The free cells and their peers, from the puzzle's peer graph.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> system = single_site_system(p)
    >>> len(system.free), system.largest_change  # 7 peers, up to 3 of them given
    (12, 19)
    """
    if puzzle.size > CHAIN_MAX_SYMBOLS:
        raise NdokuError(f"the Metropolis solver handles up to {CHAIN_MAX_SYMBOLS} symbols")
    fixed = puzzle.givens if givens is None else givens
    peer_ptr, peers = puzzle.peers
    free = np.flatnonzero(fixed == 0).astype(np.int32)
    lists = [peers[peer_ptr[c] : peer_ptr[c + 1]] for c in free]
    kept = [p[fixed[p] == 0] for p in lists]
    free_peer_ptr = np.zeros(len(free) + 1, dtype=np.int32)
    free_peer_ptr[1:] = np.cumsum([len(p) for p in kept])
    free_peers = np.concatenate([*kept, np.zeros(0, np.int32)]).astype(np.int32)
    return SiteSystem(puzzle.size, free, free_peer_ptr, free_peers, peer_ptr, peers, fixed)


def random_state(system: SiteSystem, seed: int) -> IntArray:
    """Givens kept; each free cell a random symbol."""
    rng = generator(seed)
    values = system.givens.astype(np.int32)
    values[system.free] = rng.integers(1, system.size + 1, len(system.free))
    return values


def site_conflicts(system: SiteSystem, values: IntArray) -> tuple[NDArray[np.int32], int]:
    """``conflicts[c, s]`` (see the glossary; rows of given cells unused) and the energy.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> system = single_site_system(p)
    >>> values = p.givens.copy()
    >>> values[system.free] = 1  # 28 free pairs clash, and 7 pairs with the given 1
    >>> conflicts, energy = site_conflicts(system, values)
    >>> energy, int(conflicts[1, 1])  # cell 1: 5 free peers and the given 1
    (63, 10)
    """
    n_cells = len(values)
    owner = np.repeat(np.arange(n_cells), np.diff(system.peer_ptr))
    given = system.givens[system.peers] > 0
    weight = np.where(given | (system.givens[owner] > 0), GIVEN_PENALTY, 1)
    conflicts = np.zeros((n_cells, system.size + 1), dtype=np.int32)
    np.add.at(conflicts, (owner, values[system.peers]), np.where(given, GIVEN_PENALTY, 1))
    clash = (values[owner] == values[system.peers]) & (owner < system.peers)
    return conflicts, int(weight[clash].sum())


@dataclass(frozen=True, eq=False)
class _Moves:
    """A move set made ready for :func:`_chain`: its state, arrays and sizes."""

    kind: int
    values: IntArray
    energy: int
    arrays: tuple[Any, ...]  # place … mix, then conflicts … free_peers
    table: int  # entries of the acceptance table: the largest ΔE + 1
    sweep: int  # free cells
    stop: str | None  # why no proposal can be made: "stuck", "propagation"; None: none
    forced: int  # cells pruning fixed


def _prepare(
    puzzle: Puzzle, moves: str, givens: IntArray | None, seed: int, prune_first: bool
) -> _Moves:
    fixed = puzzle.givens if givens is None else givens
    candidates = None
    forced = 0
    if prune_first:
        narrowed, candidates = pruned(puzzle, fixed)
        if candidates is None:  # no solution: an unpruned start, and no proposal
            made = _prepare(puzzle, moves, givens, seed, prune_first=False)
            return dataclasses.replace(made, stop="propagation")
        forced = int((narrowed > 0).sum() - (fixed > 0).sum())
        fixed = narrowed
    # the other move set's arrays are empty stand-ins of the same types, so that one compiled
    # driver serves all move sets
    if moves == "single":
        site = single_site_system(puzzle, fixed)
        values = random_state(site, seed)
        conflicts, energy = site_conflicts(site, values)
        no_swaps: tuple[NDArray[Any], ...] = (
            np.zeros((1, 2), np.int32),
            np.zeros((1, 2), np.int32),
            np.zeros((1, 2), np.uint64),
            np.zeros((0, 5), np.uint32),
            np.zeros(1, np.int32),
            np.zeros(0, np.int32),
            np.zeros(0, np.uint64),
            site.free,
            np.zeros((1, 4), np.uint16),
            np.zeros((0, 2), np.uint32),
            np.zeros(3, np.int64),
        )
        site_arrays = (conflicts, site.free_peer_ptr, site.free_peers)
        n_moves = len(site.free) * (site.size - 1)
        table = site.largest_change + 1
        return _Moves(
            _SINGLE, values, energy, no_swaps + site_arrays, table, len(site.free),
            None if n_moves else "stuck", forced,
        )  # fmt: skip
    system = (row_swap_system if moves == "row" else box_swap_system)(puzzle, fixed, candidates)
    values = initial_state(system, seed)
    counts, masks, energy = unit_counts(system, values)
    swap_arrays = (places(system, values), counts, masks, *system.kernel_arrays)
    no_sites = (np.zeros((1, 2), np.int32), np.zeros(1, np.int32), np.zeros(0, np.int32))
    return _Moves(
        _SWAP, values, energy, swap_arrays + no_sites, system.largest_change + 1,
        len(system.free), None if len(system.pairs) else "stuck", forced,
    )  # fmt: skip


def metropolis(
    puzzle: Puzzle,
    *,
    temperature: float | None = None,
    seed: int = 0,
    max_proposals: int = DEFAULT_MAX_PROPOSALS,
    timeout: float = DEFAULT_TIMEOUT,
    givens: IntArray | None = None,
    moves: str = "box",
    schedule: Schedule | None = None,
    trace_every: int = 0,
    prune: bool = False,
) -> ChainResult:
    """Run a Metropolis chain until it solves the puzzle or a limit is reached.

    Parameters
    ----------
    puzzle : Puzzle
    temperature : float, optional
        The constant temperature, or the schedule's start when ``schedule.t0`` is not set.
        Default :func:`default_temperature` of the move set, the puzzle's size and its units
        per cell.
    seed : int
        0 or more. Same seed, same chain, same result.
    max_proposals : int
        Stop after this many proposals.
    timeout : float
        Stop after this many seconds (checked between chunks of proposals).
    givens : ndarray, optional
        Fixed cells to use instead of the puzzle's givens (e.g. after propagation).
    moves : str
        The move set, one of :data:`MOVES`.
    schedule : Schedule, optional
        How the temperature changes; default constant.
    trace_every : int
        0: no trace. k > 0: a row of :data:`TRACE_COLUMNS` at proposal 0 (acceptance NaN), at
        every multiple of k, and at the last proposal (acceptance over the rows in between).
        The array grows as needed (32 bytes a row): choose k for the run length.
    prune : bool
        First fix what propagation forces (:func:`pruned`); swap moves then keep to the
        other cells' candidates through guided swaps and the penalty (see the glossary).
        Single-site moves only gain the fixed cells. ``forced`` counts them; when pruning
        finds no solution, the result's ``stop`` is ``propagation``.

    Raises
    ------
    ndoku.errors.NdokuError
        An unknown move set, row moves where a cell lies in two rows, a temperature that is
        not a positive number (or one that differs from ``schedule.t0``), a negative seed,
        limit or ``trace_every``, a timeout that is not positive.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> r = metropolis(p, seed=1)
    >>> r.solved, r.energy, r.stop
    (True, 0, 'solved')
    >>> r = metropolis(p, seed=1, moves="single", schedule=Schedule("exponential", t0=2.0),
    ...                trace_every=10)
    >>> r.solved, r.moves, r.schedule, r.trace.shape[1], float(r.trace[0, 2])
    (True, 'single', 'exponential', 4, 2.0)
    """
    _check_moves(moves)
    schedule = Schedule() if schedule is None else schedule
    if temperature is not None and schedule.t0 is not None and temperature != schedule.t0:
        raise NdokuError(
            f"temperature {temperature} and schedule t0 {schedule.t0} disagree: give only one"
        )
    t0 = schedule.t0 if schedule.t0 is not None else temperature
    if t0 is None:
        t0 = puzzle_temperature(puzzle, moves, prune)
    _check_arguments(t0, seed, max_proposals, timeout, trace_every)
    if schedule.t0 is None:
        schedule = dataclasses.replace(schedule, t0=t0)  # validates the ramp's ends
    prepared = _prepare(puzzle, moves, givens, seed, prune)
    values = prepared.values
    best_values = values.copy()
    thresholds = np.zeros(prepared.table, dtype=np.uint64)
    plan = schedule.plan(t0, prepared.sweep, trace_every)
    energy = prepared.energy
    stats = np.array([energy, energy, 0, 0, 0, 0, 0, 0], dtype=np.int64)
    trace = np.zeros((_FIRST_TRACE_ROWS if trace_every else 0, len(TRACE_COLUMNS)))
    if trace_every:
        trace[0] = (0, energy, t0, math.nan)
        stats[_ROWS] = 1
    state = chain_state(seed)

    def run(budget: int) -> None:
        arrays = (*prepared.arrays, thresholds, plan, trace, state, stats, budget)
        arguments = (prepared.kind, values, best_values, *arrays)
        compile_notice("the Metropolis chain", 2, _chain, arguments)
        _chain(*arguments)

    run(0)  # compile or load: untimed
    start = time.perf_counter()
    chunk = _FIRST_CHUNK
    stop = "max-proposals"
    while True:
        if stats[_ENERGY] == 0:
            stop = "solved"
            break
        if prepared.stop is not None:
            stop = prepared.stop
            break
        budget = min(chunk, max_proposals - int(stats[_DONE]))
        if budget <= 0:
            break
        if time.perf_counter() - start > timeout:
            stop = "timeout"
            break
        if trace_every and stats[_ROWS] == len(trace):  # the kernel stopped at a full trace
            trace = np.concatenate([trace, np.zeros_like(trace)])
        run(budget)
        chunk = min(chunk * 2, _LAST_CHUNK)
    seconds = time.perf_counter() - start
    final = t0 if math.isnan(plan[_NOW]) else float(plan[_NOW])
    rows = trace[: stats[_ROWS]]
    done = int(stats[_DONE])
    if trace_every and rows[-1, 0] < done:
        rate = (stats[_TAKEN] - stats[_ROW_TAKEN]) / (done - rows[-1, 0])
        rows = np.vstack([rows, (done, stats[_ENERGY], final, rate)])
    return ChainResult(
        solved=stop == "solved",
        values=values,
        best_values=best_values,
        energy=int(stats[_ENERGY]),
        best_energy=int(stats[_BEST]),
        best_at=int(stats[_BEST_AT]),
        proposals=done,
        acceptances=int(stats[_TAKEN]),
        seconds=seconds,
        seed=seed,
        temperature=final,
        stop=stop,
        moves=moves,
        schedule=schedule.kind,
        trace=rows.copy(),
        forced=prepared.forced,
    )


def acceptance_thresholds(temperature: float, largest: int) -> NDArray[np.uint64]:
    """``t[d] = ⌊2**32 · exp(-d / T)⌋``, for d up to ``largest`` (e.g. a system's
    ``largest_change``).

    A move raising the energy by d is taken when 32 random bits fall below ``t[d]``, that is
    with probability exp(-d / T) to within 2**-32.

    >>> acceptance_thresholds(0.25, 2).tolist()  # exp(-4) · 2**32, exp(-8) · 2**32
    [4294967296, 78665070, 1440801]
    """
    thresholds = np.zeros(largest + 1, dtype=np.uint64)
    _fill_thresholds(thresholds, temperature)
    return thresholds


def _check_moves(moves: str) -> None:
    if moves not in MOVES:
        raise NdokuError(f"unknown move set {moves!r}: choose {_choices(MOVES)}")


def _check_temperature(temperature: float, name: str = "temperature") -> None:
    if not (math.isfinite(temperature) and temperature > 0):
        raise NdokuError(f"{name} must be a positive number, got {temperature}")


def _check_arguments(
    temperature: float, seed: int, max_proposals: int, timeout: float, trace_every: int
) -> None:
    _check_temperature(temperature)
    if seed < 0:
        raise NdokuError(f"seed must be 0 or more, got {seed}")
    if max_proposals < 0:
        raise NdokuError(f"max proposals must be 0 or more, got {max_proposals}")
    if not (timeout > 0):
        raise NdokuError(f"timeout must be a positive number of seconds, got {timeout}")
    if trace_every < 0:
        raise NdokuError(f"trace_every must be 0 (no trace) or more proposals, got {trace_every}")


@njit(cache=True)
def _temperature_at(plan: FloatArray, clock: int) -> float:
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


@njit(cache=True)
def _until_change(plan: FloatArray, clock: int) -> np.int64:
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


@njit(cache=True)
def _fill_thresholds(thresholds: NDArray[np.uint64], temperature: float) -> None:
    """``thresholds[d] = ⌊2**32 · exp(-d / T)⌋``, rewriting only the entries that were or become
    non-zero (a single-site table is long and mostly zeros)."""
    thresholds[0] = np.uint64(1) << np.uint64(32)
    for d in range(1, len(thresholds)):
        # T underflows to 0 after long exponential cooling: then only downhill moves
        value = math.floor(math.exp(-d / temperature) * 2.0**32) if temperature > 0 else 0.0
        if value == 0 and thresholds[d] == 0:
            break  # both the old and the new table are zero from here on
        thresholds[d] = np.uint64(value)


@njit(cache=True)
def _chain(
    kind: int,
    values: IntArray,
    best_values: IntArray,
    place: IntArray,
    counts: NDArray[np.int32],
    masks: NDArray[np.uint64],
    pairs: PairArray,
    cell_unit_ptr: IntArray,
    cell_units: IntArray,
    allowed: NDArray[np.uint64],
    free: IntArray,
    guide: GuideArray,
    group_pairs: PairArray,
    mix: NDArray[np.int64],
    conflicts: NDArray[np.int32],
    free_peer_ptr: IntArray,
    free_peers: IntArray,
    thresholds: NDArray[np.uint64],
    plan: FloatArray,
    trace: FloatArray,
    state: NDArray[np.uint64],
    stats: NDArray[np.int64],
    budget: int,
) -> None:
    """Run up to ``budget`` proposals of move set ``kind`` under the schedule ``plan``.

    The move kernel runs in segments that end where something besides a move happens: the
    temperature may change, a stall reaches the reheat length, a trace row is due. Between
    them the constant-temperature loop runs untouched. Returns early when a trace row is due
    and ``trace`` is full (the caller grows it).
    """
    end = stats[_DONE] + budget
    every = np.int64(plan[_EVERY])
    reheat = np.int64(plan[_REHEAT])
    while stats[_DONE] < end and stats[_ENERGY] != 0:
        done = stats[_DONE]
        clock = done - stats[_RESTART]
        temperature = _temperature_at(plan, clock)
        if temperature != plan[_NOW]:
            _fill_thresholds(thresholds, temperature)
            plan[_NOW] = temperature
        stop = min(end, done + _until_change(plan, clock))
        if reheat > 0:
            stop = min(stop, max(stats[_BEST_AT], stats[_RESTART]) + reheat)
        if every > 0:
            due = (done // every + 1) * every
            if due <= stop:
                if stats[_ROWS] == trace.shape[0]:
                    return
                stop = due
        if kind == _SWAP:
            _box_swap_chain(
                values, best_values, place, counts, masks, pairs, cell_unit_ptr, cell_units,
                allowed, free, guide, group_pairs, mix, thresholds, state, stats, stop - done,
            )  # fmt: skip
        else:
            _single_site_chain(
                values, best_values, conflicts, free, free_peer_ptr, free_peers, thresholds,
                state, stats, stop - done,
            )  # fmt: skip
        done = stats[_DONE]
        if every > 0 and done % every == 0:
            row = stats[_ROWS]
            trace[row, 0] = done
            trace[row, 1] = stats[_ENERGY]
            trace[row, 2] = temperature
            trace[row, 3] = (stats[_TAKEN] - stats[_ROW_TAKEN]) / every
            stats[_ROWS] = row + 1
            stats[_ROW_TAKEN] = stats[_TAKEN]
        if reheat > 0 and done - max(stats[_BEST_AT], stats[_RESTART]) >= reheat:
            stats[_RESTART] = done


@njit(cache=True, inline="always")
def _change(masks: NDArray[np.uint64], u: int, x: np.uint64, y: np.uint64) -> np.int64:
    """ΔE of unit ``u`` when one of its cells changes from ``x`` to ``y``.

    Losing x costs 1 unless x is repeated; gaining y saves 1 unless y is already there.
    """
    already = np.int64((masks[u, SEEN] >> y) & _ONE)
    repeated = np.int64((masks[u, REPEATED] >> x) & _ONE)
    return already - repeated


@njit(cache=True, inline="always")
def _shift(counts: NDArray[np.int32], masks: NDArray[np.uint64], u: int, x: int, y: int) -> None:
    """One cell of unit ``u`` changes from ``x`` to ``y``: counts and masks follow."""
    counts[u, x] -= 1
    counts[u, y] += 1
    bx = _ONE << np.uint64(x)
    by = _ONE << np.uint64(y)
    if counts[u, x] == 0:
        masks[u, SEEN] &= ~bx
    elif counts[u, x] == 1:
        masks[u, REPEATED] &= ~bx
    if counts[u, y] == 1:
        masks[u, SEEN] |= by
    elif counts[u, y] == 2:
        masks[u, REPEATED] |= by


@njit(cache=True, inline="always")
def _outside(allowed: NDArray[np.uint64], c: int, s: np.uint64) -> np.int64:
    """1 when symbol ``s`` is not a candidate of cell ``c``, else 0."""
    return np.int64(((allowed[c] >> s) & _ONE) ^ _ONE)


@njit(cache=True)
def _box_swap_chain(
    values: IntArray,
    best_values: IntArray,
    place: IntArray,
    counts: NDArray[np.int32],
    masks: NDArray[np.uint64],
    pairs: PairArray,
    cell_unit_ptr: IntArray,
    cell_units: IntArray,
    allowed: NDArray[np.uint64],
    free: IntArray,
    guide: GuideArray,
    group_pairs: PairArray,
    mix: NDArray[np.int64],
    thresholds: NDArray[np.uint64],
    state: NDArray[np.uint64],
    stats: NDArray[np.int64],
    budget: int,
) -> None:
    """Run up to ``budget`` proposals; ``stats`` = energy, best, best_at, proposals, accepted.

    A draw below the uniform pair slots picks that pair; above, it picks a free cell c for a
    guided swap (see :class:`SwapSystem` and the glossary).
    """
    energy = stats[0]
    best = stats[1]
    best_at = stats[2]
    done = stats[3]
    taken = stats[4]
    n_pairs = np.uint64(mix[_PAIR_SLOTS])
    penalty = mix[_PENALTY]
    n_free = free.shape[0]
    n_moves = mix[_PAIR_SLOTS] + mix[_GUIDED_SLOTS] * n_free
    width = np.uint64((pairs.shape[1] - 3) // 2)
    s = state[0]
    for _ in range(budget):
        if energy == 0:
            break
        done += 1
        s, bits = advance(s)
        i = below(bits, n_moves)
        if i >= n_pairs:
            # guided: c trades its symbol x, a candidate, for another candidate y, which the
            # cell d of its group holds; a c holding no candidate proposes nothing. Two more
            # draws pick c and y (a division of i would cost more).
            s, more = advance(s)
            c = free[below(more, n_free)]
            x = np.uint64(values[c])
            options = guide[c, _COUNT]
            if _outside(allowed, c, x) or options < 2:
                continue
            s, more = advance(s)
            y = np.uint64(guide[c, _OPTIONS + np.int64(below(more, options - 1))])
            last = np.uint64(guide[c, _OPTIONS + options - 1])
            y = last if y == x else y  # the draw was among k − 1: the last stands in for x
            g = guide[c, _GROUP]
            d = place[g, y]
            # the pair (c, d) in the table: group g's pairs in order of positions lo < hi
            at_c = np.uint64(guide[c, _POSITION])
            at_d = np.uint64(guide[d, _POSITION])
            lo = min(at_c, at_d)
            hi = max(at_c, at_d)
            m = np.uint64(group_pairs[g, 1])
            i = np.uint64(group_pairs[g, 0]) + lo * m - lo * (lo + _ONE) // _TWO + hi - lo - _ONE
        a = pairs[i, 0]
        b = pairs[i, 1]
        x = np.uint64(values[a])
        y = np.uint64(values[b])
        # a's changed units lose x and gain y, b's lose y and gain x. The first two of each
        # side are always read (padded) so that most pairs run no loop; indices are unsigned
        # so that numba leaves out its negative-index wraparound.
        delta = _change(masks, pairs[i, _A], x, y) + _change(masks, pairs[i, _A + width], y, x)
        j = _A + _ONE
        delta += _change(masks, pairs[i, j], x, y) + _change(masks, pairs[i, j + width], y, x)
        for k in range(_A + _TWO, _A + pairs[i, 2]):
            delta += _change(masks, pairs[i, k], x, y) + _change(masks, pairs[i, k + width], y, x)
        if penalty:
            gained = _outside(allowed, a, y) + _outside(allowed, b, x)
            delta += penalty * (gained - _outside(allowed, a, x) - _outside(allowed, b, y))
        if delta > 0 and (bits & _LOW32) >= thresholds[delta]:
            continue
        taken += 1
        for p in range(cell_unit_ptr[a], cell_unit_ptr[a + 1]):
            _shift(counts, masks, cell_units[p], values[a], values[b])
        for q in range(cell_unit_ptr[b], cell_unit_ptr[b + 1]):
            _shift(counts, masks, cell_units[q], values[b], values[a])
        values[a], values[b] = values[b], values[a]
        g = guide[a, _GROUP]
        place[g, y] = a
        place[g, x] = b
        energy += delta
        if energy < best:
            best = energy
            best_at = done
            copy(values, best_values)
    state[0] = s
    stats[0] = energy
    stats[1] = best
    stats[2] = best_at
    stats[3] = done
    stats[4] = taken


@njit(cache=True)
def _single_site_chain(
    values: IntArray,
    best_values: IntArray,
    conflicts: NDArray[np.int32],
    free: IntArray,
    free_peer_ptr: IntArray,
    free_peers: IntArray,
    thresholds: NDArray[np.uint64],
    state: NDArray[np.uint64],
    stats: NDArray[np.int64],
    budget: int,
) -> None:
    """Run up to ``budget`` single-site proposals; ``stats`` as for :func:`_box_swap_chain`."""
    energy = stats[0]
    best = stats[1]
    best_at = stats[2]
    done = stats[3]
    taken = stats[4]
    others = np.uint64(conflicts.shape[1] - 2)  # N − 1 values to move to
    n_moves = free.shape[0] * (conflicts.shape[1] - 2)
    s = state[0]
    for _ in range(budget):
        if energy == 0:
            break
        done += 1
        s, bits = advance(s)
        # one draw among free cells × other values: the quotient is the cell, the rest the value
        m = below(bits, n_moves)
        i = m // others
        c = free[i]
        x = values[c]
        y = np.int32(m - i * others) + np.int32(1)
        if y >= x:
            y += np.int32(1)
        delta = np.int64(conflicts[c, y]) - np.int64(conflicts[c, x])
        if delta > 0 and (bits & _LOW32) >= thresholds[delta]:
            continue
        taken += 1
        for p in range(free_peer_ptr[i], free_peer_ptr[i + _ONE]):
            q = free_peers[p]
            conflicts[q, x] -= 1
            conflicts[q, y] += 1
        values[c] = y
        energy += delta
        if energy < best:
            best = energy
            best_at = done
            copy(values, best_values)
    state[0] = s
    stats[0] = energy
    stats[1] = best
    stats[2] = best_at
    stats[3] = done
    stats[4] = taken
