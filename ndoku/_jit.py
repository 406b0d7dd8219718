"""Shared pieces of the numba kernels: the random number generator, a copy loop and the
compile notice.

Kernels draw from xorshift64* with the state in a one-element uint64 array, so a chain can be
stopped and resumed (a timeout is checked between calls) and the same seed always gives the
same chain.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray

_MULTIPLIER = np.uint64(0x2545F4914F6CDD1D)
_S12, _S25, _S27, _S32 = (np.uint64(k) for k in (12, 25, 27, 32))
_MASK64 = (1 << 64) - 1

#: The ``what`` of each compile notice looked at so far.
_settled: set[str] = set()


def rng_state(seed: int) -> NDArray[np.uint64]:
    """A non-zero generator state from any integer seed (splitmix64 of the seed).

    >>> bool(rng_state(0)[0] != rng_state(1)[0])
    True
    """
    z = (seed * 0x9E3779B97F4A7C15 + 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    z ^= z >> 31
    return np.array([z or 1], dtype=np.uint64)


@njit(cache=True, inline="always")
def _next(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    """Advance xorshift64*: (new state, 64 random bits)."""
    state ^= state >> _S12
    state ^= state << _S25
    state ^= state >> _S27
    return state, state * _MULTIPLIER


@njit(cache=True, inline="always")
def _below(bits: np.uint64, k: int) -> np.uint64:
    """A number in ``0 .. k-1`` from 64 random bits (multiply-shift on the top 32 bits).

    Unsigned on purpose: indexing with it needs no negative-index check (a third faster
    kernels). Cast it before adding it to a signed integer, which numba would make a float.
    """
    return ((bits >> _S32) * np.uint64(k)) >> _S32


@njit(cache=True, inline="always")
def _copy(source: NDArray[Any], target: NDArray[Any]) -> None:
    """``target[:] = source`` as a plain loop: numba's slice assignment copies the source
    aside first in case the two overlap (it made the exact solver's probes ten times slower),
    and compiles a formatted error for mismatched shapes (a second more per kernel)."""
    for k in range(len(source)):
        target[k] = source[k]


def compile_notice(what: str, seconds: float, kernel: Any, arguments: tuple[Any, ...]) -> None:
    """Say on stderr that ``what`` is compiling and about how many ``seconds`` that takes, when
    ``kernel`` is neither compiled in this process nor in numba's cache for the types of
    ``arguments`` (the arguments of the call about to be made).

    Looked at once per ``what`` and process, so it may precede every call of ``kernel``; a
    ``what`` names one set of argument types (one compiled version).
    """
    if what in _settled:
        return
    _settled.add(what)
    if not _is_cached(kernel, arguments):
        print(f"ndoku: compiling {what} (first run only, about {seconds:g} s)…", file=sys.stderr)


def _is_cached(kernel: Any, arguments: tuple[Any, ...]) -> bool:
    """Whether ``kernel`` has a version for the types of ``arguments``, loaded or on disk."""
    try:
        signature = tuple(kernel.typeof_pyval(a) for a in arguments)
        if signature in kernel.overloads:
            return True
        cache = kernel._cache
        key = cache._index_key(signature, kernel.targetctx.codegen())
        return key in cache._cache_file._load_index()
    except Exception:  # numba internals moved: stay quiet rather than guess
        return True
