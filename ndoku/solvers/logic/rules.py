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
from ndoku.solvers.bits import lowest
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
#: The fallback: its rating for a rule of two cells, a tenth more per cell, at most the last.
ASSIGNMENT_RATINGS = (4.0, 6.0)
#: Nodes the fallback's search of one rule item may visit; past them it says nothing there.
ASSIGNMENT_NODES = 50_000
#: Rule kinds of the whole grid: each of their constraints (a pair of neighbours) is an item.
GLOBAL_KINDS = frozenset({"negative", "nonconsecutive"})
#: Rounds of narrowing one item's constraints in turn, at most (a fixed point comes sooner).
MOST_ROUNDS = 64

#: The step names of the techniques of this module (for the path's levels).
STEP_NAMES = (
    *dict.fromkeys(name for name, _, _ in BY_KIND.values()),
    IMPLIED_STEP[0],
    "locked cage digit",
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
    """

    rule: int = -1
    implied: Implied | None = None
    combinations: tuple[int, ...] = ()
    constraints: tuple[Constraint, ...] = ()


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
    item_constraints: IntArray
    family: IntArray
    cages: IntArray  # the written cages with a sum (constraint indices)

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
        return cls(
            constraints,
            rule_work(rule_tables(constraints, puzzle.size), puzzle.size),
            tuple(items),
            np.cumsum([0, *lengths]).astype(np.int32),
            np.array(flat, dtype=np.int32),
            np.array([item.family for item in items], dtype=np.int32),
            np.array(cages, dtype=np.int32),
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
    """Each cell's candidates as bits, a placed cell's value as its one bit."""
    bits = cell_bits(board.cand)
    placed = np.flatnonzero(board.values)
    bits[placed] = np.uint64(1) << (board.values[placed].astype(np.uint64) - np.uint64(1))
    return bits


@kernel()
def _narrow_item(
    it: int,
    local: NDArray[np.uint64],
    rules: Rules,
    size: int,
    item_ptr: IntArray,
    item_constraints: IntArray,
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
    item_constraints: IntArray,
    family: IntArray,
    want: int,
) -> int:
    """The first item of family ``want`` whose narrowing removes a candidate of ``bits``,
    what it leaves in ``local`` (elsewhere ``local`` is ``bits``); -1 for none."""
    ptr, cells = rules[1], rules[2]
    for it in range(len(family)):
        if family[it] != want:
            continue
        sound = _narrow_item(it, local, rules, size, item_ptr, item_constraints)
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


def _removed(board: Board, cells: tuple[int, ...], before: NDArray[np.uint64],
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
    candidate."""

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
        removed = _removed(board, item.cells, bits, local)
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


@kernel()
def _locked_in_cage(
    bits: NDArray[np.uint64], values: IntArray, rules: Rules, cages: IntArray, sees: BoolArray
) -> tuple[int, int]:
    """(constraint, value from 0) of the first cage whose every combination its candidates
    allow holds the value, while a free cell outside it sees every place of the value in the
    cage and has it; (-1, -1) for none."""
    ptr, cells, combo_ptr, combos = rules[1], rules[2], rules[6], rules[7]
    for k in cages:
        start, end = ptr[k], ptr[k + 1]
        need = ~np.uint64(0)
        allowed = False
        for t in range(combo_ptr[k], combo_ptr[k + 1]):
            m = combos[t]
            union = np.uint64(0)
            meets = True
            for i in range(start, end):
                part = bits[cells[i]] & m
                if part == np.uint64(0):
                    meets = False
                    break
                union |= part
            if meets and union == m:
                need &= m
                allowed = True
        if not allowed:
            continue
        while need != np.uint64(0):
            v = lowest(need)
            need &= need - np.uint64(1)
            bit = np.uint64(1) << np.uint64(v)
            for c in range(len(bits)):
                if values[c] or bits[c] & bit == np.uint64(0):
                    continue
                all_seen = True
                for i in range(start, end):
                    if bits[cells[i]] & bit and not sees[c, cells[i]]:
                        all_seen = False
                        break
                if all_seen:
                    return k, v
    return -1, -1


def locked_cage_digit(board: Board) -> Step | None:
    """A digit every combination of a cage holds leaves the cells that see all its places
    in the cage."""
    if not board.puzzle.lowered.constraints:
        return None
    items = RuleItems.of(board)
    if not len(items.cages):
        return None
    bits = board_bits(board)
    sees = board.tables.sees
    k, v = _locked_in_cage(bits, board.values, items.rules, items.cages, sees)
    if k < 0:
        return None
    cage = items.constraints[k]
    places = [c for c in cage.cells if int(bits[c]) >> v & 1]
    removed = tuple(
        (int(c), v + 1)
        for c in np.flatnonzero(board.cand[:, v] & sees[:, places].all(axis=1))
        if c not in cage.cells
    )
    combos = tuple(allowed_combinations(cage, bits, board.tables.size))
    return RuleStep(
        "locked cage digit", LOCKED_RATING, tuple(places), (), (v + 1,), eliminations=removed,
        rule=cage.rule, combinations=combos, constraints=(cage,),
    )  # fmt: skip


@kernel()
def _settle(
    it: int,
    local: NDArray[np.uint64],
    rules: Rules,
    size: int,
    item_ptr: IntArray,
    item_constraints: IntArray,
    cells: IntArray,
    sees: BoolArray,
) -> bool:
    """Narrow item ``it`` in ``local`` (its constraints, and a fixed cell's value out of the
    item's cells that see it) until nothing changes; False on a contradiction."""
    for _ in range(MOST_ROUNDS * len(cells)):
        if not _narrow_item(it, local, rules, size, item_ptr, item_constraints):
            return False
        changed = False
        for c in cells:
            m = local[c]
            if m & (m - np.uint64(1)) != np.uint64(0):
                continue
            for d in cells:
                if d != c and sees[c, d] and local[d] & m != np.uint64(0):
                    local[d] &= ~m
                    if local[d] == np.uint64(0):
                        return False
                    changed = True
        if not changed:
            break
    return True


@kernel()
def _support(
    it: int,
    bits: NDArray[np.uint64],
    rules: Rules,
    size: int,
    item_ptr: IntArray,
    item_constraints: IntArray,
    cells: IntArray,
    sees: BoolArray,
    most: int,
    stack: NDArray[np.uint64],
    branch: IntArray,
    left: NDArray[np.uint64],
    support: NDArray[np.uint64],
) -> int:
    """Each of item ``it``'s ``cells``' values that some assignment within ``bits`` supports
    (keeping its constraints, cells that see each other different) into ``support``: a
    search that narrows the item at every node (:func:`_settle`; the kernels are exact on
    fixed cells). 1 when done, 0 past ``most`` nodes, -1 when no assignment holds.
    ``stack``: a board's room per level (levels × cells), ``branch`` and ``left`` the cell
    (its place in ``cells``) and the values left to try per level."""
    k = len(cells)
    for i in range(k):
        support[i] = np.uint64(0)
        stack[0, cells[i]] = bits[cells[i]]
    if not _settle(it, stack[0], rules, size, item_ptr, item_constraints, cells, sees):
        return -1
    level = 0
    nodes = 0
    found = False
    while level >= 0:
        board = stack[level]
        if left[level] == np.uint64(0) and branch[level] >= 0:
            level -= 1  # every value of this level's cell tried
            continue
        if branch[level] < 0:  # just settled: branch on a cell with several values, or record
            branch[level] = -2
            for i in range(k):
                m = board[cells[i]]
                if m & (m - np.uint64(1)) != np.uint64(0):
                    branch[level] = i
                    left[level] = m
                    break
            if branch[level] == -2:
                found = True
                done = True
                for i in range(k):
                    support[i] |= board[cells[i]]
                    done &= support[i] == stack[0, cells[i]]
                if done:
                    return 1
                level -= 1
                continue
        bit = left[level] & -left[level]
        left[level] ^= bit
        nodes += 1
        if nodes > most:
            return 0
        nxt = stack[level + 1]
        for i in range(k):
            nxt[cells[i]] = board[cells[i]]
        nxt[cells[branch[level]]] = bit
        if _settle(it, nxt, rules, size, item_ptr, item_constraints, cells, sees):
            level += 1
            branch[level] = -1
    return 1 if found else -1


def rule_assignments(board: Board) -> Step | None:
    """A candidate of a rule's cells that no assignment of them supports (the fallback; its
    rating rises with the rule's cells). Items whose cells are as they were when last
    searched to no avail are not searched again."""
    if not board.puzzle.lowered.constraints:
        return None
    items = RuleItems.of(board)
    bits = board_bits(board)
    tried: dict[int, bytes] = board.memory.setdefault("rule assignments", {})
    size = board.tables.size
    longest = max(len(item.cells) for item in items.items)
    stack = np.zeros((longest + 1, len(bits)), dtype=np.uint64)
    branch = np.full(longest + 1, -1, dtype=np.int32)
    left = np.zeros(longest + 1, dtype=np.uint64)
    support = np.zeros(longest, dtype=np.uint64)
    for it, item in enumerate(items.items):
        cells = np.array(item.cells, dtype=np.int32)
        state = bits[cells].tobytes()
        if tried.get(it) == state:
            continue
        branch[0] = -1
        done = _support(
            it, bits, items.rules, size, items.item_ptr, items.item_constraints, cells,
            board.tables.sees, ASSIGNMENT_NODES, stack, branch, left, support,
        )  # fmt: skip
        after = bits.copy()
        after[cells] = support[: len(cells)]
        removed = _removed(board, item.cells, bits, after) if done > 0 else ()
        if not removed:
            tried[it] = state  # searched to no avail (a step found is taken, and changes it)
            continue
        low, high = ASSIGNMENT_RATINGS
        rating = round(min(low + 0.1 * max(len(item.cells) - 2, 0), high), 1)
        units = item.implied.units if item.implied is not None else ()
        return RuleStep(
            "rule assignments", rating, item.cells, units, (), eliminations=removed,
            rule=item.rule, implied=item.implied,
            constraints=tuple(items.constraints[k] for k in item.constraints),
        )  # fmt: skip
    return None
