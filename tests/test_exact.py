"""Exact solver: published counts and solutions, a naive reference on random 4×4, limits."""

from __future__ import annotations

import importlib
import time
from itertools import permutations, product
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from numba.core.dispatcher import Dispatcher

from ndoku.errors import NdokuError
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers import exact
from ndoku.solvers.exact import ExactResult, solve_batch, solve_exact, solve_table
from ndoku.solvers.exact import batch as exact_batch
from ndoku.solvers.exact import solver as exact_solver
from ndoku.solvers.exact.kernels import sort
from ndoku.solvers.hall import hall
from ndoku.solvers.propagation import (
    INLINE_SETTLE_INTO,
    candidate_masks,
    candidates,
    fixed_values,
    propagate,
)
from ndoku.solvers.tables import Topology, has_locked
from ndoku.tasks.verify import problems

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent


def assert_solution(puzzle: Puzzle, result: ExactResult) -> None:
    assert result.values is not None
    assert problems(puzzle, result.values) == []


def one_line(values: np.ndarray) -> str:
    return "".join(str(int(v)) for v in values)


# --- published counts and solutions --------------------------------------------------------


def test_tdoku_counts_and_solutions() -> None:
    path = DATA / "sudoku9/tdoku_test_puzzles_counts.txt"
    lines = [line.split(":") for line in path.read_text().split()]
    puzzles = read_puzzles(path)
    results = solve_batch(puzzles)
    assert len(results) == len(lines) == len(puzzles)
    for (_, count, solution), puzzle, result in zip(lines, puzzles, results, strict=True):
        expected = int(count)
        if expected == 0:
            assert (result.status, result.count, result.stop) == ("none", 0, "complete")
            assert result.values is None
        elif expected == 1:
            assert (result.status, result.unique, result.stop) == ("solved", True, "complete")
            assert_solution(puzzle, result)
            assert one_line(result.values) == solution
        else:
            assert (result.status, result.count, result.unique) == ("multiple", 2, False)
            assert_solution(puzzle, result)


def test_serg_sample_all_multiple() -> None:
    puzzles = read_puzzles(DATA / "sudoku9/serg_benchmark_sample1k.txt")
    batch = solve_table(puzzles[0], np.stack([p.givens for p in puzzles]))
    assert len(batch) == 1000
    assert (batch.counts == 2).all()
    for i in range(0, 1000, 97):
        result = batch.result(i)
        assert result.status == "multiple"
        assert_solution(puzzles[i], result)


def test_norvig_top95_unique() -> None:
    puzzles = read_puzzles(DATA / "sudoku9/norvig_top95.txt")
    for puzzle, result in zip(puzzles, solve_batch(puzzles), strict=True):
        assert (result.status, result.unique) == ("solved", True)
        assert_solution(puzzle, result)


def published_pairs() -> list[tuple[str, Path, Path]]:
    pairs = []
    for puzzle in sorted((DATA / "janko").glob("*/*.puzzle.txt")):
        kind = puzzle.parent.name
        if kind != "jigsaw":  # jigsaw regions: issue 4
            pairs.append(
                (kind, puzzle, puzzle.with_name(puzzle.name.replace("puzzle", "solution")))
            )
    for puzzle in sorted((DATA / "samurai").glob("*.txt")):
        if not puzzle.name.endswith(".sol.txt"):
            pairs.append(("samurai", puzzle, puzzle.with_suffix(".sol.txt")))
    return pairs


@pytest.mark.parametrize(
    ("kind", "path", "solution"), published_pairs(), ids=lambda x: getattr(x, "name", x)
)
def test_multigrids_match_published_solution(kind: str, path: Path, solution: Path) -> None:
    layout = "windmill" if kind == "windmill" else None
    [puzzle] = read_puzzles(path, layout=layout)
    [published] = read_puzzles(solution, layout=layout)
    result = solve_exact(puzzle)
    assert (result.status, result.unique) == ("solved", True)
    assert_solution(puzzle, result)
    assert np.array_equal(result.values, published.givens)


def test_16x16_match_published_solutions() -> None:
    path = DATA / "sudoku16/goomii_16x16_first40.txt"
    puzzles = read_puzzles(path)
    solutions = [line.split(",")[1].strip() for line in path.read_text().split()]
    for puzzle, answer, result in zip(puzzles, solutions, solve_batch(puzzles), strict=True):
        assert (result.status, result.unique) == ("solved", True)
        assert_solution(puzzle, result)
        [published] = read_puzzles(text=answer)
        assert np.array_equal(result.values, published.givens)


@pytest.mark.parametrize("probe", [True, False])
def test_25x25_wild_statuses(probe: bool) -> None:
    """Probing (25×25) keeps counts right: unique puzzles, multiple ones, and one that the
    probes of the root node solve; and so does the search without probes."""
    for line in (DATA / "sudoku25/wild_25x25.txt").read_text().splitlines():
        name, body, status = line.split()  # id puzzle,solution status
        [puzzle] = read_puzzles(text=body.split(",")[0])
        result = solve_exact(puzzle, probe=probe)
        assert result.status == ("solved" if status == "unique" else "multiple"), name
        assert result.unique is (status == "unique"), name
        assert_solution(puzzle, result)


def test_25x25_probes_prove_uniqueness_in_few_nodes() -> None:
    line = (DATA / "sudoku25/gecode_25x25_shared6.txt").read_text().split("\n")[1]
    name, body, _ = line.split()
    puzzle_text, solution = body.split(",")
    [puzzle] = read_puzzles(text=puzzle_text)
    result = solve_exact(puzzle)
    assert name == "gecode20"
    assert (result.status, result.unique, result.stop) == ("solved", True, "complete")
    assert one_line_25(result.values) == solution
    assert result.nodes < 10_000  # 383 383 without probes
    plain = solve_exact(puzzle, max_nodes=10_000, probe=False)
    assert (plain.status, plain.stop) == ("limit", "nodes")
    table = solve_table(puzzle, puzzle.givens[None, :], max_nodes=10_000, probe=False)
    assert table.result(0).stop == "nodes"


def one_line_25(values: np.ndarray) -> str:
    return "".join("0123456789ABCDEFGHIJKLMNOP"[int(v)] for v in values)


def test_candidates_hold_the_solution_and_narrow_propagation() -> None:
    """Matching removes candidates that propagation keeps, never a value of the solution."""
    narrowed = 0
    for line in (DATA / "sudoku25/gecode_25x25_shared6.txt").read_text().splitlines():
        puzzle_text, solution_text = line.split()[1].split(",")
        [puzzle] = read_puzzles(text=puzzle_text)
        [solution] = read_puzzles(text=solution_text)
        masks, ok = candidates(puzzle)
        assert ok
        bits = np.uint64(1) << (solution.givens - 1).astype(np.uint64)
        assert ((masks & bits) != 0).all()
        values, _ = propagate(puzzle)
        assert (fixed_values(masks)[values > 0] == values[values > 0]).all()
        single = masks[values > 0]
        assert (single & (single - np.uint64(1)) == 0).all()
        singles_only, _, _ = candidate_masks(puzzle, None, matching=False)
        narrowed += bit_count(masks) < bit_count(singles_only)
    assert narrowed >= 3  # 4 of the 6 when written


# --- a naive reference on random 4×4 puzzles -------------------------------------------------


def reference_solutions(givens: list[int], limit: int = 1000) -> list[list[int]]:
    """Solutions of a 4×4 puzzle (up to ``limit``) by plain backtracking, cell by cell."""

    def clash(cell: int, value: int, grid: list[int]) -> bool:
        r, c = divmod(cell, 4)
        for other in range(16):
            s, d = divmod(other, 4)
            same = s == r or d == c or (s // 2, d // 2) == (r // 2, c // 2)
            if other != cell and same and grid[other] == value:
                return True
        return False

    grid = list(givens)
    if any(v and clash(i, v, grid) for i, v in enumerate(grid)):
        return []
    found: list[list[int]] = []

    def fill(cell: int) -> None:
        if len(found) >= limit:
            return
        if cell == 16:
            found.append(list(grid))
            return
        if grid[cell]:
            fill(cell + 1)
            return
        for value in range(1, 5):
            if not clash(cell, value, grid):
                grid[cell] = value
                fill(cell + 1)
                grid[cell] = 0

    fill(0)
    return found


def reference_count(givens: list[int], limit: int) -> int:
    return len(reference_solutions(givens, limit))


@st.composite
def solved_4x4(draw: st.DrawFn) -> list[int]:
    """A random solved 4×4 grid: a base grid under symbol, row, column and band shuffles."""
    symbols = draw(st.permutations([1, 2, 3, 4]))
    bands = draw(st.permutations([0, 1]))
    stacks = draw(st.permutations([0, 1]))
    rows = [2 * b + r for b in bands for r in draw(st.permutations([0, 1]))]
    cols = [2 * s + c for s in stacks for c in draw(st.permutations([0, 1]))]
    base = [[(2 * (r % 2) + r // 2 + c) % 4 for c in range(4)] for r in range(4)]
    grid = [symbols[base[r][c]] for r, c in product(rows, cols)]
    if draw(st.booleans()):
        grid = [grid[4 * c + r] for r, c in product(range(4), range(4))]
    return grid


@st.composite
def puzzles_4x4(draw: st.DrawFn) -> list[int]:
    """Givens: a random subset of a solved grid, or random values free of repeated givens."""
    if draw(st.booleans()):
        grid = draw(solved_4x4())
        keep = draw(st.lists(st.booleans(), min_size=16, max_size=16))
        return [v if k else 0 for v, k in zip(grid, keep, strict=True)]
    values = draw(st.lists(st.sampled_from([0, 0, 0, 1, 2, 3, 4]), min_size=16, max_size=16))
    units = [[4 * r + c for c in range(4)] for r in range(4)]
    units += [[4 * r + c for r in range(4)] for c in range(4)]
    units += [
        [4 * (2 * i + r) + 2 * j + c for r in (0, 1) for c in (0, 1)]
        for i, j in product((0, 1), (0, 1))
    ]
    for unit in units:
        given = [values[c] for c in unit if values[c]]
        assume(len(set(given)) == len(given))
    return values


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles_4x4(), st.integers(1, 3))
def test_agrees_with_reference_on_4x4(givens: list[int], limit: int) -> None:
    [puzzle] = read_puzzles(text=one_line(np.array(givens)))
    result = solve_exact(puzzle, limit=limit)
    expected = reference_count(givens, limit)
    assert result.count == expected
    assert result.stop == (
        "solutions" if expected == limit and not result.propagated else "complete"
    )
    if expected == 0:
        assert result.status == "none"
    else:
        assert result.status == ("multiple" if expected >= 2 else "solved")
        assert_solution(puzzle, result)
        if expected == 1 and limit >= 2:
            assert result.unique is True


def bit_count(masks: np.ndarray) -> int:
    return sum(int(m).bit_count() for m in masks)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles_4x4())
def test_candidates_keep_every_solution_of_4x4(givens: list[int]) -> None:
    [puzzle] = read_puzzles(text=one_line(np.array(givens)))
    masks, ok = candidates(puzzle)
    solutions = reference_solutions(givens)
    if not ok:
        assert solutions == []
    for grid in solutions:
        assert all(int(m) >> (v - 1) & 1 for m, v in zip(masks, grid, strict=True))


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 6).flatmap(lambda n: st.lists(st.integers(0, 2**n - 1), min_size=n, max_size=n))
)
def test_hall_keeps_exactly_the_edges_of_perfect_matchings(rows: list[int]) -> None:
    """The matching kernel against every permutation: an edge survives when some perfect
    matching uses it."""
    n = len(rows)
    size = 8
    masks = np.zeros(3 * size, dtype=np.uint64)
    masks[:n] = rows
    ints = np.zeros(5 * size, dtype=np.int32)
    matchings = [p for p in permutations(range(n)) if all(rows[i] >> p[i] & 1 for i in range(n))]
    pruned = hall(n, masks, ints, size)
    bad = [
        [v for v in range(n) if rows[i] >> v & 1 and all(p[i] != v for p in matchings)]
        for i in range(n)
    ]
    assert pruned == (-1 if not matchings else int(any(bad)))
    for i in range(n if pruned > 0 else 0):
        assert [v for v in range(n) if int(masks[size + i]) >> v & 1] == bad[i]


def test_settle_is_inlined_into_kernels_that_exist() -> None:
    """numba's inlining choice names the kernels by module and name (the search loop is not
    imported there): a rename would quietly cost time, so it fails here."""
    assert len(INLINE_SETTLE_INTO) == 3
    for module, name in INLINE_SETTLE_INTO:
        assert isinstance(getattr(importlib.import_module(module), name), Dispatcher)


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        st.lists(st.integers(-(2**63), 2**63 - 1), max_size=300),
        st.lists(st.integers(-3, 3), max_size=300),
        st.lists(st.integers(-(2**40), 2**40).map(lambda k: k << 12), max_size=300),
    ),
    st.integers(0, 5),
)
def test_sort_orders_a_prefix_like_sorted(keys: list[int], spare: int) -> None:
    """The probes' radix sort against sorted(), over the whole int64 range, few distinct keys
    and keys whose low bytes agree (passes skipped): the first n keys in order, the rest
    untouched."""
    array = np.array([*keys, *range(spare)], dtype=np.int64)
    sort(array, len(keys), np.zeros(len(keys) + 256, dtype=np.int64))
    assert array[: len(keys)].tolist() == sorted(keys)
    assert array[len(keys) :].tolist() == list(range(spare))


SIXTEEN = read_puzzles(DATA / "sudoku16/goomii_16x16_first40.txt")[:10]
SIXTEEN_SOLUTIONS = [
    read_puzzles(text=line.split(",")[1])[0].givens
    for line in (DATA / "sudoku16/goomii_16x16_first40.txt").read_text().split()[:10]
]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 9), st.integers(0, 2**32 - 1), st.floats(0.35, 0.8))
def test_random_16x16_subsets_keep_their_grid(which: int, seed: int, keep: float) -> None:
    """Givens drawn from a solved grid: never ``none``; ``solved`` means that very grid."""
    solution = SIXTEEN_SOLUTIONS[which]
    chosen = np.random.default_rng(seed).random(256) < keep
    givens = np.where(chosen, solution, 0).astype(np.int32)
    result = solve_exact(SIXTEEN[which], givens=givens, max_nodes=50_000)
    assume(result.status != "limit")
    assert result.status in {"solved", "multiple"}
    assert result.values is not None and (result.values[chosen] == solution[chosen]).all()
    [puzzle] = read_puzzles(text="".join("0123456789ABCDEFG"[v] for v in givens))
    assert problems(puzzle, result.values) == []
    if result.status == "solved":
        assert np.array_equal(result.values, solution)


# --- propagate ---------------------------------------------------------------------------------


def test_propagate_fixes_a_subset_of_the_solution() -> None:
    path = DATA / "sudoku9/tdoku_test_puzzles_counts.txt"
    lines = [line.split(":") for line in path.read_text().split()]
    checked = 0
    for (_, count, solution), puzzle in zip(lines, read_puzzles(path), strict=True):
        if count != "1":
            continue
        values, ok = propagate(puzzle)
        answer = np.array([int(ch) for ch in solution], dtype=np.int32)
        fixed = values > 0
        assert ok
        assert np.array_equal(values[fixed], answer[fixed])
        assert (fixed >= (puzzle.givens > 0)).all()
        checked += 1
    assert checked == 18


def reference_propagation(
    puzzle: Puzzle, locked: bool, givens: np.ndarray | None = None
) -> list[int] | None:
    """Fixed values after naked singles, hidden singles (and locked candidates), done naively
    with sets until nothing changes; None on a contradiction."""
    units = [set(puzzle.units[u].tolist()) for u in range(len(puzzle.units))]
    start = puzzle.givens if givens is None else givens
    cand = [{int(v)} if v else set(range(1, puzzle.size + 1)) for v in start]
    pairs = [(a, b) for a in units for b in units if a is not b and len(a & b) >= 2]
    changed = True
    while changed:
        changed = False
        for unit in units:
            for c in unit:
                if len(cand[c]) == 1:
                    for p in unit - {c}:
                        if cand[c] & cand[p]:
                            cand[p] -= cand[c]
                            changed = True
            for v in range(1, puzzle.size + 1):
                places = [c for c in unit if v in cand[c]]
                if len(places) == 1 and len(cand[places[0]]) > 1:
                    cand[places[0]] = {v}
                    changed = True
        for a, b in pairs if locked else []:
            for v in range(1, puzzle.size + 1):
                places = {c for c in a if v in cand[c]}
                if places and places <= b:
                    for c in b - a:
                        if v in cand[c]:
                            cand[c].discard(v)
                            changed = True
        if any(not x for x in cand):
            return None
    everything = set(range(1, puzzle.size + 1))
    if any(set().union(*(cand[c] for c in unit)) != everything for unit in units):
        return None  # a value no cell of a unit can take
    return [next(iter(x)) if len(x) == 1 else 0 for x in cand]


def first_fields(path: Path, lines: list[int]) -> list[Puzzle]:
    """Puzzles of ``id puzzle,solution …`` lines."""
    text = path.read_text().splitlines()
    return [read_puzzles(text=text[i].split()[1].split(",")[0])[0] for i in lines]


def test_propagate_reaches_the_same_fixpoint_as_a_naive_reference() -> None:
    big = first_fields(DATA / "sudoku16/wild_16x16.txt", [1, 3, 7])
    big += first_fields(DATA / "sudoku25/gecode_25x25_shared6.txt", [0, 1])
    big += [read_puzzles(p)[0] for p in sorted((DATA / "janko/16x16").glob("*.puzzle.*"))]
    nine = read_puzzles(DATA / "sudoku9/norvig_top95.txt")[:5]
    samurai = [read_puzzles(DATA / "samurai/jss_samurai.txt")[0]]
    assert min(p.size for p in big) >= exact.LOCKED_FROM > 9
    locked_mattered = 0
    for puzzle in [*big, *nine, *samurai]:
        values, ok = propagate(puzzle)
        locked = has_locked(puzzle.frame)
        assert locked == (puzzle not in nine)
        expected = reference_propagation(puzzle, locked)
        assert ok and expected is not None
        assert values.tolist() == expected
        locked_mattered += locked and expected != reference_propagation(puzzle, False)
    assert locked_mattered >= 3


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_givens_laid_out_at_once_reach_the_reference_fixpoint(data: st.DataObject) -> None:
    """The givens of a Samurai, any share of its solution and sometimes a wrong value or two
    (a contradiction, or only a dead end later), propagate to the naive reference's values."""
    puzzle = read_puzzles(DATA / "samurai/jss_samurai.txt")[0]
    solution = solve_exact(puzzle).values
    assert solution is not None
    n = len(solution)
    keep = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    givens = np.where(np.array(keep) == 0, solution, 0).astype(solution.dtype)
    for _ in range(data.draw(st.integers(0, 2))):
        givens[data.draw(st.integers(0, n - 1))] = data.draw(st.integers(1, puzzle.size))
    values, ok = propagate(puzzle, givens=givens)
    expected = reference_propagation(puzzle, has_locked(puzzle.frame), givens)
    assert ok == (expected is not None)
    if ok:
        assert values.tolist() == expected


def test_propagate_solves_an_easy_puzzle_and_finds_contradictions() -> None:
    [puzzle] = read_puzzles(text="1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n")
    values, ok = propagate(puzzle)
    assert ok and (values > 0).all() and problems(puzzle, values) == []
    # Row 1 cannot hold a 2: its free cells see 2s in their columns and box.
    bad = np.array([1, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 0, 0, 0, 2, 0], dtype=np.int32)
    assert reference_count(bad.tolist(), 1) == 0
    values, ok = propagate(puzzle, givens=bad)
    assert not ok
    assert solve_exact(puzzle, givens=bad).status == "none"


# --- limits, determinism, batches ----------------------------------------------------------


def hard_9x9() -> Puzzle:
    puzzles = read_puzzles(DATA / "sudoku9/norvig_top95.txt")
    return max(puzzles, key=lambda p: solve_exact(p).nodes)


def test_node_limit_stops_with_limit_status() -> None:
    puzzle = hard_9x9()
    full = solve_exact(puzzle)
    assert full.nodes > 20
    result = solve_exact(puzzle, max_nodes=5)
    assert (result.status, result.stop, result.values) == ("limit", "nodes", None)
    assert result.nodes == 5


def test_timeout_stops_a_long_search() -> None:
    line = (DATA / "sudoku25/gecode_25x25_shared6.txt").read_text().split()[1]
    [puzzle] = read_puzzles(text=line.split(",")[0])
    result = solve_exact(puzzle, timeout=0.05)
    assert result.stop == "timeout"
    assert result.status in {"limit", "solved"}
    assert result.seconds < 1.0


@pytest.mark.parametrize("ticks", [True, False])
def test_growing_the_stack_counts_toward_the_timeout(
    monkeypatch: pytest.MonkeyPatch, ticks: bool
) -> None:
    [empty] = read_puzzles(text=("0 " * 25 + "\n") * 25)  # counting goes 625 levels deep
    grow = exact_solver.Workspace.grow
    grown: list[int] = []

    def slow(work: exact_solver.Workspace) -> None:
        grown.append(len(work.free_at))
        time.sleep(0.3)  # as fresh pages of a 64×64's stacks may take
        grow(work)

    if not ticks:
        monkeypatch.setattr(exact_solver, "tick_seconds", lambda: 0.0)
    quick = solve_exact(empty, limit=10**9, timeout=0.2)
    # a stack that grew is not kept for the next search (which grows its own below)
    assert all(len(w.stack) <= exact_solver.FIRST_DEPTH for w in Topology.of(empty).spare)
    monkeypatch.setattr(exact_solver.Workspace, "grow", slow)
    result = solve_exact(empty, limit=10**9, timeout=0.2)
    # The first growth alone passes the timeout: the search stops there, not after 0.2 s
    # of its own (by which it had grown the stack again, twice, when growth went uncounted).
    assert grown == [64]
    assert result.stop == "timeout" and result.seconds >= 0.3
    assert quick.stop == "timeout" and quick.nodes > result.nodes


def test_results_do_not_depend_on_stack_growth_or_tick_counter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    [empty] = read_puzzles(text=("0 " * 25 + "\n") * 25)  # a search hundreds of levels deep
    puzzles = [empty, *read_puzzles(DATA / "sudoku9/norvig_top95.txt")[:10]]
    before = [solve_exact(p) for p in puzzles]
    grown: list[int] = []
    grow = exact_solver.Workspace.grow

    def spy(work: exact_solver.Workspace) -> None:
        grown.append(len(work.free_at))
        grow(work)

    monkeypatch.setattr(exact_solver.Workspace, "grow", spy)
    monkeypatch.setattr(exact_solver, "FIRST_DEPTH", 2)
    monkeypatch.setattr(exact_solver, "tick_seconds", lambda: 0.0)  # one call and clock per puzzle
    after = [solve_exact(p) for p in puzzles]
    assert grown[:3] == [2, 4, 8] and max(grown) >= 128
    assert before[0].status == "multiple"
    assert_solution(empty, before[0])
    for a, b in zip(before, after, strict=True):
        assert (a.status, a.nodes, a.guesses, a.count) == (b.status, b.nodes, b.guesses, b.count)
        assert np.array_equal(a.values, b.values)
        assert b.seconds > 0


def test_work_arrays_left_by_other_searches_change_no_result() -> None:
    """A search takes the work arrays an earlier one of its layout left: puzzles with
    rules of their own, a search stopped by its node limit and one by its timeout before
    them, in either order, give the answers and counts of fresh arrays."""
    killers = read_puzzles(DATA / "variants/killer_9x9.txt")
    samurai = read_puzzles(ROOT / "examples/killer_samurai.txt")[0]
    fresh = []
    for p in [*killers, samurai]:
        Topology.of(p).spare.clear()
        fresh.append(solve_exact(p))
    assert sum(r.nodes > 1 for r in fresh) >= 10
    hard = killers[int(np.argmax([r.nodes for r in fresh[:-1]]))]
    for order in (killers, killers[::-1]):
        assert solve_exact(hard, max_nodes=2).status == "limit"
        solve_exact(samurai, timeout=1e-6)
        again = {id(p): solve_exact(p) for p in [*order, samurai]}
        assert len(Topology.of(samurai).spare) == 1
        for p, r in zip([*killers, samurai], fresh, strict=True):
            a = again[id(p)]
            assert (a.status, a.nodes, a.guesses, a.count) == (
                r.status,
                r.nodes,
                r.guesses,
                r.count,
            )
            assert np.array_equal(a.values, r.values)


def test_same_input_same_result() -> None:
    puzzles = read_puzzles(DATA / "sudoku9/norvig_top95.txt")[:30]
    first = solve_batch(puzzles)
    again = solve_batch(puzzles)
    singles = [solve_exact(p) for p in puzzles]
    for a, b, c in zip(first, again, singles, strict=True):
        assert (a.status, a.nodes, a.guesses, a.count) == (b.status, b.nodes, b.guesses, b.count)
        assert (a.status, a.nodes, a.guesses, a.count) == (c.status, c.nodes, c.guesses, c.count)
        assert np.array_equal(a.values, b.values) and np.array_equal(a.values, c.values)


def test_batch_of_mixed_layouts_in_worker_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exact_batch, "PARALLEL_SECONDS", 0.0)  # workers take all but the first
    nine = read_puzzles(DATA / "sudoku9/norvig_top95.txt")[:6]
    [samurai] = read_puzzles(DATA / "samurai/jss_samurai.txt")
    lines = (DATA / "sudoku4/wild_4x4.txt").read_text().splitlines()[:3]
    four = [read_puzzles(text=line.split()[1])[0] for line in lines]  # "id puzzle,solution …"
    puzzles = [nine[0], samurai, *four, *nine[1:]]
    seen: list[int] = []
    results = solve_batch(puzzles, jobs=2, progress=seen.append)
    assert seen[-1] == len(puzzles)
    assert [r.status for r in results] == ["solved"] * len(puzzles)
    for puzzle, result in zip(puzzles, results, strict=True):
        assert_solution(puzzle, result)
    alone = solve_exact(samurai)
    assert np.array_equal(results[1].values, alone.values) and results[1].nodes == alone.nodes


def test_a_quick_batch_starts_no_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_workers(*args: object) -> None:
        raise AssertionError("workers started for a batch that takes milliseconds")

    monkeypatch.setattr(exact_batch, "solve_parallel", no_workers)
    puzzles = read_puzzles(DATA / "sudoku9/norvig_top95.txt")
    results = solve_batch(puzzles, jobs=2)
    assert [r.status for r in results] == ["solved"] * len(puzzles)


def test_limit_one_finds_without_proving() -> None:
    [puzzle] = read_puzzles(text="0" * 81)
    result = solve_exact(puzzle, limit=1)
    assert (result.status, result.unique, result.stop, result.count) == (
        "solved",
        None,
        "solutions",
        1,
    )
    assert_solution(puzzle, result)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"limit": 0}, "limit"),
        ({"max_nodes": 0}, "max nodes"),
        ({"timeout": 0.0}, "timeout"),
        ({"timeout": float("nan")}, "timeout"),
        ({"givens": np.zeros(15, dtype=np.int32)}, "shape"),
        ({"givens": np.full(16, 5, dtype=np.int32)}, "1..4"),
        ({"givens": np.zeros(16)}, "integers"),
    ],
)
def test_bad_arguments_raise_ndoku_errors(kwargs: dict[str, object], message: str) -> None:
    [puzzle] = read_puzzles(text="0" * 16)
    with pytest.raises(NdokuError, match=message):
        solve_exact(puzzle, **kwargs)  # type: ignore[arg-type]


def test_one_result_has_the_status_the_batch_gives() -> None:
    # every stop with 0, 1 and 2 solutions: result(i) works its status out alone
    rows = [(stop, count) for stop in range(len(exact.STOPS)) for count in (0, 1, 2)]
    stats = np.zeros((len(rows), exact_solver.N_STATS), dtype=np.int64)
    stats[:, exact_solver.STAT_STOP], stats[:, exact_solver.STAT_COUNT] = np.array(rows).T
    batch = exact.BatchResult(
        np.zeros((len(rows), 4), dtype=np.int32), stats, np.zeros(len(rows)), limit=2
    )
    statuses = [batch.result(i).status for i in range(len(rows))]
    assert statuses == batch.statuses.tolist()
    assert set(statuses) == {"solved", "multiple", "none", "limit"}
