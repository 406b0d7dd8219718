"""Parallel tempering: box-swap Metropolis chains on a ladder of temperatures, exchanging states.

Glossary
--------
replica
    One full box-swap state (values, where each box's symbols are, unit counts and masks, its
    own random stream) on the tables all replicas share (:func:`~.moves.box_swap_system`; on
    a layout without boxes, a Latin square, rows stand in for the boxes).
    Replica ``r`` starts from :func:`~.moves.initial_state` with seed ``seed · R + r``
    (:func:`~ndoku.solvers.random.replica_seed`).
pruning
    By default the replicas are pruned chains (see :mod:`.moves`): the cells that
    propagation and matching force are fixed first, and guided swaps keep the others to
    their candidates. ``prune=False`` runs plain box-swap chains.
rung, ladder
    The ladder is the tuple of temperatures, coldest first and strictly rising; a rung is one
    of them. Every rung holds exactly one replica at a time.
round
    ``exchange_every`` proposals of every replica at its rung's temperature, the replicas in
    parallel (numba ``prange``). A replica that reaches energy 0 ends its round there. (Not a
    sweep, which is as many proposals as free cells: see :class:`~.schedule.Schedule`.)
exchange
    After each round, neighbouring rungs trade their replicas with probability
    ``min(1, exp((β_i − β_j)(E_i − E_j)))`` (β = 1/T, E = energy): a lower energy always moves
    to the colder rung, a higher one sometimes. Even rounds try rungs (0, 1), (2, 3) …, odd
    rounds (1, 2), (3, 4) … — pairs of one round share no rung, and the alternation lets a
    replica walk the whole ladder. The replicas keep their states and streams; only the
    rung they run at changes.
energy
    As in :mod:`.moves`: Σ over rows and columns of N − distinct symbols, plus the
    penalty of the cells outside their candidates when pruned and the broken counts of the
    puzzle's rules (:mod:`.broken`); 0 exactly when solved. The run stops when any replica
    reaches 0.
temperature
    The hotter rungs are there to cross the barriers that hold a cold chain in a dead end and
    hand better states down. :func:`default_ladder` spreads the rungs geometrically around
    the puzzle's default temperature (for a pruned chain unless ``prune=False``). Measured
    with the same number of proposals (benchmarks/bench_tempering.py): pruned, the ladder
    solves every run of the random and the wild 25×25 puzzles, where one pruned chain solves
    98% of the random ones; plain, it solved more hard 9×9 runs than one chain but fewer
    25×25 ones. No ladder tried solves the minimal Gecode 25×25 puzzles.

Determinism: every replica draws from its own stream and the exchanges from another, all
derived from the seed (:func:`~ndoku.solvers.random.replica_states`), and exchanges happen
after fixed numbers of proposals. Which thread runs which replica, and how the rounds are cut
into kernel calls between timeout checks (several rounds, or parts of one), does not change
any draw: the same seed gives the same result on any number of cores.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numba
import numpy as np
from numpy.typing import NDArray

from ndoku.errors import NdokuError
from ndoku.limits import (
    DEFAULT_MAX_PROPOSALS,
    DEFAULT_TIMEOUT,
    MAX_REPLICAS,
    Deadline,
    check_count,
)
from ndoku.model.puzzle import Puzzle
from ndoku.solvers.chains.checks import check_arguments, check_temperature
from ndoku.solvers.chains.fill import GreedyFill
from ndoku.solvers.chains.metropolis import TRACE_COLUMNS, ChainResult
from ndoku.solvers.chains.moves import (
    Dive,
    IntArray,
    default_moves,
    pruned,
    swap_system,
)
from ndoku.solvers.chains.replicas import Replicas
from ndoku.solvers.chains.restarts import NO_RESTARTS, Restarts, default_unit
from ndoku.solvers.chains.schedule import puzzle_temperature
from ndoku.solvers.chains.watch import Glimpse, Watch, watched_size
from ndoku.solvers.random import generator, replica_seed

#: Rungs of the default ladder: two replicas per core on two cores; more rungs cost proposals
#: without solving more often (benchmarks/bench_tempering.py).
LADDER_RUNGS = 4
#: The default ladder's coldest and hottest rung by N, as multiples of the puzzle's
#: :func:`~.schedule.puzzle_temperature` for a pruned chain (which already warms
#: interlocked grids); other sizes take the entry of the nearest N below. Pruned chains
#: exchange far more often than plain ones (40-60% of tries between neighbours on 25×25),
#: which allows a wider ladder; on 25×25, 0.28-0.37 solves both the random and the wild
#: puzzles, where 0.3-0.4 loses wild ones and 0.255-0.345 random ones.
#: Measured in benchmarks/bench_tempering.py.
LADDER_SPANS = {4: (0.8, 1.1), 9: (0.8, 1.1), 16: (0.9, 1.2), 25: (0.93, 1.23)}
#: The same for plain (unpruned) chains, around their own default temperature. Energy gaps
#: between rungs grow with the puzzle, so a ladder wide enough for 9×9 hardly exchanges on
#: 25×25 (about 2% of tries between 0.3 and 0.35): the span narrows with N.
PLAIN_LADDER_SPANS = {4: (0.9, 1.2), 9: (0.9, 1.2), 16: (0.9, 1.1), 25: (0.92, 1.04)}
#: Proposals per replica between exchanges: 1 000, 10 000 and 100 000 solve 25×25 equally
#: often; below 10 000 the parallel rounds lose throughput to starting and joining threads.
DEFAULT_EXCHANGE_EVERY = 10_000
#: Proposals (all replicas) per kernel call at most; calls start at one round (or, when a
#: round is long, a part of one of ``_FIRST_PART`` proposals per replica) and double while
#: they stay within the timeout's stretch (:meth:`~ndoku.limits.Deadline.stretch`).
_LAST_CALL = 1 << 23
_FIRST_PART = 1 << 14


@dataclass(frozen=True)
class TemperingResult(ChainResult):
    """A :class:`~.metropolis.ChainResult`, plus how often neighbouring rungs exchanged.

    The chain fields describe the best replica (lowest best energy, first reached), except
    ``proposals`` and ``acceptances``, summed over all replicas, and ``temperature``, the
    coldest rung. ``best_at`` counts total proposals: R × the replica's own count (replicas
    advance in step).

    Attributes
    ----------
    exchange_rates : tuple of float
        Per neighbouring pair of rungs (k, k + 1), the share of attempted exchanges taken;
        NaN for a pair never tried.
    """

    exchange_rates: tuple[float, ...] = ()


def default_ladder(puzzle: Puzzle, pruned: bool = True) -> tuple[float, ...]:
    """The default rungs, coldest first: geometric around the puzzle's default temperature.

    :data:`LADDER_RUNGS` rungs spanning :data:`LADDER_SPANS` (:data:`PLAIN_LADDER_SPANS`
    unless ``pruned``) of the puzzle's size times its
    :func:`~.schedule.puzzle_temperature`, for a pruned chain when ``pruned``.

    Examples
    --------
    >>> from ndoku.tasks.generate import layout_puzzle
    >>> default_ladder(layout_puzzle("25x25")), default_ladder(layout_puzzle("25x25"), False)
    ((0.279, 0.3063, 0.3362, 0.369), (0.23, 0.2396, 0.2496, 0.26))
    >>> default_ladder(layout_puzzle("9x9")), default_ladder(layout_puzzle("9x9"), False)
    ((0.36, 0.4003, 0.4451, 0.495), (0.27, 0.2972, 0.3271, 0.36))
    """
    middle = puzzle_temperature(puzzle, default_moves(puzzle, swaps=True), pruned)
    spans = LADDER_SPANS if pruned else PLAIN_LADDER_SPANS
    cold, hot = spans[max((n for n in spans if n <= puzzle.size), default=4)]
    return geometric_ladder(cold * middle, hot * middle, LADDER_RUNGS)


def geometric_ladder(cold: float, hot: float, rungs: int) -> tuple[float, ...]:
    """``rungs`` temperatures from ``cold`` to ``hot`` with a constant ratio, rounded to 4 places.

    >>> geometric_ladder(0.2, 0.35, 5)
    (0.2, 0.23, 0.2646, 0.3043, 0.35)
    """
    if rungs < 2:
        raise NdokuError(f"parallel tempering needs at least 2 replicas, got {rungs}")
    ratio = hot / cold  # plain floats: numpy's geomspace took 15 µs of a 0.3 ms solve
    return tuple(round(cold * ratio ** (k / (rungs - 1)), 4) for k in range(rungs))


def tempering(
    puzzle: Puzzle,
    *,
    temperatures: Sequence[float] | None = None,
    replicas: int | None = None,
    exchange_every: int = DEFAULT_EXCHANGE_EVERY,
    seed: int = 0,
    max_proposals: int = DEFAULT_MAX_PROPOSALS,
    timeout: float = DEFAULT_TIMEOUT,
    givens: IntArray | None = None,
    trace_every: int = 0,
    threads: int | None = None,
    prune: bool = True,
    restarts: Restarts | None = None,
    watch: Watch | None = None,
) -> TemperingResult:
    """Run box-swap replicas on a temperature ladder until one solves the puzzle or a limit hits.

    Parameters
    ----------
    puzzle : Puzzle
    temperatures : sequence of float, optional
        The ladder, coldest first, strictly rising (an unsorted or repeated ladder is refused
        rather than reordered, so that rung k is always the k-th number given). Default
        :func:`default_ladder`.
    replicas : int, optional
        Without ``temperatures``: that many rungs, geometric between the default ladder's
        ends. With them: must equal their number.
    exchange_every : int
        Proposals of each replica between exchange attempts.
    seed : int
        0 or more. Same seed, same result, on any number of threads.
    max_proposals : int
        Stop once this many proposals (all replicas together) are made; never exceeded.
    timeout : float
        Stop after this many seconds, the preparation (pruning) included: checked between
        kernel calls, each sized to take a small share of it (a round too long for that runs
        in parts, which does not change the run).
    givens : ndarray, optional
        Fixed cells to use instead of the puzzle's givens (e.g. after propagation).
    trace_every : int
        When positive, ``trace`` gets a row after the first round at or past every multiple
        of this many total proposals, and one where the run stops: total proposals, the
        lowest energy over the replicas, that replica's temperature, and the acceptance rate
        of all replicas since the previous row (:data:`~.metropolis.TRACE_COLUMNS`).
    threads : int, optional
        Threads for the replicas (default: numba's, all cores); the result does not depend
        on it.
    prune : bool
        Start from pruned candidates (:func:`~.moves.pruned`): forced cells fixed,
        guided swaps and the penalty keep the others to their candidates. ``forced`` counts
        the fixed cells; when pruning finds no solution, ``stop`` is ``propagation`` (no
        proposal made, the replicas unpruned starts).
    restarts : Restarts, optional
        When every replica starts again from a fresh state (default: never), in proposals
        of all replicas together: the unit by default R ×
        :func:`~.restarts.default_unit` of the free cells. A restart
        comes at the end of the first round that reaches the run's length, so it does not
        depend on how the rounds are cut into calls.
    watch : callable, optional
        Shown a :class:`~.watch.Glimpse` after each call of the kernel (every rung's energy
        and temperature; the coldest replica's state), the calls then cut to
        :data:`~.watch.EVERY` seconds; when it returns False the run stops (``stopped``).

    Returns
    -------
    TemperingResult
        ``schedule`` is ``"tempering"``, ``ladder`` the rungs, ``exchange_rates`` the share of
        exchanges taken per neighbouring pair of rungs.

    Raises
    ------
    ndoku.errors.NdokuError
        Fewer than 2 rungs, a temperature that is not a positive number, a ladder that does
        not rise strictly, ``replicas`` that disagrees with ``temperatures``,
        ``exchange_every`` below 1, more than 63 symbols, a negative seed, limit or
        ``trace_every``, a timeout that is not positive, a thread count numba cannot use.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> r = tempering(p, seed=1)
    >>> r.solved, r.energy, r.stop, r.schedule, len(r.ladder)
    (True, 0, 'solved', 'tempering', 4)
    """
    deadline = Deadline(timeout)  # the preparation (pruning) counts too
    ladder = _ladder(puzzle, temperatures, replicas, prune)
    check_count(exchange_every, "exchange interval", 1)
    check_arguments(ladder[0], seed, max_proposals, timeout, trace_every)
    most = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]
    if threads is not None and not 1 <= threads <= most:
        raise NdokuError(f"threads must be between 1 and {most}, got {threads}")
    moves = default_moves(puzzle, swaps=True)
    fixed = puzzle.givens if givens is None else givens
    narrowed, candidates = pruned(puzzle, fixed) if prune else (fixed, None)
    forced = int((narrowed > 0).sum() - (fixed > 0).sum())
    dives: list[Dive] | None = None
    if candidates is not None:
        began = time.perf_counter()
        dives = _dives(puzzle, narrowed, candidates, ladder, seed)
        dived = _dived(dives[-1][0], moves, ladder, seed, time.perf_counter() - began)
        if dived is not None:
            return dataclasses.replace(dived, forced=forced)
    system = swap_system(puzzle, moves, narrowed, candidates)
    replicas_ = Replicas.start(system, ladder, seed, dives)
    with deadline.paused():
        replicas_.run(0, 0, 0)  # compile or load: untimed
    previous_threads = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    impossible = prune and candidates is None
    try:
        found = _drive(
            replicas_,
            exchange_every,
            0 if impossible else max_proposals,
            deadline,
            trace_every,
            seed,
            restarts or NO_RESTARTS,
            watch,
        )
    finally:
        numba.set_num_threads(previous_threads)
    return dataclasses.replace(
        found, stop="propagation" if impossible else found.stop, forced=forced
    )


def _glimpse(replicas: Replicas) -> Glimpse:
    """Where the run is: the coldest rung's replica, and every rung's energy."""
    at = np.argsort(replicas.rung_of)  # the replica on each rung, coldest first
    stats = replicas.stats
    cold = int(at[0])
    return Glimpse(
        replicas.proposals,
        int(stats[cold, 0]),
        int(stats[:, 1].min()),
        replicas.ladder[0],
        replicas.values[cold].copy(),
        tuple(int(stats[r, 0]) for r in at),
        tuple(replicas.ladder),
    )


def _dives(
    puzzle: Puzzle,
    givens: IntArray,
    candidates: NDArray[np.uint64],
    ladder: tuple[float, ...],
    seed: int,
) -> list[Dive]:
    """The replicas' dives in rung order, up to the first that fills the grid: the values
    each fixed and its generator, whose draws the replica's start state goes on with
    (:func:`~.moves.initial_state`), so that no dive is made twice."""
    # a grid pruning filled is every replica's dive, with nothing to draw
    fill = None if (givens > 0).all() else GreedyFill.of(puzzle, candidates)
    dives: list[Dive] = []
    for r in range(len(ladder)):
        rng = generator(replica_seed(seed, len(ladder), r))
        values = givens.copy() if fill is None else fill.dive(givens, rng)
        dives.append((values, rng))
        if (values > 0).all():
            break
    return dives


def _dived(
    values: IntArray, moves: str, ladder: tuple[float, ...], seed: int, seconds: float
) -> TemperingResult | None:
    """The run when a replica's dive filled the grid (``values``) in ``seconds``: as the
    rounds would report it, without building the replicas; None when it left cells free."""
    if not (values > 0).all():
        return None
    return TemperingResult(
        solved=True, values=values, best_values=values.copy(), energy=0, best_energy=0,
        best_at=0, proposals=0, acceptances=0, seconds=seconds, seed=seed,
        temperature=ladder[0], stop="solved", moves=moves, schedule="tempering",
        ladder=ladder, trace=np.zeros((0, len(TRACE_COLUMNS))),
        exchange_rates=(math.nan,) * (len(ladder) - 1),
    )  # fmt: skip


def _ladder(
    puzzle: Puzzle, temperatures: Sequence[float] | None, replicas: int | None, prune: bool
) -> tuple[float, ...]:
    rungs = replicas if temperatures is None else len(temperatures)
    if rungs is not None and rungs > MAX_REPLICAS:
        raise NdokuError(f"parallel tempering takes {MAX_REPLICAS} replicas at most, got {rungs}")
    if temperatures is None:
        ladder = default_ladder(puzzle, prune)
        if replicas is not None:
            ladder = geometric_ladder(ladder[0], ladder[-1], replicas)
        return ladder
    ladder = tuple(float(t) for t in temperatures)
    if replicas is not None and replicas != len(ladder):
        raise NdokuError(f"{replicas} replicas but {len(ladder)} temperatures")
    if len(ladder) < 2:
        raise NdokuError(f"parallel tempering needs at least 2 temperatures, got {len(ladder)}")
    for t in ladder:
        check_temperature(t)
    if any(b <= a for a, b in itertools.pairwise(ladder)):
        listed = ", ".join(f"{t:g}" for t in ladder)
        raise NdokuError(f"temperatures must rise strictly from the coldest rung, got {listed}")
    return ladder


def _drive(
    replicas: Replicas,
    exchange_every: int,
    max_proposals: int,
    deadline: Deadline,
    trace_every: int,
    seed: int,
    restarts: Restarts,
    watch: Watch | None,
) -> TemperingResult:
    """Call the kernel until a replica solves or a limit is reached, checking the limits and
    tracing between calls: whole rounds, as many as fit in the deadline's stretch (and
    ``_LAST_CALL``), or the parts of a round too long for it, the last part exchanging; a
    restart after the round that reaches a run's length."""
    n = len(replicas.ladder)
    per_round = n * exchange_every
    lengths = restarts.lengths(n * default_unit(len(replicas.system.free)))
    run_end = next(lengths)
    n_restarts = 0
    trace: list[tuple[float, ...]] = []
    marked = (0, 0)  # proposals and acceptances at the previous trace row
    start = time.perf_counter()
    done_rounds = 0
    size = 0  # proposals per replica of the round under way
    made = 0  # of which made so far
    steps = 0  # proposals per replica of the last call
    stop = "max-proposals"
    while True:
        if made == 0 and (replicas.stats[:, 0] == 0).any():
            stop = "solved"
            break
        if len(replicas.system.pairs) == 0:
            stop = "stuck"
            break
        if made == 0 and replicas.proposals >= run_end:
            n_restarts += 1
            replicas.refill(seed, n_restarts)
            run_end = replicas.proposals + next(lengths)
            continue
        if made == 0:
            left = max_proposals - replicas.proposals
            # a last, shorter round uses what the cap leaves, so the cap is met but never passed
            size = min(exchange_every, left // n)
            if size <= 0:
                break
        if deadline.passed():
            stop = "timeout"
            break
        called = time.perf_counter()
        if steps == 0:
            steps = min(size, _FIRST_PART)
        if made == 0 and steps >= size:  # whole rounds
            rounds = min(steps // size, left // per_round) if size == exchange_every else 1
            if math.isfinite(run_end):  # end the batch at the round that ends the run
                rounds = max(1, min(rounds, -(-(int(run_end) - replicas.proposals) // per_round)))
            if trace_every:  # end the batch at the round that reaches the next multiple
                to_row = (marked[0] // trace_every + 1) * trace_every - replicas.proposals
                rounds = max(1, min(rounds, -(-to_row // per_round)))
            ran = replicas.run(done_rounds, rounds, size)
            done_rounds += ran
            ran *= size
        else:  # a part of the round; the last one exchanges as a whole round would
            ran = min(steps, size - made)
            if made + ran < size:
                replicas.run(done_rounds, 1, ran, exchange=False)
                made += ran
            else:
                done_rounds += replicas.run(done_rounds, 1, ran)
                made = 0
        seconds = time.perf_counter() - called
        steps = deadline.fit(steps, ran, seconds, min(size, _FIRST_PART), max(1, _LAST_CALL // n))
        if watch is not None:
            steps = watched_size(steps, ran, seconds, min(size, _FIRST_PART))
            said = watch(_glimpse(replicas))
            if said is False:
                stop = "stopped"
                break
            if said is not True:
                raise NdokuError("a tempering run's ladder is not steered while it runs")
        row_due = trace_every and replicas.proposals // trace_every > marked[0] // trace_every
        if made == 0 and row_due:
            marked = _add_row(trace, replicas, marked)
    seconds = time.perf_counter() - start
    if trace_every and replicas.proposals > marked[0]:
        _add_row(trace, replicas, marked)
    stats = replicas.stats
    # the best replica: lowest best energy, reached first, colder rung on a tie
    best = min(range(n), key=lambda r: (stats[r, 1], stats[r, 2], replicas.rung_of[r]))
    tried = replicas.exchanges[:, 0]
    rates = np.where(tried > 0, replicas.exchanges[:, 1] / np.maximum(tried, 1), np.nan)
    return TemperingResult(
        solved=stop == "solved",
        values=replicas.values[best].copy(),
        best_values=replicas.best_values[best].copy(),
        energy=int(stats[best, 0]),
        best_energy=int(stats[best, 1]),
        best_at=n * int(stats[best, 2]),
        proposals=replicas.proposals,
        acceptances=replicas.acceptances,
        seconds=seconds,
        seed=seed,
        temperature=replicas.ladder[0],
        stop=stop,
        moves=replicas.system.moves,
        schedule="tempering",
        ladder=replicas.ladder,
        trace=np.array(trace, dtype=np.float64).reshape(-1, len(TRACE_COLUMNS)),
        exchange_rates=tuple(rates.tolist()),
        restarts=n_restarts,
    )


def _add_row(
    trace: list[tuple[float, ...]], replicas: Replicas, marked: tuple[int, int]
) -> tuple[int, int]:
    proposals, energy, temperature = replicas.trace_row()
    accepted = replicas.acceptances
    rate = (accepted - marked[1]) / (proposals - marked[0])
    trace.append((proposals, energy, temperature, rate))
    return proposals, accepted
