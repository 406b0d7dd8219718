"""The exact solver on variant rules against the slow reference: every 4×4 sudoku (there
are 288), kept when it keeps every given and every rule (:func:`ndoku.model.constraints.holds`
and the verifier's reading of each rule), counted and compared with ``solve_exact``'s count,
and with the one solution it prints.

Random rules of every kind the 4×4 holds, on random givens: the propagation (pairs, sums,
cages and the sums they imply, renban, sandwich, skyscraper, more peers) must never lose a
solution, and never let a broken one through.
"""

from __future__ import annotations

import pytest

from ndoku.solvers.exact import solve_exact

from helpers import all_grids, kept_grids, random_ruled_puzzle


def test_there_are_288_four_by_four_sudokus() -> None:
    assert len(all_grids()) == 288


@pytest.mark.parametrize("seed", range(400))
def test_counts_and_answers_agree_with_every_grid_checked(seed: int) -> None:
    puzzle = random_ruled_puzzle(seed)
    if puzzle is None:
        return
    expected = kept_grids(puzzle)
    result = solve_exact(puzzle, limit=300)
    assert result.count == len(expected), [r for r in puzzle.rules]
    if expected:
        assert tuple(int(v) for v in result.values) in expected
