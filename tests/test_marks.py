"""Pencil marks: the sukaku line and pencil-mark grids read, refused with line and column,
written and read back, and solved by the exact solver within them (against brute force)."""

from __future__ import annotations

from itertools import permutations
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ndoku import ConflictError, ParseError, read_puzzles, solve_batch, solve_exact
from ndoku.solvers.logic import Board
from ndoku.tasks.render import draw_marks, draw_puzzle
from ndoku.text.alphabet import AlphabetError

DATA = Path(__file__).parent / "data"
SUKAKU = DATA / "sukaku" / "diabolical1_step20.sukaku.txt"
HODOKU = DATA / "sukaku" / "diabolical1_step20.hodoku.txt"


def sukaku_line(masks: list[int], symbols: str = "123456789ABCDEFG") -> str:
    """``masks`` written as a sukaku line: per cell, the symbol of value k at place k, or '.'."""
    size = round(len(masks) ** 0.5)
    return "".join("".join(symbols[k] if m >> k & 1 else "." for k in range(size)) for m in masks)


def sukaku_rows(masks: list[int], symbols: str = "123456789ABCDEFG", sep: str = "") -> str:
    """``masks`` as sukaku rows: one grid row per line, its cells parted by ``sep``."""
    size = round(len(masks) ** 0.5)
    line = sukaku_line(masks, symbols)
    cells = [line[k : k + size] for k in range(0, len(line), size)]
    return "".join(sep.join(cells[r * size : (r + 1) * size]) + "\n" for r in range(size))


def marks_of(puzzle_board: Board) -> np.ndarray:
    """A board's candidates as bits, placed values as their own bit."""
    size = puzzle_board.tables.size
    bits = (puzzle_board.cand * (1 << np.arange(size))).sum(axis=1).astype(np.uint64)
    placed = puzzle_board.values > 0
    bits[placed] = np.uint64(1) << (puzzle_board.values[placed] - 1).astype(np.uint64)
    return bits


def solutions_4x4() -> np.ndarray:
    """Every 4×4 sudoku, by brute force over rows (288)."""
    rows = [list(p) for p in permutations(range(1, 5))]
    found = []
    for a in rows:
        for b in rows:
            if any(x == y for x, y in zip(a, b, strict=True)) or {*a[:2], *b[:2]} != {1, 2, 3, 4}:
                continue
            for c in rows:
                for d in rows:
                    grid = np.array([a, b, c, d])
                    ok = all(len(set(grid[:, k])) == 4 for k in range(4))
                    ok = ok and {*c[:2], *d[:2]} == {1, 2, 3, 4} == {*c[2:], *d[2:]}
                    if ok and {*a[2:], *b[2:]} == {1, 2, 3, 4}:
                        found.append(grid.ravel())
    return np.array(found)


SOLUTIONS = solutions_4x4()


def test_brute_force_finds_every_4x4_sudoku() -> None:
    assert len(SOLUTIONS) == 288


def test_the_sukaku_line_and_the_hodoku_grid_read_as_one_puzzle() -> None:
    [line] = read_puzzles(SUKAKU)
    [grid] = read_puzzles(HODOKU)
    assert line.candidates is not None and grid.candidates is not None
    assert np.array_equal(line.candidates, grid.candidates)
    assert np.array_equal(line.givens, grid.givens)
    # a cell with one candidate is a placed value: r1c1 holds 1
    assert line.givens[0] == 1 and line.candidates[0] == 1
    assert bin(int(line.candidates[1])) == "0b1100"  # r1c2: 3 and 4


def test_sukaku_cells_may_be_parted_by_whitespace_and_write_0_for_no_candidate() -> None:
    text = SUKAKU.read_text().strip()
    groups = [text[k : k + 9] for k in range(0, 729, 9)]
    [spaced] = read_puzzles(text=" ".join(g.replace(".", "0") for g in groups) + "\n")
    [plain] = read_puzzles(SUKAKU)
    assert spaced.candidates is not None and plain.candidates is not None
    assert np.array_equal(spaced.candidates, plain.candidates)


def test_a_file_of_sukaku_lines_is_a_batch() -> None:
    text = SUKAKU.read_text()
    puzzles = read_puzzles(text=text + text.replace("..34.....", ".........", 1))
    assert len(puzzles) == 2
    first, second = solve_batch(puzzles)
    assert first.status == "solved" and second.status == "none"  # r1c2 has no candidate


def test_a_16x16_sukaku_line_in_0_to_F_solves_like_its_puzzle() -> None:
    line = (DATA / "sudoku16" / "goomii_16x16_first40.txt").read_text().split(",")[0]
    [puzzle] = read_puzzles(text=line + "\n")
    marks = marks_of(Board.start(puzzle)).tolist()
    [marked] = read_puzzles(text=sukaku_line(marks, "0123456789ABCDEF") + "\n")
    assert marked.grid.style.alphabet == "0123456789ABCDEF"
    assert marked.candidates is not None and marked.candidates.tolist() == marks
    ours, theirs = solve_exact(marked), solve_exact(puzzle)
    assert ours.status == theirs.status == "solved" and ours.unique
    assert ours.values is not None and theirs.values is not None
    assert np.array_equal(ours.values, theirs.values)
    assert (
        marked.text(ours.values) == "".join("0123456789ABCDEF"[v - 1] for v in ours.values) + "\n"
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s[:10] + "4" + s[11:], r"line 2, column 11: '4' stands in the place of 2"),
        (lambda s: s[:728], r"line 2, column 1: expected a sukaku line"),
    ],
)
def test_a_misplaced_candidate_is_refused_where_it_stands(change: object, message: str) -> None:
    text = SUKAKU.read_text().strip()
    with pytest.raises(ParseError, match=message):
        read_puzzles(text=text + "\n" + change(text) + "\n")  # type: ignore[operator]


@pytest.mark.parametrize("sep", ["", " ", "  "])
def test_a_sukaku_written_a_row_per_line_reads_as_its_line(sep: str) -> None:
    [line] = read_puzzles(SUKAKU)
    assert line.candidates is not None
    [rows] = read_puzzles(text=sukaku_rows(line.candidates.tolist(), sep=sep))
    assert rows.candidates is not None and rows.candidates.tolist() == line.candidates.tolist()
    assert np.array_equal(rows.givens, line.givens)
    # r5c3 starts on line 5, after two cells (and their separators)
    assert rows.grid.where[4, 2].tolist() == [5, 1 + 2 * (9 + len(sep))]
    assert rows.text(solve_exact(rows).values) == line.text(solve_exact(line).values)


@pytest.mark.parametrize(
    "source",
    [
        HODOKU,
        DATA / "janko" / "16x16" / "301_16x16.puzzle.txt",
        "1 0 0 0 0 6\n" + "0 0 0 0 0 0\n" * 5,
    ],
)
def test_the_marks_ndoku_draws_read_back_the_same_as_sukaku_rows(source: Path | str) -> None:
    """ndoku's own writer of candidates (the pencil-mark drawing) and the rows agree, on a
    9×9, a 16×16 (16 lines of 256 are also 16 one-line puzzles) and a 6×6 (not that)."""
    [puzzle] = read_puzzles(source) if isinstance(source, Path) else read_puzzles(text=source)
    board = Board.start(puzzle)
    [drawn] = read_puzzles(text=draw_marks(puzzle, board.values, board.cand).plain + "\n")
    assert drawn.candidates is not None
    marks = drawn.candidates.tolist()
    for sep in ("", " "):
        [rows] = read_puzzles(text=sukaku_rows(marks, sep=sep))
        assert rows.candidates is not None and rows.candidates.tolist() == marks
        assert np.array_equal(rows.givens, drawn.givens)


def test_sukaku_rows_are_a_batch_back_to_back_or_parted_by_blank_lines() -> None:
    [line] = read_puzzles(SUKAKU)
    assert line.candidates is not None
    rows = sukaku_rows(line.candidates.tolist())
    for text in (rows + rows, rows + "\n" + rows):
        _, second = read_puzzles(text=text)
        assert second.candidates is not None
        assert second.candidates.tolist() == line.candidates.tolist()
        assert second.grid.where[0, 0].tolist() == [10 + text.count("\n\n"), 1]


def test_one_line_puzzles_as_many_as_their_rows_stay_one_line_puzzles() -> None:
    nine = (DATA / "sudoku9" / "norvig_easy50.txt").read_text().split()[:9]
    assert [p.candidates for p in read_puzzles(text="\n".join(nine) + "\n")] == [None] * 9
    # givens at their own place in a row: this one reads as a row of 4×4 sukaku, the rest not
    four = ["1000020000300004", "0200100000010300", "3000000410000020", "0040300000020000"]
    assert len(read_puzzles(text="\n".join(four) + "\n")) == 4


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: [*r[:4], r[4][:20] + "7" + r[4][21:], *r[5:]], r"line 5, column 21: '7' stands"),
        (
            lambda r: [*r[:4], r[4][:80], *r[5:]],
            r"line 5, column 1: expected a row of the 9×9 sukaku from line 1: 9 cells of 9 "
            r"characters, found 80 characters",
        ),
        (
            lambda r: [*r[:6], r[6][:9] + " " + r[6][9:17] + " " + r[6][17:], *r[7:]],
            r"line 7, column 11: expected a row .*, found a cell of 8 characters",
        ),
        (lambda r: r[:8], r"line 1: a 9×9 sukaku written a row per line takes 9 lines; the one "),
        (lambda r: r + r[:1], r"line 10: a 9×9 sukaku .* starting here has 1 "),
    ],
)
def test_sukaku_rows_are_refused_at_the_line_and_column_of_the_fault(
    change: object, message: str
) -> None:
    text = SUKAKU.read_text().strip()
    rows = [text[k : k + 81] for k in range(0, 729, 81)]
    with pytest.raises(ParseError, match=message):
        read_puzzles(text="\n".join(change(rows)) + "\n")  # type: ignore[operator]


def test_sukaku_rows_that_read_two_ways_are_refused_at_their_first_line() -> None:
    row = ("0" + "." * 15) * 16 + "\n"  # 0 is value 1 in 0-F, no candidate in 1-9A-G
    with pytest.raises(AlphabetError, match=r"line 2: .* two ways, as 1-9A-G or as 0-F"):
        read_puzzles(text="# a 16×16, a row per line\n" + row * 16)


def test_a_16x16_sukaku_line_that_reads_two_ways_is_refused() -> None:
    line = ("0" + "." * 15) * 256  # 0 is value 1 in 0-F, no candidate in 1-9A-G
    with pytest.raises(AlphabetError, match=r"line 1: .* two ways, as 1-9A-G or as 0-F"):
        read_puzzles(text=line + "\n")


def grid_text(rows: list[list[str]]) -> str:
    return "".join(" ".join(row) + "\n" for row in rows)


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([["1", "234", "0", "4"]] + [["1234"] * 4] * 3, r"line 1, column 7: .*mixes pencil marks"),
        ([["1", "2234", "34", "4"]] + [["1234"] * 4] * 3, r"line 1, column 4: .*listed twice"),
        ([["1", "25", "34", "4"]] + [["1234"] * 4] * 3, r"line 1, column 3: candidate 5 .*range"),
        ([["12"] * 16] * 16, r"line 1, column 1: '12' reads as the number 12 or as .*1, 2"),
        ([["1", "2x", "34", "4"]] + [["1234"] * 4] * 3, r"line 1, column 4: 'x' .* no symbol"),
    ],
)
def test_bad_pencil_marks_are_refused_with_line_and_column(
    rows: list[list[str]], message: str
) -> None:
    with pytest.raises(ParseError, match=message):
        read_puzzles(text=grid_text(rows))


def test_a_drawn_cell_without_candidates_is_refused() -> None:
    [puzzle] = read_puzzles(text=grid_text([["1234"] * 4] * 4))
    drawing = draw_puzzle(puzzle).plain.replace("1234", "   .", 1)
    with pytest.raises(ParseError, match=r"line 2, column 5: '\.' gives this cell no candidates"):
        read_puzzles(text=drawing)


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        ("| 1    34", "| .    34", "line 2, column 3"),
        ("| 6    2 ", "| 6    . ", "line 3, column 8"),
    ],
)
def test_a_dot_in_a_pencil_mark_grid_is_refused_with_what_to_write(
    old: str, new: str, where: str
) -> None:
    """A dot for an unknown cell is refused where it stands, not read as a missing cell of
    some other layout (which advised an empty mark, ``0``, that pencil marks refuse too)."""
    text = HODOKU.read_text().replace(old, new, 1)
    message = rf"{where}: '\.' gives this cell no candidates: .*write them all \(123456789\)"
    with pytest.raises(ParseError, match=message):
        read_puzzles(text=text)


def test_a_dot_in_a_0_to_F_pencil_mark_grid_is_told_the_candidates_in_0_to_F() -> None:
    rows = [["0123456789ABCDEF"] * 16 for _ in range(16)]
    rows[0][0], rows[3][5] = "0123456789ABCDE", "."  # a 16-character first token is a line
    with pytest.raises(ParseError, match=r"line 4, column 86: .*\(0123456789ABCDEF\)"):
        read_puzzles(text=grid_text(rows))


def test_a_stray_dot_in_a_multi_grid_of_pencil_marks_is_not_told_to_write_0() -> None:
    [puzzle] = read_puzzles(Path(__file__).parent.parent / "examples" / "samurai.txt")
    board = Board.start(puzzle)
    rows = [["."] * puzzle.grid.shape[1] for _ in range(puzzle.grid.shape[0])]
    for cell, (r, c) in enumerate(puzzle.frame.cell_rc):
        listed = "".join(str(v + 1) for v in np.flatnonzero(board.cand[cell]))
        rows[r][c] = str(board.values[cell]) if board.values[cell] else listed
    rows[0][1] = "."  # r1c2 of the first sub-grid, unknown
    with pytest.raises(ParseError, match=r"this '\.' breaks .*; write its candidates") as error:
        read_puzzles(text=grid_text(rows))
    assert "write 0" not in str(error.value)


def test_ordinary_grids_stay_ordinary() -> None:
    [plain] = read_puzzles(text="1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n")
    assert plain.candidates is None
    [sixteen] = read_puzzles(DATA / "janko" / "16x16" / "301_16x16.puzzle.txt")
    assert sixteen.candidates is None


@pytest.mark.parametrize(
    "source",
    [HODOKU, Path("examples/samurai.txt"), DATA / "janko" / "16x16" / "301_16x16.puzzle.txt"],
)
def test_a_pencil_mark_drawing_reads_back_as_the_same_marks(source: Path) -> None:
    """The HoDoKu grid, and the first candidates of a Samurai (missing cells drawn blank) and
    of a 16×16 (10 and up written as letters among the marks)."""
    [puzzle] = read_puzzles(Path(__file__).parent.parent / source)
    board = Board.start(puzzle)
    [marked] = read_puzzles(text=draw_marks(puzzle, board.values, board.cand).plain + "\n")
    marks = marks_of(board)
    assert marked.candidates is not None and marked.candidates.tolist() == marks.tolist()
    single = marks & (marks - np.uint64(1)) == 0
    assert np.array_equal(marked.givens > 0, single)
    if puzzle.candidates is not None:
        assert draw_puzzle(marked).plain == draw_puzzle(puzzle).plain


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(1, 15), min_size=16, max_size=16), st.sampled_from([None, "", " "]))
def test_any_4x4_marks_round_trip_through_the_sukaku_line_and_rows(
    masks: list[int], sep: str | None
) -> None:
    """The line, or rows with cells run together or parted (four lines of 16 characters are
    also four one-line 4×4 puzzles; cells that list all four are tokens too)."""
    text = sukaku_line(masks) + "\n" if sep is None else sukaku_rows(masks, sep=sep)
    try:
        [puzzle] = read_puzzles(text=text)
    except ConflictError:  # two cells of one unit with the same single candidate
        return
    assert puzzle.candidates is not None and puzzle.candidates.tolist() == masks
    single = [m & (m - 1) == 0 for m in masks]
    assert ((puzzle.givens > 0) == np.array(single)).all()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 287),
    st.lists(st.booleans(), min_size=16, max_size=16),
    st.lists(st.integers(0, 15), min_size=16, max_size=16),
)
def test_the_exact_solver_keeps_within_the_marks_like_brute_force(
    solution: int, keep: list[bool], extra: list[int]
) -> None:
    # marks around one solution, some of its values dropped: often unique, sometimes none
    masks = [
        (1 << int(v) - 1 if k else 0) | e
        for v, k, e in zip(SOLUTIONS[solution], keep, extra, strict=True)
    ]
    allowed = np.array(
        [[m >> int(v) - 1 & 1 for v, m in zip(s, masks, strict=True)] for s in SOLUTIONS]
    )
    within = SOLUTIONS[allowed.all(axis=1)]
    try:
        [puzzle] = read_puzzles(text=sukaku_line(masks) + "\n")
    except ConflictError:
        assert len(within) == 0
        return
    counted = solve_exact(puzzle, limit=300)
    assert counted.count == len(within)
    assert counted.status == {0: "none", 1: "solved"}.get(len(within), "multiple")
    if len(within) == 1:
        assert counted.values is not None and np.array_equal(counted.values, within[0])
    [batched] = solve_batch([puzzle])
    assert batched.count == min(len(within), 2)


def test_a_batch_mixes_marked_and_plain_puzzles_of_one_layout() -> None:
    [marked] = read_puzzles(SUKAKU)
    [plain] = read_puzzles(
        text=(DATA / "sudoku9" / "norvig_easy50.txt").read_text().split()[0] + "\n"
    )
    both = solve_batch([marked, plain, marked])
    assert [r.status for r in both] == ["solved"] * 3
    assert both[0].values is not None and both[2].values is not None
    assert np.array_equal(both[0].values, both[2].values)
    assert both[1].nodes == solve_exact(plain).nodes


def test_the_board_starts_from_the_marks_and_drops_those_a_value_contradicts() -> None:
    text = SUKAKU.read_text().strip()
    # r1c3 holds 8; give its peer r1c4 an 8 among its marks: the board drops it
    widened = text[: 3 * 9 + 7] + "8" + text[3 * 9 + 8 :]
    [puzzle] = read_puzzles(text=widened + "\n")
    board = Board.start(puzzle)
    assert board.candidates(3) == [6, 7]
    assert board.candidates(1) == [3, 4]  # what the user removed stays removed


def test_a_list_only_a_zero_based_alphabet_reads_is_refused_at_its_token() -> None:
    """``04`` in a 9×9 HoDoKu grid: only ``0-…`` alphabets read the 0, and none fits a 9×9
    (the reading of the grid found no reading at all and failed an assertion)."""
    text = HODOKU.read_text().replace("| 1    34", "| 1    04", 1)
    message = r"line 2, column 8: '0' in the pencil marks '04' is no symbol: .* 1\.\.9"
    with pytest.raises(ParseError, match=message):
        read_puzzles(text=text)
