"""The logic engine: human techniques on units and peers, a step at a time, on every layout.

- :mod:`.board`: placed values, candidates, and the layout tables the techniques read;
- :mod:`.techniques`: singles, intersections, subsets and fish;
- :mod:`.chains`: wings and chains (X-chains, XY-chains, XYZ- and W-wings);
- :mod:`.trial`: the last resorts, a trial and a guess (counted as guesses);
- :mod:`.path`: every technique easiest first (:data:`~.path.TECHNIQUES`), the easiest step
  applied until solved or stuck.
"""

from __future__ import annotations

from ndoku.solvers.logic.board import Board
from ndoku.solvers.logic.path import LEVEL_OF, LEVELS, TECHNIQUES, Path, next_step, solve_path
from ndoku.solvers.logic.techniques import Step

__all__ = ["LEVELS", "LEVEL_OF", "TECHNIQUES", "Board", "Path", "Step", "next_step", "solve_path"]
