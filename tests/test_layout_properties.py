"""Random valid layouts (rectangular boxes, jigsaw maps, extra units): every method solves them.

Solved grids come from ndoku itself (a Metropolis chain from the empty layout, checked by
``verify``); puzzles keep a random part of such a grid as givens, so they have a solution.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.tasks.solve import Options, solve
from ndoku.tasks.verify import problems

METHODS = ("auto", "exact", "metropolis", "hybrid")
BOXES = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (3, 4), (4, 3), (2, 5)]
QUICK = Options(timeout=20.0)
PROPERTY = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def text_of(values: np.ndarray, headers: str = "", regions: np.ndarray | None = None) -> str:
    grid = "\n".join(" ".join(str(int(v)) for v in row) for row in values) + "\n"
    if regions is not None:
        letters = "abcdefghijklmnopqrstuvwxyz"
        grid += "\n" + "\n".join(" ".join(letters[k] for k in row) for row in regions) + "\n"
    return headers + grid


def solved_grid(puzzle: Puzzle, seed: int) -> np.ndarray:
    """A solution of ``puzzle`` found by a seeded chain (every method is checked elsewhere)."""
    outcome = solve(puzzle, "metropolis", Options(seed=seed, timeout=30.0))
    assert outcome.status == "solved" and problems(puzzle, outcome.values) == []
    return puzzle.canvas(outcome.values)


def keep_some(solution: np.ndarray, rng: np.random.Generator, fraction: float) -> np.ndarray:
    return np.where(rng.random(solution.shape) < fraction, solution, 0)


def check_every_method(text: str) -> None:
    [puzzle] = read_puzzles(text=text)
    for method in METHODS:
        outcome = solve(puzzle, method, QUICK)
        assert outcome.answered, (method, outcome.status)
        assert problems(puzzle, outcome.values) == []


@PROPERTY
@given(box=st.sampled_from(BOXES), seed=st.integers(0, 2**16), fraction=st.floats(0.3, 0.7))
def test_rectangular_boxes(box: tuple[int, int], seed: int, fraction: float) -> None:
    size = box[0] * box[1]
    header = f"# box: {box[0]}x{box[1]}\n"
    [empty] = read_puzzles(text=text_of(np.zeros((size, size), dtype=int), header))
    solution = solved_grid(empty, seed)
    check_every_method(text_of(keep_some(solution, np.random.default_rng(seed), fraction), header))


def random_regions(
    solution: np.ndarray, box: tuple[int, int], rng: np.random.Generator
) -> np.ndarray:
    """Boxes reshaped at random: swapping two cells of equal value between two regions
    keeps every region a permutation of the symbols of the solved grid."""
    size = solution.shape[0]
    rows, cols = np.indices(solution.shape)
    regions = (rows // box[0]) * (size // box[1]) + cols // box[1]
    for _ in range(4 * size * size):
        value = rng.integers(1, size + 1)
        a, b = rng.choice(np.argwhere(solution == value), size=2, replace=False)
        regions[tuple(a)], regions[tuple(b)] = regions[tuple(b)], regions[tuple(a)]
    return regions


@PROPERTY
@given(
    box=st.sampled_from([(2, 2), (2, 3), (3, 3), (2, 4)]),
    seed=st.integers(0, 2**16),
    fraction=st.floats(0.35, 0.7),
)
@example(box=(2, 2), seed=65536, fraction=0.5)  # a region that is also a row
@example(box=(2, 2), seed=1789, fraction=0.5)  # scattered regions, no two side by side
def test_random_jigsaw_maps(box: tuple[int, int], seed: int, fraction: float) -> None:
    size = box[0] * box[1]
    header = f"# box: {box[0]}x{box[1]}\n"
    [empty] = read_puzzles(text=text_of(np.zeros((size, size), dtype=int), header))
    solution = solved_grid(empty, seed)
    rng = np.random.default_rng(seed)
    regions = random_regions(solution, box, rng)
    [jigsaw] = read_puzzles(text=text_of(solution, regions=regions))
    assert jigsaw.layout.box is None and problems(jigsaw, jigsaw.givens) == []
    check_every_method(text_of(keep_some(solution, rng, fraction), regions=regions))


@PROPERTY
@given(
    extra=st.sampled_from(["diagonals", "windoku", "diagonals, windoku"]),
    seed=st.integers(0, 2**16),
    fraction=st.floats(0.3, 0.6),
)
def test_extra_units(extra: str, seed: int, fraction: float) -> None:
    header = f"# extra: {extra}\n"
    [empty] = read_puzzles(text=text_of(np.zeros((9, 9), dtype=int), header))
    solution = solved_grid(empty, seed)
    check_every_method(text_of(keep_some(solution, np.random.default_rng(seed), fraction), header))


@pytest.mark.parametrize("name", ["twodoku16", "6x6", "12x12", "jigsaw9", "xsudoku", "windoku"])
def test_bundled_templates_are_solvable_from_empty(name: str) -> None:
    [empty] = read_puzzles(f"layouts/{name}.txt", layout=name)
    outcome = solve(empty, "auto", Options(limit=1))
    assert outcome.answered and problems(empty, outcome.values) == []
