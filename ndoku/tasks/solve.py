"""One entry point for every solving method, with independent verification of each answer.

Glossary
--------
method
    How a puzzle is solved: ``auto`` (propagation, then exact search: the default),
    ``exact`` (the same, named), ``metropolis`` (the Monte-Carlo chain: box swaps by
    default), ``hybrid`` (pruning fixes every forced cell, then the chain fills the rest
    within the candidates) or ``tempering`` (replicas of the box-swap chain on a temperature
    ladder, which exchange states; for large puzzles; pruned like hybrid unless told not to).
pruning
    Propagation and all-different matching (:func:`~.metropolis.pruned`): forced cells
    become givens, and swap chains keep the other cells to their candidates (the ``forced``
    figure counts the cells fixed). A contradiction found there proves there is no solution.
status
    ``solved`` (a verified solution; unique when the search proved it), ``multiple`` (a
    verified solution, and proof of at least one more), ``none`` (proved: no solution),
    ``limit`` (the exact search hit its node or time limit first) or ``unsolved`` (a chain
    hit its proposal or time limit first).
outcome
    What a method did: status, the verified solution (or the best state a chain reached),
    and the method's own figures (seed, proposals, nodes, …) for reports and JSON.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import NdokuError
from ndoku.limits import (
    DEFAULT_LIMIT,
    DEFAULT_MAX_NODES,
    DEFAULT_MAX_PROPOSALS,
    DEFAULT_TIMEOUT,
)
from ndoku.model.puzzle import Puzzle
from ndoku.solvers.chains.metropolis import (
    ChainResult,
    Schedule,
    metropolis,
)
from ndoku.solvers.chains.tempering import DEFAULT_EXCHANGE_EVERY, TemperingResult, tempering
from ndoku.solvers.exact import ExactResult, solve_batch
from ndoku.tasks.verify import verify, verify_all

IntArray = NDArray[np.int32]
Stat = int | float | str | bool | list[float | None] | None

METHODS = ("auto", "exact", "metropolis", "hybrid", "tempering")
#: The methods that run a Monte-Carlo chain (and can be traced).
CHAIN_METHODS = ("metropolis", "hybrid", "tempering")
#: Statuses whose ``values`` are a verified solution.
ANSWERED = ("solved", "multiple")


@dataclass(frozen=True, eq=False)
class Outcome:
    """The result of solving one puzzle.

    Attributes
    ----------
    status : str
        See the module glossary.
    values : ndarray of int32 or None
        A solution (verified against every unit and given) when ``answered``; for a chain
        that stopped early, the best state it reached; else None.
    stats : dict
        Method figures, in the order they are reported.
    trace : ndarray of float64 or None
        A chain's trace (``TRACE_COLUMNS`` of the chains) when one was asked for.
    """

    puzzle: Puzzle
    method: str
    status: str
    values: IntArray | None
    seconds: float
    stats: dict[str, Stat] = field(default_factory=dict)
    trace: NDArray[np.float64] | None = None

    @property
    def answered(self) -> bool:
        """True when ``values`` is a verified solution."""
        return self.status in ANSWERED

    def figure(self, key: str) -> int:
        """A whole-number figure of ``stats`` (0 when the method does not report it)."""
        value = self.stats.get(key)
        return int(value) if isinstance(value, int | float) else 0


@dataclass(frozen=True)
class Options:
    """Limits and settings of every method (each uses the ones it knows)."""

    seed: int = 0
    temperature: float | None = None
    max_proposals: int = DEFAULT_MAX_PROPOSALS
    timeout: float = DEFAULT_TIMEOUT
    limit: int = DEFAULT_LIMIT
    max_nodes: int = DEFAULT_MAX_NODES
    moves: str = "box"
    schedule: Schedule | None = None
    ladder: tuple[float, ...] | None = None
    replicas: int | None = None
    exchange_every: int | None = None  # tempering: None is its default interval
    trace_every: int = 0
    prune: bool = True  # tempering only: metropolis never prunes, hybrid always does


def solve(puzzle: Puzzle, method: str = "auto", options: Options | None = None) -> Outcome:
    """Solve ``puzzle`` with ``method``; an answered outcome has passed verification.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> outcome = solve(p)
    >>> outcome.status, outcome.stats["unique"], p.text(outcome.values).splitlines()[0]
    ('solved', True, '1 3 2 4')
    >>> solve(p, "metropolis", Options(seed=3)).status
    'solved'
    """
    return solve_all([puzzle], method, options)[0]


def solve_all(
    puzzles: Sequence[Puzzle],
    method: str = "auto",
    options: Options | None = None,
    *,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[Outcome]:
    """Solve many puzzles, in order; exact methods solve a batch in few kernel calls.

    Parameters
    ----------
    puzzles : sequence of Puzzle
    method : str
        One of :data:`METHODS`.
    options : Options, optional
    jobs : int
        Worker processes for the exact methods.
    progress : callable, optional
        Called with the number of puzzles done so far.
    """
    if method not in METHODS:
        raise NdokuError(f"unknown method {method!r} (known: {', '.join(METHODS)})")
    options = options or Options()
    if method in ("auto", "exact"):
        results = solve_batch(
            puzzles,
            limit=options.limit,
            max_nodes=options.max_nodes,
            timeout=options.timeout,
            jobs=jobs,
            progress=progress,
        )
        verify_all(puzzles, [r.values for r in results])
        return [_exact_outcome(p, method, r) for p, r in zip(puzzles, results, strict=True)]
    outcomes = []
    for done, puzzle in enumerate(puzzles, start=1):
        outcomes.append(_chain_outcome(puzzle, method, options))
        if progress is not None:
            progress(done)
    return outcomes


def _exact_outcome(puzzle: Puzzle, method: str, result: ExactResult) -> Outcome:
    stats: dict[str, Stat] = {
        "count": result.count,
        "unique": result.unique,
        "nodes": result.nodes,
        "guesses": result.guesses,
        "propagated": result.propagated,
        "stop": result.stop,
    }
    return Outcome(puzzle, method, result.status, result.values, result.seconds, stats)


def _chain_outcome(puzzle: Puzzle, method: str, options: Options) -> Outcome:
    prune = method == "hybrid" or (method == "tempering" and options.prune)
    chain = _run_chain(puzzle, method, options, prune)
    stats: dict[str, Stat] = {"forced": chain.forced} if prune else {}
    if chain.stop == "propagation":  # pruning proved that there is no solution
        return Outcome(puzzle, method, "none", None, 0.0, {**stats, "stop": chain.stop})
    if chain.solved:
        verify(puzzle, chain.values)
    stats |= {
        "seed": options.seed,
        "moves": chain.moves,
        "schedule": chain.schedule,
        "temperature": chain.temperature,
        "proposals": chain.proposals,
        "acceptances": chain.acceptances,
        "acceptance_rate": round(chain.acceptances / max(chain.proposals, 1), 6),
        "proposals_per_second": round(chain.proposals / chain.seconds) if chain.seconds else 0,
        "energy": chain.energy,
        "best_energy": chain.best_energy,
        "best_at": chain.best_at,
        "stop": chain.stop,
    }
    if isinstance(chain, TemperingResult):
        stats["ladder"] = [round(t, 6) for t in chain.ladder]
        # None (JSON null) for a pair of rungs that never tried an exchange
        rates = chain.exchange_rates
        stats["exchange_rates"] = [None if math.isnan(r) else round(r, 4) for r in rates]
    return Outcome(
        puzzle,
        method,
        "solved" if chain.solved else "unsolved",
        chain.values if chain.solved else chain.best_values,
        chain.seconds,
        stats,
        chain.trace if options.trace_every else None,
    )


def _run_chain(puzzle: Puzzle, method: str, options: Options, prune: bool) -> ChainResult:
    if not options.prune and method != "tempering":
        raise NdokuError(
            "only tempering can leave pruning out: metropolis never prunes, hybrid always does"
        )
    if method == "tempering":
        if options.moves != "box" or options.schedule is not None:
            raise NdokuError("tempering runs box swaps on a ladder: it takes no moves or schedule")
        if options.ladder is None and options.temperature is not None:
            raise NdokuError("tempering takes a ladder of temperatures, not one temperature")
        return tempering(
            puzzle,
            temperatures=options.ladder,
            replicas=options.replicas,
            exchange_every=options.exchange_every or DEFAULT_EXCHANGE_EVERY,
            seed=options.seed,
            max_proposals=options.max_proposals,
            timeout=options.timeout,
            trace_every=options.trace_every,
            prune=prune,
        )
    if options.ladder is not None or options.replicas is not None or options.exchange_every:
        raise NdokuError("a ladder, replicas or exchanges need the tempering method")
    return metropolis(
        puzzle,
        temperature=options.temperature,
        seed=options.seed,
        max_proposals=options.max_proposals,
        timeout=options.timeout,
        moves=options.moves,
        schedule=options.schedule,
        trace_every=options.trace_every,
        prune=prune,
    )
