"""Taking givens away from a solution: while the puzzle stays unique, and toward an asked level
or technique.

Glossary (terms of :mod:`ndoku.tasks.generate` and :mod:`ndoku.tasks.rate` aside)
--------
removal
    The groups, in random order, each tried once; a group goes when the puzzle without it is
    still proved unique by the exact solver. A group that fails once fails for good: fewer
    givens never make a puzzle unique again. The checks run in batches: while most removals
    succeed, a batch tries longer and longer prefixes of the queue; once most fail, it tries
    groups side by side.
target
    The number of givens asked for; groups that would go below it are kept.
aim
    What a puzzle is asked to need (:class:`Aim`): a level (its path's level is that one), a
    technique (its path uses it), or both.
sequence
    The groups one removal took away, in its order. Every prefix of it leaves a unique puzzle
    (more givens than the unique end), and the level rises, by and large, along it: from
    ``singles`` (the solution) to the minimal puzzle's.
seek
    One attempt at an aim (:func:`seek`): the ``singles`` level is thinned by singles alone
    (:func:`~ndoku.tasks.rate.singles`); any other aim rates the end of a removal sequence,
    then bisects the sequence for a prefix the aim fits (toward easier prefixes when a rated
    puzzle is above the aim's level, harder ones when below), and the puzzle found is thinned
    further, one group at a time in the removal order, while the aim still fits it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ndoku.errors import NdokuError
from ndoku.jit import work_clock
from ndoku.limits import MAX_SECONDS, PROOF_SECONDS, seconds_left
from ndoku.model.puzzle import Puzzle
from ndoku.solvers.exact import solve_exact, solve_table
from ndoku.solvers.logic.uniqueness import STEP_NAMES
from ndoku.tasks.rate import LEVEL_OF, LEVELS, IntArray, Rating, rate, singles

#: A removal check that searches more nodes than this is counted as failed (the group stays).
#: Checks search without probing (``probe=False``): the 25×25 probes, which pay on a hard
#: minimal puzzle, made these thousands of small searches ten times dearer (minimal 25×25 of
#: seeds 1-3: 31-55 s with them, 4.5-6.7 s without, with as many givens: 275-279, 274-282).
CHECK_NODES = 2000
#: Largest batch of removal checks in one exact-solver call.
MAX_BATCH = 32
#: Near the deadline, a batch of checks shares the time left: each check gets at least this
#: many seconds, and the batch this share of the time, since each check may pass its own by
#: the few milliseconds the exact search runs between two looks at the clock.
CHECK_LEAST_SECONDS = 0.05
CHECK_SHARE = 0.75
#: Proofs a caller makes of thinning's result (its rating's, its read-back's), each repeating
#: the check that let the last group go: thinning leaves them their time before the deadline.
PROOFS = 2
#: The levels ``ndoku rate`` gave before they were named by what a path needs.
OLD_LEVELS = ("easy", "medium", "hard", "expert")


def _key(name: str) -> str:
    """A name as compared: case, hyphens, underscores and spacing aside."""
    return " ".join(name.lower().replace("-", " ").replace("_", " ").split())


@dataclass(frozen=True)
class Aim:
    """What a generated puzzle is asked to need.

    Attributes
    ----------
    level : str or None
        Its path's level must be this one of :data:`~ndoku.tasks.rate.LEVELS`.
    needs : str or None
        Its path must use this technique (a name of :data:`~ndoku.tasks.rate.LEVEL_OF`).
    """

    level: str | None = None
    needs: str | None = None

    @classmethod
    def of(cls, difficulty: str | None, needs: str | None) -> Aim | None:
        """The aim of a ``difficulty`` and a ``needs`` as a person types them (any case,
        hyphens or spaces), or None when neither is asked.

        Raises :class:`~ndoku.errors.NdokuError` for an unknown name (listing the known
        ones), a level no technique of the engine has yet, or a technique above the level.

        >>> Aim.of("singles", "X-wing")
        Traceback (most recent call last):
        ...
        ndoku.errors.NdokuError: a path of level singles cannot use X-wing (level fish)
        >>> Aim.of("fish", "x wing")
        Aim(level='fish', needs='X-wing')
        """
        if difficulty is None and needs is None:
            return None
        level = None if difficulty is None else _level_named(difficulty)
        technique = None if needs is None else _technique_named(needs)
        if level is not None and level not in LEVEL_OF.values():
            raise NdokuError(f"no technique of the logic engine needs the level {level!r} yet")
        if level is not None and technique is not None:
            its = LEVEL_OF[technique]
            if LEVELS.index(its) > LEVELS.index(level):
                raise NdokuError(f"a path of level {level} cannot use {technique} (level {its})")
        return cls(level, technique)

    @property
    def guide(self) -> int:
        """The index in :data:`LEVELS` the search aims at: the level's, else the technique's."""
        return LEVELS.index(self.level if self.level is not None else LEVEL_OF[str(self.needs)])

    def fits(self, rating: Rating) -> bool:
        """Whether a rated puzzle is what was asked (a whole path, of the level, using the
        technique)."""
        return (
            rating.level is not None
            and not rating.lower_bound
            and (self.level is None or rating.level == self.level)
            and (self.needs is None or self.needs in rating.counts)
        )

    def too_easy(self, rating: Rating) -> bool:
        """Whether a whole path stays below the aimed level (more givens must go)."""
        known = rating.level is not None and not rating.lower_bound
        return known and LEVELS.index(str(rating.level)) < self.guide

    def distance(self, rating: Rating) -> int:
        """0 for a fit, else 1 + how many levels the rating is off (unrated: the most)."""
        if self.fits(rating):
            return 0
        if rating.level is None:
            return len(LEVELS) + 1
        return 1 + abs(LEVELS.index(rating.level) - self.guide)

    def text(self) -> str:
        """``level fish``, ``a path using X-wing`` or ``level fish using X-wing``."""
        level = f"level {self.level}" if self.level else ""
        using = f"using {self.needs}" if self.needs else ""
        return f"{level} {using}" if level and using else level or f"a path {using}"


def _level_named(name: str) -> str:
    known = {_key(level): level for level in LEVELS}
    if _key(name) in known:
        return known[_key(name)]
    if _key(name) in OLD_LEVELS:
        raise NdokuError(
            f"the difficulty {name!r} is gone: levels are named by what a solving path needs "
            f"now ({', '.join(LEVELS)}); the old easy and medium puzzles are singles, and "
            "'ndoku rate' shows any puzzle's level"
        )
    raise NdokuError(f"unknown difficulty {name!r} (known: {', '.join(LEVELS)})")


def _technique_named(name: str) -> str:
    known = {_key(technique): technique for technique in LEVEL_OF if technique not in STEP_NAMES}
    if _key(name) in map(_key, STEP_NAMES):
        raise NdokuError(
            f"{name!r} is a uniqueness technique, which the rating of a generated puzzle does "
            "not use (see 'ndoku rate --assume-unique')"
        )
    if _key(name) not in known:
        raise NdokuError(f"unknown technique {name!r} (known: {', '.join(known.values())})")
    return known[_key(name)]


def thin(
    puzzle: Puzzle,
    givens: IntArray,
    order: Sequence[IntArray],
    *,
    target: int = 0,
    deadline: float = float("inf"),
) -> tuple[IntArray, str]:
    """Remove the groups of ``order`` that keep the puzzle unique: (givens, stop).

    ``givens`` must be a unique puzzle (a full solution is) that holds every group of
    ``order``. A group goes only when the exact solver proves the puzzle without it unique,
    within ``CHECK_NODES`` nodes (a check the time left cuts short is made again). Stops at
    ``target`` givens (``stop`` is ``target``), when every group was tried (``minimal``) or in
    time to prove the result ``PROOFS`` times by ``deadline`` (``timeout``).

    >>> from ndoku.solvers.random import generator
    >>> from ndoku.tasks.generate import layout_puzzle, random_solution, symmetry_groups
    >>> p = layout_puzzle("4x4")
    >>> full = random_solution(p, generator(0), float("inf"))
    >>> givens, stop = thin(p, full, symmetry_groups(p))
    >>> stop, solve_exact(p, givens=givens).unique
    ('minimal', True)
    """
    givens = givens.copy()
    count = int((givens > 0).sum())
    queue = deque(order)
    success = 0.9  # running share of checks that let their group go
    proof = 0.0  # seconds of the check that proved the current givens unique
    while queue:
        if count <= target:
            return givens, "target"
        left = min(deadline - work_clock(), MAX_SECONDS) - PROOFS * proof
        if left <= 0:
            return givens, "timeout"
        prefix = success >= 0.5
        # Expected checks until the outcome changes, plus one.
        odds = success / (1 - success) if prefix else (1 - success) / success
        size = max(1, min(MAX_BATCH, int(odds) + 1, int(left / CHECK_LEAST_SECONDS)))
        picked: list[IntArray] = []
        taken = 0
        while queue and len(picked) < size:
            group = queue.popleft()
            if len(group) > count - target:
                continue  # would go below the target, now and later
            if prefix and taken + len(group) > count - target:
                queue.appendleft(group)
                break
            picked.append(group)
            taken += len(group)
        if not picked:
            break
        rows = np.repeat(givens[None, :], len(picked), axis=0)
        for i, group in enumerate(picked):
            if prefix:
                rows[i:, group] = 0  # row i lacks every group up to i
            else:
                rows[i, group] = 0
        share = CHECK_SHARE * left / len(rows)  # the timeout is per check
        batch = solve_table(
            puzzle, rows, limit=2, max_nodes=CHECK_NODES, timeout=share, probe=False
        )
        results = list(batch)
        ok = [r.unique is True for r in results]
        # a check its share of the time cut short decided nothing: its group is tried again
        cut = [r.stop == "timeout" for r in results]
        if prefix:
            passed = ok.index(False) if False in ok else len(ok)
            if passed:
                givens = rows[passed - 1].copy()
                count -= sum(len(g) for g in picked[:passed])
                proof = float(batch.seconds[passed - 1])
            # the first failure stays for good; the rest were not tried on these givens
            failed = passed < len(ok) and not cut[passed]
            queue.extendleft(reversed(picked[passed + failed :]))
            outcomes = [1.0] * passed + [0.0] * failed
        else:
            first = ok.index(True) if True in ok else len(ok)
            if first < len(ok):
                givens = rows[first].copy()
                count -= len(picked[first])
                proof = float(batch.seconds[first])
            # failures stay for good; later successes were tried on the old givens
            again = [g for i, g in enumerate(picked) if cut[i] or (ok[i] and i > first)]
            queue.extendleft(reversed(again))
            outcomes = [float(good) for good, short in zip(ok, cut, strict=True) if not short]
        for outcome in outcomes:
            success = 0.75 * success + 0.25 * outcome
        success = min(max(success, 0.02), 0.98)
    return givens, "target" if count <= target else "minimal"


def thin_singles(
    puzzle: Puzzle, givens: IntArray, order: Sequence[IntArray], *, deadline: float = float("inf")
) -> tuple[IntArray, str]:
    """Remove the groups of ``order`` that leave the puzzle solved by naked and hidden singles:
    (givens, stop). Such a puzzle is unique, so no search is needed. ``stop`` is ``minimal``
    or ``timeout``.

    >>> from ndoku.solvers.random import generator
    >>> from ndoku.tasks.generate import layout_puzzle, random_solution, symmetry_groups
    >>> p = layout_puzzle("9x9")
    >>> full = random_solution(p, generator(0), float("inf"))
    >>> givens, stop = thin_singles(p, full, symmetry_groups(p))
    >>> stop, singles(p, givens), rate(p, givens).level
    ('minimal', True, 'singles')
    """
    givens = givens.copy()
    for i, group in enumerate(order):
        if i % 64 == 0 and work_clock() > deadline:
            return givens, "timeout"
        trial = givens.copy()
        trial[group] = 0
        if singles(puzzle, trial):
            givens = trial
    return givens, "minimal"


def seek(
    puzzle: Puzzle, solution: IntArray, order: Sequence[IntArray], aim: Aim, deadline: float
) -> tuple[IntArray, Rating, bool]:
    """One attempt at a puzzle ``aim`` fits, from ``solution`` and the removal ``order`` (see
    the module glossary): (givens, rating, late). When none fits, the puzzle rated closest to
    the aim; ``late`` is True when the deadline cut the attempt short.

    >>> from ndoku.solvers.random import generator
    >>> from ndoku.tasks.generate import layout_puzzle, random_solution, symmetry_groups
    >>> p = layout_puzzle("9x9")
    >>> full = random_solution(p, generator(0), float("inf"))
    >>> givens, rating, late = seek(p, full, symmetry_groups(p), Aim("singles"), float("inf"))
    >>> rating.level, late
    ('singles', False)
    """
    if aim.guide == 0:
        givens, stop = thin_singles(puzzle, solution, order, deadline=deadline)
        return givens, _rated(puzzle, givens, deadline), stop == "timeout"
    least, stop = thin(puzzle, solution, order, deadline=deadline)
    sequence = [group for group in order if not least[group].any()]

    def prefix(k: int) -> IntArray:
        givens = solution.copy()
        for group in sequence[:k]:
            givens[group] = 0
        return givens

    last = _rated(puzzle, least, deadline)
    tried = [(least, last)]
    low, high = 0, len(sequence)  # the solution (prefix 0) is too easy; the end is rated
    # when the end is too easy, so is every prefix, by and large: no bisection
    while not aim.too_easy(tried[0][1]) and not aim.fits(last) and high - low > 1:
        if work_clock() > deadline:
            break
        middle = (low + high) // 2
        givens = prefix(middle)
        last = _rated(puzzle, givens, deadline)
        tried.append((givens, last))
        if aim.too_easy(last):
            low = middle
        else:
            high = middle
    givens, rating = min(tried, key=lambda pair: aim.distance(pair[1]))
    if aim.fits(rating) and givens is not least:
        return _thin_in(puzzle, givens, rating, order, aim, deadline)
    return givens, rating, stop == "timeout" or work_clock() > deadline


def _thin_in(
    puzzle: Puzzle,
    givens: IntArray,
    rating: Rating,
    order: Sequence[IntArray],
    aim: Aim,
    deadline: float,
) -> tuple[IntArray, Rating, bool]:
    """Remove the groups of ``order`` that keep the puzzle unique and fitting ``aim``: (givens,
    rating, late)."""
    for group in order:
        if not givens[group].all():
            continue
        if work_clock() > deadline:
            return givens, rating, True
        trial = givens.copy()
        trial[group] = 0
        left = seconds_left(deadline)  # a check the deadline cuts short keeps its group
        if not solve_exact(
            puzzle, givens=trial, max_nodes=CHECK_NODES, timeout=left, probe=False
        ).unique:
            continue
        rated = _rated(puzzle, trial, deadline)
        if aim.fits(rated):
            givens, rating = trial, rated
    return givens, rating, False


def _rated(puzzle: Puzzle, givens: IntArray, deadline: float) -> Rating:
    """The rating of ``givens``: the proof that it is unique in at least ``PROOF_SECONDS``, its
    path in the time left but the read-back's proof (past it, a lower bound, which fits no
    aim)."""
    left = seconds_left(deadline)
    proof = max(left, PROOF_SECONDS)
    return rate(puzzle, givens, timeout=proof, path_timeout=left, proofs_after=1)
