"""One Metropolis chain: a move set run under a temperature schedule until it solves the
puzzle or a limit is reached.

The chain's parts live in their own modules, each with the glossary of its terms: move sets,
states and energies in :mod:`.moves`, temperatures and schedules in :mod:`.schedule`, the
proposal loops and their random draws in :mod:`.kernels`, how a seed becomes the chain's
streams in :mod:`ndoku.solvers.random`. Here, the driver: it prepares a move set, then calls
the chain kernel in growing chunks of proposals, checking the limits between them.

Glossary
--------
trace
    Every ``trace_every`` proposals a row: proposal, energy, temperature and the acceptance rate
    since the previous row (:data:`TRACE_COLUMNS`).
"""

from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import NdokuError
from ndoku.jit import compile_notice, compiled, kernel
from ndoku.limits import DEFAULT_MAX_PROPOSALS, DEFAULT_TIMEOUT, Deadline
from ndoku.model.puzzle import Puzzle
from ndoku.solvers.chains.broken import ChainRules
from ndoku.solvers.chains.checks import check_arguments, check_choice
from ndoku.solvers.chains.display import chain_html
from ndoku.solvers.chains.kernels import fill_thresholds, single_site_chain, swap_chain
from ndoku.solvers.chains.moves import (
    MOVES,
    GuideArray,
    IntArray,
    PairArray,
    SwapSystem,
    initial_state,
    places,
    pruned,
    swap_system,
    unit_counts,
)
from ndoku.solvers.chains.restarts import Restarts, default_restarts, default_unit
from ndoku.solvers.chains.schedule import (
    PLAN_EVERY,
    PLAN_NOW,
    PLAN_REHEAT,
    FloatArray,
    Schedule,
    puzzle_temperature,
    steer,
    temperature_at,
    until_change,
)
from ndoku.solvers.chains.sites import SiteSystem, random_state, single_site_system, site_conflicts
from ndoku.solvers.chains.watch import Glimpse, Watch, watched_size
from ndoku.solvers.random import chain_state, restart_seed

#: Columns of ``ChainResult.trace``.
TRACE_COLUMNS = ("proposal", "energy", "temperature", "acceptance")
_FIRST_CHUNK = 1 << 14
_LAST_CHUNK = 1 << 22
_FIRST_TRACE_ROWS = 1 << 10
# The slots of the int64 ``stats`` array a kernel carries between calls (the first five are
# those the move kernels keep; the rest belong to the driver).
_ENERGY, _BEST, _BEST_AT, _DONE, _TAKEN, _RESTART, _ROWS, _ROW_TAKEN = range(8)


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
        ``solved``, ``max-proposals``, ``timeout``, ``stopped`` (its watch said so), ``stuck``
        (no move possible) or
        ``propagation`` (pruning found that the givens contradict each other: the puzzle has
        no solution; no proposal was made, the state is an unpruned start); ``search`` for
        ``hybrid`` when its exact search answered before the chain ran (see
        :mod:`ndoku.tasks.solve`).
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
    restarts : int
        Times the chain started again from a fresh state (see :mod:`.restarts`).
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
    restarts: int = 0

    #: How IPython shows a result: figures and energy trace as HTML (:mod:`.display`).
    _repr_html_ = chain_html


@dataclass(frozen=True, eq=False)
class _Moves:
    """A move set made ready for :func:`_chain`: its state, arrays and sizes."""

    values: IntArray
    energy: int
    arrays: tuple[Any, ...]  # place … mix, then conflicts (None for swaps) … free_peers
    table: int  # entries of the acceptance table: the largest ΔE + 1
    sweep: int  # free cells
    stop: str | None  # why no proposal can be made: "stuck", "propagation"; None: none
    forced: int  # cells pruning fixed
    system: SwapSystem | SiteSystem
    rules: ChainRules | None  # the move set's constraints (:mod:`.broken`)

    def refill(self, seed: int) -> int:
        """A fresh start state from ``seed``, written over the chain's arrays; its energy."""
        system = self.system
        if isinstance(system, SiteSystem):
            self.values[:] = random_state(system, seed)
            conflicts, energy = site_conflicts(system, self.values)
            self.arrays[-3][:] = conflicts
            return energy
        self.values[:] = initial_state(system, seed)
        self.arrays[0][:] = places(system, self.values)
        counts, masks, energy = unit_counts(system, self.values)
        self.arrays[1][:] = counts
        self.arrays[2][:] = masks
        return energy


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
    # the swaps' arrays of a single-site run are empty stand-ins; a swap run's conflicts are
    # None, which has the driver compiled with its swap branch alone
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
            values, energy, no_swaps + site_arrays, table, len(site.free),
            None if n_moves else "stuck", forced, site, site.rules,
        )  # fmt: skip
    system = swap_system(puzzle, moves, fixed, candidates)
    values = initial_state(system, seed)
    counts, masks, energy = unit_counts(system, values)
    swap_arrays = (places(system, values), counts, masks, *system.kernel_arrays[:-1])
    no_sites = (None, np.zeros(1, np.int32), np.zeros(0, np.int32))
    return _Moves(
        values, energy, swap_arrays + no_sites, system.largest_change + 1,
        len(system.free), None if len(system.pairs) else "stuck", forced, system, system.rules,
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
    restarts: Restarts | None = None,
    watch: Watch | None = None,
) -> ChainResult:
    """Run a Metropolis chain until it solves the puzzle or a limit is reached.

    Parameters
    ----------
    puzzle : Puzzle
    temperature : float, optional
        The constant temperature, or the schedule's start when ``schedule.t0`` is not set.
        Default :func:`~.schedule.default_temperature` of the move set, the puzzle's size and
        its units per cell.
    seed : int
        0 or more. Same seed, same chain, same result.
    max_proposals : int
        Stop after this many proposals.
    timeout : float
        Stop after this many seconds, the preparation (pruning) included: checked between
        chunks of proposals, each sized to take a small share of it (see
        :class:`~ndoku.limits.Deadline`).
    givens : ndarray, optional
        Fixed cells to use instead of the puzzle's givens (e.g. after propagation).
    moves : str
        The move set, one of :data:`~.moves.MOVES`.
    schedule : Schedule, optional
        How the temperature changes (:class:`~.schedule.Schedule`); default constant.
    trace_every : int
        0: no trace. k > 0: a row of :data:`TRACE_COLUMNS` at proposal 0 (acceptance NaN), at
        every multiple of k, and at the last proposal (acceptance over the rows in between).
        The array grows as needed (32 bytes a row): choose k for the run length.
    prune : bool
        First fix what propagation forces (:func:`~.moves.pruned`); swap moves then keep to the
        other cells' candidates through guided swaps and the penalty (see :mod:`.moves`).
        Single-site moves only gain the fixed cells. ``forced`` counts them; when pruning
        finds no solution, the result's ``stop`` is ``propagation``.
    restarts : Restarts, optional
        When the chain starts again from a fresh state (:class:`~.restarts.Restarts`; default
        :func:`~.restarts.default_restarts`: Luby's when pruned, none when not; the unit by
        default :func:`~.restarts.default_unit` of the free cells). A schedule starts over at
        each restart; the best state is the best of all runs.
    watch : callable, optional
        Shown a :class:`~.watch.Glimpse` after each call of the kernel, the calls then cut to
        :data:`~.watch.EVERY` seconds; when it returns False the chain stops (``stopped``),
        when it returns a number (not True) the chain goes on at that temperature (a
        constant schedule only: :func:`~.schedule.steer`).

    Raises
    ------
    ndoku.errors.NdokuError
        An unknown move set, box moves where a cell lies in no box (a Latin square: use row
        moves), row moves where a cell lies in two rows, a temperature that is
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
    deadline = Deadline(timeout)  # the preparation (pruning) counts too
    check_choice(moves, MOVES, "move set")
    schedule = Schedule() if schedule is None else schedule
    if temperature is not None and schedule.t0 is not None and temperature != schedule.t0:
        raise NdokuError(
            f"temperature {temperature} and schedule t0 {schedule.t0} disagree: give only one"
        )
    t0 = schedule.t0 if schedule.t0 is not None else temperature
    if t0 is None:
        t0 = puzzle_temperature(puzzle, moves, prune)
    check_arguments(t0, seed, max_proposals, timeout, trace_every)
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
    lengths = (restarts or default_restarts(prune)).lengths(default_unit(prepared.sweep))
    run_end = next(lengths)
    n_restarts = 0

    def run(budget: int) -> None:
        arrays = (*prepared.arrays, prepared.rules, thresholds, plan, trace, state, stats, budget)
        arguments = (values, best_values, *arrays)
        compile_notice("the Metropolis chain", 5, _chain, arguments)  # 4-5 s, 2026-11-28
        _chain(*arguments)

    with deadline.paused():
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
        done = int(stats[_DONE])
        if done >= max_proposals:
            break
        if done >= run_end:
            n_restarts += 1
            energy = prepared.refill(restart_seed(seed, n_restarts))
            stats[_ENERGY] = energy
            stats[_RESTART] = done  # a schedule starts over
            if energy < stats[_BEST]:
                stats[_BEST], stats[_BEST_AT] = energy, done
                best_values[:] = values
            run_end = done + next(lengths)
            continue
        budget = int(min(chunk, max_proposals - done, run_end - done))
        if deadline.passed():
            stop = "timeout"
            break
        if trace_every and stats[_ROWS] == len(trace):  # the kernel stopped at a full trace
            trace = np.concatenate([trace, np.zeros_like(trace)])
        before, called = int(stats[_DONE]), time.perf_counter()
        run(budget)
        ran = int(stats[_DONE]) - before
        seconds = time.perf_counter() - called
        chunk = deadline.fit(chunk, ran, seconds, least=_FIRST_CHUNK, most=_LAST_CHUNK)
        if watch is not None:
            chunk = watched_size(chunk, ran, seconds, _FIRST_CHUNK)
            now = t0 if math.isnan(plan[PLAN_NOW]) else float(plan[PLAN_NOW])
            energy, best = int(stats[_ENERGY]), int(stats[_BEST])
            said = watch(Glimpse(int(stats[_DONE]), energy, best, now, values.copy()))
            if said is False:
                stop = "stopped"
                break
            if said is not True:  # a temperature: the chain goes on at it
                steer(plan, said)
    seconds = time.perf_counter() - start
    final = t0 if math.isnan(plan[PLAN_NOW]) else float(plan[PLAN_NOW])
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
        restarts=n_restarts,
    )


def warm_parts(puzzle: Puzzle) -> None:
    """Compile (or load) the kernels the swap chains' driver calls, each on its own, with
    the types of ``puzzle``'s swap run: a second process beside a first ``rate``
    (:mod:`ndoku.tasks.warming`) has them cached while the command compiles the search and
    the path, and leaves it the driver to compile."""
    prepared = _prepare(puzzle, "box", None, 0, False)
    state = chain_state(0)
    stats = np.zeros(8, dtype=np.int64)
    thresholds = np.zeros(prepared.table, dtype=np.uint64)
    plan = Schedule().plan(0.5, prepared.sweep, 0)
    values = prepared.values
    swaps = (values, values, *prepared.arrays[:11], prepared.rules, thresholds, state, stats, 0)
    compiled(swap_chain, swaps)
    compiled(temperature_at, (plan, 0))
    compiled(until_change, (plan, 0))
    compiled(fill_thresholds, (thresholds, 0.5))


@kernel(refcounts=True)
def _chain(
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
    conflicts: NDArray[np.int32] | None,
    free_peer_ptr: IntArray,
    free_peers: IntArray,
    rules: ChainRules | None,
    thresholds: NDArray[np.uint64],
    plan: FloatArray,
    trace: FloatArray,
    state: NDArray[np.uint64],
    stats: NDArray[np.int64],
    budget: int,
) -> None:
    """Run up to ``budget`` proposals of a move set under the schedule ``plan``: swaps, or
    single-site changes when ``conflicts`` is given (numba drops the branch of the other: a
    rating's swap chains compile no single-site kernel).

    The move kernel runs in segments that end where something besides a move happens: the
    temperature may change, a stall reaches the reheat length, a trace row is due. Between
    them the constant-temperature loop runs untouched. Returns early when a trace row is due
    and ``trace`` is full (the caller grows it).
    """
    end = stats[_DONE] + budget
    every = np.int64(plan[PLAN_EVERY])
    reheat = np.int64(plan[PLAN_REHEAT])
    while stats[_DONE] < end and stats[_ENERGY] != 0:
        done = stats[_DONE]
        clock = done - stats[_RESTART]
        temperature = temperature_at(plan, clock)
        if temperature != plan[PLAN_NOW]:
            fill_thresholds(thresholds, temperature)
            plan[PLAN_NOW] = temperature
        stop = min(end, done + until_change(plan, clock))
        if reheat > 0:
            stop = min(stop, max(stats[_BEST_AT], stats[_RESTART]) + reheat)
        if every > 0:
            due = (done // every + 1) * every
            if due <= stop:
                if stats[_ROWS] == trace.shape[0]:
                    return
                stop = due
        if conflicts is None:
            swap_chain(
                values, best_values, place, counts, masks, pairs, cell_unit_ptr, cell_units,
                allowed, free, guide, group_pairs, mix, rules, thresholds, state, stats,
                stop - done,
            )  # fmt: skip
        else:
            single_site_chain(
                values, best_values, conflicts, free, free_peer_ptr, free_peers, rules,
                thresholds, state, stats, stop - done,
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
