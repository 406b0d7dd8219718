"""Cage techniques that look beyond the cage: a digit every combination of a cage holds
leaves the cells that see all its places in the cage (locked cage digit), and a digit a unit
can only place in a cage keeps the cage to the combinations that hold it (cage digit from a
unit).

Both read a cage's combinations (:func:`~ndoku.solvers.tables.combinations`) as
:func:`~.rules.allowed_combinations` does: those each cell meets and the cells together
cover; a cage with too many combinations to list is left out.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ndoku.jit import kernel
from ndoku.solvers.bits import lowest
from ndoku.solvers.combos import keep_covering
from ndoku.solvers.logic.board import Board, BoolArray, IntArray
from ndoku.solvers.logic.rules import (
    LOCKED_RATING,
    RuleItems,
    RuleStep,
    allowed_combinations,
    board_bits,
    removed_between,
)
from ndoku.solvers.logic.techniques import Step
from ndoku.solvers.tables import Rules


@kernel()
def _cage_masks(bits: NDArray[np.uint64], rules: Rules, k: int) -> None:
    """Cage ``k``'s cells' candidates into the rules' ``out`` at its places (what
    :func:`~ndoku.solvers.combos.keep_covering` reads)."""
    ptr, cells, out = rules[1], rules[2], rules[9]
    for i in range(ptr[k], ptr[k + 1]):
        out[i] = bits[cells[i]]


@kernel()
def _locked_in_cage(
    bits: NDArray[np.uint64],
    values: IntArray,
    rules: Rules,
    cages: IntArray,
    sees: BoolArray,
    keep: NDArray[np.uint64],
) -> tuple[int, int]:
    """(constraint, value from 0) of the first cage whose every combination its candidates
    allow holds the value, while a free cell outside it sees every place of the value in the
    cage and has it; (-1, -1) for none (``keep``: room for a cage's masks)."""
    ptr, cells, combo_ptr, combos, out = rules[1], rules[2], rules[6], rules[7], rules[9]
    for k in cages:
        start, end = ptr[k], ptr[k + 1]
        _cage_masks(bits, rules, k)
        need = ~np.uint64(0)
        allowed = False
        for t in range(combo_ptr[k], combo_ptr[k + 1]):
            if keep_covering(out, start, end, combos[t], keep):
                need &= combos[t]
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
    keep = np.zeros(board.tables.size, dtype=np.uint64)
    k, v = _locked_in_cage(bits, board.values, items.rules, items.cages, sees, keep)
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
def _unit_digit_in_cage(
    bits: NDArray[np.uint64],
    values: IntArray,
    rules: Rules,
    cages: IntArray,
    units: IntArray,
    keep: NDArray[np.uint64],
) -> tuple[int, int, int]:
    """(constraint, unit, value from 0) of the first cage that holds every place of a value
    its unit lacks, whose allowed combinations with the value remove a candidate of its
    cells (what each keeps in ``keep``, by place in the cage); (-1, -1, -1) for none."""
    ptr, cells, combo_ptr, combos, out = rules[1], rules[2], rules[6], rules[7], rules[9]
    for u in range(units.shape[0]):
        for v in range(units.shape[1]):
            bit = np.uint64(1) << np.uint64(v)
            placed = False
            for c in units[u]:
                placed |= values[c] == v + 1
            if placed:
                continue
            for k in cages:
                start, end = ptr[k], ptr[k + 1]
                if combo_ptr[k] == combo_ptr[k + 1]:
                    continue
                inside = True
                places = 0
                for c in units[u]:
                    if bits[c] & bit and not values[c]:
                        here = False
                        for i in range(start, end):
                            here |= cells[i] == c
                        inside &= here
                        places += 1
                if not inside or places == 0:
                    continue
                _cage_masks(bits, rules, k)
                for i in range(start, end):
                    keep[i - start] = np.uint64(0)
                for t in range(combo_ptr[k], combo_ptr[k + 1]):
                    if combos[t] & bit:
                        keep_covering(out, start, end, combos[t], keep)
                for i in range(start, end):
                    c = cells[i]
                    if not values[c] and bits[c] & ~keep[i - start] != np.uint64(0):
                        return k, u, v
    return -1, -1, -1


def cage_digit_from_unit(board: Board) -> Step | None:
    """A digit a unit can only place in a cage: the cage holds it, so only its combinations
    that hold the digit remain."""
    if not board.puzzle.lowered.constraints:
        return None
    items = RuleItems.of(board)
    if not len(items.cages):
        return None
    bits = board_bits(board)
    keep = np.zeros(board.tables.size, dtype=np.uint64)
    k, u, v = _unit_digit_in_cage(
        bits, board.values, items.rules, items.cages, board.tables.units, keep
    )
    if k < 0:
        return None
    cage = items.constraints[k]
    after = bits.copy()
    after[list(cage.cells)] = keep[: len(cage.cells)]
    removed = removed_between(board, cage.cells, bits, after)
    unit = board.tables.units[u]
    places = tuple(int(c) for c in unit if board.cand[c, v])
    digit = 1 << v
    combos = tuple(m for m in allowed_combinations(cage, bits, board.tables.size) if m & digit)
    return RuleStep(
        "cage digit from a unit", LOCKED_RATING, places, (u,), (v + 1,),
        eliminations=removed, rule=cage.rule, combinations=combos, constraints=(cage,),
    )  # fmt: skip
