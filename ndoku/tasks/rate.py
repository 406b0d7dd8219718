"""Difficulty of a puzzle: the logic path's level and score, with the search and chains beside.

Glossary (terms of :mod:`ndoku.solvers.logic` aside)
--------
path
    The logic engine's solving path: the easiest technique that applies, again and again
    (:func:`ndoku.solvers.logic.solve_path`). It is given the solution the exact search
    proved, so it always ends: where no technique applies it guesses (level ``search``).
level
    What the path needs: the most advanced of :data:`LEVELS` (``singles``, ``intersections``,
    ``subsets``, ``fish``, ``wings``, ``chains``, ``forcing chains``, ``search``)
    among its steps' techniques (:data:`LEVEL_OF`).
score
    The rating of the path's hardest step, on the scale of Sukaku Explainer's 9×9 ratings
    (singles up to 2.3, forcing chains 6.6 and up, a guess 10); 0 when nothing is left to solve.
lower bound
    A path the timeout stopped: its level and score are those of the steps it took, and the
    whole path may need more.
guesses
    ``cell = value`` branches the exact solver tried while solving and proving uniqueness
    (see :mod:`ndoku.solvers.exact`): a second measure, of search rather than of technique.
chain opinion
    Proposals the Metropolis chain needs to solve the puzzle, median over a few seeds: a
    third, independent measure.

:func:`singles` is a fast test of the ``singles`` level: a kernel that places naked and
hidden singles in rounds, for the generator, which asks it of every removal it tries.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import NdokuError
from ndoku.jit import compile_notice, kernel
from ndoku.limits import DEFAULT_TIMEOUT, RATE_CHAIN_TIMEOUT, RATE_MAX_PROPOSALS
from ndoku.model.puzzle import Puzzle
from ndoku.solvers.chains.metropolis import metropolis
from ndoku.solvers.exact import solve_exact
from ndoku.solvers.logic import LEVEL_OF, LEVELS, solve_path
from ndoku.tasks.display import rating_html
from ndoku.text.words import plural

IntArray = NDArray[np.int32]

__all__ = ["LEVELS", "LEVEL_OF", "Rating", "rate", "ratings_summary", "singles"]

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@kernel(refcounts=True)
def _singles(
    givens: IntArray,
    unit_ptr: IntArray,
    unit_cells: IntArray,
    peer_ptr: IntArray,
    peers: IntArray,
    size: int,
) -> bool:
    """Place naked and hidden singles in rounds until none is left: whether they fill every
    cell (False when they get stuck, or reach a contradiction)."""
    n = len(givens)
    full = _ONE << np.uint64(size - 1)
    full |= full - _ONE
    cand = np.full(n, full, dtype=np.uint64)
    marks = np.zeros(n, dtype=np.uint64)
    values = givens.copy()
    for c in range(n):
        if givens[c] > 0:
            bit = _ONE << np.uint64(givens[c] - 1)
            cand[c] = bit
            for k in range(peer_ptr[c], peer_ptr[c + 1]):
                if givens[peers[k]] == 0:
                    cand[peers[k]] &= ~bit
    while True:
        found = False
        for c in range(n):
            marks[c] = _ZERO
            if values[c] == 0:
                m = cand[c]
                if m == _ZERO:
                    return False
                if m & (m - _ONE) == _ZERO:
                    marks[c] = m
                    found = True
        for u in range(len(unit_ptr) - 1):
            once = _ZERO
            twice = _ZERO
            fixed = _ZERO
            for k in range(unit_ptr[u], unit_ptr[u + 1]):
                c = unit_cells[k]
                m = cand[c]
                if values[c] > 0:
                    fixed |= m
                else:
                    twice |= once & m
                    once |= m
            if (once | fixed) != full:
                return False
            alone = once & ~twice & ~fixed
            if alone == _ZERO:
                continue
            for k in range(unit_ptr[u], unit_ptr[u + 1]):
                c = unit_cells[k]
                m = cand[c] & alone
                if values[c] > 0 or m == _ZERO:
                    continue
                # one cell the only place of two symbols, or of two different ones
                if m & (m - _ONE) != _ZERO or (marks[c] != _ZERO and marks[c] != m):
                    return False
                if marks[c] == _ZERO:
                    marks[c] = m
                    found = True
        if not found:
            break
        for c in range(n):
            m = marks[c]
            if m == _ZERO:
                continue
            v = 1
            while m >> np.uint64(v) != _ZERO:
                v += 1
            values[c] = v
            cand[c] = m
            for k in range(peer_ptr[c], peer_ptr[c + 1]):
                p = peers[k]
                if values[p] == v:  # two singles of one round put v twice in a unit
                    return False
                if values[p] == 0:
                    cand[p] &= ~m
    return not (values == 0).any()


def singles(puzzle: Puzzle, givens: IntArray | None = None) -> bool:
    """Whether naked and hidden singles alone solve the puzzle: for a puzzle with one
    solution, whether its path's level is ``singles`` (much faster than the path).

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> text = "200080300060070084030500209000105408000000000402706000301007040720040060004010003"
    >>> [p] = read_puzzles(text=text)  # Project Euler 96, grid 2
    >>> singles(p), singles(p, np.zeros(81, dtype=np.int32))
    (True, False)
    """
    fixed = puzzle.givens if givens is None else givens
    peer_ptr, peers = puzzle.peers
    arguments = (
        np.ascontiguousarray(fixed, dtype=np.int32),
        puzzle.units.ptr,
        puzzle.units.cells,
        peer_ptr,
        peers,
        puzzle.size,
    )
    compile_notice("the singles of the rating", 3, _singles, arguments)
    return bool(_singles(*arguments))


@dataclass(frozen=True, eq=False)
class Rating:
    """The difficulty of one puzzle (see the module glossary).

    Attributes
    ----------
    status : str
        ``unique`` (rated), else ``multiple``, ``none`` or ``limit`` (the exact search did not
        finish): such puzzles get no path, level or score.
    level : str or None
        What the path needs (a lower bound when ``path`` is not ``solved``).
    score : float or None
        The hardest step's rating (a lower bound likewise).
    hardest : str or None
        The hardest step's technique (None for a path without steps).
    path : str or None
        How the path stopped: ``solved``, or ``timeout`` (see :class:`~ndoku.solvers.logic.Path`).
    steps : int
        Steps the path took.
    counts : dict of str to int
        How often the path used each technique, in the order of first use.
    nodes, guesses : int
        The exact solver's search, proving uniqueness included.
    proposals : int or None
        The chain opinion: the median (the higher one for an even number) of the proposals
        the chains needed, a chain that stopped unsolved counting as longer than any solved
        one; None when no chain ran.
    at_least : bool
        True when that median chain stopped unsolved: ``proposals`` is then a lower bound.
    chains, chains_solved : int
    values : ndarray of int32 or None
        The solution, for a unique puzzle (not verified here).
    seconds : float
        The time the rating took.
    """

    status: str
    nodes: int
    guesses: int
    level: str | None = None
    score: float | None = None
    hardest: str | None = None
    path: str | None = None
    steps: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    proposals: int | None = None
    at_least: bool = False
    chains: int = 0
    chains_solved: int = 0
    values: IntArray | None = None
    seconds: float = 0.0

    #: How IPython shows a rating: its figures and techniques as HTML (:mod:`.display`).
    _repr_html_ = rating_html

    @property
    def lower_bound(self) -> bool:
        """Whether the path stopped before the end: ``level`` and ``score`` are then lower
        bounds."""
        return self.path is not None and self.path != "solved"

    def record(self) -> dict[str, object]:
        """The figures as a JSON-ready dict (``values`` left out; ``counts`` as
        ``techniques``)."""
        return {
            "status": self.status,
            "level": self.level,
            "score": None if self.score is None else round(self.score, 2),
            "hardest": self.hardest,
            "path": self.path,
            "steps": self.steps,
            "techniques": self.counts,
            "nodes": self.nodes,
            "guesses": self.guesses,
            "proposals": self.proposals,
            "at_least": self.at_least,
            "chains": self.chains,
            "chains_solved": self.chains_solved,
        }

    def headline(self) -> str:
        """The level and what it rests on: ``chains (hardest X-chain, 6.6)``, ``≥forcing chains
        (the path hit the timeout)``, ``not rated (no solution)``.

        >>> from ndoku.model.puzzle import read_puzzles
        >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
        >>> rate(p).headline()  # doctest: +ELLIPSIS
        'singles (hardest hidden single, ...)'
        """
        if self.level is None:
            return f"not rated ({self._unrated()})"
        if self.lower_bound:
            return f"≥{self.level} (the path hit the timeout)"
        if self.hardest is None:
            return f"{self.level} (nothing to solve)"
        return f"{self.level} (hardest {self.hardest}, {self.score:.1f})"

    def text(self) -> str:
        """One line: level, score, hardest technique, the path's technique counts, then the
        search and the chain opinion.

        >>> from ndoku.model.puzzle import read_puzzles
        >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
        >>> rate(p).text().split("; ")[1:]
        ['12 steps: hidden single ×4, full house ×8', 'search 0 guesses, 1 node']
        """
        if self.level is None or self.score is None:
            return f"not rated: {self._unrated()}"
        bound = "≥" if self.lower_bound else ""
        counts = ", ".join(f"{name} ×{k}" for name, k in self.counts.items())
        path = plural(self.steps, "step") + (" before the timeout" if self.lower_bound else "")
        nodes, guesses = plural(self.nodes, "node", ","), plural(self.guesses, "guess", ",")
        line = (
            f"{bound + self.level:<15} {bound + format(self.score, '.1f'):>5}  "
            f"{self.hardest or 'nothing to solve'}; {path}{': ' + counts if counts else ''}; "
            f"search {guesses}, {nodes}"
        )
        if self.chains and self.proposals is not None:
            at_least = "≥" if self.at_least else ""
            proposals = plural(self.proposals, "proposal", ",")
            line += f"; chains {at_least}{proposals} ({self.chains_solved}/{self.chains} solved)"
        return line

    def _unrated(self) -> str:
        return {
            "multiple": "more than one solution",
            "none": "no solution",
            "limit": "the exact search hit the timeout",
        }[self.status]


def ratings_summary(ratings: Sequence[Rating]) -> str:
    """``50 puzzles: 40 singles, 6 intersections, 4 subsets; median score 1.5``: the levels
    found (in :data:`LEVELS` order), then the paths the timeout cut short and the puzzles that
    could not be rated; the median is over whole paths."""
    whole = [r for r in ratings if r.level is not None and not r.lower_bound]
    levels = [r.level for r in whole]
    parts = [f"{levels.count(level)} {level}" for level in LEVELS if level in levels]
    cut = sum(r.lower_bound for r in ratings)
    parts += [f"{cut} cut short by the timeout"] if cut else []
    unrated = sum(r.level is None for r in ratings)
    parts += [f"{unrated} not rated"] if unrated else []
    scores = sorted(r.score for r in whole if r.score is not None)
    median = f"; median score {scores[len(scores) // 2]:.1f}" if scores else ""
    return f"{plural(len(ratings), 'puzzle')}: {', '.join(parts)}{median}"


def rate(
    puzzle: Puzzle,
    givens: IntArray | None = None,
    *,
    chains: int = 0,
    max_proposals: int = RATE_MAX_PROPOSALS,
    timeout: float = DEFAULT_TIMEOUT,
    path_timeout: float | None = None,
    assume_unique: bool = False,
    proofs_after: int = 0,
) -> Rating:
    """Rate a puzzle: the exact search proves it has one solution, the logic path (given that
    solution) rates it, and optionally chains give their opinion.

    Parameters
    ----------
    puzzle : Puzzle
    givens : ndarray, optional
        ``(cells,)`` givens to rate instead of the puzzle's.
    chains : int
        Metropolis chains (seeds ``0 .. chains-1``) for the second opinion; 0 runs none (and
        must, for a pencil-marked puzzle: the chains do not see the marks).
    max_proposals : int
        Proposals each chain may run.
    timeout : float
        Seconds for the exact search, for the path and (at most ``RATE_CHAIN_TIMEOUT``) for
        each chain.
    path_timeout : float, optional
        Seconds for the path instead (when it runs out, level and score are lower bounds).
    assume_unique : bool
        Let the path use the uniqueness techniques (sound: only a puzzle the search proved
        unique gets a path).
    proofs_after : int
        Searches like this one's proof the caller makes after it: the path stops in time for
        them (within its timeout).

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> text = "200080300060070084030500209000105408000000000402706000301007040720040060004010003"
    >>> [p] = read_puzzles(text=text)
    >>> r = rate(p, chains=2)
    >>> r.level, r.hardest, r.path, r.guesses, r.chains_solved
    ('singles', 'hidden single', 'solved', 0, 2)
    >>> rate(p, np.zeros(81, dtype=np.int32)).status
    'multiple'
    """
    if puzzle.candidates is not None and chains > 0:
        raise NdokuError(
            "the chains of the second opinion do not see pencil marks: rate a pencil-marked "
            "puzzle without them (chains=0, --chains 0)"
        )
    start = time.perf_counter()
    fixed = puzzle.givens if givens is None else givens
    exact = solve_exact(puzzle, givens=fixed, timeout=timeout)
    path_seconds = timeout if path_timeout is None else path_timeout
    path_seconds = max(path_seconds - proofs_after * exact.seconds, 0.001)
    status = {"solved": "unique" if exact.unique else "limit"}.get(exact.status, exact.status)
    if status != "unique":
        return Rating(status, exact.nodes, exact.guesses, seconds=time.perf_counter() - start)
    path = solve_path(
        puzzle,
        values=np.asarray(fixed, dtype=np.int32),
        solution=exact.values,
        timeout=path_seconds,
        assume_unique=assume_unique,
    )
    hardest = path.hardest
    proposals: int | None = None
    at_least = False
    solved = 0
    if chains > 0:
        runs = [
            metropolis(
                puzzle,
                seed=seed,
                max_proposals=max_proposals,
                timeout=min(timeout, RATE_CHAIN_TIMEOUT),
                givens=fixed,
            )
            for seed in range(chains)
        ]
        middle = sorted(runs, key=lambda run: (not run.solved, run.proposals))[chains // 2]
        proposals, at_least = middle.proposals, not middle.solved
        solved = sum(run.solved for run in runs)
    return Rating(
        status,
        exact.nodes,
        exact.guesses,
        level=path.level,
        score=0.0 if hardest is None else hardest.rating,
        hardest=None if hardest is None else hardest.technique,
        path=path.stop,
        steps=len(path.steps),
        counts=dict(path.counts()),
        proposals=proposals,
        at_least=at_least,
        chains=chains,
        chains_solved=solved,
        values=exact.values,
        seconds=time.perf_counter() - start,
    )
