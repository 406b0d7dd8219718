"""Metropolis solver: box swaps at a fixed temperature, as in the Monte-Carlo Samurai solver.

Glossary
--------
state
    Every box holds a permutation of the symbols: givens fixed, free cells filled with the
    box's missing symbols (at random, from the seed).
move
    Swap the values of two free cells of one box (a *proposal*); boxes stay permutations.
pair
    Two free cells of one box: the moves there are. A proposal picks a pair uniformly among all
    pairs of all boxes; the pairs never depend on the state, so proposals are symmetric and the
    chain is a proper Metropolis chain.
energy
    Σ over rows and columns (every unit but the boxes) of N − (number of distinct symbols);
    0 exactly when the puzzle is solved.
changed units
    The energy units that hold one cell of a pair but not the other: only their counts change
    in a swap (a unit holding both keeps its symbols). The *pair table* lists them per pair.
temperature
    T: a move that raises the energy by ΔE is accepted with probability exp(−ΔE/T). The
    default (:func:`default_temperature`) depends on N and on how much sub-grids overlap.
counts, seen, repeated
    ``counts[u, s]``: how many cells of energy unit ``u`` hold symbol ``s``; bit ``s`` of
    ``masks[u, SEEN]`` is set when that count is at least 1, of ``masks[u, REPEATED]`` when it
    is at least 2. ΔE of a swap follows from two bits per changed unit.

Each proposal draws one 64-bit random number: its high half picks the pair, its low half is
compared with ``2**32 · exp(−ΔE/T)`` to accept an uphill move.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ndoku._jit import _below, _next, compile_notice, rng_state
from ndoku.errors import NdokuError
from ndoku.peers import BOX, Units
from ndoku.puzzle import Puzzle

IntArray = NDArray[np.int32]
PairArray = NDArray[np.uint32]

#: Default temperature of a single grid by N (symbols per unit), from the sweep recorded in
#: benchmarks/bench_metropolis.py; 49 is extrapolated (no 49×49 puzzle was measured). Other
#: sizes (6, 8, 10, 12 …, rectangular boxes) take the entry of the nearest N below.
BASE_TEMPERATURES = {4: 0.3, 9: 0.3, 16: 0.3, 25: 0.25, 36: 0.25, 49: 0.25}
#: Interlocked grids whose cells lie in more units want a hotter chain (a swap there changes
#: more units): above OVERLAP_START energy units per cell, T grows by OVERLAP_SLOPE of itself
#: per unit per cell. A line through the measured best of Samurai (2.2 → 0.3) and butterfly
#: (3.0 → 0.45); windmill, sumo, shogun and sohei (2.25-2.43) fall between.
OVERLAP_START = 2.2
OVERLAP_SLOPE = 0.625
DEFAULT_MAX_PROPOSALS = 10_000_000_000
DEFAULT_TIMEOUT = 60.0
#: Columns of ``ChainResult.trace``.
TRACE_COLUMNS = ("proposal", "energy", "temperature", "acceptance")
#: Columns of ``masks``.
SEEN, REPEATED = 0, 1
#: Symbols must fit the bits of a uint64 mask.
MAX_SYMBOLS = 63
_FIRST_CHUNK = 1 << 14
_LAST_CHUNK = 1 << 22
_LOW32 = np.uint64(0xFFFFFFFF)
_ONE = np.uint64(1)
_TWO = np.uint64(2)
_A = np.uint64(3)  # column of a pair's first changed unit of a (of b: _A + width)


def default_temperature(size: int, units_per_cell: float = 2.0) -> float:
    """The default temperature for sub-grids of ``size`` symbols.

    ``units_per_cell``: energy units (rows and columns) per cell on average, 2 for a single
    grid, more where sub-grids overlap (:func:`units_per_cell`).

    >>> default_temperature(9), default_temperature(9, 2.2), default_temperature(9, 3.0)
    (0.3, 0.3, 0.45)
    >>> default_temperature(25), default_temperature(30)
    (0.25, 0.25)
    """
    base = BASE_TEMPERATURES[max((n for n in BASE_TEMPERATURES if n <= size), default=4)]
    return round(base * (1 + OVERLAP_SLOPE * max(0.0, units_per_cell - OVERLAP_START)), 4)


def units_per_cell(puzzle: Puzzle) -> float:
    """Energy units (every unit but the boxes) per cell, on average over the puzzle's cells.

    >>> from ndoku.puzzle import read_puzzles
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
        ``solved``, ``max-proposals``, ``timeout`` or ``stuck`` (no move possible).
    moves : str
        The move set: ``box`` (swaps within a box), ``row`` or ``single`` (single-site).
    schedule : str
        ``constant``, or the name of the temperature schedule that ran.
    ladder : tuple of float
        Parallel tempering: the replicas' temperatures, coldest first; empty otherwise.
    trace : ndarray of float64, shape (rows, 4)
        Every ``trace_every`` proposals: proposal, energy, temperature, and the acceptance
        rate since the previous row (see :data:`TRACE_COLUMNS`). Empty when not traced.
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


@dataclass(frozen=True, eq=False)
class SwapSystem:
    """Plain arrays a swap kernel works on: move groups, pairs and the energy units.

    Attributes
    ----------
    groups : Units
        The move groups (boxes); ``initial_state`` fills their free cells.
    pairs : ndarray of uint32, shape (pairs, 3 + 2 · width)
        Per pair: cell ``a``, cell ``b``, the number ``k`` of changed units listed, then
        ``width`` slots of a's changed units and ``width`` of b's, each padded with the dummy
        unit (index ``units``, never holding a symbol, so it adds 0 to ΔE).
    unit_ptr, unit_cells : ndarray of int32
        The energy units (CSR); ``cell_unit_ptr, cell_units``: cell → energy units.
    """

    size: int
    groups: Units
    pairs: PairArray
    unit_ptr: IntArray
    unit_cells: IntArray
    cell_unit_ptr: IntArray
    cell_units: IntArray
    givens: IntArray

    @property
    def n_units(self) -> int:
        return len(self.unit_ptr) - 1


def box_swap_system(puzzle: Puzzle, givens: IntArray | None = None) -> SwapSystem:
    """Boxes as move groups, all other units as energy units.

    Examples
    --------
    >>> from ndoku.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> system = box_swap_system(p)
    >>> system.n_units, len(system.pairs)  # 4 rows + 4 columns; 3 free cells per box
    (8, 12)
    """
    if puzzle.size > MAX_SYMBOLS:
        raise NdokuError(f"the Metropolis solver handles up to {MAX_SYMBOLS} symbols")
    fixed = puzzle.givens if givens is None else givens
    units = puzzle.units
    boxes = units.select(units.kind == BOX)
    energy = units.select(units.kind != BOX)
    cell_unit_ptr, cell_units = energy.of_cells(puzzle.n_cells)
    free = [g[fixed[g] == 0] for g in (boxes[i] for i in range(len(boxes)))]
    pairs = _pair_table(free, cell_unit_ptr, cell_units, len(energy))
    return SwapSystem(
        puzzle.size, boxes, pairs, energy.ptr, energy.cells, cell_unit_ptr, cell_units, fixed
    )


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
    # the kernel always reads two units per side; every cell has a row and a column, so the
    # dense rows are at least that wide
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
    """Givens kept; each group's free cells get its missing symbols in random order."""
    rng = np.random.default_rng(seed)
    values = system.givens.copy()
    groups = system.groups
    for g in range(len(groups)):
        cells = groups[g]
        free = cells[values[cells] == 0]
        missing = np.setdiff1d(np.arange(1, system.size + 1), values[cells])
        values[free] = rng.permutation(missing)
    return values.astype(np.int32)


def metropolis(
    puzzle: Puzzle,
    *,
    temperature: float | None = None,
    seed: int = 0,
    max_proposals: int = DEFAULT_MAX_PROPOSALS,
    timeout: float = DEFAULT_TIMEOUT,
    givens: IntArray | None = None,
) -> ChainResult:
    """Run the box-swap Metropolis chain until it solves the puzzle or a limit is reached.

    Parameters
    ----------
    puzzle : Puzzle
    temperature : float, optional
        Default :func:`default_temperature` of the puzzle's size and units per cell.
    seed : int
        0 or more. Same seed, same chain, same result.
    max_proposals : int
        Stop after this many proposals.
    timeout : float
        Stop after this many seconds (checked between chunks of proposals).
    givens : ndarray, optional
        Fixed cells to use instead of the puzzle's givens (e.g. after propagation).

    Raises
    ------
    ndoku.errors.NdokuError
        A temperature that is not a positive number, a negative seed or limit, a timeout
        that is not positive.

    Examples
    --------
    >>> from ndoku.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> r = metropolis(p, seed=1)
    >>> r.solved, r.energy, r.stop
    (True, 0, 'solved')
    """
    if temperature is None:
        temperature = default_temperature(puzzle.size, units_per_cell(puzzle))
    _check_arguments(temperature, seed, max_proposals, timeout)
    system = box_swap_system(puzzle, givens)
    values = initial_state(system, seed)
    counts, masks, energy = unit_counts(system, values)
    thresholds = acceptance_thresholds(temperature, (system.pairs.shape[1] - 3) // 2)
    state = rng_state(seed)
    best_values = values.copy()
    compile_notice(_box_swap_chain)
    stats = np.array([energy, energy, 0, 0, 0], dtype=np.int64)  # energy best best_at prop acc
    arrays = (system.pairs, system.cell_unit_ptr, system.cell_units, thresholds, state, stats)
    _box_swap_chain(values, best_values, counts, masks, *arrays, 0)  # compile or load: untimed
    start = time.perf_counter()
    chunk = _FIRST_CHUNK
    stop = "max-proposals"
    while True:
        if stats[0] == 0:
            stop = "solved"
            break
        if len(system.pairs) == 0:
            stop = "stuck"
            break
        budget = min(chunk, max_proposals - int(stats[3]))
        if budget <= 0:
            break
        if time.perf_counter() - start > timeout:
            stop = "timeout"
            break
        _box_swap_chain(values, best_values, counts, masks, *arrays, budget)
        chunk = min(chunk * 2, _LAST_CHUNK)
    seconds = time.perf_counter() - start
    return ChainResult(
        solved=stop == "solved",
        values=values,
        best_values=best_values,
        energy=int(stats[0]),
        best_energy=int(stats[1]),
        best_at=int(stats[2]),
        proposals=int(stats[3]),
        acceptances=int(stats[4]),
        seconds=seconds,
        seed=seed,
        temperature=temperature,
        stop=stop,
    )


def unit_counts(
    system: SwapSystem, values: IntArray
) -> tuple[NDArray[np.int32], NDArray[np.uint64], int]:
    """Symbol counts and seen/repeated masks per energy unit (plus the dummy), and the energy.

    Examples
    --------
    >>> from ndoku.puzzle import read_puzzles
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
    return counts, masks, energy


def acceptance_thresholds(temperature: float, width: int) -> NDArray[np.uint64]:
    """``t[d] = ⌊2**32 · exp(-d / T)⌋``, for d up to 2 · ``width`` (the largest ΔE of a swap).

    A move raising the energy by d is taken when 32 random bits fall below ``t[d]``, that is
    with probability exp(-d / T) to within 2**-32.

    >>> acceptance_thresholds(0.25, 1).tolist()  # exp(-4) · 2**32, exp(-8) · 2**32
    [4294967296, 78665070, 1440801]
    """
    d = np.arange(2 * width + 1)
    return np.floor(np.exp(-d / temperature) * 2.0**32).astype(np.uint64)


def _check_arguments(temperature: float, seed: int, max_proposals: int, timeout: float) -> None:
    if not (math.isfinite(temperature) and temperature > 0):
        raise NdokuError(f"temperature must be a positive number, got {temperature}")
    if seed < 0:
        raise NdokuError(f"seed must be 0 or more, got {seed}")
    if max_proposals < 0:
        raise NdokuError(f"max proposals must be 0 or more, got {max_proposals}")
    if not (timeout > 0):
        raise NdokuError(f"timeout must be a positive number of seconds, got {timeout}")


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


@njit(cache=True)
def _box_swap_chain(
    values: IntArray,
    best_values: IntArray,
    counts: NDArray[np.int32],
    masks: NDArray[np.uint64],
    pairs: PairArray,
    cell_unit_ptr: IntArray,
    cell_units: IntArray,
    thresholds: NDArray[np.uint64],
    state: NDArray[np.uint64],
    stats: NDArray[np.int64],
    budget: int,
) -> None:
    """Run up to ``budget`` proposals; ``stats`` = energy, best, best_at, proposals, accepted."""
    energy = stats[0]
    best = stats[1]
    best_at = stats[2]
    done = stats[3]
    taken = stats[4]
    n_pairs = pairs.shape[0]
    width = np.uint64((pairs.shape[1] - 3) // 2)
    s = state[0]
    for _ in range(budget):
        if energy == 0:
            break
        done += 1
        s, bits = _next(s)
        i = _below(bits, n_pairs)
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
        if delta > 0 and (bits & _LOW32) >= thresholds[delta]:
            continue
        taken += 1
        for p in range(cell_unit_ptr[a], cell_unit_ptr[a + 1]):
            _shift(counts, masks, cell_units[p], values[a], values[b])
        for q in range(cell_unit_ptr[b], cell_unit_ptr[b + 1]):
            _shift(counts, masks, cell_units[q], values[b], values[a])
        values[a], values[b] = values[b], values[a]
        energy += delta
        if energy < best:
            best = energy
            best_at = done
            best_values[:] = values
    state[0] = s
    stats[0] = energy
    stats[1] = best
    stats[2] = best_at
    stats[3] = done
    stats[4] = taken
