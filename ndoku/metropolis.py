"""Metropolis solver: box swaps at a fixed temperature, as in the Monte-Carlo Samurai solver.

Glossary
--------
state
    Every box holds a permutation of the symbols: givens fixed, free cells filled with the
    box's missing symbols (at random, from the seed).
move
    Swap the values of two free cells of one box (a *proposal*); boxes stay permutations.
energy
    Σ over rows and columns (every unit but the boxes) of N − (number of distinct symbols);
    0 exactly when the puzzle is solved.
temperature
    T: a move that raises the energy by ΔE is accepted with probability exp(−ΔE/T).
counts
    ``counts[u, s]``: how many cells of energy unit ``u`` hold symbol ``s``. ΔE of a swap
    follows from the counts of the few units holding the two cells, in O(1) each.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ndoku._jit import _below, _next, _uniform, compile_notice, rng_state
from ndoku.errors import NdokuError
from ndoku.peers import BOX, Units
from ndoku.puzzle import Puzzle

IntArray = NDArray[np.int32]

#: Default temperature by N (symbols per unit), from measurements (see benchmarks/).
DEFAULT_TEMPERATURES = {4: 0.25, 9: 0.25, 16: 0.3, 25: 0.22, 36: 0.2, 49: 0.2}
DEFAULT_MAX_PROPOSALS = 10_000_000_000
DEFAULT_TIMEOUT = 60.0
_FIRST_CHUNK = 1 << 14
_LAST_CHUNK = 1 << 22


def default_temperature(size: int) -> float:
    """The default temperature for sub-grids of ``size`` symbols.

    >>> default_temperature(9)
    0.25
    """
    return DEFAULT_TEMPERATURES.get(size, 0.2)


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


@dataclass(frozen=True, eq=False)
class SwapSystem:
    """Plain arrays a swap kernel works on: move groups and the energy units.

    ``group_ptr/group_free``: the free cells of each move group (a box) with at least two.
    ``unit_ptr/unit_cells``: the energy units; ``cell_unit_ptr/cell_units``: cell → them.
    """

    size: int
    group_ptr: IntArray
    group_free: IntArray
    groups: Units
    unit_ptr: IntArray
    unit_cells: IntArray
    cell_unit_ptr: IntArray
    cell_units: IntArray
    givens: IntArray


def box_swap_system(puzzle: Puzzle, givens: IntArray | None = None) -> SwapSystem:
    """Boxes as move groups, all other units as energy units."""
    fixed = puzzle.givens if givens is None else givens
    units = puzzle.units
    boxes = units.select(units.kind == BOX)
    energy = units.select(units.kind != BOX)
    free_lists = [g[fixed[g] == 0] for g in (boxes[i] for i in range(len(boxes)))]
    free_lists = [f for f in free_lists if len(f) >= 2]
    group_ptr = np.zeros(len(free_lists) + 1, dtype=np.int32)
    group_ptr[1:] = np.cumsum([len(f) for f in free_lists])
    group_free = np.concatenate(free_lists).astype(np.int32) if free_lists else group_ptr[:0]
    cell_unit_ptr, cell_units = energy.of_cells(puzzle.n_cells)
    return SwapSystem(
        puzzle.size,
        group_ptr,
        group_free,
        boxes,
        energy.ptr,
        energy.cells,
        cell_unit_ptr,
        cell_units,
        fixed,
    )


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
        Default :func:`default_temperature` of the puzzle's size.
    seed : int
        Same seed, same chain, same result.
    max_proposals : int
        Stop after this many proposals.
    timeout : float
        Stop after this many seconds (checked between chunks of proposals).
    givens : ndarray, optional
        Fixed cells to use instead of the puzzle's givens (e.g. after propagation).

    Examples
    --------
    >>> from ndoku.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> r = metropolis(p, seed=1)
    >>> r.solved, r.energy, r.stop
    (True, 0, 'solved')
    """
    temperature = default_temperature(puzzle.size) if temperature is None else temperature
    _check_limits(temperature, max_proposals, timeout)
    system = box_swap_system(puzzle, givens)
    values = initial_state(system, seed)
    counts, energy = unit_counts(system, values)
    accept = acceptance_table(temperature, _max_delta(system))
    state = rng_state(seed)
    best_values = values.copy()
    compile_notice(_box_swap_chain)
    stats = np.array([energy, energy, 0, 0, 0], dtype=np.int64)  # energy best best_at prop acc
    start = time.perf_counter()
    chunk = _FIRST_CHUNK
    stop = "max-proposals"
    while True:
        if stats[0] == 0:
            stop = "solved"
            break
        if len(system.group_ptr) == 1:
            stop = "stuck"
            break
        budget = min(chunk, max_proposals - int(stats[3]))
        if budget <= 0:
            break
        if time.perf_counter() - start > timeout:
            stop = "timeout"
            break
        _box_swap_chain(
            values,
            best_values,
            counts,
            system.group_ptr,
            system.group_free,
            system.cell_unit_ptr,
            system.cell_units,
            accept,
            state,
            stats,
            budget,
        )
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


def unit_counts(system: SwapSystem, values: IntArray) -> tuple[NDArray[np.int32], int]:
    """Symbol counts per energy unit, and the energy Σ (N − distinct symbols)."""
    n_units = len(system.unit_ptr) - 1
    counts = np.zeros((n_units, system.size + 1), dtype=np.int32)
    unit_of = np.repeat(np.arange(n_units), np.diff(system.unit_ptr))
    np.add.at(counts, (unit_of, values[system.unit_cells]), 1)
    lengths = np.diff(system.unit_ptr)
    energy = int((lengths - (counts[:, 1:] > 0).sum(axis=1)).sum())
    return counts, energy


def acceptance_table(temperature: float, max_delta: int) -> NDArray[np.float64]:
    """``table[d] = exp(-d / T)``: the chance of taking a move that raises energy by d."""
    return np.exp(-np.arange(max_delta + 1) / temperature)


def _max_delta(system: SwapSystem) -> int:
    """Largest possible ΔE of one swap: two per energy unit of either cell."""
    per_cell = np.diff(system.cell_unit_ptr)
    return int(2 * 2 * per_cell.max(initial=0)) + 1


def _check_limits(temperature: float, max_proposals: int, timeout: float) -> None:
    if not (math.isfinite(temperature) and temperature > 0):
        raise NdokuError(f"temperature must be a positive number, got {temperature}")
    if max_proposals < 0:
        raise NdokuError(f"max proposals must be 0 or more, got {max_proposals}")
    if not (timeout > 0):
        raise NdokuError(f"timeout must be a positive number of seconds, got {timeout}")


@njit(cache=True)
def _box_swap_chain(
    values: IntArray,
    best_values: IntArray,
    counts: NDArray[np.int32],
    group_ptr: IntArray,
    group_free: IntArray,
    cell_unit_ptr: IntArray,
    cell_units: IntArray,
    accept: NDArray[np.float64],
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
    n_groups = len(group_ptr) - 1
    s = state[0]
    for _ in range(budget):
        if energy == 0:
            break
        done += 1
        s, bits = _next(s)
        g = _below(bits, n_groups)
        start = group_ptr[g]
        k = group_ptr[g + 1] - start
        s, bits = _next(s)
        i = _below(bits, k)
        j = _below(bits << np.uint64(32), k - 1)
        if j >= i:
            j += 1
        a = group_free[start + i]
        b = group_free[start + j]
        x = values[a]
        y = values[b]
        delta = 0
        for p in range(cell_unit_ptr[a], cell_unit_ptr[a + 1]):
            u = cell_units[p]
            shared = False
            for q in range(cell_unit_ptr[b], cell_unit_ptr[b + 1]):
                if cell_units[q] == u:
                    shared = True
            if not shared:
                delta += (counts[u, y] >= 1) - (counts[u, x] >= 2)
        for q in range(cell_unit_ptr[b], cell_unit_ptr[b + 1]):
            u = cell_units[q]
            shared = False
            for p in range(cell_unit_ptr[a], cell_unit_ptr[a + 1]):
                if cell_units[p] == u:
                    shared = True
            if not shared:
                delta += (counts[u, x] >= 1) - (counts[u, y] >= 2)
        if delta > 0:
            s, bits = _next(s)
            if _uniform(bits) >= accept[delta]:
                continue
        taken += 1
        for p in range(cell_unit_ptr[a], cell_unit_ptr[a + 1]):
            u = cell_units[p]
            counts[u, x] -= 1
            counts[u, y] += 1
        for q in range(cell_unit_ptr[b], cell_unit_ptr[b + 1]):
            u = cell_units[q]
            counts[u, y] -= 1
            counts[u, x] += 1
        values[a] = y
        values[b] = x
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
