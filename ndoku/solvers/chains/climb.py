"""Random-restart hill climbing: the box-swap chain at T = 0 (row swaps on a layout without
boxes), started again from a fresh random fill after a plateau (:func:`hillclimb`).

Glossary
--------
climb
    Box swaps (:mod:`.moves`) from a random fill, each proposal taken when it does not raise
    the energy (the Metropolis rule at T = 0): sideways moves are taken too, so a climb walks
    along a plateau rather than stopping at its first step.
plateau
    A climb's run of proposals without a new lowest energy of that climb. After ``plateau``
    of them the climb is given up, and the next one starts from a fresh random fill of the
    boxes (a *restart*).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ndoku.jit import compile_notice
from ndoku.limits import DEFAULT_MAX_PROPOSALS, DEFAULT_TIMEOUT, Deadline, check_count
from ndoku.model.puzzle import Puzzle
from ndoku.solvers.chains.checks import check_arguments
from ndoku.solvers.chains.kernels import acceptance_thresholds, swap_chain
from ndoku.solvers.chains.metropolis import ChainResult
from ndoku.solvers.chains.moves import (
    IntArray,
    SwapSystem,
    default_moves,
    initial_state,
    places,
    swap_system,
    unit_counts,
)
from ndoku.solvers.random import chain_state, draw_seed, generator

#: The default plateau, in proposals per swap pair of the puzzle (a climb has tried each
#: pair many times before it is given up), and at least :data:`LEAST_PLATEAU`. Measured on
#: 20 easy 9×9 puzzles, 3 seeds each: from 4 to 64 per pair a solution takes alike many
#: proposals (median 35 000 to 46 000), 1 or 2 per pair restart before a climb has settled
#: (median 330 000 and 150 000), and a restart costs as much as a few thousand proposals; 16
#: was the quickest there and on 10 diabolical ones (median 82 000 proposals, 18 ms).
PLATEAU_PER_PAIR = 16
LEAST_PLATEAU = 100
#: Proposals of a kernel call at least (the first one), and at most.
_FIRST_CALL = 1 << 12
_LAST_CALL = 1 << 21
# The slots of the kernel's int64 ``stats``: energy, lowest energy of the climb, the
# proposal that reached it, proposals, acceptances.
_ENERGY, _LOWEST, _LOWEST_AT, _DONE, _TAKEN = range(5)


@dataclass(frozen=True)
class ClimbResult(ChainResult):
    """A :class:`~.metropolis.ChainResult` of hill climbing, whose ``restarts`` are the climbs
    after the first, with its ``plateau`` (proposals without progress before a restart).
    ``temperature`` is 0, ``schedule`` ``hillclimb``; the best state is the lowest any
    climb reached (first reached at proposal ``best_at``)."""

    plateau: int = 0


def default_plateau(system: SwapSystem) -> int:
    """:data:`PLATEAU_PER_PAIR` proposals per swap pair, at least :data:`LEAST_PLATEAU`.

    >>> from ndoku.model.puzzle import read_puzzles
    >>> from ndoku.solvers.chains.moves import box_swap_system
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> default_plateau(box_swap_system(p))  # 12 pairs: 192 proposals
    192
    """
    return max(LEAST_PLATEAU, PLATEAU_PER_PAIR * len(system.pairs))


class _Climb:
    """One climb's state: a box-swap fill, where each box's symbols are, unit counts."""

    def __init__(self, system: SwapSystem, seed: int) -> None:
        self.values = initial_state(system, seed)
        self.place = places(system, self.values)
        self.counts, self.masks, self.energy = unit_counts(system, self.values)


def hillclimb(
    puzzle: Puzzle,
    *,
    plateau: int | None = None,
    seed: int = 0,
    max_proposals: int = DEFAULT_MAX_PROPOSALS,
    timeout: float = DEFAULT_TIMEOUT,
    givens: IntArray | None = None,
) -> ClimbResult:
    """Climb with box swaps at T = 0, restarting after each plateau, until solved or a limit.

    Parameters
    ----------
    puzzle : Puzzle
    plateau : int, optional
        Proposals without a new lowest energy of the climb before it restarts (default
        :func:`default_plateau`).
    seed : int
        0 or more: it draws every fill and every proposal, so the same seed gives the same
        run.
    max_proposals, timeout
        Stop after this many proposals (over all climbs) or seconds.
    givens : ndarray, optional
        Fixed cells to use instead of the puzzle's givens.

    Raises
    ------
    ndoku.errors.NdokuError
        A plateau below 1, a negative seed or limit, a timeout that is not positive, more
        than 63 symbols.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> r = hillclimb(p, seed=1)
    >>> r.solved, r.temperature, r.schedule, r.plateau
    (True, 0.0, 'hillclimb', 192)
    """
    deadline = Deadline(timeout)
    check_arguments(1.0, seed, max_proposals, timeout, 0)  # its T is 0, no trace
    fixed = puzzle.givens if givens is None else givens
    system = swap_system(puzzle, default_moves(puzzle, swaps=True), fixed)
    plateau = default_plateau(system) if plateau is None else plateau
    check_count(plateau, "plateau", 1)
    fills = generator(seed)
    state = chain_state(seed)
    thresholds = acceptance_thresholds(0.0, system.largest_change)  # no uphill move
    stats = np.zeros(5, dtype=np.int64)
    climb = _Climb(system, draw_seed(fills))
    stats[_ENERGY] = stats[_LOWEST] = climb.energy
    best_values, best_energy, best_at = climb.values.copy(), climb.energy, 0
    lowest_values = climb.values.copy()  # the kernel's copy of each climb's lowest state
    restarts = 0

    def run(budget: int) -> None:
        arguments = (
            climb.values, lowest_values, climb.place, climb.counts, climb.masks,
            *system.kernel_arrays, thresholds, state, stats, budget,
        )  # fmt: skip
        compile_notice("the hill-climbing moves", 4, swap_chain, arguments)
        swap_chain(*arguments)

    with deadline.paused():
        run(0)  # compile or load: untimed
    start = time.perf_counter()
    chunk = _FIRST_CALL
    stop = "max-proposals"
    while True:
        if stats[_ENERGY] == 0:
            stop = "solved"
            break
        if len(system.pairs) == 0:
            stop = "stuck"
            break
        left = max_proposals - int(stats[_DONE])
        if left <= 0:
            break
        if deadline.passed():
            stop = "timeout"
            break
        waited = int(stats[_DONE] - stats[_LOWEST_AT])
        if waited >= plateau:
            climb = _Climb(system, draw_seed(fills))
            stats[_ENERGY] = stats[_LOWEST] = climb.energy
            stats[_LOWEST_AT] = stats[_DONE]
            restarts += 1
            continue
        before, called = int(stats[_DONE]), time.perf_counter()
        run(min(chunk, plateau - waited, left))
        ran, seconds = int(stats[_DONE]) - before, time.perf_counter() - called
        chunk = deadline.fit(chunk, ran, seconds, least=_FIRST_CALL, most=_LAST_CALL)
        # at T = 0 the energy never rises: a climb's state is always its lowest
        if stats[_LOWEST] < best_energy:
            best_values, best_energy = climb.values.copy(), int(stats[_LOWEST])
            best_at = int(stats[_LOWEST_AT])
    return ClimbResult(
        solved=stop == "solved",
        values=climb.values,
        best_values=best_values,
        energy=int(stats[_ENERGY]),
        best_energy=best_energy,
        best_at=best_at,
        proposals=int(stats[_DONE]),
        acceptances=int(stats[_TAKEN]),
        seconds=time.perf_counter() - start,
        seed=seed,
        temperature=0.0,
        stop=stop,
        moves=system.moves,
        schedule="hillclimb",
        restarts=restarts,
        plateau=plateau,
    )
