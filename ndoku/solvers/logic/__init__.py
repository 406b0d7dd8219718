"""The logic engine: human techniques on units and peers, a step at a time, on every layout.

- :mod:`.board`: placed values, candidates, and the layout tables the techniques read;
- :mod:`.techniques`: singles, intersections, subsets and fish;
- :mod:`.chains`: strong-link X-chains (skyscraper, kite, turbot fish), XY-, XYZ- and W-wings;
- :mod:`.wings`: wings of four to seven cells (WXYZ … TUVWXYZ), a compiled search;
- :mod:`.implications`: compiled searches of the implication graph, :mod:`.dynamic` the
  dynamic ones (assumptions followed through singles), and :mod:`.forcing`, the steps they
  make (forcing chains, cell and unit forcing chains, Nishio, dynamic chains);
- :mod:`.uniqueness`: unique rectangles and loops, and BUG, only for a puzzle known to have
  one solution (``assume_unique``) whose rules are all units;
- :mod:`.rules`: the techniques of variant rules (cage combinations, dots and lines, sums,
  even/odd, innies and outies), :mod:`.cages` those that look beyond a cage (locked cage
  digits, a unit's digit in a cage), :mod:`.rule_search` a search of one rule's cells;
- :mod:`.guess`: the last resort, a guess from the proved solution (counted);
- :mod:`.path`: every technique easiest first (:data:`~.path.TECHNIQUES`), the easiest step
  applied until solved or stuck.
"""

from __future__ import annotations

from ndoku.solvers.logic.board import Board
from ndoku.solvers.logic.path import LEVEL_OF, LEVELS, TECHNIQUES, Path, next_step, solve_path
from ndoku.solvers.logic.techniques import Step

__all__ = ["LEVELS", "LEVEL_OF", "TECHNIQUES", "Board", "Path", "Step", "next_step", "solve_path"]
