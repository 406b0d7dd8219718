"""Many runs and their summary: one puzzle's outcomes over several seeds (:class:`Runs`),
and the statuses of a batch counted as its parts come (:class:`Tally`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import NdokuError
from ndoku.model.puzzle import Puzzle
from ndoku.solvers.chains import ChainResult
from ndoku.tasks.solve import Options, Outcome, solve_all
from ndoku.text.words import plural


@dataclass(frozen=True, eq=False)
class Runs:
    """One puzzle's outcomes over several seeds, in seed order."""

    outcomes: tuple[Outcome, ...]

    @property
    def representative(self) -> Outcome:
        """The run the puzzle is shown by: the first that answered, else the lowest best
        energy (the first of those)."""
        for run in self.outcomes:
            if run.answered:
                return run
        return min(self.outcomes, key=_best_energy)

    def summary(self) -> str:
        """``2 of 3 runs solved, median 0.012 s`` (the median of the solved runs).

        >>> from ndoku.model.puzzle import read_puzzles
        >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
        >>> [runs] = solve_runs([p], "metropolis", runs=3)
        >>> runs.summary().split(",")[0], runs.representative.result.seed
        ('3 of 3 runs solved', 0)
        """
        solved = [run for run in self.outcomes if run.answered]
        text = f"{len(solved)} of {plural(len(self.outcomes), 'run')} solved"
        if solved:
            seconds = sorted(run.seconds for run in solved)
            text += f", median {seconds[len(seconds) // 2]:.3f} s"
        return text


def _best_energy(outcome: Outcome) -> int:
    result = outcome.result
    if isinstance(result, ChainResult) and result.stop != "propagation":
        return result.best_energy
    return 0  # an exact search, a chain that pruning stopped before it ran, a lost worker


def solve_runs(
    puzzles: Sequence[Puzzle],
    method: str = "auto",
    options: Options | None = None,
    runs: int = 1,
    *,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[Runs]:
    """Solve every puzzle ``runs`` times, seeds ``options.seed`` upwards: one :class:`Runs`
    per puzzle, in order.

    Run ``r`` solves the whole batch with seed ``options.seed + r``; ``progress`` counts the
    puzzles solved over all runs. The other parameters are those of :func:`solve_all`.
    """
    if runs < 1:
        raise NdokuError(f"runs must be 1 or more, got {runs}")
    options = options or Options()
    per_run = []
    for r in range(runs):
        step = None if progress is None else _offset(progress, r * len(puzzles))
        seeded = replace(options, seed=options.seed + r)
        per_run.append(solve_all(puzzles, method, seeded, jobs=jobs, progress=step))
    return [Runs(tuple(tried)) for tried in zip(*per_run, strict=True)]


def _offset(progress: Callable[[int], None], before: int) -> Callable[[int], None]:
    return lambda done: progress(before + done)


def tally(statuses: Sequence[str], seconds: float) -> str:
    """``3 puzzles: 2 solved, 1 none (0.001 s solving)``: the statuses in the order they first
    appear, and the seconds spent solving.

    >>> tally(["solved", "none", "solved"], 0.0012)
    '3 puzzles: 2 solved, 1 none (0.001 s solving)'
    """
    counted = Tally()
    counted.add(statuses, seconds)
    return str(counted)


class Tally:
    """The statuses of a batch counted as its parts come, and the seconds spent solving them:
    its summary line (:func:`tally`) without keeping every outcome.

    >>> counted = Tally()
    >>> counted.add(np.array(["solved", "none"]), 0.001)
    >>> counted.add(["limit", "solved"], 0.0002)
    >>> str(counted)
    '4 puzzles: 2 solved, 1 none, 1 limit (0.001 s solving)'
    """

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.seconds = 0.0

    def add(self, statuses: Iterable[str] | NDArray[np.str_], seconds: float) -> None:
        """Count the statuses of a part, in the order they first appear in it."""
        if isinstance(statuses, np.ndarray):  # a table's: counted as an array
            found, first, counts = np.unique(statuses, True, False, True)
            pairs = [(str(found[k]), int(counts[k])) for k in np.argsort(first)]
        else:
            pairs = [(status, 1) for status in statuses]
        for status, k in pairs:
            self.counts[status] = self.counts.get(status, 0) + k
        self.seconds += seconds

    def __str__(self) -> str:
        parts = ", ".join(f"{k} {status}" for status, k in self.counts.items())
        puzzles = plural(sum(self.counts.values()), "puzzle")
        return f"{puzzles}: {parts} ({self.seconds:.3f} s solving)"
