"""The janko variant sets of ``tests/data/variants`` (killer, consecutive, even-odd, outside
sums, skyscraper, clueless): every puzzle solves to its published solution and is proved
unique, one at a time, as a batch, through f-puzzles JSON that ndoku wrote, and through
``ndoku count``; and the killer Samurai example."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

from benchmarks.bench_variants import Published, variant_set
from ndoku import solve
from ndoku.model.exchange import fpuzzles_data, read_exchanged
from ndoku.model.puzzle import read_puzzles
from ndoku.solvers.exact import ExactResult, solve_batch, solve_exact
from ndoku.tasks.verify import problems
from ndoku.text.links import exchanged

if TYPE_CHECKING:
    from conftest import CliRun

VARIANTS = Path(__file__).parent / "data" / "variants"
EXAMPLES = Path(__file__).parent.parent / "examples"
NAMES = sorted(
    p.name.removesuffix(".txt")
    for p in VARIANTS.glob("*.txt")
    if not p.name.endswith(".solutions.txt")
)


@cache
def published(name: str) -> list[Published]:
    """A set's puzzles and published solutions, read once for all the tests."""
    return variant_set(name)[0]


def test_every_set_is_here() -> None:
    """474 puzzles, as ``tests/data/SOURCES.md`` counts them, each with its solution line."""
    sizes = {name: len(published(name)) for name in NAMES}
    assert sum(sizes.values()) == 474
    assert sizes["killer_9x9"] == 162 and sizes["clueless2"] == 13


@pytest.mark.parametrize("name", NAMES)
def test_solves_to_the_published_solution(name: str) -> None:
    """``ndoku.solve`` (exact, its answer verified) finds the published solution and proves
    it unique."""
    for entry in published(name):
        outcome = solve(entry.puzzle)
        assert outcome.status == "solved", entry.source
        assert isinstance(outcome.result, ExactResult) and outcome.result.unique is True
        assert outcome.values is not None
        assert outcome.values.tolist() == entry.solution, entry.source


@pytest.mark.parametrize("name", NAMES)
def test_a_batch_solves_each_puzzle_by_its_own_rules(name: str) -> None:
    """The puzzles of a set share a layout but not their rules: solved together, each is
    still solved to its own published solution."""
    entries = published(name)
    results = solve_batch([entry.puzzle for entry in entries])
    for entry, result in zip(entries, results, strict=True):
        assert result.unique is True and result.values is not None, entry.source
        assert result.values.tolist() == entry.solution, entry.source
        assert problems(entry.puzzle, result.values) == [], entry.source


@pytest.mark.parametrize("name", [name for name in NAMES if not name.startswith("clueless")])
def test_through_fpuzzles_json_ndoku_wrote(name: str) -> None:
    """Each puzzle written as f-puzzles JSON and read back solves to its published solution
    (the clueless 27×27 sets are no f-puzzles grids)."""
    for entry in published(name):
        converted = exchanged(json.dumps(fpuzzles_data(entry.puzzle)))
        assert converted is not None
        [back] = read_exchanged(converted)
        assert back.givens.tolist() == entry.puzzle.givens.tolist(), entry.source
        result = solve_exact(back)
        assert result.unique is True and result.values is not None, entry.source
        assert result.values.tolist() == entry.solution, entry.source


@pytest.mark.parametrize("name", NAMES)
def test_count_proves_each_unique(run: CliRun, name: str) -> None:
    """``ndoku count FILE`` says 1 for every puzzle of the file."""
    code, out, err = run("count", str(VARIANTS / f"{name}.txt"))
    assert (code, err) == (0, "")
    assert out.split() == ["1"] * len(published(name))


def test_published_solutions_break_no_rule() -> None:
    """The converted rules agree with the published solutions, every set; and the check sees
    the rules: a killer or outside-sum puzzle (no givens) given another's solution, a valid
    sudoku, is told which rule it breaks."""
    for name in NAMES:
        for entry in published(name):
            assert problems(entry.puzzle, np.array(entry.solution)) == [], entry.source
    for name in ("killer_4x4", "killer_6x6", "killer_9x9", "margin"):
        first, second = published(name)[:2]
        assert not first.puzzle.givens.any()
        assert problems(first.puzzle, np.array(second.solution))


def test_the_killer_samurai_example_is_unique() -> None:
    """``examples/killer_samurai.txt`` (made by ``examples/make_killer_samurai.py``): cages of
    2 to 6 cells, a unique solution, and it is the solution of the Samurai it was cut from."""
    [killer] = read_puzzles(EXAMPLES / "killer_samurai.txt")
    [samurai] = read_puzzles(EXAMPLES / "samurai.txt")
    assert all(rule.kind == "cage" and 2 <= len(rule.cells) <= 6 for rule in killer.rules)
    assert sorted(c for rule in killer.rules for c in rule.cells) == list(range(killer.n_cells))
    result, original = solve_exact(killer), solve_exact(samurai)
    assert result.unique is True and result.values is not None and original.values is not None
    assert result.values.tolist() == original.values.tolist()
