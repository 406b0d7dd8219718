"""The exact search's rule arrays (:func:`ndoku.solvers.tables.search_tables`, arranged by
:mod:`ndoku.solvers.arrange`) against the same steps taken slowly, one constraint at a time."""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import pytest

from benchmarks.bench_variants import variant_set
from ndoku.model.constraints import Constraint
from ndoku.model.frame import Frame
from ndoku.model.layout import load_layout
from ndoku.solvers.arrange import _combinations, most_written
from ndoku.solvers.implied import SEARCH_FROM, implied_sums
from ndoku.solvers.narrowing import CAGE, MATCHED
from ndoku.solvers.tables import combinations, rule_tables, search_tables

KILLERS = ("killer_4x4", "killer_6x6", "killer_9x9")


def _one_unit(cells: Sequence[int], frame: Frame) -> bool:
    """Whether one unit holds every cell (by the units' cell sets)."""
    return any(set(cells) <= set(frame.units[u].tolist()) for u in range(len(frame.units)))


def _arranged_slowly(constraints: Sequence[Constraint], frame: Frame) -> list[Constraint]:
    """The reference: sums of one unit's cells with weights 1 as cages, ``distinct`` groups
    of one unit's cells left out, then the implied sums (none where cages overlap, none on
    grids of fewer than SEARCH_FROM values)."""
    out = []
    for c in constraints:
        if len(c.cells) > 1 and _one_unit(c.cells, frame):
            if c.kind == "distinct":
                continue
            if c.kind == "sum" and set(c.weights) == {1}:
                c = Constraint("cage", c.cells, c.number)
        out.append(c)
    return [*out, *(implied_sums(out, frame) if frame.size >= SEARCH_FROM else [])]


@pytest.mark.parametrize("size", [4, 5, 6, 9, 16, 25])
def test_combinations_are_written_as_the_python_enumeration_gives_them(size: int) -> None:
    stack = np.zeros(size + 1, dtype=np.int64)
    out = np.zeros(2 * most_written(size), dtype=np.uint64)
    over = 0  # (count, total) that have combinations, more than MOST_COMBINATIONS
    for count in range(1, size + 1):
        for total in range(0, size * (size + 1) // 2 + 2):
            if size == 16 and 3 < count < 14 and total % 7:
                continue  # a sample of the slow ones
            want = combinations(count, total, size)
            end = _combinations(count, total, size, out, 5, stack)
            assert out[5:end].tolist() == list(want), (count, total)
            assert end - 5 <= most_written(size)
            least, most = count * (count + 1) // 2, count * (2 * size - count + 1) // 2
            over += not want and least <= total <= most
    assert (over > 0) == (size == 25)  # none written then, as none are returned


@pytest.mark.parametrize("name", [*KILLERS, "consecutive_9x9", "skyscraper", "evenodd"])
def test_search_tables_are_the_reference_arranged(name: str) -> None:
    for entry in variant_set(name)[0][:40]:
        puzzle = entry.puzzle
        constraints = puzzle.lowered.constraints
        slow = rule_tables(_arranged_slowly(constraints, puzzle.frame), puzzle.size, True)
        fast = search_tables(constraints, puzzle.size, puzzle.frame)
        for a, b in zip(slow, fast, strict=True):
            assert a.dtype == b.dtype and a.shape == b.shape and b.flags.c_contiguous
            assert (a == b).all()


def test_random_sums_and_groups_are_arranged_as_the_reference_does() -> None:
    frame = Frame.of(load_layout("samurai"))
    rng = random.Random(3)
    rc = frame.cell_rc.tolist()
    near = {i: [j for j, q in enumerate(rc) if abs(q[0] - p[0]) + abs(q[1] - p[1]) <= 2]
            for i, p in enumerate(rc)}  # fmt: skip
    seen = {"cage": 0, "dropped": 0, "sum": 0}  # (implied sums: the killer sets)
    for _ in range(40):
        constraints = []
        for _ in range(rng.randint(1, 12)):
            start = rng.randrange(frame.n_cells)
            cells = (start, *rng.sample([c for c in near[start] if c != start], rng.randint(0, 3)))
            kind = rng.choice(["sum", "sum", "distinct", "cage", "less"])
            if kind == "less":
                constraints.append(Constraint("less", (start, near[start][0])))
            elif kind == "sum":
                weights = tuple(rng.choice([1, 1, 1, 2]) for _ in cells)
                constraints.append(Constraint("sum", cells, rng.randint(1, 30), weights))
            else:
                constraints.append(Constraint(kind, cells, rng.randint(1, 30)))
        slow_constraints = _arranged_slowly(constraints, frame)
        slow = rule_tables(slow_constraints, 9, True)
        fast = search_tables(constraints, 9, frame)
        for a, b in zip(slow, fast, strict=True):
            assert a.dtype == b.dtype and (a == b).all()
        for c in constraints:  # how often each case was met
            unit = len(c.cells) > 1 and _one_unit(c.cells, frame)
            seen["dropped"] += c.kind == "distinct" and unit
            seen["cage"] += c.kind == "sum" and unit and set(c.weights) == {1}
        seen["sum"] += sum(c.kind == "sum" for c in slow_constraints)
    assert all(seen.values()), seen


def test_overlapping_cages_imply_by_layers_what_their_solutions_keep() -> None:
    # outside sums searched as cages overlap in the corner boxes: each layer of disjoint
    # cages implies sums in the rule tables, and every one holds in the published solution
    held = 0
    for entry in variant_set("margin")[0]:
        puzzle = entry.puzzle
        constraints = _arranged_slowly(puzzle.lowered.constraints, puzzle.frame)
        n = len(constraints)  # none implied without layers: the cages overlap
        assert n == len(puzzle.lowered.constraints)
        kinds, ptr, cells, numbers = search_tables(
            puzzle.lowered.constraints, puzzle.size, puzzle.frame
        )[:4]
        written = {c.cells for c in constraints if c.kind == "cage"}
        assert written and written == {
            tuple(cells[ptr[k] : ptr[k + 1]].tolist()) for k in range(n) if kinds[k] == MATCHED
        }
        for k in range(n, len(kinds)):
            found = tuple(cells[ptr[k] : ptr[k + 1]].tolist())
            values = [entry.solution[c] for c in found]
            assert sum(values) == numbers[k] and found not in written
            assert kinds[k] != MATCHED or len(set(values)) == len(values)
            assert kinds[k] != CAGE  # every cage is matched
            written.add(found)  # none twice
        held += len(kinds) - n
    assert held > 50 * 10  # about 18 a puzzle
