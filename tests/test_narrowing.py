"""The narrowing kernels of variant rules against the slow reference: every assignment of the
cells' candidates, checked with :func:`ndoku.model.constraints.holds`.

A kernel must keep every value some assignment supports (it is sound), keep exactly those
where its docstring promises it (pairs, small sums, cages, skyscrapers within their node caps),
and on fixed cells keep them exactly when the constraint holds.
"""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from ndoku.model.constraints import PAIRS, Constraint, holds
from ndoku.solvers.combos import keep_matching
from ndoku.solvers.narrowing import SUM_ASSIGNMENTS, narrow
from ndoku.solvers.tables import rule_tables, rule_work

SIZE = 6


def _narrowed(
    constraint: Constraint, masks: list[int], size: int = SIZE, matched: bool = False
) -> list[int] | None:
    """What the kernel leaves of ``masks`` (the constraint's cells are 0..k-1), None when it
    finds a contradiction; ``matched``: a cage as the exact search narrows it."""
    rules = rule_work(rule_tables([constraint], size, matched=matched), size)
    cand = np.array(masks, dtype=np.uint64)
    if narrow(0, cand, rules, size) < 0:
        return None
    return [int(m) for m in rules[9]]


def _supported(constraint: Constraint, masks: list[int], size: int = SIZE) -> list[int]:
    """Each cell's values that some assignment within ``masks`` satisfying the constraint
    takes (all 0 when none does); a sandwich's or skyscraper's line is a row, its values
    different."""
    choices = [[v for v in range(1, size + 1) if m >> (v - 1) & 1] for m in masks]
    support = [0] * len(masks)
    row = constraint.kind in ("sandwich", "skyscraper")
    for values in itertools.product(*choices):
        if row and len(set(values)) < len(values):
            continue
        if holds(constraint, values, size):
            for i, v in enumerate(values):
                support[i] |= 1 << (v - 1)
    return support


def _random_masks(rng: random.Random, k: int, size: int = SIZE) -> list[int]:
    full = (1 << size) - 1
    return [rng.randint(1, full) if rng.random() < 0.8 else 1 << rng.randrange(size)
            for _ in range(k)]  # fmt: skip


def _constraints(rng: random.Random) -> list[tuple[Constraint, bool]]:
    """Random constraints of every kind, each with whether its kernel is exact (keeps just
    the supported values) on small cases."""
    made: list[tuple[Constraint, bool]] = []
    numbers = {"difference": 1, "not-difference": 1, "ratio": 2, "not-ratio": 2, "pair-sum": 7}
    numbers |= {"not-pair-sum": 5, "gap": 3}
    for kind in PAIRS:
        made.append((Constraint(kind, (0, 1), numbers.get(kind, rng.randint(1, 4))), True))
    made.append((Constraint("allowed", (0,), 0b101010), True))
    k = rng.randint(2, 4)
    made.append((Constraint("sum", tuple(range(k)), rng.randint(k, 4 * k), (1,) * k), True))
    made.append((Constraint("sum", (0, 1, 2), 0, (-10, -1, 1)), True))  # a pill of two
    k = rng.randint(2, 4)
    made.append((Constraint("cage", tuple(range(k)), rng.randint(k * (k + 1) // 2, 18)), False))
    made.append((Constraint("distinct", tuple(range(rng.randint(2, 4)))), False))
    made.append((Constraint("renban", tuple(range(rng.randint(2, 4)))), False))
    made.append((Constraint("sandwich", tuple(range(SIZE)), rng.randint(0, 9)), False))
    made.append((Constraint("skyscraper", tuple(range(SIZE)), rng.randint(1, SIZE)), True))
    return made


@pytest.mark.parametrize("seed", range(60))
def test_every_kernel_keeps_what_some_assignment_supports(seed: int) -> None:
    rng = random.Random(seed)
    for constraint, exact in _constraints(rng):
        masks = _random_masks(rng, len(constraint.cells))
        if constraint.kind in ("sandwich", "skyscraper"):  # a row: different values
            masks = _row_masks(rng)
        support = _supported(constraint, masks)
        left = _narrowed(constraint, masks)
        if left is None:
            assert not any(support), (constraint, masks)
            continue
        for cell, (kept, needed, had) in enumerate(zip(left, support, masks, strict=True)):
            assert kept & ~had == 0, (constraint, masks, cell)  # never adds a value
            assert needed & ~kept == 0, (constraint, masks, cell, left, support)
        if exact and any(support) and _enumerated(constraint, masks):
            assert left == support, (constraint, masks, left, support)


def _enumerated(constraint: Constraint, masks: list[int]) -> bool:
    """Whether the kernel is exact on these candidates: a sum only when it enumerates them."""
    if constraint.kind != "sum":
        return True
    return math.prod(bin(m).count("1") for m in masks) <= SUM_ASSIGNMENTS


def _row_masks(rng: random.Random) -> list[int]:
    """Candidates of a row holding a permutation: a random one, each cell with some more."""
    perm = rng.sample(range(1, SIZE + 1), SIZE)
    return [1 << (v - 1) | (rng.getrandbits(SIZE) if rng.random() < 0.5 else 0) for v in perm]


@pytest.mark.parametrize("seed", range(40))
def test_on_fixed_cells_every_kernel_is_the_check(seed: int) -> None:
    """Where every cell holds one value, the kernel keeps them exactly when the constraint
    holds: a search that narrows with it accepts no broken rule."""
    rng = random.Random(1000 + seed)
    for constraint, _ in _constraints(rng):
        k = len(constraint.cells)
        if constraint.kind in ("sandwich", "skyscraper"):
            values = rng.sample(range(1, SIZE + 1), SIZE)
        else:
            values = [rng.randint(1, SIZE) for _ in range(k)]
        masks = [1 << (v - 1) for v in values]
        left = _narrowed(constraint, masks)
        assert (left == masks) == holds(constraint, values, SIZE), (constraint, values, left)
        assert left is None or left == masks


def test_a_cage_too_large_to_search_falls_back_on_its_bounds() -> None:
    """Sixteen free cells of a 16×16 summing to 136: the search would not end; the bounds keep
    every value, and remove none wrongly."""
    cage = Constraint("cage", tuple(range(16)), 136)
    left = _narrowed(cage, [(1 << 16) - 1] * 16, size=16)
    assert left == [(1 << 16) - 1] * 16


def test_a_cage_keeps_only_its_combinations_values() -> None:
    """Three cells of 1..9 summing to 23: 6+8+9 alone, whatever the candidates."""
    full = (1 << 9) - 1
    left = _narrowed(Constraint("cage", (0, 1, 2), 23), [full] * 3, 9)
    assert left == [0b110100000] * 3
    # must not fire: 15 in three cells allows every digit somewhere
    assert _narrowed(Constraint("cage", (0, 1, 2), 15), [full] * 3, 9) == [full] * 3


def test_the_kernels_remove_what_a_person_would() -> None:
    """Cases that must fire, and one each that must not."""
    nine = 9
    full = (1 << nine) - 1
    cage = Constraint("cage", (0, 1), 17)  # 8 + 9
    assert _narrowed(cage, [full, full], nine) == [0b110000000, 0b110000000]
    thermo = Constraint("less", (0, 1))
    assert _narrowed(thermo, [full, full], nine) == [full >> 1, full & ~1]
    assert _narrowed(thermo, [0b10, full], nine) == [0b10, full & ~0b11]
    assert _narrowed(thermo, [0b1000, 0b100], nine) is None
    white = Constraint("difference", (0, 1), 1)
    assert _narrowed(white, [1 << 4, full], nine) == [1 << 4, 0b101000]
    arrow = Constraint("sum", (0, 1, 2), 0, (-1, 1, 1))  # circle = a + b
    assert _narrowed(arrow, [0b11, full, full], nine) == [0b10, 0b1, 0b1]
    renban = Constraint("renban", (0, 1, 2))
    assert _narrowed(renban, [1, full, full], nine) == [1, 0b110, 0b110]
    # must not fire: every value of a free row has its place in some sandwich of 0
    sandwich = Constraint("sandwich", tuple(range(nine)), 0)
    assert _narrowed(sandwich, [full] * nine, nine) == [full] * nine


def test_a_sum_of_one_units_cells_narrows_as_a_cage_and_no_other() -> None:
    from ndoku.model.frame import Frame
    from ndoku.model.layout import load_layout
    from ndoku.solvers.narrowing import MATCHED
    from ndoku.solvers.tables import search_tables

    frame = Frame.of(load_layout("9x9"))
    rng = random.Random(5)

    def one_unit(cells: tuple[int, ...]) -> bool:  # the reference: a row, column or box
        rows, cols = {c // 9 for c in cells}, {c % 9 for c in cells}
        return len(rows) == 1 or len(cols) == 1 or len({(r // 3, c // 3) for r in rows
                                                        for c in cols}) == 1  # fmt: skip

    sums = []
    for _ in range(300):
        start = rng.randrange(81)
        near = [c for c in range(81) if abs(c // 9 - start // 9) + abs(c % 9 - start % 9) <= 2]
        cells = (start, *rng.sample([c for c in near if c != start], rng.randint(1, 3)))
        weights = (1,) * len(cells) if rng.random() < 0.8 else (-1, *(1,) * (len(cells) - 1))
        sums.append(Constraint("sum", cells, 12, weights))
    kinds, ptr, cells, numbers = search_tables(sums, 9, frame)[:4]
    for k, before in enumerate(sums):  # the implied sums come after them
        cage = one_unit(before.cells) and set(before.weights) == {1}
        assert (kinds[k] == MATCHED) == cage, before
        assert tuple(cells[ptr[k] : ptr[k + 1]].tolist()) == before.cells
        assert numbers[k] == before.number
    assert 30 < (kinds[:300] == MATCHED).sum() < 270  # both cases were met


@pytest.mark.parametrize("seed", range(20))
def test_a_matched_cage_keeps_what_is_supported_exactly_up_to_three_cells(seed: int) -> None:
    # the exact search's cages (rule_tables(..., matched=True)) against the enumeration and
    # against the combinations read as a person reads them (CAGE): never less sound, never
    # weaker, and exact on one to three cells
    rng = random.Random(seed)
    stronger = 0
    for _ in range(200):
        k = rng.randint(2, 5)
        cage = Constraint("cage", tuple(range(k)), rng.randint(k * (k + 1) // 2, 30))
        masks = _random_masks(rng, k)
        matched = _narrowed(cage, masks, matched=True)
        support = _supported(cage, masks)
        read = _narrowed(cage, masks)
        if not any(support):
            assert matched is None or k > 3
            continue
        assert matched is not None and read is not None
        assert all(m & s == s for m, s in zip(matched, support, strict=True))  # sound
        assert all(m & ~r == 0 for m, r in zip(matched, read, strict=True))  # never weaker
        assert k > 3 or matched == support
        stronger += matched != read
    assert stronger > 0  # the matching removed what the combinations alone keep


@pytest.mark.parametrize("seed", range(10))
def test_matching_a_combination_keeps_what_some_one_to_one_assignment_takes(seed: int) -> None:
    """:func:`keep_matching` for one combination against every way to give its values out
    one per cell: exact on two and three cells (tried order by order), sound beyond (by
    singles), and False exactly when no way is left on up to three cells."""
    rng = random.Random(seed)
    for _ in range(300):
        k = rng.randint(1, 5)
        values = sum(1 << (v - 1) for v in rng.sample(range(1, SIZE + 1), k))
        masks = _random_masks(rng, k)
        out = np.array(masks, dtype=np.uint64)
        keep = np.zeros(k, dtype=np.uint64)
        found = keep_matching(out, 0, k, np.uint64(values), keep, np.zeros(k, dtype=np.uint64))
        support = [0] * k
        bits = [1 << (v - 1) for v in range(1, SIZE + 1) if values >> (v - 1) & 1]
        for order in itertools.permutations(bits):
            if all(m & b for m, b in zip(masks, order, strict=True)):
                support = [s | b for s, b in zip(support, order, strict=True)]
        kept = [int(m) for m in keep] if found else [0] * k
        assert all(n & ~m == 0 for n, m in zip(support, kept, strict=True)), (masks, values)
        if k <= 3:
            assert kept == support, (masks, values, kept, support)


@pytest.mark.parametrize("seed", range(20))
def test_each_pair_reads_the_table_of_its_relation(seed: int) -> None:
    """``kernel_codes`` gives each pair the index of a table that is its relation's, also for
    numbers far beyond the values (keyed as the largest that still matters: one table for
    all of them), one table per kind and number; the other kinds keep their numbers."""
    from ndoku.model.constraints import Packed
    from ndoku.solvers.narrowing import PAIR
    from ndoku.solvers.tables import kernel_codes, pair_table

    rng = random.Random(seed)
    size = rng.choice([4, 6, 9, 16])
    numbers = [0, 1, 2, 3, size - 1, size, size + 1, 2 * size, 2 * size + 1, 2 * size + 5, 5000]
    constraints = [
        Constraint(rng.choice(PAIRS), (0, 1), rng.choice(numbers))
        if rng.random() < 0.7
        else Constraint("cage", (0, 1), rng.choice(numbers))
        for _ in range(rng.randint(1, 40))
    ]
    packed = Packed.of(constraints)
    codes, renumbered, tables = kernel_codes(packed.kinds, packed.numbers, size)
    keys = {(c.kind, min(c.number, 2 * size + 1)) for c in constraints if c.kind != "cage"}
    assert len(tables) == len(keys)
    for c, code, number in zip(constraints, codes.tolist(), renumbered.tolist(), strict=True):
        if c.kind == "cage":
            assert code != PAIR and number == c.number
        else:
            assert code == PAIR
            assert np.array_equal(tables[number], pair_table(c.kind, c.number, size))
