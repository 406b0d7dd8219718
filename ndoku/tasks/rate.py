"""Difficulty of a puzzle: what it takes to solve it, from singles to a long search.

Glossary
--------
naked single
    A free cell with one candidate left (every other symbol is in a peer).
hidden single
    A symbol that only one free cell of a unit can still take.
round
    One pass of the rating propagator: every single found in the current grid is placed at
    once, then the candidates are updated. Rounds count how deep the chain of deductions is.
guesses
    ``cell = value`` branches the exact solver tried while solving and proving uniqueness
    (see :mod:`ndoku.solvers.exact`): the search a puzzle needs beyond propagation.
level
    ``easy`` (naked singles alone solve it), ``medium`` (hidden singles are needed too),
    ``hard`` (singles are not enough: the exact solver guesses at most ``EXPERT_GUESSES``
    times, or its locked candidates finish the job) or ``expert`` (more guesses).
score
    One number that orders puzzles: 0 for easy, 1 for medium, ``2 + log2(1 + guesses)``
    beyond (so 5.46 is the hard/expert border).
chain opinion
    Proposals the Metropolis chain needs to solve the puzzle, median over a few seeds: a
    second, independent measure (reported, not used for the level).

The rating propagator below is deliberately separate from the exact solver: it applies only
the techniques a level names, in rounds, so that "solved by naked singles" means exactly that.
The levels are calibrated on published 9×9 collections (see the README, "Generating and
rating puzzles"); the same thresholds apply to every layout.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import NdokuError
from ndoku.jit import compile_notice, kernel
from ndoku.limits import DEFAULT_TIMEOUT, RATE_CHAIN_TIMEOUT, RATE_MAX_PROPOSALS
from ndoku.model.puzzle import Puzzle
from ndoku.solvers.bits import copy
from ndoku.solvers.chains.metropolis import metropolis
from ndoku.solvers.exact import solve_exact

IntArray = NDArray[np.int32]

LEVELS = ("easy", "medium", "hard", "expert")
#: More guesses than this make a puzzle ``expert`` (calibrated on the 9×9 collections).
EXPERT_GUESSES = 10

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
# Kernel outcomes.
_STUCK, _SOLVED, _CONTRADICTION = 0, 1, -1


@kernel(refcounts=True)
def _singles(
    givens: IntArray,
    unit_ptr: IntArray,
    unit_cells: IntArray,
    peer_ptr: IntArray,
    peers: IntArray,
    size: int,
    hidden: bool,
    values: IntArray,
) -> tuple[int, int]:
    """Place singles in rounds until none is left: (outcome, rounds).

    ``values`` receives the givens plus every placed cell. Naked singles only, or naked and
    hidden singles when ``hidden`` is True.
    """
    n = len(givens)
    full = _ONE << np.uint64(size - 1)
    full |= full - _ONE
    cand = np.full(n, full, dtype=np.uint64)
    marks = np.zeros(n, dtype=np.uint64)
    copy(givens, values)
    for c in range(n):
        if givens[c] > 0:
            bit = _ONE << np.uint64(givens[c] - 1)
            cand[c] = bit
            for k in range(peer_ptr[c], peer_ptr[c + 1]):
                if givens[peers[k]] == 0:
                    cand[peers[k]] &= ~bit
    rounds = 0
    while True:
        found = False
        for c in range(n):
            marks[c] = _ZERO
            if values[c] == 0:
                m = cand[c]
                if m == _ZERO:
                    return _CONTRADICTION, rounds
                if m & (m - _ONE) == _ZERO:
                    marks[c] = m
                    found = True
        if hidden:
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
                    return _CONTRADICTION, rounds
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
                        return _CONTRADICTION, rounds
                    if marks[c] == _ZERO:
                        marks[c] = m
                        found = True
        if not found:
            break
        rounds += 1
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
                    return _CONTRADICTION, rounds
                if values[p] == 0:
                    cand[p] &= ~m
    for c in range(n):
        if values[c] == 0:
            return _STUCK, rounds
    return _SOLVED, rounds


@dataclass(frozen=True)
class Singles:
    """What the rating propagator did: solved, stuck on a contradiction, rounds it took."""

    solved: bool
    contradiction: bool
    rounds: int


def singles(puzzle: Puzzle, givens: IntArray | None = None, *, hidden: bool = True) -> Singles:
    """Apply naked singles (and hidden singles unless ``hidden`` is False) in rounds.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> text = "200080300060070084030500209000105408000000000402706000301007040720040060004010003"
    >>> [p] = read_puzzles(text=text)  # Project Euler 96, grid 2
    >>> singles(p, hidden=False).solved, singles(p).solved
    (False, True)
    """
    fixed = puzzle.givens if givens is None else givens
    peer_ptr, peers = puzzle.peers
    values = np.zeros(puzzle.n_cells, dtype=np.int32)
    arguments = (
        np.ascontiguousarray(fixed, dtype=np.int32),
        puzzle.units.ptr,
        puzzle.units.cells,
        peer_ptr,
        peers,
        puzzle.size,
        hidden,
        values,
    )
    compile_notice("the singles of the rating", 1, _singles, arguments)
    outcome, rounds = _singles(*arguments)
    return Singles(outcome == _SOLVED, outcome == _CONTRADICTION, rounds)


@dataclass(frozen=True, eq=False)
class Rating:
    """The difficulty of one puzzle (see the module glossary).

    Attributes
    ----------
    status : str
        ``unique`` (rated), else ``multiple``, ``none`` or ``limit`` (the exact search did not
        finish): such puzzles get no level or score.
    level : str or None
    score : float or None
    rounds : int
        Rounds of singles: with naked singles only for an easy puzzle, with both otherwise
        (up to where they get stuck).
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
    """

    status: str
    level: str | None
    score: float | None
    rounds: int
    nodes: int
    guesses: int
    proposals: int | None
    at_least: bool
    chains: int
    chains_solved: int
    values: IntArray | None

    def record(self) -> dict[str, object]:
        """The figures as a JSON-ready dict (``values`` left out)."""
        return {
            "status": self.status,
            "level": self.level,
            "score": None if self.score is None else round(self.score, 2),
            "rounds": self.rounds,
            "nodes": self.nodes,
            "guesses": self.guesses,
            "proposals": self.proposals,
            "at_least": self.at_least,
            "chains": self.chains,
            "chains_solved": self.chains_solved,
        }

    def text(self) -> str:
        """``hard    3.58  2 guesses, 5 nodes; chains 1,234,567 proposals (3/3 solved)``.

        >>> from ndoku.model.puzzle import read_puzzles
        >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
        >>> rate(p).text()
        'easy     0.00  naked singles, 2 rounds'
        """
        if self.level is None or self.score is None:
            why = {
                "multiple": "more than one solution",
                "none": "no solution",
                "limit": "the exact search hit the timeout",
            }[self.status]
            return f"not rated: {why}"
        if self.level == "easy":
            how = f"naked singles, {self.rounds} rounds"
        elif self.level == "medium":
            how = f"naked and hidden singles, {self.rounds} rounds"
        else:
            guesses = f"{self.guesses:,} guess" + ("" if self.guesses == 1 else "es")
            how = f"{guesses}, {self.nodes:,} nodes"
        line = f"{self.level:<7} {self.score:5.2f}  {how}"
        if self.chains and self.proposals is not None:
            bound = "≥" if self.at_least else ""
            line += (
                f"; chains {bound}{self.proposals:,} proposals ({self.chains_solved}/"
                f"{self.chains} solved)"
            )
        return line


def ratings_summary(ratings: Sequence[Rating]) -> str:
    """``50 puzzles: 12 easy, 30 medium, 8 hard, 0 expert; median score 1.00``, with the
    puzzles that could not be rated counted as ``not rated``."""
    levels = [r.level for r in ratings]
    parts = [f"{levels.count(level)} {level}" for level in LEVELS]
    unrated = levels.count(None)
    parts += [f"{unrated} not rated"] if unrated else []
    scores = sorted(r.score for r in ratings if r.score is not None)
    median = f"; median score {scores[len(scores) // 2]:.2f}" if scores else ""
    return f"{len(ratings)} puzzles: {', '.join(parts)}{median}"


def level_of(naked: bool, hidden: bool, guesses: int) -> str:
    """The level from what solves the puzzle.

    >>> level_of(True, True, 0), level_of(False, True, 0), level_of(False, False, 3)
    ('easy', 'medium', 'hard')
    >>> level_of(False, False, EXPERT_GUESSES + 1)
    'expert'
    """
    if naked:
        return "easy"
    if hidden:
        return "medium"
    return "hard" if guesses <= EXPERT_GUESSES else "expert"


def score_of(naked: bool, hidden: bool, guesses: int) -> float:
    """0 (naked singles), 1 (hidden singles), else ``2 + log2(1 + guesses)``.

    >>> score_of(True, True, 0), score_of(False, False, 3)
    (0.0, 4.0)
    """
    if naked:
        return 0.0
    if hidden:
        return 1.0
    return 2.0 + math.log2(1 + guesses)


def rate(
    puzzle: Puzzle,
    givens: IntArray | None = None,
    *,
    chains: int = 0,
    max_proposals: int = RATE_MAX_PROPOSALS,
    timeout: float = DEFAULT_TIMEOUT,
) -> Rating:
    """Rate a puzzle: singles in rounds, the exact search, and optionally chains.

    Parameters
    ----------
    puzzle : Puzzle
    givens : ndarray, optional
        ``(cells,)`` givens to rate instead of the puzzle's.
    chains : int
        Metropolis chains (seeds ``0 .. chains-1``) for the second opinion; 0 runs none.
    max_proposals : int
        Proposals each chain may run.
    timeout : float
        Seconds for the exact search, and (at most ``RATE_CHAIN_TIMEOUT``) for each chain.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> text = "200080300060070084030500209000105408000000000402706000301007040720040060004010003"
    >>> [p] = read_puzzles(text=text)
    >>> r = rate(p, chains=2)
    >>> r.level, r.score, r.guesses, r.chains_solved
    ('medium', 1.0, 0, 2)
    >>> rate(p, np.zeros(81, dtype=np.int32)).status
    'multiple'
    """
    if puzzle.candidates is not None:
        raise NdokuError(
            "rating a pencil-marked puzzle is not supported: its singles and chains would not "
            "see the pencil marks (ndoku explain rates its path)"
        )
    fixed = puzzle.givens if givens is None else givens
    exact = solve_exact(puzzle, givens=fixed, timeout=timeout)
    status = {"solved": "unique" if exact.unique else "limit"}.get(exact.status, exact.status)
    if status != "unique":
        return Rating(status, None, None, 0, exact.nodes, exact.guesses, None, False, 0, 0, None)
    naked = singles(puzzle, fixed, hidden=False)
    both = naked if naked.solved else singles(puzzle, fixed)
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
        level_of(naked.solved, both.solved, exact.guesses),
        score_of(naked.solved, both.solved, exact.guesses),
        both.rounds,
        exact.nodes,
        exact.guesses,
        proposals,
        at_least,
        chains,
        solved,
        exact.values,
    )
