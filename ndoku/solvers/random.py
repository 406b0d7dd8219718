"""Randomness of every solver: how a seed becomes random streams, and the xorshift64* generator
the kernels draw from.

One seed, one scheme: every stream a run uses is derived from its seed by one function here,
so the same seed gives the same run wherever it comes from.

- :func:`generator`: numpy's default generator of the seed, for what is drawn in Python before
  a kernel runs (a chain's start state, a generated puzzle's grid and the order its givens go).
- :func:`draw_seed`: the seed of a chain started from such a generator's draws.
- :func:`chain_state`: a Metropolis chain's kernel stream, splitmix64 of the seed.
- :func:`restart_seed`: the start state of a chain's k-th restart.
- :func:`replica_seed`, :func:`replica_states`: parallel tempering with R replicas; replica
  ``r`` starts from ``seed · R + r`` (through :func:`generator`), and the R replica streams
  and the exchanges' stream come from ``SeedSequence([seed, R])``.

Kernels draw from xorshift64* with the state in a one-element uint64 array, so a chain can be
stopped and resumed (a timeout is checked between calls) and the same seed always gives the
same chain.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ndoku.jit import kernel

_MULTIPLIER = np.uint64(0x2545F4914F6CDD1D)
_S12, _S25, _S27, _S32 = (np.uint64(k) for k in (12, 25, 27, 32))
_MASK64 = (1 << 64) - 1
_RESTART_TAG = 0x5E57  # keeps restart seeds apart from replica_states' SeedSequence([seed, R])


def generator(seed: int) -> np.random.Generator:
    """numpy's default generator (PCG64) of ``seed``, for draws made outside the kernels.

    >>> bool(generator(3).integers(100) == generator(3).integers(100))
    True
    """
    return np.random.default_rng(seed)


def draw_seed(rng: np.random.Generator) -> int:
    """A seed in ``0 .. 2**31 - 1`` drawn from ``rng``, for a chain that a run starts along the way.

    >>> draw_seed(generator(0)) == draw_seed(generator(0))
    True
    """
    return int(rng.integers(2**31))


def chain_state(seed: int) -> NDArray[np.uint64]:
    """A non-zero generator state from any integer seed (splitmix64 of the seed).

    >>> bool(chain_state(0)[0] != chain_state(1)[0])
    True
    """
    z = (seed * 0x9E3779B97F4A7C15 + 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    z ^= z >> 31
    return np.array([z or 1], dtype=np.uint64)


def restart_seed(seed: int, k: int) -> int:
    """The seed of the start state of restart ``k`` (from 1) of the chain of ``seed``
    (:func:`generator` of it fills the state), mixed by ``SeedSequence`` so that the restarts of
    neighbouring seeds do not share states.

    >>> restart_seed(0, 1) == restart_seed(0, 1) != restart_seed(1, 1)
    True
    """
    state = np.random.SeedSequence([seed, k, _RESTART_TAG]).generate_state(1, np.uint32)
    return int(state[0])


def replica_seed(seed: int, replicas: int, r: int) -> int:
    """The seed of replica ``r``'s start state among ``replicas``: ``seed · replicas + r``.

    >>> [replica_seed(2, 4, r) for r in range(4)]
    [8, 9, 10, 11]
    """
    return seed * replicas + r


def replica_states(seed: int, replicas: int) -> NDArray[np.uint64]:
    """``replicas + 1`` non-zero generator states: one per replica, then the exchanges'.

    ``SeedSequence`` mixes (seed, replicas) into independent 64-bit states; a zero state,
    which xorshift64* never leaves, becomes 1.

    >>> states = replica_states(0, 4)
    >>> len(states), len(set(states.tolist())), bool((states != 0).all())
    (5, 5, True)
    """
    states = np.random.SeedSequence([seed, replicas]).generate_state(replicas + 1, np.uint64)
    return np.where(states == 0, np.uint64(1), states)


@kernel(refcounts=True, inline="always")
def advance(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    """Advance xorshift64*: (new state, 64 random bits)."""
    state ^= state >> _S12
    state ^= state << _S25
    state ^= state >> _S27
    return state, state * _MULTIPLIER


@kernel(refcounts=True, inline="always")
def below(bits: np.uint64, k: int) -> np.uint64:
    """A number in ``0 .. k-1`` from 64 random bits (multiply-shift on the top 32 bits).

    Unsigned on purpose: indexing with it needs no negative-index check (a third faster
    kernels). Cast it before adding it to a signed integer, which numba would make a float.
    """
    return ((bits >> _S32) * np.uint64(k)) >> _S32
