"""Variant rules in the chains' energy: how broken each constraint is, the tables a kernel reads
(:func:`chain_rules`), a state's rule energy (:func:`rule_energy`) and the ΔE of a move
(:func:`change`).

A chain sees every rule: each constraint of the puzzle's rules
(:attr:`~ndoku.model.puzzle.Puzzle.lowered`) adds its *broken count* to the energy, and the
peers a rule adds (anti-knight, anti-king) that the move set's energy does not count already
become ``differ`` constraints. The count is 0 exactly when the constraint holds
(:func:`~ndoku.model.constraints.holds`), so the energy is still 0 exactly when the puzzle is
solved.

Glossary
--------
broken count
    By kind of :data:`~ndoku.model.constraints.PRIMITIVES`, with ``d = |Σ − n|`` the distance of
    a sum from its number and ``repeats`` the cells less the distinct values:

    - a pair (dots, XV, thermometer steps, whispers, palindromes, extra peers) and
      ``allowed`` (even, odd): 1 when broken;
    - ``sum`` (little killer, outside sum, arrow): ``⌈d / SUM_STEP⌉`` (:data:`SUM_STEP`);
    - ``cage``: repeats + ``⌈d / SUM_STEP⌉``; ``distinct``: repeats;
    - ``renban``: repeats + how far the span of the values exceeds the cells less one;
    - ``sandwich``: 1 when broken; ``skyscraper``: ``|seen − n|``.

    Each counts 1 towards the energy (every kind weighs the same as a unit's missing symbol);
    a graded count tells a chain that a move brings a sum closer, which solves killers in
    fewer proposals than 1 per broken sum (:data:`SUM_STEP`).
touched constraints
    Those holding a cell a move changes: only their counts can change, so the ΔE of a move is
    their counts after it less their counts before (a CSR of cell → constraints lists them).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ndoku.jit import kernel
from ndoku.model.constraints import Constraint
from ndoku.model.puzzle import Puzzle
from ndoku.model.units import Units, csr
from ndoku.solvers.bits import popcount
from ndoku.solvers.narrowing import (
    ALLOWED,
    CAGE,
    DISTINCT,
    PAIR,
    RENBAN,
    SANDWICH,
    SKYSCRAPER,
    SUM,
)
from ndoku.solvers.tables import rule_tables

IntArray = NDArray[np.int32]
Value = int | np.integer[Any]  # a cell's value, as the kernels hold it
#: What the kernels read of a puzzle's constraints: those of
#: :func:`~ndoku.solvers.tables.rule_tables` (each constraint's kernel code, its cells as CSR,
#: its number or pair table, the cells' weights, the pair tables), then each constraint's sum
#: step and the CSR of cell → constraints (rising).
ChainRules = tuple[
    IntArray,
    IntArray,
    IntArray,
    NDArray[np.int64],
    NDArray[np.int64],
    NDArray[np.uint64],
    NDArray[np.int64],
    IntArray,
    IntArray,
]
#: A sum's broken count grows by 1 every SUM_STEP of distance from its number (1: the distance
#: itself; a large step: 1 per broken sum). Measured with plain box swaps on the 162 janko
#: killer 9×9 (tests/data/variants), 10⁷ proposals each, each step at its best temperature
#: (scanned 0.2-1.0): step 2 at T = 0.55 solved 162 of 162, median 95 000 proposals;
#: the distance at 0.7, 158, median 121 000; 1 per broken sum at 0.45, 157, median 221 000.
#: Step 2 also held up best off its best temperature (122 of 122 at 0.5, 120 at 0.6, where
#: the distance solved 105 and 118, and 1 per broken sum 105 and 13).
SUM_STEP = 2
#: The kinds whose broken count grows with how far they are from holding (a sum's distance, a
#: skyscraper's count, a renban's span), not only with how many cells break them.
DISTANCES = ("sum", "cage", "skyscraper", "renban")
_SUMS = (SUM, CAGE)
_ONE = np.uint64(1)


def chain_rules(puzzle: Puzzle, counted: Units | None = None) -> ChainRules | None:
    """The tables of ``puzzle``'s constraints for a chain, None when it has none.

    Parameters
    ----------
    puzzle : Puzzle
    counted : Units, optional
        The units a swap move set keeps or counts (its groups and energy units): a peer a rule
        adds becomes a ``differ`` constraint unless both cells lie in one of them. None: a
        single-site chain, which counts the puzzle's peers, so only peers missing from them.

    Examples
    --------
    >>> import dataclasses
    >>> from ndoku.model.puzzle import read_puzzles
    >>> from ndoku.model.rules import Rule
    >>> [p] = read_puzzles(text="0 0 0 0\\n0 0 0 0\\n0 0 0 0\\n0 0 0 0\\n")
    >>> p = dataclasses.replace(p, rules=(Rule("cage", (0, 1), 7), Rule("thermo", (1, 2, 3))))
    >>> tables = chain_rules(p)
    >>> tables[1].tolist(), tables[-2].tolist()[:5]  # 3 constraints; cell 1 holds two
    ([0, 2, 4, 6], [0, 1, 3, 5, 6])
    >>> chain_rules(dataclasses.replace(p, rules=())) is None
    True
    """
    lowered = puzzle.lowered
    constraints = list(lowered.constraints) + [
        Constraint("differ", pair) for pair in _uncounted(puzzle, lowered.peers, counted)
    ]
    if not constraints:
        return None
    tables = rule_tables(constraints, puzzle.size)
    kinds = tables[0]
    steps = np.where(np.isin(kinds, _SUMS), SUM_STEP, 1).astype(np.int64)
    of_cells: list[list[int]] = [[] for _ in range(puzzle.n_cells)]
    for k, constraint in enumerate(constraints):
        for cell in constraint.cells:
            of_cells[cell].append(k)
    return (*tables[:6], steps, *csr(of_cells))


def _uncounted(
    puzzle: Puzzle, peers: tuple[tuple[int, int], ...], counted: Units | None
) -> list[tuple[int, int]]:
    """The pairs of ``peers`` no unit of ``counted`` holds (or, None, not among the puzzle's
    peers)."""
    if not peers:
        return []
    if counted is None:
        ptr, others = puzzle.peers
        return [(a, b) for a, b in peers if b not in others[ptr[a] : ptr[a + 1]]]
    ptr, units = counted.of_cells(puzzle.n_cells)
    return [
        (a, b)
        for a, b in peers
        if not set(units[ptr[a] : ptr[a + 1]].tolist()) & set(units[ptr[b] : ptr[b + 1]].tolist())
    ]


def largest_rule_change(rules: ChainRules | None, size: int) -> int:
    """The most the broken counts of the constraints holding one cell can change by: the rule
    part of the largest ΔE of a move (twice this for a swap).

    >>> import dataclasses
    >>> from ndoku.model.puzzle import read_puzzles
    >>> from ndoku.model.rules import Rule
    >>> [p] = read_puzzles(text="0 0 0 0\\n0 0 0 0\\n0 0 0 0\\n0 0 0 0\\n")
    >>> p = dataclasses.replace(p, rules=(Rule("cage", (0, 1), 3), Rule("even", (0,))))
    >>> largest_rule_change(chain_rules(p), 4)  # cell 0: a repeat, ⌈(8 − 3) / 2⌉, odd
    5
    """
    if rules is None:
        return 0
    kinds, ptr, _, numbers, weights, _, steps, cell_ptr, cell_rules = rules
    most = np.zeros(len(kinds), dtype=np.int64)
    for k, code in enumerate(kinds.tolist()):
        w = weights[ptr[k] : ptr[k + 1]]
        count = len(w)
        if code in _SUMS:
            low = int(np.minimum(w, w * size).sum())
            high = int(np.maximum(w, w * size).sum())
            far = max(int(numbers[k]) - low, high - int(numbers[k]), 0)
            most[k] = math.ceil(far / int(steps[k]))
        if code in (CAGE, DISTINCT, RENBAN):
            most[k] += count - 1
        if code == RENBAN:
            most[k] += size - 1
        if code == SKYSCRAPER:
            most[k] = count
        if code in (PAIR, ALLOWED, SANDWICH):
            most[k] = 1
    per_cell = [
        int(most[cell_rules[cell_ptr[c] : cell_ptr[c + 1]]].sum()) for c in range(len(cell_ptr) - 1)
    ]
    return max(per_cell, default=0)


@kernel(inline="always")
def _value(values: IntArray, c: int, a: int, x: Value, b: int, y: Value) -> np.int64:
    """The value of cell ``c`` when ``a`` holds ``x`` and ``b`` holds ``y``."""
    v = np.int64(values[c])
    v = np.int64(y) if c == b else v
    return np.int64(x) if c == a else v


@kernel(inline="always")
def _sum_count(
    code: int, total: np.int64, seen: np.uint64, low: np.int64, high: np.int64, cells: int,
    n: int, step: int,
) -> np.int64:  # fmt: skip
    """The broken count of a sum, cage, distinct or renban constraint from its cells' total,
    the set of their values, their least and greatest."""
    count = np.int64(0) if code == SUM else np.int64(cells - popcount(seen))
    if code in (SUM, CAGE):
        far = abs(total - n)
        count += far if step == 1 else (far + step - 1) // step
    elif code == RENBAN:
        count += max(np.int64(0), high - low - (cells - 1))
    return count


@kernel(inline="always")
def broken_counts(
    rules: ChainRules, values: IntArray, k: int, a: int, x: Value, b: int, y: Value
) -> tuple[np.int64, np.int64]:
    """The broken count of constraint ``k`` (see the glossary) when the cells hold ``values``
    (every cell filled), and when cell ``a`` holds ``x`` and ``b`` holds ``y`` instead (-1: no
    cell)."""
    kinds, ptr, cells, numbers, weights, tables, steps = rules[:7]
    code = kinds[k]
    start = ptr[k]
    end = ptr[k + 1]
    n = numbers[k]
    if code == PAIR:
        c, d = cells[start], cells[start + 1]
        p, q = np.uint64(values[c] - 1), np.uint64(values[d] - 1)
        p2 = np.uint64(_value(values, c, a, x, b, y) - 1)
        q2 = np.uint64(_value(values, d, a, x, b, y) - 1)
        before = np.int64(((tables[n, 0, p] >> q) & _ONE) ^ _ONE)
        return before, np.int64(((tables[n, 0, p2] >> q2) & _ONE) ^ _ONE)
    if code == ALLOWED:
        c = cells[start]
        mask = np.uint64(n)
        before = np.int64(((mask >> np.uint64(values[c] - 1)) & _ONE) ^ _ONE)
        bit = np.uint64(_value(values, c, a, x, b, y) - 1)
        return before, np.int64(((mask >> bit) & _ONE) ^ _ONE)
    if code in (SKYSCRAPER, SANDWICH):
        line = cells[start:end]
        size = tables.shape[2]
        return _line(code, line, values, n, size, -1, 0, -1, 0), _line(
            code, line, values, n, size, a, x, b, y
        )
    total, total2 = np.int64(0), np.int64(0)
    seen, seen2 = np.uint64(0), np.uint64(0)
    low, low2 = np.int64(1 << 30), np.int64(1 << 30)
    high, high2 = np.int64(0), np.int64(0)
    for i in range(start, end):
        c = cells[i]
        v = np.int64(values[c])
        v2 = _value(values, c, a, x, b, y)
        total += weights[i] * v
        total2 += weights[i] * v2
        seen |= _ONE << np.uint64(v)
        seen2 |= _ONE << np.uint64(v2)
        low, low2 = min(low, v), min(low2, v2)
        high, high2 = max(high, v), max(high2, v2)
    step = steps[k]
    return _sum_count(code, total, seen, low, high, end - start, n, step), _sum_count(
        code, total2, seen2, low2, high2, end - start, n, step
    )


@kernel()
def _line(
    code: int, line: IntArray, values: IntArray, n: int, size: int, a: int, x: Value, b: int,
    y: Value,
) -> np.int64:  # fmt: skip
    """A skyscraper's or a sandwich's broken count along its line, cells ``a`` and ``b`` as
    for :func:`broken_counts`."""
    if code == SKYSCRAPER:
        seen = np.int64(0)
        tallest = np.int64(0)
        for c in line:
            v = _value(values, c, a, x, b, y)
            if v > tallest:
                tallest = v
                seen += 1
        return abs(seen - n)
    one = -1  # where the first 1 and the first N are
    top = -1
    for i in range(len(line)):
        v = _value(values, line[i], a, x, b, y)
        if v == 1 and one < 0:
            one = i
        if v == size and top < 0:
            top = i
    if one < 0 or top < 0:
        return np.int64(1)
    between = np.int64(0)
    for i in range(min(one, top) + 1, max(one, top)):
        between += _value(values, line[i], a, x, b, y)
    return np.int64(between != n)


@kernel()
def change(rules: ChainRules, values: IntArray, a: int, x: Value, b: int, y: Value) -> np.int64:
    """The change of the broken counts when cell ``a`` takes ``x`` and ``b`` takes ``y`` (a
    swap; ``a == b`` for one cell): those of the constraints holding either, each once."""
    cell_ptr, cell_rules = rules[7], rules[8]
    i, i_end = cell_ptr[a], cell_ptr[a + 1]
    j, j_end = cell_ptr[b], cell_ptr[b + 1]
    delta = np.int64(0)
    while i < i_end or j < j_end:
        # merge the two rising lists, a constraint in both once
        if j >= j_end or (i < i_end and cell_rules[i] < cell_rules[j]):
            k = cell_rules[i]
            i += 1
        elif i >= i_end or cell_rules[j] < cell_rules[i]:
            k = cell_rules[j]
            j += 1
        else:
            k = cell_rules[i]
            i += 1
            j += 1
        before, after = broken_counts(rules, values, k, a, x, b, y)
        delta += after - before
    return delta


@kernel()
def _energy(rules: ChainRules, values: IntArray) -> np.int64:
    total = np.int64(0)
    for k in range(len(rules[0])):
        total += broken_counts(rules, values, k, -1, 0, -1, 0)[0]
    return total


def rule_energy(rules: ChainRules | None, values: IntArray) -> int:
    """The rule part of a state's energy: every constraint's broken count (0 without rules).

    >>> import dataclasses
    >>> from ndoku.model.puzzle import read_puzzles
    >>> from ndoku.model.rules import Rule
    >>> [p] = read_puzzles(text="0 0 0 0\\n0 0 0 0\\n0 0 0 0\\n0 0 0 0\\n")
    >>> p = dataclasses.replace(p, rules=(Rule("cage", (0, 1), 7), Rule("thermo", (1, 2, 3))))
    >>> values = np.array([4, 4, 2, 1] + [1] * 12, dtype=np.int32)
    >>> rule_energy(chain_rules(p), values)  # a repeat, ⌈(8 − 7) / 2⌉, two steps down
    4
    """
    return 0 if rules is None else int(_energy(rules, values))
