"""The chains with variant rules: the energy counts every broken constraint (against a slow
reference built on :func:`ndoku.model.constraints.holds`), a move's ΔE equals the change of the
full energy, the chains sample the Boltzmann law of that energy, puzzles without rules keep
their energies, layouts without boxes move by rows, and hybrid and tempering solve the janko
killer 9×9 set."""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from ndoku.errors import NdokuError
from ndoku.model.constraints import PAIRS, Constraint, broken, holds
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.model.units import BOX
from ndoku.solvers.chains import default_moves, hillclimb, metropolis, tempering
from ndoku.solvers.chains.broken import SUM_STEP, chain_rules, largest_rule_change
from ndoku.solvers.chains.kernels import single_site_chain
from ndoku.solvers.chains.moves import (
    pruned,
    swap_system,
    unit_counts,
)
from ndoku.solvers.chains.sites import (
    GIVEN_PENALTY,
    SiteSystem,
    random_state,
    single_site_system,
    site_conflicts,
)
from ndoku.tasks.solve import Options, solve
from ndoku.tasks.verify import problems

from helpers import SwapWalk, puzzle_of, thresholds_for

VARIANTS = Path(__file__).parent / "data" / "variants"
EMPTY4 = "0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n"
# Every kind of rule on a 4×4, where random values keep and break each of them often.
EVERY_KIND = (
    EMPTY4
    + """
cage 5: r1c1 r1c2
cage: r3c3 r3c4 r4c4
little-killer 5: r0c1
outside-sum 4: r0c3
sandwich 2: r5c2
skyscraper 2: r1c0
thermo: r2c1 r2c2 r3c2
slow-thermo: r4c1 r4c2
arrow: r3c1 > r4c2 r4c3
white: r2c3 r2c4
black 2: r1c3 r1c4
v: r2c4 r3c4
even: r4c4
odd: r1c1 r4c3
whisper: r2c1 r3c2
renban: r1c2 r2c2 r2c3
palindrome: r3c1 r3c2 r3c3
region: r4c1 r4c2 r4c3
antiknight
negative: black
"""
)
# Rules that add units and peers the other way: a 6×6 with disjoint groups and anti-king.
SIX = "# box: 2x3\n" + "\n".join(["0 0 0 0 0 0"] * 6) + "\n"
UNITS_AND_PEERS = SIX + "\ndisjoint\nantiking\ncage 4: r1c1 r2c1\n"


def reference_count(constraint: Constraint, values: np.ndarray, size: int) -> int:
    """The broken count of the glossary of :mod:`ndoku.solvers.chains.broken`, slowly; 0
    exactly when :func:`holds` says the constraint holds."""
    x = [int(values[c]) for c in constraint.cells]
    kept = holds(constraint, values.tolist(), size)
    kind, n = constraint.kind, constraint.number
    repeats = len(x) - len(set(x))
    if kind in PAIRS or kind in ("allowed", "sandwich"):
        count = 0 if kept else 1
    elif kind == "sum":
        weighted = sum(w * v for w, v in zip(constraint.weights, x, strict=True))
        count = math.ceil(abs(weighted - n) / SUM_STEP)
    elif kind == "cage":
        count = repeats + math.ceil(abs(sum(x) - n) / SUM_STEP)
    elif kind == "distinct":
        count = repeats
    elif kind == "renban":
        count = repeats + max(0, max(x) - min(x) - (len(x) - 1))
    else:
        assert kind == "skyscraper"
        count = abs(sum(1 for i, v in enumerate(x) if all(v > w for w in x[:i])) - n)
    assert (count == 0) == kept, (constraint, x)
    return count


def reference_energy(puzzle: Puzzle, values: np.ndarray, moves: str) -> int:
    """A state's energy from the units, peers and constraints, without the chains' tables:
    swap moves count N − distinct over the units that are not move groups and 1 per extra peer
    pair (no unit holds both) holding one value; single-site moves count the peer pairs of the
    peer graph holding one value (a pair with a given :data:`GIVEN_PENALTY`). Both add every
    constraint's broken count."""
    units = puzzle.units
    size = puzzle.size
    rules = sum(reference_count(c, values, size) for c in puzzle.lowered.constraints)
    if moves == "single":
        ptr, peers = puzzle.peers
        given = puzzle.givens > 0
        return rules + sum(
            (GIVEN_PENALTY if given[a] or given[b] else 1)
            for a in range(puzzle.n_cells)
            for b in peers[ptr[a] : ptr[a + 1]].tolist()
            if a < b and values[a] == values[b]
        )
    member = [set(units[u].tolist()) for u in range(len(units))]
    if moves == "box":
        groups = [u for u in range(len(units)) if units.kind[u] == BOX]
    else:
        groups = [u for u in range(len(units)) if len(set(puzzle.cell_rc[units[u], 0])) == 1]
    energy = sum(size - len(set(values[units[u]].tolist())) for u in range(len(units)))
    energy -= sum(size - len(set(values[units[u]].tolist())) for u in groups)
    for a, b in puzzle.lowered.peers:
        if values[a] == values[b] and not any(a in m and b in m for m in member):
            energy += 1
    return energy + rules


def random_values(puzzle: Puzzle, rng: np.random.Generator) -> np.ndarray:
    values = rng.integers(1, puzzle.size + 1, puzzle.n_cells).astype(np.int32)
    return np.where(puzzle.givens > 0, puzzle.givens, values).astype(np.int32)


def killer(k: int) -> Puzzle:
    return read_puzzles(VARIANTS / "killer_9x9.txt")[k]


def published(name: str) -> list[np.ndarray]:
    """The published solutions of a converted janko file, one per puzzle."""
    lines = (VARIANTS / f"{name}.solutions.txt").read_text().splitlines()
    return [np.array([int(ch) for ch in line.split()[0]], dtype=np.int32) for line in lines]


@pytest.mark.parametrize("moves", ["box", "row", "single"])
@pytest.mark.parametrize("text", [EVERY_KIND, UNITS_AND_PEERS], ids=["every-kind", "units-peers"])
def test_energy_of_random_values_counts_every_broken_constraint(text: str, moves: str) -> None:
    puzzle = puzzle_of(text)
    system = single_site_system(puzzle) if moves == "single" else swap_system(puzzle, moves)
    rng = np.random.default_rng(7)
    kept: Counter[tuple[str, bool]] = Counter()
    for _ in range(300):
        values = random_values(puzzle, rng)
        if isinstance(system, SiteSystem):
            energy = site_conflicts(system, values)[1]
        else:
            energy = unit_counts(system, values)[2]
        assert energy == reference_energy(puzzle, values, moves)
        for c in puzzle.lowered.constraints:
            kept[c.kind, holds(c, values.tolist(), puzzle.size)] += 1
    # the test has power: every kind was seen both kept and broken
    kinds = {c.kind for c in puzzle.lowered.constraints}
    assert all(kept[kind, True] and kept[kind, False] for kind in kinds - {"sandwich"}), kept
    assert kept["sandwich", False] or "sandwich" not in kinds


def test_every_kind_of_constraint_reaches_the_chains() -> None:
    puzzle = puzzle_of(EVERY_KIND)
    kinds = {c.kind for c in puzzle.lowered.constraints}
    assert kinds >= {"cage", "distinct", "sum", "sandwich", "skyscraper", "less", "renban"}
    rules = chain_rules(puzzle, puzzle.units)
    assert rules is not None
    # every constraint, and the knight's-move peers that share no unit
    assert len(rules[0]) > len(puzzle.lowered.constraints)
    assert len(chain_rules(puzzle)[0]) == len(puzzle.lowered.constraints)  # type: ignore[index]


def test_the_largest_change_bounds_every_move() -> None:
    """The acceptance table is as long as the largest ΔE: a larger one would be read past."""
    puzzle = puzzle_of(EVERY_KIND)
    rules = chain_rules(puzzle)
    bound = largest_rule_change(rules, puzzle.size)
    rng = np.random.default_rng(3)
    for _ in range(2000):
        values = random_values(puzzle, rng)
        cell = int(rng.integers(puzzle.n_cells))
        changed = values.copy()
        changed[cell] = rng.integers(1, puzzle.size + 1)
        touched = [c for c in puzzle.lowered.constraints if cell in c.cells]
        delta = sum(
            reference_count(c, changed, puzzle.size) - reference_count(c, values, puzzle.size)
            for c in touched
        )
        assert abs(delta) <= bound


@pytest.mark.parametrize("temperature", [1e9, 0.5], ids=["hot", "cold"])
@pytest.mark.parametrize(
    ("text", "moves"),
    [(EVERY_KIND, "box"), (EVERY_KIND, "row"), (UNITS_AND_PEERS, "box"), ("killer", "box")],
    ids=["every-kind-box", "every-kind-row", "units-peers-box", "killer-box"],
)
def test_swap_steps_change_the_energy_as_the_full_energy_changes(
    text: str, moves: str, temperature: float
) -> None:
    puzzle = killer(0) if text == "killer" else puzzle_of(text)
    walk = SwapWalk(swap_system(puzzle, moves), temperature, seed=3)
    values, stats = walk.values, walk.stats
    assert stats[0] == reference_energy(puzzle, values, moves) > 0
    deltas = set()
    for _ in range(1500):
        if stats[0] == 0:
            break
        before = values.copy()
        walk.step()
        if (values != before).any():
            deltas.add(int(stats[0]) - reference_energy(puzzle, before, moves))
        assert stats[0] == reference_energy(puzzle, values, moves)
    assert len(deltas) >= 4  # moves of several sizes were taken, up and down
    counts, masks, _ = unit_counts(walk.system, values)
    assert np.array_equal(walk.counts, counts) and np.array_equal(walk.masks, masks)


@pytest.mark.parametrize("temperature", [1e9, 0.5], ids=["hot", "cold"])
@pytest.mark.parametrize("text", [EVERY_KIND, UNITS_AND_PEERS, "killer"])
def test_single_site_steps_change_the_energy_as_the_full_energy_changes(
    text: str, temperature: float
) -> None:
    puzzle = killer(1) if text == "killer" else puzzle_of(text)
    system = single_site_system(puzzle)
    values = random_state(system, seed=5)
    conflicts, energy = site_conflicts(system, values)
    assert energy == reference_energy(puzzle, values, "single") > 0
    thresholds = thresholds_for(temperature, system.largest_change + 1)
    state = np.array([4242], dtype=np.uint64)
    stats = np.array([energy, energy, 0, 0, 0], dtype=np.int64)
    deltas = set()
    for _ in range(1500):
        before = values.copy()
        single_site_chain(
            values, values.copy(), conflicts, system.free, system.free_peer_ptr,
            system.free_peers, system.rules, thresholds, state, stats, 1,
        )  # fmt: skip
        if (values != before).any():
            deltas.add(int(stats[0]) - reference_energy(puzzle, before, "single"))
        assert stats[0] == reference_energy(puzzle, values, "single")
    assert len(deltas) >= 5


def test_a_swap_chain_with_rules_visits_states_with_boltzmann_frequencies() -> None:
    """Two boxes of three free cells (36 states), a cage and a thermometer across them: the
    rules' ΔE keeps the chain's law exp(−E/T)/Z."""
    text = "3 0 0 0\n0 0 1 0\n2 1 4 3\n4 3 2 1\n\ncage 5: r1c2 r2c2\nthermo: r2c1 r1c2 r1c3\n"
    puzzle = puzzle_of(text)
    system = swap_system(puzzle, "box")
    free = [system.groups[g][puzzle.givens[system.groups[g]] == 0] for g in range(2)]
    missing = [sorted({1, 2, 3, 4} - set(puzzle.givens[system.groups[g]].tolist())) for g in (0, 1)]
    energies = {}
    for orders in itertools.product(*(itertools.permutations(m) for m in missing)):
        values = puzzle.givens.copy()
        for cells, order in zip(free, orders, strict=True):
            values[cells] = order
        energies[tuple(values.tolist())] = reference_energy(puzzle, values, "box")
    assert len(energies) == 36 and len(set(energies.values())) >= 4
    temperature = 1.0
    walk = SwapWalk(system, temperature, seed=1)
    visits: Counter[tuple[int, ...]] = Counter()
    for _ in range(60_000):
        walk.step(budget=3)
        visits[tuple(walk.values.tolist())] += 1
    states = list(energies)

    def distance(t: float) -> float:
        weights = np.exp(-np.array([energies[s] for s in states]) / t)
        seen = np.array([visits[s] for s in states]) / sum(visits.values())
        return 0.5 * float(np.abs(seen - weights / weights.sum()).sum())

    assert set(visits) <= set(states)
    assert distance(temperature) < 0.02
    assert distance(1.3 * temperature) > 0.04  # the check has power


@pytest.mark.parametrize("moves", ["box", "row", "single"])
def test_puzzles_without_rules_keep_their_energies(moves: str) -> None:
    """No constraint: no tables, the kernels run without them, the energy is the units'."""
    plain = puzzle_of("1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n")
    drawn = puzzle_of("1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n\nline: r1c2 r2c2\ncircle: r3c3\n")
    assert drawn.rules and not drawn.lowered.constraints  # cosmetic rules: nothing to solve
    for puzzle in (plain, drawn):
        system = single_site_system(puzzle) if moves == "single" else swap_system(puzzle, moves)
        assert system.rules is None
        rng = np.random.default_rng(1)
        for _ in range(20):
            values = random_values(puzzle, rng)
            if isinstance(system, SiteSystem):
                energy = site_conflicts(system, values)[1]
            else:
                energy = unit_counts(system, values)[2]
                assert system.largest_change == system.pairs.shape[1] - 3
            assert energy == reference_energy(puzzle, values, moves)
    assert metropolis(plain, seed=2, moves=moves).solved


def test_chains_solve_with_rules_the_units_alone_do_not_fix() -> None:
    """An empty 9×9 with an anti-knight and a few rules: every chain's answer keeps the rules
    (checked against :func:`holds`) and the knight's moves, not just the units."""
    rules = "antiknight\ncage 3: r1c1 r1c2\nthermo: r2c1 r2c2 r2c3\nv: r3c3 r3c4\n"
    puzzle = puzzle_of("\n".join(["0 0 0 0 0 0 0 0 0"] * 9) + "\n\n" + rules)
    runs = [
        metropolis(puzzle, seed=1, timeout=20),
        metropolis(puzzle, seed=1, moves="row", timeout=20),
        metropolis(puzzle, seed=1, moves="single", timeout=20),
        metropolis(puzzle, seed=1, prune=True, timeout=20),
        tempering(puzzle, seed=1, prune=False, timeout=20),
        # seed 3 climbs to a solution in under a second; seed 1 restarts some 3 000 times
        # (13 s on two cores): what is tested is the answer, not the climb's luck
        hillclimb(puzzle, seed=3, timeout=60),
    ]
    for run in runs:
        assert run.solved and run.energy == 0
        assert problems(puzzle, run.values) == []
        assert broken(puzzle.lowered.constraints, run.values, puzzle.size) == []
        assert all(run.values[a] != run.values[b] for a, b in puzzle.lowered.peers)


def test_pruning_fixes_the_cells_rules_force() -> None:
    """A one-cell cage and a thermometer along a row force cells no unit forces: pruning
    fixes them, and a pruned chain counts them as forced."""
    text = EMPTY4 + "\ncage 2: r3c3\nthermo: r1c1 r1c2 r1c3 r1c4\n"
    puzzle = puzzle_of(text)
    givens, candidates = pruned(puzzle)
    assert candidates is not None
    assert givens[puzzle.index[2, 2]] == 2
    assert givens[puzzle.index[0]].tolist() == [1, 2, 3, 4]
    assert (pruned(puzzle_of(EMPTY4))[0] == 0).all()
    result = metropolis(puzzle, seed=3, prune=True, timeout=20)
    assert result.solved and result.forced >= 5
    assert broken(puzzle.lowered.constraints, result.values, puzzle.size) == []


def test_a_pruned_chain_keeps_cells_to_the_candidates_rules_leave() -> None:
    """Pruned by the rules, each free cell's candidates shrink, and the guided swaps keep
    each cell within them (up to the penalty): a solved chain always does."""
    puzzle = killer(2)
    partial = dataclasses.replace(puzzle, rules=puzzle.rules[:12])  # many solutions
    givens, candidates = pruned(partial)
    assert candidates is not None and (givens == 0).any()
    unruled = pruned(dataclasses.replace(puzzle, rules=()))[1]
    assert unruled is not None and (candidates != unruled).any()  # the cages narrowed them
    result = metropolis(partial, seed=4, prune=True, timeout=30)
    assert result.solved and problems(partial, result.values) == []
    assert broken(partial.lowered.constraints, result.values, partial.size) == []
    bits = np.uint64(1) << (result.values.astype(np.uint64) - np.uint64(1))
    assert ((candidates & bits) != 0).all()


def test_layouts_without_boxes_swap_within_rows() -> None:
    """A Latin square (``# box: none``): box moves are refused by name, the default moves
    and tempering swap within rows, and solve's metropolis picks rows for ``box``."""
    [square] = read_puzzles(text="# box: none\n" + "\n".join(["0 0 0 0 0"] * 5) + "\n")
    assert not (square.units.kind == BOX).any()
    assert default_moves(square) == "row"
    with pytest.raises(NdokuError, match=r"box moves need every cell in exactly one box, but "
                       r"the cell at line 2, column 1 lies in no box: use moves 'row' or "
                       r"'single'"):  # fmt: skip
        metropolis(square, moves="box")
    assert default_moves(puzzle_of(EMPTY4)) == "box"
    for run in (
        metropolis(square, seed=1, moves="row"),
        tempering(square, seed=1, prune=False),
        hillclimb(square, seed=1),
    ):
        assert run.solved and run.moves == "row" and problems(square, run.values) == []
    outcome = solve(square, "metropolis", Options(seed=1))
    assert outcome.status == "solved" and outcome.result.moves == "row"  # type: ignore[union-attr]


@pytest.mark.parametrize("name", ["consecutive_5x5", "consecutive_6x6"])
def test_tempering_solves_janko_consecutive_latin_squares(name: str) -> None:
    solutions = published(name)
    for puzzle, solution in zip(read_puzzles(VARIANTS / f"{name}.txt"), solutions, strict=True):
        outcome = solve(puzzle, "tempering", Options(seed=1, timeout=10))
        assert outcome.status == "solved"
        assert np.array_equal(outcome.values, solution)


@pytest.mark.parametrize("method", ["hybrid", "tempering"])
def test_hybrid_and_tempering_solve_every_janko_killer_9x9(method: str) -> None:
    """The issue's goal: each of the 162 within 10 s, to its published solution (timed once
    the kernels are compiled: a first solve, of a puzzle pruning does not fill, compiles
    them)."""
    puzzles = read_puzzles(VARIANTS / "killer_9x9.txt")
    solutions = published("killer_9x9")
    assert len(puzzles) == len(solutions) == 162
    solve(dataclasses.replace(puzzles[0], rules=puzzles[0].rules[:12]), method)
    for puzzle, solution in zip(puzzles, solutions, strict=True):
        outcome = solve(puzzle, method, Options(seed=1, timeout=10))
        assert outcome.status == "solved" and outcome.seconds < 10
        assert np.array_equal(outcome.values, solution)
