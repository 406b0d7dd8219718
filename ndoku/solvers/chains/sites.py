"""The single-site move set: one free cell takes another value (:class:`SiteSystem`, its
start states and energies); its kernel is in :mod:`.kernels`.

Glossary (the terms of :mod:`.moves` apply too)
-----------------------------------------------
energy
    The number of peer pairs holding the same symbol, a pair with a given counting
    :data:`GIVEN_PENALTY`, plus the broken count of each constraint of the puzzle's rules
    (:mod:`.broken`); 0 exactly when the puzzle is solved.
conflicts
    ``conflicts[c, s]``, the energy that free cell ``c`` would share with its peers if it held
    ``s`` (free peers holding ``s`` count 1, given ones :data:`GIVEN_PENALTY`). ΔE of a change
    x → y is ``conflicts[c, y] − conflicts[c, x]``, plus the change of the broken counts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import NdokuError
from ndoku.limits import CHAIN_MAX_SYMBOLS
from ndoku.model.puzzle import Puzzle
from ndoku.solvers.chains.broken import ChainRules, chain_rules, largest_rule_change, rule_energy
from ndoku.solvers.random import generator

IntArray = NDArray[np.int32]

#: The energy of a peer pair in which one cell is a given (a free pair counts 1): a clash
#: with a given is surely wrong, as in the textbook chain this move set follows.
GIVEN_PENALTY = 5


@dataclass(frozen=True, eq=False)
class SiteSystem:
    """Plain arrays the single-site kernel works on.

    Attributes
    ----------
    free : ndarray of int32
        The free cells; a proposal picks one of them and one of the N − 1 other values.
    free_peer_ptr, free_peers : ndarray of int32
        CSR over positions in ``free`` → the free peers (cell numbers), whose ``conflicts``
        follow a change.
    peer_ptr, peers : ndarray of int32
        CSR of cell → every peer (the puzzle's peer graph).
    rules : ChainRules or None
        The puzzle's constraints (:func:`~.broken.chain_rules`); None: it has none.
    """

    size: int
    free: IntArray
    free_peer_ptr: IntArray
    free_peers: IntArray
    peer_ptr: IntArray
    peers: IntArray
    givens: IntArray
    rules: ChainRules | None = None

    @property
    def largest_change(self) -> int:
        """The largest ΔE of a move: all of a cell's peers, given ones weighted, and its
        constraints."""
        weight = np.where(self.givens[self.peers] > 0, GIVEN_PENALTY, 1)
        per_cell = np.add.reduceat(weight, self.peer_ptr[:-1]) if len(weight) else np.zeros(1)
        rules = largest_rule_change(self.rules, self.size)
        return int(per_cell[np.diff(self.peer_ptr) > 0].max(initial=0)) + rules


def single_site_system(puzzle: Puzzle, givens: IntArray | None = None) -> SiteSystem:
    """The free cells and their peers, from the puzzle's peer graph.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> system = single_site_system(p)
    >>> len(system.free), system.largest_change  # 7 peers, up to 3 of them given
    (12, 19)
    """
    if puzzle.size > CHAIN_MAX_SYMBOLS:
        raise NdokuError(f"the Metropolis solver handles up to {CHAIN_MAX_SYMBOLS} symbols")
    fixed = puzzle.givens if givens is None else givens
    peer_ptr, peers = puzzle.peers
    free = np.flatnonzero(fixed == 0).astype(np.int32)
    lists = [peers[peer_ptr[c] : peer_ptr[c + 1]] for c in free]
    kept = [p[fixed[p] == 0] for p in lists]
    free_peer_ptr = np.zeros(len(free) + 1, dtype=np.int32)
    free_peer_ptr[1:] = np.cumsum([len(p) for p in kept])
    free_peers = np.concatenate([*kept, np.zeros(0, np.int32)]).astype(np.int32)
    return SiteSystem(
        puzzle.size, free, free_peer_ptr, free_peers, peer_ptr, peers, fixed, chain_rules(puzzle)
    )


def random_state(system: SiteSystem, seed: int) -> IntArray:
    """Givens kept; each free cell a random symbol (from
    :func:`~ndoku.solvers.random.generator` of ``seed``)."""
    rng = generator(seed)
    values = system.givens.astype(np.int32)
    values[system.free] = rng.integers(1, system.size + 1, len(system.free))
    return values


def site_conflicts(system: SiteSystem, values: IntArray) -> tuple[NDArray[np.int32], int]:
    """``conflicts[c, s]`` (see the glossary; rows of given cells unused) and the energy.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> system = single_site_system(p)
    >>> values = p.givens.copy()
    >>> values[system.free] = 1  # 28 free pairs clash, and 7 pairs with the given 1
    >>> conflicts, energy = site_conflicts(system, values)
    >>> energy, int(conflicts[1, 1])  # cell 1: 5 free peers and the given 1
    (63, 10)
    """
    n_cells = len(values)
    owner = np.repeat(np.arange(n_cells), np.diff(system.peer_ptr))
    given = system.givens[system.peers] > 0
    weight = np.where(given | (system.givens[owner] > 0), GIVEN_PENALTY, 1)
    conflicts = np.zeros((n_cells, system.size + 1), dtype=np.int32)
    np.add.at(conflicts, (owner, values[system.peers]), np.where(given, GIVEN_PENALTY, 1))
    clash = (values[owner] == values[system.peers]) & (owner < system.peers)
    return conflicts, int(weight[clash].sum()) + rule_energy(system.rules, values)
