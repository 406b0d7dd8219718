"""Helpers several test modules share: blank grids, puzzles from the test data, and the energy
of a box-swap chain counted straight from the units.

Test modules import it as ``helpers`` (pytest puts ``tests`` on the path: ``pythonpath`` in
pyproject.toml).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.model.units import BOX
from ndoku.solvers.chains.moves import PENALTY, SwapSystem, pruned

DATA = Path(__file__).parent / "data"
NINE = DATA / "sudoku9" / "kaggle_bryanpark_first69.txt"
# Minimal 25×25 puzzles (``id puzzle,solution status``): pruning leaves them most cells.
GECODE25 = DATA / "sudoku25" / "gecode_25x25_shared6.txt"


def blank_grid(rows: int, cols: int | None = None) -> str:
    """The text of a grid of zeros, ``rows`` × ``cols`` (square when ``cols`` is None)."""
    return ("0 " * (cols or rows) + "\n") * rows


def load(path: Path) -> Puzzle:
    """The one puzzle of a file."""
    [puzzle] = read_puzzles(path)
    return puzzle


def puzzle_of(text: str) -> Puzzle:
    """The one puzzle of a text."""
    [puzzle] = read_puzzles(text=text)
    return puzzle


def line_puzzle(path: Path, line: int) -> Puzzle:
    """A one-line puzzle: ``puzzle[,solution]`` or ``id puzzle,solution status``."""
    text = path.read_text().splitlines()[line]
    field = text.split()[1] if " " in text.strip() else text
    return puzzle_of(field.split(",")[0])


def kaggle(line: int) -> tuple[Puzzle, str]:
    """A Kaggle 9×9 (``puzzle,solution``) and its published solution."""
    puzzle, solution = NINE.read_text().splitlines()[line].split(",")
    return puzzle_of(puzzle), solution


def gecode25(line: int = 0) -> Puzzle:
    """A minimal 25×25 puzzle; short pruned runs do not solve them."""
    return line_puzzle(GECODE25, line)


def naive_energy(puzzle: Puzzle, values: np.ndarray, system: SwapSystem | None = None) -> int:
    """Box-swap energy: rows and columns, N − distinct symbols each; with a pruned ``system``,
    plus the penalty of every free cell outside its candidates."""
    units = puzzle.units
    energy = sum(
        puzzle.size - len(set(values[units[u]].tolist()))
        for u in range(len(units))
        if units.kind[u] != BOX
    )
    if system is None or not system.pruned:
        return energy
    givens, masks = pruned(puzzle)
    assert masks is not None and np.array_equal(givens, system.givens)
    free = np.flatnonzero(givens == 0)
    return energy + PENALTY * sum(not int(masks[c]) >> (int(values[c]) - 1) & 1 for c in free)
