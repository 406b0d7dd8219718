"""Reading and writing puzzle text: every format, and every error naming line and column."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ndoku.errors import ConflictError, LayoutError, NdokuError, ParseError
from ndoku.model.puzzle import read_puzzles
from ndoku.text.alphabet import parse_symbols
from ndoku.text.formats import decode, parse
from ndoku.text.grid import MISSING, format_grid

WIKI_ROWS = [
    "5 3 0 0 7 0 0 0 0",
    "6 0 0 1 9 5 0 0 0",
    "0 9 8 0 0 0 0 6 0",
    "8 0 0 0 6 0 0 0 3",
    "4 0 0 8 0 3 0 0 1",
    "7 0 0 0 2 0 0 0 6",
    "0 6 0 0 0 0 2 8 0",
    "0 0 0 4 1 9 0 0 5",
    "0 0 0 0 8 0 0 7 9",
]
WIKI = "\n".join(WIKI_ROWS) + "\n"


def canvas_of(text: str, **options: str) -> np.ndarray:
    """The givens of the one puzzle of ``text``, laid out on its canvas."""
    [puzzle] = read_puzzles(text=text, **options)
    return puzzle.canvas(puzzle.givens)


def test_tokens_chars_and_line_formats_read_the_same_givens() -> None:
    tokens = canvas_of(WIKI)
    chars = canvas_of("\n".join(row.replace(" ", "").replace("0", ".") for row in WIKI_ROWS))
    line = canvas_of("".join(row.replace(" ", "") for row in WIKI_ROWS) + "\n")
    dotted_line = canvas_of("".join(row.replace(" ", "").replace("0", ".") for row in WIKI_ROWS))
    commas = canvas_of(WIKI.replace(" ", " , "))
    for other in (chars, line, dotted_line, commas):
        assert np.array_equal(tokens, other)
    assert tokens[0, 0] == 5 and tokens[8, 8] == 9


@pytest.mark.parametrize(
    "text",
    [
        WIKI,
        "\n".join(row.replace(" ", "") for row in WIKI_ROWS) + "\n",
        "\n".join(row.replace(" ", "").replace("0", ".") for row in WIKI_ROWS) + "\n",
        "".join(row.replace(" ", "") for row in WIKI_ROWS) + "\n",
        WIKI.replace(" ", ","),
        WIKI.replace(" ", ", "),
        WIKI.replace(" ", ";"),
    ],
    ids=["tokens", "chars", "dotted-chars", "line", "commas", "comma-space", "semicolons"],
)
def test_output_echoes_the_input_style(text: str) -> None:
    [puzzle] = read_puzzles(text=text)
    assert puzzle.text() == text


def test_letters_and_numbers_for_sixteen_symbols(data: Path) -> None:
    line = (data / "sudoku16" / "goomii_16x16_first40.txt").read_text().split("\n")[0]
    puzzle_text = line.split(",")[0]
    rows = [puzzle_text[i : i + 16] for i in range(0, 256, 16)]
    as_chars = canvas_of("\n".join(rows))
    as_tokens = canvas_of("\n".join(" ".join(str(int(ch, 17)) for ch in row) for row in rows))
    as_letter_tokens = canvas_of("\n".join(" ".join(row) for row in rows))
    assert np.array_equal(as_chars, as_tokens)
    assert np.array_equal(as_chars, as_letter_tokens)
    assert as_chars.max() == 16
    [letters] = read_puzzles(text="\n".join(" ".join(row) for row in rows))
    assert "G" in letters.text() and "16" not in letters.text()


def test_declared_alphabet_with_zero_as_a_symbol() -> None:
    rows = ["0123456789ABCDEF"] + ["-" * 16] * 15
    [header] = read_puzzles(text="# symbols: 0-F\n" + "\n".join(rows))
    [option] = read_puzzles(text="\n".join(rows), symbols="0123456789ABCDEF")
    assert header.givens[:16].tolist() == list(range(1, 17))
    assert np.array_equal(header.givens, option.givens)
    assert header.text().splitlines()[1] == "-" * 16


def test_parse_symbols_expands_ranges_and_refuses_bad_alphabets() -> None:
    assert parse_symbols("1-9A-G") == "123456789ABCDEFG"
    with pytest.raises(NdokuError, match="repeats"):
        parse_symbols("1123")
    with pytest.raises(NdokuError, match="marks empty"):
        parse_symbols("0-9-")


def test_batch_of_one_line_puzzles_ignores_trailing_fields(data: Path) -> None:
    text = (data / "sudoku9" / "tdoku_test_puzzles_counts.txt").read_text()
    puzzles = read_puzzles(text=text)
    assert len(puzzles) == len(text.strip().splitlines())
    assert all(p.size == 9 for p in puzzles)


def test_missing_cells_are_kept_in_the_output(data: Path) -> None:
    text = (data / "janko" / "samurai" / "1_21x21.puzzle.txt").read_text()
    [puzzle] = read_puzzles(text=text)
    assert puzzle.text() == text
    assert (puzzle.canvas(puzzle.givens) == MISSING).sum() == 21 * 21 - 369


def test_decode_refuses_binary_with_its_position() -> None:
    with pytest.raises(ParseError, match=r"line 2, column 3: .*binary"):
        decode(b"1 2\n3 \x00 4\n")
    with pytest.raises(ParseError, match="line 1, column 1"):
        decode(b"\xff\x01")
    with pytest.raises(ParseError, match=r"line 3, column 2: .*binary"):  # lone CRs end lines
        decode("1 2\r3 4\r5\x006".encode("utf-16"))
    with pytest.raises(ParseError, match=r"line 1, column 2: .*binary"):  # no byte-order mark
        decode("1 2\n".encode("utf-16-le"))


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-16-be", "latin-1", "cp1252"])
@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r", "\r\r\n"])
def test_encodings_and_line_endings_read_the_same_puzzle(encoding: str, ending: str) -> None:
    text = "# Rätsel – aus der Zeitung\n" + WIKI
    data = text.replace("\n", ending).encode(encoding, errors="replace")
    if encoding == "utf-16-be":
        data = "\ufeff".encode(encoding) + data
    [puzzle] = read_puzzles(text=decode(data))
    assert puzzle.text() == WIKI


def test_format_grid_aligns_columns_like_the_input() -> None:
    [grid] = parse(" 1  0\n10  2\n")
    assert format_grid(grid) == " 1  0\n10  2\n"


@pytest.mark.parametrize(
    ("text", "error", "pattern"),
    [
        ("", ParseError, "holds no puzzle"),
        ("# only a comment\n", ParseError, "holds no puzzle"),
        ("1 2 3 4\n1 2 3\n0 0 0 0\n0 0 0 0\n", ParseError, r"line 2, column 6: ragged row"),
        ("1 2 3 4\n0 0 x 0\n0 0 0 0\n0 0 0 0\n", ParseError, r"line 2, column 5: unknown token"),
        ("1,2,3,4\n0,0,x,0\n0,0,0,0\n0,0,0,0\n", ParseError, r"line 2, column 5: unknown token"),
        ("1,2,3,4\n0,0,0\n0,0,0,0\n0,0,0,0\n", ParseError, r"line 2, column 6: ragged row"),
        ("1 2 3 5\n0 0 0 0\n0 0 0 0\n0 0 0 0\n", ParseError, r"line 1, column 7: value 5 is out"),
        (
            "1 0 0 1\n0 0 0 0\n0 0 0 0\n0 0 0 0\n",
            ConflictError,
            r"line 1, column 7: given 1 repeats the 1 at line 1, column 1 in the same row",
        ),
        (
            "1 0 0 0\n0 1 0 0\n0 0 0 0\n0 0 0 0\n",
            ConflictError,
            r"line 2, column 3: .* same box",
        ),
        ("0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 . .\n", LayoutError, r"line 5, column 1"),
        ("1 2\n3 4\n", LayoutError, "smaller than any sub-grid"),
        (". . . . . .\n" * 4, LayoutError, "line 1, column 1: no cell: every position is '.'"),
        (",\n", LayoutError, "smaller than any sub-grid"),
        ("1 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n# symbols: 1-9\n", ParseError, "9 symbols"),
        ("# layout: nowhere\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n", LayoutError, "unknown layout"),
        ("# subgrids: 0,0 x\n" + "0 0 0 0\n" * 4, LayoutError, "line 1: bad sub-grid corner"),
        ("0" * 81 + "\n" + "0" * 80 + "\n", ParseError, "line 2, column 1: expected a one-line"),
    ],
)
def test_bad_input_is_named_precisely(text: str, error: type[Exception], pattern: str) -> None:
    with pytest.raises(error, match=pattern):
        read_puzzles(text=text)


def test_a_stray_dot_in_a_samurai_is_pointed_at(data: Path) -> None:
    rows = (data / "janko" / "samurai" / "1_21x21.puzzle.txt").read_text().splitlines()
    tokens = rows[4].split()
    tokens[4] = "."
    rows[4] = " ".join(tokens)
    with pytest.raises(LayoutError, match=r"line 5, column 9: this '\.' breaks the 9×9 sub-grid"):
        read_puzzles(text="\n".join(rows))


def test_a_single_square_grid_reads_dots_as_empty_cells() -> None:
    [puzzle] = read_puzzles(text="1 . . .\n. . 3 .\n. 4 . .\n. . . 2\n")
    assert int((puzzle.givens > 0).sum()) == 4 and puzzle.n_cells == 16
    assert puzzle.text().splitlines()[0] == "1 . . ."


def test_a_36x36_written_with_letters_is_refused_where_a_letter_stands() -> None:
    """Letters stop at Z = 35: the answer would write 36 as a number among letters, which
    ndoku cannot read back (found by fuzzing)."""
    rows = ["0 " * 36] * 36
    rows[2] = "0 " * 5 + "A " + "0 " * 30
    with pytest.raises(ParseError, match=r"line 3, column 11: 36×36 .* rather than letters"):
        read_puzzles(text="\n".join(rows) + "\n")
    [puzzle] = read_puzzles(text="\n".join(rows).replace(" A ", " 10 ") + "\n")
    assert puzzle.size == 36 and int(puzzle.givens.max()) == 10
