"""The rating: singles against a plain reference, levels in order on the calibration sets."""

from __future__ import annotations

import statistics
from pathlib import Path

import numpy as np
import pytest

from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.tasks.generate import layout_puzzle
from ndoku.tasks.rate import EXPERT_GUESSES, level_of, rate, score_of, singles

#: The calibration sets in tests/data, easiest first by their sources' own account.
ORDER = (
    "kaggle_bryanpark_first69",
    "norvig_easy50",
    "sudoku_exchange_diabolical_first100",
    "norvig_top95",
    "forum_hardest_1106_first40",
)


def sample(data: Path, name: str) -> list[Puzzle]:
    return read_puzzles(data / "sudoku9" / f"{name}.txt")


def reference_singles(puzzle: Puzzle, hidden: bool) -> tuple[bool, int]:
    """Singles in rounds, written plainly with Python sets: (solved, rounds)."""
    values = puzzle.givens.tolist()
    units = [puzzle.units[u].tolist() for u in range(len(puzzle.units))]
    mine = [[u for u in units if cell in u] for cell in range(puzzle.n_cells)]
    symbols = set(range(1, puzzle.size + 1))
    rounds = 0
    while True:

        def candidates(cell: int) -> set[int]:
            return symbols - {values[other] for unit in mine[cell] for other in unit}

        found = {c: candidates(c) for c in range(puzzle.n_cells) if values[c] == 0}
        placed = {c: min(found[c]) for c in found if len(found[c]) == 1}
        if hidden:
            for unit in units:
                for symbol in symbols - {values[c] for c in unit}:
                    places = [c for c in unit if values[c] == 0 and symbol in found[c]]
                    if len(places) == 1:
                        placed[places[0]] = symbol
        if not placed:
            return 0 not in values, rounds
        rounds += 1
        for cell, symbol in placed.items():
            values[cell] = symbol


@pytest.mark.parametrize("name", ["norvig_easy50", "kaggle_bryanpark_first69", "norvig_hardest11"])
def test_singles_match_a_plain_reference(data: Path, name: str) -> None:
    for puzzle in sample(data, name)[:12]:
        for hidden in (False, True):
            found = singles(puzzle, hidden=hidden)
            assert (found.solved, found.rounds) == reference_singles(puzzle, hidden)


def test_singles_on_a_multigrid_and_a_jigsaw(data: Path) -> None:
    for path, layout in [
        (data / "janko" / "samurai" / "2_21x21.puzzle.txt", None),
        (data / "janko" / "jigsaw" / "93_9x9.puzzle.txt", None),
        (data / "janko" / "windmill" / "1_21x21.puzzle.txt", "windmill"),
    ]:
        [puzzle] = read_puzzles(path, layout=layout)
        for hidden in (False, True):
            found = singles(puzzle, hidden=hidden)
            assert (found.solved, found.rounds) == reference_singles(puzzle, hidden)


def test_singles_see_a_contradiction() -> None:
    [puzzle] = read_puzzles(text="0 1 0 0\n2 0 0 0\n3 0 0 0\n4 0 0 0\n")
    found = singles(puzzle)
    assert found.contradiction and not found.solved
    # two naked singles of the first round both put a 4 in the top row: seen at once
    [puzzle] = read_puzzles(text="0 0 1 2\n3 0 0 0\n2 0 0 0\n0 3 0 0\n")
    found = singles(puzzle, hidden=False)
    assert found.contradiction and found.rounds == 1


def test_ratings_rise_along_the_calibration_sets(data: Path) -> None:
    medians = []
    for name in ORDER:
        scores = [rate(p).score for p in sample(data, name)]
        assert None not in scores
        medians.append(statistics.median(scores))  # type: ignore[type-var]
    assert medians == sorted(medians) and len(set(medians)) == len(medians)
    hardest = statistics.median(rate(p).score for p in sample(data, "norvig_hardest11"))  # type: ignore[type-var]
    # Norvig's list of puzzles once called hardest sits between diabolical and top95
    assert medians[2] < hardest < medians[3]


def test_levels_of_the_extreme_sets(data: Path) -> None:
    assert {rate(p).level for p in sample(data, "kaggle_bryanpark_first69")} == {"easy"}
    assert {rate(p).level for p in sample(data, "forum_hardest_1106_first40")} == {"expert"}
    easy50 = [rate(p).level for p in sample(data, "norvig_easy50")]
    assert "expert" not in easy50 and easy50.count("medium") > easy50.count("hard")


def test_the_chain_opinion(data: Path) -> None:
    easy = [rate(p, chains=3) for p in sample(data, "kaggle_bryanpark_first69")[:3]]
    harder = [rate(p, chains=3) for p in sample(data, "sudoku_exchange_diabolical_first100")[:3]]
    assert all(r.chains_solved == 3 and not r.at_least for r in easy + harder)
    assert max(r.proposals or 0 for r in easy) < min(r.proposals or 0 for r in harder)
    capped = rate(sample(data, "norvig_top95")[0], chains=2, max_proposals=1000)
    assert capped.at_least and capped.proposals == 1000 and capped.chains_solved == 0
    assert rate(sample(data, "norvig_top95")[0]).proposals is None


def test_puzzles_without_one_solution_are_not_rated(data: Path) -> None:
    several = sample(data, "serg_benchmark_sample1k")[0]
    assert rate(several).status == "multiple"
    counts = (data / "sudoku9" / "tdoku_test_puzzles_counts.txt").read_text().split()
    none = next(line.split(":")[0] for line in counts if line.split(":")[1] == "0")
    [puzzle] = read_puzzles(text=none)
    rating = rate(puzzle, chains=1)
    assert (rating.status, rating.level, rating.score, rating.proposals) == (
        "none",
        None,
        None,
        None,
    )
    line = (data / "sudoku25" / "gecode_25x25_shared6.txt").read_text().split()[1]
    [slow] = read_puzzles(text=line.split(",")[0])  # seconds of search
    assert rate(slow, timeout=0.05).status == "limit"


def test_levels_and_scores() -> None:
    assert level_of(False, False, EXPERT_GUESSES) == "hard"
    assert level_of(False, False, EXPERT_GUESSES + 1) == "expert"
    assert score_of(False, True, 5) == 1.0 and score_of(False, False, 0) == 2.0
    assert score_of(False, False, EXPERT_GUESSES) == pytest.approx(5.459, abs=1e-3)


def test_bigger_grids_are_rated(data: Path) -> None:
    [sumo] = read_puzzles(data / "janko" / "sumo" / "1_33x33.puzzle.txt")
    [hexa] = read_puzzles(data / "janko" / "16x16" / "301_16x16.puzzle.txt")
    for puzzle in (sumo, hexa):
        rating = rate(puzzle)
        assert rating.status == "unique" and rating.level in ("easy", "medium", "hard")
        assert rating.values is not None
        assert np.array_equal(rating.values[puzzle.givens > 0], puzzle.givens[puzzle.givens > 0])
    empty = layout_puzzle("16x16")
    assert rate(empty).status == "multiple"


def test_record_is_json_ready(data: Path) -> None:
    record = rate(sample(data, "norvig_easy50")[1], chains=1).record()
    assert record["level"] == "medium" and record["score"] == 1.0 and record["chains"] == 1
    assert "values" not in record
