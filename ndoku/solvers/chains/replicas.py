"""The replicas of parallel tempering: their arrays (:class:`Replicas`), their rounds run in
parallel, and the exchanges between neighbouring rungs (see the glossary of :mod:`.tempering`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import prange
from numpy.typing import NDArray

from ndoku.jit import compile_notice, kernel
from ndoku.solvers.chains.broken import ChainRules
from ndoku.solvers.chains.kernels import acceptance_thresholds, swap_chain
from ndoku.solvers.chains.moves import (
    Dive,
    IntArray,
    SwapSystem,
    initial_state,
    places,
    unit_counts,
)
from ndoku.solvers.random import advance, replica_seed, replica_states, restart_seed

_S11 = np.uint64(11)
_UNIT = 2.0**-53  # 53 random bits times this: uniform in [0, 1)


@dataclass(frozen=True, eq=False)
class Replicas:
    """The arrays of all replicas, indexed by replica (not rung) along the first axis.

    Attributes
    ----------
    values, best_values : ndarray of int32, shape (R, cells)
    place : ndarray of int32, shape (R, groups, N + 1)
        :func:`~.moves.places` of each replica's values.
    counts : ndarray of int32, shape (R, units + 1, N + 1)
    masks : ndarray of uint64, shape (R, units + 1, 2)
    stats : ndarray of int64, shape (R, 5)
        Per replica: energy, best energy, best_at, proposals, acceptances (its own counts).
    rung_of : ndarray of int64, shape (R,)
        The rung each replica runs at.
    states : ndarray of uint64, shape (R + 1,)
        The replicas' random streams, then the exchanges' stream.
    exchanges : ndarray of int64, shape (R - 1, 2)
        Per neighbouring pair of rungs: exchanges tried, exchanges taken.
    """

    system: SwapSystem
    ladder: tuple[float, ...]
    thresholds: NDArray[np.uint64]  # (R, largest ΔE + 1): acceptance_thresholds of each rung
    betas: NDArray[np.float64]
    values: IntArray
    best_values: IntArray
    place: IntArray
    counts: NDArray[np.int32]
    masks: NDArray[np.uint64]
    stats: NDArray[np.int64]
    rung_of: NDArray[np.int64]
    states: NDArray[np.uint64]
    exchanges: NDArray[np.int64]

    @classmethod
    def start(
        cls,
        system: SwapSystem,
        ladder: tuple[float, ...],
        seed: int,
        dives: Sequence[Dive] | None = None,
    ) -> Replicas:
        """Replica ``r`` at rung ``r``, from initial state ``seed · R + r`` (continuing
        ``dives[r]``, its dive made already, when given)."""
        n = len(ladder)
        values = np.stack(
            [
                initial_state(system, replica_seed(seed, n, r), None if dives is None else dives[r])
                for r in range(n)
            ]
        )
        tallies = [unit_counts(system, v) for v in values]
        energies = [e for _, _, e in tallies]
        return cls(
            system=system,
            ladder=ladder,
            thresholds=np.stack([acceptance_thresholds(t, system.largest_change) for t in ladder]),
            betas=1.0 / np.array(ladder),
            values=values,
            best_values=values.copy(),
            place=np.stack([places(system, v) for v in values]),
            counts=np.stack([c for c, _, _ in tallies]),
            masks=np.stack([m for _, m, _ in tallies]),
            stats=np.array([[e, e, 0, 0, 0] for e in energies], dtype=np.int64),
            rung_of=np.arange(n, dtype=np.int64),
            states=replica_states(seed, n),
            exchanges=np.zeros((n - 1, 2), dtype=np.int64),
        )

    def run(self, first: int, rounds: int, budget: int, exchange: bool = True) -> int:
        """Rounds ``first`` .. ``first + rounds - 1`` of ``budget`` proposals per replica,
        each followed by its exchanges; stops after a round that solves. Returns rounds run.

        Without ``exchange``: ``budget`` proposals of one replica each, a part of round
        ``first``, which neither exchanges nor stops when a replica solves (so that the round
        in parts runs as it would whole)."""
        arguments = (
            self.values,
            self.best_values,
            self.place,
            self.counts,
            self.masks,
            *self.system.kernel_arrays,
            self.thresholds,
            self.betas,
            self.rung_of,
            self.states,
            self.stats,
            self.exchanges,
            first,
            rounds,
            budget,
            exchange,
        )
        compile_notice("the tempering rounds", 10, _rounds, arguments)
        return int(_rounds(*arguments))

    def refill(self, seed: int, k: int) -> None:
        """Restart ``k``: every replica from a fresh start state (seeded from its first one's
        seed and ``k``), on the rung it holds; best states kept."""
        n = len(self.ladder)
        for r in range(n):
            values = initial_state(self.system, restart_seed(replica_seed(seed, n, r), k))
            counts, masks, energy = unit_counts(self.system, values)
            self.values[r] = values
            self.place[r] = places(self.system, values)
            self.counts[r] = counts
            self.masks[r] = masks
            self.stats[r, 0] = energy
            if energy < self.stats[r, 1]:
                self.stats[r, 1:3] = energy, self.stats[r, 3]
                self.best_values[r] = values

    @property
    def proposals(self) -> int:
        return int(self.stats[:, 3].sum())

    @property
    def acceptances(self) -> int:
        return int(self.stats[:, 4].sum())

    def trace_row(self) -> tuple[int, int, float]:
        """Total proposals, the lowest energy, and the temperature of the replica holding it."""
        r = int(np.argmin(self.stats[:, 0]))
        return self.proposals, int(self.stats[r, 0]), self.ladder[self.rung_of[r]]


@kernel(refcounts=True)
def exchange_probability(beta_i: float, beta_j: float, energy_i: int, energy_j: int) -> float:
    """The Metropolis swap rule: ``min(1, exp((β_i − β_j)(E_i − E_j)))``.

    The probability that the replicas at inverse temperatures ``beta_i`` and ``beta_j``, with
    energies ``energy_i`` and ``energy_j``, trade rungs. It keeps the joint Boltzmann
    distribution of all rungs stationary.

    >>> exchange_probability(4.0, 2.0, 10, 6)  # the colder one is higher: always
    1.0
    >>> round(exchange_probability(4.0, 2.0, 6, 10), 6) == round(math.exp(-8.0), 6)
    True
    """
    x = (beta_i - beta_j) * (energy_i - energy_j)
    return 1.0 if x >= 0.0 else math.exp(x)


@kernel(refcounts=True)
def exchange(
    betas: NDArray[np.float64],
    rung_of: NDArray[np.int64],
    energies: NDArray[np.int64],
    states: NDArray[np.uint64],
    exchanges: NDArray[np.int64],
    parity: int,
) -> None:
    """Try rungs (parity, parity + 1), (parity + 2, parity + 3) …; the last stream decides."""
    n = len(rung_of)
    at = np.empty(n, dtype=np.int64)  # rung → replica
    for r in range(n):
        at[rung_of[r]] = r
    s = states[n]
    for k in range(parity, n - 1, 2):
        i = at[k]
        j = at[k + 1]
        s, bits = advance(s)
        exchanges[k, 0] += 1
        if (bits >> _S11) * _UNIT < exchange_probability(
            betas[k], betas[k + 1], energies[i], energies[j]
        ):
            exchanges[k, 1] += 1
            rung_of[i] = k + 1
            rung_of[j] = k
    states[n] = s


@kernel(refcounts=True, parallel=True)
def _rounds(
    values: IntArray,
    best_values: IntArray,
    place: IntArray,
    counts: NDArray[np.int32],
    masks: NDArray[np.uint64],
    pairs: NDArray[np.uint32],
    cell_unit_ptr: IntArray,
    cell_units: IntArray,
    allowed: NDArray[np.uint64],
    free: IntArray,
    guide: NDArray[np.uint16],
    group_pairs: NDArray[np.uint32],
    mix: NDArray[np.int64],
    rules: ChainRules | None,
    thresholds: NDArray[np.uint64],
    betas: NDArray[np.float64],
    rung_of: NDArray[np.int64],
    states: NDArray[np.uint64],
    stats: NDArray[np.int64],
    exchanges: NDArray[np.int64],
    first: int,
    rounds: int,
    budget: int,
    exchanging: bool,
) -> int:
    """Rounds of all replicas in parallel, each followed by exchanges; returns rounds run.
    Without ``exchanging``, rounds that neither exchange nor stop at a solving replica."""
    n = values.shape[0]
    for t in range(rounds):
        for r in prange(n):
            swap_chain(
                values[r],
                best_values[r],
                place[r],
                counts[r],
                masks[r],
                pairs,
                cell_unit_ptr,
                cell_units,
                allowed,
                free,
                guide,
                group_pairs,
                mix,
                rules,
                thresholds[rung_of[r]],
                states[r : r + 1],
                stats[r],
                budget,
            )
        if not exchanging:
            continue
        if (stats[:, 0] == 0).any():
            return t + 1
        exchange(betas, rung_of, stats[:, 0].copy(), states, exchanges, (first + t) % 2)
    return rounds
