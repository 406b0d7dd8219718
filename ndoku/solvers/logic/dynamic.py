"""Compiled dynamic implications: an assumption followed through singles to a contradiction
(Nishio, dynamic forcing chains), with what each search read kept for the next.

The terms (node, dynamic implication, Nishio, dynamic forcing chain) are those of
:mod:`.implications`, whose live numbering of candidates the search shares.
"""

from __future__ import annotations

import numpy as np

from ndoku.jit import kernel
from ndoku.solvers.bits import copy, widest
from ndoku.solvers.logic.implications import BoolArray, IntArray, group_members, grown


@kernel(refcounts=True)
def _appended(array: IntArray, used: int, items: IntArray) -> IntArray:
    """``array`` with ``items`` written after its first ``used`` (grown if need be)."""
    if used + items.shape[0] > array.shape[0]:
        array = grown(array, used, items.shape[0])
    copy(items, array[used:])
    return array


@kernel()
def _untouched(near: BoolArray, foot: IntArray, start: int, end: int) -> bool:
    """None of the candidates ``foot[start:end]`` (what a search read) is ``near`` a
    change."""
    i = start
    while i < end and not near[foot[i]]:
        i += 1
    return i == end


@kernel()
def _as_candidates(nodes: IntArray, count: int, flat: IntArray) -> None:
    """The first ``count`` of ``nodes`` (live numbering, on or off) as their candidates
    (``cell * N + value``), in place."""
    n_live = flat.shape[0]
    for i in range(count):
        nodes[i] = flat[nodes[i] - n_live if nodes[i] >= n_live else nodes[i]]


@kernel(refcounts=True)
def contradiction(
    cand: BoolArray,
    units: IntArray,
    unit_ptr: IntArray,
    unit_of: IntArray,
    index: IntArray,
    flat: IntArray,
    ptr: IntArray,
    adj: IntArray,
    lacking: BoolArray,
    one_value: bool,
    near: BoolArray,
    known: IntArray,
    bound: IntArray,
    owner: IntArray,
    foot_start: IntArray,
    foot_end: IntArray,
    foot: IntArray,
) -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray, IntArray, IntArray]:
    """The assumption whose dynamic implications reach a contradiction with the least
    complexity (on its own value only when ``one_value``: Nishio): ``[complexity,
    assumption]``, empty when none does; then what is known of each assumption for a later
    search, as the last five arguments. The graph (:func:`implication_graph`, whose arrays
    these are) gives what an on node implies, which is static: off for its peers, and for
    its cell's other values unless on one value (a graph without y-links then); off nodes
    are followed on the board as it is reached.

    What an earlier search knew, by candidate (``cell * N + value``): ``known`` 0 nothing,
    1 a contradiction of complexity ``bound``, 2 none, 3 none of complexity under
    ``bound``; ``owner``: the candidate whose search read what that rests on, the
    candidates of its nodes: ``foot[foot_start[owner]:foot_end[owner]]``. It holds where
    none of them is ``near`` a change since
    (:func:`.techniques.changed_near`): the search would read the
    same and go the same way."""
    n_live = flat.shape[0]
    cells, size = cand.shape
    nodes = 2 * n_live
    n_flat = cells * size
    # an earlier search holds where what it read is unchanged
    holds = np.zeros(n_flat, dtype=np.bool_)
    if known.shape[0] == n_flat:
        for f in range(n_flat):
            if known[f] and owner[f] == f:
                holds[f] = _untouched(near, foot, foot_start[f], foot_end[f])
        for f in range(n_flat):
            holds[f] = known[f] != 0 and holds[owner[f]]
    # what this search knows, likewise
    new_known = np.zeros(n_flat, dtype=np.int32)
    new_bound = np.zeros(n_flat, dtype=np.int32)
    new_owner = np.zeros(n_flat, dtype=np.int32)
    new_start = np.zeros(n_flat, dtype=np.int32)
    new_end = np.zeros(n_flat, dtype=np.int32)
    new_foot = np.empty(64 * n_live + nodes, dtype=np.int32)
    used = 0
    seen = np.zeros(nodes, dtype=np.int32)  # == gen: reached in this assumption
    visit = np.zeros(nodes, dtype=np.int32)  # == mark: counted as an ancestor
    # what set a node: an off node's on node; an on node's group (a cell, or cells +
    # unit * N + value), every other candidate of which is off; −1 for the assumption
    cause = np.empty(nodes, dtype=np.int32)
    queue = np.empty(nodes, dtype=np.int32)
    stack = np.empty(nodes + 8, dtype=np.int32)
    roots = np.empty(size + 8, dtype=np.int32)
    # the groups of each candidate whose last candidate goes on (CSR): its cell unless on
    # one value, then its value in each of its units that lacks it (numbered as causes)
    n_groups = cells + units.shape[0] * size
    group_ptr = np.zeros(n_live + 1, dtype=np.int32)
    group_of = np.empty(n_live * (1 + widest(unit_ptr)), dtype=np.int32)
    # per group: its stamp, its candidates not yet off, and the sum of their live numbers
    # (valid where the stamp is gen; side by side, read together): an off node looks at
    # a group only when it is down to one candidate, which the sum names, or none; at the
    # start, every candidate of it
    state = np.zeros((n_groups, 3), dtype=np.int32)
    all_left = np.zeros(n_groups, dtype=np.int32)
    all_sum = np.zeros(n_groups, dtype=np.int32)
    for m in range(n_live):
        c, v = flat[m] // size, flat[m] % size
        count = group_ptr[m]
        if not one_value:
            group_of[count] = c
            count += 1
        for i in range(unit_ptr[c], unit_ptr[c + 1]):
            if lacking[unit_of[i], v]:
                group_of[count] = cells + unit_of[i] * size + v
                count += 1
        group_ptr[m + 1] = count
        for i in range(group_ptr[m], count):
            all_left[group_of[i]] += 1
            all_sum[group_of[i]] += m
    best = np.empty(0, dtype=np.int32)
    least = 1 << 30
    mark = 0
    # candidates whose assumption reaches no contradiction: those an assumption without
    # one sets on (what they imply, it implies too, dynamic implications only growing
    # with what is known); the candidate of that assumption
    clean = np.full(n_live, -1, dtype=np.int32)
    for k in range(n_live):
        f = flat[k]
        if holds[f] and not (known[f] == 3 and bound[f] < least):
            new_known[f] = known[f]
            new_bound[f] = bound[f]
            new_owner[f] = owner[f]
            if owner[f] == f:
                new_foot = _appended(new_foot, used, foot[foot_start[f] : foot_end[f]])
                new_start[f] = used
                used += foot_end[f] - foot_start[f]
                new_end[f] = used
            if known[f] == 1 and bound[f] < least:
                least = bound[f]
                best = np.empty(2, dtype=np.int32)
                best[0] = least
                best[1] = f * 2 + 1
            continue
        if clean[k] >= 0:
            new_known[f] = 2
            new_owner[f] = clean[k]
            continue
        gen = k + 1
        seen[k] = gen
        cause[k] = -1
        head, tail = 0, 1
        queue[0] = k
        n_roots = 0
        level, level_end = 0, 1
        cut = False
        while head < tail and n_roots == 0:
            if head == level_end:
                level += 1
                level_end = tail
            # a contradiction met at this level rests on the level's chain back to k and
            # more: it cannot beat the least
            if level + 1 >= least:
                cut = True
                break
            node = queue[head]
            head += 1
            if node < n_live:
                for i in range(ptr[node], ptr[node + 1]):
                    m = adj[i] - n_live
                    if seen[n_live + m] == gen:
                        continue
                    if seen[m] == gen:  # m is on: it would be both
                        roots[0] = m
                        roots[1] = node
                        n_roots = 2
                        break
                    seen[n_live + m] = gen
                    cause[n_live + m] = node
                    for i2 in range(group_ptr[m], group_ptr[m + 1]):
                        g = group_of[i2]
                        if state[g, 0] != gen:
                            state[g, 0] = gen
                            state[g, 1] = all_left[g]
                            state[g, 2] = all_sum[g]
                        state[g, 1] -= 1
                        state[g, 2] -= m
                    queue[tail] = n_live + m
                    tail += 1
                continue
            # off(c, v): c's last candidate, or v's last place in a unit of c, goes on
            m = node - n_live
            for i in range(group_ptr[m], group_ptr[m + 1]):
                g = group_of[i]
                if state[g, 1] > 1:
                    continue
                if state[g, 1] == 0:  # nothing left: every off of the group is a root
                    n_roots = group_members(g, -1, cand, index, units, n_live, roots, 0)
                    break
                at = state[g, 2]
                if seen[at] != gen:
                    seen[at] = gen
                    cause[at] = g
                    queue[tail] = at
                    tail += 1
        if n_roots == 0 and not cut:
            for i in range(tail):
                if queue[i] < n_live:
                    clean[queue[i]] = f
        # what the search read: the candidates of the nodes it reached
        _as_candidates(queue, tail, flat)
        new_foot = _appended(new_foot, used, queue[:tail])
        new_owner[f] = f
        new_start[f] = used
        used += tail
        new_end[f] = used
        if n_roots == 0:
            new_known[f] = 3 if cut else 2
            new_bound[f] = level + 1
            continue
        # complexity: the ancestors of the contradiction's nodes, each counted once (and
        # the off node a clash would have set)
        mark += 1
        total = 1 if n_roots == 2 and roots[0] < n_live and roots[1] < n_live else 0
        top = 0
        for r in range(n_roots):
            if visit[roots[r]] != mark:
                visit[roots[r]] = mark
                stack[top] = roots[r]
                top += 1
        while top > 0:
            top -= 1
            node = stack[top]
            total += 1
            if node >= n_live:
                parents = 1
                roots[0] = cause[node]
            elif cause[node] >= 0:
                parents = group_members(cause[node], node, cand, index, units, n_live, roots, 0)
            else:
                parents = 0
            for r in range(parents):
                if visit[roots[r]] != mark:
                    visit[roots[r]] = mark
                    stack[top] = roots[r]
                    top += 1
        new_known[f] = 1
        new_bound[f] = total
        if total < least:
            least = total
            best = np.empty(2, dtype=np.int32)
            best[0] = total
            best[1] = f * 2 + 1
    return best, new_known, new_bound, new_owner, new_start, new_end, new_foot[:used]
