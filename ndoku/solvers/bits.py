"""Bit and array helpers every kernel shares: set bits of a mask, its lowest and highest bits,
an unsigned index, a copy loop, two arrays joined, the widest row of a CSR listing, an int
that is no literal."""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import extending, types
from numpy.typing import NDArray

from ndoku.jit import kernel

# Untyped for mypy, which would see the decorated functions as typing-time callables.
_intrinsic: Any = extending.intrinsic

#: ``nonliteral(0)`` in a kernel is an int64 0 that numba does not type as the literal 0: a
#: counter started from a plain ``0`` and handed to a called kernel has that kernel compiled
#: once more, for the literal (see the notes on kernels in :mod:`ndoku.solvers.propagation`).
#: Untyped for mypy, which would see numpy integers where the kernels' ints are meant.
nonliteral: Any = np.int64


@_intrinsic
def popcount(typingctx, mask):  # type: ignore[no-untyped-def]
    """Number of set bits of a uint64 (the ``popcnt`` instruction)."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return types.int64(types.uint64), codegen


@_intrinsic
def lowest(typingctx, mask):  # type: ignore[no-untyped-def]
    """Index of the lowest set bit of a non-zero uint64 (``tzcnt``)."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.uint64), codegen


@_intrinsic
def highest(typingctx, mask):  # type: ignore[no-untyped-def]
    """Index of the highest set bit of a non-zero uint64 (63 less ``lzcnt``)."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        zeros = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
        return builder.sub(ir.Constant(ir.IntType(64), 63), zeros)

    return types.int64(types.uint64), codegen


#: ``array[idx(i)]``: ``i`` as an unsigned index. numba lets a negative signed index count
#: from the end, a compare and select at every access that LLVM keeps when the index was read
#: from an array (a cell's peers); an unsigned one it uses as it is: a quarter of a 25×25
#: search's time, in propagation's loops. Only for indices that are never negative.
idx = np.uint64


@kernel(refcounts=True, inline="always")
def copy(source: NDArray[Any], target: NDArray[Any]) -> None:
    """``target[:] = source`` as a plain loop: numba's slice assignment copies the source
    aside first in case the two overlap (it made the exact solver's probes ten times slower),
    and compiles a formatted error for mismatched shapes (a second more per kernel)."""
    for k in range(len(source)):
        target[k] = source[k]


@kernel(refcounts=True)
def joined(head: NDArray[np.int32], tail: NDArray[np.int32]) -> NDArray[np.int32]:
    """``head`` then ``tail`` in one new int32 array: how a technique's kernel returns what it
    found (the pattern, then what it removes)."""
    out = np.empty(head.shape[0] + tail.shape[0], dtype=np.int32)
    copy(head, out)
    copy(tail, out[head.shape[0] :])
    return out


@kernel(refcounts=True, inline="always")
def widest(ptr: NDArray[np.int32]) -> int:
    """The longest row of a CSR listing whose rows start at ``ptr`` (0 for none): a loop,
    since ``np.diff`` and ``np.max`` compile in seconds what this does in a fraction."""
    most = 0
    for k in range(len(ptr) - 1):
        most = max(most, ptr[k + 1] - ptr[k])
    return most
