"""The logic engine: every step sound on real puzzles of every layout, and every technique
equal to a slow, obviously correct reference on random candidate grids, including where it
must not fire."""

from __future__ import annotations

from itertools import combinations, pairwise
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndoku.errors import NdokuError
from ndoku.model.layout import available_layouts
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.model.units import BOX, COLUMN, ROW
from ndoku.solvers.exact import solve_exact
from ndoku.solvers.logic import LEVELS, Board, solve_path
from ndoku.solvers.logic.chains import w_wing, xy_wing, xyz_wing
from ndoku.solvers.logic.forcing import dynamic_chain, graph
from ndoku.solvers.logic.implications import forcing_chain
from ndoku.solvers.logic.techniques import (
    fish,
    full_house,
    hidden_single,
    hidden_subset,
    locked_candidates,
    naked_single,
    naked_subset,
)
from ndoku.solvers.logic.wings import wing
from ndoku.tasks.generate import generate, layout_puzzle

DATA = Path(__file__).parent / "data"
SETS = [
    ("sudoku9/norvig_easy50.txt", None),
    ("sudoku9/kaggle_bryanpark_first69.txt", None),
    ("sudoku9/norvig_top95.txt", None),
    ("sudoku9/sudoku_exchange_diabolical_first100.txt", None),
    *((str(p.relative_to(DATA)), None) for p in sorted(DATA.glob("janko/*/*.puzzle.txt"))),
    *((str(p.relative_to(DATA)), None) for p in sorted(DATA.glob("samurai/*_*[!l].txt"))),
]


def _read(relative: str) -> list[Puzzle]:
    layout = "windmill" if "windmill" in relative else None
    return read_puzzles(DATA / relative, layout=layout)


def assert_sound(puzzle: Puzzle) -> str:
    """Every placement is the solution's value, every elimination a value it does not have,
    and a solved path ends at the solution; the path's stop."""
    solution = solve_exact(puzzle).values
    assert solution is not None
    path = solve_path(puzzle)
    for step in path.steps:
        for cell, value in step.placements:
            assert solution[cell] == value, step
        for cell, value in step.eliminations:
            assert solution[cell] != value, step
        assert step.placements or step.eliminations, step
    assert path.level in LEVELS
    if path.solved:
        assert (path.values == solution).all()
    return path.stop


@pytest.mark.parametrize(("relative", "_"), SETS, ids=[s for s, _ in SETS])
def test_every_step_is_sound(relative: str, _: None) -> None:
    stops = [assert_sound(p) for p in _read(relative)[:40]]
    assert set(stops) <= {"solved", "stuck"}


def test_easy_sets_and_published_multigrids_are_solved_by_logic() -> None:
    for relative in ["sudoku9/norvig_easy50.txt", "sudoku9/kaggle_bryanpark_first69.txt"]:
        assert all(solve_path(p).solved for p in _read(relative))
    for relative, _ in SETS[4:]:
        assert all(solve_path(p).solved for p in _read(relative)), relative


@pytest.mark.parametrize(
    "relative",
    ["sudoku9/sudoku_exchange_diabolical_first100.txt", "sudoku9/forum_hardest_1106_first40.txt"],
)
def test_with_the_solution_every_path_ends_solved(relative: str) -> None:
    for puzzle in _read(relative)[:8]:
        solution = solve_exact(puzzle).values
        path = solve_path(puzzle, solution=solution)
        assert path.solved and (path.values == solution).all()
        for step in path.steps:
            if step.technique != "guess":  # a guess is the solution's value, not a deduction
                assert all(solution[c] == v for c, v in step.placements)
                assert all(solution[c] != v for c, v in step.eliminations)


def test_a_contradiction_stops_the_path() -> None:
    # r1c1 must be 1 (its row holds 2, 3, 4) but its column holds 1
    [p] = read_puzzles(text="0 2 3 4\n0 0 0 0\n1 0 0 0\n0 0 0 0\n")
    assert solve_path(p).stop == "contradiction"


def test_a_path_goes_on_from_entries() -> None:
    [p] = read_puzzles(DATA / "sudoku9/norvig_easy50.txt")[:1]
    path = solve_path(p)
    entries = p.givens.copy()
    first = path.steps[0].placements[0]
    entries[first[0]] = first[1]
    rest = solve_path(p, entries)
    assert rest.solved and len(rest.steps) == len(path.steps) - 1


# --- references ------------------------------------------------------------------------


def _board(puzzle: Puzzle, data: st.DataObject) -> Board:
    """A board of ``puzzle`` with random placed values and random candidates (not
    necessarily consistent: the techniques are pattern rules, true on any board)."""
    board = Board.start(puzzle)
    n, size = puzzle.n_cells, puzzle.size
    placed = data.draw(st.lists(st.integers(0, size), min_size=n, max_size=n))
    for cell, value in enumerate(placed):
        if value and data.draw(st.integers(0, 5)) == 0:
            board.values[cell] = value
    keep = data.draw(st.lists(st.integers(0, 3), min_size=n * size, max_size=n * size))
    board.cand[:] = np.array(keep).reshape(n, size) > 0
    board.cand[board.values > 0] = False
    ptr, peers = puzzle.peers
    for cell in np.flatnonzero(board.values):  # a placed value leaves its peers, as in play
        board.cand[peers[ptr[cell] : ptr[cell + 1]], board.values[cell] - 1] = False
    return board


def _lacks(board: Board, u: int, value: int) -> bool:
    return value not in board.values[board.tables.units[u]].tolist()


def ref_singles(board: Board) -> set[tuple[str, int, int]]:
    """(kind, cell, value) of every full house, hidden single and naked single."""
    found = set()
    for u, cells in enumerate(board.tables.units):
        free = [c for c in cells if board.values[c] == 0]
        for value in range(1, board.tables.size + 1):
            if not _lacks(board, u, value):
                continue
            spots = [c for c in cells if board.cand[c, value - 1]]
            if len(spots) == 1:
                found.add(("hidden", int(spots[0]), value))
        if len(free) == 1:
            missing = [v for v in range(1, board.tables.size + 1) if _lacks(board, u, v)]
            found.add(("full", int(free[0]), missing[0]))
    for c in range(len(board.values)):
        if board.values[c] == 0 and board.cand[c].sum() == 1:
            found.add(("naked", c, int(np.flatnonzero(board.cand[c])[0]) + 1))
    return found


def ref_locked(board: Board) -> set[tuple[int, int]]:
    """Eliminations of every locked-candidates pattern, by brute force over unit pairs."""
    units = [set(u.tolist()) for u in board.tables.units]
    out = set()
    for a, b in combinations(range(len(units)), 2):
        for x, y in ((a, b), (b, a)):
            shared = units[x] & units[y]
            if len(shared) < 2:
                continue
            for v in range(board.tables.size):
                spots = {c for c in units[x] if board.cand[c, v]}
                if spots and spots <= shared:
                    out |= {(c, v + 1) for c in units[y] - units[x] if board.cand[c, v]}
    return out


def ref_naked(board: Board, k: int) -> set[tuple[int, int]]:
    out = set()
    for cells in board.tables.units:
        free = [int(c) for c in cells if board.values[c] == 0]
        for group in combinations(free, k):
            union = set().union(*({int(v) for v in np.flatnonzero(board.cand[c])} for c in group))
            if len(union) == k and all(board.cand[c].sum() >= 2 for c in group):
                out |= {
                    (c, v + 1) for c in free if c not in group for v in union if board.cand[c, v]
                }
    return out


def ref_hidden(board: Board, k: int) -> set[tuple[int, int]]:
    out = set()
    for u, cells in enumerate(board.tables.units):
        missing = [v for v in range(board.tables.size) if _lacks(board, u, v + 1)]
        for group in combinations(missing, k):
            spots = {int(c) for c in cells for v in group if board.cand[c, v]}
            counts = [sum(board.cand[c, v] for c in cells) for v in group]
            if len(spots) == k and min(counts) >= 2:
                out |= {
                    (c, v + 1)
                    for c in spots
                    for v in range(board.tables.size)
                    if board.cand[c, v] and v not in group
                }
    return out


def ref_fish(board: Board, k: int) -> set[tuple[int, int]]:
    out = set()
    units = board.tables.units
    for padded_base, cover in zip(*board.tables.fish_lines, strict=True):
        base = padded_base[padded_base >= 0]
        for v in range(board.tables.size):
            for group in combinations(base.tolist(), k):
                spots = [{j for j, c in enumerate(units[b]) if board.cand[c, v]} for b in group]
                if any(not (2 <= len(s) <= k) or not _lacks(board, b, v + 1)
                       for s, b in zip(spots, group, strict=True)):  # fmt: skip
                    continue
                columns = set().union(*spots)
                if len(columns) != k:
                    continue
                inside = {int(c) for b in group for c in units[b]}
                out |= {
                    (int(c), v + 1)
                    for j in columns
                    for c in units[cover[j]]
                    if board.cand[c, v] and int(c) not in inside
                }
    return out


FOUR = read_puzzles(text="0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n")[0]
NINE = read_puzzles(text=("0 " * 9 + "\n") * 9)[0]
JIGSAW = read_puzzles(available_layouts()["jigsaw9"], layout="jigsaw9")[0]


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from([FOUR, NINE, JIGSAW]))
def test_singles_equal_the_reference(data: st.DataObject, puzzle: Puzzle) -> None:
    board = _board(puzzle, data)
    expected = ref_singles(board)
    for kind, find in (("full", full_house), ("hidden", hidden_single), ("naked", naked_single)):
        step = find(board)
        mine = {(kind, c, v) for c, v in step.placements} if step else set()
        if step is None:
            assert not any(e[0] == kind for e in expected), kind
        else:
            assert mine <= expected


@settings(max_examples=40, deadline=None)
@given(st.data(), st.sampled_from([FOUR, NINE, JIGSAW]))
def test_locked_candidates_equal_the_reference(data: st.DataObject, puzzle: Puzzle) -> None:
    board = _board(puzzle, data)
    first = locked_candidates(board)
    expected = ref_locked(board)
    assert (first is None) == (not expected)
    if first is not None:
        assert set(first.eliminations) <= expected


@pytest.mark.parametrize("k", [2, 3])
@settings(max_examples=30, deadline=None)
@given(data=st.data(), puzzle=st.sampled_from([FOUR, NINE, JIGSAW]))
def test_subsets_equal_the_reference(k: int, data: st.DataObject, puzzle: Puzzle) -> None:
    board = _board(puzzle, data)
    for find, ref in ((naked_subset(k, 0), ref_naked), (hidden_subset(k, 0), ref_hidden)):
        first = find(board)
        expected = ref(board, k)
        assert (first is None) == (not expected), (find, expected)
        if first is not None:
            assert set(first.eliminations) <= expected, (first, expected)


@pytest.mark.parametrize("k", [2, 3])
@settings(max_examples=30, deadline=None)
@given(data=st.data(), puzzle=st.sampled_from([FOUR, NINE]))
def test_fish_equal_the_reference(k: int, data: st.DataObject, puzzle: Puzzle) -> None:
    board = _board(puzzle, data)
    first = fish(k, 0)(board)
    expected = ref_fish(board, k)
    assert (first is None) == (not expected)
    if first is not None:
        assert set(first.eliminations) <= expected


def test_kinds_the_fish_read_are_rows_and_columns_of_one_sub_grid() -> None:
    [samurai] = read_puzzles(available_layouts()["samurai"], layout="samurai")
    tables = Board.start(samurai).tables
    base, cover = tables.fish_lines
    assert base.shape == cover.shape == (10, 9)  # rows on columns, columns on rows, per sub-grid
    assert (tables.kind[base[::2]] == ROW).all() and (tables.kind[cover[::2]] == COLUMN).all()
    assert (base[1::2] == cover[::2]).all() and (cover[1::2] == base[::2]).all()
    shared = [u for u in range(len(tables.units)) if tables.kind[u] == BOX]
    assert len(shared) == 5 * 9 - 4


@pytest.mark.parametrize("name", ["butterfly", "flower", "sumo", "twodoku"])
def test_overlapping_sub_grids_each_have_all_their_lines(name: str) -> None:
    # a row of two overlapping sub-grids is one unit: each sub-grid's fish see it
    [empty] = read_puzzles(available_layouts()[name], layout=name)
    tables = Board.start(empty).tables
    base, cover = tables.fish_lines
    assert base.shape == cover.shape == (2 * len(empty.layout.corners), tables.size)
    assert (base >= 0).all()
    if name == "butterfly":  # its minimal puzzle needs a fish on shared lines
        made = generate(layout_puzzle(name), symmetry="rotational", seed=1)
        assert assert_sound(made.puzzle) in ("solved", "stuck")


def test_a_path_stops_at_its_timeout_and_at_its_step_budget() -> None:
    [p] = read_puzzles(DATA / "sudoku9/norvig_easy50.txt")[:1]
    timed = solve_path(p, timeout=1e-9)
    assert timed.stop == "timeout" and not timed.steps
    one = solve_path(p, most_steps=1)
    assert one.stop == "steps" and len(one.steps) == 1
    with pytest.raises(NdokuError, match="timeout"):
        solve_path(p, timeout=float("nan"))


def _sparse_board(puzzle: Puzzle, data: st.DataObject) -> Board:
    """A board whose free cells have two or three random candidates (wings need them)."""
    board = Board.start(puzzle)
    size = puzzle.size
    board.cand[:] = False
    for cell in range(puzzle.n_cells):
        values = data.draw(st.lists(st.integers(0, size - 1), min_size=2, max_size=3))
        board.cand[cell, values] = True
    return board


def _seeing(
    board: Board, v: int, cells: tuple[int, ...], pattern: tuple[int, ...] = ()
) -> set[tuple[int, int]]:
    """(cell, v + 1) for every cell outside ``cells`` and ``pattern`` with candidate v that
    sees all of ``cells``."""
    sees = board.tables.sees
    return {
        (c, v + 1)
        for c in range(len(board.values))
        if board.cand[c, v] and c not in cells + pattern and all(sees[c, x] for x in cells)
    }


def _bivalue(board: Board) -> list[int]:
    return [c for c in range(len(board.values)) if not board.values[c] and board.cand[c].sum() == 2]


def ref_xyz(board: Board) -> set[tuple[int, int]]:
    """Pivot {x, y, z}, peers {x, z} and {y, z}: z leaves what sees all three."""
    sees, cand = board.tables.sees, board.cand
    out = set()
    for p in range(len(board.values)):
        if board.values[p] or cand[p].sum() != 3:
            continue
        wings = [w for w in _bivalue(board) if sees[p, w] and not (cand[w] & ~cand[p]).any()]
        for w1, w2 in combinations(wings, 2):
            shared = cand[w1] & cand[w2]
            if shared.sum() == 1 and (cand[w1] | cand[w2]).sum() == 3:
                out |= _seeing(board, int(np.flatnonzero(shared)[0]), (p, w1, w2))
    return out


def ref_w(board: Board) -> set[tuple[int, int]]:
    """Two {x, y} cells, not peers, whose ends of a strong link on x see one each."""
    sees, cand = board.tables.sees, board.cand
    out = set()
    for p, q in combinations(_bivalue(board), 2):
        if sees[p, q] or not (cand[p] == cand[q]).all():
            continue
        x_y = [int(v) for v in np.flatnonzero(cand[p])]
        for x, y in (x_y, x_y[::-1]):
            for cells in board.tables.units:
                spots = [int(c) for c in cells if cand[c, x]]
                if len(spots) != 2 or x + 1 in board.values[cells] or set(spots) & {p, q}:
                    continue
                a, b = spots
                if (sees[p, a] and sees[q, b]) or (sees[p, b] and sees[q, a]):
                    out |= _seeing(board, y, (p, q))
    return out


def ref_xy_wing(board: Board) -> set[tuple[int, int]]:
    """Pivot {x, y}, peers {x, z} and {y, z} (z neither x nor y): z leaves what sees both
    peers."""
    sees, cand = board.tables.sees, board.cand
    out = set()
    two = _bivalue(board)
    for p in two:
        for a, b in combinations([c for c in two if c != p and sees[p, c]], 2):
            with_a, with_b = cand[a] & cand[p], cand[b] & cand[p]
            shared = cand[a] & cand[b] & ~cand[p]
            one_each = with_a.sum() == 1 and with_b.sum() == 1 and (with_a != with_b).any()
            if one_each and shared.sum() == 1:
                out |= _seeing(board, int(np.flatnonzero(shared)[0]), (a, b), (p,))
    return out


@settings(max_examples=40, deadline=None)
@given(st.data(), st.sampled_from([FOUR, NINE, JIGSAW]))
def test_wings_equal_the_reference(data: st.DataObject, puzzle: Puzzle) -> None:
    board = _sparse_board(puzzle, data)
    for find, ref in ((xyz_wing, ref_xyz), (w_wing, ref_w), (xy_wing, ref_xy_wing)):
        first = find(board)
        expected = ref(board)
        assert (first is None) == (not expected), (find, expected)
        if first is not None:
            assert set(first.eliminations) <= expected, (first, expected)


def test_every_technique_has_a_level():
    """Each name a step can carry maps to one level, and a path's level is its most advanced."""
    from ndoku.solvers.logic import LEVEL_OF

    assert set(LEVEL_OF.values()) <= set(LEVELS)
    [p] = read_puzzles(text="1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n")
    assert solve_path(p).level == "singles"


def ref_wings(board: Board, k: int) -> set[tuple[int, int]]:
    """A pivot and k − 1 of its peers, 2 to k candidates each, k values in all, every value
    but one (z) only in cells that are peers of each other: z leaves what sees its cells."""
    sees, cand = board.tables.sees, board.cand
    free = [c for c in range(len(board.values)) if 2 <= cand[c].sum() <= k]
    held = {c: {int(v) for v in np.flatnonzero(cand[c])} for c in free}
    out = set()

    def choose(cells: tuple[int, ...], union: set[int], others: list[int]) -> None:
        """Every way to add peers of the pivot from ``others`` (in order) up to k cells; a
        choice whose values are already more than k is left (more cells only add values)."""
        if len(cells) == k:
            if len(union) == k:
                check(cells, sorted(union))
            return
        for i, c in enumerate(others):
            if len(union | held[c]) <= k:
                choose((*cells, c), union | held[c], others[i + 1 :])

    def check(cells: tuple[int, ...], union: list[int]) -> None:
        nonlocal out
        loose = [
            v
            for v in union
            if not all(sees[a, b] for a, b in combinations([c for c in cells if cand[c, v]], 2))
        ]
        if len(loose) == 1:
            z = loose[0]
            out |= _seeing(board, z, tuple(c for c in cells if cand[c, z]), cells)

    for pivot in free:
        choose((pivot,), held[pivot], [c for c in free if sees[pivot, c]])
    return out


@settings(max_examples=30, deadline=None)
@given(st.data(), st.sampled_from([FOUR, NINE, JIGSAW]), st.sampled_from([4, 5]))
def test_big_wings_equal_the_reference(data: st.DataObject, puzzle: Puzzle, k: int) -> None:
    board = _sparse_board(puzzle, data)
    first = wing(k)(board)
    expected = ref_wings(board, k)
    assert (first is None) == (not expected), expected
    if first is not None:
        assert set(first.eliminations) <= expected, (first, expected)


def _implied(board: Board, node: tuple[int, int, bool], use_x: bool, use_y: bool):
    """The static implications of (cell, value from 0, on), written out plainly."""
    cell, v, on = node
    cand, sees = board.cand, board.tables.sees
    if on:
        out = [(p, v, False) for p in range(len(cand)) if sees[cell, p] and cand[p, v]]
        if use_y:
            out += [(cell, w, False) for w in range(cand.shape[1]) if w != v and cand[cell, w]]
        return out
    out = []
    if use_y and cand[cell].sum() == 2:
        out += [(cell, int(w), True) for w in np.flatnonzero(cand[cell]) if w != v]
    if use_x:
        for cells in board.tables.units:
            if cell in cells and cand[cells, v].sum() == 2:
                out += [(int(q), v, True) for q in cells if q != cell and cand[q, v]]
    return out


def ref_shortest_forcing(board: Board, use_x: bool, use_y: bool) -> int | None:
    """Fewest implications from a candidate assumed true to it false, or from it false to
    it true (breadth first, one candidate at a time); None when no chain exists."""
    best = None
    links: dict[tuple[int, int, bool], list[tuple[int, int, bool]]] = {}  # each node's, once
    for cell, v in np.argwhere(board.cand):
        for on in (True, False):
            start = (int(cell), int(v), on)
            goal = (int(cell), int(v), not on)
            seen, frontier, depth = {start}, [start], 0
            while frontier and goal not in seen:
                depth += 1
                for f in frontier:
                    if f not in links:
                        links[f] = _implied(board, f, use_x, use_y)
                frontier = [n for f in frontier for n in links[f]]
                frontier = [n for n in frontier if n not in seen and not seen.add(n)]
            if goal in seen and (best is None or depth < best):
                best = depth
    return best


@settings(max_examples=25, deadline=None)
@given(st.data(), st.sampled_from([FOUR, JIGSAW]), st.booleans())
def test_forcing_chains_are_the_shortest_of_the_reference(
    data: st.DataObject, puzzle: Puzzle, only_x: bool
) -> None:
    board = _sparse_board(puzzle, data)
    _, flat, _, _, ptr, adj = graph(board, not only_x)
    nodes = forcing_chain(flat, ptr, adj, 40, True, np.ones(2 * board.cand.size, dtype=bool))
    expected = ref_shortest_forcing(board, True, not only_x)
    assert (len(nodes) == 0) == (expected is None)
    if expected is not None:
        assert len(nodes) == expected + 1
        size = puzzle.size
        said = [(n // 2 // size, n // 2 % size, bool(n & 1)) for n in nodes]
        for a, b in pairwise(said):  # every link is one of the reference's
            assert b in _implied(board, a, True, not only_x), (a, b)
        assert said[0][:2] == said[-1][:2] and said[0][2] != said[-1][2]


def ref_contradiction(board: Board, one_value: bool) -> set[tuple[int, int]]:
    """Candidates whose placement, followed by singles (naked and hidden, or only hidden
    singles of that value for Nishio), empties a cell or leaves a value without a place in
    a unit that lacks it, or forces two values in one cell."""
    out = set()
    units = board.tables.units
    lacking = board.lacking()
    # a unit that has no place for a value before any assumption is no contradiction the
    # assumption led to (a path stops at such a board before it asks for a step)
    had = [
        [bool(board.cand[cells, x].any()) for x in range(board.cand.shape[1])] for cells in units
    ]
    for cell, v in np.argwhere(board.cand):
        cand = board.cand.copy()
        queue = [(int(cell), int(v))]
        placed: dict[int, int] = {}
        broken = False
        while queue and not broken:
            c, w = queue.pop()
            if placed.get(c, w) != w or not cand[c, w]:
                broken = True
                break
            placed[c] = w
            keep = cand[c].copy()
            cand[c] = False if not one_value else cand[c]
            cand[c, w] = keep[w]
            cand[board.tables.sees[c], w] = False
            for u, cells in enumerate(units):
                for x in [w] if one_value else range(cand.shape[1]):
                    if not lacking[u, x] or any(placed.get(q) == x for q in cells):
                        continue
                    spots = [int(q) for q in cells if cand[q, x]]
                    if not spots and had[u][x]:
                        broken = True
                    elif len(spots) == 1 and placed.get(spots[0]) != x:
                        queue.append((spots[0], x))
            if not one_value:
                for q in range(len(cand)):
                    if q not in placed and board.values[q] == 0:
                        if not cand[q].any():
                            broken = True
                        elif cand[q].sum() == 1:
                            queue.append((q, int(np.flatnonzero(cand[q])[0])))
        if broken:
            out.add((int(cell), int(v) + 1))
    return out


@settings(max_examples=25, deadline=None)
@given(st.data(), st.sampled_from([FOUR, NINE]), st.booleans())
def test_contradictions_are_those_of_the_reference(
    data: st.DataObject, puzzle: Puzzle, one_value: bool
) -> None:
    board = _sparse_board(puzzle, data)
    step = dynamic_chain(one_value)(board)
    expected = ref_contradiction(board, one_value)
    assert (step is None) == (not expected), expected
    if step is not None:
        assert set(step.eliminations) <= expected


@pytest.mark.parametrize("one_value", [True, False])
def test_no_contradiction_on_an_open_board(one_value: bool) -> None:
    """Where every value still fits everywhere, no assumption breaks anything."""
    [empty] = read_puzzles(text="0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n")
    board = Board.start(empty)
    assert not ref_contradiction(board, one_value)
    assert dynamic_chain(one_value)(board) is None
