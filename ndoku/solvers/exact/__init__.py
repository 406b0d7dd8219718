"""Exact solver: propagated states searched depth first, counting solutions.

Propagation and its terms (candidates, singles, locked candidates) are
:mod:`ndoku.solvers.propagation`'s; the search adds these.

Glossary
--------
branching
    A node picks a cell and a value; it searches ``cell = value`` first, then ``cell ≠ value``.
    The cell has the fewest candidates (MRV) per weight, a cell weighing 1 + the contradictions
    its units caused so far (dom/wdeg): the search turns to where it keeps failing.
probe
    From N = ``PROBE_FROM`` on, a node first tries both sides of every two-way choice (a
    cell with two candidates, a value with two places in a unit) on a copy, propagating
    singles only. A side that fails is removed from the node (a *failed value*); of the
    choices whose sides both hold, the node branches on the one whose sides narrow it most
    (product of the two sides' scores: candidates removed, cells fixed and cells left with
    two candidates). Probes are not nodes. A pass probes its choices in the order their
    sides scored when last probed anywhere in the tree (the *history*, a failure counting
    most): failing sides are found early, and ties in the score go to choices that were
    strong before (40% fewer nodes than probing in cell order). Before
    probing, a node removes from each unit the values no one-to-one pairing of its free
    cells and missing values allows (all-different matching,
    :func:`ndoku.solvers.propagation.matching`): it halves the nodes, and costs less than the
    probes, which skip it.
node
    A state of the search tree that was propagated: the root, and each ``cell = value`` and
    ``cell ≠ value`` branch.
guess
    A ``cell = value`` branch (the ``cell ≠ value`` one is what is left, so it is a node but
    not a guess).
limit
    The search stops after this many solutions: 2 proves uniqueness (or its absence) cheaply.
part
    A split search's share of one puzzle's tree, searched by one thread: the root, or a
    ``cell ≠ value`` branch another part handed on (:mod:`~ndoku.solvers.exact.split`).

A batch of puzzles of one layout is a ``(puzzles, cells)`` array solved in one kernel call;
the search pauses every so many nodes so that the caller can check the clock, and resumes
where it stopped (its stack lives in arrays the caller keeps).

The rooms, each building on the one before: :mod:`~ndoku.solvers.exact.kernels` (probes,
branching, the search loop), :mod:`~ndoku.solvers.exact.solver` (results, work arrays,
:func:`solve_array`), :mod:`~ndoku.solvers.exact.split` (one search over threads),
:mod:`~ndoku.solvers.exact.each` (many puzzles with rules of their own, in one kernel call)
and :mod:`~ndoku.solvers.exact.batch` (:func:`solve_exact`, :func:`solve_table`,
:func:`solve_batch`, worker processes).
"""

from __future__ import annotations

from ndoku.solvers.exact.batch import (
    PARALLEL_SECONDS,
    join_results,
    solve_batch,
    solve_exact,
    solve_table,
)
from ndoku.solvers.exact.kernels import STOPS
from ndoku.solvers.exact.solver import PROBE_FROM, BatchResult, ExactResult
from ndoku.solvers.tables import LOCKED_FROM

__all__ = [
    "LOCKED_FROM",
    "PARALLEL_SECONDS",
    "PROBE_FROM",
    "STOPS",
    "BatchResult",
    "ExactResult",
    "join_results",
    "solve_batch",
    "solve_exact",
    "solve_table",
]
