"""Randomness of every solver: the xorshift64* generator the kernels draw from, and how a
seed becomes generator states.

Kernels draw from xorshift64* with the state in a one-element uint64 array, so a chain can be
stopped and resumed (a timeout is checked between calls) and the same seed always gives the
same chain.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

_MULTIPLIER = np.uint64(0x2545F4914F6CDD1D)
_S12, _S25, _S27, _S32 = (np.uint64(k) for k in (12, 25, 27, 32))
_MASK64 = (1 << 64) - 1


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
def advance(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    """Advance xorshift64*: (new state, 64 random bits)."""
    state ^= state >> _S12
    state ^= state << _S25
    state ^= state >> _S27
    return state, state * _MULTIPLIER


@njit(cache=True, inline="always")
def below(bits: np.uint64, k: int) -> np.uint64:
    """A number in ``0 .. k-1`` from 64 random bits (multiply-shift on the top 32 bits).

    Unsigned on purpose: indexing with it needs no negative-index check (a third faster
    kernels). Cast it before adding it to a signed integer, which numba would make a float.
    """
    return ((bits >> _S32) * np.uint64(k)) >> _S32
