"""Searches of one rule item's cells (the rule's constraints, and different digits where
cells see each other) for values no assignment of them within their candidates supports:
of a cage (cage combinations, exact: the combinations and how they fit its cells), and of
any other rule as the fallback of the rule techniques (rule assignments, rated by the
item's cells).

The search narrows the item at every node with the exact solver's kernels, which are exact
on fixed cells, so every leaf it reaches is an assignment that keeps the rule.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from ndoku.jit import kernel
from ndoku.model.constraints import Constraint
from ndoku.solvers.logic.board import Board, BoolArray, IntArray
from ndoku.solvers.logic.rules import (
    CAGES,
    MOST_ROUNDS,
    Item,
    RuleItems,
    RuleStep,
    allowed_combinations,
    board_bits,
    narrow_item,
    narrowing,
    removed_between,
)
from ndoku.solvers.logic.techniques import Step
from ndoku.solvers.tables import Rules

#: The fallback: its rating for a rule of two cells, a tenth more per cell, at most the last.
ASSIGNMENT_RATINGS = (4.0, 6.0)
#: Nodes the fallback's search of one rule item may visit; past them it says nothing there.
ASSIGNMENT_NODES = 50_000
#: A cage step lists how its combinations fit its cells for cages of up to this many cells,
#: with up to this many assignments.
SAID_CELLS = 3
SAID_ASSIGNMENTS = 4
#: Cages of up to this many cells are searched by :func:`cage_combinations` (larger ones,
#: slower to search, by the fallback).
SEARCHED_CELLS = 5


@kernel()
def _settle(
    it: int,
    local: NDArray[np.uint64],
    rules: Rules,
    size: int,
    item_ptr: IntArray,
    item_constraints: NDArray[np.int64],
    cells: IntArray,
    sees: BoolArray,
) -> bool:
    """Narrow item ``it`` in ``local`` (its constraints, and a fixed cell's value out of the
    item's cells that see it) until nothing changes; False on a contradiction."""
    for _ in range(MOST_ROUNDS * len(cells)):
        if not narrow_item(it, local, rules, size, item_ptr, item_constraints):
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
    item_constraints: NDArray[np.int64],
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


def _first_removal(
    board: Board, key: str, wanted: Callable[[Item], bool]
) -> tuple[int, tuple[tuple[int, int], ...]]:
    """The first rule item ``wanted`` keeps whose search removes a candidate, and what it
    removes; (-1, ()) for none. An item searched to no avail is not searched again until a
    cell of it changes (the board's memory under ``key`` keeps the candidates of the last
    call and the items searched since: a step found is taken, and changes its item)."""
    items = RuleItems.of(board)
    bits = board_bits(board)
    before, idle = board.memory.get(key, (None, None))
    if before is None or idle is None:
        idle = np.zeros(len(items.items), dtype=bool)
    else:
        idle &= ~items.member[:, np.flatnonzero(bits != before)].any(axis=1)
    board.memory[key] = (bits.copy(), idle)
    size = board.tables.size
    longest = max(len(item.cells) for item in items.items)
    stack = np.zeros((longest + 1, len(bits)), dtype=np.uint64)
    branch = np.full(longest + 1, -1, dtype=np.int32)
    left = np.zeros(longest + 1, dtype=np.uint64)
    support = np.zeros(longest, dtype=np.uint64)
    for it in np.flatnonzero(~idle).tolist():
        item = items.items[it]
        if not wanted(item):
            continue
        cells = np.array(item.cells, dtype=np.int32)
        branch[0] = -1
        done = _support(
            it, bits, items.rules, size, items.item_ptr, items.item_constraints, cells,
            board.tables.sees, ASSIGNMENT_NODES, stack, branch, left, support,
        )  # fmt: skip
        after = bits.copy()
        after[cells] = support[: len(cells)]
        removed = removed_between(board, item.cells, bits, after) if done > 0 else ()
        if removed:
            return it, removed
        idle[it] = True
    return -1, ()


def _searched_cage(item: Item) -> bool:
    """Whether :func:`cage_combinations` searches the item: a cage of a few cells."""
    return item.family == CAGES and len(item.cells) <= SEARCHED_CELLS


def cage_combinations(board: Board) -> Step | None:
    """A cage's candidates that no assignment of different digits with its sum supports:
    first those outside every combination its candidates allow (the exact solver's
    narrowing), then, for a cage of up to :data:`SEARCHED_CELLS` cells, those its search
    finds (how the combinations fit its cells, which the step lists for a small cage).

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="0 0 0 0\\n" * 2 + "0 2 0 0\\n0 4 0 0\\n\\ncage 5: r1c1 r1c2\\n")
    >>> step = cage_combinations(Board.start(p))
    >>> step.eliminations, step.assignments
    (((0, 1), (0, 3)), ((2, 3), (4, 1)))
    """
    if not board.puzzle.lowered.constraints:
        return None
    found = _narrowed_cage(board)
    if found is not None:
        return found
    items = RuleItems.of(board)
    bits = board_bits(board)
    it, removed = _first_removal(board, "cage combinations", _searched_cage)
    if it < 0:
        return None
    item = items.items[it]
    constraints = tuple(items.constraints[k] for k in item.constraints)
    combos: tuple[int, ...] = ()
    placed: tuple[tuple[int, ...], ...] = ()
    if constraints[0].kind == "cage":
        combos = tuple(allowed_combinations(constraints[0], bits, board.tables.size))
        placed = _placements(board, constraints[0], bits)
    return RuleStep(
        item.technique, item.rating, item.cells, (), (), eliminations=removed, rule=item.rule,
        combinations=combos, constraints=constraints, assignments=placed,
    )  # fmt: skip


_narrowed_cage = narrowing(CAGES)


def _placements(
    board: Board, cage: Constraint, bits: NDArray[np.uint64]
) -> tuple[tuple[int, ...], ...]:
    """The assignments of a cage of up to :data:`SAID_CELLS` cells within its candidates
    (different digits with its sum), when at most :data:`SAID_ASSIGNMENTS`: what its
    sentence lists (none else)."""
    if len(cage.cells) > SAID_CELLS:
        return ()
    choices = [
        [v + 1 for v in range(board.tables.size) if int(bits[c]) >> v & 1] for c in cage.cells
    ]
    found = tuple(
        values
        for values in itertools.product(*choices)
        if len(set(values)) == len(values) and sum(values) == cage.number
    )
    return found if len(found) <= SAID_ASSIGNMENTS else ()


def rule_assignments(board: Board) -> Step | None:
    """A candidate of a rule's cells that no assignment of them supports (the fallback; its
    rating rises with the rule's cells); small cages are searched by
    :func:`cage_combinations`."""
    if not board.puzzle.lowered.constraints:
        return None
    it, removed = _first_removal(board, "rule assignments", lambda item: not _searched_cage(item))
    if it < 0:
        return None
    items = RuleItems.of(board)
    item = items.items[it]
    low, high = ASSIGNMENT_RATINGS
    rating = round(min(low + 0.1 * max(len(item.cells) - 2, 0), high), 1)
    units = item.implied.units if item.implied is not None else ()
    return RuleStep(
        "rule assignments", rating, item.cells, units, (), eliminations=removed,
        rule=item.rule, implied=item.implied,
        constraints=tuple(items.constraints[k] for k in item.constraints),
    )  # fmt: skip
