"""The box-swap Metropolis chain: its energy bookkeeping, determinism, solutions and limits."""

from __future__ import annotations

import math
import time
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from ndoku.errors import NdokuError
from ndoku.model.puzzle import read_puzzles
from ndoku.solvers.chains.kernels import acceptance_thresholds, fill_thresholds, swap_chain
from ndoku.solvers.chains.metropolis import metropolis, warm_parts
from ndoku.solvers.chains.moves import box_swap_system, initial_state, places, unit_counts
from ndoku.solvers.chains.schedule import temperature_at, units_per_cell, until_change
from ndoku.tasks.verify import problems

from helpers import gecode25, kaggle, load, naive_energy

DATA = Path(__file__).parent / "data"
LAYOUTS = Path(__file__).parent.parent / "layouts"
SAMURAI = DATA / "samurai" / "jss_ezSamurai.txt"
# Conflict-free givens, one free cell per box, and both forced fills break a row: no move helps.
DEAD_END = "0 1 4 2\n2 3 1 0\n1 2 3 4\n3 4 2 1\n"


@pytest.mark.parametrize("path", [None, SAMURAI], ids=["9x9", "samurai"])
@pytest.mark.parametrize("temperature", [1e9, 0.3], ids=["hot", "cold"])
def test_energy_steps_equal_the_naive_energy_change(path: Path | None, temperature: float) -> None:
    # The puzzle's givens thinned out (every other given freed) so that most boxes have many
    # free cells and swaps change several units at once.
    puzzle = load(path) if path else kaggle(0)[0]
    givens = puzzle.givens.copy()
    givens[np.flatnonzero(givens)[::2]] = 0
    system = box_swap_system(puzzle, givens)
    values = initial_state(system, seed=5)
    counts, masks, energy = unit_counts(system, values)
    assert energy == naive_energy(puzzle, values) > 0
    thresholds = acceptance_thresholds(temperature, system.largest_change)
    place = places(system, values)
    state = np.array([12345], dtype=np.uint64)
    stats = np.array([energy, energy, 0, 0, 0], dtype=np.int64)
    seen_deltas = set()
    for _ in range(3000):
        before = values.copy()
        if stats[0] == 0:
            break
        swap_chain(
            values,
            values.copy(),
            place,
            counts,
            masks,
            *system.kernel_arrays,
            thresholds,
            state,
            stats,
            1,
        )
        changed = np.flatnonzero(values != before)
        assert len(changed) in (0, 2)
        if len(changed):
            seen_deltas.add(int(stats[0]) - naive_energy(puzzle, before))
        assert stats[0] == naive_energy(puzzle, values)
    assert stats[3] > 100
    assert len(seen_deltas) >= 3  # rises, falls and flat moves were all checked
    # the counts and masks kept along the way equal fresh ones
    fresh_counts, fresh_masks, _ = unit_counts(system, values)
    assert np.array_equal(counts, fresh_counts)
    assert np.array_equal(masks, fresh_masks)


def test_pair_table_lists_every_box_pair_with_its_changed_units() -> None:
    puzzle = load(SAMURAI)
    system = box_swap_system(puzzle)
    dummy = system.n_units
    width = (system.pairs.shape[1] - 3) // 2
    units_of = [
        set(system.cell_units[system.cell_unit_ptr[c] : system.cell_unit_ptr[c + 1]].tolist())
        for c in range(puzzle.n_cells)
    ]
    expected = {
        (int(a), int(b))
        for g in range(len(system.groups))
        for a, b in combinations(sorted(system.groups[g][puzzle.givens[system.groups[g]] == 0]), 2)
    }
    rows = {(int(r[0]), int(r[1])): r for r in system.pairs}
    assert set(rows) == expected and len(rows) == len(system.pairs)
    for (a, b), row in rows.items():
        k = int(row[2])
        side_a, side_b = row[3 : 3 + width], row[3 + width :]
        assert set(side_a[side_a != dummy].tolist()) == units_of[a] - units_of[b]
        assert set(side_b[side_b != dummy].tolist()) == units_of[b] - units_of[a]
        assert (side_a[k:] == dummy).all() and (side_b[k:] == dummy).all()


@pytest.mark.parametrize("prune", [False, True], ids=["plain", "pruned"])
def test_same_seed_same_chain_other_seed_other_chain(prune: bool) -> None:
    # pruning solves the Samurai outright: the pruned chain runs on a minimal 25×25
    puzzle = load(DATA / "samurai" / "jss_samurai.txt") if not prune else gecode25()
    first, again, other = (
        metropolis(puzzle, seed=s, max_proposals=200_000, temperature=0.3, prune=prune)
        for s in (4, 4, 5)
    )
    assert first.forced == again.forced == other.forced and (first.forced > 0) == prune
    assert np.array_equal(first.values, again.values)
    assert np.array_equal(first.best_values, again.best_values)
    assert (first.proposals, first.acceptances, first.energy, first.best_at) == (
        again.proposals,
        again.acceptances,
        again.energy,
        again.best_at,
    )
    assert (first.acceptances, first.best_at) != (other.acceptances, other.best_at)
    assert not np.array_equal(first.values, other.values)


def test_solves_every_4x4_to_its_published_solution() -> None:
    for line in (DATA / "sudoku4" / "wild_4x4.txt").read_text().splitlines():
        name, grid, status = line.split()
        puzzle_text, solution = grid.split(",")
        if status != "unique":
            continue
        [puzzle] = read_puzzles(text=puzzle_text)
        result = metropolis(puzzle, seed=1)
        assert result.solved and result.stop == "solved", name
        assert "".join(map(str, result.values)) == solution, name
        assert problems(puzzle, result.values) == []


@pytest.mark.parametrize("line", [0, 1, 2])
def test_solves_easy_9x9_to_its_published_solution(line: int) -> None:
    puzzle, solution = kaggle(line)
    result = metropolis(puzzle, seed=line)
    assert result.solved and result.energy == result.best_energy == 0
    assert "".join(map(str, result.values)) == solution
    assert problems(puzzle, result.values) == []


def test_solves_an_easy_samurai_to_its_published_solution() -> None:
    puzzle = load(SAMURAI)
    result = metropolis(puzzle, seed=2)
    assert result.solved
    assert puzzle.text(result.values) == SAMURAI.with_suffix(".sol.txt").read_text()
    assert problems(puzzle, result.values) == []


def test_extra_givens_are_kept_fixed() -> None:
    puzzle, solution = kaggle(3)
    answer = np.array([int(c) for c in solution], dtype=np.int32)
    givens = puzzle.givens.copy()
    givens[:20] = answer[:20]  # the first rows fixed to the solution, as propagation would
    result = metropolis(puzzle, seed=0, givens=givens)
    assert result.solved and np.array_equal(result.values, answer)
    assert len(box_swap_system(puzzle, givens).pairs) < len(box_swap_system(puzzle).pairs)


def test_best_state_has_the_best_energy() -> None:
    puzzle = load(DATA / "samurai" / "kyle_samurai.txt")
    result = metropolis(puzzle, seed=3, max_proposals=50_000, temperature=0.3)
    assert not result.solved and result.stop == "max-proposals"
    assert result.proposals == 50_000
    assert 0 < result.best_energy <= result.energy
    assert 0 < result.best_at <= result.proposals
    assert naive_energy(puzzle, result.best_values) == result.best_energy
    assert naive_energy(puzzle, result.values) == result.energy


@pytest.mark.parametrize(
    ("path", "units", "temperature"),
    [
        (DATA / "sudoku9" / "norvig_easy50.txt", 2.0, 0.3),
        (SAMURAI, 810 / 369, 0.3),  # 5 grids × 18 rows and columns × 9 cells
        (DATA / "janko" / "butterfly" / "2_12x12.puzzle.txt", 3.0, 0.45),  # 4 grids, 144 cells
        (DATA / "janko" / "16x16" / "301_16x16.puzzle.txt", 2.0, 0.3),
        (LAYOUTS / "25x25.txt", 2.0, 0.25),  # the empty template
    ],
)
def test_default_temperature_follows_size_and_overlap(
    path: Path, units: float, temperature: float
) -> None:
    puzzle = read_puzzles(path)[0]
    assert units_per_cell(puzzle) == pytest.approx(units)
    result = metropolis(puzzle, seed=0, max_proposals=10)
    assert result.temperature == temperature


def test_max_proposals_stops_the_chain() -> None:
    puzzle = load(DATA / "samurai" / "kyle_samurai.txt")
    for limit in (0, 1, 20_000, 100_001):
        result = metropolis(puzzle, seed=1, max_proposals=limit)
        assert (result.stop, result.proposals, result.solved) == ("max-proposals", limit, False)


def test_timeout_stops_the_chain() -> None:
    puzzle = load(DATA / "samurai" / "kyle_samurai.txt")
    # far too hot to ever solve, and no proposal limit in reach
    start = time.perf_counter()
    result = metropolis(puzzle, seed=1, temperature=50.0, timeout=0.2)
    assert result.stop == "timeout" and not result.solved
    # the timeout counts from the call (the preparation too), the chain's seconds from its start
    assert time.perf_counter() - start >= 0.2 and 0 < result.seconds < 2.0
    assert result.proposals > 1000


def test_no_possible_move_is_reported_as_stuck() -> None:
    [puzzle] = read_puzzles(text=DEAD_END)
    result = metropolis(puzzle, seed=0)
    assert (result.stop, result.solved, result.proposals, result.energy) == ("stuck", False, 0, 2)


def test_a_complete_grid_is_solved_without_proposals() -> None:
    _, solution = kaggle(0)
    [full] = read_puzzles(text=solution)
    result = metropolis(full, seed=0)
    assert (result.stop, result.proposals) == ("solved", 0)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"temperature": -0.1}, "temperature must be a positive number up to 10⁶, got -0.1"),
        ({"temperature": 0.0}, "temperature must be a positive number up to 10⁶, got 0.0"),
        ({"temperature": math.nan}, "temperature must be a positive number up to 10⁶, got nan"),
        ({"temperature": math.inf}, "temperature must be a positive number up to 10⁶, got inf"),
        ({"timeout": 0.0}, "timeout must be a positive number of seconds up to 10⁷, got 0.0"),
        ({"timeout": -1.0}, "timeout must be a positive number of seconds up to 10⁷, got -1.0"),
        ({"timeout": math.nan}, "timeout must be a positive number of seconds up to 10⁷, got nan"),
        ({"max_proposals": -1}, "max proposals must be a whole number from 0 to 10¹⁸, got -1"),
        ({"seed": -3}, "seed must be a whole number from 0 to 10¹⁸, got -3"),
    ],
)
def test_bad_arguments_are_clear_errors(arguments: dict[str, float], message: str) -> None:
    [puzzle] = read_puzzles(text=DEAD_END)
    with pytest.raises(NdokuError) as error:
        metropolis(puzzle, **arguments)  # type: ignore[arg-type]
    assert str(error.value) == message


def test_warmed_parts_are_those_the_swap_driver_loads() -> None:
    # Warmed on a 4×4 (a second process's small puzzle), loaded by a 9×9 and a pruned run.
    # (Other tests in this process may have compiled versions before: with rules, say.)
    parts = (swap_chain, fill_thresholds, temperature_at, until_change)
    before = [set(part.signatures) for part in parts]
    [small] = read_puzzles(text="1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n")
    warm_parts(small)
    warmed = [list(part.signatures) for part in parts]
    assert all(len(set(now) - old) <= 1 for now, old in zip(warmed, before, strict=True))
    nine, _ = kaggle(0)
    assert metropolis(nine, seed=1).solved
    assert metropolis(nine, seed=2, prune=True).solved
    assert metropolis(load(SAMURAI), seed=1).solved
    assert [list(part.signatures) for part in parts] == warmed


def test_single_site_runs_share_the_driver_with_its_other_branch() -> None:
    # The swap runs' driver has no single-site branch; a single-site run gets its own.
    [small] = read_puzzles(text="1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n")
    run = metropolis(small, seed=2, moves="single")
    assert run.solved and problems(small, run.values) == []
