"""Restart strategies of the chains: after how many proposals a chain starts again from a fresh
state (:class:`Restarts`).

Glossary
--------
restart
    The chain leaves its state and starts again from a new start state (drawn from
    :func:`~ndoku.solvers.random.restart_seed` of the run's seed and the restart's number);
    its proposal count, its best state and its random stream go on. A chain trapped near a
    wrong near-solution gets another chance, so the rare very long runs get shorter.
run
    The proposals between two restarts. Run ``k`` (from 1) has ``unit · luby(k)`` proposals
    under ``luby`` (1, 1, 2, 1, 1, 2, 4, 1, …: Luby, Sinclair and Zuckerman's sequence, within
    a log factor of the best fixed cut-off for any run-length distribution) or
    ``unit · 2^(k−1)`` under ``geometric``; ``none`` never restarts. Which chains restart
    unless told: :func:`default_restarts`.
unit
    Proposals of the shortest run; default :func:`default_unit`, by the puzzle's free cells
    (tempering: times the replicas, whose proposals are counted together).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass

from ndoku.limits import check_count
from ndoku.solvers.chains.checks import check_choice

#: Restart strategies: Luby's sequence, doubling runs, or none.
RESTARTS = ("luby", "geometric", "none")
#: The default unit: this many proposals per free cell of the puzzle (at least
#: :data:`LEAST_UNIT`), far beyond the few hundred sweeps a chain needs to fall from its
#: start to a few conflicts, so that a restart wastes little of a run (a unit of 5·10⁵
#: proposals made the heavy 16×16 runs of ``benchmarks/bench_restarts.py`` longer still).
UNIT_PER_FREE_CELL = 20_000
LEAST_UNIT = 1_000_000


def luby(k: int) -> int:
    """The k-th term (from 1) of Luby's sequence: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, …

    >>> [luby(k) for k in range(1, 16)]
    [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    """
    while True:
        top = (k + 1).bit_length() - 1  # the largest i with 2^i − 1 ≤ k
        if k == (1 << top) - 1:
            return 1 << (top - 1)
        k -= (1 << top) - 1


@dataclass(frozen=True)
class Restarts:
    """A restart strategy: its ``kind`` (one of :data:`RESTARTS`) and ``unit`` in proposals
    (None: :func:`default_unit` of the puzzle).

    >>> list(itertools.islice(Restarts("luby", 10).lengths(), 7))
    [10, 10, 20, 10, 10, 20, 40]
    >>> list(itertools.islice(Restarts("geometric", 10).lengths(), 4))
    [10, 20, 40, 80]
    >>> Restarts("none").on
    False
    """

    kind: str = "luby"
    unit: int | None = None

    def __post_init__(self) -> None:
        check_choice(self.kind, RESTARTS, "restart strategy")
        if self.unit is not None:
            check_count(self.unit, "restart unit", 1)

    @property
    def on(self) -> bool:
        return self.kind != "none"

    def lengths(self, unit: int | None = None) -> Iterator[float]:
        """The proposals of each run, the first run first (infinite when off); ``unit`` stands
        in for a unit left to the puzzle."""
        unit = self.unit or unit or LEAST_UNIT
        if self.kind == "luby":
            return (unit * luby(k) for k in itertools.count(1))
        if self.kind == "geometric":
            return (unit * 2**k for k in itertools.count())
        return itertools.repeat(math.inf)


#: No restarts: the chain runs on from its one start state.
NO_RESTARTS = Restarts("none")
#: What a pruned Metropolis chain (hybrid) does unless told otherwise; plain chains and
#: tempering do not restart. Measured (benchmarks/bench_restarts.py, bench_acs.py): on the
#: plain chain's Samurai and 16×16 runs the run lengths of a puzzle are close to exponential
#: (spread about as wide as their mean), which no restart shortens, and Luby restarts from
#: 5·10⁵ proposals made them no shorter; a pruned chain that its dive left in a dead end of
#: a half-filled 25×25 escapes by a new dive (none: one of 40 such Lloyd–Amos instances
#: unsolved in 10 s; Luby runs of 10 000 proposals per free cell: all, the slowest in
#: 1.4 s). Tempering's ladder does the escaping itself: with Luby restarts it lost the one
#: instance it needed 84 M proposals for.
DEFAULT_RESTARTS = Restarts("luby")


def default_restarts(pruned: bool) -> Restarts:
    """:data:`DEFAULT_RESTARTS` for a pruned Metropolis chain, :data:`NO_RESTARTS` for a
    plain one.

    >>> default_restarts(True).kind, default_restarts(False).kind
    ('luby', 'none')
    """
    return DEFAULT_RESTARTS if pruned else NO_RESTARTS


def default_unit(free_cells: int) -> int:
    """:data:`UNIT_PER_FREE_CELL` proposals per free cell, at least :data:`LEAST_UNIT`.

    >>> default_unit(10), default_unit(200)
    (1000000, 4000000)
    """
    return max(LEAST_UNIT, UNIT_PER_FREE_CELL * free_cells)
