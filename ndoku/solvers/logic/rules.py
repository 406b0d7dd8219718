"""Techniques of variant rules: what one rule's cells allow (cage combinations, the pairs of
dots and lines, sums, renban, even/odd), digits locked into a cage, innies and outies, and a
fallback that tries every assignment of a rule's cells; each step names its rule.

The narrowing is the exact solver's: each rule is lowered to constraints
(:func:`ndoku.model.constraints.lower`), and a step narrows the constraints of one rule
together with the kernels of :mod:`ndoku.solvers.narrowing` to a fixed point. What they
remove, no assignment of the rule's cells within their candidates supports, so the step is
sound; the sentence says why in the rule's terms (:mod:`ndoku.tasks.rule_sentences`).

Glossary (terms of :mod:`.techniques` aside)
--------
rule item
    What one step narrows: the constraints of one written rule (a cage, a thermometer, the
    cells of an ``odd`` line), one pair of a global rule (the negative constraint on two
    neighbours), or one implied sum.
combination
    A set of k different digits with a cage's sum that the cage's candidates can still make:
    each cell has one of its digits and the cells together have them all.
locked cage digit
    A digit every combination of a cage holds: the cage holds it, so it leaves every cell
    outside the cage that sees all its places in the cage (the rest of a unit that holds
    the cage, among others).
innies and outies
    The 45 rule: a unit (or a few neighbouring rows or columns) holds 1..N once each, so its
    cells sum to N(N+1)/2 per line; the cages wholly inside leave the sum of the other cells
    (innies), the cages that meet it, when they cover it, give the sum of their cells
    outside (outies) (:mod:`ndoku.solvers.implied`).
rule assignments
    The fallback: a candidate of a rule's cells that no assignment of those cells within
    their candidates supports, where the assignment keeps every constraint of the rule and
    gives cells that see each other different digits.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ndoku.jit import kernel
from ndoku.model.constraints import Constraint
from ndoku.solvers.implied import Implied, implied_sources
from ndoku.solvers.logic.board import Board, BoolArray, IntArray
from ndoku.solvers.logic.techniques import Step, cell_bits
from ndoku.solvers.narrowing import narrow
from ndoku.solvers.tables import Rules, combinations, rule_tables, rule_work

# Families of rule items: each is one technique of the path (see :data:`FAMILIES`).
PARITY = 0
PAIRS = 1
CAGES = 2
LINES = 3
IMPLIED = 4

#: Each rule kind's technique: its step name, the rating of its easiest form and family.
BY_KIND = {
    "even": ("even/odd", 1.0, PARITY),
    "odd": ("even/odd", 1.0, PARITY),
    "white": ("kropki dot", 1.7, PAIRS),
    "black": ("kropki dot", 1.7, PAIRS),
    "x": ("XV sum", 1.7, PAIRS),
    "v": ("XV sum", 1.7, PAIRS),
    "palindrome": ("palindrome", 1.7, PAIRS),
    "negative": ("negative constraint", 1.8, PAIRS),
    "nonconsecutive": ("negative constraint", 1.8, PAIRS),
    "thermo": ("thermometer", 2.0, PAIRS),
    "slow-thermo": ("thermometer", 2.0, PAIRS),
    "whisper": ("German whisper", 2.0, PAIRS),
    "region": ("different digits", 1.5, CAGES),
    "cage": ("cage combinations", 2.0, CAGES),
    "arrow": ("arrow sum", 2.4, LINES),
    "little-killer": ("little killer", 2.4, LINES),
    "outside-sum": ("outside sum", 2.4, LINES),
    "renban": ("renban", 2.4, LINES),
    "sandwich": ("sandwich clue", 2.8, LINES),
    "skyscraper": ("skyscraper clue", 2.8, LINES),
}
#: A cage without a sum: only its digits differ.
DISTINCT_CAGE = ("different digits", 1.5, CAGES)
IMPLIED_STEP = ("innies and outies", 3.0, IMPLIED)
LOCKED_RATING = 2.8
#: Rule kinds of the whole grid: each of their constraints (a pair of neighbours) is an item.
GLOBAL_KINDS = frozenset({"negative", "nonconsecutive"})
#: Rounds of narrowing one item's constraints in turn, at most (a fixed point comes sooner).
MOST_ROUNDS = 64

#: The step names of the techniques of this module (for the path's levels).
STEP_NAMES = (
    *dict.fromkeys(name for name, _, _ in BY_KIND.values()),
    IMPLIED_STEP[0],
    "locked cage digit",
    "cage digit from a unit",
    "rule assignments",
)


@dataclass(frozen=True)
class RuleStep(Step):
    """A step of a rule technique: the rule it rests on and what the sentence needs.

    Attributes
    ----------
    rule : int
        The rule (an index of the puzzle's ``rules``), -1 for an implied sum.
    implied : Implied or None
        The implied sum (innies and outies): its units, cages and total.
    combinations : tuple of int
        Of a cage (or an implied one): the combinations its candidates allowed (bit masks).
    constraints : tuple of Constraint
        The constraints it narrowed (of the rule, or the implied sum).
    assignments : tuple of tuple of int
        Of a small cage: every assignment of its cells its candidates allow (values in the
        order of its cells).
    """

    rule: int = -1
    implied: Implied | None = None
    combinations: tuple[int, ...] = ()
    constraints: tuple[Constraint, ...] = ()
    assignments: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True)
class Item:
    """A rule item (see the module glossary): its technique, rating, family, constraints
    (indices in :attr:`RuleItems.constraints`), rule (-1: implied) and implied sum."""

    technique: str
    rating: float
    family: int
    constraints: tuple[int, ...]
    cells: tuple[int, ...]
    rule: int = -1
    implied: Implied | None = None


@dataclass(frozen=True, eq=False)
class RuleItems:
    """A puzzle's rule items and the kernels' arrays of their constraints, built once per
    path (kept in the board's memory)."""

    constraints: tuple[Constraint, ...]
    rules: Rules
    items: tuple[Item, ...]
    item_ptr: IntArray
    item_constraints: NDArray[np.int64]  # int64, as the search's k: one version of narrow
    family: IntArray
    cages: IntArray  # the written cages with a sum (constraint indices)
    member: BoolArray  # items × cells: the item's cells

    @classmethod
    def of(cls, board: Board) -> RuleItems:
        """The items of the board's puzzle (made once per board)."""
        found = board.memory.get("rule items")
        if not isinstance(found, RuleItems):
            found = cls._build(board)
            board.memory["rule items"] = found
        return found

    @classmethod
    def _build(cls, board: Board) -> RuleItems:
        puzzle = board.puzzle
        lowered = list(puzzle.lowered.constraints)
        implied = implied_sources(lowered, puzzle.frame)
        constraints = (*lowered, *(found.constraint for found in implied))
        by_rule: dict[int, list[int]] = {}
        items: list[Item] = []
        for k, constraint in enumerate(lowered):
            rule = puzzle.rules[constraint.rule]
            if rule.kind in GLOBAL_KINDS:
                items.append(_item(BY_KIND[rule.kind], (k,), constraints, constraint.rule))
            else:
                by_rule.setdefault(constraint.rule, []).append(k)
        for r, ks in by_rule.items():
            rule = puzzle.rules[r]
            kind = (
                DISTINCT_CAGE if rule.kind == "cage" and rule.value is None else BY_KIND[rule.kind]
            )
            items.append(_item(kind, tuple(ks), constraints, r))
        for i, found in enumerate(implied):
            k = len(lowered) + i
            items.append(_item(IMPLIED_STEP, (k,), constraints, -1, found))
        items.sort(key=lambda item: (item.family, item.rating, min(item.cells)))
        lengths = [len(item.constraints) for item in items]
        flat = [k for item in items for k in item.constraints]
        cages = [k for k, c in enumerate(lowered) if c.kind == "cage"]
        member = np.zeros((len(items), puzzle.n_cells), dtype=bool)
        for i, item in enumerate(items):
            member[i, list(item.cells)] = True
        return cls(
            constraints,
            rule_work(rule_tables(constraints, puzzle.size), puzzle.size),
            tuple(items),
            np.cumsum([0, *lengths]).astype(np.int32),
            np.array(flat, dtype=np.int64),
            np.array([item.family for item in items], dtype=np.int32),
            np.array(cages, dtype=np.int32),
            member,
        )


def _item(
    kind: tuple[str, float, int],
    ks: tuple[int, ...],
    constraints: tuple[Constraint, ...],
    rule: int,
    implied: Implied | None = None,
) -> Item:
    name, rating, family = kind
    cells = tuple(dict.fromkeys(c for k in ks for c in constraints[k].cells))
    if family in (CAGES, LINES, IMPLIED) and name != "different digits":
        rating = min(rating + 0.1 * max(len(cells) - 2, 0), rating + 0.9)
    return Item(name, round(rating, 1), family, ks, cells, rule, implied)


def board_bits(board: Board) -> NDArray[np.uint64]:
    """Each cell's candidates as bits, a placed cell's value as its one bit (made once per
    state of the board: read it, do not change it)."""
    return board.derived("rule bits", _bits)


def _bits(board: Board) -> NDArray[np.uint64]:
    bits = cell_bits(board.cand)
    placed = np.flatnonzero(board.values)
    bits[placed] = np.uint64(1) << (board.values[placed].astype(np.uint64) - np.uint64(1))
    return bits


@kernel()
def narrow_item(
    it: int,
    local: NDArray[np.uint64],
    rules: Rules,
    size: int,
    item_ptr: IntArray,
    item_constraints: NDArray[np.int64],
) -> bool:
    """Narrow item ``it``'s constraints in turn, in ``local``, until none changes anything;
    False on a contradiction."""
    ptr, cells, out = rules[1], rules[2], rules[9]
    for _ in range(MOST_ROUNDS):
        changed = False
        for j in range(item_ptr[it], item_ptr[it + 1]):
            k = item_constraints[j]
            if narrow(k, local, rules, size) < 0:
                return False
            for i in range(ptr[k], ptr[k + 1]):
                if out[i] != local[cells[i]]:
                    local[cells[i]] = out[i]
                    changed = True
        if not changed:
            break
    return True


@kernel()
def _first_narrowing(
    bits: NDArray[np.uint64],
    local: NDArray[np.uint64],
    rules: Rules,
    size: int,
    item_ptr: IntArray,
    item_constraints: NDArray[np.int64],
    family: IntArray,
    want: int,
) -> int:
    """The first item of family ``want`` whose narrowing removes a candidate of ``bits``,
    what it leaves in ``local`` (elsewhere ``local`` is ``bits``); -1 for none."""
    ptr, cells = rules[1], rules[2]
    for it in range(len(family)):
        if family[it] != want:
            continue
        sound = narrow_item(it, local, rules, size, item_ptr, item_constraints)
        found = False
        for j in range(item_ptr[it], item_ptr[it + 1]):
            k = item_constraints[j]
            for i in range(ptr[k], ptr[k + 1]):
                found |= local[cells[i]] != bits[cells[i]]
        if found and sound:
            return it
        for j in range(item_ptr[it], item_ptr[it + 1]):  # as it was, for the next item
            k = item_constraints[j]
            for i in range(ptr[k], ptr[k + 1]):
                local[cells[i]] = bits[cells[i]]
    return -1


def allowed_combinations(constraint: Constraint, bits: NDArray[np.uint64], size: int) -> list[int]:
    """The combinations of a cage (``constraint``: a ``cage``) its cells' candidates ``bits``
    allow: each cell has one of the digits and the cells together have them all (bit masks,
    as :func:`~ndoku.solvers.tables.combinations`; none past its limit).

    >>> bits = np.array([0b11, 0b111], dtype=np.uint64)
    >>> [bin(m) for m in allowed_combinations(Constraint("cage", (0, 1), 4), bits, 9)]
    ['0b101']
    """
    found = []
    masks = [int(bits[c]) for c in constraint.cells]
    for combo in combinations(len(constraint.cells), constraint.number, size):
        union = 0
        for m in masks:
            union |= m & combo
            if not m & combo:
                break
        else:
            if union == combo:
                found.append(combo)
    return found


def removed_between(board: Board, cells: tuple[int, ...], before: NDArray[np.uint64],
             after: NDArray[np.uint64]) -> tuple[tuple[int, int], ...]:  # fmt: skip
    """(cell, value) of the candidates of free ``cells`` in ``before`` but not ``after``."""
    return tuple(
        (c, v + 1)
        for c in cells
        if not board.values[c]
        for v in range(board.tables.size)
        if int(before[c]) >> v & 1 and not int(after[c]) >> v & 1
    )


def narrowing(family: int) -> Callable[[Board], Step | None]:
    """The technique of a family of rule items: the first item whose narrowing removes a
    candidate.

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="0 0 0 0\\n" * 4 + "\\nthermo: r1c1 r1c2 r1c3\\n")
    >>> step = narrowing(PAIRS)(Board.start(p))
    >>> step.technique, step.eliminations[:3]
    ('thermometer', ((0, 3), (0, 4), (1, 1)))
    """

    def find(board: Board) -> Step | None:
        if not board.puzzle.lowered.constraints:
            return None
        items = RuleItems.of(board)
        bits = board_bits(board)
        local = bits.copy()
        it = _first_narrowing(
            bits, local, items.rules, board.tables.size, items.item_ptr,
            items.item_constraints, items.family, family,
        )  # fmt: skip
        if it < 0:
            return None
        item = items.items[it]
        removed = removed_between(board, item.cells, bits, local)
        if not removed:  # only a placed cell's value went: the board broke the rule
            return None
        combos: tuple[int, ...] = ()
        if len(item.constraints) == 1 and items.constraints[item.constraints[0]].kind == "cage":
            combos = tuple(allowed_combinations(items.constraints[item.constraints[0]], bits,
                                                board.tables.size))  # fmt: skip
        units = item.implied.units if item.implied is not None else ()
        return RuleStep(
            item.technique, item.rating, item.cells, units, (), eliminations=removed,
            rule=item.rule, implied=item.implied, combinations=combos,
            constraints=tuple(items.constraints[k] for k in item.constraints),
        )  # fmt: skip

    return find
