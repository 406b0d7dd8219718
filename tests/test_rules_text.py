"""Rules as text (issue 35): rule lines read after a grid, checked on its canvas (errors with
their line and column, a rule the givens break refused), written back and read again as the
same puzzle; the frames rules make; Latin squares (``# box: none``); the clueless layouts
against janko.at's published solutions."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import DATA, CliRun
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ndoku.errors import ConflictError, LayoutError, NdokuError, ParseError
from ndoku.model.constraints import broken
from ndoku.model.layout import load_layout
from ndoku.model.puzzle import read_puzzles
from ndoku.model.rules import DOT_KINDS, KINDS, same_rules, sum_range
from ndoku.model.units import BOX
from ndoku.tasks.verify import problems
from ndoku.text.formats import parse, parse_table

from helpers import blank_grid, puzzle_of

VARIANTS = DATA / "variants"
#: A 9×9 grid takes lines 1-9; its rules start on line 11.
FIRST = 11


def nine(givens: dict[str, int] | None = None) -> str:
    """A 9×9 grid, empty but for ``givens`` (``{"r1c3": 4}``), and the blank line after it."""
    rows = [["0"] * 9 for _ in range(9)]
    for place, value in (givens or {}).items():
        r, c = place[1:].split("c")
        rows[int(r) - 1][int(c) - 1] = str(value)
    return "".join(" ".join(row) + "\n" for row in rows) + "\n"


# --- errors, each at its line and column ------------------------------------------------

PARSE_ERRORS = [
    ("cage 15: r1c1 r10c3", FIRST, 15, "r10c3 is not a cell of the grid"),
    ("cage 50: r1c1 r1c2", FIRST, 6, "2 different digits of 1-9 sum to 3-17, not 50"),
    ("cage 12: r1c1 r1c2 r1c3 r1c4 r1c5", FIRST, 6, "5 different digits of 1-9 sum to 15-35"),
    ("thermo: r1c1 r3c3", FIRST, 14, "a thermo is a path: r3c3 is not next to r1c1"),
    ("renban: r1c1 r1c2 r1c4", FIRST, 19, "a renban is a path: r1c4 is not next to r1c2"),
    ("arrow: r1c1 > r1c2 r3c3", FIRST, 20, "an arrow is a path"),
    ("arrow: r1c1 > r3c3 r4c4", FIRST, 15, "an arrow leaves its circle: r3c3 is next to none"),
    ("arrow: r1c1 r1c3 > r2c2", FIRST, 13, "a pill is a path: r1c3 is not next to r1c1"),
    ("kage 15: r1c1 r1c2", FIRST, 1, "ndoku knows no rule 'kage'"),
    ("x: r1c1 r2c2", FIRST, 9, "an x dot joins neighbours: r2c2 is not next to r1c1"),
    ("cage 15: r1c1 r1c1", FIRST, 15, "a cage names r1c1 twice"),
    ('cage "six": r1c1', FIRST, 6, "only a drawing (line, circle, outline) carries a text"),
    ('outline "six: r1c1', FIRST, 9, "this text has no closing"),
    ("cage 3 4: r1c1 r1c2", FIRST, 8, "a cage has one number"),
    ("cage big: r1c1 r1c2", FIRST, 6, "a cage takes no word 'big'"),
    ("thermo r1c1 r1c2", FIRST, 8, "expected ':' before this"),
    ("thermo", FIRST, 7, "expected ':' then the cells"),
    ("thermo > r1c1", FIRST, 8, "expected ':' before this"),
    ("thermo: r1c1 > r1c2", FIRST, 14, "only an arrow has '>'"),
    ("arrow: > r1c1", FIRST, 8, "an arrow is its circle's cells, one '>'"),
    ("arrow: r1c1 r1c2", FIRST, 1, "an arrow is its circle (1 to 3 cells), '>'"),
    ("thermo: r1c1 c2", FIRST, 14, "expected a cell such as r1c1"),
    ("cage 3: r1c1..r2c3", FIRST, 9, "a range runs along a row, a column or a diagonal"),
    ("cage 1234567: r1c1", FIRST, 6, "too large for any rule"),
    ("little-killer 10 up: r0c4", FIRST, 18, "a little killer runs one way: dl, dr, ul, ur"),
    ("little-killer 10: r0c4", FIRST, 19, "say which way this little killer runs"),
    ("sandwich 5: r1c1", FIRST, 13, "a sandwich's clue stands outside the grid"),
    ("sandwich 50: r0c1", FIRST, 10, "a sandwich holds at most 35"),
    ("skyscraper 10: r0c1", FIRST, 12, "a skyscraper's number is 1 to 9"),
    ("white 9: r1c1 r1c2", FIRST, 7, "a white's number is 1 to 8"),
    ("antiknight: r1c1", FIRST, 13, "'antiknight' is a rule of the whole grid"),
    ("negative: white purple", FIRST, 1, "not 'purple'"),
    ("negative white", FIRST, 10, "expected ':' before this (such as 'negative: white x')"),
    ("thermo: r1c1\nrenban: r2c2", FIRST, 1, "a thermo needs 2 cells or more"),
    ("cage 3: r1c1 r1c2\ncagee: r2c2", FIRST + 1, 1, "ndoku knows no rule 'cagee'"),
]


@pytest.mark.parametrize(("rules", "line", "column", "message"), PARSE_ERRORS)
def test_a_bad_rule_is_named_at_its_line_and_column(
    rules: str, line: int, column: int, message: str
) -> None:
    with pytest.raises(ParseError) as info:
        read_puzzles(text=nine() + rules)
    assert not isinstance(info.value, ConflictError)
    assert (info.value.line, info.value.column) == (line, column), str(info.value)
    assert message in str(info.value)


def test_rules_before_any_grid_are_refused() -> None:
    with pytest.raises(ParseError) as info:
        read_puzzles(text="cage 3: r1c1 r1c2\n\n" + nine())
    assert (info.value.line, info.value.column) == (1, 1)
    assert "rules come after the grid" in str(info.value)


# Each: givens, a rule they break (named at line 11, column 1), and the same givens with a
# rule of the same kind they do not break.
CONFLICTS = [
    ({"r1c3": 5, "r2c4": 5}, "cage: r1c3 r2c4", "both 5, in one cage", "cage: r1c3 r2c5"),
    ({"r1c3": 5, "r2c4": 5}, "region: r1c3 r2c4", "in one region", "region: r1c3 r3c3"),
    ({"r1c1": 9, "r1c2": 8}, "cage 16: r1c1 r1c2", "its givens sum to 17", "cage 17: r1c1 r1c2"),
    ({"r1c1": 9}, "cage 10: r1c1 r1c2 r1c3", "2 other cells to 2", "cage 12: r1c1 r1c2 r1c3"),
    ({"r1c1": 5, "r1c2": 3}, "thermo: r1c1 r1c2", "break this thermo", "thermo: r1c2 r1c1"),
    ({"r1c1": 5, "r1c2": 3}, "x: r1c1 r1c2", "break this x", "white 2: r1c1 r1c2"),
    ({"r1c1": 3}, "even: r1c1", "break this even", "odd: r1c1"),
    ({"r1c3": 1, "r2c5": 1}, "antiknight", "a knight's move apart", "antiking"),
    ({"r4c3": 2, "r5c4": 2}, "antiking", "a king's move apart", "antiknight"),
    ({"r1c1": 3, "r1c2": 4}, "negative: white", "break this negative", "negative: black"),
    ({"r1c1": 3, "r1c2": 4}, "nonconsecutive", "break this nonconsecutive", "negative: x"),
    ({"r1c1": 7, "r4c4": 7}, "disjoint", "in one disjoint group", "antiknight"),
    ({"r1c1": 9}, "little-killer 15 dr: r0c0", "its givens sum to 9", "little-killer 17: r0c0"),
    ({"r1c1": 9, "r2c1": 8}, "outside-sum 16: r0c1", "sum to 17", "outside-sum 18: r0c1"),
    ({}, "little-killer 5: r0c1", "its 8 cells sum to 8 at least", "little-killer 8: r0c1"),
]


@pytest.mark.parametrize(("givens", "broken", "message", "kept"), CONFLICTS)
def test_a_rule_the_givens_break_is_named_and_one_they_keep_is_read(
    givens: dict[str, int], broken: str, message: str, kept: str
) -> None:
    with pytest.raises(ConflictError) as info:
        read_puzzles(text=nine(givens) + broken)
    assert (info.value.line, info.value.column) == (FIRST, 1), str(info.value)
    assert message in str(info.value)
    puzzle = puzzle_of(nine(givens) + kept)
    assert [rule.kind for rule in puzzle.rules] == [kept.split(":")[0].split()[0]]


def test_a_white_dot_lifts_the_negative_constraint_where_it_stands() -> None:
    text = nine({"r1c1": 3, "r1c2": 4})
    for rules in ("white: r1c1 r1c2\nnegative: white", "white: r1c2 r1c1\nnonconsecutive"):
        assert len(puzzle_of(text + rules).rules) == 2
    with pytest.raises(ConflictError) as info:  # a dot of another number does not
        read_puzzles(text=text + "white 2: r1c1 r2c1\nnegative: white")
    assert info.value.line == FIRST + 1


# --- every kind read and written ---------------------------------------------------------

#: Each kind: a line as a person may write it, and as ndoku writes it back.
EXAMPLES = {
    "cage": ("cage 15: r1c1 r1c2 r2c1", "cage 15: r1c1 r1c2 r2c1"),
    "little-killer": ("little-killer 20: r0c1", "little-killer 20 dr: r0c1"),
    "outside-sum": ("outside-sum 12: r0c1 r1c1 r2c1", "outside-sum 12: r0c1"),
    "sandwich": ("sandwich 10: r5c10", "sandwich 10: r5c10"),
    "skyscraper": ("skyscraper 3: R10C2", "skyscraper 3: r10c2"),
    "thermo": ("thermo: r1c1..r1c4", "thermo: r1c1 r1c2 r1c3 r1c4"),
    "slow-thermo": ("slow-thermo:r2c2 r3c3   r4c4", "slow-thermo: r2c2 r3c3 r4c4"),
    "arrow": ("arrow: r1c1 r1c2 > r2c3..r4c3", "arrow: r1c1 r1c2 > r2c3 r3c3 r4c3"),
    "white": ("white 2: r1c1 r1c2", "white 2: r1c1 r1c2"),
    "black": ("black: r1c1 r2c1", "black: r1c1 r2c1"),
    "x": ("x: R1C1 r1C2", "x: r1c1 r1c2"),
    "v": ("v: r9c8 r9c9", "v: r9c8 r9c9"),
    "even": ("even: r1c1 r9c9", "even: r1c1 r9c9"),
    "odd": ("odd: r5c5", "odd: r5c5"),
    "antiknight": ("antiknight", "antiknight"),
    "antiking": ("antiking", "antiking"),
    "nonconsecutive": ("nonconsecutive", "nonconsecutive"),
    "negative": ("negative: x white", "negative: x white"),
    "disjoint": ("disjoint", "disjoint"),
    "region": ("region: r1c1..r9c9", "region: " + " ".join(f"r{k}c{k}" for k in range(1, 10))),
    "whisper": ("whisper 4: r1c1 r2c2 r3c1", "whisper 4: r1c1 r2c2 r3c1"),
    "renban": ("renban: r1c1..r3c1", "renban: r1c1 r2c1 r3c1"),
    "palindrome": ("palindrome: r1c3 r1c2 r1c1", "palindrome: r1c3 r1c2 r1c1"),
    "line": ("line: r1c1 r5c5", "line: r1c1 r5c5"),
    "circle": ('circle "7": r1c1', 'circle "7": r1c1'),
    "outline": ('outline "a \\"b\\" \\\\": r1c1', 'outline "a \\"b\\" \\\\": r1c1'),
}


def test_a_pill_may_send_its_arrow_from_any_of_its_cells() -> None:
    """f-puzzles and SudokuPad pills read left to right, their arrow leaving where it
    leaves: here from the pill's first cell."""
    [puzzle] = read_puzzles(text=nine() + "arrow: r1c2 r1c3 > r2c1 r3c1\n")
    [arrow] = puzzle.rules
    assert arrow.head == 2 and len(arrow.cells) == 4


def test_every_kind_has_an_example() -> None:
    assert set(EXAMPLES) == set(KINDS)


@pytest.mark.parametrize("kind", sorted(EXAMPLES))
def test_every_kind_is_read_and_written(kind: str) -> None:
    written, canonical = EXAMPLES[kind]
    puzzle = puzzle_of(nine() + written)
    [rule] = puzzle.rules
    assert rule.kind == kind
    text = puzzle.text()
    assert text == nine() + canonical + "\n"
    again = puzzle_of(text)
    assert same_rules(again.rules, puzzle.rules) and again.text() == text


def test_what_a_rule_line_reads_into() -> None:
    puzzle = puzzle_of(
        nine()
        + 'arrow: r1c1 r1c2 > r2c3 r3c3\nlittle-killer 12 dl: r0c5\noutline "x: y": r9c9\n'
        + "sandwich 7: r0c2\nnegative: v v x"
    )
    index = puzzle.index
    arrow, killer, outline, sandwich, negative = puzzle.rules
    assert arrow.cells == tuple(index[r, c] for r, c in [(0, 0), (0, 1), (1, 2), (2, 2)])
    assert arrow.head == 2
    assert killer.cells == tuple(index[k, 3 - k] for k in range(4)) and killer.value == 12
    assert killer.clue == (-1, 4)
    assert outline.words == ("x: y",) and outline.cosmetic
    assert sandwich.cells == tuple(index[:, 1]) and sandwich.clue == (-1, 1)
    assert negative.words == ("v", "x")


def test_a_puzzle_without_rules_writes_itself_as_before() -> None:
    grid = "1 0 | 0 0\n0 0 | 3 0\n----+----\n0 4 | 0 0\n0 0 | 0 2\n"
    puzzle = puzzle_of(grid)
    assert puzzle.rules == () and puzzle.text() == grid


# --- the round trip over random rules of every kind --------------------------------------

KINGS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
SIDES = [(-1, 0), (1, 0), (0, -1), (0, 1)]


def _layout_text(name: str) -> tuple[str, np.ndarray, int, tuple[int, int]]:
    layout = load_layout(name)
    rows = ["".join("0 " if cell else ". " for cell in row).rstrip() for row in layout.mask]
    assert layout.box is not None
    return f"# layout: {name}\n" + "\n".join(rows) + "\n\n", layout.mask, layout.size, layout.box


def _cell(mask: np.ndarray, r: int, c: int) -> bool:
    return 0 <= r < mask.shape[0] and 0 <= c < mask.shape[1] and bool(mask[r, c])


def _rc(position: tuple[int, int], upper: bool = False) -> str:
    text = f"r{position[0] + 1}c{position[1] + 1}"
    return text.upper() if upper else text


def _walk(draw: st.DrawFn, mask: np.ndarray, start: tuple[int, int], length: int) -> list:
    path = [start]
    while len(path) < length:
        r, c = path[-1]
        steps = [(r + dr, c + dc) for dr, dc in KINGS if _cell(mask, r + dr, c + dc)]
        steps = [p for p in steps if p not in path]
        if not steps:
            break
        path.append(draw(st.sampled_from(steps)))
    return path


def _line(mask: np.ndarray, clue: tuple[int, int], step: tuple[int, int]) -> list:
    found = []
    r, c = clue[0] + step[0], clue[1] + step[1]
    while _cell(mask, r, c):
        found.append((r, c))
        r, c = r + step[0], c + step[1]
    return found


@st.composite
def rule_lines(draw: st.DrawFn, mask: np.ndarray, size: int, box: tuple[int, int]) -> list:
    """Rule lines of random kinds, each with what it must read into: ``(line, kind, value,
    positions, clue, words)``."""
    cells = [tuple(p) for p in np.argwhere(mask).tolist()]
    rows, cols = mask.shape
    outside = [(r, c) for r in range(-1, rows + 1) for c in range(-1, cols + 1)]
    outside = [p for p in outside if not _cell(mask, *p)]
    found = []
    for kind in draw(st.lists(st.sampled_from(sorted(KINDS)), min_size=1, max_size=6)):
        spec = KINDS[kind]
        value, words, clue, positions = None, (), None, []
        upper = draw(st.booleans())
        if spec.cells == "group":
            most = size if kind in ("cage", "region") else 8
            positions = draw(
                st.lists(st.sampled_from(cells), min_size=1, max_size=most, unique=True)
            )
            if kind == "cage" and draw(st.booleans()):
                value = draw(st.integers(*sum_range(len(positions), size)))
            if spec.cosmetic and draw(st.booleans()):
                words = (draw(st.text(st.characters(min_codepoint=32, max_codepoint=126))),)
        elif spec.cells == "pair":
            a = draw(st.sampled_from(cells))
            b = draw(
                st.sampled_from([p for p in cells if abs(p[0] - a[0]) + abs(p[1] - a[1]) == 1])
            )
            positions = [a, b]
            ranges = {"white": (1, size - 1), "black": (2, size)}
            if kind in ranges and draw(st.booleans()):
                value = draw(st.integers(*ranges[kind]))
        elif spec.cells in ("path", "arrow"):
            head = draw(st.integers(1, 3)) if kind == "arrow" else 0
            positions = _walk(
                draw, mask, draw(st.sampled_from(cells)), head + draw(st.integers(1, 5))
            )
            if len(positions) <= max(head, 1):
                continue
            if kind == "whisper" and draw(st.booleans()):
                value = draw(st.integers(1, size - 1))
        elif spec.cells == "line":
            faces = []
            for place in outside:
                steps = [s for s in SIDES if _cell(mask, place[0] + s[0], place[1] + s[1])]
                if len(steps) == 1 and len(_line(mask, place, steps[0])) >= size:
                    faces.append((place, steps[0]))
            clue, step = draw(st.sampled_from(faces))
            line = _line(mask, clue, step)
            side = box[0] if step[0] else box[1]
            positions = line[:side] if kind == "outside-sum" else line[:size]
            low, high = {
                "outside-sum": (side, size * side),
                "sandwich": (0, sum_range(size - 2, size - 1)[1]),
                "skyscraper": (1, size),
            }[kind]
            value = draw(st.integers(low, high))
        elif spec.cells == "diagonal":
            ways = {"dl": (1, -1), "dr": (1, 1), "ul": (-1, -1), "ur": (-1, 1)}
            faces = [
                (place, name)
                for place in outside
                for name, (dr, dc) in ways.items()
                if _cell(mask, place[0] + dr, place[1] + dc)
            ]
            clue, name = draw(st.sampled_from(faces))
            positions = _line(mask, clue, ways[name])
            words = (name,)
            value = draw(st.integers(len(positions), size * len(positions)))
        elif kind == "negative":
            words = tuple(draw(st.lists(st.sampled_from(DOT_KINDS), min_size=1, max_size=4)))
        text = kind + ("" if value is None else f" {value}")
        if spec.cells == "diagonal":
            text += f" {words[0]}"
        elif words and spec.cosmetic:
            text += ' "' + words[0].replace("\\", "\\\\").replace('"', '\\"') + '"'
        if spec.cells == "none":
            text += f": {' '.join(words)}" if words else ""
        else:
            shown = [_rc(clue, upper)] if clue is not None else [_rc(p, upper) for p in positions]
            if kind == "arrow":
                shown.insert(head, ">")
            text += ": " + " ".join(shown)
        found.append((text, kind, value, positions, clue, words))
    return found


def _check_round_trip(grid: str, lines: list) -> None:
    """Read ``lines`` after ``grid``, check what each reads into, write the puzzle and read it
    again (with the grid's headers, which a puzzle's text leaves to the file)."""
    puzzle = puzzle_of(grid + "\n".join(line for line, *_ in lines) + "\n")
    assert len(puzzle.rules) == len(lines)
    for rule, (line, kind, value, positions, clue, words) in zip(puzzle.rules, lines, strict=True):
        assert (rule.kind, rule.value, rule.clue) == (kind, value, clue), line
        assert rule.cells == tuple(int(puzzle.index[r, c]) for r, c in positions), line
        if kind == "negative":
            assert rule.words == tuple(dict.fromkeys(words))
        elif KINDS[kind].cosmetic:
            assert rule.words == words
    text = puzzle.text()
    again = puzzle_of(grid.split("\n", 1)[0] + "\n" + text)
    assert same_rules(again.rules, puzzle.rules)
    assert np.array_equal(again.givens, puzzle.givens) and again.text() == text
    assert again.frame.key == puzzle.frame.key


@pytest.mark.parametrize("name", ["9x9", "6x6", "samurai"])
def test_random_rules_of_every_kind_read_back_as_written(name: str) -> None:
    grid, mask, size, box = _layout_text(name)

    @settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(rule_lines(mask, size, box))
    def check(lines: list) -> None:
        _check_round_trip(grid, lines)

    check()


#: Pieces of rule lines, right and wrong, for the fuzzing below.
PIECES = [*KINDS, "r1c1", "r0c3", "r10c10", "R9C9", "r1c1..r1c9", "r3c3..r1c1", ">", ":", '"',
          '"a"', "\\", "dl", "ur", "15", "-3", "0", "99", " ", "\t", "white", "é", "#", "c1",
          "..", "r99999c1"]  # fmt: skip


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(st.sampled_from(PIECES), max_size=10).map(" ".join), min_size=1,
                max_size=5), st.booleans())  # fmt: skip
def test_fuzzed_rule_lines_are_an_error_or_read_back_the_same(lines: list, givens: bool) -> None:
    grid = nine({"r1c1": 5, "r2c4": 5, "r5c5": 3} if givens else None)
    try:
        puzzles = read_puzzles(text=grid + "\n".join(lines) + "\n")
    except NdokuError:
        return
    for puzzle in puzzles:
        [again] = read_puzzles(text=puzzle.text())
        assert same_rules(again.rules, puzzle.rules)


# --- batches, maps and one-line puzzles read as before -----------------------------------


def test_grids_parted_by_titles_keep_their_values_with_rules_after_one() -> None:
    first = "Grid 01\n1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n"
    second = "Grid 02\n0 0 0 1\n0 0 0 0\n0 0 0 0\n3 0 0 0\n"
    plain = parse(first + second)
    ruled = parse(first + "\ncage 5: r1c2 r1c3\n# a comment\nthermo: r2c1 r3c1\n" + second)
    assert [g.values.tolist() for g in ruled] == [g.values.tolist() for g in plain]
    assert [len(g.rules) for g in ruled] == [2, 0]
    assert ruled[0].rules[1].line == 9  # the comment keeps its line


def test_a_batch_of_empty_grids_each_with_cages_is_not_read_as_maps() -> None:
    grids = parse((VARIANTS / "killer_4x4.txt").read_text())
    assert len(grids) == 7 and all(g.extra == () and len(g.rules) >= 6 for g in grids)
    assert len(parse(nine() + "cage 3: r1c1 r1c2\n\n" + nine())) == 2


def test_a_map_before_or_after_the_rules_is_the_puzzles_map(data: Path) -> None:
    text = (data / "janko" / "jigsaw" / "93_9x9.puzzle.txt").read_text()
    grid, regions = text.rstrip("\n").split("\n\n")
    [plain] = parse(text)
    maps = [[line for _, line in block.lines] for block in plain.extra]
    for ruled in (text + "\nantiking\n", grid + "\n\nantiking\n\n" + regions + "\n"):
        [read] = parse(ruled)
        assert np.array_equal(read.values, plain.values)
        assert [[line for _, line in block.lines] for block in read.extra] == maps
        assert [w.kind for w in read.rules] == ["antiking"]
    assert len(read_puzzles(text=grid + "\n\nantiking\n\n" + regions + "\n")) == 1


def test_one_line_puzzles_read_as_a_table_unless_they_carry_rules() -> None:
    lines = ["0" * 81, *(DATA / "sudoku9" / "norvig_easy50.txt").read_text().splitlines()[:2]]
    plain = "\n".join(lines) + "\n"
    assert parse_table(plain) is not None
    ruled = lines[0] + "\n\nantiknight\n\n" + "\n".join(lines[1:]) + "\n"
    assert parse_table(ruled) is None
    puzzles = read_puzzles(text=ruled)
    assert [len(p.rules) for p in puzzles] == [1, 0, 0]
    before = read_puzzles(text=plain)
    assert all(np.array_equal(a.givens, b.givens) for a, b in zip(puzzles, before, strict=True))
    # the puzzles without rules share the layout's frame, as before; the anti-knight's differs
    assert puzzles[1].frame is puzzles[2].frame and before[1].frame.key == puzzles[1].frame.key
    assert puzzles[0].frame.key != puzzles[1].frame.key
    again = read_puzzles(text=puzzles[0].text())
    assert same_rules(again[0].rules, puzzles[0].rules) and again[0].text() == puzzles[0].text()


def test_rules_that_are_units_or_peers_are_the_frames() -> None:
    plain = puzzle_of(nine())
    knight = puzzle_of(nine() + "antiknight")
    ptr, peers = knight.peers
    assert {13, 21} <= set(peers[ptr[2] : ptr[3]].tolist())  # r1c3: r2c5 and r3c4
    more = np.diff(knight.peers[0]) - np.diff(plain.peers[0])
    assert more[2] == 2 and more[0] == 0  # r1c1's knight moves stay in its box
    assert knight.frame.key != plain.frame.key
    disjoint = puzzle_of(nine() + "disjoint")
    assert len(disjoint.units) == 27 + 9 and disjoint.frame.key != plain.frame.key
    region = puzzle_of(nine() + "region: r1c1..r9c9")
    assert len(region.units) == 28
    cages = puzzle_of(nine() + "cage 3: r1c1 r1c2\nregion: r5c5 r6c6")
    assert cages.frame.key == plain.frame.key and len(cages.lowered.constraints) == 2


# --- Latin squares ------------------------------------------------------------------------

LATIN = "# box: none\n0 0 0 0 1\n0 0 0 0 0\n0 0 3 0 0\n0 0 0 0 0\n2 0 0 0 0\n"


def test_a_declared_latin_square_has_rows_and_columns_only() -> None:
    puzzle = puzzle_of(LATIN)
    assert puzzle.size == 5 and len(puzzle.units) == 10 and not (puzzle.units.kind == BOX).any()
    assert puzzle.layout.latin and puzzle.layout.boxes_text() == "none"
    assert puzzle_of(LATIN.replace("none", "NONE")).layout.latin
    with pytest.raises(LayoutError, match="'# box:' and a region map"):
        read_puzzles(text=LATIN + "\naaaaa\nbbbbb\nccccc\nddddd\neeeee\n")
    with pytest.raises(ParseError) as info:
        read_puzzles(text=LATIN + "\noutside-sum 5: r0c1")
    assert info.value.line == 8 and "no boxes" in str(info.value)
    with pytest.raises(ParseError) as info:
        read_puzzles(text=LATIN + "\ndisjoint")
    assert (info.value.line, info.value.column) == (8, 1)


def test_a_layout_file_may_declare_no_boxes(tmp_path: Path) -> None:
    path = tmp_path / "latin6.txt"
    path.write_text("# A 6×6 Latin square.\n# box: none\n" + blank_grid(6))
    puzzle = puzzle_of(f"# layout: {path}\n" + blank_grid(6))
    assert puzzle.layout.latin and len(puzzle.units) == 12
    with pytest.raises(LayoutError, match="differs from layout"):
        read_puzzles(text=f"# layout: {path}\n# box: 2x3\n" + blank_grid(6))
    with pytest.raises(LayoutError, match="differs from layout"):
        read_puzzles(text="# layout: jigsaw9\n# box: none\n" + blank_grid(9))


def test_a_latin_square_is_drawn_and_solved(run: CliRun, tmp_path: Path) -> None:
    path = tmp_path / "latin.txt"
    path.write_text(LATIN)
    code, out, _ = run("show", str(path))
    assert code == 0 and "┌─────────┐" in out and "no boxes (rows and columns only)" in out
    code, out, _ = run("count", str(path))
    assert code == 0 and out.strip() == "≥2"


@pytest.mark.parametrize("size", range(5, 10))
def test_janko_consecutive_solutions_keep_every_unit_and_rule(size: int) -> None:
    name = f"consecutive_{size}x{size}"
    puzzles = read_puzzles(VARIANTS / f"{name}.txt")
    solutions = _solutions(VARIANTS / f"{name}.solutions.txt")
    assert len(puzzles) == len(solutions) > 0
    for puzzle, solution in zip(puzzles, solutions, strict=True):
        assert puzzle.layout.latin and puzzle.rules
        assert problems(puzzle, solution) == []
        assert broken(puzzle.lowered.constraints, solution, puzzle.size) == []


# --- the clueless layouts -----------------------------------------------------------------


def _solutions(path: Path) -> list[np.ndarray]:
    """The published solutions of a file beside a batch: digits row by row, one a line."""
    return [
        np.array([int(ch) for ch in line.split()[0]], dtype=np.int32)
        for line in path.read_text().splitlines()
    ]


#: The grids of a clueless layout: nine 9×9 in a 3×3 arrangement.
NINE_GRIDS = "# subgrids: 0,0 0,9 0,18 9,0 9,9 9,18 18,0 18,9 18,18\n" + blank_grid(27)


def _tenth(name: str) -> set[frozenset[tuple[int, int]]]:
    """The units of a clueless layout's tenth sudoku, from its description in
    ``../shared/data/SOURCES.md``: cell (i, j) of the tenth sudoku is the centre of box
    (i % 3, j % 3) of grid (i // 3, j // 3) (clueless 1), or cell (i % 3, j % 3) of the centre
    box of that grid (clueless 2); its rows, columns and boxes are units."""
    if name == "clueless1":
        cell = {(i, j): (9 * (i // 3) + 3 * (i % 3) + 1, 9 * (j // 3) + 3 * (j % 3) + 1)
                for i in range(9) for j in range(9)}  # fmt: skip
    else:
        cell = {(i, j): (9 * (i // 3) + 3 + i % 3, 9 * (j // 3) + 3 + j % 3)
                for i in range(9) for j in range(9)}  # fmt: skip
    units = [[cell[i, j] for j in range(9)] for i in range(9)]
    units += [[cell[i, j] for i in range(9)] for j in range(9)]
    units += [[cell[3 * a + i, 3 * b + j] for i in range(3) for j in range(3)]
              for a in range(3) for b in range(3)]  # fmt: skip
    return {frozenset(unit) for unit in units}


@pytest.mark.parametrize("name", ["clueless1", "clueless2"])
def test_clueless_layouts_add_the_tenth_sudoku_to_the_nine_grids(name: str) -> None:
    layout = puzzle_of(f"# layout: {name}\n" + blank_grid(27))
    nine_grids = puzzle_of(NINE_GRIDS)
    units = {
        frozenset(map(tuple, layout.cell_rc[layout.units[u]].tolist()))
        for u in range(len(layout.units))
    }
    grids = {frozenset(map(tuple, nine_grids.cell_rc[nine_grids.units[u]].tolist()))
             for u in range(len(nine_grids.units))}  # fmt: skip
    assert units == grids | _tenth(name)


@pytest.mark.parametrize("name", ["clueless1", "clueless2"])
def test_clueless_layouts_hold_every_published_solution(name: str) -> None:
    puzzles = read_puzzles(VARIANTS / f"{name}.txt")
    solutions = _solutions(VARIANTS / f"{name}.solutions.txt")
    assert len(puzzles) == len(solutions) == {"clueless1": 10, "clueless2": 13}[name]
    empty = puzzle_of(f"# layout: {name}\n" + blank_grid(27))
    nine_grids = puzzle_of(NINE_GRIDS)
    for puzzle, solution in zip(puzzles, solutions, strict=True):
        assert puzzle.layout.name == name
        assert problems(puzzle, solution) == []
        # Relabelling the top-left grid's digits keeps the nine grids sudokus: only the
        # tenth sudoku sees it.
        relabelled = solution.copy()
        top_left = (puzzle.cell_rc[:, 0] < 9) & (puzzle.cell_rc[:, 1] < 9)
        relabelled[top_left] = relabelled[top_left] % 9 + 1
        assert problems(nine_grids, relabelled) == []
        assert problems(empty, relabelled) != []
