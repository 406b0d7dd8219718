"""One entry point for every solving method, with independent verification of each answer.

Glossary
--------
method
    How a puzzle is solved: ``metropolis`` (the box-swap Monte-Carlo chain).
status
    ``solved`` (a verified solution) or ``unsolved`` (a limit was reached first).
outcome
    What a method did: status, the verified solution (or the best state reached), and the
    method's own figures (seed, proposals, energy, …) for reports and ``--format json``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import NdokuError
from ndoku.metropolis import DEFAULT_MAX_PROPOSALS, DEFAULT_TIMEOUT, metropolis
from ndoku.puzzle import Puzzle
from ndoku.verify import verify

IntArray = NDArray[np.int32]

METHODS = ("metropolis",)


@dataclass(frozen=True, eq=False)
class Outcome:
    """The result of solving one puzzle.

    Attributes
    ----------
    status : str
        ``solved`` or ``unsolved``.
    values : ndarray of int32
        The solution when solved (verified against every unit and given), else the best
        state reached.
    stats : dict
        Method figures, in the order they are reported.
    """

    puzzle: Puzzle
    method: str
    status: str
    values: IntArray
    seconds: float
    stats: dict[str, int | float | str] = field(default_factory=dict)

    @property
    def solved(self) -> bool:
        return self.status == "solved"


def solve(
    puzzle: Puzzle,
    method: str = "metropolis",
    *,
    seed: int = 0,
    temperature: float | None = None,
    max_proposals: int = DEFAULT_MAX_PROPOSALS,
    timeout: float = DEFAULT_TIMEOUT,
) -> Outcome:
    """Solve ``puzzle`` with ``method``; a solved outcome has passed :func:`~ndoku.verify.verify`.

    Examples
    --------
    >>> from ndoku.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> outcome = solve(p, seed=3)
    >>> outcome.status, p.text(outcome.values).splitlines()[0]
    ('solved', '1 3 2 4')
    """
    if method not in METHODS:
        raise NdokuError(f"unknown method {method!r} (known: {', '.join(METHODS)})")
    chain = metropolis(
        puzzle, temperature=temperature, seed=seed, max_proposals=max_proposals, timeout=timeout
    )
    if chain.solved:
        verify(puzzle, chain.values)
    stats: dict[str, int | float | str] = {
        "seed": seed,
        "temperature": chain.temperature,
        "proposals": chain.proposals,
        "acceptances": chain.acceptances,
        "energy": chain.energy,
        "best_energy": chain.best_energy,
        "best_at": chain.best_at,
        "stop": chain.stop,
    }
    return Outcome(
        puzzle,
        method,
        "solved" if chain.solved else "unsolved",
        chain.values if chain.solved else chain.best_values,
        chain.seconds,
        stats,
    )
