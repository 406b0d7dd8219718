"""Row, single-site and pruned moves: ΔE against a naive energy, Boltzmann frequencies, solving."""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ndoku.solvers.chains.moves as moves_module
from ndoku.errors import NdokuError
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.chains.kernels import single_site_chain
from ndoku.solvers.chains.metropolis import metropolis
from ndoku.solvers.chains.moves import (
    PENALTY,
    SwapSystem,
    box_swap_system,
    initial_state,
    outside,
    pruned,
    row_swap_system,
)
from ndoku.solvers.chains.sites import (
    GIVEN_PENALTY,
    random_state,
    single_site_system,
    site_conflicts,
)
from ndoku.tasks.verify import problems

from helpers import SwapWalk, kaggle, puzzle_of, thresholds_for

DATA = Path(__file__).parent / "data"
# Tiny 4×4 puzzles with conflict-free givens and no solution, so that a chain never stops:
# two boxes (rows) of three free cells (36 states), and three free cells (64 states).
BOX_36 = "3 0 0 0\n0 0 1 0\n2 1 4 3\n4 3 2 1\n"
ROW_36 = "0 0 0 2\n0 4 0 0\n2 1 4 3\n4 3 2 1\n"
SITE_64 = "1 2 3 4\n3 4 1 2\n0 0 4 1\n4 3 2 0\n"


def thinned(puzzle: Puzzle) -> np.ndarray:
    """Every other given freed, so that moves change several units at once."""
    givens = puzzle.givens.copy()
    givens[np.flatnonzero(givens)[::2]] = 0
    return givens


def swap_energy(puzzle: Puzzle, values: np.ndarray, groups: str) -> int:
    """Σ over the units that are not move groups of N − distinct symbols, from the units."""
    system = row_swap_system(puzzle) if groups == "row" else box_swap_system(puzzle)
    group_sets = {tuple(sorted(system.groups[g].tolist())) for g in range(len(system.groups))}
    units = puzzle.units
    return sum(
        puzzle.size - len(set(values[units[u]].tolist()))
        for u in range(len(units))
        if tuple(sorted(units[u].tolist())) not in group_sets
    )


def site_energy(puzzle: Puzzle, values: np.ndarray, givens: np.ndarray) -> int:
    """Peer pairs holding one symbol, a pair with a given weighted, straight from the units."""
    pairs = {
        (int(a), int(b))
        for u in range(len(puzzle.units))
        for a, b in itertools.combinations(sorted(puzzle.units[u].tolist()), 2)
    }
    return sum(
        (GIVEN_PENALTY if givens[a] or givens[b] else 1) for a, b in pairs if values[a] == values[b]
    )


def site_step(
    system: Any,
    values: Any,
    conflicts: Any,
    thresholds: Any,
    state: Any,
    stats: Any,
    budget: int = 1,
) -> None:
    single_site_chain(
        values,
        values.copy(),
        conflicts,
        system.free,
        system.free_peer_ptr,
        system.free_peers,
        system.rules,
        thresholds,
        state,
        stats,
        budget,
    )


@pytest.mark.parametrize("temperature", [1e9, 0.3], ids=["hot", "cold"])
def test_row_swap_energy_steps_equal_the_naive_energy_change(temperature: float) -> None:
    puzzle = kaggle(0)[0]
    walk = SwapWalk(row_swap_system(puzzle, thinned(puzzle)), temperature, seed=5)
    values, stats = walk.values, walk.stats
    assert stats[0] == swap_energy(puzzle, values, "row") > 0
    for g in range(len(walk.system.groups)):  # every row a permutation
        assert sorted(values[walk.system.groups[g]].tolist()) == list(range(1, 10))
    deltas = set()
    energy = int(stats[0])
    for _ in range(2000):
        before = values.copy()
        if stats[0] == 0:
            break
        walk.step()
        changed = np.flatnonzero(values != before)
        assert len(changed) in (0, 2)
        # the naive energy of the values now (that of the values before, when none changed)
        after = swap_energy(puzzle, values, "row") if len(changed) else energy
        if len(changed):
            assert puzzle.cell_rc[changed[0], 0] == puzzle.cell_rc[changed[1], 0]  # one row
            deltas.add(int(stats[0]) - energy)
        assert stats[0] == after
        energy = after
    assert len(deltas) >= 3
    walk.assert_tallies_are_fresh()


@pytest.mark.parametrize("temperature", [1e9, 0.5], ids=["hot", "cold"])
def test_single_site_energy_steps_equal_the_naive_energy_change(temperature: float) -> None:
    puzzle = kaggle(1)[0]
    givens = thinned(puzzle)
    system = single_site_system(puzzle, givens)
    values = random_state(system, seed=3)
    assert (values[givens > 0] == givens[givens > 0]).all() and (values > 0).all()
    conflicts, energy = site_conflicts(system, values)
    assert energy == site_energy(puzzle, values, givens) > 0
    thresholds = thresholds_for(temperature, system.largest_change + 1)
    state = np.array([4242], dtype=np.uint64)
    stats = np.array([energy, energy, 0, 0, 0], dtype=np.int64)
    deltas = set()
    for _ in range(2000):
        before = values.copy()
        site_step(system, values, conflicts, thresholds, state, stats)
        changed = np.flatnonzero(values != before)
        assert len(changed) in (0, 1)
        if len(changed):
            assert givens[changed[0]] == 0
            deltas.add(int(stats[0]) - site_energy(puzzle, before, givens))
        assert stats[0] == site_energy(puzzle, values, givens)
    assert len(deltas) >= 5 and any(abs(d) >= GIVEN_PENALTY for d in deltas)
    assert np.array_equal(conflicts[system.free], site_conflicts(system, values)[0][system.free])


def boltzmann_gap(
    visits: Counter[tuple[int, ...]], energies: dict[tuple[int, ...], int], temperature: float
) -> tuple[float, float]:
    """Total variation distance between visit frequencies and exp(−E/T)/Z over all states,
    and the largest relative error of a state whose probability is at least 2%."""
    states = list(energies)
    weights = np.exp(-np.array([energies[s] for s in states]) / temperature)
    expected = weights / weights.sum()
    seen = np.array([visits[s] for s in states]) / sum(visits.values())
    assert set(visits) <= set(states)
    likely = expected >= 0.02
    return 0.5 * float(np.abs(seen - expected).sum()), float(
        (np.abs(seen - expected) / expected)[likely].max()
    )


def assert_visits_follow_boltzmann(
    step: Callable[[], None],
    values: np.ndarray,
    energies: dict[tuple[int, ...], int],
    temperature: float,
    steps: int,
) -> None:
    """``steps`` calls of ``step``, each followed by a visit to ``values`` (changed in place),
    visit the states with Boltzmann frequencies, and not with a 30% hotter chain's."""
    visits: Counter[tuple[int, ...]] = Counter()
    for _ in range(steps):
        step()
        visits[tuple(values.tolist())] += 1
    distance, worst = boltzmann_gap(visits, energies, temperature)
    assert distance < 0.02 and worst < 0.1
    # the check has power: the same visits are far from the law of a 30% hotter chain
    assert boltzmann_gap(visits, energies, 1.3 * temperature)[0] > 0.04


def swap_states(puzzle: Puzzle, system: SwapSystem) -> list[np.ndarray]:
    """Every state of a two-group swap system: each group's free cells hold its missing
    symbols in some order."""
    free = [system.groups[g][puzzle.givens[system.groups[g]] == 0] for g in range(2)]
    assert [len(f) for f in free] == [3, 3]
    missing = [sorted({1, 2, 3, 4} - set(puzzle.givens[system.groups[g]].tolist())) for g in (0, 1)]
    states = []
    for orders in itertools.product(*(itertools.permutations(m) for m in missing)):
        values = puzzle.givens.copy()
        for cells, order in zip(free, orders, strict=True):
            values[cells] = order
        states.append(values)
    return states


@pytest.mark.parametrize("groups", ["box", "row"])
def test_swap_chain_visits_states_with_boltzmann_frequencies(groups: str) -> None:
    puzzle = puzzle_of(BOX_36 if groups == "box" else ROW_36)
    system = row_swap_system(puzzle) if groups == "row" else box_swap_system(puzzle)
    energies = {
        tuple(v.tolist()): swap_energy(puzzle, v, groups) for v in swap_states(puzzle, system)
    }
    assert len(energies) == 36 and min(energies.values()) > 0
    walk = SwapWalk(system, 1.0, seed=1)
    assert_visits_follow_boltzmann(lambda: walk.step(budget=3), walk.values, energies, 1.0, 60_000)


def test_single_site_chain_visits_states_with_boltzmann_frequencies() -> None:
    puzzle = puzzle_of(SITE_64)
    system = single_site_system(puzzle)
    assert len(system.free) == 3
    energies = {}
    for choice in itertools.product(range(1, 5), repeat=3):
        values = puzzle.givens.copy()
        values[system.free] = choice
        energies[tuple(values.tolist())] = site_energy(puzzle, values, puzzle.givens)
    assert min(energies.values()) > 0
    temperature = 3.0
    values = random_state(system, seed=2)
    conflicts, energy = site_conflicts(system, values)
    thresholds = thresholds_for(temperature, system.largest_change + 1)
    state = np.array([31337], dtype=np.uint64)
    stats = np.array([energy, energy, 0, 0, 0], dtype=np.int64)

    def step() -> None:
        site_step(system, values, conflicts, thresholds, state, stats, budget=3)

    assert_visits_follow_boltzmann(step, values, energies, temperature, 80_000)


@pytest.mark.parametrize("moves", ["row", "single"])
def test_solves_every_4x4_to_its_published_solution(moves: str) -> None:
    for line in (DATA / "sudoku4" / "wild_4x4.txt").read_text().splitlines():
        name, grid, status = line.split()
        puzzle_text, solution = grid.split(",")
        if status != "unique":
            continue
        result = metropolis(puzzle_of(puzzle_text), seed=1, moves=moves, timeout=10)
        assert result.solved and result.moves == moves, name
        assert "".join(map(str, result.values)) == solution, name


@pytest.mark.parametrize("moves", ["row", "single"])
@pytest.mark.parametrize("line", [0, 1, 2])
def test_solves_easy_9x9_to_its_published_solution(moves: str, line: int) -> None:
    puzzle, solution = kaggle(line)
    result = metropolis(puzzle, seed=line, moves=moves, timeout=20)
    assert result.solved and result.energy == result.best_energy == 0
    assert "".join(map(str, result.values)) == solution
    assert problems(puzzle, result.values) == []


def test_row_moves_keep_rows_and_solve_a_vertical_stack() -> None:
    # two 4×4 grids sharing their middle box rows: every cell still lies in one row
    layout = "# subgrids: 0,0 2,0\n" + "\n".join(["0 0 0 0"] * 6) + "\n"
    [puzzle] = read_puzzles(text=layout)
    result = metropolis(puzzle, seed=0, moves="row", timeout=10)
    assert result.solved and problems(puzzle, result.values) == []


def test_row_moves_refuse_sub_grids_side_by_side() -> None:
    [samurai] = read_puzzles(DATA / "samurai" / "jss_ezSamurai.txt")
    with pytest.raises(
        NdokuError,
        match=r"row moves need every cell in exactly one row, but "
        r"the cell at line \d+, column \d+ lies in two rows \(sub-grids overlap "
        r"side by side\): use moves 'box' or 'single'",
    ):
        metropolis(samurai, moves="row")
    assert metropolis(samurai, moves="single", max_proposals=1000).proposals == 1000


def test_single_site_moves_keep_givens_and_extra_givens() -> None:
    puzzle, solution = kaggle(3)
    answer = np.array([int(c) for c in solution], dtype=np.int32)
    givens = puzzle.givens.copy()
    givens[:30] = answer[:30]
    result = metropolis(puzzle, seed=4, givens=givens, moves="single", timeout=20)
    assert result.solved and np.array_equal(result.values, answer)


def test_nothing_to_move_is_stuck_or_solved() -> None:
    dead_end = puzzle_of("0 1 4 2\n2 3 1 0\n1 2 3 4\n3 4 2 1\n")
    result = metropolis(dead_end, moves="row")  # one free cell per row
    assert (result.stop, result.proposals) == ("stuck", 0)
    _, solution = kaggle(0)
    for moves in ("row", "single"):
        result = metropolis(puzzle_of(solution), moves=moves)
        assert (result.stop, result.proposals, result.energy) == ("solved", 0, 0)


# --- pruned swaps: guided moves and the penalty --------------------------------------------

# BOX_36 with made-up candidates: the top-left box's free cells 1, 4, 5 allow {1, 2}, {2, 4},
# {1, 4} (a 3-cycle: no swap of two cells keeps both to their candidates), the top-right's
# cells 2, 3, 7 allow {2, 3, 4}, {3, 4}, {2, 4}; given cells their own symbol.
BOX_36_ALLOWED = {1: (1, 2), 4: (2, 4), 5: (1, 4), 2: (2, 3, 4), 3: (3, 4), 7: (2, 4)}


def masks_of(puzzle: Puzzle, allowed: dict[int, tuple[int, ...]]) -> np.ndarray:
    """Candidate masks as ``propagation.candidates`` writes them (bit v − 1 for value v)."""
    masks = np.zeros(puzzle.n_cells, dtype=np.uint64)
    for c in range(puzzle.n_cells):
        symbols = allowed.get(c, (int(puzzle.givens[c]),))
        masks[c] = sum(1 << (v - 1) for v in symbols)
    return masks


def holds_candidate(masks: np.ndarray, values: np.ndarray, c: int) -> bool:
    return bool(int(masks[c]) >> (int(values[c]) - 1) & 1)


def pruned_energy(
    puzzle: Puzzle, masks: np.ndarray, givens: np.ndarray, values: np.ndarray, groups: str
) -> int:
    """The swap energy, plus PENALTY per free cell holding a symbol outside its candidates."""
    outside = sum(not holds_candidate(masks, values, c) for c in np.flatnonzero(givens == 0))
    return swap_energy(puzzle, values, groups) + PENALTY * outside


def guided_system(
    monkeypatch: pytest.MonkeyPatch, build: Any, share: float, *args: Any
) -> SwapSystem:
    monkeypatch.setattr(moves_module, "GUIDED_SHARE", share)
    system: SwapSystem = build(*args)
    # start from a random matching: the dive of a pruned start would solve the puzzle
    return dataclasses.replace(system, fill=None)


@pytest.mark.parametrize("share", [1.0, 0.5], ids=["guided", "mixed"])
@pytest.mark.parametrize("groups", ["box", "row"])
def test_pruned_swap_energy_steps_equal_the_naive_energy_change(
    monkeypatch: pytest.MonkeyPatch, groups: str, share: float
) -> None:
    puzzle = kaggle(2)[0]
    givens, masks = pruned(puzzle, thinned(puzzle))
    assert masks is not None and (givens == 0).sum() > 30
    build = row_swap_system if groups == "row" else box_swap_system
    system = guided_system(monkeypatch, build, share, puzzle, givens, masks)
    assert system.pruned and system.penalty == PENALTY
    assert (system.mix[0] == 0) == (share == 1.0)
    walk = SwapWalk(system, 1.5, seed=3)  # warm: swaps that leave the candidates are taken
    values, stats = walk.values, walk.stats
    free = np.flatnonzero(givens == 0)
    assert all(holds_candidate(masks, values, c) for c in free)  # a matching per group
    energy = pruned_energy(puzzle, masks, givens, values, groups)
    assert stats[0] == energy
    deltas, outside_changes = set(), set()
    for _ in range(3000):
        before = values.copy()
        walk.step()
        changed = np.flatnonzero(values != before)
        assert len(changed) in (0, 2)
        # the naive energy of the values now (that of the values before, when none changed)
        after = pruned_energy(puzzle, masks, givens, values, groups) if len(changed) else energy
        if len(changed):
            deltas.add(int(stats[0]) - energy)
            outside_changes.add(
                sum(not holds_candidate(masks, v, c) for v in (values, before) for c in changed)
            )
            if (
                share == 1.0
            ):  # the cell that starts a guided swap holds a candidate before and after
                assert any(
                    holds_candidate(masks, before, c) and holds_candidate(masks, values, c)
                    for c in changed
                )
        assert stats[0] == after
        energy = after
    assert stats[3] == 3000 and len(deltas) >= 5
    assert max(outside_changes) >= (3 if share < 1 else 2)  # the penalty was exercised
    walk.assert_tallies_are_fresh()


def guided_component(
    start: np.ndarray, masks: np.ndarray, system: SwapSystem
) -> set[tuple[int, ...]]:
    """The states guided swaps reach from ``start``, found by walking every guided move."""
    seen = {tuple(start.tolist())}
    todo = [start]
    while todo:
        values = todo.pop()
        for c in system.free:
            if not holds_candidate(masks, values, c):
                continue
            group = system.groups[int(system.guide[c, 0])]
            for y in range(1, 5):
                d = group[values[group] == y]
                if y == values[c] or not int(masks[c]) >> (y - 1) & 1 or not len(d):
                    continue
                after = values.copy()
                after[c], after[d[0]] = y, values[c]
                if tuple(after.tolist()) not in seen:
                    seen.add(tuple(after.tolist()))
                    todo.append(after)
    return seen


@pytest.mark.parametrize("share", [1.0, 0.5], ids=["guided", "mixed"])
def test_pruned_swap_chain_visits_states_with_boltzmann_frequencies(
    monkeypatch: pytest.MonkeyPatch, share: float
) -> None:
    puzzle = puzzle_of(BOX_36)
    masks = masks_of(puzzle, BOX_36_ALLOWED)
    system = guided_system(monkeypatch, box_swap_system, share, puzzle, puzzle.givens, masks)
    energies = {
        tuple(v.tolist()): pruned_energy(puzzle, masks, puzzle.givens, v, "box")
        for v in swap_states(puzzle, system)
    }
    temperature = 1.0
    walk = SwapWalk(system, temperature, seed=4)
    within = [s for s in energies if pruned_energy(puzzle, masks, puzzle.givens, np.array(s), "box")
              == swap_energy(puzzle, np.array(s), "box")]  # fmt: skip
    assert len(within) == 2 * 3  # two matchings of the 3-cycle box, three of the other
    assert tuple(walk.values.tolist()) in within
    if share == 1.0:
        # guided swaps alone reach every state within the candidates (through states with one
        # cell outside), but not all 36: a box whose every cell is outside has no guided move
        reach = guided_component(walk.values, masks, system)
        assert set(within) < reach < set(energies)
        energies = {s: e for s, e in energies.items() if s in reach}
    assert_visits_follow_boltzmann(
        lambda: walk.step(budget=3), walk.values, energies, temperature, 60_000
    )


def test_pruned_initial_state_keeps_to_candidates_where_a_matching_exists() -> None:
    puzzle = puzzle_of(BOX_36)
    masks = masks_of(puzzle, BOX_36_ALLOWED)
    system = box_swap_system(puzzle, puzzle.givens, masks)
    starts = {tuple(initial_state(system, seed).tolist()) for seed in range(40)}
    assert all(outside(system, np.array(s)) == 0 for s in starts) and len(starts) == 6
    # no matching: the top-left box's cells all allow only 1; one keeps it, two fall outside
    system = box_swap_system(
        puzzle, puzzle.givens, masks_of(puzzle, BOX_36_ALLOWED | {1: (1,), 4: (1,), 5: (1,)})
    )
    assert outside(system, initial_state(system, 0)) == 2


def test_pruning_fixes_forced_cells_and_finds_contradictions() -> None:
    puzzle, solution = kaggle(4)
    answer = np.array([int(c) for c in solution], dtype=np.int32)
    givens, masks = pruned(puzzle)
    assert masks is not None and (givens > 0).sum() > (puzzle.givens > 0).sum()
    assert np.array_equal(givens[givens > 0], answer[givens > 0])
    result = metropolis(puzzle, seed=1, prune=True, timeout=20)
    assert result.solved and np.array_equal(result.values, answer)
    assert result.forced == (givens > 0).sum() - (puzzle.givens > 0).sum()
    # the top-left cell sees 1 in its row and 2, 3, 4 in its column: no proposal is made
    dead = puzzle_of("0 1 0 0\n2 0 0 0\n3 0 0 0\n4 0 0 0\n")
    assert pruned(dead)[1] is None
    for moves in ("box", "single"):
        result = metropolis(dead, moves=moves, prune=True)
        assert (result.stop, result.proposals, result.solved) == ("propagation", 0, False)
