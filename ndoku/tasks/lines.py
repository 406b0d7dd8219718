"""Batches of one-line puzzles solved as arrays: the exact search, one check of every answer,
and the answer lines, without a Puzzle per puzzle (:func:`solve_lines`).

A long batch comes in parts (:class:`~ndoku.model.table.TableStream`): the outcomes of a
table are :class:`LineOutcomes`, those of puzzles read one by one (or lost with their worker
process) :class:`PuzzleOutcomes`, and both give out their lines, statuses and counts alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ndoku.model.puzzle import Puzzle
from ndoku.model.table import PuzzleTable
from ndoku.solvers.exact import BatchResult, ExactResult, solve_table
from ndoku.tasks.count import Count
from ndoku.tasks.runs import tally
from ndoku.tasks.solve import ANSWERED, Options, Outcome
from ndoku.tasks.verify import verify_table


@dataclass(frozen=True, eq=False)
class LineOutcomes:
    """What the exact search found for every puzzle of a table, every answer verified.

    Attributes
    ----------
    table : PuzzleTable
    batch : BatchResult
        The search's arrays: first solution, count, nodes, … of each puzzle.
    """

    table: PuzzleTable
    batch: BatchResult

    def __len__(self) -> int:
        return len(self.table)

    @property
    def seconds(self) -> float:
        """Seconds spent solving them."""
        return float(self.batch.seconds.sum())

    def statuses(self) -> NDArray[np.str_]:
        """Each puzzle's status, as :class:`~ndoku.tasks.solve.Outcome` names it."""
        return self.batch.statuses

    def shown(self, unique: bool = False) -> NDArray[np.bool_]:
        """Whose solution is given out: answered, and unique when ``unique`` asks for it."""
        statuses = self.batch.statuses
        shown = np.isin(statuses, ANSWERED)
        return shown & ~(unique & (statuses == "multiple"))  # type: ignore[no-any-return]

    def text(self, unique: bool = False) -> bytes:
        """One line per puzzle: its solution in the file's alphabet, or its status."""
        statuses = self.statuses()
        words = {int(i): str(statuses[i]) for i in np.flatnonzero(~self.shown(unique))}
        return self.table.text(self.batch.values, words)

    def counts(self) -> list[Count]:
        """Each puzzle's count of solutions, up to the search's limit."""
        batch = self.batch
        return [Count(batch.result(i), batch.limit) for i in range(len(batch))]

    def summary(self) -> str:
        """``10000 puzzles: 10000 solved (0.152 s solving)``, as for a batch of puzzles."""
        return tally(self.statuses().tolist(), self.seconds)


@dataclass(frozen=True, eq=False)
class PuzzleOutcomes:
    """The outcomes of one-line puzzles of a batch read one by one, given out as
    :class:`LineOutcomes` gives them (``limit``: of the counts).

    >>> from ndoku.model.table import read_table
    >>> part = lost(read_table("1000003004000002\\n0000000000000000\\n"), OSError("gone"), 2)
    >>> part.text(), part.counts()[0].text(), part.outcomes[0].message()
    (b'error\\nerror\\n', 'error', 'error: gone')
    """

    outcomes: Sequence[Outcome]
    limit: int

    def __len__(self) -> int:
        return len(self.outcomes)

    @property
    def seconds(self) -> float:
        return sum(o.seconds for o in self.outcomes)

    def statuses(self) -> NDArray[np.str_]:
        return np.array([o.status for o in self.outcomes], dtype=str)

    def shown(self, unique: bool = False) -> NDArray[np.bool_]:
        return np.array([o.shown(unique) for o in self.outcomes], dtype=bool)

    def text(self, unique: bool = False) -> bytes:
        return "".join(
            o.puzzle.text(o.values, rules=False) if o.shown(unique) else f"{o.status}\n"
            for o in self.outcomes
        ).encode()

    def counts(self) -> list[Count]:
        return [
            Count(o.result if isinstance(o.result, ExactResult) else None, self.limit, o.error)
            for o in self.outcomes
        ]


def lost(part: PuzzleTable | Sequence[Puzzle], error: Exception, limit: int) -> PuzzleOutcomes:
    """The ``error`` outcomes of a part of a batch whose worker process died (``error``)."""
    puzzles = [part.puzzle(i) for i in range(len(part))] if isinstance(part, PuzzleTable) else part
    return PuzzleOutcomes([Outcome.lost(p, "auto", error) for p in puzzles], limit)


def solve_lines(
    table: PuzzleTable,
    options: Options | None = None,
    *,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> LineOutcomes:
    """Solve every puzzle of ``table`` exactly and verify every answer, in few compiled calls.

    ``options`` gives the search its limit of solutions, nodes and seconds; ``jobs`` and
    ``progress`` are those of :func:`~ndoku.tasks.solve.solve_all`, whose outcomes these are.

    Examples
    --------
    >>> from ndoku.model.table import read_table
    >>> table = read_table("1000003004000002\\n0000000000000000\\n")
    >>> outcomes = solve_lines(table)
    >>> outcomes.statuses().tolist(), outcomes.summary().split(" (")[0]
    (['solved', 'multiple'], '2 puzzles: 1 solved, 1 multiple')
    >>> print(outcomes.text(unique=True).decode(), end="")
    1324423124133142
    multiple
    """
    options = options or Options()
    batch = solve_table(
        table.puzzle(0),
        table.givens,
        limit=options.limit,
        max_nodes=options.max_nodes,
        timeout=options.timeout,
        jobs=jobs,
        progress=progress,
        threads=options.threads,
    )
    return checked(table, batch)


def checked(table: PuzzleTable, batch: BatchResult) -> LineOutcomes:
    """The outcomes of ``table`` from the search's arrays, once every answer is verified
    (in one compiled call): here, whoever searched."""
    verify_table(table, batch.values, batch.counts >= 1)
    return LineOutcomes(table, batch)
