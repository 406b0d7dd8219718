"""Chains as steps: forcing chains (X, XY, alternating inference), cell and unit forcing
chains, Nishio and dynamic forcing chains, rated by their length as on the Sukaku Explainer
scale; the searches themselves are the kernels of :mod:`.implications`.

Ratings: a forcing chain is 6.6 on one value (X-chain) or on bivalue cells only (XY-chain),
7.0 when it mixes both (alternating inference chain); Nishio 7.5, cell and unit forcing
chains 8.0, dynamic forcing chains 8.5; each plus a tenth for every length threshold its
complexity passes (:func:`length_bonus`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

import numpy as np

from ndoku.solvers.logic.board import Board, BoolArray, IntArray
from ndoku.solvers.logic.dynamic import contradiction
from ndoku.solvers.logic.implications import (
    MOST_TABLED,
    forcing_chain,
    group_chain,
    implication_graph,
    reaching,
    without_y_links,
)
from ndoku.solvers.logic.techniques import Step, keep, recall

#: Implications a forcing chain may run through (longer ones are rated past 9 anyway).
MOST_LINKS = 40
#: (name, base rating, y-links) of the forcing chains (all with x-links), easiest first.
FORCING = (
    ("X-chain", 6.6, False),
    ("alternating inference chain", 7.0, True),
)


def length_bonus(complexity: int) -> float:
    """A tenth per threshold passed by ``complexity − 2``: 4, 6, 8, 12, 16, 24, 32, … (each
    threshold half as much again as the one before, then a third as much again, in turn)."""
    length = complexity - 2
    threshold, bonus, half = 4, 0, True
    while length > threshold:
        bonus += 1
        threshold = threshold * 3 // 2 if half else threshold * 4 // 3
        half = not half
    return bonus / 10


def arrays(board: Board) -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray]:
    frame = board.puzzle.frame
    unit_ptr, unit_of = frame.cell_units
    peer_ptr, peers = frame.peers
    return board.tables.units, unit_ptr, unit_of, peer_ptr, peers


#: What :func:`.implications.implication_graph` returns: index, flat, per_cell, places, ptr, adj.
Graph = tuple[IntArray, IntArray, IntArray, IntArray, IntArray, IntArray]


def graph(board: Board, use_y: bool) -> Graph:
    """The board's implication graph, with y-links when ``use_y``: made once per state of
    the board, for every chain technique of a round (without y-links, from the one with
    them)."""
    full = board.derived("implication graph", lambda b: implication_graph(b.cand, *arrays(b)))
    if use_y:
        return full
    index, flat, per_cell, places, ptr, adj = full
    return board.derived(
        "x-links only",
        lambda b: (
            index,
            flat,
            per_cell,
            places,
            *without_y_links(b.cand, flat, per_cell, ptr, adj),
        ),
    )


#: An empty array: what a dynamic chain search kept before it first kept anything.
_NONE = np.zeros(0, dtype=np.int32)


def search_anew(
    board: Board,
    key: Hashable,
    use_y: bool,
    search: Callable[[Graph, BoolArray], IntArray],
    whole: bool = True,
) -> IntArray:
    """``search(graph, sources)`` on the board's graph (with y-links when ``use_y``), empty
    when it finds no chain: from every assumption, or, when the last search under ``key``
    found none (on a board with these candidates or more), only from those that lead to
    a change since (:func:`.implications.reaching`). A search that was not ``whole`` (it
    looked at no assumption) is not remembered as finding none."""
    near, kept = recall(board, key)
    found_graph = graph(board, use_y)
    sources = reaching(near, *kept) if kept else np.ones(2 * len(near), dtype=bool)
    found = search(found_graph, sources)
    if len(found) or not whole:
        board.memory.pop(key, None)
    else:
        _, flat, _, _, ptr, adj = found_graph
        keep(board, key, (flat, ptr, adj))
    return found


def node_of(node: int, size: int) -> tuple[int, int, bool]:
    """(cell, value from 1, on) of a kernel's node."""
    return node // 2 // size, node // 2 % size + 1, bool(node & 1)


def _conclusion(node: int, size: int) -> dict[str, tuple[tuple[int, int], ...]]:
    cell, value, on = node_of(node, size)
    return {"placements": ((cell, value),)} if on else {"eliminations": ((cell, value),)}


def forcing_chains(board: Board) -> Step | None:
    """The forcing chain of least rating (X-chains, then XY-chains, then mixed, at a tie)."""
    best: Step | None = None
    size = board.tables.size
    for name, base, use_y in FORCING:
        if best is not None and base >= best.rating:
            break
        nodes = search_anew(
            board, ("forcing chains", name), use_y,
            lambda g, sources: forcing_chain(g[1], g[4], g[5], MOST_LINKS, True, sources),
        )  # fmt: skip
        if not len(nodes):
            continue
        rating = round(base + length_bonus(len(nodes)), 1)
        if best is None or rating < best.rating:
            cells = tuple(node_of(int(n), size)[0] for n in nodes)
            digits = tuple(sorted({node_of(int(n), size)[1] for n in nodes}))
            best = Step(
                name, rating, cells, (), digits, chain=tuple(int(n) for n in nodes),
                **_conclusion(int(nodes[-1]), size),
            )  # fmt: skip
    return best


def group_forcing_chain(board: Board) -> Step | None:
    """Every candidate of a cell, or every place of a value in a unit, implies one node."""
    lacking = board.lacking()
    found = search_anew(
        board, "cell and unit forcing chains", True,
        lambda g, sources: group_chain(board.cand, *arrays(board)[:3], *g, lacking, sources),
        whole=len(graph(board, True)[1]) <= MOST_TABLED,
    )  # fmt: skip
    if not len(found):
        return None
    size = board.tables.size
    complexity, conclusion, unit = int(found[0]), int(found[1]), int(found[2])
    branches = tuple(node_of(int(n), size)[:2] for n in found[3:])
    name = "cell forcing chain" if unit < 0 else "unit forcing chain"
    return Step(
        name, round(8.0 + length_bonus(complexity), 1), tuple(c for c, _ in branches),
        () if unit < 0 else (unit,), tuple(sorted({v for _, v in branches})),
        chain=(conclusion,), **_conclusion(conclusion, size),
    )  # fmt: skip


def dynamic_chain(one_value: bool) -> Callable[[Board], Step | None]:
    """An assumption that dynamic implications take to a contradiction: on its own value
    only (Nishio, 7.5), or on every value (a dynamic forcing chain, 8.5)."""
    name, base = ("Nishio", 7.5) if one_value else ("dynamic forcing chain", 8.5)

    def find(board: Board) -> Step | None:
        units, unit_ptr, unit_of, _, _ = arrays(board)
        # what the last search knew of each assumption (nothing: six empty arrays)
        near, known = recall(board, name, (_NONE,) * 6)
        index, flat, _, _, ptr, adj = graph(board, not one_value)
        found, *now = contradiction(
            board.cand, units, unit_ptr, unit_of, index, flat, ptr, adj, board.lacking(),
            one_value, near, *known,
        )  # fmt: skip
        keep(board, name, tuple(now))
        if not len(found):
            return None
        cell, value, _ = node_of(int(found[1]), board.tables.size)
        rating = round(base + length_bonus(int(found[0])), 1)
        return Step(name, rating, (cell,), (), (value,), eliminations=((cell, value),))

    return find
