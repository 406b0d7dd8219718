"""``ndoku hint`` and ``ndoku explain`` through the CLI: sentences, JSON records, exit
statuses, partly solved grids and the puzzle's own symbols."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import CliRun

from ndoku.errors import NdokuError
from ndoku.model.puzzle import read_puzzles
from ndoku.solvers.exact import solve_exact
from ndoku.solvers.logic import Board, solve_path
from ndoku.tasks.explain import explain, proved_by_logic

DATA = Path(__file__).parent / "data"
EASY = DATA / "sudoku9" / "norvig_easy50.txt"
KEYS = ["step", "technique", "text", "cells", "placements", "eliminations"]


def first_line(tmp_path: Path, source: Path, line: int = 0) -> Path:
    path = tmp_path / "one.txt"
    path.write_text(source.read_text().splitlines()[line] + "\n")
    return path


def test_hint_names_the_technique_and_the_cell(run: CliRun, tmp_path: Path) -> None:
    code, out, _ = run("hint", str(first_line(tmp_path, EASY)))
    assert code == 0
    assert out.startswith("Hidden single: in ") and " can only go in r" in out


def test_hint_json_has_the_keys_scripts_rely_on(run: CliRun) -> None:
    code, out, _ = run("hint", str(DATA / "samurai" / "jss_samurai.txt"), "--format", "json")
    record = json.loads(out)
    assert code == 0 and [k for k in KEYS if k in record] == KEYS
    (row, col, symbol), *_ = record["placements"]
    [puzzle] = read_puzzles(DATA / "samurai" / "jss_samurai.txt")
    solution = solve_exact(puzzle).values
    assert solution is not None
    assert str(solution[puzzle.index[row, col]]) == symbol  # 0-based canvas, its own symbol


def test_a_partly_solved_grid_gets_the_next_step(run: CliRun, tmp_path: Path) -> None:
    path = first_line(tmp_path, EASY)
    _, out, _ = run("hint", str(path), "--format", "json")
    row, col, symbol = json.loads(out)["placements"][0]
    text = path.read_text()
    filled = text[: row * 9 + col] + symbol + text[row * 9 + col + 1 :]
    path.write_text(filled)
    _, again, _ = run("hint", str(path), "--format", "json")
    assert json.loads(again)["placements"][0] != [row, col, symbol]


def test_explain_walks_to_the_solution_and_sums_up(run: CliRun, tmp_path: Path) -> None:
    code, out, _ = run("explain", str(first_line(tmp_path, EASY)))
    lines = out.splitlines()
    assert code == 0
    assert lines[0].startswith("1. ") and lines[-1].startswith("# solved in ")
    assert len(lines) - 1 == int(lines[-1].split()[3])


def test_explain_heads_each_puzzle_of_a_batch(run: CliRun, tmp_path: Path) -> None:
    lines = EASY.read_text().splitlines()[:3]
    path = tmp_path / "three.txt"
    path.write_text("".join(line.split(",")[0][:81] + "\n" for line in lines))
    code, out, _ = run("explain", str(path))
    heads = [line for line in out.splitlines() if line.startswith("# puzzle ")]
    assert code == 0 and heads == ["# puzzle 1", "# puzzle 2", "# puzzle 3"]
    single = run("explain", str(first_line(tmp_path, EASY)))[1]
    assert "# puzzle" not in single


def test_explain_json_ends_with_the_path(run: CliRun, tmp_path: Path) -> None:
    _, out, _ = run("explain", str(first_line(tmp_path, EASY)), "--format", "json")
    *steps, summary = (json.loads(line) for line in out.splitlines())
    assert [s["step"] for s in steps] == list(range(1, len(steps) + 1))
    assert summary["stop"] == "solved" and summary["steps"] == len(steps)


def test_where_no_technique_applies_the_path_says_it_guesses(run: CliRun, tmp_path: Path) -> None:
    hardest = DATA / "sudoku9" / "forum_hardest_1106_first40.txt"
    code, out, _ = run("explain", str(first_line(tmp_path, hardest)))
    assert code == 0 and out.splitlines()[-1].startswith("# solved in ")
    assert "Guess: no technique applies; " in out and "guess ×" in out


def test_a_puzzle_with_several_solutions_is_refused(run: CliRun) -> None:
    code, _, err = run("hint", str(Path("layouts") / "4x4.txt"))
    assert code == 2 and "exactly one solution" in err and "more than one" in err


def test_hexadoku_steps_use_its_own_symbols(run: CliRun) -> None:
    path = DATA / "janko" / "16x16" / "301_16x16.puzzle.txt"
    _, out, _ = run("explain", str(path), "--format", "json")
    symbols = {p[2] for line in out.splitlines()[:-1] for p in json.loads(line)["placements"]}
    [puzzle] = read_puzzles(path)
    solution = solve_exact(puzzle).values
    written = set(puzzle.text(solution).split())  # the answer in the puzzle's own alphabet
    assert len(symbols) == 16 and symbols == written - {"."}


DIABOLICAL = DATA / "sudoku9" / "sudoku_exchange_diabolical_first100.txt"


def _sukaku(board: Board) -> str:
    """The board as a sukaku line: nine characters per cell, a value's digit where it is a
    candidate (or placed), ``.`` where not."""
    return "".join(
        str(v) if board.cand[c, v - 1] or board.values[c] == v else "."
        for c in range(len(board.values))
        for v in range(1, 10)
    )


def test_hint_assumes_uniqueness_only_when_asked(run: CliRun, tmp_path: Path) -> None:
    # the 9th diabolical puzzle's path meets a unique rectangle at step 37
    [puzzle] = read_puzzles(text=DIABOLICAL.read_text().splitlines()[8] + "\n")
    told = explain(puzzle, assume_unique=True)
    k = next(k for k, s in enumerate(told.path.steps) if s.technique == "unique rectangle type 1")
    board = list(told.boards())[k]
    path = tmp_path / "marks.txt"
    path.write_text(_sukaku(board) + "\n")
    _, plain, _ = run("hint", str(path))
    code, out, _ = run("hint", str(path), "--assume-unique", "--format", "json")
    record = json.loads(out)
    assert code == 0 and not plain.startswith("Unique rectangle")
    assert record["technique"] == "unique rectangle type 1"
    assert record["text"] == told.text(k) and " could swap places in them " in record["text"]
    assert len(record["cells"]) == 4 and len(record["eliminations"]) == 2


def test_rate_and_explain_with_assume_unique(run: CliRun, tmp_path: Path) -> None:
    one = first_line(tmp_path, DIABOLICAL, 8)
    _, out, _ = run("rate", str(one), "--chains", "0", "--format", "json")
    code, assumed, _ = run("rate", str(one), "--chains", "0", "--format", "json", "--assume-unique")
    assert code == 0 and "unique rectangle type 1" in json.loads(assumed)["techniques"]
    assert "unique rectangle type 1" not in json.loads(out)["techniques"]
    code, out, _ = run("explain", str(one), "--assume-unique")
    assert code == 0 and "unique rectangle type 1 ×1" in out.splitlines()[-1]
    # several solutions: still refused, or not rated, as without the option
    several = str(Path("layouts") / "4x4.txt")
    code, _, err = run("explain", several, "--assume-unique")
    assert code == 2 and "exactly one solution" in err
    code, out, _ = run("rate", several, "--assume-unique", "--chains", "0")
    assert code == 1 and out.startswith("not rated: more than one solution")


def test_a_path_of_singles_that_solves_proves_the_one_solution() -> None:
    # the proof is the path the exact search's check would have led to, step for step; there
    # is one exactly where that path needs no more than intersections
    proved = 0
    for line in EASY.read_text().splitlines()[:10]:
        [puzzle] = read_puzzles(text=line.split(",")[0][:81] + "\n")
        proof = proved_by_logic(puzzle)
        checked = solve_exact(puzzle)
        path = solve_path(puzzle, solution=checked.values)
        assert (proof is not None) == (path.level in ("singles", "intersections"))
        if proof is not None:
            assert checked.unique and np.array_equal(proof.values, checked.values)
            assert proof.steps == path.steps
            assert explain(puzzle, most_steps=3).path.steps == proof.steps[:3]
            proved += 1
    assert proved == 8


def test_no_proof_where_singles_do_not_finish_or_the_grid_breaks_a_rule() -> None:
    hard = first_line_text(DATA / "sudoku9" / "forum_hardest_1106_first40.txt")
    several = "1 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n"
    # singles fill r1c1 with 1; the cage wants a 2 there, which row 1 already holds
    caged = "0 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n\ncage 2: r1c1\n"
    for text in (hard, several, caged):
        [puzzle] = read_puzzles(text=text)
        assert proved_by_logic(puzzle) is None
    [puzzle] = read_puzzles(text=caged)
    with pytest.raises(NdokuError, match="it has no solution"):
        explain(puzzle)


def first_line_text(source: Path) -> str:
    return source.read_text().splitlines()[0].split(",")[0].split()[0] + "\n"
