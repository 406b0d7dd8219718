"""The independent check against a slow reference that reads every unit cell by cell."""

from __future__ import annotations

import dataclasses
import re
import time
from pathlib import Path

import numpy as np
import pytest

from ndoku.errors import VerificationError
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.exact import solve_batch
from ndoku.tasks.generate import layout_puzzle, random_solution
from ndoku.tasks.verify import problems, verify_all


def naive_problems(puzzle: Puzzle, values: np.ndarray) -> set[str]:
    """The unit rules ``values`` break, one canvas cell at a time (rectangular boxes only)."""
    canvas = puzzle.canvas(values)
    size = puzzle.size
    bh, bw = puzzle.layout.box
    found = set()
    for r0, c0 in puzzle.layout.corners:
        units = {"row": [], "column": [], "box": []}
        for i in range(size):
            units["row"].append([canvas[r0 + i][c0 + j] for j in range(size)])
            units["column"].append([canvas[r0 + j][c0 + i] for j in range(size)])
        for top in range(0, size, bh):
            for left in range(0, size, bw):
                box = [canvas[r0 + top + i][c0 + left + j] for i in range(bh) for j in range(bw)]
                units["box"].append(box)
        for name, lines in units.items():
            for k, line in enumerate(lines):
                if sorted(line) != list(range(1, size + 1)):
                    found.add(f"sub-grid at {r0},{c0}: {name} {k + 1} is not a permutation")
    return found


def unit_problems(puzzle: Puzzle, values: np.ndarray) -> set[str]:
    return {s.split(" of 1..")[0] for s in problems(puzzle, values) if "sub-grid" in s}


def solved(layout: str, seed: int) -> tuple[Puzzle, np.ndarray]:
    puzzle = layout_puzzle(layout)
    values = random_solution(puzzle, np.random.default_rng(seed), time.perf_counter() + 60)
    assert values is not None
    return puzzle, values


@pytest.mark.parametrize("layout", ["4x4", "6x6", "8x8", "12x12", "16x16", "samurai", "butterfly"])
@pytest.mark.parametrize("seed", [1, 2])
def test_broken_units_match_the_reference(layout: str, seed: int) -> None:
    puzzle, values = solved(layout, seed)
    assert problems(puzzle, values) == [] and naive_problems(puzzle, values) == set()
    rng = np.random.default_rng(seed)
    for changes in (1, 2, 5):
        broken = values.copy()
        cells = rng.choice(puzzle.n_cells, size=changes, replace=False)
        broken[cells] = rng.integers(1, puzzle.size + 1, size=changes)
        assert unit_problems(puzzle, broken) == naive_problems(puzzle, broken)


def test_a_published_samurai_solution_passes_and_a_swap_in_a_box_breaks_rows_and_columns(
    data: Path,
) -> None:
    [puzzle] = read_puzzles(data / "samurai" / "kyle_samurai.txt")
    [answer] = read_puzzles(data / "samurai" / "kyle_samurai.sol.txt")
    values = answer.givens
    assert problems(puzzle, values) == []
    # Two cells of the top-left box, one row and one column apart: the box still holds 1-9.
    canvas = puzzle.canvas(values)
    canvas[0, 0], canvas[1, 1] = canvas[1, 1], canvas[0, 0]
    swapped = canvas[puzzle.cell_rc[:, 0], puzzle.cell_rc[:, 1]]
    assert unit_problems(puzzle, swapped) == {
        "sub-grid at 0,0: row 1 is not a permutation",
        "sub-grid at 0,0: row 2 is not a permutation",
        "sub-grid at 0,0: column 1 is not a permutation",
        "sub-grid at 0,0: column 2 is not a permutation",
    }


def test_changed_givens_and_bad_symbols_are_named() -> None:
    [puzzle] = read_puzzles(text="1 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n")
    values = np.array([2, 1, 4, 3, 4, 3, 2, 1, 1, 2, 3, 4, 3, 4, 1, 9])
    found = problems(puzzle, values)
    assert "line 1, column 1: given 1 was changed to 2" in found
    assert "line 4, column 7: value 9 is not a symbol 1..4" in found  # text columns


def test_verify_all_rejects_exactly_the_broken_grids_of_a_batch(data: Path) -> None:
    puzzles = read_puzzles(data / "sudoku9" / "norvig_top95.txt")[:40]
    solutions = [r.values for r in solve_batch(puzzles)]
    verify_all(puzzles, solutions)
    rng = np.random.default_rng(5)
    for _ in range(30):
        broken = [None if v is None else v.copy() for v in solutions]
        k = int(rng.integers(len(puzzles)))
        cell = int(rng.integers(puzzles[k].n_cells))
        broken[k][cell] = rng.integers(0, 11)  # 0 and 10 are not symbols
        expected = problems(puzzles[k], broken[k])
        if not expected:
            verify_all(puzzles, broken)
            continue
        with pytest.raises(VerificationError, match=re.escape(expected[0])):
            verify_all(puzzles, broken)
        broken[k] = None  # a grid without an answer is not checked
        verify_all(puzzles, broken)


def hexadoku_lines(data: Path) -> str:
    """The janko 16×16 puzzles as one-line puzzles in 0-F, ``.`` for an empty cell."""
    lines = []
    for path in sorted((data / "janko" / "16x16").glob("*.puzzle.txt")):
        tokens = path.read_text().split()
        lines.append("".join("." if t == "0" else "0123456789ABCDEF"[int(t) - 1] for t in tokens))
    return "".join(line + "\n" for line in lines)


def test_a_given_not_printed_as_written_is_named(data: Path) -> None:
    puzzles = read_puzzles(text=hexadoku_lines(data))
    solutions = [r.values for r in solve_batch(puzzles)]
    verify_all(puzzles, solutions)
    first = puzzles[0]
    assert first.grid.style.alphabet == "0123456789ABCDEF"
    # A writer in the other alphabet would print each given one symbol off: "0" as "1".
    other = dataclasses.replace(first.grid.style, alphabet="123456789ABCDEFG")
    misprinting = [
        dataclasses.replace(p, grid=p.grid.with_values(p.grid.values, other)) for p in puzzles
    ]
    zero = int(np.flatnonzero(first.grid.written.ravel() == "0")[0])
    where = first.grid.locate(zero // 16, zero % 16)
    assert f"{where}: given 0 is printed as 1" in problems(misprinting[0], solutions[0])
    with pytest.raises(VerificationError, match="is printed as"):
        verify_all(misprinting, solutions)
    # A given read as an empty cell: its symbol is one the answer prints.
    dropped = first.givens.copy()
    dropped[zero] = 0
    lost = dataclasses.replace(first, givens=dropped)
    expected = f"{where}: 0 was read as an empty cell, but it is a symbol of the answer"
    assert expected in problems(lost, solutions[0])
