"""Counting solutions: 0, 1, … or at least the limit, and whether a limit cut the count short."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ndoku.model.puzzle import Puzzle
from ndoku.solvers.exact import ExactResult
from ndoku.tasks.solve import Options, solve_exact_all


@dataclass(frozen=True, eq=False)
class Count:
    """The solutions the exact search found (``result``), counting up to ``limit``; no
    result, and the ``error`` why, when the worker process counting them died."""

    result: ExactResult | None
    limit: int
    error: str | None = None

    @property
    def certain(self) -> bool:
        """True when the count is exact or reached the limit: no node or time limit stopped it."""
        return self.result is not None and self.result.stop in ("complete", "solutions")

    def text(self) -> str:
        """``1``; ``≥2`` at the limit; ``≥0 (node limit)`` or ``(timeout)`` when cut short;
        ``error`` without a result."""
        if self.result is None:
            return "error"
        found, stop = self.result.count, self.result.stop
        if stop == "complete":
            return str(found)
        if self.certain:
            return f"≥{found}"
        return f"≥{found} ({'node limit' if stop == 'nodes' else 'timeout'})"

    def record(self) -> dict[str, object]:
        """The count as a JSON object."""
        result = self.result
        if result is None:
            return {"count": None, "limit": self.limit, "stop": "error", "error": self.error}
        record: dict[str, object] = {"count": result.count, "at_least": result.stop != "complete"}
        record |= {"limit": self.limit, "nodes": result.nodes, "guesses": result.guesses}
        return record | {"stop": result.stop, "seconds": round(result.seconds, 6)}


def count_all(
    puzzles: Sequence[Puzzle],
    options: Options | None = None,
    *,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[Count]:
    """Count the solutions of every puzzle, up to ``options.limit`` (2 proves uniqueness).

    ``jobs`` and ``progress`` are those of :func:`~ndoku.tasks.solve.solve_all`.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 0 0\\n0 0 0 0\\n0 0 0 2\\n")
    >>> [count] = count_all([p], Options(limit=5))
    >>> count.text(), count.certain
    ('≥5', True)
    """
    options = options or Options()
    results = solve_exact_all(puzzles, options, jobs=jobs, progress=progress)
    return [Count(result, options.limit) for result in results]
