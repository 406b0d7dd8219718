"""Compiled searches of the implication graph: forcing chains, cell and unit forcing chains
(the dynamic ones, Nishio and dynamic forcing chains, are in :mod:`.dynamic`).

Glossary (terms of :mod:`.chains` aside)
--------
node
    A candidate assumed true (``on``) or false (``off``): for the k-th live candidate of a
    board (see :func:`live`), node k is on and node L + k off, with L the candidates.
implication
    From on(c, v): off(c, w) for c's other candidates, off(p, v) for c's peers p. From
    off(c, v): on(c, w) when w is c's other candidate (a bivalue cell; a *y-link*), on(q, v)
    when q is v's other place in a unit of c (a *x-link*). X-chains use only x-links and
    the value's own peers, Y-chains only y-links, alternating inference chains both.
forcing chain
    Implications from on(c, v) to off(c, v) (so c is not v), or from off(c, v) to on(c, v)
    (so c is v). Its *complexity* is the nodes it runs through, both ends counted.
cell / unit forcing chain
    Every candidate of a cell (every place of a value in a unit) implies the same node:
    that node holds. Complexity: the nodes of all its branches.
dynamic implication
    Implications from an assumption followed on a board that remembers every node reached:
    off(c, v) makes c's last candidate on, or v's last place in a unit on (singles), not
    only in bivalue cells and two-place units.
Nishio / dynamic forcing chain
    An assumption on(c, v) whose dynamic implications (on v alone for Nishio; on every value
    for the dynamic chain) reach a contradiction (a node both on and off, a cell with no
    candidate, a unit with no place for a value it lacks): c is not v. Complexity: the nodes
    the contradiction rests on.

The searches read the board's implication graph (:func:`implication_graph`: built once per
board, read by every chain technique of a round) besides the candidates as a ``(cells, N)``
boolean array and the layout's CSR arrays, and return nodes as ``(cell * N + value) * 2 +
on`` (values from 0).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ndoku.jit import kernel
from ndoku.solvers.bits import copy, nonliteral, widest

IntArray = NDArray[np.int32]
BoolArray = NDArray[np.bool_]

#: Branches a cell or unit forcing chain may have (more take long and are seldom wanted).
MOST_BRANCHES = 4
#: Live candidates up to which the cell and unit forcing chains are searched (beyond, they
#: are not: 16×16 boards fit, 25×25 seldom; the bound once kept a table of every distance
#: in memory, and stays where paths were made with it).
MOST_TABLED = 2500


@kernel(refcounts=True)
def live(cand: BoolArray) -> tuple[IntArray, IntArray]:
    """The board's candidates as nodes: ``index[cell * N + value]`` (−1 for none) and the
    flat ``cell * N + value`` of each live candidate, rising."""
    cells, size = cand.shape
    index = np.full(cells * size, -1, dtype=np.int32)
    flat = np.empty(cells * size, dtype=np.int32)
    count = 0
    for c in range(cells):
        for v in range(size):
            if cand[c, v]:
                index[c * size + v] = count
                flat[count] = c * size + v
                count += 1
    return index, flat[:count]


@kernel(refcounts=True)
def tallies(cand: BoolArray, units: IntArray) -> tuple[IntArray, IntArray]:
    """Candidates per cell, and places per unit and value."""
    cells, size = cand.shape
    per_cell = np.zeros(cells, dtype=np.int32)
    for c in range(cells):
        for v in range(size):
            per_cell[c] += cand[c, v]
    places = np.zeros((units.shape[0], size), dtype=np.int32)
    for u in range(units.shape[0]):
        for k in range(units.shape[1]):
            c = units[u, k]
            for v in range(size):
                places[u, v] += cand[c, v]
    return per_cell, places


@kernel()
def _next(
    node: int,
    cand: BoolArray,
    index: IntArray,
    flat: IntArray,
    per_cell: IntArray,
    places: IntArray,
    units: IntArray,
    unit_ptr: IntArray,
    unit_of: IntArray,
    peer_ptr: IntArray,
    peers: IntArray,
    out: IntArray,
    count: int,
) -> int:
    """The static implications of ``node`` (live numbering) written into ``out`` from
    ``count``; the new count."""
    size = cand.shape[1]
    n_live = flat.shape[0]
    on = node < n_live
    k = node if on else node - n_live
    c = flat[k] // size
    v = flat[k] % size
    if on:
        for i in range(peer_ptr[c], peer_ptr[c + 1]):
            j = index[peers[i] * size + v]
            if j >= 0:
                out[count] = n_live + j
                count += 1
        for w in range(size):
            if w != v and cand[c, w]:
                out[count] = n_live + index[c * size + w]
                count += 1
        return count
    if per_cell[c] == 2:
        for w in range(size):
            if w != v and cand[c, w]:
                out[count] = index[c * size + w]
                count += 1
    for i in range(unit_ptr[c], unit_ptr[c + 1]):
        u = unit_of[i]
        if places[u, v] != 2:
            continue
        for q in units[u]:
            if q != c and cand[q, v]:
                out[count] = index[q * size + v]
                count += 1
    return count


@kernel(refcounts=True)
def grown(array: IntArray, used: int, more: int) -> IntArray:
    """``array`` with room for ``more`` after its first ``used`` (twice as long, or more)."""
    grown = np.empty(max(2 * array.shape[0], used + more), dtype=np.int32)
    copy(array[:used], grown)
    return grown


@kernel(refcounts=True)
def implication_graph(
    cand: BoolArray,
    units: IntArray,
    unit_ptr: IntArray,
    unit_of: IntArray,
    peer_ptr: IntArray,
    peers: IntArray,
) -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray, IntArray]:
    """What the searches read of a board: ``(index, flat, per_cell, places, ptr, adj)``, its
    live candidates (:func:`live`), the candidates of each cell and the places of each
    value in each unit, and the static implications of every node, x-links and y-links,
    as CSR (:func:`without_y_links` for x-links only). An on node's implications are the
    same with or without x-links, which the dynamic searches rely on."""
    index, flat = live(cand)
    per_cell, places = tallies(cand, units)
    nodes = 2 * flat.shape[0]
    # the most implications of one node: its peers and its cell's values, or its cell's
    # values and the places of its units
    most = widest(peer_ptr) + cand.shape[1] * (1 + widest(unit_ptr))
    ptr = np.zeros(nodes + 1, dtype=np.int32)
    adj = np.empty(16 * nodes + most, dtype=np.int32)
    for node in range(nodes):
        if ptr[node] + most > adj.shape[0]:
            adj = grown(adj, ptr[node], most)
        ptr[node + 1] = _next(
            node, cand, index, flat, per_cell, places, units, unit_ptr, unit_of, peer_ptr,
            peers, adj, ptr[node],
        )  # fmt: skip
    return index, flat, per_cell, places, ptr, adj


@kernel(refcounts=True)
def without_y_links(
    cand: BoolArray, flat: IntArray, per_cell: IntArray, ptr: IntArray, adj: IntArray
) -> tuple[IntArray, IntArray]:
    """The graph ``ptr``, ``adj`` of :func:`implication_graph` without its y-links: an on
    node's implications but its cell's other values (the last of them), an off node's but
    its bivalue cell's other value (the first)."""
    size = cand.shape[1]
    n_live = flat.shape[0]
    nodes = 2 * n_live
    x_ptr = np.zeros(nodes + 1, dtype=np.int32)
    x_adj = np.empty(ptr[nodes], dtype=np.int32)
    for node in range(nodes):
        start, end = ptr[node], ptr[node + 1]
        c = flat[node % n_live] // size
        if node < n_live:
            end -= per_cell[c] - 1
        elif per_cell[c] == 2:
            start += 1
        x_ptr[node + 1] = x_ptr[node] + end - start
        copy(adj[start:end], x_adj[x_ptr[node] :])
    return x_ptr, x_adj[: x_ptr[nodes]]


@kernel(refcounts=True)
def reaching(near: BoolArray, flat: IntArray, ptr: IntArray, adj: IntArray) -> BoolArray:
    """The nodes, by ``(cell * N + value) * 2 + on``, that lead to a candidate ``near`` a
    change in the graph ``ptr``, ``adj`` of the candidates ``flat`` (an earlier board's,
    :func:`implication_graph`), those near included. A search of that board that found
    no chain from the others finds none on the board of now: what a chain reads, when it
    meets no node near a change, is the same on both.

    By contraposition (a → b when ¬b → ¬a), a node leads to a near one when its negation
    is reached from one."""
    n_live = flat.shape[0]
    nodes = 2 * n_live
    out = np.zeros(2 * near.shape[0], dtype=np.bool_)
    for f in range(near.shape[0]):
        out[2 * f] = out[2 * f + 1] = near[f]
    seen = np.zeros(nodes, dtype=np.bool_)
    queue = np.empty(nodes, dtype=np.int32)
    tail = 0
    for node in range(nodes):
        if near[flat[node % n_live]]:
            seen[node] = True
            queue[tail] = node
            tail += 1
    head = 0
    while head < tail:
        node = queue[head]
        head += 1
        for i in range(ptr[node], ptr[node + 1]):
            if not seen[adj[i]]:
                seen[adj[i]] = True
                queue[tail] = adj[i]
                tail += 1
    for node in range(nodes):
        if seen[node]:  # its negation leads to a near node
            out[flat[node % n_live] * 2 + (1 if node >= n_live else 0)] = True
    return out


@kernel()
def _bfs(
    source: int,
    target: int,
    most: int,
    ptr: IntArray,
    adj: IntArray,
    dist: IntArray,
    parent: IntArray,
    queue: IntArray,
) -> tuple[int, int]:
    """Breadth-first from ``source`` over at most ``most`` implications (:func:`implication_graph`);
    ``dist`` (−1 everywhere on entry) and ``parent`` filled where reached. Returns the
    distance of ``target`` (−1 if not reached; −1 as target searches everything) and how
    many nodes were reached (the first of ``queue``; :func:`_unreach` puts ``dist``
    back)."""
    dist[source] = 0
    parent[source] = -1
    head, tail = 0, 1
    queue[0] = source
    while head < tail:
        node = queue[head]
        head += 1
        if dist[node] >= most:
            continue
        for i in range(ptr[node], ptr[node + 1]):
            nxt = adj[i]
            if dist[nxt] < 0:
                dist[nxt] = dist[node] + 1
                parent[nxt] = node
                queue[tail] = nxt
                tail += 1
                if nxt == target:
                    return int(dist[nxt]), tail
    return -1, tail


@kernel()
def _unreach(dist: IntArray, queue: IntArray, reached: int) -> None:
    """Put −1 back in ``dist`` where a search reached (cheaper than refilling it whole for
    each of thousands of searches)."""
    for i in range(reached):
        dist[queue[i]] = -1


@kernel()
def _loop_length(
    source: int,
    bound: int,
    n_live: int,
    ptr: IntArray,
    adj: IntArray,
    dist: IntArray,
    queue: IntArray,
) -> int:
    """The implications from ``source`` to its negation (on to off, or off to on), or −1
    when more than ``bound``, by breadth-first search to half that depth (``dist``: −1
    everywhere, on entry and on return).

    Every implication a → b has its contrapositive ¬b → ¬a among the implications, so a
    node x at distance i from the source, whose negation is at distance j, closes a chain
    of i + j: the shortest chain is the least i + j, and its middle node lies within half
    of it."""
    dist[source] = 0
    half = (bound + 1) // 2
    best = bound + 1
    head, tail = 0, 1
    queue[0] = source
    while head < tail:
        node = queue[head]
        head += 1
        level = dist[node]
        if level >= half or level + 1 >= best:
            break
        for i in range(ptr[node], ptr[node + 1]):
            nxt = adj[i]
            if dist[nxt] >= 0:
                continue
            dist[nxt] = level + 1
            queue[tail] = nxt
            tail += 1
            other = dist[nxt - n_live if nxt >= n_live else nxt + n_live]
            if other >= 0 and level + 1 + other < best:
                best = level + 1 + other
    _unreach(dist, queue, nonliteral(tail))
    return best if best <= bound else -1


@kernel(refcounts=True)
def forcing_chain(
    flat: IntArray, ptr: IntArray, adj: IntArray, most: int, from_off: bool, sources: BoolArray
) -> IntArray:
    """The shortest forcing chain of at most ``most`` implications in the graph ``ptr``,
    ``adj`` of the live candidates ``flat`` (:func:`implication_graph`): its nodes from the
    assumption to the conclusion, empty when there is none. The first of the shortest,
    candidates in order, on before off (on only unless ``from_off``: eliminations only),
    among the assumptions marked in ``sources`` (by node, ``(cell * N + value) * 2 +
    on``; the others known to have none, :func:`reaching`)."""
    n_live = flat.shape[0]
    nodes = 2 * n_live
    dist = np.full(nodes, -1, dtype=np.int32)
    parent = np.empty(nodes, dtype=np.int32)
    queue = np.empty(nodes, dtype=np.int32)
    best = np.empty(0, dtype=np.int32)
    bound = most
    for k in range(n_live):
        for on in (True, False):
            if not on and not from_off:
                continue
            if not sources[flat[k] * 2 + (1 if on else 0)]:
                continue
            source = k if on else n_live + k
            target = n_live + k if on else k
            d = _loop_length(source, bound, n_live, ptr, adj, dist, queue)
            if d < 0:
                continue
            # the chain itself: the first shortest path breadth-first search finds
            _, reached = _bfs(source, target, d, ptr, adj, dist, parent, queue)
            _unreach(dist, queue, nonliteral(reached))
            best = np.empty(d + 1, dtype=np.int32)
            node = target
            for i in range(d, -1, -1):
                best[i] = node
                node = parent[node]
            bound = d - 1
    for i in range(best.shape[0]):
        node = best[i]
        on = node < n_live
        best[i] = flat[node if on else node - n_live] * 2 + (1 if on else 0)
    return best


@kernel()
def _branches(
    g: int,
    cand: BoolArray,
    index: IntArray,
    units: IntArray,
    per_cell: IntArray,
    places: IntArray,
    lacking: BoolArray,
    branches: IntArray,
) -> int:
    """The branches of group ``g`` (cell g, or value ``(g − cells) % N`` in unit ``(g −
    cells) // N``) written into ``branches`` (live numbers, in the group's order); their
    count, 0 when the group has fewer than two or more than :data:`MOST_BRANCHES` (or its
    unit holds the value)."""
    cells, size = cand.shape
    if g < cells:
        if per_cell[g] < 2 or per_cell[g] > MOST_BRANCHES:
            return 0
    else:
        unit = (g - cells) // size
        v = (g - cells) % size
        if not lacking[unit, v] or places[unit, v] < 2 or places[unit, v] > MOST_BRANCHES:
            return 0
    return group_members(g, -1, cand, index, units, 0, branches, 0)


@kernel()
def group_members(
    group: int,
    skip: int,
    cand: BoolArray,
    index: IntArray,
    units: IntArray,
    offset: int,
    out: IntArray,
    count: int,
) -> int:
    """The live numbers (plus ``offset``: L names their off nodes) of a group's candidates
    but ``skip``, appended to ``out`` from ``count``, in the group's order: cell ``group``,
    or value ``(group − cells) % N`` in unit ``(group − cells) // N``. Returns the new
    count."""
    cells, size = cand.shape
    if group < cells:
        for w in range(size):
            m = index[group * size + w]
            if cand[group, w] and m != skip:
                out[count] = offset + m
                count += 1
        return count
    u = (group - cells) // size
    v = (group - cells) % size
    for q in units[u]:
        m = index[q * size + v]
        if cand[q, v] and m != skip:
            out[count] = offset + m
            count += 1
    return count


@kernel(refcounts=True)
def group_chain(
    cand: BoolArray,
    units: IntArray,
    unit_ptr: IntArray,
    unit_of: IntArray,
    index: IntArray,
    flat: IntArray,
    per_cell: IntArray,
    places: IntArray,
    ptr: IntArray,
    adj: IntArray,
    lacking: BoolArray,
    sources: BoolArray,
) -> IntArray:
    """The cell or unit forcing chain of least complexity in the graph with x-links and
    y-links (:func:`implication_graph`, whose arrays these are): ``[complexity, conclusion,
    unit (−1 for a cell), branches...]`` (nodes as in the module docstring), empty when
    there is none or the board has more than :data:`MOST_TABLED` candidates. Only groups
    with a branch (an on node) marked in ``sources`` (by node, ``(cell * N + value) * 2 +
    on``; the others known to have none, :func:`reaching`)."""
    n_live = flat.shape[0]
    if n_live > MOST_TABLED or n_live == 0:
        return np.empty(0, dtype=np.int32)
    size = cand.shape[1]
    nodes = 2 * n_live
    # what each candidate implies, nearest first, with the distances (CSR by candidate:
    # a search reaches few nodes, a table of every distance would be mostly empty)
    dist = np.full(nodes, -1, dtype=np.int32)
    parent = np.empty(nodes, dtype=np.int32)
    queue = np.empty(nodes, dtype=np.int32)
    reach_ptr = np.zeros(n_live + 1, dtype=np.int32)
    reach = np.empty(16 * nodes, dtype=np.int32)
    reach_dist = np.empty(16 * nodes, dtype=np.int32)
    # the groups searched: those of the sources (with branches or not), and their branches
    branches = np.empty(MOST_BRANCHES, dtype=np.int32)
    n_groups = cand.shape[0] + units.shape[0] * size
    searched = np.zeros(n_groups, dtype=np.bool_)
    for k in range(n_live):
        if sources[flat[k] * 2 + 1]:
            c, v = flat[k] // size, flat[k] % size
            searched[c] = True
            for i in range(unit_ptr[c], unit_ptr[c + 1]):
                searched[cand.shape[0] + unit_of[i] * size + v] = True
    wanted = np.zeros(n_live, dtype=np.bool_)
    for g in range(n_groups):
        if searched[g]:
            count = _branches(g, cand, index, units, per_cell, places, lacking, branches)
            for b in range(count):
                wanted[branches[b]] = True
    for k in range(n_live):
        reached = 0
        if wanted[k]:
            _, reached = _bfs(k, -1, nodes, ptr, adj, dist, parent, queue)
        at = reach_ptr[k]
        if at + reached > reach.shape[0]:
            reach = grown(reach, at, reached)
            reach_dist = grown(reach_dist, at, reached)
        for i in range(reached):
            reach[at + i] = queue[i]
            reach_dist[at + i] = dist[queue[i]]
        reach_ptr[k + 1] = at + reached
        _unreach(dist, queue, nonliteral(reached))
    # the distances of a group's branches but one, spread out by node (−1: not reached);
    # the reach of the one with the fewest nodes near enough to matter is walked
    spread = np.full((MOST_BRANCHES, nodes), -1, dtype=np.int32)
    near = np.empty(MOST_BRANCHES, dtype=np.int32)
    best = np.empty(0, dtype=np.int32)
    least = 1 << 30
    best_group, best_node = -1, -1
    for g in range(n_groups):
        if not searched[g]:
            continue
        count = _branches(g, cand, index, units, per_cell, places, lacking, branches)
        if count == 0:
            continue
        unit = -1 if g < cand.shape[0] else (g - cand.shape[0]) // size
        # every other branch adds one at least: a node further than least − count from a
        # branch cannot make the least (reaches are nearest first)
        walk = 0
        for b in range(count):
            start, end = reach_ptr[branches[b]], reach_ptr[branches[b] + 1]
            near[b] = start + np.searchsorted(reach_dist[start:end], least - count, "right")
            if near[b] - start < near[walk] - reach_ptr[branches[walk]]:
                walk = b
        for b in range(count):
            if b != walk:
                for i in range(reach_ptr[branches[b]], near[b]):
                    spread[b, reach[i]] = reach_dist[i]
        for i in range(reach_ptr[branches[walk]], near[walk]):
            if reach_dist[i] + count > least:
                break
            n = reach[i]
            total = reach_dist[i] + 1
            for b in range(count):
                if b == walk:
                    continue
                if spread[b, n] < 0:
                    total = -1
                    break
                total += spread[b, n] + 1
            # the first node of the first group of least complexity
            if total < 0 or total > least or (total == least and (g > best_group or n > best_node)):
                continue
            least = total
            best_group, best_node = g, n
            best = np.empty(3 + count, dtype=np.int32)
            best[0] = total
            on = n < n_live
            best[1] = flat[n if on else n - n_live] * 2 + (1 if on else 0)
            best[2] = unit
            for b in range(count):
                best[3 + b] = flat[branches[b]] * 2 + 1
        for b in range(count):
            if b != walk:
                for i in range(reach_ptr[branches[b]], near[b]):
                    spread[b, reach[i]] = -1
    return best
