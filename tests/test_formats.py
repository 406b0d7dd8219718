"""Grids as people write them: alphabets inferred (0-F, A-Y, …) and pasted or drawn grids.

Every puzzle here is a real one from ``tests/data`` (or made by ``ndoku generate``), rewritten
in another notation; its published solution, rewritten the same way, is what ndoku must print.
"""

from __future__ import annotations

import json
import string
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ndoku.errors import NdokuError, VerificationError
from ndoku.model.layout import available_layouts
from ndoku.model.puzzle import read_puzzles
from ndoku.tasks.generate import generate, layout_puzzle
from ndoku.tasks.render import draw, draw_puzzle
from ndoku.tasks.solve import Options, solve
from ndoku.text.alphabet import AlphabetError
from ndoku.text.formats import parse
from ndoku.text.grid import MISSING

if TYPE_CHECKING:
    from conftest import CliRun

DATA = Path(__file__).parent / "data"
HEX = "0123456789ABCDEF"
JANKO16 = sorted((DATA / "janko" / "16x16").glob("*.puzzle.txt"))


def janko_values(path: Path) -> list[list[int]]:
    return [[int(t) for t in line.split()] for line in path.read_text().splitlines() if line]


def written(values: list[list[int]], alphabet: str, empty: str) -> list[str]:
    """Rows of one character per cell: value v as ``alphabet[v - 1]``, 0 as ``empty``."""
    return ["".join(alphabet[v - 1] if v else empty for v in row) for row in values]


STYLES: dict[str, Callable[[list[str]], str]] = {
    "chars": lambda rows: "".join(row + "\n" for row in rows),
    "tokens": lambda rows: "".join(" ".join(row) + "\n" for row in rows),
    "line": lambda rows: "".join(rows) + "\n",
}


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("empty", [".", "-"])
@pytest.mark.parametrize("path", JANKO16, ids=lambda p: p.name.split("_")[0])
def test_hexadoku_in_0_to_F_is_read_as_written(
    run: CliRun, path: Path, empty: str, style: str
) -> None:
    puzzle = janko_values(path)
    solution = janko_values(Path(str(path).replace(".puzzle.", ".solution.")))
    text = STYLES[style](written(puzzle, HEX, empty))
    code, out, err = run("solve", "-", input=text)
    assert code == 0, err
    assert out == STYLES[style](written(solution, HEX, empty))
    [read] = read_puzzles(text=text)
    assert int((read.givens > 0).sum()) == sum(v > 0 for row in puzzle for v in row)
    assert read.text() == text  # empty cells written back with the input's own mark


def test_numbers_padded_with_zeros_print_padded(run: CliRun) -> None:
    path = JANKO16[1]
    pad = lambda rows: "".join(" ".join(f"{v:02d}" for v in row) + "\n" for row in rows)  # noqa: E731
    code, out, err = run("solve", "-", input=pad(janko_values(path)))
    assert code == 0, err
    assert out == pad(janko_values(Path(str(path).replace(".puzzle.", ".solution."))))
    code, _, err = run("solve", "-", input=pad(janko_values(path)).replace("00 ", "0 ", 1))
    assert code == 2 and "numbers written two ways" in err


def test_a_batch_is_read_in_one_alphabet_and_written_back_as_read() -> None:
    lines = [STYLES["line"](written(janko_values(path), HEX, ".")) for path in JANKO16]
    puzzles = read_puzzles(text="".join(lines))
    assert [p.grid.style.alphabet for p in puzzles] == [HEX] * len(lines)
    assert [p.text() for p in puzzles] == lines


GECODE25 = (DATA / "sudoku25" / "gecode_25x25_shared6.txt").read_text().splitlines()[1]


@pytest.mark.parametrize("style", ["chars", "line"])
@pytest.mark.parametrize(
    ("alphabet", "empty"),
    [
        (string.ascii_uppercase[:25], "."),
        (string.ascii_uppercase[:25], "0"),
        (HEX + "GHIJKLMNO", "."),
    ],
    ids=["A-Y", "A-Y-zero-empty", "0-O"],
)
def test_25x25_in_letters_or_from_zero(run: CliRun, alphabet: str, empty: str, style: str) -> None:
    given, answer = GECODE25.split()[1].split(",")
    digits = "0123456789ABCDEFGHIJKLMNOP"  # the data set's own 1-9A-P, 0 empty
    rows = [[digits.index(ch) for ch in given[r * 25 : r * 25 + 25]] for r in range(25)]
    solved = [[digits.index(ch) for ch in answer[r * 25 : r * 25 + 25]] for r in range(25)]
    text = STYLES[style](written(rows, alphabet, empty))
    code, out, err = run("solve", "-", input=text)
    assert code == 0, err
    assert out == STYLES[style](written(solved, alphabet, empty))


def test_a_twodoku_of_16x16_grids_in_0_to_F(run: CliRun) -> None:
    made = generate(layout_puzzle("twodoku16"), seed=5)
    puzzle = made.puzzle

    def text(values: np.ndarray) -> str:
        canvas = puzzle.canvas(values)
        return "".join(
            "".join("." if v == MISSING else "-" if v == 0 else HEX[v - 1] for v in row) + "\n"
            for row in canvas.tolist()
        )

    code, out, err = run("solve", "-", input=text(puzzle.givens))
    assert code == 0, err
    assert out == text(made.solution)


def test_two_readings_left_is_an_error_naming_both(run: CliRun) -> None:
    values = janko_values(JANKO16[0])
    # Without its 0 and F givens (values 1 and 16) a 0-F grid also reads as 1-9A-G.
    thinned = [[0 if v in (1, 16) else v for v in row] for row in values]
    text = STYLES["chars"](written(thinned, HEX, "."))
    code, out, err = run("solve", "-", input=text)
    assert code == 2 and out == ""
    assert "0-F (0 is a symbol)" in err and "1-9A-G (0 is empty)" in err
    assert "--symbols (1-9A-G or 0-F)" in err and "# symbols:" in err
    with pytest.raises(AlphabetError, match="line 1"):
        read_puzzles(text=text)
    # Declared, it is read: as 0-F, a single square grid's dots are empty cells. With two
    # symbols never given, swapping them gives a second solution.
    code, out, _ = run("solve", "-", "--symbols", "0-F", "--format", "json", input=text)
    record = json.loads(out)
    assert code == 0 and record["status"] == "multiple"
    solution = record["solution"].replace("\n", "")
    assert all(t in (".", s) for t, s in zip(text.replace("\n", ""), solution, strict=True))
    [declared] = read_puzzles(text="# symbols: 0-F\n" + text)
    assert declared.n_cells == 256 and declared.grid.style.alphabet == HEX


@pytest.mark.parametrize("spec", ["1-16", "0-15", "1-25"])
def test_a_range_of_numbers_as_symbols_is_refused(run: CliRun, spec: str) -> None:
    # Read character by character, 1-16 would declare the two symbols 1 and 6.
    numbers = "".join(" ".join(str(v) for v in row) + "\n" for row in janko_values(JANKO16[0]))
    for args, text in ((["--symbols", spec], numbers), ([], f"# symbols: {spec}\n{numbers}")):
        code, out, err = run("solve", "-", *args, input=text)
        assert code == 2 and out == "" and f"'{spec}' is a range of numbers" in err
    code, _, err = run("solve", "-", input=numbers)  # without it, numbers are read
    assert code == 0, err


def test_zero_repeated_in_a_unit_is_an_empty_mark() -> None:
    [puzzle] = read_puzzles(path=JANKO16[0])  # 1-16 tokens, 0 empty
    assert puzzle.grid.style.alphabet is None
    line = (DATA / "sudoku16" / "goomii_16x16_first40.txt").read_text().split(",")[0]
    [goomii] = read_puzzles(text=line)  # 0 + 1-9A-G, as the data set writes it
    assert goomii.grid.style.alphabet is None and goomii.givens.max() == 16


KAGGLE = (DATA / "sudoku9" / "kaggle_bryanpark_first69.txt").read_text().splitlines()[:5]
#: ndoku's own drawing of a janko Samurai, as ``ndoku show`` prints it.
DRAWING = draw(read_puzzles(DATA / "janko" / "samurai" / "1_21x21.puzzle.txt")[0]).plain + "\n"


def forum(line: str) -> str:
    """``4 . . | . . . | 8 . 5`` rows and ``------+-------+------`` rules."""
    cells = ["." if ch == "0" else ch for ch in line]
    out = []
    for r in range(9):
        if r in (3, 6):
            out.append("------+-------+------")
        row = cells[9 * r : 9 * r + 9]
        out.append(" | ".join(" ".join(row[k : k + 3]) for k in (0, 3, 6)))
    return "\n".join(out) + "\n"


def simple_sudoku(line: str) -> str:
    """Simple Sudoku's ``.ss``: ``..6|...|.8.`` rows and ``-----------`` rules."""
    cells = line.replace("0", ".")
    out = []
    for r in range(9):
        if r in (3, 6):
            out.append("-----------")
        row = cells[9 * r : 9 * r + 9]
        out.append("|".join(row[k : k + 3] for k in (0, 3, 6)))
    return "\n".join(out) + "\n"


def boxed(line: str) -> str:
    """Rows framed in bars, ``*-----------*`` above and below, ``|---+---+---|`` between."""
    rows = simple_sudoku(line).splitlines()
    inner = ["|---+---+---|" if row.startswith("-") else f"|{row}|" for row in rows]
    return "\n".join(["*-----------*", *inner, "*-----------*"]) + "\n"


def sadman(line: str) -> str:
    """SadMan's ``.sdk``: ``#`` metadata, a ``[Puzzle]`` section; a ``[State]`` one ignored."""
    rows = [line[9 * r : 9 * r + 9].replace("0", ".") for r in range(9)]
    return (
        "#AKaggle\n#DA puzzle of the bryanpark set\n[Puzzle]\n"
        + "".join(row + "\n" for row in rows)
        + "[State]\n"
        + "".join("123456789\n" for _ in range(9))
    )


@pytest.mark.parametrize("write", [forum, simple_sudoku, boxed], ids=lambda f: f.__name__)
@pytest.mark.parametrize("pair", KAGGLE, ids=[f"kaggle{k}" for k in range(5)])
def test_pasted_grids_are_answered_in_their_own_frame(
    run: CliRun, pair: str, write: Callable[[str], str]
) -> None:
    given, answer = pair.split(",")
    code, out, err = run("solve", "-", input=write(given))
    assert code == 0, err
    assert out == write(answer)
    [puzzle] = read_puzzles(text=write(given))
    assert puzzle.text() == write(given)


@pytest.mark.parametrize("pair", KAGGLE, ids=[f"kaggle{k}" for k in range(5)])
def test_a_sadman_file_reads_its_puzzle_section(run: CliRun, pair: str) -> None:
    given, answer = pair.split(",")
    code, out, err = run("solve", "-", input=sadman(given))
    assert code == 0, err
    assert out == "".join(answer[9 * r : 9 * r + 9] + "\n" for r in range(9))


def test_a_file_of_lines_under_a_header_line_is_a_batch(run: CliRun) -> None:
    text = "quizzes,solutions\n" + "".join(pair + "\n" for pair in KAGGLE)
    code, out, err = run("solve", "-", input=text)
    assert code == 0, err
    assert out.splitlines() == [pair.split(",")[1] for pair in KAGGLE]


def rows9(line: str) -> str:
    """A one-line 9×9 written as nine rows of nine characters."""
    return "".join(line[9 * r : 9 * r + 9] + "\n" for r in range(9))


def grouped9(line: str, empty: str = "0") -> str:
    """A one-line 9×9 as rows of three groups of three characters, ``003 020 600``."""
    rows = [line[9 * r : 9 * r + 9].replace("0", empty) for r in range(9)]
    return "".join(" ".join(row[k : k + 3] for k in (0, 3, 6)) + "\n" for row in rows)


@pytest.mark.parametrize("empty", ["0", "."])
def test_a_grid_in_groups_of_three_is_read_as_characters(run: CliRun, empty: str) -> None:
    """``003 020 600``: a box's cells run together, not the numbers 3, 20 and 600; the
    answer keeps the groups."""
    for pair in KAGGLE:
        given, answer = pair.split(",")
        code, out, err = run("solve", "-", input=grouped9(given, empty))
        assert code == 0, err
        assert out == grouped9(answer)
    # Two such grids: the second is no region map of the first ("000 000" side by side).
    givens = [grouped9(pair.split(",")[0], empty) for pair in KAGGLE[:2]]
    assert len(read_puzzles(text="\n".join(givens))) == 2


def banded9(line: str, write: Callable[[str], str]) -> str:
    """A one-line 9×9 written by ``write`` (rows), its bands parted by blank lines."""
    rows = write(line).splitlines(keepends=True)
    return "\n".join("".join(rows[b : b + 3]) for b in (0, 3, 6))


def barred9(line: str) -> str:
    """Rows as ``0 0 3 | 0 2 0 | 6 0 0``."""
    rows = [" ".join(line[9 * r : 9 * r + 9]) for r in range(9)]
    return "".join(row[:5] + " |" + row[5:11] + " |" + row[11:] + "\n" for row in rows)


@pytest.mark.parametrize("write", [rows9, grouped9, barred9], ids=lambda f: f.__name__)
def test_bands_parted_by_blank_lines_are_one_grid(run: CliRun, write: Callable[[str], str]) -> None:
    """A grid written band by band, blank lines between (books, websites): one puzzle, and
    the answer keeps the blank lines; several such grids in a file are a batch."""
    given, answer = KAGGLE[0].split(",")
    code, out, err = run("solve", "-", input=banded9(given, write))
    assert code == 0, err
    assert out == banded9(answer, write)
    two = banded9(given, write) + "\n" + banded9(KAGGLE[1].split(",")[0], write)
    assert len(read_puzzles(text=two)) == 2


@pytest.mark.parametrize("write", [rows9, barred9], ids=lambda f: f.__name__)
def test_rows_parted_by_blank_lines_are_one_grid(run: CliRun, write: Callable[[str], str]) -> None:
    """A grid double-spaced (a blank line after every row, as some web pages copy)."""
    given, answer = KAGGLE[0].split(",")
    code, out, err = run("solve", "-", input=write(given).replace("\n", "\n\n"))
    assert code == 0, err
    assert out == write(answer).replace("\n", "\n\n").rstrip("\n") + "\n"


def test_bands_of_a_16x16_in_0_to_f_are_one_grid() -> None:
    """Four bands of four lines of 16 characters: not 16 one-line 4×4 puzzles."""
    values = janko_values(JANKO16[0])
    rows = written(values, HEX, ".")
    text = "\n".join("".join(r + "\n" for r in rows[b : b + 4]) for b in range(0, 16, 4))
    [puzzle] = read_puzzles(text=text)
    assert puzzle.size == 16
    assert puzzle.givens.reshape(16, 16).tolist() == values


def test_bands_that_do_not_make_a_grid_are_refused(run: CliRun) -> None:
    """Two bands of a 9×9 are no grid: an error naming a line, not a guess."""
    text = banded9(KAGGLE[0].split(",")[0], rows9)
    code, out, err = run("solve", "-", input=text[: text.rindex("\n\n") + 1])
    assert code == 2 and out == ""
    assert "Error: <stdin>: line 1" in err


def test_a_grid_pasted_from_a_spreadsheet_is_answered_in_tabs(run: CliRun) -> None:
    """Cells parted by tabs (a spreadsheet's copy) come back parted by tabs."""

    def tabbed(line: str) -> str:
        return "".join("\t".join(row) + "\n" for row in rows9(line).splitlines())

    given, answer = KAGGLE[0].split(",")
    code, out, err = run("solve", "-", input=tabbed(given))
    assert code == 0, err
    assert out == tabbed(answer)


def nested9(line: str, dump: Callable[[object], str], quoted: bool) -> str:
    """A one-line 9×9 as a list of rows: LeetCode's strings with ``.``, or numbers with 0."""
    rows = [line[9 * r : 9 * r + 9] for r in range(9)]
    cells = [[ch.replace("0", ".") if quoted else int(ch) for ch in row] for row in rows]
    return dump(cells) + "\n"


DUMPS: dict[str, Callable[[object], str]] = {
    "json": json.dumps,
    "json-indented": lambda cells: json.dumps(cells, indent=2),
    "python": repr,
    "leetcode": lambda cells: "board = " + json.dumps(cells, separators=(",", ":")),
}


@pytest.mark.parametrize("quoted", [False, True], ids=["numbers", "strings"])
@pytest.mark.parametrize("dump", DUMPS.values(), ids=DUMPS.keys())
def test_a_list_of_lists_is_answered_in_the_same_text(
    run: CliRun, dump: Callable[[object], str], quoted: bool
) -> None:
    given, answer = KAGGLE[0].split(",")
    code, out, err = run("solve", "-", input=nested9(given, dump, quoted))
    assert code == 0, err
    assert out == nested9(answer, dump, quoted)


@pytest.mark.parametrize("dump", [json.dumps, repr], ids=["null", "None"])
def test_null_in_a_list_of_lists_is_an_empty_cell(
    run: CliRun, dump: Callable[[object], str]
) -> None:
    given, answer = KAGGLE[0].split(",")
    rows = [[int(ch) or None for ch in given[9 * r : 9 * r + 9]] for r in range(9)]
    code, out, err = run("solve", "-", input=dump(rows) + "\n")
    assert code == 0, err
    assert out == nested9(answer, dump, False)


def test_a_list_of_boards_is_a_batch(run: CliRun) -> None:
    pairs = [pair.split(",") for pair in KAGGLE[:3]]
    boards = [[[int(ch) for ch in g[9 * r : 9 * r + 9]] for r in range(9)] for g, _ in pairs]
    code, out, err = run("solve", "-", input=json.dumps(boards))
    assert code == 0, err
    assert out == "\n".join(nested9(answer, json.dumps, False) for _, answer in pairs)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[1, 2], [3, 4]", "line 1, column 1: this '[' is never closed"),
        ("[[1, 2],\n [3]]", "line 2, column 3: ragged row: 1 item, expected 2"),
        ("[[1, 0, 0, 0], [0, 0, 0, 0],\n [0, 0, 0, 0], [0, 0, x, 0]]", "line 2, column 23: unk"),
        ("[[1, 2], [2, 1]] and more", "line 1, column 18: unexpected 'and'"),
        ("[[1, [2]], [2, 1]]", "line 1, column 6: a list among the items of a row"),
        ("[[[1, 2], 3]]", "line 1, column 11: '3' stands among rows"),
        ("[[09, 1],\n [2, 3]]", "line 1, column 7: numbers written two ways: 09"),
    ],
)
def test_bad_lists_of_lists_are_named(run: CliRun, text: str, message: str) -> None:
    code, out, err = run("solve", "-", input=text + "\n")
    assert code == 2 and out == ""
    assert f"Error: <stdin>: {message}" in err


def test_a_project_euler_file_is_a_batch_of_grids(run: CliRun) -> None:
    """Problem 96's file: a ``Grid 01`` line above each grid, no blank lines; the answers come
    parted by blank lines, and read back as the same puzzles, solved."""
    grids = [rows9(pair.split(",")[0]) for pair in KAGGLE]
    text = "".join(f"Grid {k:02d}\n" + grid for k, grid in enumerate(grids, 1))
    code, out, err = run("solve", "-", input=text)
    assert code == 0, err
    assert out == "\n".join(rows9(pair.split(",")[1]) for pair in KAGGLE)
    assert "\n".join(p.text() for p in read_puzzles(text=out)) == out


def test_grids_parted_by_blank_lines_are_a_batch_and_maps_stay_maps(run: CliRun) -> None:
    """What ``ndoku generate --count`` writes reads back as its puzzles; a region map after
    a grid (letters on as many cells each) is still its map, not a second puzzle."""
    puzzles = [generate(layout_puzzle("9x9"), seed=seed).puzzle for seed in (1, 2)]
    text = "\n".join(f"# seed {k}\n" + p.text() for k, p in enumerate(puzzles))
    read = read_puzzles(text=text)
    assert [p.givens.tolist() for p in read] == [p.givens.tolist() for p in puzzles]
    code, out, err = run("solve", "-", input=text + "\n" + text)
    assert code == 0, err
    assert len(read_puzzles(text=out)) == 4
    jigsaw = read_puzzles(DATA / "janko" / "jigsaw" / "93_9x9.puzzle.txt")
    assert len(jigsaw) == 1 and jigsaw[0].layout.boxes_text() == "jigsaw"


def test_a_bad_grid_among_several_is_named_by_its_line(run: CliRun) -> None:
    first, second = (pair.split(",")[0] for pair in KAGGLE[:2])
    rows = rows9(second).splitlines()
    rows[4] = rows[4][:7]  # line 15 of the file: a row cut short
    code, out, err = run("solve", "-", input=rows9(first) + "\n" + "\n".join(rows) + "\n")
    assert code == 2 and out == ""
    assert "Error: <stdin>: line 15, column 8: ragged row: 7 characters, expected 9" in err


def test_an_unsolvable_grid_among_several_prints_its_status(run: CliRun) -> None:
    """A puzzle given one more value, against its one solution, where no given forbids it."""
    given, answer = KAGGLE[0].split(",")
    [puzzle] = read_puzzles(text=given)
    start, peers = puzzle.peers
    cell, value = next(
        (c, v)
        for c in range(81)
        for v in "123456789"
        if given[c] == "0"
        and v != answer[c]
        and v not in {given[p] for p in peers[start[c] : start[c + 1]]}
    )
    bad = given[:cell] + value + given[cell + 1 :]
    code, out, err = run("solve", "-", input=rows9(given) + "\n" + rows9(bad))
    assert code == 1
    assert out == rows9(answer) + "\nnone\n"
    assert "1 solved, 1 none" in err


def test_a_row_of_dashes_is_a_row_when_dashes_are_empty_cells() -> None:
    rows = ["0123456789ABCDEF"] + ["-" * 16] * 15
    [puzzle] = read_puzzles(text="# symbols: 0-F\n" + "\n".join(rows))
    assert puzzle.n_cells == 256 and int((puzzle.givens > 0).sum()) == 16


MULTI = {
    "samurai": "1_21x21",
    "butterfly": "2_12x12",
    "sohei": "1_21x21",
    "gattai8": "1_21x33",
    "shogun": "1_21x45",
    "sumo": "1_33x33",
    "jigsaw": "93_9x9",
    "16x16": "301_16x16",
}


@pytest.mark.parametrize("kind", MULTI)
def test_pretty_output_reads_back(run: CliRun, kind: str, tmp_path: Path) -> None:
    puzzle = DATA / "janko" / kind / f"{MULTI[kind]}.puzzle.txt"
    code, drawing, _ = run("show", str(puzzle))
    assert code == 0
    drawn = tmp_path / "drawn.txt"
    drawn.write_text(drawing)
    [original] = read_puzzles(puzzle)
    [again] = read_puzzles(drawn)
    assert np.array_equal(again.givens, original.givens)
    assert units_of(again) == units_of(original)
    code, answer, err = run("solve", str(drawn))
    assert code == 0, err
    [solved] = read_puzzles(text=answer)  # the answer is drawn too
    [solution] = parse(Path(str(puzzle).replace(".puzzle.", ".solution.")).read_text())
    assert np.array_equal(solved.canvas(solved.givens), solution.values)


@pytest.mark.parametrize("name", sorted(available_layouts()))
def test_every_layout_drawn_reads_back_as_itself(run: CliRun, name: str, tmp_path: Path) -> None:
    code, drawing, _ = run("show", name)
    assert code == 0
    drawn = tmp_path / "drawn.txt"
    drawn.write_text(drawing)
    [again] = read_puzzles(drawn)
    assert units_of(again) == units_of(layout_puzzle(name))


def test_a_drawing_of_grids_of_equal_rows_offset_reads_back_in_place() -> None:
    """Two 6×6 grids, the second below and right of the first: every drawn row holds six
    cells, and the second grid's were read as if they stood under the first's (a 12×6
    canvas of two stacked sudokus: another puzzle; found by fuzzing show)."""
    rows = ["1 0 0 0 0 0 . . ."] + ["0 0 0 0 0 0 . . ."] * 5 + [". . . 0 0 0 0 0 2"]
    rows += [". . . 0 0 0 0 0 0"] * 5
    [puzzle] = read_puzzles(text="\n".join(rows) + "\n")
    [again] = read_puzzles(text=draw_puzzle(puzzle).plain)
    assert np.array_equal(again.canvas(again.givens), puzzle.canvas(puzzle.givens))
    assert units_of(again) == units_of(puzzle)


def units_of(puzzle: object) -> set[frozenset[tuple[int, int]]]:
    """The units as sets of canvas positions, so that two readings of a layout compare."""
    units = puzzle.units  # type: ignore[attr-defined]
    rc = puzzle.cell_rc  # type: ignore[attr-defined]
    return {frozenset(map(tuple, rc[units[u]].tolist())) for u in range(len(units))}


@settings(max_examples=150, deadline=None)
@example(edits=[(1195, "0")], which="forum")  # a 09 read as 9 would print as 9
@given(
    edits=st.lists(
        st.tuples(st.integers(0, 10_000), st.sampled_from(list('0159AFG.-_|│─+* \n[],"'))),
        max_size=6,
    ),
    which=st.sampled_from(["forum", "boxed", "drawing", "hex", "bands", "lists"]),
)
def test_damaged_pasted_grids_are_read_or_refused(edits: list[tuple[int, str]], which: str) -> None:
    given_line = KAGGLE[0].split(",")[0]
    texts = {
        "forum": forum(given_line),
        "boxed": boxed(given_line),
        "drawing": DRAWING,
        "hex": STYLES["chars"](written(janko_values(JANKO16[0]), HEX, ".")),
        "bands": banded9(given_line, grouped9),
        "lists": nested9(given_line, DUMPS["leetcode"], True),
    }
    chars = list(texts[which])
    for position, char in edits:
        chars[position % len(chars)] = char
    try:
        puzzles = read_puzzles(text="".join(chars))
        for puzzle in puzzles:
            solve(puzzle, options=Options(max_nodes=2_000, timeout=5))
    except VerificationError:
        raise
    except NdokuError:
        pass


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("------+------+------\n", "line 1, column 1: only dividers, no grid rows"),
        ("1 2 | 3 4\n3 4 | 1\n----+----\n2 1 | 4 3\n4 3 | 2 1\n", "line 2, column 8: ragged row"),
        ("[Puzzle]\n", "holds no puzzle"),
    ],
    ids=["rules-only", "ragged-with-bars", "empty-section"],
)
def test_bad_pasted_grids_are_named(run: CliRun, text: str, message: str) -> None:
    code, out, err = run("solve", "-", input=text)
    assert code == 2 and out == ""
    assert err.startswith("Error:") and message in err


def test_two_empty_marks_run_together_are_no_empty_cell(run: CliRun, tmp_path: Path) -> None:
    # found by the fuzz test below: '.-' was read as one empty cell, then failed verification
    path = tmp_path / "damaged.txt"
    path.write_text("4 . . |. . . |8 . 5\n.- 3 . |. . . |. . .\n" + ". . . |7 . . |. . .\n" * 7)
    code, out, err = run("solve", str(path))
    assert code == 2 and not out
    assert "line 2, column 1: unknown token '.-'" in err
