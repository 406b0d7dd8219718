"""Fuzzing the readers and the commands: random bytes and damaged real puzzles never give a
traceback, a hang, an exit status other than 0, 1 or 2, or an answer that does not verify.

The inputs are random bytes, random text, random shapes of sub-grids, and the real puzzles of
``tests/data``, ``examples`` and ``layouts`` damaged at random (cells changed, rows cut,
separators swapped, headers mangled, ``.`` sprinkled into multi-grids), then written in a
random encoding (UTF-8 with or without a BOM, UTF-16, Latin-1), with CRLF or CR endings and
tabs. What ``solve`` prints must verify against the input, and what ``show`` draws must read
back as the same puzzle.

Two profiles: ``fast`` runs in ``make test`` (a few hundred inputs); ``make fuzz`` sets
``NDOKU_FUZZ=long`` (over 10⁵ inputs). Every input that ever broke something is kept in
``tests/fuzz_corpus/`` and replayed with the exit status it must give.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
import signal
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, currently_in_test_context, event, given, settings
from hypothesis import strategies as st

from ndoku.cli import main
from ndoku.errors import NdokuError
from ndoku.model.layout import Layout, available_layouts
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.model.table import read_table
from ndoku.solvers.logic import Board
from ndoku.tasks.render import draw_puzzle
from ndoku.tasks.verify import problems
from ndoku.text.formats import decode, parse
from ndoku.text.grid import DIGITS, HEADER_KEYS, MISSING

TESTS = Path(__file__).parent
ROOT = TESTS.parent
DATA = TESTS / "data"
CORPUS = TESTS / "fuzz_corpus"

PROFILE = os.environ.get("NDOKU_FUZZ", "fast")
#: Inputs per test in each profile.
EXAMPLES = {
    "fast": {
        "readers": 150,
        "encodings": 100,
        "solve": 60,
        "count": 30,
        "rate": 20,
        "show": 30,
        "generate": 10,
    },
    "long": {
        "readers": 50_000,
        "encodings": 20_000,  # runs out of distinct inputs near 12 000
        "solve": 25_000,
        "count": 10_000,
        "rate": 5_000,
        "show": 10_000,
        "generate": 2_000,
    },
}[PROFILE]
#: A run that takes longer has hung (commands run with --timeout 1; a first run compiles).
TIME_BOUND = 60.0


def fuzz_settings(test: str) -> Callable[[Any], Any]:
    return settings(
        max_examples=EXAMPLES[test],
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# --- the seeds: real puzzles ------------------------------------------------------------


LAYOUT_FILES = sorted((ROOT / "layouts").glob("*.txt"))
LAYOUT_TEXTS = [path.read_text() for path in LAYOUT_FILES]
LAYOUT_NAMES = sorted(available_layouts())


def _head(path: Path, lines: int) -> str:
    """The first lines of a file of one-line puzzles, without ids (``id puzzle,solution``)."""
    kept = [line.split()[1] if " " in line else line for line in path.read_text().splitlines()]
    return "\n".join(kept[:lines]) + "\n"


def _seeds() -> list[str]:
    """Real puzzles and solutions in every format ndoku reads, and the bundled layouts."""
    janko = DATA / "janko"
    grids = [
        ROOT / "examples" / "samurai.txt",
        DATA / "samurai" / "kyle_samurai.txt",
        janko / "jigsaw" / "93_9x9.puzzle.txt",
        janko / "16x16" / "301_16x16.puzzle.txt",
        janko / "butterfly" / "2_12x12.puzzle.txt",
        janko / "windmill" / "1_21x21.puzzle.txt",
        janko / "sohei" / "1_21x21.puzzle.txt",
        janko / "gattai8" / "1_21x33.puzzle.txt",
        janko / "shogun" / "1_21x45.puzzle.txt",
        janko / "sumo" / "1_33x33.puzzle.txt",
        DATA / "sukaku" / "diabolical1_step20.hodoku.txt",
        DATA / "sukaku" / "diabolical1_step20.sukaku.txt",
    ]
    solutions = [
        janko / "samurai" / "1_21x21.solution.txt",
        janko / "16x16" / "301_16x16.solution.txt",
    ]
    seeds = [path.read_text() for path in grids + solutions]
    seeds[5] = "# layout: windmill\n" + seeds[5]  # its shape alone does not decide
    batches = [
        ("sudoku9/norvig_top95.txt", 3),
        ("sudoku9/kaggle_bryanpark_first69.txt", 2),
        ("sudoku9/tdoku_test_puzzles_counts.txt", 4),
        ("sudoku9/gecode_9x9.txt", 2),
        ("sudoku4/wild_4x4.txt", 3),
        ("sudoku16/goomii_16x16_first40.txt", 2),
        ("sudoku16/wild_16x16.txt", 1),
        ("sudoku25/gecode_25x25_shared6.txt", 1),
    ]
    seeds += [_head(DATA / name, lines) for name, lines in batches]
    # A one-line 9×9 in the formats people paste (README), and drawings as ``ndoku show``
    # makes them.
    line = seeds[-8][:81]
    rows = [line[k : k + 9] for k in range(0, 81, 9)]
    dotted = [row.replace("0", ".") for row in rows]
    forum = [" | ".join(" ".join(row[k : k + 3]) for k in (0, 3, 6)) for row in rows]
    simple = ["|".join(row[k : k + 3] for k in (0, 3, 6)) for row in dotted]
    for k in (6, 3):
        forum.insert(k, "------+-------+------")
        simple.insert(k, "-----------")
    pasted = [rows, forum, simple, ["[Puzzle]", *dotted], [",".join(row) for row in rows]]
    seeds += ["\n".join(lines) + "\n" for lines in pasted]
    for path in grids[:4]:
        [puzzle] = read_puzzles(path)
        seeds.append(draw_puzzle(puzzle).plain + "\n")
    return seeds + LAYOUT_TEXTS


SEEDS = _seeds()


# --- damage -----------------------------------------------------------------------------

#: What a changed cell becomes: most often a digit or an empty or missing mark, else a letter,
#: a separator or junk.
CELL = st.one_of(
    *[st.sampled_from("0123456789.")] * 3,
    st.sampled_from("ABCDEFGPZaiz-_|,;#:[]* \t\n\u2502\u2500é\x00\x7f"),
    st.characters(),
)
SEPARATORS = [" ", "  ", "\t", ",", ", ", ";", "|", " | ", ""]
SYMBOL_SPECS = ["0-F", "1-9A-G", "A-P", "1-9", "a-i", "123456789", "0-Z", "", "-", "1-9A-Z", "ab"]
HEADER_VALUES = st.one_of(
    st.sampled_from([*LAYOUT_NAMES, "", "nowhere", "../layouts/9x9.txt", "9x9.txt"]),
    st.sampled_from(SYMBOL_SPECS),
    st.sampled_from(["3x3", "2x3", "3x2", "0x0", "1x1", "99x99", "2×2", "3 x 4", "x"]),
    st.sampled_from(["diagonals", "windoku", "diagonals, windoku", "zigzag"]),
    st.lists(
        st.tuples(st.integers(-1, 40), st.integers(-1, 40)).map(lambda p: f"{p[0]},{p[1]}"),
        max_size=12,
    ).map(" ".join),
    st.text(max_size=12),
)
HEADER_NAMES = st.sampled_from([*HEADER_KEYS, "Layout", "SYMBOLS", "subgrid", "note"])


#: Edits, the mildest (a cell or two changed, dots sprinkled) the most often.
EDITS = [
    *["cell"] * 4,
    *["dots"] * 2,
    "cells",
    "cut row",
    "dup row",
    "cut span",
    "separator",
    "header",
    "header value",
    "insert",
    "blank line",
    "join lines",
    "case",
    "truncate",
]


@st.composite
def _edit(draw: st.DrawFn, text: str) -> str:
    """``text`` with one random edit."""
    kind = draw(st.sampled_from(EDITS))
    lines = text.split("\n")
    filled = [k for k, ch in enumerate(text) if not ch.isspace()]
    at = draw(st.integers(0, len(text)))
    row = draw(st.integers(0, max(len(lines) - 1, 0)))
    if kind in ("cell", "cells", "dots") and filled:
        count = 1 if kind == "cell" else draw(st.integers(1, 12))
        chars = list(text)
        for _ in range(count):
            k = draw(st.sampled_from(filled))
            chars[k] = "." if kind == "dots" else draw(CELL)
        return "".join(chars)
    if kind == "cut row":
        return "\n".join(lines[:row] + lines[row + 1 :])
    if kind == "dup row":
        return "\n".join(lines[: row + 1] + lines[row:])
    if kind == "cut span":
        return text[:at] + text[at + draw(st.integers(1, 40)) :]
    if kind == "separator":
        old = draw(st.sampled_from([" ", ",", ";", "|", "\t", "\u2502"]))
        new = draw(st.sampled_from(SEPARATORS))
        if draw(st.booleans()):
            return text.replace(old, new)
        lines[row] = lines[row].replace(old, new)
        return "\n".join(lines)
    if kind == "header":
        header = f"# {draw(HEADER_NAMES)}: {draw(HEADER_VALUES)}"
        return "\n".join([*lines[:row], header, *lines[row:]])
    if kind == "header value":
        headers = [k for k, line in enumerate(lines) if line.startswith("#") and ":" in line]
        if headers:
            k = draw(st.sampled_from(headers))
            lines[k] = lines[k].split(":", 1)[0] + ": " + draw(HEADER_VALUES)
        return "\n".join(lines)
    if kind == "insert":
        return text[:at] + draw(st.text(max_size=12)) + text[at:]
    if kind == "blank line":
        return "\n".join([*lines[:row], "", *lines[row:]])
    if kind == "join lines":
        return "\n".join([*lines[:row], " ".join(lines[row : row + 2]), *lines[row + 2 :]])
    if kind == "case":
        return draw(st.sampled_from([str.lower, str.upper, str.swapcase]))(text)
    return text[:at]


@st.composite
def damaged(draw: st.DrawFn, seeds: list[str]) -> str:
    """A seed with one to three random edits."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 3))):
        text = draw(_edit(text))
    return text


#: Encodings ndoku reads (UTF-16 with its byte-order mark), and one it refuses.
ENCODINGS = ["utf-8", "utf-8", "utf-8-sig", "utf-16", "latin-1", "cp1252"]
REFUSED = ["utf-16-le"]


@st.composite
def encoded(draw: st.DrawFn, text: str, faithful: bool = False) -> bytes:
    """``text`` as a file: a comment in another script, tabs for spaces, its line endings, an
    encoding; ``faithful``: the same puzzle (an encoding ndoku reads and that holds every
    character, no tabs in a drawing, whose columns they would shift)."""
    tabs = not faithful or "\u2502" not in text
    if draw(st.booleans()):
        text = "# Rätsel – from a magazine\n" + text
    if tabs and draw(st.booleans()):
        text = text.replace("  ", "\t") if draw(st.booleans()) else text.replace(" ", "\t")
    ending = draw(st.sampled_from(["\n", "\n", "\r\n", "\r"]))
    text = text.replace("\n", ending)
    if draw(st.booleans()):
        text = text.rstrip("\r\n")
    if not faithful:
        return text.encode(draw(st.sampled_from(ENCODINGS + REFUSED)), errors="replace")
    holding = [e for e in ENCODINGS if text.encode(e, errors="replace").decode(e) == text]
    return text.encode(draw(st.sampled_from(holding)))


@st.composite
def canvases(draw: st.DrawFn) -> str:
    """Random shapes: sub-grids of one size at random places of their box lattice, a few
    givens, a few cells flipped between empty and missing (what the layout finder covers)."""
    size, (high, wide) = draw(
        st.sampled_from([(4, (2, 2)), (6, (2, 3)), (9, (3, 3)), (16, (4, 4))])
    )
    corners = draw(
        st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=7)
    )
    rows = max(r for r, _ in corners) * high + size
    cols = max(c for _, c in corners) * wide + size
    canvas = [["."] * cols for _ in range(rows)]
    for r, c in corners:
        for i in range(size):
            canvas[r * high + i][c * wide : c * wide + size] = ["0"] * size
    for _ in range(draw(st.integers(0, 12))):
        r, c = draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1))
        canvas[r][c] = draw(st.sampled_from([".", "0", str(draw(st.integers(1, size)))]))
    return "".join(" ".join(row) + "\n" for row in canvas)


def puzzle_bytes(seeds: list[str]) -> st.SearchStrategy[bytes]:
    """Random bytes, random text, random shapes, a real puzzle or (most often) a damaged
    one, as a file."""
    return st.one_of(
        st.binary(max_size=400),
        st.text(max_size=400).flatmap(encoded),
        canvases().flatmap(encoded),
        st.sampled_from(seeds).flatmap(encoded),
        *[damaged(seeds).flatmap(encoded)] * 5,
    )


# --- running a command ------------------------------------------------------------------


class Hang(Exception):
    """A command ran past twice its time bound."""


@contextmanager
def watchdog(seconds: float) -> Iterator[None]:
    """Raise :class:`Hang` in the running code after ``seconds`` (Python code only: a
    compiled kernel that never returns still blocks the test)."""

    def bark(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"still running after {seconds:.0f} s")

    previous = signal.signal(signal.SIGALRM, bark)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


#: Where a failing input is kept (a repr of a large one is not printed), for the corpus.
FAILURES = Path(tempfile.gettempdir()) / "ndoku-fuzz-failures"


@contextmanager
def kept_on_failure(data: bytes) -> Iterator[None]:
    """Keep ``data`` in :data:`FAILURES` when the block fails, and say where."""
    try:
        yield
    except Exception as exc:
        FAILURES.mkdir(exist_ok=True)
        path = FAILURES / f"{hashlib.sha256(data).hexdigest()[:16]}.bin"
        path.write_bytes(data)
        exc.add_note(f"the input is kept in {path}")
        raise


def invoke(args: list[str], stdin: bytes | None = None) -> Result:
    """Run ``ndoku ARGS`` and check what every run must hold: exit status 0, 1 or 2, no
    traceback, an ``Error:`` line with status 2, within the time bound."""
    start = time.perf_counter()
    with watchdog(2 * TIME_BOUND):
        result = CliRunner().invoke(main, args, input=stdin)
    elapsed = time.perf_counter() - start
    if currently_in_test_context():
        event(f"{args[0]} exit {result.exit_code}")
    shown = f"ndoku {' '.join(args)}\nstdout:\n{result.stdout[-2000:]}\nstderr:\n{result.stderr}"
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        assert result.exc_info is not None
        trace = "".join(traceback.format_exception(*result.exc_info))
        raise AssertionError(f"{shown}\nraised:\n{trace}")
    assert result.exit_code in (0, 1, 2), shown
    assert "Traceback" not in result.stdout + result.stderr, shown
    assert result.exit_code != 2 or "Error: " in result.stderr, shown
    assert elapsed < TIME_BOUND, f"{shown}\ntook {elapsed:.1f} s"
    return result


# --- checking an answer, independently of the solvers ------------------------------------


def unit_cells(layout: Layout) -> list[list[tuple[int, int]]]:
    """Every unit's canvas positions, straight from the layout: rows, columns and boxes of
    each sub-grid, regions, extra units."""
    n = layout.size
    units: list[list[tuple[int, int]]] = []
    for r0, c0 in layout.corners:
        units += [[(r0 + i, c0 + j) for j in range(n)] for i in range(n)]
        units += [[(r0 + i, c0 + j) for i in range(n)] for j in range(n)]
        if layout.box is not None:
            br, bc = layout.box
            units += [
                [(r0 + top + i, c0 + left + j) for i in range(br) for j in range(bc)]
                for top in range(0, n, br)
                for left in range(0, n, bc)
            ]
    if layout.regions is not None:
        for k in range(int(layout.regions.max()) + 1):
            units.append([(int(r), int(c)) for r, c in np.argwhere(layout.regions == k)])
    units += [list(extra.cells) for extra in layout.extras]
    return units


def check_answer(puzzle: Puzzle, answer: str) -> None:
    """``answer`` (the text printed for ``puzzle``) solves it: the same cells, every given
    kept, every cell within its pencil marks, every unit holding 1..N. The answer is parsed
    in the puzzle's alphabet, and its units are found by :func:`unit_cells`."""
    [grid] = parse(answer, symbols=puzzle.grid.style.alphabet)
    given, solved = puzzle.canvas(puzzle.givens), grid.values
    assert solved.shape == given.shape and ((solved == MISSING) == (given == MISSING)).all()
    kept = (given <= 0) | (solved == given)
    assert kept.all(), f"given changed at {np.argwhere(~kept)[0]}"
    full = list(range(1, puzzle.size + 1))
    for cells in unit_cells(puzzle.layout):
        assert sorted(int(solved[r, c]) for r, c in cells) == full, f"unit {cells} broken"
    values = solved[puzzle.cell_rc[:, 0], puzzle.cell_rc[:, 1]]
    if puzzle.candidates is not None:
        bits = (values - 1).astype(np.uint64)
        assert (puzzle.candidates >> bits & np.uint64(1)).all(), "a value outside its marks"
    assert problems(puzzle, values) == []


def check_solved(text: str, options: dict[str, str], stdout: str, json_lines: bool) -> None:
    """Every answer ``ndoku solve`` printed (with exit status 0) verifies against the input:
    one grid, one line per puzzle of a batch, or (``json_lines``) one object per puzzle."""
    puzzles = read_puzzles(text=text, **options)
    if json_lines:
        records = [json.loads(line) for line in stdout.splitlines()]
        assert all(record["status"] in ("solved", "multiple") for record in records), stdout
        answers = [record["solution"] for record in records]
    else:
        answers = stdout.splitlines() if len(puzzles) > 1 else [stdout]
    assert len(answers) == len(puzzles), stdout
    for puzzle, answer in zip(puzzles, answers, strict=True):
        check_answer(puzzle, answer)


def test_the_answer_check_refuses_wrong_answers() -> None:
    """:func:`check_answer` takes a real solution and refuses it with a given changed, two
    values swapped in a row, or a cell cut (else the solve property could not fail)."""
    puzzle = read_puzzles(ROOT / "examples" / "samurai.txt")[0]
    solution = (DATA / "janko" / "samurai" / "1_21x21.solution.txt").read_text()
    check_answer(puzzle, solution)
    rows = solution.splitlines()
    assert rows[0].startswith("8 7 2 ")  # the 7 is a given
    given = "8 9 2" + rows[0][5:]
    swapped = "2 7 8" + rows[0][5:]  # the row stays whole, two columns break
    for row in (given, swapped, rows[0][:-2]):
        with pytest.raises((AssertionError, NdokuError)):
            check_answer(puzzle, "\n".join([row, *rows[1:]]) + "\n")


# --- the properties ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder for the fuzzed files (each run writes over the one before)."""
    return tmp_path_factory.mktemp("fuzz")


def _trimmed(canvas: np.ndarray) -> np.ndarray:
    """A canvas without its rows and columns of missing cells at the borders."""
    rows, cols = np.nonzero(canvas != MISSING)
    return canvas[rows.min() : rows.max() + 1, cols.min() : cols.max() + 1]


def _possible(puzzle: Puzzle) -> np.ndarray:
    """``(cells, N)``: the values each cell may hold once every cell left one value has
    taken it from its peers (the first board, its naked singles placed over and over)."""
    board = Board.start(puzzle)
    possible = board.cand.copy()
    placed = np.flatnonzero(board.values)
    possible[placed] = False
    possible[placed, board.values[placed] - 1] = True
    indptr, peers = puzzle.peers
    done = np.zeros(len(possible), dtype=bool)
    while (fresh := np.flatnonzero(~done & (possible.sum(axis=1) == 1))).size:
        for cell in fresh:
            value = np.flatnonzero(possible[cell])[0]
            possible[peers[indptr[cell] : indptr[cell + 1]], value] = False
        done[fresh] = True
    return possible


def check_drawn(path: str, options: dict[str, str], stdout: str) -> None:
    """What ``ndoku show PATH`` drew reads back as the puzzles it was drawn from: the same
    cells (the drawing leaves out missing rows and columns at the borders), givens and
    pencil marks (as the board they leave)."""
    puzzles = read_puzzles(path, **options)
    drawings = [stdout]
    if len(puzzles) > 1:  # each drawing after a '# PATH' line
        drawings = re.split(rf"^# {re.escape(path)}\n", stdout, flags=re.MULTILINE)[1:]
    assert len(drawings) == len(puzzles), stdout
    for puzzle, drawing in zip(puzzles, drawings, strict=True):
        given = _trimmed(puzzle.canvas(puzzle.givens))
        exists = given != MISSING
        if not (exists.any(axis=0).all() and exists.any(axis=1).all()):
            continue  # no drawn cell holds a row or column of missing cells between sub-grids
        digits = 0 < puzzle.givens.max() < 10
        if puzzle.size >= len(DIGITS) and puzzle.grid.style.alphabet is None and digits:
            # 1..36 has no '# symbols:' of one character each: with digits only, and its 0s
            # drawn as '.', a 36×36 reads 1-9A-Z… or 0-Z
            continue
        if puzzle.candidates is not None and not _possible(puzzle).any(axis=1).all():
            continue  # a cell left no candidate is drawn '.', which reads as no cell
        [again] = read_puzzles(text=drawing, symbols=puzzle.grid.style.alphabet)
        drawn = _trimmed(again.canvas(again.givens))
        assert drawn.shape == given.shape and ((drawn == MISSING) == (given == MISSING)).all()
        if puzzle.candidates is None:
            assert np.array_equal(drawn, given)
            continue
        # The board is drawn: candidates a placed peer rules out left out, and a cell left
        # one candidate so drawn as that value (a given when read back), which rules it out
        # of its peers in turn.
        assert np.array_equal(_possible(again), _possible(puzzle))


def _write(folder: Path, data: bytes, name: str = "puzzle.txt") -> str:
    path = folder / name
    path.write_bytes(data)
    return str(path)


#: ``--symbols`` and ``--layout``, now and then.
OPTIONS = st.one_of(
    *[st.just({})] * 3,
    st.fixed_dictionaries(
        {},
        optional={
            "symbols": st.sampled_from(SYMBOL_SPECS),
            "layout": st.sampled_from([*LAYOUT_NAMES, "nowhere"]),
        },
    ),
)


@fuzz_settings("readers")
@given(puzzle_bytes(SEEDS), OPTIONS)
def test_readers_read_or_refuse(data: bytes, options: dict[str, str]) -> None:
    """Reading gives puzzles or an NdokuError, never another exception; the givens of what
    is read are symbols, none twice in a unit; a batch read as a table has the givens that
    reading it puzzle by puzzle gives."""
    with kept_on_failure(data):
        try:
            text = decode(data)
        except NdokuError:
            return
        try:
            puzzles = read_puzzles(text=text, **options)
        except NdokuError:
            puzzles = None
        else:
            for puzzle in puzzles:
                canvas = puzzle.canvas(puzzle.givens)
                for cells in unit_cells(puzzle.layout):
                    values = [int(canvas[r, c]) for r, c in cells if canvas[r, c] > 0]
                    assert len(set(values)) == len(values)
                assert puzzle.givens.min() >= 0 and puzzle.givens.max() <= puzzle.size
        try:
            table = read_table(text, **options)
        except NdokuError:
            return
        if table is not None:
            assert puzzles is not None
            assert np.array_equal(table.givens, np.stack([p.givens for p in puzzles]))


@fuzz_settings("encodings")
@given(st.sampled_from(SEEDS), st.data())
def test_encodings_endings_and_tabs_read_the_same(seed: str, data: st.DataObject) -> None:
    """A real puzzle reads the same in every encoding ndoku reads, with any line endings, and
    with tabs for spaces."""
    text = decode(data.draw(encoded(seed, faithful=True)))
    puzzle, first = read_puzzles(text=seed)[0], read_puzzles(text=text)[0]
    assert np.array_equal(first.givens, puzzle.givens)
    assert np.array_equal(first.layout.mask, puzzle.layout.mask)


def _option_args(options: dict[str, str]) -> list[str]:
    return [arg for key, value in options.items() for arg in (f"--{key}", value)]


#: Methods and outputs of ``ndoku solve``, each bounded (``--timeout 1`` on every one).
SOLVE_OPTIONS = [
    [],
    [],
    ["--format", "json"],
    ["--pretty"],
    ["--unique"],
    ["--method", "exact", "--max-nodes", "5000"],
    ["--method", "metropolis", "--max-proposals", "20000"],
    ["--method", "hybrid", "--max-proposals", "20000"],
    ["--method", "tempering", "--max-proposals", "20000"],
]


@fuzz_settings("solve")
@given(puzzle_bytes(SEEDS), st.sampled_from(SOLVE_OPTIONS), OPTIONS, st.booleans())
def test_solve_answers_verify(
    scratch: Path, data: bytes, extra: list[str], options: dict[str, str], stdin: bool
) -> None:
    with kept_on_failure(data):
        path = "-" if stdin else _write(scratch, data)
        args = ["solve", path, "--timeout", "1", "--jobs", "1", *extra, *_option_args(options)]
        result = invoke(args, data if stdin else None)
        if result.exit_code == 0 and "--pretty" not in extra:
            check_solved(decode(data), options, result.stdout, "--format" in extra)


@fuzz_settings("count")
@given(puzzle_bytes(SEEDS), st.sampled_from([[], ["--limit", "1"], ["--format", "json"]]), OPTIONS)
def test_count_prints_a_count_per_puzzle(
    scratch: Path, data: bytes, extra: list[str], options: dict[str, str]
) -> None:
    with kept_on_failure(data):
        path = _write(scratch, data)
        result = invoke(
            ["count", path, "--timeout", "1", "--jobs", "1", *extra, *_option_args(options)]
        )
        if result.exit_code == 0:
            lines = result.stdout.splitlines()
            assert len(lines) == len(read_puzzles(text=decode(data), **options))
            if extra == ["--format", "json"]:
                assert all(isinstance(json.loads(line)["count"], int) for line in lines)
            else:
                assert all(re.fullmatch(r"≥?\d+", line) for line in lines), lines


@fuzz_settings("rate")
@given(puzzle_bytes(SEEDS), st.sampled_from(["0", "1"]), OPTIONS)
def test_rate(scratch: Path, data: bytes, chains: str, options: dict[str, str]) -> None:
    with kept_on_failure(data):
        path = _write(scratch, data)
        limits = ["--chains", chains, "--max-proposals", "20000", "--timeout", "1"]
        invoke(["rate", path, *limits, *_option_args(options)])


@fuzz_settings("show")
@given(puzzle_bytes(SEEDS), OPTIONS)
def test_show(scratch: Path, data: bytes, options: dict[str, str]) -> None:
    with kept_on_failure(data):
        path = _write(scratch, data)
        result = invoke(["show", path, *_option_args(options)])
        if result.exit_code == 0:
            check_drawn(path, options, result.stdout)


LAYOUT_NUMBERS = itertools.count()


@fuzz_settings("generate")
@given(
    damaged(LAYOUT_TEXTS).flatmap(encoded),
    st.integers(0, 1000),
    st.sampled_from([[], ["--format", "line"], ["--format", "json"], ["--givens", "30"]]),
)
def test_generate_from_a_layout_file(
    scratch: Path, data: bytes, seed: int, extra: list[str]
) -> None:
    with kept_on_failure(data):
        # A new name each time: layouts are cached by path, modification time and size.
        path = _write(scratch, data, f"layout{next(LAYOUT_NUMBERS)}.txt")
        result = invoke(["generate", path, "--timeout", "1", "--seed", str(seed), *extra])
        if result.exit_code == 0 and not extra:
            layout = read_puzzles(text=decode(data))[0].layout
            for puzzle in read_puzzles(text=result.stdout):
                assert np.array_equal(puzzle.layout.mask, layout.mask)


# --- the regression corpus --------------------------------------------------------------


def _corpus() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads((CORPUS / "index.json").read_text())
    return cases


@pytest.mark.parametrize("case", _corpus(), ids=lambda case: case["file"])
def test_corpus(case: dict[str, Any], tmp_path: Path) -> None:
    """Each input that once broke something gives the status it must, and what a solve
    printed verifies, what a show drew reads back."""
    data = (CORPUS / case["file"]).read_bytes()
    path = _write(tmp_path, data, case.get("name", "puzzle.txt"))
    args = case.get("args", [])
    result = invoke([case["command"], path, *args])
    assert result.exit_code == case["exit"], result.stderr
    if "error" in case:
        assert case["error"] in result.stderr
    options = dict(zip(args[::2], args[1::2], strict=True))
    given = {k[2:]: v for k, v in options.items() if k in ("--symbols", "--layout")}
    if case["command"] == "solve" and result.exit_code == 0:
        check_solved(decode(data), given, result.stdout, options.get("--format") == "json")
    if case["command"] == "show" and result.exit_code == 0:
        check_drawn(path, given, result.stdout)
