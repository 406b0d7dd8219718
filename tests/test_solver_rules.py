"""The exact solver on variant rules against the slow reference: every 4×4 sudoku (there
are 288), kept when it keeps every given and every rule (:func:`ndoku.model.constraints.holds`
and the verifier's reading of each rule), counted and compared with ``solve_exact``'s count,
and with the one solution it prints.

Random rules of every kind the 4×4 holds, on random givens: the propagation (pairs, sums,
cages and the sums they imply, renban, sandwich, skyscraper, more peers) must never lose a
solution, and never let a broken one through.
"""

from __future__ import annotations

import itertools
import random
from functools import cache

import numpy as np
import pytest

from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.exact import solve_exact
from ndoku.tasks.verify import problems

EMPTY = "0 0 0 0\n" * 4


@cache
def _all_grids() -> tuple[tuple[int, ...], ...]:
    """Every 4×4 sudoku, row by row."""
    rows = list(itertools.permutations(range(1, 5)))
    found = []
    for grid in itertools.product(rows, repeat=4):
        if all(len({grid[r][c] for r in range(4)}) == 4 for c in range(4)) and all(
            len({grid[r][c] for r in (br, br + 1) for c in (bc, bc + 1)}) == 4
            for br in (0, 2)
            for bc in (0, 2)
        ):
            found.append(tuple(v for row in grid for v in row))
    return tuple(found)


def test_there_are_288_four_by_four_sudokus() -> None:
    assert len(_all_grids()) == 288


def _rc(cell: int) -> str:
    return f"r{cell // 4 + 1}c{cell % 4 + 1}"


def _path(rng: random.Random, length: int) -> list[int]:
    """A random path of king's moves without repeats (shorter when it is boxed in)."""
    cell = rng.randrange(16)
    path = [cell]
    while len(path) < length:
        r, c = divmod(path[-1], 4)
        near = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)]
        steps = [a * 4 + b for a, b in near if 0 <= a < 4 and 0 <= b < 4 and a * 4 + b not in path]
        if not steps:
            break
        path.append(rng.choice(steps))
    return path


def _random_rule(rng: random.Random, solution: tuple[int, ...]) -> str:
    """A rule line; about half of them made to hold in ``solution`` (so puzzles have some
    solutions), the others random."""
    kind = rng.choice(
        ["cage", "thermo", "slow-thermo", "arrow", "white", "black", "x", "v", "even", "odd",
         "whisper", "renban", "palindrome", "little-killer", "sandwich", "skyscraper",
         "outside-sum", "antiknight", "antiking", "nonconsecutive", "negative", "region"]
    )  # fmt: skip
    fits = rng.random() < 0.5
    if kind in ("antiknight", "antiking", "nonconsecutive"):
        return kind
    if kind == "negative":
        return "negative: " + " ".join(rng.sample(["white", "black", "x", "v"], rng.randint(1, 2)))
    if kind in ("white", "black", "x", "v"):
        a = rng.randrange(16)
        r, c = divmod(a, 4)
        b = a + 1 if c < 3 and (r == 3 or rng.random() < 0.5) else a + 4 if r < 3 else a - 4
        return f"{kind}: {_rc(a)} {_rc(b)}"
    if kind in ("even", "odd"):
        return f"{kind}: " + " ".join(_rc(c) for c in rng.sample(range(16), rng.randint(1, 3)))
    if kind in ("sandwich", "skyscraper", "outside-sum", "little-killer"):
        side = rng.randrange(4)
        k = rng.randint(1, 4)
        clue = [f"r0c{k}", f"r5c{k}", f"r{k}c0", f"r{k}c5"][side]
        if kind == "little-killer":
            clue = rng.choice(["r0c2 dr", "r0c3 dl", "r2c0 dr", "r5c2 ur"])
            return f"little-killer {rng.randint(2, 12)} {clue.split()[1]}: {clue.split()[0]}"
        number = {"sandwich": rng.randint(0, 5), "skyscraper": rng.randint(1, 4)}
        return f"{kind} {number.get(kind, rng.randint(3, 7))}: {clue}"
    if kind in ("cage", "region"):
        cells = _path(rng, rng.randint(2, 4))
        if len({solution[c] for c in cells}) < len(cells) and fits:
            return f"region: {' '.join(map(_rc, cells[:1]))}"
        total = sum(solution[c] for c in cells) if fits else rng.randint(3, 10)
        number = f" {total}" if kind == "cage" and len(cells) > 1 else ""
        return f"{kind}{number}: " + " ".join(map(_rc, cells))
    path = _path(rng, rng.randint(2, 4))
    if len(path) < 2:
        path = [0, 1]
    if kind == "arrow":
        return f"arrow: {_rc(path[0])} > " + " ".join(map(_rc, path[1:]))
    if fits and kind in ("thermo", "slow-thermo"):
        path.sort(key=lambda c: solution[c])
        touching = all(
            abs(a // 4 - b // 4) <= 1 and abs(a % 4 - b % 4) <= 1
            for a, b in itertools.pairwise(path)
        )
        if not touching:
            path = [0, 1]
    return f"{kind}: " + " ".join(map(_rc, path))


def _puzzle(seed: int) -> Puzzle | None:
    """A random 4×4 with random rules, or None when its text is refused (a rule the givens
    break, a sum its cells cannot reach: the reader's business, tested elsewhere)."""
    rng = random.Random(seed)
    solution = rng.choice(_all_grids())
    givens = [v if rng.random() < 0.15 else 0 for v in solution]
    rows = "".join(" ".join(map(str, givens[r * 4 : r * 4 + 4])) + "\n" for r in range(4))
    rules = "\n".join(_random_rule(rng, solution) for _ in range(rng.randint(1, 4)))
    try:
        [puzzle] = read_puzzles(text=rows + "\n" + rules + "\n")
    except Exception as error:  # the reader refuses with an NdokuError
        assert type(error).__name__ in ("ParseError", "ConflictError", "LayoutError"), error
        return None
    return puzzle


def _reference(puzzle: Puzzle) -> list[tuple[int, ...]]:
    """The 4×4 sudokus that keep the puzzle's givens and every rule, by the verifier."""
    kept = []
    for grid in _all_grids():
        values = np.array(grid, dtype=np.int32)
        if ((puzzle.givens == 0) | (puzzle.givens == values)).all() and not problems(
            puzzle, values
        ):
            kept.append(grid)
    return kept


@pytest.mark.parametrize("seed", range(400))
def test_counts_and_answers_agree_with_every_grid_checked(seed: int) -> None:
    puzzle = _puzzle(seed)
    if puzzle is None:
        return
    expected = _reference(puzzle)
    result = solve_exact(puzzle, limit=300)
    assert result.count == len(expected), [r for r in puzzle.rules]
    if expected:
        assert tuple(int(v) for v in result.values) in expected
