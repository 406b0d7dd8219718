"""Killer puzzles made on any layout: the cut into cages (every cell once, neighbours, different
values), and ``generate --rules killer`` through the library and the CLI, each puzzle read
back, proved unique and its cages summing its solution."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import CliRun

from ndoku.errors import NdokuError
from ndoku.model.puzzle import read_puzzles
from ndoku.solvers.exact import solve_exact
from ndoku.solvers.random import generator
from ndoku.tasks.caging import MOST_CELLS, cut_cages, neighbours
from ndoku.tasks.generate import generate, layout_puzzle, random_solution
from ndoku.tasks.verify import problems


def _connected(cage: tuple[int, ...], near: list[list[int]]) -> bool:
    seen, todo = {cage[0]}, [cage[0]]
    while todo:
        for q in near[todo.pop()]:
            if q in cage and q not in seen:
                seen.add(q)
                todo.append(q)
    return len(seen) == len(cage)


@pytest.mark.parametrize("layout", ["4x4", "6x6", "9x9", "jigsaw9", "samurai", "16x16"])
def test_a_cut_covers_the_canvas_with_cages_of_neighbours_and_different_values(
    layout: str,
) -> None:
    puzzle = layout_puzzle(layout)
    near = neighbours(puzzle)
    for seed in range(3):
        solution = random_solution(puzzle, generator(seed), float("inf"))
        assert solution is not None
        cages = cut_cages(puzzle, solution, generator(seed))
        assert sorted(c for cage in cages for c in cage) == list(range(puzzle.n_cells))
        for cage in cages:
            assert 2 <= len(cage) <= MOST_CELLS and _connected(cage, near)
            assert len({int(solution[c]) for c in cage}) == len(cage)
        assert cut_cages(puzzle, solution, generator(seed)) == cages  # the seed remakes it


# (a killer Samurai: the example's test below makes one)
@pytest.mark.parametrize("layout", ["6x6", "9x9", "jigsaw9"])
def test_a_generated_killer_reads_back_unique_with_its_cages(layout: str) -> None:
    made = generate(layout_puzzle(layout), rules="killer", seed=2)
    [again] = read_puzzles(text=made.text)
    cages = [rule for rule in again.rules if rule.kind == "cage"]
    assert cages and len(cages) == len(again.rules)
    assert sorted(c for rule in cages for c in rule.cells) == list(range(again.n_cells))
    assert all(rule.value == int(made.solution[list(rule.cells)].sum()) for rule in cages)
    proof = solve_exact(again)
    assert proof.unique and np.array_equal(proof.values, made.solution)
    assert problems(again, made.solution) == []
    assert made.reached and made.rating.status == "unique"
    # the cages carry what givens carry in a classic puzzle of the layout
    assert made.givens < generate(layout_puzzle(layout), seed=2).givens


def test_the_cages_alone_can_make_a_killer_with_no_given() -> None:
    # seed 2 of a 9×9: the first cut that needs no given is unique (the check found it)
    made = generate(layout_puzzle("9x9"), rules="killer", seed=2)
    assert made.givens == 0 and made.stop == "target"


def test_rules_refused_where_they_cannot_be_made() -> None:
    with pytest.raises(NdokuError, match="unknown rules 'sandwich'"):
        generate(layout_puzzle("4x4"), rules="sandwich")
    for asked in ({"difficulty": "rules"}, {"needs": "cage combinations"}):
        with pytest.raises(NdokuError, match="need a puzzle with rules: ask for them with"):
            generate(layout_puzzle("9x9"), **asked)  # type: ignore[arg-type]
    [caged] = read_puzzles(text="0 0 0 0\n" * 4 + "\ncage 3: r1c1 r1c2\n")
    with pytest.raises(NdokuError, match="give it a layout without rules"):
        generate(caged, rules="killer")


def test_generate_rules_killer_through_the_cli(run: CliRun) -> None:
    code, out, _ = run("generate", "6x6", "--rules", "killer", "--seed", "4", "--format", "json")
    record = json.loads(out)
    assert code == 0 and record["rules"] == "killer"
    assert "--rules killer" in record["puzzle"].splitlines()[0]
    code, solved, _ = run("solve", "-", input=record["puzzle"])
    assert code == 0
    [puzzle] = read_puzzles(text=record["puzzle"])
    [answer] = read_puzzles(text=solved.split("\n\n")[0] + "\n")
    assert problems(puzzle, answer.givens) == []
    code, _, err = run("generate", "9x9", "--rules", "killer", "--format", "line")
    assert code == 2 and "a line holds no rules" in err


def test_the_generated_killer_samurai_example_is_what_its_command_makes() -> None:
    """``examples/killer_samurai_generated.txt``: the seed remakes it (its comment line
    aside: the rating's path there stops at a time limit, which a faster machine passes)."""
    example = Path(__file__).parent.parent / "examples" / "killer_samurai_generated.txt"
    made = generate(layout_puzzle("samurai"), rules="killer", seed=0)
    assert made.text.split("\n", 1)[1] == example.read_text().split("\n", 1)[1]
    assert made.givens == 0
