"""Batches of one-line puzzles read, solved and checked as arrays (model/table.py,
tasks/lines.py, verify_table): the same puzzles, answers and errors as one puzzle at a time."""

from __future__ import annotations

import string
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from conftest import CliRun
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ndoku.errors import NdokuError, ParseError, VerificationError
from ndoku.model.frame import Frame
from ndoku.model.layout import load_layout
from ndoku.model.puzzle import read_puzzles
from ndoku.model.table import PuzzleTable, read_table
from ndoku.tasks.count import count_all
from ndoku.tasks.lines import solve_lines
from ndoku.tasks.solve import Options, solve_all
from ndoku.tasks.verify import problems, verify_table

DATA = Path(__file__).parent / "data"
HEX = "0123456789ABCDEF"
#: Batch files of the test data, as they are (one-line puzzles, some with trailing fields).
BATCHES = [
    "sudoku9/norvig_top95.txt",
    "sudoku9/kaggle_bryanpark_first69.txt",
    "sudoku9/tdoku_test_puzzles_counts.txt",
    "sudoku9/serg_benchmark_sample1k.txt",
    "sudoku16/goomii_16x16_first40.txt",
]


def lines_of(relative: str, k: int | None = None) -> list[str]:
    return (DATA / relative).read_text().splitlines()[:k]


def same_as_puzzles(text: str, **options: str) -> PuzzleTable:
    """The table of ``text``, checked against the puzzles read one at a time."""
    table = read_table(text, **options)  # type: ignore[arg-type]
    assert table is not None
    puzzles = read_puzzles(text=text, **options)  # type: ignore[arg-type]
    assert len(table) == len(puzzles)
    assert np.array_equal(table.givens, np.stack([p.givens for p in puzzles]))
    for i in (0, len(puzzles) // 2, len(puzzles) - 1):
        built = table.puzzle(i)
        assert built.grid.style == puzzles[i].grid.style
        assert built.text() == puzzles[i].text()
        assert built.frame.key == puzzles[i].frame.key
    return table


@pytest.mark.parametrize("relative", BATCHES)
def test_a_batch_file_reads_as_its_puzzles(relative: str) -> None:
    same_as_puzzles((DATA / relative).read_text())


def test_lines_of_other_widths_leading_spaces_and_crlf_read_alike() -> None:
    lines = lines_of("sudoku9/norvig_top95.txt", 20)
    ragged = [(" " * (k % 3)) + line + ("  # note" * (k % 2)) for k, line in enumerate(lines)]
    same_as_puzzles("\r\n".join(ragged) + "\r\n")
    same_as_puzzles("quizzes,solutions\n" + "\n".join(f"{p},{p}" for p in lines))
    dotted = [line.replace("0", ".") for line in lines]
    table = same_as_puzzles("\n".join(dotted))
    assert table.puzzle(0).grid.style.empty == "."


def test_a_hexadoku_batch_in_0_to_f_is_read_again_in_its_alphabet() -> None:
    # goomii writes 1-9A-G: each puzzle written again in 0-F, dots for empty cells
    digits = "0123456789ABCDEFG"
    lines = [
        "".join("." if ch == "0" else HEX[digits.index(ch) - 1] for ch in line.split(",")[0])
        for line in lines_of("sudoku16/goomii_16x16_first40.txt", 12)
    ]
    table = same_as_puzzles("\n".join(lines) + "\n")
    assert table.reread and table.style.alphabet == HEX
    letters = string.ascii_uppercase[:16]
    declared = "\n".join(line.translate(str.maketrans(HEX, letters)) for line in lines)
    same_as_puzzles(declared, symbols="A-P")


@pytest.mark.parametrize(
    "text",
    [
        "1" + "0" * 80 + "\n" + "0" * 16 + "\n",  # two lengths: the grids read them
        "1" + "0" * 80 + "\n" + "é" + "0" * 80 + "\n",  # not ASCII
        "1" + "0" * 80 + "\n" + "1" + "0" * 79 + "\n",  # a line that is no puzzle
        "11" + "0" * 79 + "\n" + "0" * 81 + "\n",  # a given repeated in a row
        "1 0\n0 1\n",  # a grid, not lines
    ],
    ids=["lengths", "ascii", "short", "repeat", "grid"],
)
def test_what_the_table_does_not_take_is_left_to_the_puzzles(text: str) -> None:
    try:
        table = read_table(text)
    except NdokuError as exc:  # the first puzzle's own error, as the puzzles raise it
        with pytest.raises(type(exc), match=str(exc)[:20]):
            read_puzzles(text=text)
        return
    assert table is None


def test_the_table_raises_what_reading_the_first_puzzle_raises() -> None:
    text = "11" + "0" * 79 + "\n" + "0" * 81 + "\n"
    with pytest.raises(ParseError, match="line 1, column 2"):
        read_table(text)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    edits=st.lists(
        st.tuples(st.integers(0, 9), st.integers(0, 90), st.sampled_from("0123456789.-_ ,xAG")),
        max_size=4,
    )
)
def test_random_edits_read_alike_or_are_declined(edits: list[tuple[int, int, str]]) -> None:
    lines = lines_of("sudoku9/norvig_top95.txt", 10)
    for k, position, ch in edits:
        line = lines[k]
        lines[k] = line[:position] + ch + line[position + 1 :]
    text = "\n".join(lines) + "\n"
    try:
        expected = read_puzzles(text=text)
    except NdokuError as error:
        try:
            table = read_table(text)
        except NdokuError as raised:
            assert type(raised) is type(error)
            return
        assert table is None
        return
    table = read_table(text)
    if table is not None:
        assert np.array_equal(table.givens, np.stack([p.givens for p in expected]))


@pytest.mark.parametrize(
    "name", ["4x4", "6x6", "9x9", "12x12", "16x16", "25x25", "xsudoku", "samurai", "jigsaw9"]
)
def test_repeated_givens_match_a_slow_reference(name: str) -> None:
    frame = Frame.of(load_layout(name))
    rng = np.random.default_rng(len(name))
    givens = rng.integers(0, frame.size + 1, size=(300, frame.n_cells)).astype(np.int32)
    givens[rng.random(givens.shape) < 1 - 2 / frame.size] = 0
    givens[0] = 0  # one that must not fire
    expected = [
        any(
            len(set(row[u][row[u] > 0].tolist())) < int((row[u] > 0).sum())
            for u in frame.units.cells.reshape(-1, frame.size)
        )
        for row in givens
    ]
    assert 0 < sum(expected) < len(expected)
    assert frame.repeated(givens).tolist() == expected


def solved_table() -> tuple[PuzzleTable, np.ndarray]:
    text = "\n".join(
        line.split(",")[0] for line in lines_of("sudoku9/kaggle_bryanpark_first69.txt")
    )
    table = read_table(text)
    assert table is not None
    outcomes = solve_lines(table)
    return table, outcomes.batch.values


def test_the_batch_check_agrees_with_problems_on_broken_answers() -> None:
    table, values = solved_table()
    rng = np.random.default_rng(7)
    broken = values.copy()
    for i in range(len(broken)):
        kind = i % 5
        a, b = rng.choice(81, size=2, replace=False)
        if kind == 1:
            broken[i, [a, b]] = broken[i, [b, a]]  # a swap: a given changed or a unit broken
        elif kind == 2:
            broken[i, a] = 0
        elif kind == 3:
            broken[i, a] = 10
        elif kind == 4:
            broken[i, a] = broken[i, a] % 9 + 1
    everything = np.ones(len(table), dtype=np.bool_)
    for i in range(len(table)):
        one = np.zeros(len(table), dtype=np.bool_)
        one[i] = True
        wrong = bool(problems(table.puzzle(i), broken[i]))
        if wrong:
            with pytest.raises(VerificationError):
                verify_table(table, broken, one)
        else:
            verify_table(table, broken, one)  # must not fire
    with pytest.raises(VerificationError):
        verify_table(table, broken, everything)
    verify_table(table, values, everything)


def test_a_given_printed_otherwise_than_written_is_caught() -> None:
    # 0-F: a 0 read as empty would be a given dropped; the check reads the line's bytes.
    digits = "0123456789ABCDEFG"
    lines = [
        "".join("." if ch == "0" else HEX[digits.index(ch) - 1] for ch in line.split(",")[0])
        for line in lines_of("sudoku16/goomii_16x16_first40.txt", 3)
    ]
    table = read_table("\n".join(lines))
    assert table is not None
    values = solve_lines(table).batch.values
    everything = np.ones(len(table), dtype=np.bool_)
    verify_table(table, values, everything)
    dropped = table.lines.codes.copy()
    dropped[0, int(np.flatnonzero(table.givens[0])[0])] = ord(".")
    changed = replace(table, lines=replace(table.lines, codes=dropped))
    with pytest.raises(VerificationError):
        verify_table(changed, values, everything)


@pytest.mark.parametrize("relative", ["sudoku9/tdoku_test_puzzles_counts.txt", BATCHES[4]])
def test_outcomes_match_the_puzzle_by_puzzle_path(relative: str) -> None:
    text = (DATA / relative).read_text()
    table = read_table(text)
    assert table is not None
    outcomes = solve_lines(table)
    puzzles = read_puzzles(text=text)
    expected = solve_all(puzzles)
    assert outcomes.statuses().tolist() == [o.status for o in expected]
    for unique in (False, True):
        lines = [o.puzzle.text(o.values) if o.shown(unique) else o.status + "\n" for o in expected]
        assert outcomes.text(unique).decode() == "".join(lines)
    counted = solve_lines(table, Options(limit=5)).counts()
    assert [c.text() for c in counted] == [c.text() for c in count_all(puzzles, Options(limit=5))]


def test_the_cli_solves_a_batch_as_a_table(run: CliRun, tmp_path: Path) -> None:
    path = DATA / "sudoku9" / "tdoku_test_puzzles_counts.txt"
    code, out, err = run("solve", str(path))
    puzzles = read_puzzles(path)
    expected = solve_all(puzzles)
    assert code == 1  # puzzles without a solution
    assert out == "".join(
        o.puzzle.text(o.values) if o.answered else o.status + "\n" for o in expected
    )
    assert f"{len(puzzles)} puzzles:" in err
    code, unique, _ = run("solve", str(path), "--unique")
    assert code == 1 and "multiple\n" in unique and "multiple\n" not in out
    clean = tmp_path / "top.txt"
    clean.write_text((DATA / "sudoku9" / "norvig_top95.txt").read_text())
    code, out, err = run("solve", str(clean), "--jobs", "1")
    assert code == 0 and len(out.splitlines()) == 95, err


def test_the_cli_names_a_repeated_given_of_a_batch_and_prints_nothing(
    run: CliRun, tmp_path: Path
) -> None:
    lines = lines_of("sudoku9/norvig_top95.txt", 30)
    row = lines[17]
    given = next(k for k, ch in enumerate(row) if ch != "0")
    empty = next(k for k in range(given - given % 9, given - given % 9 + 9) if row[k] == "0")
    lines[17] = row[:empty] + row[given] + row[empty + 1 :]  # the row holds that value twice
    path = tmp_path / "bad.txt"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run("solve", str(path))
    assert code == 2 and out == ""
    assert f"line 18, column {max(given, empty) + 1}" in err
