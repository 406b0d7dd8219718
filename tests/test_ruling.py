"""Rules drawn to fit a generated solution: every neighbouring pair marked exactly when its
values make the mark (against the canvas read directly); thermometers, whispers and arrows
that keep their rule on the solution, read back as paths; and ``generate --rules`` of each
kind, read back, proved unique and checked."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest

from ndoku.model.puzzle import read_puzzles
from ndoku.solvers.exact import solve_exact
from ndoku.solvers.random import generator
from ndoku.tasks.generate import generate, layout_puzzle, puzzle_text, random_solution
from ndoku.tasks.ruling import mark_lines, path_lines
from ndoku.tasks.verify import problems

#: What each mark says of two values, written out again for the reference.
MEANING = {
    "white": lambda a, b: abs(a - b) == 1,
    "x": lambda a, b: a + b == 10,
    "v": lambda a, b: a + b == 5,
}


def _reference(canvas: np.ndarray, kinds: tuple[str, ...]) -> set[tuple[str, tuple[int, int]]]:
    """(kind, (cell, cell)) of every pair of canvas neighbours whose values make the mark."""
    found = set()
    rows, cols = canvas.shape
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0)):
                r2, c2 = r + dr, c + dc
                if r2 < rows and c2 < cols and canvas[r, c] > 0 and canvas[r2, c2] > 0:
                    for kind in kinds:
                        if MEANING[kind](int(canvas[r, c]), int(canvas[r2, c2])):
                            found.add((kind, ((r, c), (r2, c2))))
    return found


@pytest.mark.parametrize("layout", ["4x4", "6x6", "9x9", "samurai", "16x16"])
@pytest.mark.parametrize(("rules", "kinds"), [("consecutive", ("white",)), ("xv", ("x", "v"))])
def test_every_pair_is_marked_exactly_when_its_values_make_the_mark(
    layout: str, rules: str, kinds: tuple[str, ...]
) -> None:
    puzzle = layout_puzzle(layout)
    for seed in range(2):
        solution = random_solution(puzzle, generator(seed), float("inf"))
        assert solution is not None
        lines = mark_lines(puzzle, solution, rules)
        text = puzzle_text(puzzle) + "\n" + "".join(f"{line}\n" for line in lines)
        [marked] = read_puzzles(text=text)
        rc = marked.cell_rc
        drawn = {
            (rule.kind, tuple(sorted(tuple(int(x) for x in rc[c]) for c in rule.cells)))
            for rule in marked.rules
            if rule.kind != "negative"
        }
        assert drawn == _reference(puzzle.canvas(solution), kinds)
        assert [r.words for r in marked.rules if r.kind == "negative"] == [kinds]
        assert problems(marked, solution) == []


@pytest.mark.parametrize("rules", ["consecutive", "xv"])
@pytest.mark.parametrize("layout", ["6x6", "9x9", "jigsaw9", "samurai"])
def test_a_generated_puzzle_with_marks_reads_back_unique(rules: str, layout: str) -> None:
    made = generate(layout_puzzle(layout), rules=rules, seed=1)
    [again] = read_puzzles(text=made.text)
    proof = solve_exact(again)
    assert proof.unique and np.array_equal(proof.values, made.solution)
    assert problems(again, made.solution) == [] and made.rating.status == "unique"
    assert made.givens < generate(layout_puzzle(layout), seed=1).givens
    if rules == "consecutive":
        # every dot shown is symmetric under v -> N + 1 - v: one given at least tells the two
        # grids apart
        assert made.givens >= 1


@pytest.mark.parametrize("layout", ["6x6", "9x9", "samurai"])
@pytest.mark.parametrize("rules", ["thermo", "whisper", "arrow"])
def test_lines_and_arrows_keep_their_rule_and_share_no_cell(layout: str, rules: str) -> None:
    puzzle = layout_puzzle(layout)
    solution = random_solution(puzzle, generator(5), float("inf"))
    assert solution is not None
    lines = path_lines(puzzle, solution, rules, generator(5))
    [drawn] = read_puzzles(text=puzzle_text(puzzle) + "\n" + "".join(f"{x}\n" for x in lines))
    cells = [c for rule in drawn.rules for c in rule.cells]
    assert len(cells) == len(set(cells)) and len(cells) >= 0.4 * puzzle.n_cells
    gap = (puzzle.size + 1) // 2
    for rule in drawn.rules:
        values = [int(solution[c]) for c in rule.cells]
        assert rule.kind == rules
        if rules == "thermo":
            assert len(values) >= 3 and values == sorted(set(values))
        elif rules == "whisper":
            assert all(abs(a - b) >= gap for a, b in pairwise(values))
        else:
            assert rule.head == 1 and values[0] == sum(values[1:]) and len(values) >= 3
    assert problems(drawn, solution) == []


@pytest.mark.parametrize("rules", ["thermo", "whisper", "arrow"])
def test_a_generated_puzzle_with_lines_reads_back_unique(rules: str) -> None:
    made = generate(layout_puzzle("9x9"), rules=rules, seed=1)
    [again] = read_puzzles(text=made.text)
    proof = solve_exact(again)
    assert proof.unique and np.array_equal(proof.values, made.solution)
    assert {rule.kind for rule in again.rules} == {rules}
    assert made.givens < generate(layout_puzzle("9x9"), seed=1).givens
