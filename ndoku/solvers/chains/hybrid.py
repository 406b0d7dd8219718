"""Hybrid's first part: pruning, then ndoku's exact search to a first solution on a budget of
nodes, before the pruned chain (:func:`search_first`).

A grid with many solutions, or one the chains find hard, is often one that the exact search
finishes in a few nodes; what it does not finish within :data:`HYBRID_NODES` is left to the
chain, which starts from the pruned candidates as always.
"""

from __future__ import annotations

import time

from ndoku.limits import DEFAULT_TIMEOUT
from ndoku.model.puzzle import Puzzle
from ndoku.solvers.chains.metropolis import ChainResult
from ndoku.solvers.chains.moves import pruned
from ndoku.solvers.chains.schedule import puzzle_temperature
from ndoku.solvers.exact import ExactResult, solve_exact

#: Search nodes the exact search may take to a first solution: about a second on a 25×25 (a
#: node with its probes takes 0.01-0.1 ms there). On the 630 Lloyd–Amos instances it needs
#: 516 nodes at most, 4 234 before the 25×25 branching by narrowing (benchmarks/bench_acs.py).
HYBRID_NODES = 10_000


def search_first(
    puzzle: Puzzle,
    *,
    seed: int = 0,
    temperature: float | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    max_nodes: int = HYBRID_NODES,
) -> ChainResult | ExactResult | None:
    """Prune, then search for a first solution within ``max_nodes`` nodes.

    Returns
    -------
    ChainResult or ExactResult or None
        A solution as the result of a chain that made no proposal (``stop`` is ``search``;
        ``seed`` and ``temperature`` those the chain would have had), not yet verified; the
        search's result when it proved that there is no solution; None when the chain is to
        go on (no answer within the nodes, or a contradiction that the chain's pruning
        reports).

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> found = search_first(p)
    >>> found.solved, found.stop, found.proposals, found.forced
    (True, 'search', 0, 12)
    """
    start = time.perf_counter()
    narrowed, candidates = pruned(puzzle)
    if candidates is None:
        return None
    if (narrowed > 0).all():  # pruning filled the grid: nothing to search
        values = narrowed
    else:
        found = solve_exact(puzzle, limit=1, max_nodes=max_nodes, timeout=timeout, givens=narrowed)
        if found.status == "limit":
            return None
        if found.values is None:
            return found
        values = found.values
    return ChainResult(
        solved=True, values=values, best_values=values, energy=0, best_energy=0,
        best_at=0, proposals=0, acceptances=0, seconds=time.perf_counter() - start, seed=seed,
        temperature=temperature or puzzle_temperature(puzzle, pruned=True), stop="search",
        forced=int((narrowed > 0).sum() - (puzzle.givens > 0).sum()),
    )  # fmt: skip
