"""The narrowing kernels of the constraints of variant rules: each takes the candidates of a
constraint's cells and keeps those some assignment of the constraint supports (or a sound
part of them), and finds every broken constraint once its cells are fixed.

Each kernel reads the masks of its cells from ``cand`` (``cells[ptr[k]:ptr[k+1]]``) and
writes what is left of them into ``out`` at the same places; it returns -1 when nothing is
left (a contradiction), else 0. Every kernel is exact on fixed cells: when every cell of a
constraint holds one value, it keeps them exactly when the constraint holds, so a search
that narrows with them never accepts a broken rule. How strong each is, short of that:

- a pair (dots, thermometer steps, whispers, palindromes): every value kept has a partner
  (arc consistency, through a table per relation);
- a cage: every value kept is in a combination of its sum (k different values) that every
  cell meets and the cells cover, then different values (a fixed cell's value leaves the
  others); with more than :data:`MOST_COMBINATIONS` combinations, in some assignment of
  different digits with the sum (a search of at most :data:`CAGE_NODES` nodes; beyond it, the
  bounds of the sum). The combinations miss what only a one-to-one pairing of cells and
  values rules out, and cost a tenth of the search on a killer 9×9;
- a sum with weights (little killer, outside sum, arrow): every value kept is in some
  assignment, when the cells' candidates make at most :data:`SUM_ASSIGNMENTS` of them; else
  the bounds of the sum;
- renban: a window of consecutive values each cell meets, that the cells can cover;
- sandwich: a place for the 1 and the N whose cells between can make the sum (by bounds);
- skyscraper: every value kept is in some order the clue allows (a search of at most
  :data:`SKYSCRAPER_NODES` nodes; beyond it, the bound that cell i holds at most
  N − clue + 1 + i).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ndoku.jit import kernel
from ndoku.solvers.bits import highest, lowest, popcount
from ndoku.solvers.combos import keep_covering, keep_matching

IntArray = NDArray[np.int32]
MaskArray = NDArray[np.uint64]

# Kind codes of the kernels (the constraints' kinds map to them in ndoku.solvers.rules).
PAIR = 0
ALLOWED = 1
SUM = 2
CAGE = 3
DISTINCT = 4
RENBAN = 5
SANDWICH = 6
SKYSCRAPER = 7
#: A cage whose combinations are matched to its cells one value each
#: (:func:`keep_matching`): the exact search's cages. ``CAGE`` keeps what each combination
#: holds of each cell, as a person reads the combinations (the logic engine's step).
MATCHED = 8

#: A cage with more combinations than these is searched instead.
MOST_COMBINATIONS = 1024
#: Nodes of a cage's search before its bounds stand in for it.
CAGE_NODES = 4096
#: Assignments of a weighted sum's candidates enumerated, at most.
SUM_ASSIGNMENTS = 64
#: Nodes of a skyscraper's search before its bound stands in for it.
SKYSCRAPER_NODES = 4096

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


#: What :func:`_once` returns when it left the supported values exactly: a fixed point.
_EXACT = 1


@kernel(inline="always")
def _exact(done: int) -> int:
    """:data:`_EXACT` for a narrowing that kept exactly the supported values (``done`` 0),
    -1 for a contradiction."""
    return _EXACT if done == 0 else done


@kernel(inline="always")
def _low(m: np.uint64) -> int:
    """The smallest value of a non-empty mask (1-based)."""
    return lowest(m) + 1  # type: ignore[no-any-return]


@kernel(inline="always")
def _high(m: np.uint64) -> int:
    """The largest value of a non-empty mask (1-based)."""
    return highest(m) + 1  # type: ignore[no-any-return]


@kernel()
def _pair(
    a: np.uint64, b: np.uint64, forward: MaskArray, backward: MaskArray
) -> tuple[np.uint64, np.uint64]:
    """What is left of two cells' masks: each value with a partner in the other (the second
    cell's partners among the first's values left: a fixed point in one pass)."""
    left_a = _ZERO
    m = a
    while m != _ZERO:
        v = lowest(m)
        m &= m - _ONE
        if forward[v] & b != _ZERO:
            left_a |= _ONE << np.uint64(v)
    left_b = _ZERO
    m = b
    while m != _ZERO:
        v = lowest(m)
        m &= m - _ONE
        if backward[v] & left_a != _ZERO:
            left_b |= _ONE << np.uint64(v)
    return left_a, left_b


@kernel()
def _distinct(out: MaskArray, start: int, end: int) -> int:
    """Different values: the fixed cells' values leave the others (until nothing changes);
    -1 when a cell is left empty or fewer values than cells remain."""
    done = _ZERO  # values of fixed cells already taken from the others
    while True:
        fixed = _ZERO
        union = _ZERO
        for i in range(start, end):
            m = out[i]
            if m == _ZERO:
                return -1
            if m & (m - _ONE) == _ZERO:
                if fixed & m != _ZERO:
                    return -1  # two fixed cells with one value
                fixed |= m
            union |= m
        if popcount(union) < end - start:
            return -1
        new = fixed & ~done
        if new == _ZERO:
            return 0
        done = fixed
        for i in range(start, end):
            m = out[i]
            if m & (m - _ONE) != _ZERO:
                out[i] = m & ~new


@kernel()
def _bounds(out: MaskArray, weights: NDArray[np.int64], start: int, end: int, total: int) -> int:
    """Σ weight·value = total by bounds: each value whose term the others' least and greatest
    terms cannot complete goes (until nothing changes); -1 when a cell is left empty."""
    for _ in range(64 * (end - start) + 1):
        low = 0
        high = 0
        for i in range(start, end):
            if out[i] == _ZERO:
                return -1
            w = weights[i]
            a, b = w * _low(out[i]), w * _high(out[i])
            low += min(a, b)
            high += max(a, b)
        if total < low or total > high:
            return -1
        changed = False
        for i in range(start, end):
            w = weights[i]
            a, b = w * _low(out[i]), w * _high(out[i])
            least = total - (high - max(a, b))
            most = total - (low - min(a, b))
            m = out[i]
            keep = _ZERO
            while m != _ZERO:
                v = lowest(m)
                m &= m - _ONE
                if least <= w * (v + 1) <= most:
                    keep |= _ONE << np.uint64(v)
            if keep != out[i]:
                out[i] = keep
                changed = True
        if not changed:
            return 0
    return 0


@kernel()
def _enumerate_sum(
    out: MaskArray, weights: NDArray[np.int64], start: int, end: int, total: int, work: MaskArray
) -> int:
    """Σ weight·value = total by every assignment (an odometer over the candidates): each
    value in none goes; -1 when none holds. ``work``: room for 3 masks a cell."""
    k = end - start
    rest = work[0:k]
    pick = work[k : 2 * k]
    seen = work[2 * k : 3 * k]
    for i in range(k):
        seen[i] = _ZERO
        rest[i] = out[start + i]
        pick[i] = rest[i] & -rest[i]
        rest[i] ^= pick[i]
    found = False
    while True:
        s = 0
        for i in range(k):
            s += weights[start + i] * (lowest(pick[i]) + 1)
        if s == total:
            found = True
            for i in range(k):
                seen[i] |= pick[i]
        i = 0
        while i < k and rest[i] == _ZERO:
            rest[i] = out[start + i] ^ (out[start + i] & -out[start + i])
            pick[i] = out[start + i] & -out[start + i]
            i += 1
        if i == k:
            break
        pick[i] = rest[i] & -rest[i]
        rest[i] ^= pick[i]
    if not found:
        return -1
    for i in range(k):
        out[start + i] = seen[i]
    return 0


@kernel()
def _combinations(
    out: MaskArray,
    start: int,
    end: int,
    combos: MaskArray,
    first: int,
    last: int,
    work: NDArray[np.int64],
    matched: bool,
) -> int:
    """A cage through its combinations (``combos[first:last]``: the sets of k different
    values with its sum): those every cell meets and the cells together cover; each cell
    keeps what those hold (``matched``: what it holds once the values are matched to the
    cells, :func:`keep_matching`), then different values again. -1 when none is left."""
    k = end - start
    keep = work.view(np.uint64)[0:k]
    left = work.view(np.uint64)[k : 2 * k]
    for i in range(k):
        keep[i] = _ZERO
    found = False
    for t in range(first, last):
        if matched:
            found |= keep_matching(out, start, end, combos[t], keep, left)
        else:
            found |= keep_covering(out, start, end, combos[t], keep)
    if not found:
        return -1
    for i in range(start, end):
        out[i] = keep[i - start]
    return _distinct(out, start, end)


@kernel()
def _cage(
    out: MaskArray,
    weights: NDArray[np.int64],
    start: int,
    end: int,
    total: int,
    work: NDArray[np.int64],
) -> int:
    """Different values summing to ``total``, by a search for the values some assignment
    supports (cells with fewer candidates first; it stops once every value is supported);
    past :data:`CAGE_NODES` nodes, by bounds. -1 when no assignment holds."""
    k = end - start
    masks = work.view(np.uint64)  # the masks' places and the numbers' do not overlap
    order = work[0:k]
    rem = masks[k : 2 * k]
    val = masks[2 * k : 3 * k]
    least = work[3 * k : 4 * k + 1]
    most = work[4 * k + 1 : 5 * k + 2]
    seen = masks[5 * k + 2 : 6 * k + 2]
    for i in range(k):
        order[i] = start + i
        if out[start + i] == _ZERO:
            return -1
    for i in range(1, k):  # fewest candidates first (insertion sort: cages are small)
        j = i
        while j > 0 and popcount(out[order[j]]) < popcount(out[order[j - 1]]):
            order[j], order[j - 1] = order[j - 1], order[j]
            j -= 1
    least[k] = 0
    most[k] = 0
    for i in range(k - 1, -1, -1):
        m = np.uint64(out[order[i]])
        least[i] = least[i + 1] + _low(m)
        most[i] = most[i + 1] + _high(m)
    for i in range(k):
        seen[i] = _ZERO
    unsupported = 0
    for i in range(k):
        unsupported += popcount(out[order[i]])
    nodes = 0
    level = 0
    used = _ZERO
    s = 0
    rem[0] = out[order[0]]
    while level >= 0:
        r = rem[level]
        if r == _ZERO or unsupported == 0:
            level -= 1
            if level >= 0:
                bit = val[level]
                used ^= bit
                s -= lowest(bit) + 1
            continue
        bit = r & -r
        rem[level] = r ^ bit
        v = lowest(bit) + 1
        if s + v + least[level + 1] > total:
            rem[level] = _ZERO  # the values left are larger
            continue
        if s + v + most[level + 1] < total:
            continue
        nodes += 1
        if nodes > CAGE_NODES:
            if _bounds(out, weights, start, end, total) < 0:
                return -1
            return _distinct(out, start, end)
        if level == k - 1:
            if s + v == total:
                val[level] = bit
                for i in range(k):
                    b = val[i]
                    if seen[i] & b == _ZERO:
                        seen[i] |= b
                        unsupported -= 1
            continue
        val[level] = bit
        used |= bit
        s += v
        level += 1
        rem[level] = out[order[level]] & ~used
    if unsupported == 0:
        return 0
    for i in range(k):
        out[order[i]] = seen[i]
    return 0 if seen[0] != _ZERO else -1


@kernel()
def _renban(out: MaskArray, start: int, end: int, size: int, work: MaskArray) -> int:
    """Different, consecutive values: the windows of k consecutive values that every cell
    meets and the cells together cover; each cell keeps what those windows hold."""
    if _distinct(out, start, end) < 0:
        return -1
    k = end - start
    span = (_ONE << np.uint64(k)) - _ONE
    keep = work[0:k]
    for i in range(k):
        keep[i] = _ZERO
    any_window = False
    for s in range(size - k + 1):
        any_window |= keep_covering(out, start, end, span << np.uint64(s), keep)
    if not any_window:
        return -1
    for i in range(start, end):
        out[i] = keep[i - start]
    return 0


@kernel()
def _sandwich(out: MaskArray, start: int, end: int, total: int, size: int, work: MaskArray) -> int:
    """The digits between the 1 and the N sum to ``total``: each place of the 1 and the N
    whose cells between can make the sum by bounds; every cell keeps what some such place
    allows."""
    one = _ONE
    big = _ONE << np.uint64(size - 1)
    ends = one | big
    k = end - start
    keep = work[0:k]
    for i in range(k):
        keep[i] = _ZERO
    found = False
    for p in range(k):
        if out[start + p] & one == _ZERO:
            continue
        for q in range(k):
            if q == p or out[start + q] & big == _ZERO:
                continue
            a, b = min(p, q), max(p, q)
            ok = True
            low = 0
            high = 0
            for j in range(k):
                if j in (p, q):
                    continue
                m = out[start + j] & ~ends
                if m == _ZERO:
                    ok = False
                    break
                if a < j < b:
                    low += _low(m)
                    high += _high(m)
            if not ok or total < low or total > high:
                continue
            found = True
            keep[p] |= one
            keep[q] |= big
            for j in range(k):
                if j in (p, q):
                    continue
                m = out[start + j] & ~ends
                if a < j < b:
                    least = total - (high - _high(m))
                    most = total - (low - _low(m))
                    m2 = m
                    while m2 != _ZERO:
                        v = lowest(m2)
                        m2 &= m2 - _ONE
                        if least <= v + 1 <= most:
                            keep[j] |= _ONE << np.uint64(v)
                else:
                    keep[j] |= m
    if not found:
        return -1
    for j in range(k):
        out[start + j] = keep[j]
        if keep[j] == _ZERO:
            return -1
    return 0


@kernel()
def _skyscraper(
    out: MaskArray, start: int, end: int, seen_count: int, size: int, work: NDArray[np.int64]
) -> int:
    """``seen_count`` of the cells, read from the first, are larger than all before them:
    every value some order of different values allows (a search, values the cells' own; past
    :data:`SKYSCRAPER_NODES` nodes, the bound that cell i holds at most N − clue + 1 + i)."""
    k = end - start
    masks = work.view(np.uint64)  # the masks' places and the numbers' do not overlap
    rem = masks[0:k]
    val = masks[k : 2 * k]
    tall = work[2 * k : 3 * k + 1]  # the tallest before each level
    count = work[3 * k + 1 : 4 * k + 2]  # buildings seen before each level
    support = masks[4 * k + 2 : 5 * k + 2]
    for i in range(k):
        support[i] = _ZERO
        if out[start + i] == _ZERO:
            return -1
    nodes = 0
    level = 0
    used = _ZERO
    tall[0] = 0
    count[0] = 0
    rem[0] = out[start]
    complete = True
    while level >= 0:
        r = rem[level]
        if r == _ZERO:
            level -= 1
            if level >= 0:
                used ^= val[level]
            continue
        bit = r & -r
        rem[level] = r ^ bit
        v = lowest(bit) + 1
        seen = count[level] + (1 if v > tall[level] else 0)
        top = max(v, tall[level])
        # still to see at most: the levels left, and the values above the tallest
        if seen > seen_count or seen + min(k - 1 - level, size - top) < seen_count:
            continue
        nodes += 1
        if nodes > SKYSCRAPER_NODES:
            complete = False
            break
        val[level] = bit
        if level == k - 1:
            if seen == seen_count:
                for i in range(k):
                    support[i] |= val[i]
            continue
        used |= bit
        tall[level + 1] = top
        count[level + 1] = seen
        level += 1
        rem[level] = out[start + level] & ~used
    if complete:
        for i in range(k):
            out[start + i] = support[i]
            if support[i] == _ZERO:
                return -1
        return 0
    for i in range(k):
        most = size - seen_count + 1 + i
        if most < size:
            out[start + i] &= (_ONE << np.uint64(most)) - _ONE
        if out[start + i] == _ZERO:
            return -1
    return 0


@kernel()
def narrow(k: int, cand: MaskArray, rules: Any, size: int) -> int:
    """Narrow constraint ``k`` of ``rules`` (:data:`ndoku.solvers.tables.Rules`) to a fixed
    point of its kernel: what is left of its cells' candidates into the rules' ``out`` (at
    the constraint's places); -1 on a contradiction, else 0."""
    kinds, ptr, cells, numbers, _, tables, _, _, _, out, work = rules
    start, end = ptr[k], ptr[k + 1]
    for i in range(start, end):
        out[i] = cand[cells[i]]
        if out[i] == _ZERO:
            return -1
    kind = kinds[k]
    if kind == PAIR:
        t = numbers[k]
        a, b = _pair(out[start], out[start + 1], tables[t, 0], tables[t, 1])
        out[start] = a
        out[start + 1] = b
        return -1 if a == _ZERO or b == _ZERO else 0
    if kind == ALLOWED:
        out[start] &= np.uint64(numbers[k])
        return -1 if out[start] == _ZERO else 0
    # The others again until they change nothing: what they leave is then their own fixed
    # point, which the caller keeps as settled (a pair's kernel leaves one at once).
    before = work.view(np.uint64)[7 * (end - start) + 2 : 8 * (end - start) + 2]
    for _ in range(64 * (end - start) + 1):
        for i in range(start, end):
            before[i - start] = out[i]
        done = _once(k, kind, out, rules, size)
        if done < 0:
            return -1
        if done == _EXACT:
            return 0
        same = True
        for i in range(start, end):
            if out[i] != before[i - start]:
                same = False
        if same:
            return 0
    return 0


@kernel()
def _once(k: int, kind: int, out: MaskArray, rules: Any, size: int) -> int:
    """One narrowing of constraint ``k`` of a kernel's own kind (not a pair's): -1 on a
    contradiction, :data:`_EXACT` when it kept exactly the values some assignment supports
    (a second narrowing would change nothing), else 0."""
    _, ptr, _, numbers, weights, _, combo_ptr, combos, _, _, work = rules
    start, end = ptr[k], ptr[k + 1]
    n = numbers[k]
    if kind == SUM:
        product = 1
        for i in range(start, end):
            product *= popcount(out[i])
            if product > SUM_ASSIGNMENTS:
                return _bounds(out, weights, start, end, n)
        return _exact(_enumerate_sum(out, weights, start, end, n, work.view(np.uint64)))
    if kind in (CAGE, MATCHED):
        if _distinct(out, start, end) < 0:
            return -1
        first, last = combo_ptr[k], combo_ptr[k + 1]
        if last > first:
            left = _combinations(out, start, end, combos, first, last, work, kind == MATCHED)
            # matching is exact up to three cells (see keep_matching)
            return _exact(left) if kind == MATCHED and end - start <= 3 else left
        return _cage(out, weights, start, end, n, work)
    if kind == DISTINCT:
        return _distinct(out, start, end)
    if kind == RENBAN:
        return _renban(out, start, end, size, work.view(np.uint64))
    if kind == SANDWICH:
        return _sandwich(out, start, end, n, size, work.view(np.uint64))
    return _skyscraper(out, start, end, n, size, work)
