"""Convert janko.at's variant sudoku (the puzzlekit-dataset JSON of ``../shared``) into ndoku's
text form: one batch file per kind and size, and its published solutions beside it.

janko.at puzzles are by Otto Janko and the authors named on each page (the source URL of each
puzzle), via SmilingWayne/puzzlekit-dataset, commit 53de2fcb (``assets/data/<Kind>/``), a
third of each set as ``../shared/data/SOURCES.md`` says; the dataset has no licence file.

The tests read the converted files, never this script (it reads ``../shared``, outside the
repository). Before writing, it checks every published solution against the rules it wrote,
by code of its own (sums, counts, dots, parity), so a misread encoding stops it::

    .venv/bin/python tests/data/variants/convert.py [FOLDER]

Files written (``NAME.txt`` and ``NAME.solutions.txt``): ``killer_4x4``, ``killer_6x6``,
``killer_9x9``, ``consecutive_5x5`` … ``consecutive_9x9``, ``evenodd``, ``margin``,
``skyscraper``, ``clueless1``, ``clueless2``. A puzzle file is a batch: a title comment
(``# janko killer 222 (4x4): URL``), the grid, a blank line, its rule lines, a blank line. A
solutions file has one line per puzzle, in the same order: the solution's digits row by row,
then the puzzle's source.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = HERE.parents[3] / "shared" / "data" / "variants"
DATASET = "SmilingWayne/puzzlekit-dataset @53de2fcb"

Grid = list[list[int]]  # 0 for an empty cell
Cell = tuple[int, int]  # 0-based row and column
Check = Callable[[Grid], bool]  # whether a solution keeps one rule
Read = tuple[Grid, list[str], list[Check]]  # givens, rule lines, their checks


@dataclass
class Converted:
    """One puzzle in ndoku's text form, with what the self-check needs."""

    title: str
    source: str
    size: int
    givens: Grid
    solution: Grid
    rules: list[str] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)


def rc(cell: Cell) -> str:
    """A canvas position as ndoku writes it: 1-based, ``r<row>c<col>``.

    >>> rc((0, 0)), rc((-1, 2)), rc((9, 3))
    ('r1c1', 'r0c3', 'r10c4')
    """
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def grid_rows(lines: list[str], rows: int) -> list[list[str]]:
    return [line.split() for line in lines[:rows]]


def values(tokens: list[list[str]]) -> Grid:
    return [[int(t) if t.isdigit() else 0 for t in row] for row in tokens]


def skyscrapers_seen(line: list[int]) -> int:
    """How many of ``line`` are taller than every one before them.

    >>> skyscrapers_seen([2, 1, 3, 5, 4])
    3
    """
    seen, tallest = 0, 0
    for height in line:
        if height > tallest:
            seen, tallest = seen + 1, height
    return seen


def sides(size: int) -> list[tuple[str, Callable[[int], tuple[Cell, list[Cell]]]]]:
    """The four edges in janko's order (top, bottom, left, right): for the k-th clue of an
    edge, its canvas position and the cells of its row or column from the clue inward."""
    n = size
    return [
        ("top", lambda k: ((-1, k), [(r, k) for r in range(n)])),
        ("bottom", lambda k: ((n, k), [(r, k) for r in reversed(range(n))])),
        ("left", lambda k: ((k, -1), [(k, c) for c in range(n)])),
        ("right", lambda k: ((k, n), [(k, c) for c in reversed(range(n))])),
    ]


def killer(problem: list[str], size: int) -> Read:
    """Cages from the cage-number grid, each with the sum written in one of its cells."""
    sums = grid_rows(problem, size)
    numbers = grid_rows(problem[size:], size)
    cages: dict[str, list[Cell]] = {}
    for r in range(size):
        for c in range(size):
            cages.setdefault(numbers[r][c], []).append((r, c))
    rules, checks = [], []
    for cells in cages.values():
        [total] = [int(sums[r][c]) for r, c in cells if sums[r][c] != "-"]
        rules.append(f"cage {total}: " + " ".join(map(rc, cells)))
        checks.append(_cage_check(cells, total))
    return [[0] * size for _ in range(size)], rules, checks


def _cage_check(cells: list[Cell], total: int) -> Check:
    def check(s: Grid) -> bool:
        digits = [s[r][c] for r, c in cells]
        return len(set(digits)) == len(digits) and sum(digits) == total

    return check


def consecutive(problem: list[str], size: int) -> Read:
    """White dots where the edge codes mark a neighbour one more or one less (right 1, down
    2; the left and up codes mark the same pairs from the other side), and ``negative: white``:
    every consecutive pair is marked."""
    codes = values(grid_rows(problem[size:], size))
    marked: set[tuple[Cell, Cell]] = set()
    for r in range(size):
        for c in range(size):
            code = codes[r][c]
            if code & 1:
                marked.add(((r, c), (r, c + 1)))
            if code & 2:
                marked.add(((r, c), (r + 1, c)))
            if code & 4:
                marked.add(((r, c - 1), (r, c)))
            if code & 8:
                marked.add(((r - 1, c), (r, c)))
    assert all(0 <= x < size for pair in marked for cell in pair for x in cell)
    rules = [f"white: {rc(a)} {rc(b)}" for a, b in sorted(marked)] + ["negative: white"]

    def check(s: Grid) -> bool:
        pairs = [((r, c), (r, c + 1)) for r in range(size) for c in range(size - 1)]
        pairs += [((r, c), (r + 1, c)) for r in range(size - 1) for c in range(size)]
        return all(
            (abs(s[a[0]][a[1]] - s[b[0]][b[1]]) == 1) == ((a, b) in marked) for a, b in pairs
        )

    return values(grid_rows(problem, size)), rules, [check]


def evenodd(problem: list[str], size: int) -> Read:
    """``even:`` and ``odd:`` cells (E and O), digits as givens."""
    tokens = grid_rows(problem, size)
    cells = {
        mark: [(r, c) for r in range(size) for c in range(size) if tokens[r][c] == mark]
        for mark in "EO"
    }
    words = (("E", "even"), ("O", "odd"))
    rules = [f"{word}: " + " ".join(map(rc, cells[mark])) for mark, word in words if cells[mark]]

    def check(s: Grid) -> bool:
        return all(s[r][c] % 2 == 0 for r, c in cells["E"]) and all(
            s[r][c] % 2 for r, c in cells["O"]
        )

    return values(tokens), rules, [check]


def margin(problem: list[str], size: int) -> Read:
    """Outside sums of the first box side (3 on a 9×9) from each edge."""
    clues = grid_rows(problem, 4)
    rules, checks = [], []
    depth = round(size**0.5)
    for (_, line), row in zip(sides(size), clues, strict=True):
        for k, token in enumerate(row):
            if token in ("-", "0"):
                continue
            clue, cells = line(k)
            rules.append(f"outside-sum {token}: {rc(clue)}")
            checks.append(_sum_check(cells[:depth], int(token)))
    return values(grid_rows(problem[4:], size)), rules, checks


def _sum_check(cells: list[Cell], total: int) -> Check:
    return lambda s: sum(s[r][c] for r, c in cells) == total


def skyscraper(problem: list[str], size: int) -> Read:
    """Skyscraper counts from each edge (``0`` or ``-``: no clue), digits as givens."""
    clues = grid_rows(problem, 4)
    rules, checks = [], []
    for (_, line), row in zip(sides(size), clues, strict=True):
        for k, token in enumerate(row):
            if token in ("-", "0"):
                continue
            clue, cells = line(k)
            rules.append(f"skyscraper {token}: {rc(clue)}")
            checks.append(_seen_check(cells, int(token)))
    return values(grid_rows(problem[4:], size)), rules, checks


def _seen_check(cells: list[Cell], count: int) -> Check:
    return lambda s: skyscrapers_seen([s[r][c] for r, c in cells]) == count


def clueless(problem: list[str], size: int) -> Read:
    """Givens only: the tenth sudoku is the layout's (``# layout: clueless1``)."""
    return values(grid_rows(problem, size)), [], []


#: Dataset file, name, how its problems read, the header lines of its files.
KINDS: list[tuple[str, str, Callable[[list[str], int], Read], dict[int, list[str]]]] = [
    ("KillerSudoku", "killer", killer, {6: ["# box: 2x3"]}),
    ("ConsecutiveSudoku", "consecutive", consecutive, {n: ["# box: none"] for n in range(5, 10)}),
    ("EvenOddSudoku", "evenodd", evenodd, {}),
    ("MarginSudoku", "margin", margin, {}),
    ("SkyscraperSudoku", "skyscraper", skyscraper, {}),
    ("Clueless1Sudoku", "clueless1", clueless, {27: ["# layout: clueless1"]}),
    ("Clueless2Sudoku", "clueless2", clueless, {27: ["# layout: clueless2"]}),
]


#: Puzzles whose dataset entry lacks their diagonals: without them each has several solutions,
#: their published solutions hold both diagonals distinct (3 of the 162 killer 9×9 do), and
#: with them each is unique. They are written as two ``region`` rules of N cells (units).
DIAGONALS = {"KillerSudoku": ("719_9x9", "720_9x9")}


def diagonals(size: int) -> tuple[list[str], list[Check]]:
    """The two diagonals as ``region`` rules, and their checks."""
    lines = [[(i, i) for i in range(size)], [(i, size - 1 - i) for i in range(size)]]
    rules = ["region: " + " ".join(map(rc, cells)) for cells in lines]
    return rules, [_distinct_check(cells) for cells in lines]


def _distinct_check(cells: list[Cell]) -> Check:
    return lambda s: len({s[r][c] for r, c in cells}) == len(cells)


def convert(folder: Path) -> dict[str, list[Converted]]:
    """Every puzzle of ``folder``'s JSON files, by output name, each checked."""
    out: dict[str, list[Converted]] = {}
    for dataset, name, read, _ in KINDS:
        entries = json.loads((folder / f"{dataset}.json").read_text())["data"]
        sizes = {key.split("_")[1] for key in entries}
        for key in sorted(entries, key=lambda k: (int(k.split("x")[-1]), int(k.split("_")[0]))):
            entry = entries[key]
            number, shape = key.split("_")
            problem = entry["problem"].strip().split("\n")
            rows, cols = map(int, problem[0].split())
            assert rows == cols, key
            givens, rules, checks = read(problem[1:], rows)
            solution = values(grid_rows(entry["solution"].strip().split("\n")[1:], rows))
            source = entry.get("source") or f"{DATASET} {dataset} {key} (no janko URL given)"
            title = f"janko {name} {int(number)} ({shape})"
            if key in DIAGONALS.get(dataset, ()):
                more, also = diagonals(rows)
                rules, checks = rules + more, checks + also
                title += " with both diagonals (the dataset lacks them: see convert.py)"
            puzzle = Converted(title, source, rows, givens, solution, rules, checks)
            _check(puzzle)
            out.setdefault(name if len(sizes) == 1 else f"{name}_{shape}", []).append(puzzle)
    return out


def _check(puzzle: Converted) -> None:
    """The published solution keeps the givens, every row and column, and every rule."""
    s, n = puzzle.solution, puzzle.size
    assert all(len(row) == n and set(row) <= set(range(1, 10)) for row in s), puzzle.title
    for r in range(n):
        for c in range(n):
            assert puzzle.givens[r][c] in (0, s[r][c]), puzzle.title
    side = 9 if n == 27 else n  # the clueless canvas: nine 9×9 sudokus
    for r0 in range(0, n, side):
        for c0 in range(0, n, side):
            for k in range(side):
                assert len({s[r0 + k][c0 + j] for j in range(side)}) == side, puzzle.title
                assert len({s[r0 + j][c0 + k] for j in range(side)}) == side, puzzle.title
    for i, check in enumerate(puzzle.checks):
        assert check(s), f"{puzzle.title}: rule {puzzle.rules[i]!r} broken by the solution"


def digits(grid: Grid) -> str:
    """A grid's digits, row by row.

    >>> digits([[1, 2], [2, 1]])
    '1221'
    """
    return "".join(str(v) for row in grid for v in row)


def write(out: dict[str, list[Converted]], headers: dict[str, list[str]]) -> None:
    """Each set's batch file and solutions file, beside this script."""
    for name, puzzles in out.items():
        lines = [
            f"# janko.at {name.replace('_', ' ')}: {len(puzzles)} puzzles by Otto Janko and the",
            "# authors named on each page (the URL after each title), via",
            f"# {DATASET}; converted by tests/data/variants/convert.py.",
            f"# Published solutions: {name}.solutions.txt (one line per puzzle, in order).",
            *headers[name],
            "",
        ]
        for p in puzzles:
            lines.append(f"# {p.title}: {p.source}")
            lines += [" ".join(map(str, row)) for row in p.givens]
            lines += ["", *p.rules, ""] if p.rules else [""]
        (HERE / f"{name}.txt").write_text("\n".join(lines))
        solved = [digits(p.solution) + f" {p.source}" for p in puzzles]
        (HERE / f"{name}.solutions.txt").write_text("\n".join(solved) + "\n")
        print(f"{name}: {len(puzzles)} puzzles")


def main(argv: list[str]) -> None:
    folder = Path(argv[0]) if argv else SHARED
    out = convert(folder)
    headers = {}
    for _, name, _, by_size in KINDS:
        for key, puzzles in out.items():
            if key == name or key.startswith(name + "_"):
                headers[key] = by_size.get(puzzles[0].size, [])
    write(out, headers)


if __name__ == "__main__":
    main(sys.argv[1:])
