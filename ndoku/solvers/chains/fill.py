"""The start fill of pruned chains: a random greedy dive through the candidates, fixing cell
after cell and propagating each choice (:class:`GreedyFill`).

Glossary
--------
dive
    A depth-first search from the pruned candidates, at random and on a budget: take the
    free cell with the fewest candidates (a random one among ties), give it a random
    candidate, propagate (naked and hidden singles, locked candidates where
    :func:`~ndoku.solvers.tables.has_locked` says so, and all-different matching from
    :data:`MATCH_FROM`);
    on a contradiction try another of its candidates, and when none is left step back to
    the cell before. After :data:`DIVE_NODES` choices per free cell, or where it cannot step
    back (it keeps the last :data:`DIVE_WINDOW` levels), it stops where it stands. The cells
    it fixed hold distinct symbols in every unit; the chain's start state keeps them and
    fills each box's other free cells with its missing symbols. On a grid with few givens,
    where solutions abound, the dive mostly ends in a solution and the chain has nothing left
    to do; where it stops early, the chain starts from far fewer conflicts than a random fill
    has.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ndoku.jit import compile_notice, kernel
from ndoku.model.puzzle import Puzzle
from ndoku.solvers.bits import copy, lowest, popcount
from ndoku.solvers.propagation import matching, restrict, start, write_values
from ndoku.solvers.random import advance, below
from ndoku.solvers.tables import (
    LOCKED_FROM,
    IntArray,
    Locked,
    Probing,
    Scratch,
    Topology,
    WorkArrays,
)

#: Choices a dive may make per free cell, and the levels it can step back over.
DIVE_NODES = 4
DIVE_WINDOW = 64
#: All-different matching after every choice from this N on (below, at the start only): a
#: 16×16 dive took five times as long with it (1.65 against 0.34 ms on an empty grid) and
#: filled unique puzzles as often (136 and 135 of 136 dives); on 25×25 with 40–45 % given,
#: dives without it filled a fifth as many.
MATCH_FROM = 25
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@dataclass(frozen=True, eq=False)
class GreedyFill:
    """What a dive needs of a pruned puzzle: its layout's tables and every cell's candidates
    (bit ``v − 1`` for value ``v``, as :func:`~.moves.pruned` gives them)."""

    topology: Topology
    candidates: NDArray[np.uint64]

    @classmethod
    def of(cls, puzzle: Puzzle, candidates: NDArray[np.uint64]) -> GreedyFill:
        return cls(Topology.of(puzzle), np.ascontiguousarray(candidates, dtype=np.uint64))

    def dive(self, givens: IntArray, rng: np.random.Generator) -> IntArray:
        """The values a dive from ``givens`` fixed (the givens among them), 0 where it left a
        cell free; its random choices come from ``rng``.

        Examples
        --------
        >>> from ndoku.model.puzzle import read_puzzles
        >>> from ndoku.solvers.chains.moves import pruned
        >>> from ndoku.solvers.random import generator
        >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 0 0\\n0 0 0 0\\n0 0 0 2\\n")
        >>> givens, candidates = pruned(p)
        >>> values = GreedyFill.of(p, candidates).dive(givens, generator(0))
        >>> int(values[0]), int(values[15]), bool((values > 0).all())
        (1, 2, True)
        """
        topology = self.topology
        work = WorkArrays(topology, probing=topology.size >= LOCKED_FROM)
        cand = np.zeros(topology.n_cells, dtype=np.uint64)
        counts = np.zeros(max(topology.n_slots, 1), dtype=np.int8)
        state = np.array([rng.integers(1, 2**63)], dtype=np.uint64)
        window = min(DIVE_WINDOW, topology.n_cells + 1)
        arguments = (
            np.ascontiguousarray(givens, dtype=np.int32), self.candidates, topology.net,
            topology.size, work.locked, work.scratch, work.probing, cand, counts,
            np.zeros((window, len(cand)), dtype=np.uint64),
            np.zeros((window, len(counts)), dtype=np.int8), np.zeros((window, 3), dtype=np.int64),
            state, DIVE_NODES * int((givens == 0).sum()),
        )  # fmt: skip
        small = work.locked is None
        compile_notice(f"the greedy fill ({'small' if small else 'large'})", 10, _dive, arguments)
        values = np.zeros(topology.n_cells, dtype=np.int32)
        if _dive(*arguments) >= 0:
            write_values(cand, values)
        return values


@kernel()
def _dive(
    givens: IntArray,
    marks: NDArray[np.uint64],
    net: tuple[IntArray, ...],
    size: int,
    locked: Locked | None,
    scratch: Scratch,
    probing: Probing | None,
    cand: NDArray[np.uint64],
    counts: NDArray[np.int8],
    saved_cand: NDArray[np.uint64],
    saved_counts: NDArray[np.int8],
    levels: NDArray[np.int64],
    state: NDArray[np.uint64],
    budget: int,
) -> int:
    """Dive (see the module glossary) into ``cand``; free cells left at the end, -1 when the
    givens contradict the marks.

    Level ``d`` of the search keeps, in slot ``d % W`` (W rows of ``saved_cand``), the
    candidates and counts before its choice, and in ``levels`` its cell, the values it
    tried and its free cells. A slot is reused W levels deeper, so the search steps back
    only to levels whose slot still holds them (above ``floor``)."""
    window = saved_cand.shape[0]
    free = start(cand, counts, givens, marks, net, locked, scratch, probing, size)
    s = state[0]
    depth = 0
    floor = 0
    nodes = 0
    while free > 0:
        fewest = 65
        pick = -1
        ties = 0
        for c in range(len(cand)):
            m = cand[c]
            if m & (m - _ONE) == _ZERO:
                continue
            k = popcount(m)
            if k < fewest:
                fewest, pick, ties = k, c, 1
            elif k == fewest:
                ties += 1
                s, bits = advance(s)
                if below(bits, ties) == 0:
                    pick = c
        slot = depth % window
        copy(cand, saved_cand[slot])
        copy(counts, saved_counts[slot])
        floor = max(floor, depth - window + 1)  # the slot's level before this one is gone
        levels[slot, 0] = pick
        levels[slot, 1] = 0
        levels[slot, 2] = free
        while True:  # a value for the cell of this level, stepping back when none is left
            slot = depth % window
            c = levels[slot, 0]
            options = saved_cand[slot, c] & ~np.uint64(levels[slot, 1])
            if options == _ZERO or nodes >= budget:
                if options != _ZERO or depth == floor:  # the budget is spent, or no step back
                    copy(saved_cand[slot], cand)
                    copy(saved_counts[slot], counts)
                    state[0] = s
                    return int(levels[slot, 2])
                depth -= 1
                continue
            nodes += 1
            s, bits = advance(s)
            for _ in range(below(bits, popcount(options))):
                options &= options - _ONE
            bit = _ONE << np.uint64(lowest(options))
            levels[slot, 1] |= np.int64(bit)
            copy(saved_cand[slot], cand)
            copy(saved_counts[slot], counts)
            free = restrict(
                cand, counts, c, cand[c] & ~bit, levels[slot, 2], net, locked, scratch, size
            )
            if probing is not None and free > 0 and size >= MATCH_FROM:
                free = matching(cand, counts, free, net, locked, scratch, probing, size)
            if free >= 0:
                depth += 1
                break
    state[0] = s
    return free
