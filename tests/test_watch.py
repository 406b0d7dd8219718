"""Watching a chain: the glimpses a running Metropolis chain or tempering run shows between
kernel calls (its state and energy, checked against the naive energy), a watch that stops
it, and a watched chain that runs exactly as an unwatched one."""

from __future__ import annotations

import numpy as np
import pytest

from ndoku.errors import NdokuError
from ndoku.solvers.chains import metropolis, tempering
from ndoku.solvers.chains.watch import Glimpse

from helpers import kaggle, naive_energy


def test_a_watched_chain_shows_its_state_and_runs_as_an_unwatched_one() -> None:
    puzzle = kaggle(3)[0]
    seen: list[Glimpse] = []
    # hot: it does not solve within the proposals, so every call is watched
    watched = metropolis(
        puzzle, temperature=3.0, seed=4, max_proposals=400_000, watch=lambda g: not seen.append(g)
    )
    alone = metropolis(puzzle, temperature=3.0, seed=4, max_proposals=400_000)
    assert watched.stop == alone.stop == "max-proposals"
    assert np.array_equal(watched.values, alone.values) and watched.energy == alone.energy
    assert len(seen) >= 2
    proposals = [g.proposals for g in seen]
    assert proposals == sorted(proposals) and proposals[-1] == watched.proposals
    for g in seen:
        assert g.energy == naive_energy(puzzle, g.values) and g.best_energy <= g.energy
        assert g.temperature == 3.0 and g.energies == ()
    assert seen[-1].values is not watched.values  # a copy, which later calls do not change


def test_a_watch_stops_the_chain_where_it_says() -> None:
    puzzle = kaggle(3)[0]
    seen: list[Glimpse] = []

    def three(glimpse: Glimpse) -> bool:
        seen.append(glimpse)
        return len(seen) < 3

    run = metropolis(puzzle, temperature=3.0, seed=4, max_proposals=10**9, watch=three)
    assert run.stop == "stopped" and not run.solved and len(seen) == 3
    assert run.proposals == seen[-1].proposals
    assert np.array_equal(run.values, seen[-1].values)


def test_a_tempering_run_shows_every_rung() -> None:
    puzzle = kaggle(3)[0]
    seen: list[Glimpse] = []

    def two(glimpse: Glimpse) -> bool:
        seen.append(glimpse)
        return len(seen) < 2

    run = tempering(puzzle, seed=2, prune=False, threads=1, temperatures=(2.0, 3.0, 5.0), watch=two)
    assert run.stop == "stopped" and len(seen) == 2
    for g in seen:
        assert g.temperatures == (2.0, 3.0, 5.0) and len(g.energies) == 3
        assert g.energy == g.energies[0] == naive_energy(puzzle, g.values)
        assert g.best_energy <= min(g.energies)


def test_a_watch_steers_a_chain_to_another_temperature() -> None:
    puzzle = kaggle(3)[0]
    seen: list[Glimpse] = []

    def cool(glimpse: Glimpse) -> bool | float:
        seen.append(glimpse)
        if len(seen) == 1:
            return 4.0  # from the next call on (hotter: it never solves)
        return len(seen) < 4

    run = metropolis(puzzle, temperature=3.0, seed=4, max_proposals=10**9, watch=cool)
    assert run.stop == "stopped" and [g.temperature for g in seen] == [3.0, 4.0, 4.0, 4.0]
    assert run.temperature == 4.0


def test_a_tempering_ladder_is_not_steered() -> None:
    puzzle = kaggle(3)[0]
    with pytest.raises(NdokuError, match="ladder is not steered"):
        tempering(puzzle, seed=2, prune=False, threads=1, watch=lambda g: 0.5)
