"""The generator: unique puzzles for every layout, solved by every method, as asked."""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

import numpy as np
import pytest

import ndoku.tasks.generate as gen
from ndoku.errors import LayoutError, NdokuError
from ndoku.model.layout import available_layouts
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.exact import solve_exact, solve_table
from ndoku.tasks.generate import (
    Generated,
    GenerateTimeout,
    generate,
    layout_puzzle,
    line_headers,
    puzzle_line,
    puzzle_text,
    random_solution,
    symmetry_groups,
)
from ndoku.tasks.rate import LEVELS, rate, singles
from ndoku.tasks.solve import Options, solve
from ndoku.tasks.thinning import Aim, thin, thin_singles
from ndoku.tasks.verify import problems

LAYOUTS = sorted(available_layouts())
#: Layouts whose minimal puzzles take long to prove (many seconds): thinned to a share only.
PARTIAL = {"25x25": 0.7, "36x36": 0.75}
#: Layouts without a left-right mirror symmetry (shape or regions).
NO_MIRROR = {"double", "jigsaw9", "triple", "twodoku", "twodoku16", "windmill"}


@cache
def empty(name: str) -> Puzzle:
    return layout_puzzle(name)


def target(name: str, share: float | None = None) -> int | None:
    """The givens asked of a layout in these tests: all that can go, or a share of cells."""
    share = PARTIAL.get(name) if share is None else share
    return None if share is None else math.ceil(share * empty(name).n_cells)


@cache
def made(name: str, symmetry: str = "none") -> Generated:
    return generate(empty(name), givens=target(name), symmetry=symmetry, seed=1)


def assert_proved(result: Generated, layout: Puzzle) -> None:
    """Exactly one solution (counted past 2), the one the generator gave, and it checks; the
    text reads back as the same puzzle of the same layout."""
    puzzle = result.puzzle
    counted = solve_exact(puzzle, limit=10)
    assert counted.count == 1 and counted.stop == "complete"
    assert np.array_equal(counted.values, result.solution)
    assert problems(puzzle, result.solution) == []
    given = puzzle.givens > 0
    assert result.givens == int(given.sum())
    assert np.array_equal(puzzle.givens[given], result.solution[given])
    [again] = read_puzzles(text=result.text)
    assert np.array_equal(again.givens, puzzle.givens)
    assert np.array_equal(again.units.ptr, layout.units.ptr)
    assert np.array_equal(again.units.cells, layout.units.cells)


@pytest.mark.parametrize("name", LAYOUTS)
def test_every_layout_gets_a_unique_puzzle(name: str) -> None:
    result = made(name)
    layout = empty(name)
    assert_proved(result, layout)
    assert result.reached and result.rating.status == "unique"
    if name in PARTIAL:
        assert result.stop == "target" and result.givens == target(name)
    else:
        assert result.stop == "minimal" and result.givens < layout.n_cells // 2


@pytest.mark.parametrize("name", LAYOUTS)
def test_every_method_solves_a_generated_puzzle(name: str) -> None:
    # the chain needs more givens than a minimal puzzle has on most layouts
    share = 0.5 if empty(name).size < 16 else 0.7
    result = generate(empty(name), givens=target(name, share), seed=2)
    assert_proved(result, empty(name))
    for method in ("auto", "exact", "metropolis", "hybrid"):
        outcome = solve(result.puzzle, method, Options(seed=0, timeout=30))
        assert outcome.status == "solved", method
        assert np.array_equal(outcome.values, result.solution), method


@pytest.mark.parametrize("name", ["9x9", "jigsaw9", "xsudoku", "twodoku"])
def test_minimal_puzzles_need_every_given(name: str) -> None:
    result = made(name)
    givens = result.puzzle.givens
    rows = np.repeat(givens[None, :], result.givens, axis=0)
    rows[np.arange(result.givens), np.flatnonzero(givens)] = 0
    assert (solve_table(result.puzzle, rows).counts == 2).all()


@pytest.mark.parametrize(
    ("name", "symmetry"),
    [(n, "rotational") for n in LAYOUTS] + [(n, "mirror") for n in LAYOUTS if n not in NO_MIRROR],
)
def test_symmetric_givens(name: str, symmetry: str) -> None:
    result = made(name, symmetry)
    assert_proved(result, empty(name))
    shown = result.puzzle.canvas(result.puzzle.givens) > 0
    image = shown[::-1, ::-1] if symmetry == "rotational" else shown[:, ::-1]
    assert np.array_equal(shown, image)
    assert result.givens > 0


@pytest.mark.parametrize("name", sorted(NO_MIRROR))
def test_a_symmetry_the_layout_lacks_is_refused(name: str) -> None:
    what = "boxes, regions or extra units" if name == "jigsaw9" else "shape"
    with pytest.raises(NdokuError, match=f"layout {name} has no mirror symmetry: its {what}"):
        generate(empty(name), symmetry="mirror")


def test_extra_units_must_be_symmetric_too(tmp_path: Path) -> None:
    text = (available_layouts()["4x4"]).read_text()
    path = tmp_path / "odd.txt"
    path.write_text("# unit: 0,0 1,2 2,1 3,3\n" + text)  # its mirror image is no unit
    layout = layout_puzzle(str(path))
    assert len(symmetry_groups(layout, "rotational")) == 8  # the half turn keeps it
    with pytest.raises(NdokuError, match="boxes, regions or extra units change under a left"):
        symmetry_groups(layout, "mirror")
    result = generate(layout, symmetry="rotational", seed=4)
    assert_proved(result, layout)
    assert "# unit: 0,0 1,2 2,1 3,3" in result.text


def test_unknown_symmetry() -> None:
    with pytest.raises(NdokuError, match="unknown symmetry 'diagonal'"):
        symmetry_groups(empty("9x9"), "diagonal")


def test_a_target_is_met_exactly() -> None:
    result = generate(empty("9x9"), givens=30, seed=5)
    assert result.givens == 30 and result.stop == "target" and result.reached
    assert_proved(result, empty("9x9"))
    full = generate(empty("9x9"), givens=81, seed=5)
    assert full.givens == 81 and full.stop == "target" and full.rating.level == "singles"
    assert full.rating.steps == 0 and full.rating.hardest is None


def test_symmetric_pairs_stop_at_the_target_or_one_above() -> None:
    for givens in (30, 31):
        result = generate(empty("9x9"), givens=givens, symmetry="rotational", seed=6)
        assert givens <= result.givens <= givens + 1
        assert result.reached == (result.givens == givens)
        assert_proved(result, empty("9x9"))


def test_a_target_below_what_the_puzzle_reaches_is_reported() -> None:
    result = generate(empty("9x9"), givens=17, seed=0)
    assert result.stop == "minimal" and not result.reached and result.givens > 17
    assert_proved(result, empty("9x9"))


@pytest.mark.parametrize(("givens", "message"), [(7, r"at least N − 1 = 8"), (82, "81 cells")])
def test_targets_outside_the_bounds_are_refused(givens: int, message: str) -> None:
    with pytest.raises(NdokuError, match=message):
        generate(empty("9x9"), givens=givens)
    generate(empty("9x9"), givens=8)  # the bound itself is allowed (and stops at minimal)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"givens": 30, "difficulty": "singles"}, "not both"),
        ({"givens": 30, "needs": "X-wing"}, "not both"),
        ({"difficulty": "fiendish"}, r"unknown difficulty 'fiendish' \(known: singles, rules"),
        ({"difficulty": "hard"}, "'hard' is gone: levels are named by what a solving path"),
        ({"needs": "unicorn"}, r"unknown technique 'unicorn' \(known: full house, hidden"),
        ({"difficulty": "subsets", "needs": "XY-wing"}, "level subsets cannot use XY-wing"),
        ({"seed": -1}, "seed must be a whole number from 0"),
        ({"timeout": 0}, "timeout must be a positive"),
    ],
)
def test_bad_arguments(options: dict[str, object], message: str) -> None:
    with pytest.raises(NdokuError, match=message):
        generate(empty("9x9"), **options)  # type: ignore[arg-type]


def test_same_seed_same_puzzle() -> None:
    # (the comment line's rating may be cut short by the time its path takes on a Samurai)
    first = generate(empty("samurai"), seed=7)
    again = generate(empty("samurai"), seed=7)
    assert np.array_equal(again.puzzle.givens, first.puzzle.givens)
    assert np.array_equal(again.solution, first.solution)
    other = generate(empty("samurai"), seed=8)
    assert not np.array_equal(other.puzzle.givens, first.puzzle.givens)


#: The levels a random 9×9 reaches within a few attempts (see the README for their costs);
#: ``rules`` is the level of puzzles with variant rules, which a classic 9×9 has none of.
REACHED_ON_9X9 = [level for level in LEVELS if level not in ("rules", "search")]


@pytest.mark.parametrize("level", REACHED_ON_9X9)
def test_levels_are_reached_on_9x9(level: str) -> None:
    result = generate(empty("9x9"), difficulty=level, seed=3)
    assert result.rating.level == level and result.stop == "level" and result.reached
    assert result.rating.path == "solved"
    assert_proved(result, empty("9x9"))
    assert rate(result.puzzle).level == level  # rated again from the text, the same
    assert singles(result.puzzle) == (level == "singles")


def test_the_same_seed_makes_the_same_leveled_puzzle() -> None:
    first = generate(empty("9x9"), difficulty="Wings", seed=4)
    assert generate(empty("9x9"), difficulty="wings", seed=4).text == first.text
    assert first.rating.level == "wings"


@pytest.mark.parametrize(
    "technique", ["X-wing", "x wing", "Naked_Pair", "claiming", "Alternating-Inference chain"]
)
def test_a_puzzle_that_needs_a_technique(technique: str) -> None:
    result = generate(empty("9x9"), needs=technique, seed=1)
    name = {
        "x wing": "X-wing",
        "Naked_Pair": "naked pair",
        "Alternating-Inference chain": "alternating inference chain",
    }.get(technique, technique)
    assert name in result.rating.counts and result.stop == "level" and result.reached
    assert_proved(result, empty("9x9"))


def test_a_technique_at_a_level() -> None:
    result = generate(empty("9x9"), difficulty="fish", needs="X-wing", seed=2)
    assert result.rating.level == "fish" and "X-wing" in result.rating.counts
    # a puzzle of another level, or one without the technique, does not fit
    aim = Aim.of("fish", "X-wing")
    assert aim is not None and aim.fits(result.rating)
    assert not aim.fits(generate(empty("9x9"), difficulty="wings", seed=2).rating)
    assert not aim.fits(generate(empty("9x9"), difficulty="singles", seed=2).rating)


@pytest.mark.parametrize("name", ["samurai", "16x16"])
def test_levels_on_bigger_layouts(name: str) -> None:
    easy = generate(empty(name), difficulty="singles", seed=0)
    assert easy.rating.level == "singles" and easy.attempts == 1 and singles(easy.puzzle)
    if name == "samurai":  # (a minimal Samurai needs chains or more: the bisection finds it)
        harder = generate(empty(name), difficulty="subsets", seed=0)
        assert harder.rating.level == "subsets" and harder.reached
        assert not singles(harder.puzzle)


def test_an_unreachable_level_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gen, "MAX_ATTEMPTS", 5)
    result = generate(empty("4x4"), difficulty="forcing chains", seed=0)
    assert result.stop == "attempts" and not result.reached and result.attempts == 5
    assert result.rating.level == "singles"  # the closest a 4×4 came
    assert_proved(result, empty("4x4"))
    result = generate(empty("4x4"), needs="swordfish", seed=0)
    assert result.stop == "attempts" and "swordfish" not in result.rating.counts


def test_the_timeout_returns_the_unique_puzzle_reached() -> None:
    generate(empty("4x4"))  # kernels compiled (after a change) outside the timed calls
    result = generate(empty("36x36"), timeout=0.5, seed=0)
    assert result.stop == "timeout" and not result.reached
    assert result.givens < empty("36x36").n_cells
    assert_proved(result, empty("36x36"))
    with pytest.raises(GenerateTimeout, match="no solution of the layout found"):
        generate(empty("9x9"), timeout=1e-9)
    # no random 9×9 has needed a guess yet: the time runs out first
    band = generate(empty("9x9"), difficulty="search", timeout=0.5, seed=2)
    assert band.stop == "timeout" and not band.reached and band.rating.level != "search"
    assert band.attempts >= 1
    assert_proved(band, empty("9x9"))


@pytest.mark.parametrize("name", ["jigsaw9", "samurai", "sumo", "twodoku16", "36x36"])
def test_random_solutions_are_solutions(name: str) -> None:
    rng = np.random.default_rng(0)
    first = random_solution(empty(name), rng, math.inf)
    second = random_solution(empty(name), rng, math.inf)
    assert first is not None and second is not None
    assert problems(empty(name), first) == [] and problems(empty(name), second) == []
    assert not np.array_equal(first, second)


def test_the_chain_takes_over_when_the_search_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def hopeless(*args: object, **options: object) -> object:
        return solve_exact(*args, **{**options, "max_nodes": 1})  # type: ignore[arg-type]

    monkeypatch.setattr(gen, "solve_exact", hopeless)
    values = random_solution(empty("jigsaw9"), np.random.default_rng(1), math.inf)
    assert values is not None and problems(empty("jigsaw9"), values) == []


@pytest.mark.parametrize("name", ["samurai", "9x9"])
def test_thinning_by_singles(name: str) -> None:
    layout = empty(name)
    full = random_solution(layout, np.random.default_rng(4), math.inf)
    assert full is not None
    givens, stop = thin_singles(layout, full, symmetry_groups(layout))
    assert stop == "minimal" and singles(layout, givens)
    # every given left is needed by these singles
    for cell in np.flatnonzero(givens)[:40]:
        trial = givens.copy()
        trial[cell] = 0
        assert not singles(layout, trial)


def test_thinning_to_a_target() -> None:
    layout = empty("9x9")
    full = random_solution(layout, np.random.default_rng(3), math.inf)
    assert full is not None
    givens, stop = thin(layout, full, symmetry_groups(layout), target=40)
    assert stop == "target" and int((givens > 0).sum()) == 40
    assert solve_exact(layout, givens=givens).unique


def test_layout_files_and_errors(tmp_path: Path) -> None:
    assert layout_puzzle(str(available_layouts()["windmill"])).layout.corners == (
        empty("windmill").layout.corners
    )
    with pytest.raises(LayoutError, match="unknown layout 'nope' \\(known layouts: 10x10"):
        layout_puzzle("nope")
    puzzle = Path(__file__).parent / "data" / "janko" / "samurai" / "1_21x21.puzzle.txt"
    with pytest.raises(NdokuError, match=r"has \d+ givens; a layout is an empty grid"):
        layout_puzzle(str(puzzle))
    batch = tmp_path / "batch.txt"
    batch.write_text("." * 81 + "\n" + "." * 81 + "\n")
    with pytest.raises(NdokuError, match="holds 2 puzzles"):
        layout_puzzle(str(batch))


@pytest.mark.parametrize("name", ["jigsaw9", "windmill", "6x6", "xsudoku", "windoku", "flower"])
def test_text_carries_the_layout(name: str) -> None:
    layout = empty(name)
    text = puzzle_text(layout, made(name).puzzle.givens, comment="made here")
    assert text.startswith("# made here\n")
    [again] = read_puzzles(text=text)
    assert np.array_equal(again.units.cells, layout.units.cells)
    assert np.array_equal(again.givens, made(name).puzzle.givens)


@pytest.mark.parametrize("name", ["4x4", "9x9", "16x16", "25x25", "jigsaw9", "xsudoku", "windoku"])
def test_lines_read_back_as_the_layout(name: str) -> None:
    result = made(name)
    text = "".join(h + "\n" for h in line_headers(empty(name), name))
    text += puzzle_line(result.puzzle) + "\n" + puzzle_line(result.puzzle, result.solution) + "\n"
    first, second = read_puzzles(text=text)
    assert np.array_equal(first.givens, result.puzzle.givens)
    assert np.array_equal(second.givens, result.solution)
    assert np.array_equal(first.units.cells, result.puzzle.units.cells)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("samurai", "holds one grid; samurai has 5 sub-grids"),
        ("6x6", "holds n⁴ cells .*; 6x6 has 36"),
        ("36x36", "one character per symbol; 36x36 has 36 symbols"),
    ],
)
def test_lines_refuse_what_they_cannot_hold(name: str, message: str) -> None:
    with pytest.raises(NdokuError, match=message):
        puzzle_line(empty(name))
