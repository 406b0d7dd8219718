"""Rules drawn to fit a generated solution (``generate --rules``): killer cages, cut again
around the givens a killer still needs, or a dot or mark on every neighbouring pair of its
kind with the negative constraint.

Each kind makes a puzzle of the empty layout that the solution solves; the generator then
removes givens while the exact solver, which sees the rules, proves it unique. Cages vary
from cut to cut, so up to :data:`CAGE_CUTS` are tried for one that needs no given, and
:func:`repaired` cuts again where givens are still needed. Marks are fixed by the solution
(every pair that qualifies is marked), so one set is drawn.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from ndoku.limits import seconds_left
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.model.rules import Rule, rule_text
from ndoku.solvers.exact import solve_exact
from ndoku.tasks.caging import cage_lines, cut_cages, neighbours, recut_cages
from ndoku.tasks.thinning import CHECK_NODES, thin

IntArray = NDArray[np.int32]

#: Kinds of rules a generated puzzle can carry.
RULES = ("killer", "consecutive", "xv")
#: Cuts into cages tried per solution for one that needs no givens, and rounds of cutting
#: again around the givens a killer still needs.
CAGE_CUTS = 20
REPAIRS = 6
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
    the time left): for a killer, the first of :data:`CAGE_CUTS` cuts that does, else the
    last.

    >>> from ndoku.solvers.random import generator
    >>> from ndoku.tasks.generate import layout_puzzle, puzzle_text, random_solution
    >>> p = layout_puzzle("6x6")
    >>> solution = random_solution(p, generator(3), float("inf"))
    >>> marked, alone = ruled(p, puzzle_text(p), solution, "xv", generator(3), float("inf"))
    >>> sorted({rule.kind for rule in marked.rules}), marked.rules[-1].words
    (['negative', 'v', 'x'], ('x', 'v'))
    """
    empty = np.zeros(layout.n_cells, dtype=np.int32)
    tries = CAGE_CUTS if rules == "killer" else 1
    for k in range(tries):
        if rules == "killer":
            lines = cage_lines(layout, solution, cut_cages(layout, solution, rng))
        else:
            lines = mark_lines(layout, solution, rules)
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
