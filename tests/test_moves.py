"""Row and single-site moves: ΔE against a naive energy, Boltzmann frequencies, solving."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ndoku.errors import NdokuError
from ndoku.metropolis import (
    GIVEN_PENALTY,
    _box_swap_chain,
    _fill_thresholds,
    _single_site_chain,
    box_swap_system,
    initial_state,
    metropolis,
    random_state,
    row_swap_system,
    single_site_system,
    site_conflicts,
    unit_counts,
)
from ndoku.puzzle import Puzzle, read_puzzles
from ndoku.verify import problems

DATA = Path(__file__).parent / "data"
NINE = DATA / "sudoku9" / "kaggle_bryanpark_first69.txt"
# Tiny 4×4 puzzles with conflict-free givens and no solution, so that a chain never stops:
# two boxes (rows) of three free cells (36 states), and three free cells (64 states).
BOX_36 = "3 0 0 0\n0 0 1 0\n2 1 4 3\n4 3 2 1\n"
ROW_36 = "0 0 0 2\n0 4 0 0\n2 1 4 3\n4 3 2 1\n"
SITE_64 = "1 2 3 4\n3 4 1 2\n0 0 4 1\n4 3 2 0\n"


def one(text: str) -> Puzzle:
    [puzzle] = read_puzzles(text=text)
    return puzzle


def kaggle(line: int) -> tuple[Puzzle, str]:
    puzzle, solution = NINE.read_text().splitlines()[line].split(",")
    return one(puzzle), solution


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


def thresholds_for(temperature: float, size: int) -> np.ndarray:
    table = np.zeros(size, dtype=np.uint64)
    _fill_thresholds(table, temperature)
    return table


def swap_step(
    system: Any,
    values: Any,
    counts: Any,
    masks: Any,
    thresholds: Any,
    state: Any,
    stats: Any,
    budget: int = 1,
) -> None:
    _box_swap_chain(
        values,
        values.copy(),
        counts,
        masks,
        system.pairs,
        system.cell_unit_ptr,
        system.cell_units,
        thresholds,
        state,
        stats,
        budget,
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
    _single_site_chain(
        values,
        values.copy(),
        conflicts,
        system.free,
        system.free_peer_ptr,
        system.free_peers,
        thresholds,
        state,
        stats,
        budget,
    )


@pytest.mark.parametrize("temperature", [1e9, 0.3], ids=["hot", "cold"])
def test_row_swap_energy_steps_equal_the_naive_energy_change(temperature: float) -> None:
    puzzle = kaggle(0)[0]
    system = row_swap_system(puzzle, thinned(puzzle))
    values = initial_state(system, seed=5)
    counts, masks, energy = unit_counts(system, values)
    assert energy == swap_energy(puzzle, values, "row") > 0
    for g in range(len(system.groups)):  # every row a permutation
        assert sorted(values[system.groups[g]].tolist()) == list(range(1, 10))
    thresholds = thresholds_for(temperature, system.pairs.shape[1] - 2)
    state = np.array([777], dtype=np.uint64)
    stats = np.array([energy, energy, 0, 0, 0], dtype=np.int64)
    deltas = set()
    for _ in range(2000):
        before = values.copy()
        if stats[0] == 0:
            break
        swap_step(system, values, counts, masks, thresholds, state, stats)
        changed = np.flatnonzero(values != before)
        assert len(changed) in (0, 2)
        if len(changed):
            assert puzzle.cell_rc[changed[0], 0] == puzzle.cell_rc[changed[1], 0]  # one row
            deltas.add(int(stats[0]) - swap_energy(puzzle, before, "row"))
        assert stats[0] == swap_energy(puzzle, values, "row")
    assert len(deltas) >= 3
    fresh_counts, fresh_masks, _ = unit_counts(system, values)
    assert np.array_equal(counts, fresh_counts) and np.array_equal(masks, fresh_masks)


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


@pytest.mark.parametrize("groups", ["box", "row"])
def test_swap_chain_visits_states_with_boltzmann_frequencies(groups: str) -> None:
    puzzle = one(BOX_36 if groups == "box" else ROW_36)
    system = row_swap_system(puzzle) if groups == "row" else box_swap_system(puzzle)
    free = [system.groups[g][puzzle.givens[system.groups[g]] == 0] for g in range(2)]
    assert [len(f) for f in free] == [3, 3]
    # every state: each group's free cells hold its missing symbols in some order
    missing = [sorted({1, 2, 3, 4} - set(puzzle.givens[system.groups[g]].tolist())) for g in (0, 1)]
    energies = {}
    for orders in itertools.product(*(itertools.permutations(m) for m in missing)):
        values = puzzle.givens.copy()
        for cells, order in zip(free, orders, strict=True):
            values[cells] = order
        energies[tuple(values.tolist())] = swap_energy(puzzle, values, groups)
    assert len(energies) == 36 and min(energies.values()) > 0
    temperature = 1.0
    values = initial_state(system, seed=1)
    counts, masks, energy = unit_counts(system, values)
    thresholds = thresholds_for(temperature, system.pairs.shape[1] - 2)
    state = np.array([99], dtype=np.uint64)
    stats = np.array([energy, energy, 0, 0, 0], dtype=np.int64)
    visits: Counter[tuple[int, ...]] = Counter()
    for _ in range(60_000):
        swap_step(system, values, counts, masks, thresholds, state, stats, budget=3)
        visits[tuple(values.tolist())] += 1
    distance, worst = boltzmann_gap(visits, energies, temperature)
    assert distance < 0.02 and worst < 0.1
    # the check has power: the same visits are far from the law of a 30% hotter chain
    assert boltzmann_gap(visits, energies, 1.3 * temperature)[0] > 0.04


def test_single_site_chain_visits_states_with_boltzmann_frequencies() -> None:
    puzzle = one(SITE_64)
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
    visits: Counter[tuple[int, ...]] = Counter()
    for _ in range(80_000):
        site_step(system, values, conflicts, thresholds, state, stats, budget=3)
        visits[tuple(values.tolist())] += 1
    distance, worst = boltzmann_gap(visits, energies, temperature)
    assert distance < 0.02 and worst < 0.1
    assert boltzmann_gap(visits, energies, 1.3 * temperature)[0] > 0.04


@pytest.mark.parametrize("moves", ["row", "single"])
def test_solves_every_4x4_to_its_published_solution(moves: str) -> None:
    for line in (DATA / "sudoku4" / "wild_4x4.txt").read_text().splitlines():
        name, grid, status = line.split()
        puzzle_text, solution = grid.split(",")
        if status != "unique":
            continue
        result = metropolis(one(puzzle_text), seed=1, moves=moves, timeout=10)
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
    dead_end = one("0 1 4 2\n2 3 1 0\n1 2 3 4\n3 4 2 1\n")
    result = metropolis(dead_end, moves="row")  # one free cell per row
    assert (result.stop, result.proposals) == ("stuck", 0)
    _, solution = kaggle(0)
    for moves in ("row", "single"):
        result = metropolis(one(solution), moves=moves)
        assert (result.stop, result.proposals, result.energy) == ("solved", 0, 0)
