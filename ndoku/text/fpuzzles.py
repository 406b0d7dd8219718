"""f-puzzles puzzles in ndoku's text form, each line noting the JSON entry it came from.

f-puzzles (f-puzzles.com) keeps a puzzle as a JSON object: ``size``, a ``grid`` of ``size``
rows of cells (``value`` with ``given: true``, ``region``: a 0-based region number, absent for
the default boxes, ``null`` for none), and one key per constraint kind whose entries name
cells ``R<row>C<col>`` (1-based; row or column 0 or ``size + 1`` is beside the grid, where
outside clues stand). SudokuPad opens the same data.

:func:`from_fpuzzles` writes such an object as ndoku text: ``# box:`` (or a region map), the
grid, then a rule line per constraint (the grammar of :mod:`ndoku.text.rules`), and notes what
each line came from, so that an error about the text names the f-puzzles key and entry instead
(:meth:`Converted.explain`). A constraint ndoku has no rule for is refused by name, never
dropped (:data:`REFUSED`, and any key it does not know); drawings without a rule
(:data:`COSMETIC`) become ndoku's cosmetic kinds, and the parts of them beside the grid are
left out. Writing a puzzle as f-puzzles data is :func:`ndoku.model.exchange.fpuzzles_data`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ndoku.errors import ParseError
from ndoku.text.rules import rule_line

#: f-puzzles grid sizes.
SIZES = range(4, 17)
#: f-puzzles keys ndoku reads, and the ndoku rule kind each becomes.
SUPPORTED = {
    "killercage": "cage",
    "littlekillersum": "little-killer",
    "sandwichsum": "sandwich",
    "skyscraper": "skyscraper",
    "thermometer": "thermo",
    "slowthermometer": "slow-thermo",
    "arrow": "arrow",
    "whispers": "whisper",
    "renban": "renban",
    "palindrome": "palindrome",
    "difference": "white",
    "ratio": "black",
    "xv": "x and v",
    "negative": "negative",
    "nonconsecutive": "nonconsecutive",
    "antiknight": "antiknight",
    "antiking": "antiking",
    "disjointgroups": "disjoint",
    "even": "even",
    "odd": "odd",
    "extraregion": "region",
    "diagonal+": "a '# unit:' (with diagonal-: '# extra: diagonals')",
    "diagonal-": "a '# unit:' (with diagonal+: '# extra: diagonals')",
}
#: Drawings without a rule, and the cosmetic ndoku kind each becomes.
COSMETIC = {
    "line": "line",
    "circle": "circle",
    "rectangle": "outline",
    "text": "outline",
    "cage": "outline",
}
#: f-puzzles constraints known to carry rules ndoku does not have yet (any other key that is
#: not a puzzle's data is refused too).
REFUSED = (
    "minimum",
    "maximum",
    "quadruple",
    "clone",
    "betweenline",
    "entropicline",
    "regionsumline",
    "zipperline",
    "xsum",
    "columnindexer",
    "rowindexer",
    "boxindexer",
    "lockout",
    "clock",
    "doublearrow",
    "sumdot(intersection)",
    "fogofwar",
    "foglight",
)
#: Keys that describe the puzzle rather than constrain it (the grid is read on its own).
_DATA = (
    *("size", "grid", "title", "author", "ruleset", "solution"),
    *("disabledlogic", "truecandidatesoptions", "highlightConflicts"),
)
#: What each f-puzzles ``negative`` name means in ndoku's dots.
_NEGATIVE = {"difference": ("white",), "ratio": ("black",), "xv": ("x", "v")}
_CELL = re.compile(r"R(\d{1,3})C(\d{1,3})", re.IGNORECASE)
_NUMBER = re.compile(r"\s*(\d{1,9})\s*")
_DIRECTIONS = ("DL", "DR", "UL", "UR")
_LOCATION = re.compile(r"line (\d+), column (\d+)")

Position = tuple[int, int]


@dataclass(frozen=True)
class Converted:
    """A puzzle of another program written as ndoku text, and where each line came from.

    Attributes
    ----------
    text : str
        The puzzle in ndoku's text form.
    program : str
        Whose puzzle it was (``f-puzzles``, ``SudokuPad``), to name in errors.
    origins : tuple of str
        For each line of ``text``, the key and entry it came from (``'thermometer' entry
        3``); grid rows are ``grid``, blank lines empty.
    grid : (int, int, int)
        The line of the first grid row, the rows, and the characters from one grid token to
        the next: what names a grid position as the program's cell.
    """

    text: str
    program: str
    origins: tuple[str, ...]
    grid: tuple[int, int, int]

    def explain(self, error: ParseError) -> ParseError:
        """``error``, about :attr:`text`, said of the key, entry or cell it came from.

        >>> data = {"size": 4, "grid": [[{}] * 4] * 4, "odd": [{"cell": "R1C1"}]}
        >>> converted = from_fpuzzles(data)
        >>> print(converted.explain(ParseError("r1c1 is no cell", line=7, column=6)))
        f-puzzles 'odd' entry 1: r1c1 is no cell
        >>> print(converted.explain(ParseError("given 2 repeats the 2 at line 2, column 3", 2, 1)))
        f-puzzles grid R1C1: given 2 repeats the 2 at R1C2
        """
        message, line = str(error), error.line
        if line is not None:
            column = f", column {error.column}" if error.column is not None else ""
            message = message.removeprefix(f"line {line}{column}: ")
        message = _LOCATION.sub(lambda m: self._place(int(m[1]), int(m[2])), message)
        origin = self._place(line, error.column or 1) if line is not None else ""
        if origin.startswith("R"):
            origin = "grid " + origin
        return type(error)(
            f"{self.program} {origin}: {message}" if origin else f"{self.program}: {message}"
        )

    def _place(self, line: int, column: int) -> str:
        """A place in :attr:`text` as the program names it: a grid cell, else a key."""
        first, rows, step = self.grid
        if 0 <= line - first < rows:
            return f"R{line - first + 1}C{max(column - 1, 0) // step + 1}"
        return self.origins[line - 1] if 1 <= line <= len(self.origins) else ""


class Lines:
    """Lines of ndoku text, each with the origin :class:`Converted` keeps."""

    def __init__(self, program: str) -> None:
        self.program = program
        self.lines: list[str] = []
        self.origins: list[str] = []
        self.grid_at = (0, 0, 1)

    def add(self, line: str, origin: str) -> None:
        self.lines.append(line)
        self.origins.append(origin)

    def grid(self, givens: Sequence[Sequence[int]]) -> None:
        """The grid's rows: numbers right-aligned, ``0`` for an empty cell."""
        width = len(str(len(givens)))
        self.grid_at = (len(self.lines) + 1, len(givens), width + 1)
        for row in givens:
            self.add(" ".join(str(v).rjust(width) for v in row), "grid")

    def regions(self, regions: Sequence[Sequence[int]], origin: str) -> None:
        """A region map after the grid: a letter per region, in the order of their numbers."""
        numbers = sorted({n for row in regions for n in row})
        letters = {n: chr(ord("A") + k) for k, n in enumerate(numbers)}
        self.add("", "")
        for row in regions:
            self.add(" ".join(letters[n] for n in row), origin)

    def rules(self, rules: Sequence[tuple[str, str]]) -> None:
        """The rule block after a blank line, when there are rules."""
        if rules:
            self.add("", "")
        for line, origin in rules:
            self.add(line, origin)

    def converted(self) -> Converted:
        text = "".join(line + "\n" for line in self.lines)
        return Converted(text, self.program, tuple(self.origins), self.grid_at)


def box_shape(size: int) -> tuple[int, int]:
    """The default boxes of a ``size`` grid in f-puzzles, rows × columns: as square as the
    size allows, the taller side the smaller (a prime size has rows for boxes).

    >>> [box_shape(n) for n in (4, 6, 8, 9, 12, 7)]
    [(2, 2), (2, 3), (2, 4), (3, 3), (3, 4), (1, 7)]
    """
    height = int(size**0.5)
    while size % height:
        height -= 1
    return height, size // height


def default_regions(size: int) -> list[list[int]]:
    """The region number of each cell of a ``size`` grid without regions of its own."""
    height, width = box_shape(size)
    return [[r // height * (size // width) + c // width for c in range(size)] for r in range(size)]


def from_fpuzzles(data: object) -> Converted:
    """An f-puzzles puzzle (the JSON object, parsed) as ndoku text.

    Raises
    ------
    ParseError
        Naming the key and entry: a constraint ndoku does not support (``rule 'zipperline'
        is not supported yet``), a value of the wrong type, a cell name that is none.

    Examples
    --------
    >>> grid = [[{"value": 1, "given": True}] + [{}] * 3] + [[{}] * 4] * 3
    >>> data = {"size": 4, "grid": grid, "killercage": [{"cells": ["R1C1", "R2C1"], "value": "4"}]}
    >>> print(from_fpuzzles(data).text)
    # box: 2x2
    1 0 0 0
    0 0 0 0
    0 0 0 0
    0 0 0 0
    <BLANKLINE>
    cage 4: r1c1 r2c1
    <BLANKLINE>
    """
    if not isinstance(data, dict):
        raise ParseError('f-puzzles data is a JSON object such as {"size": 9, "grid": [...]}')
    size = data.get("size")
    if isinstance(size, bool) or not isinstance(size, int) or size not in SIZES:
        raise ParseError(f"f-puzzles 'size' is the grid's side, 4 to 16, not {size!r}")
    handlers = {**dict.fromkeys(SUPPORTED, _rules), **dict.fromkeys(COSMETIC, _drawings)}
    for key, value in data.items():
        if key not in _DATA and _present(value) and key not in handlers:
            raise ParseError(f"f-puzzles rule {key!r} is not supported yet")
    givens, regions = _grid(data.get("grid"), size)
    out = Lines("f-puzzles")
    diagonals = [key for key in ("diagonal-", "diagonal+") if _flag(data, key)]
    if len(diagonals) == 2:
        out.add("# extra: diagonals", "'diagonal+' and 'diagonal-'")
    for key in diagonals if len(diagonals) == 1 else ():
        cells = [(i, i if key == "diagonal-" else size - 1 - i) for i in range(size)]
        out.add("# unit: " + " ".join(f"{r},{c}" for r, c in cells), repr(key))
    if regions is None:
        out.add("# box: none", "'grid' regions")
    elif regions == default_regions(size):
        out.add("# box: {}x{}".format(*box_shape(size)), "'grid' regions")
    out.grid(givens)
    if regions is not None and regions != default_regions(size):
        out.regions(regions, "'grid' regions")
    rules: list[tuple[str, str]] = []
    for key, value in data.items():
        if key in handlers and _present(value) and key not in ("diagonal+", "diagonal-"):
            rules += handlers[key](data, key, size)
    out.rules(rules)
    return out.converted()


def _present(value: object) -> bool:
    """Whether a key holds anything: f-puzzles writes an unused kind as absent, false or []."""
    return value not in (None, False, [], {}, "")


def _flag(data: Mapping[str, object], key: str) -> bool:
    value = data.get(key)
    if value not in (None, True, False):
        raise ParseError(f"f-puzzles {key!r} is true or false, not {value!r}")
    return value is True


def _grid(grid: object, size: int) -> tuple[list[list[int]], list[list[int]] | None]:
    """The givens of the grid, row by row, and each cell's region (None: no regions)."""
    if not (isinstance(grid, list) and len(grid) == size and all(
        isinstance(row, list) and len(row) == size for row in grid
    )):  # fmt: skip
        raise ParseError(f"f-puzzles 'grid' is {size} rows of {size} cells")
    givens = [[0] * size for _ in range(size)]
    numbers: list[list[int | None]] = [[None] * size for _ in range(size)]
    absent = 0
    defaults = default_regions(size)
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            name = f"f-puzzles grid R{r + 1}C{c + 1}"
            if not isinstance(cell, dict):
                raise ParseError(f'{name}: a cell is an object such as {{"value": 5}}')
            value, region = cell.get("value"), cell.get("region", defaults[r][c])
            if cell.get("given") is True and value not in (None, 0):
                if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= size:
                    raise ParseError(f"{name}: a given is a number 1 to {size}, not {value!r}")
                givens[r][c] = value
            if cell.get("givenPencilMarks") not in (None, []):
                raise ParseError(f"{name}: given pencil marks are not supported yet")
            if region is None:
                absent += 1
            elif isinstance(region, bool) or not isinstance(region, int) or region < 0:
                raise ParseError(f"{name}: 'region' is a region's number, not {region!r}")
            numbers[r][c] = region
    if absent == size * size:
        return givens, None
    if absent:
        r, c = next((r, c) for r in range(size) for c in range(size) if numbers[r][c] is None)
        raise ParseError(
            f"f-puzzles grid R{r + 1}C{c + 1} is in no region: ndoku needs every cell in one, "
            "or none in any"
        )
    regions = [[int(n or 0) for n in row] for row in numbers]
    counts = Counter(n for row in regions for n in row)
    for n, count in sorted(counts.items()):
        if count != size:
            raise ParseError(
                f"f-puzzles region {n} has {count} cells: a {size}×{size}'s regions have {size}"
            )
    return givens, regions


class _Entry:
    """One entry of a constraint key, read with errors that name it."""

    def __init__(self, key: str, number: int, entry: object, size: int) -> None:
        self.key, self.number, self.size = key, number, size
        self.origin = f"{key!r} entry {number}"
        if not isinstance(entry, dict):
            self.fail("an entry is an object")
        self.entry: dict[str, Any] = entry  # type: ignore[assignment]

    def fail(self, message: str) -> None:
        raise ParseError(f"f-puzzles {self.origin}: {message}")

    def cell(self, name: object) -> Position:
        """A cell name as ``(row, col)``, 1-based; row or column 0 or N + 1 beside the grid."""
        match = _CELL.fullmatch(name) if isinstance(name, str) else None
        if match is None:
            self.fail(f"{name!r} is no cell name such as 'R1C5'")
        assert match is not None
        row, col = int(match[1]), int(match[2])
        if row > self.size + 1 or col > self.size + 1:
            self.fail(f"{name} is neither a cell nor beside the grid")
        return row, col

    def cells(self, field: str = "cells", needed: bool = True) -> list[Position]:
        names = self.entry.get(field)
        if names is None and not needed:
            return []
        if not isinstance(names, list) or (needed and not names):
            self.fail(f"'{field}' lists cells")
        return [self.cell(name) for name in names]  # type: ignore[union-attr]

    def lines(self) -> list[list[Position]]:
        lines = self.entry.get("lines")
        if not isinstance(lines, list) or not all(isinstance(line, list) for line in lines):
            self.fail("'lines' is a list of lines, each a list of cells")
        return [[self.cell(name) for name in line] for line in lines]  # type: ignore[union-attr]

    def value(self) -> int | None:
        """The entry's number (written as a string or a number), None when it has none."""
        value = self.entry.get("value")
        if value in (None, ""):
            return None
        if isinstance(value, bool) or not isinstance(value, int | str):
            self.fail(f"the value {value!r} is not a number")
        match = _NUMBER.fullmatch(str(value))
        if match is None:
            self.fail(f"the value {value!r} is not a number")
        assert match is not None
        return int(match[1])

    def text(self) -> tuple[str, ...]:
        """The entry's text, as a drawing carries it (nothing when it has none)."""
        value = self.entry.get("value")
        return (" ".join(str(value).split()),) if value not in (None, "") else ()


def _entries(data: Mapping[str, object], key: str, size: int) -> list[_Entry]:
    entries = data[key]
    if not isinstance(entries, list):
        raise ParseError(f"f-puzzles {key!r} is a list of entries")
    return [_Entry(key, n, entry, size) for n, entry in enumerate(entries, start=1)]


def _line(
    kind: str,
    value: int | None,
    cells: Sequence[Position],
    head: int = 0,
    words: Sequence[str] = (),
) -> str:
    """A rule line of 1-based f-puzzles cells."""
    return rule_line(kind, value, [(r - 1, c - 1) for r, c in cells], head, words)


def _rules(data: Mapping[str, object], key: str, size: int) -> list[tuple[str, str]]:
    """The rule lines of one constraint key, each with its origin."""
    if key in ("antiknight", "antiking", "nonconsecutive", "disjointgroups"):
        return [(SUPPORTED[key], repr(key))] if _flag(data, key) else []
    if key == "negative":
        names = data[key]
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ParseError("f-puzzles 'negative' is a list of constraint names")
        for name in names:
            if name not in _NEGATIVE:
                raise ParseError(f"f-puzzles rule 'negative {name}' is not supported yet")
        words = [word for name in dict.fromkeys(names) for word in _NEGATIVE[name]]
        return [("negative: " + " ".join(words), repr(key))] if words else []
    found = []
    for entry in _entries(data, key, size):
        for line in _entry_rules(entry, key):
            found.append((line, entry.origin))
    return found


def _entry_rules(entry: _Entry, key: str) -> list[str]:
    kind = SUPPORTED[key]
    if key in ("killercage", "extraregion"):
        return [_line(kind, entry.value() if key == "killercage" else None, entry.cells())]
    if key in ("even", "odd"):
        return [_line(kind, None, [entry.cell(entry.entry.get("cell"))])]
    if key in ("sandwichsum", "skyscraper"):
        return [_line(kind, entry.value(), [entry.cell(entry.entry.get("cell"))])]
    if key == "littlekillersum":
        direction = entry.entry.get("direction")
        if direction not in _DIRECTIONS:
            entry.fail(f"'direction' is one of {', '.join(_DIRECTIONS)}, not {direction!r}")
        cells = [entry.cell(entry.entry.get("cell")), *entry.cells(needed=False)]
        return [_line(kind, entry.value(), cells, words=[str(direction).lower()])]
    if key == "xv":
        letter = entry.entry.get("value")
        if letter not in ("X", "V", "x", "v"):
            entry.fail(f"an XV entry's value is X or V, not {letter!r}")
        return [_line(str(letter).lower(), None, entry.cells())]
    if key in ("difference", "ratio"):
        return [_line(kind, entry.value(), entry.cells())]
    if key == "arrow":
        return _arrows(entry)
    # the lines: thermometers, whispers, renban and palindromes
    value = entry.value() if key == "whispers" else None
    return [_line(kind, value, line) for line in entry.lines()]


def _arrows(entry: _Entry) -> list[str]:
    """An arrow entry's lines: its circle in reading order (a pill reads so), ``>``, then each
    line's cells after the circle; a circle without lines is drawn, no rule."""
    circle = sorted(set(entry.cells()))
    lines = entry.lines()
    if not lines:
        return [_line("circle", None, circle)]
    found = []
    for line in lines:
        inside = [k for k, cell in enumerate(line) if cell in circle]
        if not inside or inside[0] != 0 or not line[inside[-1] + 1 :]:
            entry.fail("an arrow's line starts in its circle and leaves it")
        found.append(_line("arrow", None, circle + line[inside[-1] + 1 :], head=len(circle)))
    return found


def _drawings(data: Mapping[str, object], key: str, size: int) -> list[tuple[str, str]]:
    """The cosmetic lines of a drawing key: cells beside the grid left out, and any drawing
    that stands for a rule (``fromConstraint``) refused by its name."""
    found = []
    inside = range(1, size + 1)
    for entry in _entries(data, key, size):
        made = entry.entry.get("fromConstraint")
        if made is not None or entry.entry.get("isNewConstraint"):
            raise ParseError(
                f"f-puzzles {entry.origin}: rule {str(made or key)!r} is not supported yet"
            )
        groups = entry.lines() if key == "line" else [entry.cells(needed=False)]
        for group in groups:
            cells = list(dict.fromkeys(p for p in group if p[0] in inside and p[1] in inside))
            if cells:
                text = entry.text() if key != "line" else ()
                found.append((_line(COSMETIC[key], None, cells, words=text), entry.origin))
    return found
