"""Looking at a chain while it runs: between two calls of its kernel, a callback is shown
where the chain is (a :class:`Glimpse`) and may stop it, or set a Metropolis chain's
temperature; the calls are then cut to take at most :data:`EVERY` seconds, so a page can draw
the energy falling several times a second.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

#: Seconds between two glimpses, at most (on a machine that is not busy elsewhere).
EVERY = 0.2


@dataclass(frozen=True)
class Glimpse:
    """Where a running chain is.

    Attributes
    ----------
    proposals : int
        Moves tried so far (over every replica of a tempering run).
    energy, best_energy : int
        Broken units and rules of the state now, and the least seen (the coldest replica's
        and the best of all, in a tempering run).
    temperature : float
        The temperature now (the coldest rung's, in a tempering run).
    values : ndarray of int32
        The state now, a copy (the coldest replica's).
    energies, temperatures : tuple
        Of a tempering run: each rung's replica energy and temperature, coldest first.
    """

    proposals: int
    energy: int
    best_energy: int
    temperature: float
    values: NDArray[np.int32]
    energies: tuple[int, ...] = ()
    temperatures: tuple[float, ...] = ()


#: Shown each glimpse; returns True to go on, False to stop the chain (its ``stop`` is then
#: ``stopped``), or a Metropolis chain's new temperature.
Watch = Callable[[Glimpse], bool | float]


def watched_size(size: int, done: int, seconds: float, least: int) -> int:
    """The next call's size (``size`` as the deadline fits it), cut to what the last call's
    pace (``done`` units in ``seconds``) fits in :data:`EVERY`, and at least ``least``.

    >>> watched_size(10_000, 5_000, 0.5, 100)  # 10 000 a second: 2 000 in 0.2 s
    2000
    >>> watched_size(10_000, 0, 0.0, 100)  # no pace yet
    10000
    """
    if done > 0 and seconds > 0:
        size = min(size, int(done / seconds * EVERY))
    return max(least, size)
