"""The logic engine's techniques of variant rules against slow references.

- On random 4×4 boards with random rules of every kind (``helpers.random_ruled_puzzle``) and
  random candidates: every step removes only what no assignment of its rule's cells within
  their candidates supports, by enumeration with :func:`ndoku.model.constraints.holds`;
  the searches (cage combinations, rule assignments) remove exactly that, and when they
  find nothing, every rule's candidates are all supported (where they must not fire).
- A locked cage digit leaves only cells that see, in every assignment of the cage, the cell
  holding it.
- Paths: every step of a path on a random puzzle keeps every one of its solutions (all 288
  4×4 sudokus checked), and every step of the explained paths of a sample of janko's variant
  sets keeps the published solution (the whole sets: ``benchmarks/bench_logic_rules.py``).
- Sentences name the rule's cells and what goes; uniqueness techniques stay off on a puzzle
  with rules.
"""

from __future__ import annotations

import itertools
import random
from functools import cache

import numpy as np
import pytest

from benchmarks.bench_variants import Published, variant_set
from ndoku.model.constraints import Constraint, holds
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.exact import solve_exact
from ndoku.solvers.logic import Board, Step, solve_path
from ndoku.solvers.logic.cages import cage_digit_from_unit, locked_cage_digit
from ndoku.solvers.logic.path import LEVEL_OF, apply
from ndoku.solvers.logic.rule_search import cage_combinations, rule_assignments
from ndoku.solvers.logic.rules import (
    IMPLIED,
    LINES,
    PAIRS,
    PARITY,
    STEP_NAMES,
    RuleItems,
    RuleStep,
    narrowing,
)
from ndoku.solvers.logic.uniqueness import STEP_NAMES as UNIQUENESS_NAMES
from ndoku.tasks.explain import describe, explain

from helpers import DATA, kept_grids, random_ruled_puzzle

FINDERS = [*(narrowing(f) for f in (PARITY, PAIRS, LINES, IMPLIED)), cage_combinations]


def _masks(board: Board, cells: tuple[int, ...]) -> dict[int, int]:
    """Each cell's candidates as bits, a placed cell's value as its one bit."""
    masks = {}
    for c in cells:
        v = int(board.values[c])
        masks[c] = 1 << (v - 1) if v else sum(1 << (int(x) - 1) for x in board.candidates(c))
    return masks


def _assignments(
    board: Board, constraints: tuple[Constraint, ...], cells: tuple[int, ...]
) -> list[dict[int, int]]:
    """Every assignment of ``cells`` within their candidates that keeps ``constraints`` and
    gives cells that see each other different values (the slow reference)."""
    size = board.tables.size
    masks = _masks(board, cells)
    choices = [[v for v in range(1, size + 1) if masks[c] >> (v - 1) & 1] for c in cells]
    sees = board.tables.sees
    found = []
    values = [0] * board.puzzle.n_cells
    for combo in itertools.product(*choices):
        if any(
            sees[a, b] and x == y
            for (a, x), (b, y) in itertools.combinations(zip(cells, combo, strict=True), 2)
        ):
            continue
        for c, v in zip(cells, combo, strict=True):
            values[c] = v
        if all(holds(k, values, size) for k in constraints):
            found.append(dict(zip(cells, combo, strict=True)))
    return found


def _supported(
    board: Board, constraints: tuple[Constraint, ...], cells: tuple[int, ...]
) -> dict[int, int]:
    """Each cell's values some assignment supports (bits)."""
    support = dict.fromkeys(cells, 0)
    for assignment in _assignments(board, constraints, cells):
        for c, v in assignment.items():
            support[c] |= 1 << (v - 1)
    return support


def _random_board(puzzle: Puzzle, rng: random.Random) -> Board:
    """The puzzle's board with about a quarter of its free cells' candidates gone (at least
    one left in each)."""
    board = Board.start(puzzle)
    for c in np.flatnonzero(board.values == 0):
        values = np.flatnonzero(board.cand[c])
        for v in values:
            if rng.random() < 0.25 and board.cand[c].sum() > 1:
                board.cand[c, v] = False
    return board


def _check_step(board: Board, step: Step) -> None:
    """A rule step removes only candidates of free cells that no assignment supports; the
    fallback removes all of them."""
    assert isinstance(step, RuleStep) and step.eliminations and not step.placements
    support = _supported(board, step.constraints, step.cells)
    for c, v in step.eliminations:
        assert not board.values[c] and board.cand[c, v - 1], step
        assert not support[c] >> (v - 1) & 1, (step, support)
    if step.technique in ("rule assignments", "cage combinations", "different digits"):
        assert any(support.values()), step  # where no assignment fits, it says nothing
        unsupported = {
            (c, v)
            for c in step.cells
            if not board.values[c]
            for v in board.candidates(c)
            if not support[c] >> (v - 1) & 1
        }
        assert set(step.eliminations) == unsupported, step


@cache
def _ruled(seed: int) -> Puzzle | None:
    puzzle = random_ruled_puzzle(seed)
    return puzzle if puzzle is not None and puzzle.lowered.constraints else None


@pytest.mark.parametrize("seed", range(60))
def test_rule_steps_remove_only_what_no_assignment_supports(seed: int) -> None:
    puzzle = _ruled(seed)
    if puzzle is None:
        return
    rng = random.Random(seed)
    board = _random_board(puzzle, rng)
    for _ in range(12):
        steps = [step for find in (*FINDERS, rule_assignments) if (step := find(board))]
        for step in steps:
            _check_step(board, step)
        if not steps:
            break
        apply(board, rng.choice(steps))
    if rule_assignments(board) is None and cage_combinations(board) is None:
        # must not fire: every rule's candidates supported
        items = RuleItems.of(board)
        for item in items.items:
            constraints = tuple(items.constraints[k] for k in item.constraints)
            support = _supported(board, constraints, item.cells)
            if any(support.values()):
                assert support == _masks(board, item.cells), (item, support)


@pytest.mark.parametrize("seed", range(60))
def test_a_locked_cage_digit_is_in_the_cage_in_every_assignment(seed: int) -> None:
    puzzle = _ruled(seed)
    if puzzle is None:
        return
    board = _random_board(puzzle, random.Random(seed))
    step = locked_cage_digit(board)
    if step is None:
        return
    assert isinstance(step, RuleStep)
    [cage] = step.constraints
    assignments = _assignments(board, (cage,), cage.cells)
    [digit] = step.digits
    for c, v in step.eliminations:
        assert v == digit and c not in cage.cells and board.cand[c, v - 1]
        for assignment in assignments:
            holder = [d for d, x in assignment.items() if x == digit]
            assert holder and board.tables.sees[c, holder[0]], (step, assignment)


def test_a_unit_digit_in_a_cage_keeps_only_assignments_holding_it() -> None:
    """Where a unit lacks a digit and its places all lie in a cage, the cage holds it: what
    the step removes, no assignment of the cage holding the digit supports."""
    fired = 0
    for seed in range(300):
        puzzle = _ruled(seed)
        if puzzle is None:
            continue
        board = _random_board(puzzle, random.Random(seed))
        step = cage_digit_from_unit(board)
        if step is None:
            continue
        assert isinstance(step, RuleStep)
        fired += 1
        [cage] = step.constraints
        [digit] = step.digits
        unit = board.tables.units[step.units[0]]
        assert digit not in board.values[unit]
        places = {int(c) for c in unit if board.cand[c, digit - 1]}
        assert places and places <= set(cage.cells) and places == set(step.cells)
        holding = [a for a in _assignments(board, (cage,), cage.cells) if digit in a.values()]
        for c, v in step.eliminations:
            assert c in cage.cells and board.cand[c, v - 1]
            assert all(a[c] != v for a in holding), (step, holding)
        text = describe(puzzle, step)
        assert text.startswith("Cage digit from a unit: in ") and "the cage holds" in text
    assert fired >= 3  # the random boards reach it


def test_a_locked_cage_digit_fires_only_where_every_combination_needs_it() -> None:
    [puzzle] = read_puzzles(text="0 0 0 0\n" * 4 + "\ncage 3: r1c1 r1c2\ncage 5: r3c3 r4c3\n")
    board = Board.start(puzzle)
    step = locked_cage_digit(board)
    assert step is not None and step.digits == (1,) and step.cells == (0, 1)
    assert {c for c, _ in step.eliminations} == {2, 3, 4, 5}  # the rest of row 1 and box 1
    apply(board, step)
    step = locked_cage_digit(board)
    assert step is not None and step.digits == (2,)
    apply(board, step)
    # 5 in two cells is 1+4 or 2+3: no digit every combination needs
    assert locked_cage_digit(board) is None


@pytest.mark.parametrize("seed", range(100))
def test_every_step_of_a_path_keeps_every_solution(seed: int) -> None:
    puzzle = _ruled(seed)
    if puzzle is None:
        return
    solutions = kept_grids(puzzle)
    path = solve_path(puzzle, timeout=5)
    assert path.stop in ("solved", "stuck") or (path.stop == "contradiction" and not solutions)
    for step in path.steps:
        for solution in solutions:
            assert all(solution[c] == v for c, v in step.placements), step
            assert all(solution[c] != v for c, v in step.eliminations), step
        if isinstance(step, RuleStep):
            text = describe(puzzle, step)
            for c, _ in step.eliminations:
                assert _name(puzzle, c) in text, text
            assert step.technique in LEVEL_OF


def _name(puzzle: Puzzle, cell: int) -> str:
    r, c = puzzle.cell_rc[cell]
    return f"r{r + 1}c{c + 1}"


#: Each set sampled: its name and every how many puzzles one is explained.
SAMPLES = (
    ("killer_9x9", 27),
    ("killer_6x6", 20),
    ("killer_4x4", 3),
    ("consecutive_9x9", 5),
    ("consecutive_6x6", 5),
    ("evenodd", 10),
    ("margin", 25),
    ("skyscraper", 5),
)


@cache
def _sample(name: str, every: int) -> list[Published]:
    return variant_set(name)[0][::every]


@pytest.mark.parametrize(("name", "every"), SAMPLES)
def test_explained_paths_keep_the_published_solution(name: str, every: int) -> None:
    for entry in _sample(name, every):
        explained = explain(entry.puzzle)
        assert explained.path.solved, entry.source
        assert explained.path.values.tolist() == entry.solution
        for k, step in enumerate(explained.path.steps):
            assert all(entry.solution[c] == v for c, v in step.placements), entry.source
            assert all(entry.solution[c] != v for c, v in step.eliminations), entry.source
            assert explained.text(k)


def test_a_killer_step_names_its_cage() -> None:
    entry = _sample("killer_9x9", 16)[0]
    text = explain(entry.puzzle, most_steps=1).text(0)
    assert text == (
        "Cage combinations: the cage r1c4 and r1c5 (sum 8) can only be 1+7, 2+6 or 3+5 "
        "within its candidates; so r1c4 loses 4, 8, 9; r1c5 loses 4, 8, 9."
    )


#: A 4×4's first row, a rule, the technique of a step it makes, how its sentence starts (or
#: None: it names its cells).
SENTENCES = [
    ("0 0 0 0", "thermo: r1c1 r1c2 r1c3", "thermometer", "Thermometer: the thermometer r1c1 → "
     "r1c2 → r1c3: its digits rise from the bulb; so r1c1 loses 3, 4; r1c2 loses 1, 4; r1c3 "
     "loses 1, 2."),
    ("0 0 0 0", "black: r1c1 r1c2", "kropki dot", "Kropki dot: the black dot between r1c1 and "
     "r1c2: one is 2 times the other; so 3 leaves r1c1 and r1c2."),
    ("0 0 0 0", "odd: r2c2 r3c3", "even/odd", "Even/odd: the odd cells r2c2 and r3c3: they "
     "hold odd digits; so r2c2 loses 2, 4; r3c3 loses 2, 4."),
    ("1 0 0 0", "white: r1c1 r1c2\nnegative: white", "negative constraint", "Negative "
     "constraint: no white dot joins r1c2 and r1c3, so they do not differ by 1; so 3 leaves "
     "r1c3."),
    ("1 0 0 0", "white: r1c1 r1c2\nnonconsecutive", "negative constraint", None),
    ("0 0 0 0", "arrow: r1c1 > r1c2 r2c2", "arrow sum", "Arrow sum: the arrow from r1c1 along "
     "r1c2 – r2c2: the circle's number is the sum of the digits on the arrow (which may "
     "repeat); so "),
    ("0 0 0 0", "whisper 3: r1c1 r1c2", "German whisper", "German whisper: the German whisper "
     "line r1c1 – r1c2: neighbours on it differ by 3 or more; so "),
    ("1 0 0 0", "renban: r1c1 r2c2 r3c3", "renban", None),
    ("1 0 0 0", "palindrome: r1c1 r2c2 r3c3", "palindrome", "Palindrome: the palindrome line "
     "r1c1 – r2c2 – r3c3: it reads the same both ways: r1c1 = r3c3; so "),
    ("0 0 0 0", "little-killer 4 dr: r0c1", "little killer", None),
    ("1 0 0 0", "cage: r1c1 r2c2 r3c3 r4c4", "different digits", None),
    ("0 0 0 0\n0 0 0 0\n0 2 0 0\n0 4 0 0", "cage 5: r1c1 r1c2", "cage combinations",
     "Cage combinations: the cage r1c1 and r1c2 (sum 5) can only be 1+4 or 2+3 within its "
     "candidates, placed as r1c1 = 2 with r1c2 = 3 or r1c1 = 4 with r1c2 = 1; so r1c1 loses "
     "1, 3."),
]  # fmt: skip


@pytest.mark.parametrize(("row", "rule", "technique", "said"), SENTENCES)
def test_each_rule_step_says_its_rule(
    row: str, rule: str, technique: str, said: str | None
) -> None:
    rows = row + "\n" + "0 0 0 0\n" * (3 - row.count("\n"))
    [puzzle] = read_puzzles(text=rows + "\n" + rule + "\n")
    path = solve_path(puzzle)
    step = next(s for s in path.steps if s.technique == technique)
    assert technique in STEP_NAMES and LEVEL_OF[technique] == "rules"
    text = describe(puzzle, step)
    if said is None:
        assert all(_name(puzzle, c) in text for c in step.cells), text
    else:
        assert text.startswith(said), text


def test_innies_say_their_unit_and_cages() -> None:
    [puzzle] = read_puzzles(text="0 0 0 0\n" * 4 + "\ncage 3: r1c1 r1c2\ncage 6: r2c1 r2c2\n")
    step = narrowing(IMPLIED)(Board.start(puzzle))
    assert step is not None
    assert describe(puzzle, step).startswith(
        "Innies and outies: row 1 holds each digit once per line, so 10 in all; the 1 cage "
        "inside sum to 3, so the other cells r1c3 and r1c4 sum to 7, which within their "
        "candidates can only be 3+4; so "
    )


def test_uniqueness_techniques_stay_off_on_a_puzzle_with_rules() -> None:
    """A unique rectangle a classic path takes (asked to assume uniqueness) is not taken
    once a cage on two givens, which it keeps, joins the puzzle: a cage can tell a deadly
    pattern's two solutions apart."""
    for puzzle in read_puzzles(DATA / "sudoku9" / "sudoku_exchange_diabolical_first100.txt")[:30]:
        solution = solve_exact(puzzle).values
        plain = solve_path(puzzle, solution=solution, assume_unique=True)
        if {s.technique for s in plain.steps} & set(UNIQUENESS_NAMES):
            break
    else:
        pytest.fail("no unique rectangle in the first 30 diabolical puzzles")
    given = np.flatnonzero(puzzle.givens)
    a = int(given[0])
    b = int(next(c for c in given if puzzle.givens[c] != puzzle.givens[a]))
    total = int(puzzle.givens[a] + puzzle.givens[b])
    caged = puzzle.text() + f"\ncage {total}: {_name(puzzle, a)} {_name(puzzle, b)}\n"
    [ruled] = read_puzzles(text=caged)
    path = solve_path(ruled, solution=solution, assume_unique=True)
    assert not {s.technique for s in path.steps} & set(UNIQUENESS_NAMES)
    assert path.solved and (path.values == solution).all()
