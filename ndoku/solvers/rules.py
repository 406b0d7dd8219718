"""Variant rules in the propagation: the pass that narrows every constraint whose cells
changed (:func:`apply_rules`), called by :func:`ndoku.solvers.propagation.settle` when units
alone find nothing more; the constraints' arrays are :func:`ndoku.solvers.tables.rule_tables`.

A constraint is narrowed again only when its cells' candidates differ from the last ones
it was settled in (kept in ``saved``): :func:`~ndoku.solvers.narrowing.narrow` leaves a fixed
point of the constraint's kernel, which reads nothing but the constraint's own cells, so the
same candidates would give the same answer; and fixed cells it leaves are a fixed point of a
kernel that is exact on fixed cells, so they keep the rule. That holds across the search's
levels, whose states come and go: ``saved`` is a state the constraint was settled in, not
the current one.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import extending, types
from numpy.typing import NDArray

from ndoku.jit import kernel
from ndoku.solvers.narrowing import narrow
from ndoku.solvers.removal import blame, drop
from ndoku.solvers.tables import IntArray, RuledScratch, Scratch

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
# Untyped for mypy, which would see the decorated functions as typing-time callables.
_overload: Any = extending.overload


def rules_pass(
    cand: NDArray[np.uint64],
    counts: NDArray[np.int8],
    pending: int,
    n_hidden: int,
    net: tuple[IntArray, ...],
    scratch: Scratch,
    size: int,
) -> tuple[int, int, bool]:
    """In a kernel, :func:`apply_rules` when ``scratch`` carries a puzzle's rules (its seventh
    array tuple), else nothing (``(pending, n_hidden, False)``): chosen by the type of
    ``scratch`` when the kernel compiles, so a puzzle without rules compiles none of the
    rules' kernels (seconds of a first run)."""
    raise NotImplementedError("called only inside kernels")


@_overload(rules_pass, jit_options={"cache": True})
def _rules_pass(cand, counts, pending, n_hidden, net, scratch, size):  # type: ignore[no-untyped-def]
    if isinstance(scratch, types.BaseTuple) and len(scratch) > 6:

        def ruled(cand, counts, pending, n_hidden, net, scratch, size):  # type: ignore[no-untyped-def]
            return apply_rules(cand, counts, pending, n_hidden, net, scratch, size)

        return ruled

    def plain(cand, counts, pending, n_hidden, net, scratch, size):  # type: ignore[no-untyped-def]
        return pending, n_hidden, False

    return plain


@kernel()
def apply_rules(
    cand: NDArray[np.uint64],
    counts: NDArray[np.int8],
    pending: int,
    n_hidden: int,
    net: tuple[IntArray, ...],
    scratch: RuledScratch,
    size: int,
) -> tuple[int, int, bool]:
    """Narrow every constraint whose cells changed since it was last settled, removing what
    it excludes as propagation does (counts, hidden singles, the fix queue): ``(pending,
    n_hidden, found)``, ``n_hidden`` -1 on a contradiction."""
    rules = scratch[6]
    kinds, ptr, cells, saved, out = rules[0], rules[1], rules[2], rules[8], rules[9]
    queue, weights_of = scratch[0], scratch[2]
    found = False
    for k in range(len(kinds)):
        start, end = ptr[k], ptr[k + 1]
        same = True
        for i in range(start, end):
            if cand[cells[i]] != saved[i]:
                same = False
                break
        if same:
            continue
        if narrow(k, cand, rules, size) < 0:
            for i in range(start, end):
                blame(cells[i], net, weights_of)
            return pending, -1, found
        narrowed = False
        for i in range(start, end):
            c = cells[i]
            gone = cand[c] & ~out[i]
            if gone == _ZERO:
                continue
            if out[i] == _ZERO:
                blame(c, net, weights_of)
                return pending, -1, found
            narrowed = True
            n_hidden = drop(cand, counts, n_hidden, c, gone, net, scratch, size)
            if n_hidden < 0:
                return pending, -1, True
            left = cand[c]
            if left & (left - _ONE) == _ZERO:
                queue[pending] = c
                pending += 1
        found |= narrowed
        for i in range(start, end):  # settled: these candidates need no second look
            saved[i] = cand[cells[i]]
    return pending, n_hidden, found
