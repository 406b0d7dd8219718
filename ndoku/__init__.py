"""ndoku: generalized sudoku solving on the peer graph.

>>> from ndoku import read_puzzles, solve
>>> [puzzle] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
>>> solve(puzzle).status
'solved'
"""

from __future__ import annotations

__version__ = "0.1.0"

from ndoku import jit  # noqa: F401  (before any kernel: a read-only install still caches)
from ndoku.errors import ConflictError, LayoutError, NdokuError, ParseError, VerificationError
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.tasks.solve import Outcome, solve

__all__ = [
    "ConflictError",
    "LayoutError",
    "NdokuError",
    "Outcome",
    "ParseError",
    "Puzzle",
    "VerificationError",
    "__version__",
    "read_puzzles",
    "solve",
]
