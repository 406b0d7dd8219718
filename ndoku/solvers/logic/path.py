"""A solving path: the easiest applicable step, applied, again and again until the puzzle is
solved or no technique of the engine applies."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ndoku.model.puzzle import Puzzle
from ndoku.solvers.logic.board import Board, IntArray
from ndoku.solvers.logic.techniques import TECHNIQUES, Step

#: Steps a path takes at most: each places a value or removes a candidate, so a path is
#: never longer than cells × N; the cap guards the loop all the same.
MAX_STEPS_PER_CANDIDATE = 1


def next_step(board: Board) -> Step | None:
    """The first step of the easiest technique that applies, or None."""
    for _, _, find in TECHNIQUES:
        step = find(board)
        if step is not None:
            return step
    return None


def apply(board: Board, step: Step) -> None:
    """Carry out ``step`` on ``board``: its placements, then its eliminations."""
    for cell, value in step.placements:
        board.place(cell, value)
    for cell, value in step.eliminations:
        board.cand[cell, value - 1] = False


def contradiction(board: Board) -> bool:
    """A free cell without candidates, or a value a unit lacks with no place left in it."""
    free = board.values == 0
    if (free & ~board.cand.any(axis=1)).any():
        return True
    units = board.tables.units
    held = board.values[units]
    places = board.cand[units].sum(axis=1)  # (units, N)
    for v in range(board.tables.size):
        lacking = ~(held == v + 1).any(axis=1)
        if (lacking & (places[:, v] == 0)).any():
            return True
    return False


@dataclass(frozen=True)
class Path:
    """A puzzle's solving path.

    Attributes
    ----------
    steps : tuple of Step
    stop : str
        ``solved``, ``stuck`` (no technique of the engine applies: the rest needs chains or
        trial, not written yet) or ``contradiction`` (the givens, or the entries, break a
        rule).
    values : ndarray of int32
        The values placed at the end (the solution when solved).
    """

    steps: tuple[Step, ...]
    stop: str
    values: IntArray

    @property
    def solved(self) -> bool:
        return self.stop == "solved"

    @property
    def hardest(self) -> Step | None:
        """The step of the highest rating (the first of them)."""
        return max(self.steps, key=lambda s: s.rating, default=None)

    def counts(self) -> Counter[str]:
        """How often each technique was used, in the order of first use."""
        return Counter(step.technique for step in self.steps)


def solve_path(puzzle: Puzzle, values: IntArray | None = None) -> Path:
    """Solve ``puzzle`` step by step, each time with the easiest technique that applies.

    Parameters
    ----------
    puzzle : Puzzle
    values : ndarray, optional
        Givens plus a solver's own entries, to go on from (default: the givens).

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> path = solve_path(p)
    >>> path.stop, len(path.steps), path.steps[0].technique
    ('solved', 12, 'hidden single')
    """
    board = Board.start(puzzle, values)
    steps: list[Step] = []
    cap = puzzle.n_cells * puzzle.size * MAX_STEPS_PER_CANDIDATE + 1
    while board.free and len(steps) < cap:
        if contradiction(board):
            return Path(tuple(steps), "contradiction", board.values.copy())
        step = next_step(board)
        if step is None:
            return Path(tuple(steps), "stuck", board.values.copy())
        apply(board, step)
        steps.append(step)
    return Path(tuple(steps), "solved" if not board.free else "stuck", board.values.copy())
