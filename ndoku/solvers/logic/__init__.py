"""The logic engine: human techniques on units and peers, a step at a time, on every layout.

- :mod:`.board`: placed values, candidates, and the layout tables the techniques read;
- :mod:`.techniques`: each technique, easiest first (:data:`~.techniques.TECHNIQUES`);
- :mod:`.path`: the easiest step, applied until solved or stuck.
"""

from __future__ import annotations

from ndoku.solvers.logic.board import Board
from ndoku.solvers.logic.path import Path, next_step, solve_path
from ndoku.solvers.logic.techniques import TECHNIQUES, Step

__all__ = ["TECHNIQUES", "Board", "Path", "Step", "next_step", "solve_path"]
