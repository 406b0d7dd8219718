"""Rules drawn to fit a generated solution (``generate --rules``): killer cages, cut again
around the givens a killer still needs; a dot or mark on every neighbouring pair of its kind,
with the negative constraint; or lines (thermometers, whispers) and arrows along random
paths of the solution.

Each kind makes a puzzle of the empty layout that the solution solves; the generator then
removes givens while the exact solver, which sees the rules, proves it unique. Cages, lines
and arrows vary from draw to draw, so up to :data:`DRAWS` are tried for one that needs no
given, and :func:`repaired` cuts cages again where givens are still needed. Marks are fixed
by the solution (every pair that qualifies is marked), so one set is drawn.

A line grows from a random free cell to a random king's-move neighbour whose value may
follow (a larger one on a thermometer, one :func:`~ndoku.model.rules.whisper_gap` away on a
whisper), for :data:`LINE_CELLS` cells, until lines cover :data:`COVER` of the canvas. An
arrow starts at a free circle cell and walks its neighbours (depth first, in a random order)
until the values along it sum to the circle's.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from ndoku.limits import seconds_left
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.model.rules import Rule, rule_text, whisper_gap
from ndoku.solvers.exact import solve_exact
from ndoku.tasks.caging import KING, cage_lines, cut_cages, neighbours, recut_cages
from ndoku.tasks.thinning import CHECK_NODES, thin

IntArray = NDArray[np.int32]

#: Kinds of rules a generated puzzle can carry.
RULES = ("killer", "consecutive", "xv", "thermo", "whisper", "arrow")
#: Draws of cages, lines or arrows tried per solution for one that needs no givens, and
#: rounds of cutting again around the givens a killer still needs.
DRAWS = 20
REPAIRS = 6
#: Cells of a line or an arrow's shaft, least and most; the share of the canvas the lines
#: (or arrows, circles included) cover; tries per cell before the cover is given up.
LINE_CELLS = (3, 6)
ARROW_CELLS = (2, 4)
COVER = 0.6
TRIES_PER_CELL = 4
#: Line rules: whether value ``b`` may follow ``a`` on the line, for size ``n``.
LINES: dict[str, Callable[[int, int, int], bool]] = {
    "thermo": lambda a, b, n: b > a,
    "whisper": lambda a, b, n: abs(a - b) >= whisper_gap(n),
}
#: The marks of each kind of :data:`RULES` but the killer: (rule kind, whether a pair of
#: values gets it), and the kinds its negative constraint names.
MARKS: dict[str, tuple[tuple[tuple[str, Callable[[int, int], bool]], ...], tuple[str, ...]]] = {
    "consecutive": ((("white", lambda a, b: abs(a - b) == 1),), ("white",)),
    "xv": ((("x", lambda a, b: a + b == 10), ("v", lambda a, b: a + b == 5)), ("x", "v")),
}


def ruled(
    layout: Puzzle,
    text: str,
    solution: IntArray,
    rules: str,
    rng: np.random.Generator,
    deadline: float,
) -> tuple[Puzzle, bool]:
    """The empty ``layout`` (written as ``text``) with ``rules`` that fit ``solution``, and
    whether they alone make it unique (checked within ``CHECK_NODES`` nodes and a share of
    the time left): of cages, lines or arrows, the first of :data:`DRAWS` draws that does,
    else the last.

    >>> from ndoku.solvers.random import generator
    >>> from ndoku.tasks.generate import layout_puzzle, puzzle_text, random_solution
    >>> p = layout_puzzle("6x6")
    >>> solution = random_solution(p, generator(3), float("inf"))
    >>> marked, alone = ruled(p, puzzle_text(p), solution, "xv", generator(3), float("inf"))
    >>> sorted({rule.kind for rule in marked.rules}), marked.rules[-1].words
    (['negative', 'v', 'x'], ('x', 'v'))
    """
    empty = np.zeros(layout.n_cells, dtype=np.int32)
    tries = 1 if rules in MARKS else DRAWS
    for k in range(tries):
        if rules == "killer":
            lines = cage_lines(layout, solution, cut_cages(layout, solution, rng))
        elif rules in MARKS:
            lines = mark_lines(layout, solution, rules)
        else:
            lines = path_lines(layout, solution, rules, rng)
        puzzle = with_rules(text, lines)
        share = seconds_left(deadline) / (2 * (tries - k))
        check = solve_exact(puzzle, givens=empty, limit=2, max_nodes=CHECK_NODES, timeout=share)
        if check.unique:
            return puzzle, True
    return puzzle, False


def mark_lines(puzzle: Puzzle, solution: IntArray, rules: str) -> list[str]:
    """Every neighbouring pair of ``solution`` marked with each mark of ``rules``
    (:data:`MARKS`) whose values it has, and the negative constraint of those marks.

    >>> from ndoku.tasks.generate import layout_puzzle
    >>> solution = np.array([1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1], dtype=np.int32)
    >>> mark_lines(layout_puzzle("4x4"), solution, "consecutive")[:3]
    ['white: r1c1 r1c2', 'white: r1c2 r1c3', 'white: r1c3 r1c4']
    >>> mark_lines(layout_puzzle("4x4"), solution, "consecutive")[-1]
    'negative: white'
    """
    marks, negative = MARKS[rules]
    near = neighbours(puzzle)
    lines = []
    for a in range(puzzle.n_cells):
        for b in near[a]:
            if b < a:
                continue
            x, y = int(solution[a]), int(solution[b])
            lines += [
                rule_text(Rule(kind, (a, b)), puzzle.cell_rc)
                for kind, holds in marks
                if holds(x, y)
            ]
    return [*lines, rule_text(Rule("negative", words=negative), puzzle.cell_rc)]


def path_lines(
    puzzle: Puzzle, solution: IntArray, rules: str, rng: np.random.Generator
) -> list[str]:
    """Lines of kind ``rules`` (:data:`LINES`) or arrows along random paths of ``solution``
    that keep their rule, none sharing a cell, until they cover :data:`COVER` of the canvas.

    >>> from ndoku.solvers.random import generator
    >>> from ndoku.tasks.generate import layout_puzzle
    >>> solution = np.array([1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1], dtype=np.int32)
    >>> for line in path_lines(layout_puzzle("4x4"), solution, "thermo", generator(0)):
    ...     print(line)
    thermo: r1c1 r1c2 r1c3
    thermo: r3c1 r4c2 r4c1
    thermo: r4c3 r3c4 r3c3
    thermo: r2c3 r2c4 r1c4
    """
    near = neighbours(puzzle, KING)
    values = solution.tolist()  # the solution's values, read many times
    used = np.zeros(puzzle.n_cells, dtype=bool)
    found: list[Rule] = []
    for _ in range(TRIES_PER_CELL * puzzle.n_cells):
        if used.sum() >= COVER * puzzle.n_cells:
            break
        start = int(rng.integers(puzzle.n_cells))
        if used[start]:
            continue
        if rules == "arrow":
            path = _arrow(near, solution, used, start, rng)
        else:
            path = _line(near, values, used, start, rules, puzzle.size, rng)
        if path is not None:
            used[list(path)] = True
            found.append(Rule(rules, path, head=1 if rules == "arrow" else 0))
    return [rule_text(rule, puzzle.cell_rc) for rule in found]


def _line(
    near: list[list[int]],
    value: list[int],
    used: NDArray[np.bool_],
    start: int,
    kind: str,
    size: int,
    rng: np.random.Generator,
) -> tuple[int, ...] | None:
    """A line of ``kind`` from ``start`` through free cells, or None when it stays short."""
    follows = LINES[kind]
    path = [start]
    want = int(rng.integers(LINE_CELLS[0], LINE_CELLS[1] + 1))
    while len(path) < want:
        last = path[-1]
        steps = [
            q
            for q in near[last]
            if not used[q] and q not in path and follows(value[last], value[q], size)
        ]
        if not steps:
            break
        path.append(steps[int(rng.integers(len(steps)))])
    return tuple(path) if len(path) >= LINE_CELLS[0] else None


def _arrow(
    near: list[list[int]],
    solution: IntArray,
    used: NDArray[np.bool_],
    circle: int,
    rng: np.random.Generator,
) -> tuple[int, ...] | None:
    """An arrow from the circle ``circle`` whose shaft of free cells sums to its value, or
    None (a depth-first walk in a random order, :data:`ARROW_CELLS` cells long)."""
    total = int(solution[circle])
    shaft: list[int] = []

    def walk(at: int, left: int) -> bool:
        if left == 0:
            return len(shaft) >= ARROW_CELLS[0]
        if len(shaft) == ARROW_CELLS[1]:
            return False
        for q in rng.permutation(near[at]).tolist():
            if used[q] or q == circle or q in shaft or solution[q] > left:
                continue
            shaft.append(q)
            if walk(q, left - int(solution[q])):
                return True
            shaft.pop()
        return False

    return (circle, *shaft) if walk(circle, total) else None


def with_rules(text: str, lines: list[str]) -> Puzzle:
    """The empty layout written as ``text`` with the rules of ``lines``, read as a file of
    them would be."""
    [puzzle] = read_puzzles(text=text + "\n" + "".join(f"{line}\n" for line in lines))
    return puzzle


def repaired(
    layout: Puzzle,
    text: str,
    caught: tuple[Puzzle, IntArray, str],
    solution: IntArray,
    order: list[IntArray],
    rng: np.random.Generator,
    deadline: float,
) -> tuple[Puzzle, IntArray, str]:
    """A killer (its puzzle, the givens thinning left, how thinning stopped) with fewer
    givens, where one is found in :data:`REPAIRS` rounds: each cuts again the cages around
    the givens still needed (they mark where the cages leave values open) and thins again."""
    best = caught
    for _ in range(REPAIRS):
        puzzle, givens, _ = best
        if not givens.any() or seconds_left(deadline) <= 0:
            break
        cages = [rule.cells for rule in puzzle.rules]
        cages = recut_cages(layout, solution, cages, np.flatnonzero(givens), rng)
        again = with_rules(text, cage_lines(layout, solution, cages))
        fewer, stop = thin(again, solution, order, deadline=deadline)
        if (fewer > 0).sum() < (givens > 0).sum():
            best = (again, fewer, stop)
    return best
