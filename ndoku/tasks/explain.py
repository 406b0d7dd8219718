"""Explaining a solve: the logic engine's steps in plain sentences, with cells and units named
so that a person finds them on any layout, and as JSON records.

Cells are named by their canvas row and column, 1-based (``r3c5``). A row or column is named
by its canvas number, with its sub-grid when the layout has several (``row 7 of sub-grid 2
(at r1c13)``); a box or region by its cells' rows and columns (``box r1-3 c4-6``), an extra
unit by its first and last cell. JSON records give 0-based canvas rows and columns, and
symbols as the puzzle writes them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ndoku.errors import NdokuError
from ndoku.limits import DEFAULT_TIMEOUT
from ndoku.model.puzzle import Puzzle
from ndoku.model.units import BOX, COLUMN, ROW
from ndoku.solvers.exact import solve_exact
from ndoku.solvers.logic import Board, Path, Step, solve_path
from ndoku.solvers.logic.board import Tables
from ndoku.solvers.logic.forcing import node_of
from ndoku.solvers.logic.path import PROOF_UP_TO, apply
from ndoku.solvers.logic.rules import RuleStep
from ndoku.solvers.logic.techniques import SUBSET_NAMES
from ndoku.solvers.logic.uniqueness import UniquenessStep
from ndoku.tasks.display import explanation_html
from ndoku.tasks.rule_sentences import joined, rule_sentence
from ndoku.tasks.verify import problems
from ndoku.text.words import plural


@dataclass(frozen=True, eq=False)
class Explanation:
    """A puzzle's solving path, explained (it ends solved: guesses where no technique applies).

    Attributes
    ----------
    path : Path
        The logic engine's steps and how it stopped.
    """

    puzzle: Puzzle
    path: Path

    #: How IPython shows a path: every step's sentence in a list, as HTML (:mod:`.display`).
    _repr_html_ = explanation_html

    def text(self, k: int) -> str:
        """Step ``k`` (from 0) in one or two sentences."""
        return describe(self.puzzle, self.path.steps[k])

    def record(self, k: int) -> dict[str, object]:
        """Step ``k`` as a JSON object (``step`` counts from 1)."""
        step = self.path.steps[k]
        puzzle = self.puzzle
        symbol = puzzle.grid.style.symbol
        return {
            "step": k + 1,
            "technique": step.technique,
            "rating": step.rating,
            "text": self.text(k),
            "cells": [_rc(puzzle, c) for c in step.cells],
            "placements": [[*_rc(puzzle, c), symbol(v)] for c, v in step.placements],
            "eliminations": [[*_rc(puzzle, c), symbol(v)] for c, v in step.eliminations],
        }

    def boards(self) -> Iterator[Board]:
        """The board before each step, then the board the path ends on (the steps replayed
        from the start, as the path took them).

        >>> from ndoku.model.puzzle import read_puzzles
        >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
        >>> [board.free for board in explain(p).boards()][:3]
        [12, 11, 10]
        """
        board = Board.start(self.puzzle)
        for step in self.path.steps:
            yield board.copy()
            apply(board, step)
        yield board

    def summary(self) -> str:
        """``solved in 52 steps: hidden single ×40, …; hardest: X-wing (3.2)``, or why the
        path stops."""
        path = self.path
        counts = ", ".join(f"{name} ×{k}" for name, k in path.counts().items())
        hardest = path.hardest
        rated = f"; hardest: {hardest.technique} ({hardest.rating:g})" if hardest else ""
        steps = plural(len(path.steps), "step")
        if path.solved:
            return f"solved in {steps}: {counts or 'nothing to do'}{rated}"
        if path.stop == "contradiction":
            return f"contradiction after {steps}: the givens break a rule"
        left = plural(int((path.values == 0).sum()), "cell")
        if path.stop == "timeout":
            return (
                f"stopped by the timeout after {steps} with {left} free (--timeout): "
                f"{counts}{rated}"
            )
        return f"stuck after {steps} with {left} free: {counts}{rated}"

    def summary_record(self) -> dict[str, object]:
        """The path as a whole: how it stopped, its length, the technique counts, the hardest."""
        hardest = self.path.hardest
        return {
            "stop": self.path.stop,
            "steps": len(self.path.steps),
            "free": int((self.path.values == 0).sum()),
            "techniques": dict(self.path.counts()),
            "hardest": hardest.technique if hardest else None,
            "rating": hardest.rating if hardest else None,
        }


def explain(
    puzzle: Puzzle,
    timeout: float = DEFAULT_TIMEOUT,
    most_steps: int | None = None,
    assume_unique: bool = False,
) -> Explanation:
    """The logic engine's path for ``puzzle`` (its first ``most_steps`` steps), after checking
    that it has one solution (a path is a proof only then; its filled cells count as givens):
    by a path of singles and intersections that solves it (:func:`proved_by_logic`), or else
    by the exact search. With ``assume_unique`` the path uses the uniqueness techniques too,
    which that check makes sound.

    Raises
    ------
    ndoku.errors.NdokuError
        The puzzle has no solution, several, or the check hit the time limit.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> e = explain(p)
    >>> e.text(0)
    'Hidden single: in box r1-2 c1-2, 3 can only go in r1c2.'
    >>> e.summary()
    'solved in 12 steps: hidden single ×4, full house ×8; hardest: hidden single (1.2)'
    """
    proof = proved_by_logic(puzzle, timeout)
    if proof is not None and most_steps is None:
        return Explanation(puzzle, proof)  # the path itself (its steps come first anyway)
    solution = None if proof is None else proof.values
    if proof is None:
        checked = solve_exact(puzzle, timeout=timeout)
        if checked.status != "solved" or not checked.unique:
            why = {
                "multiple": "it has more than one solution",
                "none": "it has no solution",
                "limit": "its solutions could not be counted in time",
            }.get(checked.status, "its uniqueness could not be proved")
            marked = " within its pencil marks" if puzzle.candidates is not None else ""
            raise NdokuError(
                f"a solving path needs a puzzle with exactly one solution; {why}{marked}"
            )
        solution = checked.values
    path = solve_path(
        puzzle,
        solution=solution,
        timeout=timeout,
        most_steps=most_steps,
        assume_unique=assume_unique,
    )
    return Explanation(puzzle, path)


def proved_by_logic(puzzle: Puzzle, timeout: float = DEFAULT_TIMEOUT) -> Path | None:
    """A path of singles and intersections (up to :data:`~ndoku.solvers.logic.path.PROOF_UP_TO`)
    that solves ``puzzle``, or None. Each of its steps holds in every solution, and it ends in
    a grid that keeps every given, mark and rule: that grid is the one solution. The path is
    the one a full path takes, so it is returned whole.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> proved_by_logic(p).stop
    'solved'
    >>> [two] = read_puzzles(text="1 0 0 0\\n0 0 0 0\\n0 0 0 0\\n0 0 0 0\\n")
    >>> proved_by_logic(two) is None
    True
    """
    path = solve_path(puzzle, timeout=timeout, up_to=PROOF_UP_TO)
    if path.solved and not problems(puzzle, path.values):
        return path
    return None


def describe(puzzle: Puzzle, step: Step) -> str:
    """One step in plain words."""
    symbol = puzzle.grid.style.symbol
    tables = Tables.of(puzzle.frame)
    if isinstance(step, RuleStep):
        return rule_sentence(
            puzzle,
            step,
            lambda c: cell_name(puzzle, c),
            lambda u: unit_name(puzzle, tables, u),
            _removed(puzzle, step),
        )
    name = step.technique[0].upper() + step.technique[1:]
    digits = joined([symbol(v) for v in step.digits])
    cells = joined([cell_name(puzzle, c) for c in step.cells])
    units = [unit_name(puzzle, tables, u) for u in step.units]
    if step.technique == "full house":
        return f"{name}: {cells} is the last free cell of {units[0]}, so it holds {digits}."
    if step.technique == "hidden single":
        return f"{name}: in {units[0]}, {digits} can only go in {cells}."
    if step.technique == "naked single":
        return f"{name}: {cells} can only hold {digits}."
    removed = _removed(puzzle, step)
    if isinstance(step, UniquenessStep):
        return f"{name}: {_uniqueness(puzzle, step, units)}: {removed}."
    if step.technique in ("pointing", "claiming", "locked candidates"):
        return (
            f"{name}: in {units[0]}, {digits} can only go in {cells}, which lie in "
            f"{units[1]}; so {removed}."
        )
    if step.technique.startswith("naked "):
        return f"{name}: in {units[0]}, {cells} hold only {digits}; so {removed}."
    if step.technique.startswith("hidden "):
        return f"{name}: in {units[0]}, {digits} can only go in {cells}; so {removed}."
    if step.chain and step.technique in ("X-chain", "alternating inference chain"):
        said = [_node_said(puzzle, n) for n in step.chain]
        return (
            f"{name}: if {said[0].replace(' is ', ' were ')}, then {', so '.join(said[1:-1])}, "
            f"and {said[-1]} after all; so {_node_said(puzzle, step.chain[-1], sure=True)}."
        )
    if step.technique in ("X-chain", "skyscraper", "two-string kite", "turbot fish"):
        ends = f"{cell_name(puzzle, step.cells[0])} or {cell_name(puzzle, step.cells[-1])}"
        return (
            f"{name} on {digits}: {_arrows(puzzle, step.cells)} (strong and weak links in "
            f"turn); one of its ends, {ends}, holds {digits}; so {removed}."
        )
    if step.technique == "XY-wing":
        return (
            f"{name}: the two-candidate cells {_arrows(puzzle, step.cells)} force one of "
            f"their ends to hold the value they share; so {removed}."
        )
    if step.technique.endswith("forcing chain") and step.technique != "dynamic forcing chain":
        whichever = (
            f"whichever of {digits} {cell_name(puzzle, step.cells[0])} holds"
            if step.technique == "cell forcing chain"
            else f"wherever {digits} goes in {units[0]} ({cells})"
        )
        return (
            f"{name}: {whichever}, chains of implications lead to the same conclusion; so "
            f"{_node_said(puzzle, step.chain[0], sure=True)}."
        )
    if step.technique in ("Nishio", "dynamic forcing chain"):
        which = f"on {digits} alone" if step.technique == "Nishio" else "on every value"
        return (
            f"{name}: if {cells} held {digits}, singles ({which}) would lead to a "
            f"contradiction; so {cells} loses {digits}."
        )
    if step.technique in ("XYZ-wing", "W-wing"):
        return f"{name} on {digits}: {cells} force the value; so {removed}."
    if step.technique in ("WXYZ-wing", "VWXYZ-wing", "UVWXYZ-wing", "TUVWXYZ-wing"):
        return (
            f"{name}: {cells} hold {digits} between them, one value each, and all but one "
            f"value sit only in cells that see each other; so {removed}."
        )
    if step.technique == "guess":
        return (
            f"Guess: no technique applies; {cells} takes {digits}, its value in the one "
            "solution (proved by search)."
        )
    k = len(step.units) // 2
    base, cover = joined(units[:k]), joined(units[k:])
    return f"{name} on {digits}: in {base}, {digits} can only go in {cover}; so {removed}."


def _uniqueness(puzzle: Puzzle, step: UniquenessStep, units: list[str]) -> str:
    """Why a uniqueness step's rescue holds, and what its type draws from it."""
    symbol = puzzle.grid.style.symbol
    holders: dict[int, list[str]] = {}
    for cell, value in step.rescue:
        holders.setdefault(cell, []).append(symbol(value))
    names = [cell_name(puzzle, c) for c in holders]
    either = joined(names, "or")
    values = sorted({v for _, v in step.rescue})
    if step.technique.startswith("BUG"):
        rescued = joined([f"{cell_name(puzzle, c)}'s {joined(vs)}" for c, vs in holders.items()])
        why = (
            f"without {rescued}, every free cell would have two candidates and every value two "
            "places in each unit that lacks it, and such a grid has no solution or several"
        )
        other = "its other value"
    else:
        x, y = (symbol(v) for v in step.digits)
        cells = joined([cell_name(puzzle, c) for c in step.cells])
        why = (
            f"{cells} all have {x} and {y}; if none held another value, {x} and {y} could "
            "swap places in them and the puzzle would have two solutions"
        )
        other = "another value"
    if step.kind == 1:
        return f"{why}. So {names[0]} holds {joined(holders[step.rescue[0][0]], 'or')}"
    if step.kind == 2:
        return f"{why}. So one of {joined(names)} holds {symbol(values[0])}"
    if step.kind == 4:
        w = symbol(step.link)
        return (
            f"{why}. So {either} holds {other}; in {units[0]}, {w} can only go in {either}, "
            f"so one holds {w} and the other {other}"
        )
    subset = joined([cell_name(puzzle, c) for c in step.subset])
    digits = joined([symbol(v) for v in step.subset_digits])
    if step.hidden:
        return (
            f"{why}. So at most one of {joined(names)} holds {x} or {y}, and in {units[0]}, "
            f"{digits} can only go in {subset} and that one"
        )
    kind = SUBSET_NAMES[len(step.subset_digits)]
    return (
        f"{why}. So {either} holds {joined([symbol(v) for v in values], 'or')}, which with "
        f"{subset} makes a naked {kind} on {digits} in {units[0]}"
    )


def _node_said(puzzle: Puzzle, node: int, sure: bool = False) -> str:
    """``r3c5 is 7`` or ``r3c5 is not 7`` for a chain's node (see :attr:`Step.chain`)."""
    cell, value, on = node_of(node, puzzle.size)
    verb = "holds" if sure else "is"
    what = (
        f"{verb} {puzzle.grid.style.symbol(value)}"
        if on
        else f"is not {puzzle.grid.style.symbol(value)}"
    )
    return f"{cell_name(puzzle, cell)} {what}"


def cell_name(puzzle: Puzzle, cell: int) -> str:
    """``r3c5``: canvas row and column, 1-based."""
    r, c = puzzle.cell_rc[cell]
    return f"r{r + 1}c{c + 1}"


def unit_name(puzzle: Puzzle, tables: Tables, unit: int) -> str:
    """``row 3``, ``column 13 of sub-grid 2 (at r1c13)``, ``box r1-3 c4-6``, ``region
    r1-3 c1-4``, ``extra unit r1c1 … r9c9``."""
    cells = tables.units[unit]
    rows, cols = puzzle.cell_rc[cells, 0] + 1, puzzle.cell_rc[cells, 1] + 1
    kind = int(tables.kind[unit])
    corners = puzzle.layout.corners
    grid = int(tables.grid_of[unit])
    where = ""
    if len(corners) > 1 and grid >= 0:
        r0, c0 = corners[grid]
        where = f" of sub-grid {grid + 1} (at r{r0 + 1}c{c0 + 1})"
    if kind == ROW:
        return f"row {rows[0]}{where}"
    if kind == COLUMN:
        return f"column {cols[0]}{where}"
    if kind == BOX:
        noun = "box" if puzzle.layout.box is not None else "region"
        return f"{noun} r{_span(rows)} c{_span(cols)}"
    return f"extra unit {cell_name(puzzle, int(cells[0]))} … {cell_name(puzzle, int(cells[-1]))}"


def _rc(puzzle: Puzzle, cell: int) -> list[int]:
    """``[row, col]``: canvas row and column, 0-based (for JSON)."""
    r, c = puzzle.cell_rc[cell]
    return [int(r), int(c)]


def _arrows(puzzle: Puzzle, cells: tuple[int, ...]) -> str:
    return " – ".join(cell_name(puzzle, c) for c in cells)


def _span(numbers: object) -> str:
    low, high = int(min(numbers)), int(max(numbers))  # type: ignore[call-overload]
    return f"{low}" if low == high else f"{low}-{high}"


def _removed(puzzle: Puzzle, step: Step) -> str:
    """``7 leaves r4c4 and r6c8`` when one value goes, else by cell: ``r1c4 loses 3; r1c9
    loses 3, 8`` (in the step's order)."""
    symbol = puzzle.grid.style.symbol
    by_cell: dict[int, list[str]] = {}
    for cell, value in step.eliminations:
        by_cell.setdefault(cell, []).append(symbol(value))
    values = {v for _, v in step.eliminations}
    if len(values) == 1:
        return f"{symbol(values.pop())} leaves {joined([cell_name(puzzle, c) for c in by_cell])}"
    return "; ".join(f"{cell_name(puzzle, c)} loses {', '.join(v)}" for c, v in by_cell.items())
