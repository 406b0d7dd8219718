"""One entry point for every solving method, with independent verification of each answer.

Glossary
--------
method
    How a puzzle is solved: ``auto`` (propagation, then exact search: the default), ``exact`` (the
    same, named), ``metropolis`` (the Monte-Carlo chain: box swaps by default, row swaps on a layout
    without boxes such as a Latin square), ``hybrid`` (pruning fixes every forced cell, the exact
    search looks for a first solution on a budget of nodes, then the chain fills the rest within the
    candidates; the chain alone when a setting of the chain is given), ``tempering`` (replicas of
    the box-swap chain on a temperature ladder, which exchange states; for large puzzles; pruned
    like hybrid unless told not to) or ``hillclimb`` (random-restart hill climbing: box swaps at
    zero temperature, a fresh random fill after each plateau).
teaching search
    The exact methods with another ``propagation`` or ``branching`` than ndoku's own
    (``full`` and ``mrv``): the backtracking of the search study
    (:func:`ndoku.solvers.study.search_study`), verified like every other answer.
pruning
    Propagation and all-different matching (:func:`ndoku.solvers.chains.moves.pruned`): forced cells
    become givens, and swap chains keep the other cells to their candidates (the ``forced``
    figure counts the cells fixed). A contradiction found there proves there is no solution.
status
    ``solved`` (a verified solution; unique when the search proved it), ``multiple`` (a
    verified solution, and proof of at least one more), ``none`` (proved: no solution),
    ``limit`` (the exact search hit its node or time limit first), ``unsolved`` (a chain
    hit its proposal or time limit first) or ``error`` (the worker process solving it died:
    killed, or out of memory).
outcome
    What a method did: status, the verified solution (or the best state a chain reached),
    and the method's own result (seed, proposals, nodes, …) for reports and JSON.
runs
    One puzzle solved with several seeds (``seed``, ``seed + 1``, …): it is shown by the
    first run that answered, else by the one that came closest (lowest best energy).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import NdokuError
from ndoku.limits import (
    DEFAULT_LIMIT,
    DEFAULT_MAX_NODES,
    DEFAULT_MAX_PROPOSALS,
    DEFAULT_TIMEOUT,
    check_count,
    check_timeout,
)
from ndoku.model.puzzle import Puzzle
from ndoku.solvers.chains import (
    DEFAULT_EXCHANGE_EVERY,
    ChainResult,
    ClimbResult,
    Restarts,
    Schedule,
    TemperingResult,
    default_moves,
    hillclimb,
    metropolis,
    tempering,
)
from ndoku.solvers.chains.hybrid import HYBRID_NODES, search_first
from ndoku.solvers.chains.watch import Watch
from ndoku.solvers.exact import ExactResult, solve_batch
from ndoku.solvers.study import DEFAULT_BRANCHING, DEFAULT_PROPAGATION, search_study
from ndoku.tasks.display import outcome_html, outcome_svg
from ndoku.tasks.verify import verify, verify_all
from ndoku.text.words import plural

IntArray = NDArray[np.int32]

METHODS = ("auto", "exact", "metropolis", "hybrid", "tempering", "hillclimb")
#: The methods that search exactly (with ndoku's solver, or the teaching search).
EXACT_METHODS = ("auto", "exact")
#: The methods that run a Monte-Carlo chain (and can be traced).
CHAIN_METHODS = ("metropolis", "hybrid", "tempering")
#: Settings of a chain: given to hybrid, they skip its search.
_CHAIN = ("moves", "temperature", "schedule", "trace_every", "restarts")
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
        A verified solution when ``answered``; for a chain that stopped early, the best
        state it reached; else None.
    result : ExactResult or ChainResult or None
        What the method did, with its own figures (nodes, guesses, …; seed, proposals, …);
        none when the worker died (``error``), no proposals when pruning stopped a chain.
    pruned : bool
        The chain was pruned first (hybrid, and tempering unless told not to).
    trace : ndarray of float64 or None
        A chain's trace (``TRACE_COLUMNS`` of the chains) when one was asked for.
    search : tuple of str or None
        The propagation and branching of a teaching search; None for ndoku's own.
    error : str or None
        Why there is no result (``error``).
    """

    puzzle: Puzzle
    method: str
    status: str
    values: IntArray | None
    seconds: float
    result: ExactResult | ChainResult | None
    pruned: bool = False
    trace: NDArray[np.float64] | None = None
    search: tuple[str, str] | None = None
    error: str | None = None
    #: How IPython shows an outcome (:mod:`.display`): drawn, or why it has no plain answer.
    _repr_svg_, _repr_html_ = outcome_svg, outcome_html

    @classmethod
    def lost(cls, puzzle: Puzzle, method: str, error: Exception) -> Outcome:
        """The ``error`` outcome of a puzzle whose worker process died (``error``: why)."""
        return cls(puzzle, method, "error", None, 0.0, None, error=str(error))

    @property
    def answered(self) -> bool:
        """True when ``values`` is a verified solution."""
        return self.status in ANSWERED

    def shown(self, unique: bool = False) -> bool:
        """True when the solution is given out: answered, and when ``unique`` asks for the
        only solution, not one of several."""
        return self.answered and not (unique and self.status == "multiple")

    def record(self, unique: bool = False) -> dict[str, object]:
        """The outcome as a JSON object: status, solution (None when not shown), method,
        seconds, then the method's figures in the order they are reported.

        Examples
        --------
        >>> from ndoku.model.puzzle import read_puzzles
        >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
        >>> list(solve(p).record())[4:]
        ['count', 'unique', 'nodes', 'guesses', 'propagated', 'stop']
        """
        solution = (
            self.puzzle.text(self.values, rules=False).rstrip("\n") if self.shown(unique) else None
        )
        record: dict[str, object] = {"status": self.status, "solution": solution}
        record |= {"method": self.method, "seconds": round(self.seconds, 6)}
        if self.search is not None:
            record |= {"propagation": self.search[0], "branching": self.search[1]}
        result = self.result
        if result is None:
            return record | {"error": self.error}
        if isinstance(result, ExactResult):
            record |= {"count": result.count, "unique": result.unique, "nodes": result.nodes}
            record |= {"guesses": result.guesses, "propagated": result.propagated}
            return record | {"stop": result.stop}
        if self.pruned:
            record["forced"] = result.forced
        if result.stop == "propagation":  # pruning proved there is no solution: no chain ran
            return record | {"stop": result.stop}
        record |= {"seed": result.seed, "moves": result.moves, "schedule": result.schedule}
        record |= {"temperature": result.temperature, "proposals": result.proposals}
        record["acceptances"] = result.acceptances
        record["acceptance_rate"] = round(result.acceptances / max(result.proposals, 1), 6)
        per_second = round(result.proposals / result.seconds) if result.seconds else 0
        record["proposals_per_second"] = per_second
        record |= {"energy": result.energy, "best_energy": result.best_energy}
        record |= {"best_at": result.best_at, "stop": result.stop, "restarts": result.restarts}
        if isinstance(result, TemperingResult):
            record["ladder"] = [round(t, 6) for t in result.ladder]
            # None (JSON null) for a pair of rungs that never tried an exchange
            rates = result.exchange_rates
            record["exchange_rates"] = [None if math.isnan(r) else round(r, 4) for r in rates]
        if isinstance(result, ClimbResult):
            record["plateau"] = result.plateau
        return record

    def message(self, unique: bool = False) -> str | None:
        """Why the puzzle has no answer to give out, or that its answer is not the only one;
        None for a solved puzzle."""
        result = self.result
        if self.status == "solved":
            return None
        if result is None:
            return f"error: {self.error}"
        if self.status == "none":
            if self.puzzle.candidates is not None:
                return "no solution within the pencil marks (proved)"
            return "no solution: the givens contradict each other (proved)"
        if isinstance(result, ExactResult):
            if self.status == "multiple":
                shown = self.shown(unique)
                what = "the first one found is printed" if shown else "refused by --unique"
                return f"more than one solution ({result.count} found before stopping): {what}"
            reason = "node limit (--max-nodes)" if result.stop == "nodes" else "timeout"
            nodes = plural(result.nodes, "node", ",")
            return f"no answer yet: the exact search hit the {reason} after {nodes}"
        stops = {"timeout": "the timeout", "max-proposals": "the proposal limit"}
        stops["stopped"] = "the one who watched it"
        reason = stops.get(result.stop, result.stop)
        return (
            f"unsolved: stopped by {reason} after {plural(result.proposals, 'proposal', ',')}; "
            f"best energy {result.best_energy} (0 is solved). Try another --seed, a longer "
            "--timeout, --method auto, or --pretty to see the conflicts."
        )

    def drawn(self, unique: bool = False) -> IntArray | None:
        """The values a drawing shows: the solution when shown, the best state an unsolved
        chain reached (its conflicts are what is left to solve), else None (the givens)."""
        if self.shown(unique) or self.status == "unsolved":
            return self.values
        return None

    def caption(self, unique: bool = False) -> str:
        """The line under a drawing (see :meth:`drawn`): how the puzzle was solved, or why not.

        >>> from ndoku.model.puzzle import read_puzzles
        >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
        >>> solve(p).caption().split(": ")[1]
        'unique, 1 node, 0 guesses'
        """
        result = self.result
        if self.status == "unsolved" and isinstance(result, ChainResult):
            return f"best grid reached (energy {result.best_energy}), conflicts in red"
        if not self.shown(unique):
            return f"{self.status}: the givens are shown"
        if isinstance(result, ChainResult):
            proposals = plural(result.proposals, "proposal", ",")
            seeded = f"seed {result.seed}, T = {result.temperature:g}"
            return f"solved by {self.method} in {self.seconds:.3f} s: {proposals}, {seeded}"
        assert result is not None  # shown: solved
        proof = {True: "unique", False: "not unique", None: "uniqueness not checked"}
        return (
            f"solved by {self.method} in {self.seconds * 1000:.2f} ms: {proof[result.unique]}, "
            f"{plural(result.nodes, 'node', ',')}, {plural(result.guesses, 'guess', ',')}"
        )


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
    propagation: str = DEFAULT_PROPAGATION  # exact methods, with branching: ndoku's own
    branching: str = DEFAULT_BRANCHING  # search, any other pair the teaching search
    plateau: int | None = None  # hillclimb: None is its default
    restarts: Restarts | None = None  # metropolis, hybrid, tempering: None is their default
    threads: int = 1  # exact methods: one puzzle's search is split over this many threads
    watch: Watch | None = None  # metropolis, hybrid's chain, tempering: shown as they run

    @property
    def teaching(self) -> bool:
        """True when the exact methods run the teaching search, not ndoku's own solver."""
        return (self.propagation, self.branching) != (DEFAULT_PROPAGATION, DEFAULT_BRANCHING)

    def __post_init__(self) -> None:
        """Refuse limits no method can run with, before any work (:mod:`ndoku.limits`).

        >>> Options(max_nodes=10**30)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ndoku.errors.NdokuError: max nodes must be a whole number from 1 to 10¹⁸, got a number ...
        """
        check_timeout(self.timeout)
        check_count(self.seed, "seed")
        check_count(self.max_proposals, "max proposals")
        check_count(self.limit, "the solution limit", 1)
        check_count(self.max_nodes, "max nodes", 1)
        check_count(self.trace_every, "trace_every")
        check_count(self.threads, "threads", 1)
        if self.exchange_every is not None:
            check_count(self.exchange_every, "exchange interval", 1)


def solve(puzzle: Puzzle, method: str = "auto", options: Options | None = None) -> Outcome:
    """Solve ``puzzle`` with ``method``; an answered outcome has passed verification.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> outcome = solve(p)
    >>> outcome.status, outcome.result.unique, p.text(outcome.values).splitlines()[0]
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
    if options.teaching and method not in EXACT_METHODS:
        raise NdokuError(
            f"a propagation and branching choose the exact search: {method} takes neither"
        )
    if options.watch is not None and method not in CHAIN_METHODS:
        raise NdokuError(f"only a Metropolis chain or a tempering run is watched, not {method}")
    if options.plateau is not None and method != "hillclimb":
        raise NdokuError(f"a plateau ends a climb of the hillclimb method: {method} has none")
    if options.restarts is not None and method not in CHAIN_METHODS:
        raise NdokuError(
            f"restarts start a chain again: {method} has none (hillclimb restarts by --plateau)"
        )
    if method in EXACT_METHODS:
        results = solve_exact_all(puzzles, options, jobs=jobs, progress=progress)
        search = (options.propagation, options.branching) if options.teaching else None
        return [
            Outcome(p, method, r.status, r.values, r.seconds, r, search=search)
            for p, r in zip(puzzles, results, strict=True)
        ]
    outcomes = []
    for done, puzzle in enumerate(puzzles, start=1):
        outcomes.append(_chain_outcome(puzzle, method, options))
        if progress is not None:
            progress(done)
    return outcomes


def solve_exact_all(
    puzzles: Sequence[Puzzle],
    options: Options | None = None,
    *,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[ExactResult]:
    """The exact search of many puzzles, in few kernel calls, every solution verified.

    ``options`` gives the search its limit of solutions, nodes and seconds; ``jobs`` and
    ``progress`` are those of :func:`solve_all`.
    """
    options = options or Options()
    if options.teaching:  # one puzzle at a time: a study, not a batch solver
        results = []
        for done, puzzle in enumerate(puzzles, start=1):
            results.append(_teaching_search(puzzle, options))
            if progress is not None:
                progress(done)
    else:
        results = solve_batch(
            puzzles,
            limit=options.limit,
            max_nodes=options.max_nodes,
            timeout=options.timeout,
            jobs=jobs,
            threads=options.threads,
            progress=progress,
        )
    verify_all(puzzles, [r.values for r in results])
    return results


def _teaching_search(puzzle: Puzzle, options: Options) -> ExactResult:
    return search_study(
        puzzle,
        options.propagation,
        options.branching,
        limit=options.limit,
        max_nodes=options.max_nodes,
        timeout=options.timeout,
    )


def _chain_outcome(puzzle: Puzzle, method: str, options: Options) -> Outcome:
    prune = method == "hybrid" or (method == "tempering" and options.prune)
    _check_chain(puzzle, method, options, prune)
    searched = 0.0  # hybrid searches first, unless a setting asks to study its chain alone
    if method == "hybrid" and all(getattr(options, n) == getattr(Options(), n) for n in _CHAIN):
        start = time.perf_counter()
        found = search_first(puzzle, seed=options.seed, timeout=options.timeout,
                             max_nodes=min(HYBRID_NODES, options.max_nodes))  # fmt: skip
        searched = time.perf_counter() - start
        if isinstance(found, ExactResult):  # proved: no solution
            return Outcome(puzzle, method, "none", None, searched, found)
        if found is not None:
            verify(puzzle, found.values)
            return Outcome(puzzle, method, "solved", found.values, searched, found, pruned=True)
        options = replace(options, timeout=max(options.timeout - searched, 0.001))
    chain = _run_chain(puzzle, method, options, prune)
    if chain.stop == "propagation":  # pruning proved that there is no solution
        return Outcome(puzzle, method, "none", None, 0.0, chain, prune)
    if chain.solved:
        verify(puzzle, chain.values)
    return Outcome(
        puzzle,
        method,
        "solved" if chain.solved else "unsolved",
        chain.values if chain.solved else chain.best_values,
        searched + chain.seconds,
        chain,
        prune,
        chain.trace if options.trace_every else None,
    )


def _check_chain(puzzle: Puzzle, method: str, options: Options, prune: bool) -> None:
    """Refuse settings the chain method cannot take, before any work."""
    if puzzle.candidates is not None and not prune:
        raise NdokuError(
            f"{method} without pruning does not see pencil marks: solve a pencil-marked puzzle "
            "with --method auto, exact, hybrid or tempering"
        )
    if not options.prune and method != "tempering":
        raise NdokuError(
            "only tempering can leave pruning out: metropolis never prunes, hybrid always does"
        )
    if method == "tempering":
        if options.moves != "box" or options.schedule is not None:
            raise NdokuError("tempering runs box swaps on a ladder: it takes no moves or schedule")
        if options.ladder is None and options.temperature is not None:
            raise NdokuError("tempering takes a ladder of temperatures, not one temperature")
        return
    if options.ladder is not None or options.replicas is not None or options.exchange_every:
        raise NdokuError("a ladder, replicas or exchanges need the tempering method")
    if method == "hillclimb" and (
        options.moves != "box" or options.schedule is not None or options.temperature is not None
    ):
        raise NdokuError(
            "hill climbing swaps within boxes at T = 0: it takes no moves, schedule or temperature"
        )


def _run_chain(puzzle: Puzzle, method: str, options: Options, prune: bool) -> ChainResult:
    if method == "tempering":
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
            restarts=options.restarts,
            watch=options.watch,
        )
    if method == "hillclimb":
        return hillclimb(puzzle, plateau=options.plateau, seed=options.seed,
                         max_proposals=options.max_proposals, timeout=options.timeout)  # fmt: skip
    return metropolis(
        puzzle,
        temperature=options.temperature,
        seed=options.seed,
        max_proposals=options.max_proposals,
        timeout=options.timeout,
        moves=default_moves(puzzle) if options.moves == "box" else options.moves,
        schedule=options.schedule,
        trace_every=options.trace_every,
        prune=prune,
        restarts=options.restarts,
        watch=options.watch,
    )
