"""f-puzzles and SudokuPad exchange: every constraint read as its rule, every form a puzzle
travels in (JSON, payloads, links), the published examples solved, refusals by name, errors
said of the JSON entry, round trips, ``show --to``, and fuzzed input refused only as errors."""

from __future__ import annotations

import contextlib
import copy
import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ndoku.errors import ConflictError, NdokuError, ParseError
from ndoku.model.exchange import fpuzzles_data, read_exchanged
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.tasks.count import count_all
from ndoku.tasks.solve import solve
from ndoku.text.fpuzzles import REFUSED, SUPPORTED, default_regions, from_fpuzzles
from ndoku.text.links import exchanged, fpuzzles_link, is_exchanged, sudokupad_link
from ndoku.text.lzstring import compress_base64
from ndoku.text.sudokupad import from_scl, read_scl

DATA = Path(__file__).parent / "data"
EXAMPLES = sorted((DATA / "fpuzzles").glob("*.fpuzzles.json"))
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def empty(size: int = 9) -> list[list[dict[str, Any]]]:
    return [[{} for _ in range(size)] for _ in range(size)]


def fpuzzle(size: int = 9, **constraints: Any) -> dict[str, Any]:
    """f-puzzles data: an empty grid of ``size`` and the constraints given (``diagonal_plus``
    for ``diagonal+``)."""
    data: dict[str, Any] = {"size": size, "grid": empty(size)}
    for key, value in constraints.items():
        data[key.replace("_plus", "+").replace("_minus", "-")] = value
    return data


def read(data: dict[str, Any]) -> Puzzle:
    [puzzle] = read_exchanged(from_fpuzzles(data))
    return puzzle


def rule_lines(puzzle: Puzzle) -> list[str]:
    """The rule lines ndoku writes for a puzzle (after its grid)."""
    text = puzzle.text()
    return text.split("\n\n", 1)[1].splitlines() if "\n\n" in text else []


def meaning(puzzle: Puzzle) -> tuple[Any, ...]:
    """What a puzzle asks, whatever form it was written in: its shape, givens, units (boxes,
    regions, extra units, N-cell region rules, disjoint groups) and its other rules, an even
    or odd rule cell by cell, an outside sum as the cage it is (its cells lie in one box)."""
    units = sorted(tuple(sorted(int(c) for c in puzzle.units[u])) for u in range(len(puzzle.units)))
    rules = set()
    for rule in puzzle.rules:
        cells = tuple(int(c) for c in rule.cells)
        if rule.kind == "region" and len(cells) == puzzle.size:
            continue  # a unit, among the units
        if rule.kind in ("even", "odd", "circle"):
            rules |= {(rule.kind, (c,), rule.value, rule.words) for c in cells}
        elif rule.kind in ("cage", "outside-sum", "region", "outline"):
            rules.add(("cage" if rule.kind == "outside-sum" else rule.kind, tuple(sorted(cells)),
                       rule.value, rule.words))  # fmt: skip
        elif rule.kind == "negative":
            rules.add((rule.kind, tuple(sorted(rule.words))))
        else:
            rules.add((rule.kind, cells, rule.value, rule.clue, rule.head, rule.words))
    return (
        puzzle.layout.shape,
        puzzle.size,
        puzzle.givens.tolist(),
        units,
        sorted(map(repr, rules)),
    )


def round_trip(puzzle: Puzzle) -> Puzzle:
    """A puzzle written as f-puzzles data, through JSON, and read back."""
    [back] = read_exchanged(from_fpuzzles(json.loads(json.dumps(fpuzzles_data(puzzle)))))
    return back


# --- every constraint ---------------------------------------------------------------------

LK_CELLS = ["R1C3", "R2C4", "R3C5", "R4C6", "R5C7", "R6C8", "R7C9"]
#: f-puzzles key, its entries, and the rule lines ndoku writes for the puzzle read.
EVERY_KEY = [
    ("killercage", [{"cells": ["R1C1", "R1C2"], "value": "3"}], ["cage 3: r1c1 r1c2"]),
    ("killercage", [{"cells": ["R9C8", "R9C9"]}], ["cage: r9c8 r9c9"]),
    ("killercage", [{"cells": ["R1C1", "R2C1"], "value": 17}], ["cage 17: r1c1 r2c1"]),
    (
        "littlekillersum",
        [{"cell": "R0C2", "cells": LK_CELLS, "direction": "DR", "value": "35"}],
        ["little-killer 35 dr: r0c2"],
    ),
    ("sandwichsum", [{"cell": "R0C5", "value": "10"}], ["sandwich 10: r0c5"]),
    ("sandwichsum", [{"cell": "R4C10", "value": "0"}], ["sandwich 0: r4c10"]),
    ("skyscraper", [{"cell": "R5C0", "value": "3"}], ["skyscraper 3: r5c0"]),
    ("thermometer", [{"lines": [["R2C2", "R3C2", "R4C3"]]}], ["thermo: r2c2 r3c2 r4c3"]),
    ("slowthermometer", [{"lines": [["R2C6", "R2C7"]]}], ["slow-thermo: r2c6 r2c7"]),
    (
        "arrow",
        [{"cells": ["R5C5"], "lines": [["R5C5", "R5C6", "R5C7"], ["R5C5", "R6C5"]]}],
        ["arrow: r5c5 > r5c6 r5c7", "arrow: r5c5 > r6c5"],
    ),
    (  # a pill reads in reading order, whatever order f-puzzles lists it in
        "arrow",
        [{"cells": ["R7C2", "R7C1"], "lines": [["R7C2", "R8C2", "R9C2"]]}],
        ["arrow: r7c1 r7c2 > r8c2 r9c2"],
    ),
    ("arrow", [{"cells": ["R7C2"], "lines": []}], ["circle: r7c2"]),
    ("whispers", [{"lines": [["R3C4", "R3C5", "R3C6"]]}], ["whisper: r3c4 r3c5 r3c6"]),
    ("renban", [{"lines": [["R6C1", "R6C2", "R6C3"]]}], ["renban: r6c1 r6c2 r6c3"]),
    ("palindrome", [{"lines": [["R8C4", "R8C5", "R8C6"]]}], ["palindrome: r8c4 r8c5 r8c6"]),
    ("difference", [{"cells": ["R4C4", "R4C5"]}], ["white: r4c4 r4c5"]),
    ("difference", [{"cells": ["R4C7", "R4C8"], "value": "2"}], ["white 2: r4c7 r4c8"]),
    ("ratio", [{"cells": ["R6C5", "R6C6"], "value": ""}], ["black: r6c5 r6c6"]),
    ("ratio", [{"cells": ["R6C8", "R6C9"], "value": "3"}], ["black 3: r6c8 r6c9"]),
    (
        "xv",
        [{"cells": ["R9C4", "R9C5"], "value": "X"}, {"cells": ["R9C6", "R9C7"], "value": "V"}],
        ["x: r9c4 r9c5", "v: r9c6 r9c7"],
    ),
    ("negative", ["ratio", "xv"], ["negative: black x v"]),
    ("negative", ["difference"], ["negative: white"]),
    ("nonconsecutive", True, ["nonconsecutive"]),
    ("antiknight", True, ["antiknight"]),
    ("antiking", True, ["antiking"]),
    ("disjointgroups", True, ["disjoint"]),
    ("even", [{"cell": "R1C9"}, {"cell": "R3C3"}], ["even: r1c9", "even: r3c3"]),
    ("odd", [{"cell": "R2C9"}], ["odd: r2c9"]),
    ("extraregion", [{"cells": ["R1C5", "R1C6", "R2C5"]}], ["region: r1c5 r1c6 r2c5"]),
    (
        "line",
        [{"lines": [["R7C4", "R7C5"]], "outlineC": "#000", "width": 0.2}],
        ["line: r7c4 r7c5"],
    ),
    ("circle", [{"cells": ["R7C7"], "value": "a"}], ['circle "a": r7c7']),
    ("rectangle", [{"cells": ["R8C8"], "width": 0.5, "height": 0.5}], ["outline: r8c8"]),
    ("text", [{"cells": ["R8C1"], "value": 'say "hi"'}], ['outline "say \\"hi\\"": r8c1']),
    (
        "cage",
        [{"cells": ["R3C8", "R4C9"], "value": "c", "outlineC": "#000"}],
        ['outline "c": r3c8 r4c9'],
    ),
]


@pytest.mark.parametrize(("key", "entries", "lines"), EVERY_KEY, ids=[e[0] for e in EVERY_KEY])
def test_every_constraint_reads_as_its_rule(key: str, entries: Any, lines: list[str]) -> None:
    assert rule_lines(read(fpuzzle(**{key: entries}))) == lines


def test_the_table_of_supported_keys_is_the_table_read() -> None:
    keys = {key for key, _, _ in EVERY_KEY}
    assert set(SUPPORTED) - {"diagonal+", "diagonal-"} <= keys


@pytest.mark.parametrize(
    ("plus", "minus", "cells"),
    [(True, False, [(8 - i, i) for i in range(9)]), (False, True, [(i, i) for i in range(9)])],
)
def test_one_diagonal_is_one_unit_and_both_are_the_x_sudoku(
    plus: bool, minus: bool, cells: list[tuple[int, int]]
) -> None:
    puzzle = read(fpuzzle(diagonal_plus=plus, diagonal_minus=minus))
    index = puzzle.index
    diagonal = tuple(sorted(int(index[r, c]) for r, c in cells))
    units = {tuple(sorted(int(c) for c in puzzle.units[u])) for u in range(len(puzzle.units))}
    assert diagonal in units and len(units) == 28
    both = read(fpuzzle(diagonal_plus=True, diagonal_minus=True))
    assert len(both.units) == 29


def test_givens_regions_and_the_default_boxes() -> None:
    grid = empty(6)
    grid[0][0] = {"value": 6, "given": True}
    grid[5][5] = {"value": 5, "given": False}  # a digit the solver wrote: not a given
    puzzle = read({"size": 6, "grid": grid})
    assert puzzle.givens.tolist().count(0) == 35 and puzzle.givens[0] == 6
    assert puzzle.layout.box == (2, 3)  # f-puzzles' default for 6×6: 2 rows × 3 columns
    assert default_regions(6)[2] == [2, 2, 2, 3, 3, 3]
    jigsaw = empty(4)
    for r, row in enumerate(["AABB", "ACBB", "ACDD", "CCDD"]):
        for c, letter in enumerate(row):
            jigsaw[r][c] = {"region": "ABCD".index(letter)}
    puzzle = read({"size": 4, "grid": jigsaw})
    assert puzzle.layout.regions is not None
    regions = [[0, 0, 1, 1], [0, 2, 1, 1], [0, 2, 3, 3], [2, 2, 3, 3]]
    assert puzzle.layout.regions.tolist() == regions


def test_sixteen_by_sixteen_values_are_numbers() -> None:
    grid = empty(16)
    grid[0][0] = {"value": 16, "given": True}
    grid[0][1] = {"value": 10, "given": True}
    puzzle = read({"size": 16, "grid": grid})
    assert puzzle.givens[:3].tolist() == [16, 10, 0] and puzzle.layout.box == (4, 4)


def test_a_grid_without_regions_is_a_latin_square() -> None:
    grid = [[{"region": None} for _ in range(5)] for _ in range(5)]
    puzzle = read({"size": 5, "grid": grid})
    assert len(puzzle.units) == 10  # rows and columns only
    assert meaning(round_trip(puzzle)) == meaning(puzzle)


def test_drawings_beside_the_grid_and_metadata_are_left_out() -> None:
    data = fpuzzle(
        text=[{"cells": ["R0C1"], "value": "title"}],
        cage=[{"cells": [], "value": "title: Tiny"}],
        circle=[{"cells": ["R0C3", "R1C3"], "value": "7"}],
    )
    assert rule_lines(read(data)) == ['circle "7": r1c3']


# --- the published examples ---------------------------------------------------------------


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name.split(".")[0] for p in EXAMPLES])
def test_examples_solve_to_their_published_solutions(path: Path) -> None:
    converted = exchanged(path.read_text(encoding="utf-8"))
    assert converted is not None
    [puzzle] = read_exchanged(converted)
    solution = np.loadtxt(str(path).replace(".fpuzzles.json", ".solution.txt"), dtype=np.int32)
    outcome = solve(puzzle)
    assert outcome.status == "solved" and outcome.values is not None
    assert puzzle.canvas(outcome.values).tolist() == solution.tolist()
    [count] = count_all([puzzle])
    assert count.result is not None and count.text() == "1"
    assert meaning(round_trip(puzzle)) == meaning(puzzle)


def test_examples_through_the_command(run: Any) -> None:
    path = DATA / "fpuzzles" / "KillerSudoku_106_6x6.fpuzzles.json"
    status, out, _ = run("solve", str(path))
    solution = path.with_name("KillerSudoku_106_6x6.solution.txt").read_text().split("\n")[:6]
    assert status == 0 and out.splitlines()[:6] == solution
    status, out, _ = run("count", str(path))
    assert status == 0 and out.strip() == "1"


# --- the forms a puzzle travels in --------------------------------------------------------

KILLER = DATA / "fpuzzles" / "KillerSudoku_112_9x9.fpuzzles.json"
SAMURAI = Path(__file__).resolve().parent.parent / "examples" / "samurai.txt"


def forms() -> list[tuple[str, str]]:
    """The killer example as every form ndoku reads, and what each is called."""
    data = json.loads(KILLER.read_text(encoding="utf-8"))
    payload = compress_base64(json.dumps(data))
    assert "+" in payload or "/" in payload  # the escapes below change something
    escaped = quote(payload, safe="")
    return [
        ("json", "\n  " + json.dumps(data, indent=2) + "\n"),
        ("payload", payload),
        ("f-puzzles link", fpuzzles_link(data)),
        ("escaped link", f"https://www.f-puzzles.com/?load={escaped}&view=1"),
        ("link, more parameters first", f"http://f-puzzles.com/?x=1&load={escaped}"),
        ("link without scheme", f"f-puzzles.com/?load={payload}"),
        ("SudokuPad link", sudokupad_link(data)),
        ("SudokuPad fpuz link", f"https://sudokupad.app/fpuz{escaped}"),
        ("SudokuPad puzzleid", f"https://sudokupad.app/?puzzleid=fpuzzles{escaped}"),
        ("CTC app", f"https://app.crackingthecryptic.com/sudoku/?puzzleid=fpuzzles{escaped}"),
        ("SudokuPad id", f"fpuzzles{payload}"),
    ]


@pytest.mark.parametrize(("name", "text"), forms(), ids=[name for name, _ in forms()])
def test_every_form_reads_as_the_json(name: str, text: str) -> None:
    assert is_exchanged(text)
    converted = exchanged(text)
    assert converted is not None
    [puzzle] = read_exchanged(converted)
    [direct] = read_exchanged(from_fpuzzles(json.loads(KILLER.read_text(encoding="utf-8"))))
    assert meaning(puzzle) == meaning(direct) and len(puzzle.rules) == 34


def scl_killer() -> dict[str, Any]:
    """The killer example as SudokuPad's own format would hold it."""
    data = json.loads(KILLER.read_text(encoding="utf-8"))
    regions = [[[r, c] for r in range(9) for c in range(9) if r // 3 * 3 + c // 3 == n]
               for n in range(9)]  # fmt: skip
    cages = [{"value": "title: Killer"}]
    cages += [
        {"cells": [[int(x) - 1 for x in name[1:].split("C")] for name in cage["cells"]],
         "value": cage["value"], "unique": True}
        for cage in data["killercage"]
    ]  # fmt: skip
    return {"id": "x", "cells": [[{} for _ in range(9)] for _ in range(9)],
            "regions": regions, "cages": cages}  # fmt: skip


def test_scl_links_read_as_the_json() -> None:
    [direct] = read_exchanged(from_fpuzzles(json.loads(KILLER.read_text(encoding="utf-8"))))
    scl = compress_base64(json.dumps(scl_killer()))
    for link in (f"https://sudokupad.app/scl{scl}", f"https://sudokupad.app/ctc{quote(scl)}"):
        converted = exchanged(link)
        assert converted is not None
        [puzzle] = read_exchanged(converted)
        assert meaning(puzzle) == meaning(direct)


def test_zipped_scl_reads_as_its_json() -> None:
    zipped = "{id:'z',ce:[[{v:'1'},,,],[,,,],[,,,],[,,{v:2},]],re:[[[0,0],[0,1],[1,0],[1,1]],"
    zipped += "[[0,2],[0,3],[1,2],[1,3]],[[2,0],[2,1],[3,0],[3,1]],[[2,2],[2,3],[3,2],[3,3]]],"
    zipped += "ca:[{v:'title: it\\'s'},{ce:[[0,0],[0,1]],v:3,c:#0,unique:t}],global:['antiking']}"
    data = read_scl(zipped)
    assert data["cages"][0]["value"] == "title: it's" and data["cages"][1]["color"] == "#000000"
    [puzzle] = read_exchanged(from_scl(data))
    assert puzzle.givens.tolist()[:3] == [1, 0, 0] and puzzle.givens[14] == 2
    assert rule_lines(puzzle) == ["cage 3: r1c1 r1c2", "antiking"]
    [linked] = read_exchanged(exchanged("https://sudokupad.app/scl" + compress_base64(zipped)))
    assert meaning(linked) == meaning(puzzle)


@pytest.mark.parametrize(
    ("link", "words"),
    [
        (
            "https://sudokupad.app/AbCdEf12",
            "kept on SudokuPad (AbCdEf12), which ndoku does not fetch",
        ),
        ("https://app.crackingthecryptic.com/sudoku/qwerty", "kept on SudokuPad (qwerty)"),
        ("https://www.f-puzzles.com/?id=y2k7", "kept on f-puzzles (y2k7)"),
        ("https://www.f-puzzles.com/", "carries its puzzle after ?load="),
        ("https://example.com/?load=N4Ig", "not 'example.com'"),
        ("https://sudokupad.app/scfoooooooook", "'scf' puzzles are not supported yet"),
        ("https://sudokupad.app/fpuzzlesN4IgzglgXgpiBcBOAvkB%%", "payload is damaged"),
        ("https://www.f-puzzles.com/?load=N4IgzglgXgpiBcBOAvkA", "'grid' is 9 rows of 9 cells"),
        ("https://sudokupad.app/", "names no puzzle"),
    ],
)
def test_links_ndoku_cannot_read_are_refused_with_a_sentence(link: str, words: str) -> None:
    with pytest.raises(ParseError, match=re.escape(words)):
        exchanged(link)


def test_text_of_ndoku_is_not_taken_for_an_exchange() -> None:
    for text in ("53..7....6..195", "0 0 0\n0 0 0", "N4IG00000000000", "scl", "[[1, 2], [2, 1]]"):
        assert not is_exchanged(text) and exchanged(text) is None


# --- refused by name ----------------------------------------------------------------------

REFUSALS = [(key, fpuzzle(**{key: [{"cells": ["R1C1"]}]}), repr(key)) for key in REFUSED]
REFUSALS += [
    ("unknown key", fpuzzle(doublecage=[{}]), "'doublecage'"),
    ("flagged", fpuzzle(minimum=True), "'minimum'"),
    ("negative", fpuzzle(negative=["ratio", "foglight"]), "'negative foglight'"),
    (
        "drawn rule",
        fpuzzle(line=[{"lines": [["R1C1", "R1C2"]], "fromConstraint": "Zipper Line"}]),
        "'Zipper Line'",
    ),
]


@pytest.mark.parametrize(("name", "data", "named"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_unsupported_constraints_are_refused_by_name_with_exit_2(
    run: Any, name: str, data: dict[str, Any], named: str
) -> None:
    status, out, err = run("solve", fpuzzles_link(data))
    assert status == 2 and out == ""
    assert err.startswith("Error: ") and f"rule {named} is not supported yet" in err
    assert "Traceback" not in err


def test_empty_kinds_are_nothing_to_refuse() -> None:
    data = fpuzzle(minimum=[], xsum=False, clone=None, quadruple={})
    assert rule_lines(read(data)) == []


def test_scl_drawings_are_refused_by_name() -> None:
    data = scl_killer() | {"lines": [{"wayPoints": [[0.5, 0.5], [1.5, 0.5]]}]}
    with pytest.raises(ParseError, match="SudokuPad 'lines': ndoku cannot tell which rule"):
        from_scl(data)


# --- errors said of the entry -------------------------------------------------------------

THERMOS = [{"lines": [["R1C1", "R2C1"]]}, {"lines": [["R3C3", "R4C3"]]}]
ERRORS = [
    (
        fpuzzle(thermometer=[*THERMOS, {"lines": [["R9C5", "R10C5"]]}]),
        "f-puzzles 'thermometer' entry 3: r10c5 is not a cell of the grid",
    ),
    (
        fpuzzle(killercage=[{"cells": ["R1C1", "R1C2"], "value": "50"}]),
        "f-puzzles 'killercage' entry 1: 2 different digits of 1-9 sum to 3-17, not 50",
    ),
    (
        fpuzzle(xv=[{"cells": ["R1C1", "R1C3"], "value": "X"}]),
        "f-puzzles 'xv' entry 1: an x dot joins neighbours: r1c3 is not next to r1c1",
    ),
    (fpuzzle(xv=[{"cells": ["R1C1", "R1C2"], "value": "Y"}]), "'xv' entry 1: an XV entry's"),
    (fpuzzle(even=[{"cell": "R1C1"}, {"cell": "A1"}]), "'even' entry 2: 'A1' is no cell name"),
    (fpuzzle(even=[{"cell": "R1C12"}]), "'even' entry 1: R1C12 is neither a cell nor beside"),
    (fpuzzle(killercage=[{"cells": ["R1C1"], "value": "x"}]), "the value 'x' is not a number"),
    (fpuzzle(antiknight="yes"), "f-puzzles 'antiknight' is true or false"),
    (fpuzzle(killercage={"cells": []}), "f-puzzles 'killercage' is a list of entries"),
    ({"size": 3, "grid": []}, "f-puzzles 'size' is the grid's side, 4 to 16, not 3"),
    ({"size": 9, "grid": empty(8)}, "f-puzzles 'grid' is 9 rows of 9 cells"),
]


@pytest.mark.parametrize(("data", "message"), ERRORS)
def test_errors_name_the_key_and_entry(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ParseError) as caught:
        read(data)
    assert message in str(caught.value) and "line" not in str(caught.value)


def test_errors_of_givens_name_their_cells() -> None:
    grid = empty()
    grid[0][0] = grid[8][8] = {"value": 5, "given": True}
    with pytest.raises(ConflictError, match="f-puzzles grid R9C9: given 5 repeats the 5 at R1C1"):
        read({"size": 9, "grid": grid, "diagonal-": True})
    grid[0][1] = {"value": 6, "given": True}
    cage = [{"cells": ["R1C1", "R1C2"], "value": "10"}]
    with pytest.raises(ConflictError, match=r"f-puzzles 'killercage' entry 1: .*givens sum to 11"):
        read({"size": 9, "grid": grid, "killercage": cage})
    grid[4][4] = {"value": 10, "given": True}
    with pytest.raises(ParseError, match="f-puzzles grid R5C5: a given is a number 1 to 9"):
        read({"size": 9, "grid": grid})


def test_regions_that_are_no_sudoku_regions_are_refused() -> None:
    grid = [[{"region": 0 if c < 5 else 1} for c in range(4)] for _ in range(4)]
    with pytest.raises(ParseError, match="region 0 has 16 cells"):
        read({"size": 4, "grid": grid})
    grid = [[{"region": None} if r == c == 0 else {} for c in range(4)] for r in range(4)]
    with pytest.raises(ParseError, match="R1C1 is in no region"):
        read({"size": 4, "grid": grid})


def test_a_json_file_that_is_no_json_names_its_line(run: Any, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{\n  "size": 9,\n  "grid": [\n]]\n}\n')
    status, _, err = run("solve", str(path))
    assert status == 2 and f"Error: {path}: line 4, column 2: not JSON" in err


# --- round trips --------------------------------------------------------------------------

EVERY_RULE = """\
# extra: diagonals
1 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0

cage 3: r1c2 r1c3
cage: r9c8 r9c9
little-killer 35 dr: r0c2
little-killer 20 ul: r10c9
outside-sum 12: r4c0
sandwich 10: r0c5
skyscraper 3: r5c10
thermo: r2c2 r3c2 r4c3
slow-thermo: r2c6 r2c7
arrow: r5c5 > r5c6 r5c7
arrow: r7c1 r7c2 > r8c2 r9c2
whisper: r3c4 r3c5 r3c6
whisper 4: r4c4 r4c5
renban: r6c1 r6c2 r6c3
palindrome: r8c4 r8c5 r8c6
white: r4c7 r4c8
white 2: r5c8 r5c9
black: r6c5 r6c6
black 3: r6c8 r6c9
x: r9c4 r9c5
v: r9c6 r9c7
negative: white black x v
nonconsecutive
antiknight
disjoint
even: r1c9 r3c3
odd: r2c9
region: r1c5 r1c6 r2c5
region: r1c1..r9c1
line: r7c4 r7c5 r8c5
circle "a": r7c7 r7c8
outline "b \\"c\\"": r3c8 r4c9
"""


def test_every_rule_round_trips_through_json() -> None:
    [puzzle] = read_puzzles(text=EVERY_RULE)
    assert meaning(round_trip(puzzle)) == meaning(puzzle)
    assert meaning(round_trip(round_trip(puzzle))) == meaning(puzzle)


@pytest.mark.parametrize(
    "text",
    [
        "# box: 2x3\n" + "0 0 0 0 0 0\n" * 5 + "0 0 0 0 0 4\n",
        "# extra: windoku\n"
        + "0 " * 8
        + "0\n"
        + "0 0 0 0 0 0 0 0 3\n" * 1
        + "0 0 0 0 0 0 0 0 0\n" * 7,
        "1 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n\nA A B B\nA C B B\nA C D D\nC C D D\n",
        "# box: none\n" + "0 0 0 0 0 0 0\n" * 7 + "\nwhite: r1c1 r1c2\nnegative: white\n",
    ],
    ids=["6x6", "windoku", "jigsaw", "latin"],
)
def test_layouts_round_trip_through_json(text: str) -> None:
    [puzzle] = read_puzzles(text=text)
    assert meaning(round_trip(puzzle)) == meaning(puzzle)


def test_json_round_trips_through_ndoku() -> None:
    data = fpuzzle(**{key: entries for key, entries, _ in EVERY_KEY[::3]})
    puzzle = read(data)
    again = from_fpuzzles(json.loads(json.dumps(fpuzzles_data(puzzle))))
    assert meaning(read_exchanged(again)[0]) == meaning(puzzle)


VARIANTS = sorted(p for p in (DATA / "variants").glob("*.txt") if "." not in p.stem)


@pytest.mark.parametrize("path", VARIANTS, ids=[p.stem for p in VARIANTS])
def test_the_variant_sets_round_trip_through_json(path: Path) -> None:
    puzzles = read_puzzles(path)
    if puzzles[0].layout.shape != (puzzles[0].size, puzzles[0].size):
        with pytest.raises(NdokuError, match="f-puzzles holds one grid"):
            fpuzzles_data(puzzles[0])
        return
    for puzzle in puzzles:
        assert meaning(round_trip(puzzle)) == meaning(puzzle), puzzle.source


def test_what_f_puzzles_cannot_hold_is_refused() -> None:
    [samurai] = read_puzzles(SAMURAI)
    with pytest.raises(NdokuError, match="f-puzzles holds one grid of N×N cells"):
        fpuzzles_data(samurai)
    [big] = read_puzzles(text="0 " * 24 + "0\n" + ("0 " * 24 + "0\n") * 24)
    with pytest.raises(NdokuError, match="4×4 to 16×16, not 25×25"):
        fpuzzles_data(big)
    [pill] = read_puzzles(text="0 0 0 0\n" * 4 + "\narrow: r1c2 r1c1 > r2c1")
    with pytest.raises(NdokuError, match="reads a pill's digits left to right"):
        fpuzzles_data(pill)
    [only_x] = read_puzzles(text="0 0 0 0\n" * 4 + "\nnegative: x")
    with pytest.raises(NdokuError, match="X and V together"):
        fpuzzles_data(only_x)


# --- show --to ----------------------------------------------------------------------------


def test_show_prints_links_and_text_that_read_back(run: Any, tmp_path: Path) -> None:
    path = tmp_path / "every.txt"
    path.write_text(EVERY_RULE)
    [puzzle] = read_puzzles(path)
    for to in ("fpuzzles", "sudokupad", "text"):
        status, out, err = run("show", str(path), "--to", to)
        assert status == 0 and err == ""
        if to == "text":
            [back] = read_puzzles(text=out)
        else:
            assert out.startswith(
                ("https://www.f-puzzles.com/?load=N4Ig", "https://sudokupad.app/fpuzzlesN4Ig")
            )
            converted = exchanged(out.strip())
            assert converted is not None
            [back] = read_exchanged(converted)
        assert meaning(back) == meaning(puzzle)


def test_show_to_text_parts_puzzles_and_refuses_what_f_puzzles_cannot_hold(run: Any) -> None:
    first, second = KILLER, EXAMPLES[-1]  # two 9×9: the headers of a file are its puzzles'
    status, out, _ = run("show", str(first), str(second), "--to", "text")
    assert status == 0
    assert [meaning(p) for p in read_puzzles(text=out)] == [
        meaning(read_exchanged(exchanged(p.read_text()))[0])
        for p in (first, second)  # type: ignore[arg-type]
    ]
    status, out, err = run("show", str(SAMURAI), "--to", "fpuzzles")
    assert status == 2 and out == "" and "Error: " in err and "f-puzzles holds one grid" in err


# --- fuzzing ------------------------------------------------------------------------------

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 20)
    | st.integers()
    | st.floats()
    | st.text(max_size=4)
    | st.sampled_from(["", "R1C1", "R0C3", "r2c2", "X", "5", " 12 ", "DL", "R9C10", "R99C1"]),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(
            st.sampled_from(
                [
                    "cells",
                    "cell",
                    "lines",
                    "value",
                    "direction",
                    "region",
                    "given",
                    "fromConstraint",
                ]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=20,
)
FUZZ_BASE = fpuzzle(**{key: entries for key, entries, _ in EVERY_KEY[1::3]})


def paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside a JSON value."""
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found += paths(value, (*prefix, key))
    elif isinstance(data, list):
        for k, value in enumerate(data[:3]):
            found += paths(value, (*prefix, k))
    return found


PLACES = [*paths({k: v for k, v in FUZZ_BASE.items() if k != "grid"}), ("grid", 0, 0), ("grid",)]


def reads_or_refuses(data: Any) -> None:
    """Reading f-puzzles data (or text: JSON, a link) ends in puzzles or an NdokuError."""
    try:
        converted = exchanged(data) if isinstance(data, str) else from_fpuzzles(data)
        if converted is not None:
            read_exchanged(converted)
    except NdokuError:
        pass


def put(data: Any, place: tuple[Any, ...], value: Any) -> Any:
    """``data`` with ``value`` at ``place`` (where the place still exists)."""
    if not place:
        return value
    target = data
    for step in place:
        parent = target
        inside = isinstance(parent, list) and isinstance(step, int) and step < len(parent)
        if not inside and not (isinstance(parent, dict) and step in parent):
            return data
        target = parent[step]
    parent[place[-1]] = value
    return data


@PROPERTY
@given(st.lists(st.tuples(st.sampled_from(PLACES), JSON), min_size=1, max_size=3))
def test_fuzzed_f_puzzles_data_only_raise_ndoku_errors(changes: list[tuple[Any, Any]]) -> None:
    data = copy.deepcopy(FUZZ_BASE)
    for place, value in changes:
        data = put(data, place, value)
    reads_or_refuses(data)
    reads_or_refuses(json.dumps(data))
    if isinstance(data, dict):
        reads_or_refuses(fpuzzles_link(data))


@PROPERTY
@given(JSON)
def test_fuzzed_json_values_only_raise_ndoku_errors(value: Any) -> None:
    reads_or_refuses(value)
    reads_or_refuses({"size": 4, "grid": value})
    reads_or_refuses({"size": 4, "grid": empty(4), "killercage": value})
    reads_or_refuses(json.dumps({"cells": value, "regions": value, "cages": value}))


@PROPERTY
@given(
    st.text(max_size=60),
    st.sampled_from(
        [
            "",
            "N4Ig",
            "fpuzzles",
            "scl",
            "ctc",
            "https://sudokupad.app/",
            "https://www.f-puzzles.com/?load=",
            "https://sudokupad.app/?puzzleid=scl",
        ]
    ),
)
def test_fuzzed_links_and_payloads_only_raise_ndoku_errors(text: str, prefix: str) -> None:
    reads_or_refuses(prefix + text)
    with contextlib.suppress(ParseError):
        read_scl(text)


@PROPERTY
@given(st.binary(max_size=40))
def test_payloads_of_garbage_text_only_raise_ndoku_errors(data: bytes) -> None:
    text = data.decode("latin-1")
    for wrapped in (text, "{" + text, "{ce:[[" + text):
        reads_or_refuses("https://sudokupad.app/scl" + compress_base64(wrapped))


def test_show_offers_every_form_the_exchange_writes() -> None:
    from ndoku.cli.looking import TO
    from ndoku.tasks.links import FORMS

    assert TO == FORMS
