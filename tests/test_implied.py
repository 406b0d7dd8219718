"""Implied sums (innies and outies of cages, :mod:`ndoku.solvers.implied`): the kernel's
against a slow reference written with sets, on janko's killer sets, random cages on every
layout and cases where nothing is implied; and the rule tables that carry them into the
search."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from benchmarks.bench_variants import variant_set
from ndoku.model.constraints import Constraint
from ndoku.model.frame import Frame
from ndoku.model.layout import available_layouts, load_layout
from ndoku.solvers.implied import MOST_CELLS, Implied, SumGroups, implied_sources, implied_sums

KILLERS = ("killer_4x4", "killer_6x6", "killer_9x9")


def reference(constraints: Sequence[Constraint], frame: Frame) -> list[Implied]:
    """Innies, then outies, group by group, as the module's docstring says, with sets."""
    cages = [(k, c) for k, c in enumerate(constraints) if c.kind == "cage"]
    held = [x for _, c in cages for x in c.cells]
    if len(set(held)) < len(held):
        return []
    groups = frame.table("implied-sum groups", SumGroups.of)
    unit_sum = frame.size * (frame.size + 1) // 2
    found: list[Implied] = []
    known = {c.cells for _, c in cages}
    for innies in (True, False):
        for g, units in enumerate(groups.units):
            members = set(groups.cells[groups.ptr[g] : groups.ptr[g + 1]].tolist())
            if innies:
                used = [(k, c) for k, c in cages if set(c.cells) <= members]
                cells = members - {x for _, c in used for x in c.cells}
                number = len(units) * unit_sum - sum(c.number for _, c in used)
                if not used:
                    continue
            else:
                used = [(k, c) for k, c in cages if set(c.cells) & members]
                cells = {x for _, c in used for x in c.cells} - members
                number = sum(c.number for _, c in used) - len(units) * unit_sum
                if not members <= set(held):
                    continue
            key = tuple(sorted(cells))
            if not 0 < len(key) <= MOST_CELLS or key in known:
                continue
            known.add(key)
            if innies and len(units) == 1:
                sum_ = Constraint("cage", key, number)
            else:
                sum_ = Constraint("sum", key, number, (1,) * len(key))
            found.append(Implied(sum_, units, tuple(k for k, _ in used), innies))
    return found


@pytest.mark.parametrize("name", KILLERS)
def test_killer_sets_imply_what_the_reference_does(name: str) -> None:
    implied = 0
    for entry in variant_set(name)[0]:
        constraints, frame = entry.puzzle.lowered.constraints, entry.puzzle.frame
        expected = reference(constraints, frame)
        assert implied_sources(constraints, frame) == expected
        assert implied_sums(constraints, frame) == [found.constraint for found in expected]
        implied += len(expected)
    assert implied > 0


def random_cages(frame: Frame, rng: np.random.Generator, in_order: bool) -> list[Constraint]:
    """Cages of 1 to 5 cells over part of the grid (cells in order: many lie in a row), some
    cells listed out of order, with pair constraints between."""
    order = list(range(frame.n_cells)) if in_order else rng.permutation(frame.n_cells).tolist()
    found, start, end = [], 0, int(rng.uniform(0.5, 1.0) * frame.n_cells)
    while start < end:
        size = int(rng.integers(1, 6))
        cells = order[start : start + size]
        cells = cells if rng.random() < 0.5 else sorted(cells)
        found.append(Constraint("cage", tuple(cells), int(rng.integers(1, 40))))
        if rng.random() < 0.2:
            found.append(Constraint("less", (0, 1)))
        start += size
    return found


def test_random_cages_on_every_layout_imply_what_the_reference_does() -> None:
    rng = np.random.default_rng(35)
    implied = 0
    for name in available_layouts():
        frame = Frame.of(load_layout(name))
        if frame.n_cells > 400:
            continue
        for trial in range(12):
            constraints = random_cages(frame, rng, in_order=trial % 2 == 0)
            expected = reference(constraints, frame)
            assert implied_sources(constraints, frame) == expected
            implied += len(expected)
    assert implied > 100


def test_nothing_is_implied_without_cages_or_by_overlapping_ones() -> None:
    frame = Frame.of(load_layout("4x4"))
    row = [Constraint("cage", (0, 1), 3), Constraint("cage", (2, 3, 7), 8)]
    assert implied_sums(row, frame)  # a row covered but two cells: it fires
    assert implied_sums([*row, Constraint("cage", (7, 11), 5)], frame) == []  # r2c4 twice
    assert implied_sums([Constraint("less", (0, 1)), Constraint("distinct", (0, 5))], frame) == []
    assert implied_sums([], frame) == []
    # a cage that is already what a row leaves adds nothing
    cages = [Constraint("cage", (0, 1, 2), 6), Constraint("cage", (3,), 4)]
    assert (3,) not in [c.cells for c in implied_sums(cages, frame)]
    assert (3,) in [c.cells for c in implied_sums(cages[:1], frame)]
