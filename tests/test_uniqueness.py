"""Uniqueness techniques (unique rectangles and loops, BUG): never a step that removes the
one solution of a board that has one, on layouts with extra units too; deadly patterns,
graves and what a rescue removes equal to plain references on small candidate grids; where
they must not fire; and only with ``assume_unique`` in a path."""

from __future__ import annotations

from itertools import combinations, product
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.exact import solve_exact
from ndoku.solvers.logic import Board, solve_path
from ndoku.solvers.logic import uniqueness as uq
from ndoku.solvers.logic.path import LEVEL_OF, TECHNIQUES, UNIQUENESS
from ndoku.solvers.logic.uniqueness import (
    STEP_NAMES,
    bivalue_universal_grave,
    deadly_patterns,
    grave_rescue,
    unique_loops,
)

DATA = Path(__file__).parent / "data"
X4 = read_puzzles(text="# extra: diagonals\n" + "0 0 0 0\n" * 4)[0]
FOUR = read_puzzles(text="0 0 0 0\n" * 4)[0]
SIX = read_puzzles(text="# box: 2x3\n" + "0 0 0 0 0 0\n" * 6)[0]
X6 = read_puzzles(text="# box: 2x3\n# extra: diagonals\n" + "0 0 0 0 0 0\n" * 6)[0]
SMALL = [FOUR, X4, SIX, X6]
NINE = read_puzzles(text="0 0 0 0 0 0 0 0 0\n" * 9)[0]
X9 = read_puzzles(text="# extra: diagonals\n" + "0 0 0 0 0 0 0 0 0\n" * 9)[0]
_BASE: dict[int, np.ndarray] = {}


def base(puzzle: Puzzle) -> np.ndarray:
    """A solution of the layout of ``puzzle`` (one of those above: any solution of the empty
    grid), solved when first asked rather than at import, so that collecting the tests
    compiles no kernel (each worker waited for the other's compile)."""
    if id(puzzle) not in _BASE:
        _BASE[id(puzzle)] = solve_exact(puzzle).values
    return _BASE[id(puzzle)]


# --- boards ------------------------------------------------------------------------------


def _around(puzzle: Puzzle, data: st.DataObject, often: tuple[float, ...] = (0.6, 0.9)) -> Board:
    """A board holding a solution of ``puzzle`` (symbols shuffled): each free cell has its
    value and, each at random (one of ``often``), two or three other values shared by the
    whole board (so that cells with the same two candidates abound); some cells are placed."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    chance = data.draw(st.sampled_from(often))
    placed = data.draw(st.sampled_from([0.0, 0.2, 0.4]))  # the share of cells placed
    size, n = puzzle.size, puzzle.n_cells
    solution = rng.permutation(size)[base(puzzle) - 1] + 1
    shared = rng.choice(size, data.draw(st.integers(2, 3)), replace=False)
    board = Board.start(puzzle)
    board.cand[:] = False
    board.cand[np.arange(n), solution - 1] = True
    board.cand[:, shared] |= rng.random((n, len(shared))) < chance
    for cell in np.flatnonzero(rng.random(n) < placed):
        board.place(int(cell), int(solution[cell]))
    return board


def _grave(puzzle: Puzzle, data: st.DataObject) -> Board:
    """A bivalue universal grave and a few candidates more: two solutions of ``puzzle`` (the
    second with its symbols moved round a cycle, so every cell differs) as each cell's two
    candidates, then one to three random candidates added."""
    size, n = puzzle.size, puzzle.n_cells
    one = base(puzzle)
    shift = data.draw(st.integers(1, size - 1))
    other = (one - 1 + shift) % size + 1
    board = Board.start(puzzle)
    board.cand[:] = False
    board.cand[np.arange(n), one - 1] = board.cand[np.arange(n), other - 1] = True
    for _ in range(data.draw(st.integers(1, 3))):
        board.cand[data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, size - 1))] = True
    return board


def solutions(board: Board, most: int) -> list[np.ndarray]:
    """Up to ``most`` solutions of a board: its placed values, a candidate in each free cell,
    no two peers alike (every unit is full, so each then holds every value once)."""
    sees, cand = board.tables.sees, board.cand
    values = board.values.copy()
    free = sorted(np.flatnonzero(values == 0), key=lambda c: cand[c].sum())
    found: list[np.ndarray] = []

    def fill(i: int) -> None:
        if len(found) == most:
            return
        if i == len(free):
            found.append(values.copy())
            return
        cell = free[i]
        for v in np.flatnonzero(cand[cell]) + 1:
            if not (values[sees[cell]] == v).any():
                values[cell] = v
                fill(i + 1)
                values[cell] = 0

    fill(0)
    return found


# --- soundness: the one solution is never removed ---------------------------------------


@settings(max_examples=1000, deadline=None)
@given(st.data(), st.sampled_from(SMALL))
def test_a_pattern_never_removes_the_one_solution(data: st.DataObject, puzzle: Puzzle) -> None:
    board = _around(puzzle, data)
    step = unique_loops(board)
    if step is None:
        return
    found = solutions(board, 2)
    if len(found) == 1:  # unique: the solution holds a rescue and keeps every value
        [solution] = found
        assert any(solution[c] == v for c, v in step.rescue), step
        assert all(solution[c] != v for c, v in step.eliminations), step


@settings(max_examples=600, deadline=None)
@given(st.data(), st.sampled_from(SMALL))
def test_every_solution_holding_a_rescue_survives_what_it_removes(
    data: st.DataObject, puzzle: Puzzle
) -> None:
    """Types 1, 2, 3 (naked) and 4 on any rescue: the solutions holding one of its candidates
    lose nothing."""
    board = _around(puzzle, data)
    units = board.tables.units
    where = data.draw(st.sampled_from([*units, np.arange(puzzle.n_cells)]))  # mostly a unit
    free = [int(c) for c in where if board.values[c] == 0]
    assume(free)
    cells = data.draw(st.lists(st.sampled_from(free), min_size=1, max_size=3, unique=True))
    rescue = {}
    for c in cells:
        choices = [int(v) for v in np.flatnonzero(board.cand[c])]
        rescue[c] = sorted(data.draw(st.sets(st.sampled_from(choices), min_size=1, max_size=2)))
    held = [
        s
        for s in solutions(board, 200)
        if any(s[c] == v + 1 for c, vs in rescue.items() for v in vs)
    ]
    for found in uq._consequences(board, board.lacking(), rescue, None):
        for s in held:
            assert all(s[c] != v for c, v in found.eliminations), (found, rescue)


# --- references ---------------------------------------------------------------------------


def ref_patterns(board: Board, most: int) -> set[tuple[int, int, tuple[int, ...]]]:
    """Every deadly pattern of at most ``most`` cells, by trying every set of cells with the
    same two candidates that no unit holds three of: each unit holds 0 or 2 of them, the
    cells sharing a unit can be coloured in two colours (no unit holds two of one colour),
    and they are connected through units; a cell of exactly the two, and at most two of more
    (any number when their other values are one value)."""
    units = [set(u.tolist()) for u in board.tables.units]
    cand, size = board.cand, board.tables.size
    found = set()

    def grow(x: int, y: int, both: list[int], cells: list[int], start: int) -> None:
        meet = [u & set(cells) for u in units]
        if len(cells) >= 2 and all(len(m) in (0, 2) for m in meet):
            loose = [c for c in cells if cand[c].sum() > 2]
            others = set().union(*({int(v) for v in np.flatnonzero(cand[c])} for c in loose))
            fits = len(loose) < len(cells) and (len(loose) <= 2 or len(others - {x, y}) == 1)
            if fits and _two_coloured(tuple(cells), [m for m in meet if m]):
                found.add((x + 1, y + 1, tuple(cells)))
        if len(cells) == most:
            return
        for i in range(start, len(both)):
            if all(len(m) < 2 for u, m in zip(units, meet, strict=True) if both[i] in u):
                grow(x, y, both, [*cells, both[i]], i + 1)

    for x, y in combinations(range(size), 2):
        both = [c for c in range(len(cand)) if cand[c, x] and cand[c, y] and not board.values[c]]
        grow(x, y, both, [], 0)
    return found


def _two_coloured(cells: tuple[int, ...], pairs: list[set[int]]) -> bool:
    """Whether the cells, joined by the pairs, are connected and two-colourable."""
    colour = {cells[0]: 0}
    todo = [cells[0]]
    while todo:
        c = todo.pop()
        for pair in pairs:
            if c in pair:
                [d] = pair - {c}
                if d not in colour:
                    colour[d] = 1 - colour[c]
                    todo.append(d)
                elif colour[d] == colour[c]:
                    return False
    return len(colour) == len(cells)


def ref_consequences(
    board: Board, rescue: dict[int, list[int]], pair: tuple[int, int] | None
) -> set[tuple[int, int]]:
    """What a rescue (cell → values from 0, one true) removes, rule by rule as the module
    glossary states them."""
    cand, sees, size = board.cand, board.tables.sees, board.tables.size
    units = board.tables.units
    holders = sorted(rescue)
    values = {v for vs in rescue.values() for v in vs}
    out: set[tuple[int, int]] = set()
    if len(holders) == 1:
        [c] = holders
        return {(c, v + 1) for v in range(size) if cand[c, v] and v not in rescue[c]}
    if len(values) == 1:
        [z] = values
        out |= {
            (c, z + 1)
            for c in range(len(cand))
            if cand[c, z] and c not in rescue and all(sees[c, h] for h in holders)
        }
    for unit in units:
        cells = [int(c) for c in unit]
        if not set(holders) <= set(cells):
            continue
        lacking = [v for v in range(size) if v + 1 not in board.values[cells]]
        rest = [c for c in cells if c not in rescue and not board.values[c]]
        if len(holders) == 2:  # type 4
            for w in lacking:
                spots = [c for c in cells if cand[c, w]]
                if sorted(spots) == holders and all(w not in rescue[c] for c in holders):
                    out |= {
                        (c, v + 1)
                        for c in holders
                        for v in range(size)
                        if cand[c, v] and v != w and v not in rescue[c]
                    }
        if len(values) >= 2:  # type 3, naked
            for k in range(2, uq.MOST_SUBSET + 1):
                for group in combinations(rest, k - 1):
                    if not all(2 <= cand[c].sum() <= uq.MOST_SUBSET for c in group):
                        continue
                    union = values | {int(v) for c in group for v in np.flatnonzero(cand[c])}
                    if len(union) == k:
                        out |= {
                            (c, v + 1) for c in rest if c not in group for v in union if cand[c, v]
                        }
        if pair is not None and len(holders) == 2 and set(pair) <= set(lacking):  # hidden
            more = [v for v in lacking if v not in pair and v not in values]
            for k in range(2, uq.MOST_SUBSET + 1):
                for extra in combinations(more, k - 2):
                    hidden = {*pair, *extra}
                    spots = [c for c in cells if c not in rescue and cand[c, list(hidden)].any()]
                    if len(spots) == k - 1:
                        out |= {
                            (c, v + 1)
                            for c in spots
                            for v in range(size)
                            if cand[c, v] and v not in hidden
                        }
    return out


def ref_loops(board: Board, most: int) -> set[tuple[int, int]]:
    """Every elimination of every pattern of at most ``most`` cells."""
    out = set()
    for x, y, cells in ref_patterns(board, most):
        rescue = {
            c: [v for v in range(board.tables.size) if board.cand[c, v] and v + 1 not in (x, y)]
            for c in cells
        }
        rescue = {c: vs for c, vs in rescue.items() if vs}
        if rescue:
            out |= ref_consequences(board, rescue, (x - 1, y - 1))
    return out


@settings(max_examples=100, deadline=None)
@given(st.data(), st.sampled_from(SMALL))
def test_deadly_patterns_equal_the_reference(data: st.DataObject, puzzle: Puzzle) -> None:
    board = _around(puzzle, data, often=(0.6,))  # denser, the reference takes minutes
    mine = {p for p in deadly_patterns(board) if len(p[2]) <= 8}
    assert mine == ref_patterns(board, 8)


@settings(max_examples=100, deadline=None)
@given(st.data(), st.sampled_from(SMALL))
def test_unique_loops_equal_the_reference(data: st.DataObject, puzzle: Puzzle) -> None:
    board = _around(puzzle, data, often=(0.6,))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(uq, "MOST_PATTERN", 8)
        step = unique_loops(board)
    expected = ref_loops(board, 8)
    assert (step is None) == (not expected), expected
    if step is not None:
        assert set(step.eliminations) <= expected, (step, expected)


def ref_graves(board: Board) -> list[dict[int, list[int]]]:
    """Every choice of candidates whose removal leaves a bivalue universal grave: c − 2 of
    the c candidates of each cell with more than two, tried every way."""
    cand, units = board.cand, board.tables.units
    free = np.flatnonzero(board.values == 0)
    wide = [int(c) for c in free if cand[c].sum() > 2]
    if not wide or any(cand[c].sum() < 2 for c in free):
        return []
    ways = [
        [(c, drop) for drop in combinations(np.flatnonzero(cand[c]).tolist(), cand[c].sum() - 2)]
        for c in wide
    ]
    found = []
    for choice in product(*ways):
        left = cand.copy()
        for c, drop in choice:
            left[c, list(drop)] = False
        lacking = [
            [v + 1 not in board.values[cells] for v in range(board.tables.size)] for cells in units
        ]
        places = left[units].sum(axis=1)
        if (places == np.where(lacking, 2, 0)).all():
            found.append({c: list(drop) for c, drop in choice})
    return found


@settings(max_examples=150, deadline=None)
@given(st.data(), st.sampled_from([*SMALL, NINE, X9]))
def test_graves_equal_the_reference(data: st.DataObject, puzzle: Puzzle) -> None:
    board = _grave(puzzle, data)
    mine = grave_rescue(board)
    every = ref_graves(board)
    assert (mine is None) == (not every)
    if mine is not None:
        assert mine in every
        step = bivalue_universal_grave(board)
        expected = ref_consequences(board, mine, None)
        assert (step is None) == (not expected)
        if step is not None:
            assert set(step.eliminations) <= expected
            assert {(c, v - 1) for c, v in step.rescue} == {
                (c, v) for c, vs in mine.items() for v in vs
            }


# --- where they must not fire -------------------------------------------------------------


def _rectangle(puzzle: Puzzle, corners: list[tuple[int, int]]) -> Board:
    """An open board of ``puzzle`` where the cells at ``corners`` (rows and columns from 1)
    have candidates 1 and 2, the last 3 as well, and no other cell has 1 or 2."""
    board = Board.start(puzzle)
    board.cand[:, :2] = False
    cells = [int(puzzle.index[r - 1, c - 1]) for r, c in corners]
    board.cand[cells] = False
    board.cand[cells, :2] = True
    board.cand[cells[-1], 2] = True
    return board


RECTANGLE = [(1, 1), (1, 4), (3, 1), (3, 4)]  # two rows, two columns, two boxes


def test_a_rectangle_in_two_boxes_fires_and_other_shapes_do_not() -> None:
    step = unique_loops(_rectangle(NINE, RECTANGLE))
    assert step is not None and step.technique == "unique rectangle type 1"
    assert set(step.eliminations) == {(int(NINE.index[2, 3]), 1), (int(NINE.index[2, 3]), 2)}
    for corners in (
        [(1, 1), (1, 2), (2, 1), (2, 2)],  # one box holds all four
        [(1, 1), (1, 4), (4, 1), (4, 4)],  # four boxes, each holding one
    ):
        assert unique_loops(_rectangle(NINE, corners)) is None, corners


def test_an_extra_unit_through_one_corner_breaks_the_pattern() -> None:
    # the X-sudoku diagonal holds r1c1 and no other corner: swapping 1 and 2 would put two
    # of one value on it
    assert unique_loops(_rectangle(X9, RECTANGLE)) is None
    # off the diagonals the same rectangle is a pattern there too
    off = [(1, 2), (1, 4), (3, 2), (3, 4)]
    for puzzle in (NINE, X9):
        step = unique_loops(_rectangle(puzzle, off))
        assert step is not None and step.technique == "unique rectangle type 1"


def test_a_given_in_the_rectangle_leaves_no_pattern() -> None:
    board = _rectangle(NINE, RECTANGLE)
    board.place(int(NINE.index[0, 0]), 1)  # r1c1 given: the other corners lose 1
    assert unique_loops(board) is None


# --- in a path ----------------------------------------------------------------------------

DIABOLICAL = read_puzzles(DATA / "sudoku9" / "sudoku_exchange_diabolical_first100.txt")


def test_a_path_uses_them_only_when_asked_and_soundly() -> None:
    used = set()
    for puzzle in DIABOLICAL[:30]:
        solution = solve_exact(puzzle).values
        assert solution is not None
        plain = solve_path(puzzle, solution=solution)
        assert not {s.technique for s in plain.steps} & set(STEP_NAMES)
        path = solve_path(puzzle, solution=solution, assume_unique=True)
        assert path.solved and (path.values == solution).all()
        for step in path.steps:
            if step.technique in STEP_NAMES:
                used.add(step.technique)
                assert all(solution[c] != v for c, v in step.eliminations), step
                assert any(solution[c] == v for c, v in step.rescue), step
    assert {"unique rectangle type 1", "unique rectangle type 2", "BUG type 1"} <= used


def test_each_name_is_a_wing_and_generate_refuses_them() -> None:
    from ndoku.errors import NdokuError
    from ndoku.tasks.thinning import Aim

    assert {LEVEL_OF[name] for name in STEP_NAMES} == {"wings"}
    # Sukaku Explainer's places: after the XYZ-wing, and after the WXYZ-wing
    names = [name for name, _, _ in TECHNIQUES]
    for before, name in [("XYZ-wing", "unique rectangles and loops"),
                         ("WXYZ-wing", "bivalue universal grave")]:  # fmt: skip
        assert name in UNIQUENESS and names.index(name) == names.index(before) + 1
    with pytest.raises(NdokuError, match="uniqueness technique"):
        Aim.of(None, "Unique rectangle type 1")
