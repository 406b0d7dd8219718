"""CP-SAT (OR-tools) models of variant puzzles: the competitor ``bench_variants`` times ndoku
against, on the same puzzles (benchmark only; ortools is no dependency of ndoku).

A model is one integer variable per cell (domain 1..N, a given's value, a cell's pencil marks),
``AddAllDifferent`` per unit, ``!=`` per rule-added peer pair, and one encoding per constraint
of :data:`ndoku.model.constraints.PRIMITIVES` that the puzzle's rules lower to: cages as
all-different plus a sum, outside sums and arrows as weighted sums, skyscrapers with a running
maximum and a boolean per cell seen, dots as tables of the allowed (or forbidden) pairs,
thermometers and X/V as linear relations, even/odd as domains. Sandwich constraints have no
encoding here (no benchmark set has any).

The published figure for CP-SAT is one solve, without proving uniqueness (as others report
it); :func:`solve` can also forbid the solution found and solve again, which proves it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ndoku.model.constraints import PAIRS, Constraint, holds
from ndoku.model.puzzle import Puzzle

#: Pair kinds CP-SAT takes as a linear relation; the other pairs become tables.
_LINEAR = ("differ", "less", "less-equal", "equal", "pair-sum", "not-pair-sum")


def cp_model() -> Any:
    """The ``ortools.sat.python.cp_model`` module.

    Raises
    ------
    ImportError
        Naming the one command that installs it (``make bench`` does).
    """
    try:
        from ortools.sat.python import cp_model as module
    except ImportError as exc:
        raise ImportError(
            "CP-SAT needs ortools, which only the benchmarks use (make bench installs it): "
            "pip install ortools"
        ) from exc
    return module


@dataclass(frozen=True)
class Model:
    """A puzzle's CP-SAT model: the model and its cell variables (in cell order)."""

    model: Any
    cells: list[Any]


def build(puzzle: Puzzle) -> Model:
    """The CP-SAT model of a puzzle and its rules.

    Raises
    ------
    ValueError
        For a constraint kind this module has no encoding for.
    """
    cp = cp_model()
    model = cp.CpModel()
    size = puzzle.size
    lowered = puzzle.lowered
    allowed = [set(range(1, size + 1)) for _ in range(puzzle.n_cells)]
    for cell, given in enumerate(puzzle.givens.tolist()):
        if given:
            allowed[cell] = {given}
    if puzzle.candidates is not None:
        for cell, marks in enumerate(puzzle.candidates.tolist()):
            allowed[cell] &= {v for v in range(1, size + 1) if marks >> (v - 1) & 1}
    for constraint in lowered.constraints:
        if constraint.kind == "allowed":
            [cell] = constraint.cells
            allowed[cell] &= {v for v in range(1, size + 1) if constraint.number >> (v - 1) & 1}
    x = [
        model.NewIntVarFromDomain(cp.Domain.FromValues(sorted(values)), f"x{cell}")
        for cell, values in enumerate(allowed)
    ]
    for unit in range(len(puzzle.units)):
        model.AddAllDifferent([x[c] for c in puzzle.units[unit].tolist()])
    for a, b in lowered.peers:
        model.Add(x[a] != x[b])
    for constraint in lowered.constraints:
        _encode(model, x, constraint, size)
    return Model(model, x)


def _encode(model: Any, x: list[Any], constraint: Constraint, size: int) -> None:
    kind, n = constraint.kind, constraint.number
    v = [x[c] for c in constraint.cells]
    if kind == "allowed":
        return  # a domain, set when the variables were made
    if kind in _LINEAR:
        a, b = v
        relations = {
            "differ": a != b,
            "less": a < b,
            "less-equal": a <= b,
            "equal": a == b,
            "pair-sum": a + b == n,
            "not-pair-sum": a + b != n,
        }
        model.Add(relations[kind])
    elif kind in PAIRS:
        table = [
            (p, q)
            for p in range(1, size + 1)
            for q in range(1, size + 1)
            if holds(Constraint(kind, (0, 1), n), [p, q], size)
        ]
        model.AddAllowedAssignments(v, table)
    elif kind == "sum":
        model.Add(sum(w * var for w, var in zip(constraint.weights, v, strict=True)) == n)
    elif kind in ("cage", "distinct", "renban"):
        model.AddAllDifferent(v)
        if kind == "cage":
            model.Add(sum(v) == n)
        elif kind == "renban":
            low, high = model.NewIntVar(1, size, ""), model.NewIntVar(1, size, "")
            model.AddMinEquality(low, v)
            model.AddMaxEquality(high, v)
            model.Add(high - low == len(v) - 1)
    elif kind == "skyscraper":
        _skyscraper(model, v, n, size)
    else:
        raise ValueError(f"the CP-SAT models have no encoding for {kind!r} constraints")


def _skyscraper(model: Any, v: list[Any], count: int, size: int) -> None:
    """``count`` of ``v`` are taller than every one before them: a running maximum, and a
    boolean per cell after the first that says it is seen."""
    tallest = v[0]
    seen = []
    for var in v[1:]:
        taller = model.NewBoolVar("")
        model.Add(var > tallest).OnlyEnforceIf(taller)
        model.Add(var <= tallest).OnlyEnforceIf(taller.Not())
        running = model.NewIntVar(1, size, "")
        model.AddMaxEquality(running, [tallest, var])
        seen.append(taller)
        tallest = running
    model.Add(1 + sum(seen) == count)


@dataclass(frozen=True)
class Solved:
    """One CP-SAT run: the values found (None when none), whether the solution is unique
    (None when not asked), and the seconds of each ``Solve`` call (the first finds, the
    second, if asked, proves no other)."""

    values: list[int] | None
    unique: bool | None
    seconds: tuple[float, ...]


def solve(puzzle: Puzzle, *, prove: bool = False, workers: int = 1) -> Solved:
    """Solve a puzzle with CP-SAT, timing only the ``Solve`` calls (not building the model);
    with ``prove``, forbid the solution found and solve again: none means it is unique.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> found = solve(p, prove=True)
    >>> found.values[:4], found.unique
    ([1, 3, 2, 4], True)
    """
    cp = cp_model()
    built = build(puzzle)
    solver = cp.CpSolver()
    solver.parameters.num_workers = workers
    start = time.perf_counter()
    status = solver.Solve(built.model)
    seconds = [time.perf_counter() - start]
    if status not in (cp.OPTIMAL, cp.FEASIBLE):
        return Solved(None, None, tuple(seconds))
    values = [int(solver.Value(var)) for var in built.cells]
    if not prove:
        return Solved(values, None, tuple(seconds))
    built.model.AddForbiddenAssignments(built.cells, [values])
    start = time.perf_counter()
    again = solver.Solve(built.model)
    seconds.append(time.perf_counter() - start)
    return Solved(values, again == cp.INFEASIBLE, tuple(seconds))
