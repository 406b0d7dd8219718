"""Shared pieces of the numba kernels: the random number generator and the compile notice.

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

_notified = False


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


def compile_notice(*kernels: Any) -> None:
    """Say once on stderr that kernels are being compiled, when numba's cache lacks them."""
    global _notified
    if _notified:
        return
    _notified = True
    if not all(_is_cached(kernel) for kernel in kernels):
        print("ndoku: compiling kernels (first run only, takes a few seconds)…", file=sys.stderr)


def _is_cached(kernel: Any) -> bool:
    """Whether numba's on-disk cache holds a compiled version of ``kernel``."""
    if kernel.signatures:
        return True
    try:
        return bool(kernel._cache._cache_file._load_index())
    except Exception:  # numba internals moved: stay quiet rather than guess
        return True
