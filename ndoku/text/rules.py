"""Rules as text: the lines after a grid that add variant rules (``cage 15: r1c1 r1c2``), read
into :class:`Written` records and written back.

The model checks a written rule against its canvas (:func:`ndoku.model.rules.make_rule`);
here a line is only read: its kind, its number, its positions and where each stands. The
kinds themselves (:data:`KINDS`) are the grammar's vocabulary, so they are kept here, where a
line is recognised as a rule, and the model takes them from here.

Grammar
-------
One rule per line, after the grid (and its maps) and a blank line::

    KIND[ NUMBER][ WORD...]: POSITIONS
    KIND                        a rule of the whole grid (antiknight, disjoint, …)
    negative: white black       the dot kinds whose negative constraint holds

A position is ``r<row>c<col>``, 1-based on the canvas, row 0 or column 0 (and one past the
last) outside the grid, in any case (``R1C1``); ``r1c1..r1c5`` is the straight line from one
to the other, both included. An arrow's circle comes before ``>``; a little killer's one word
says which way it runs (``dl``, ``dr``, ``ul``, ``ur``); a drawing (``line``, ``circle``,
``outline``) may carry a text in double quotes (``\\"`` and ``\\\\`` inside it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ndoku.errors import ParseError
from ndoku.limits import MAX_CELLS

#: The canvas steps a little killer may run in, by name (down-left, down-right, …).
DIRECTIONS = {"dl": (1, -1), "dr": (1, 1), "ul": (-1, -1), "ur": (-1, 1)}
#: The dot kinds a negative constraint may name.
DOT_KINDS = ("white", "black", "x", "v")


@dataclass(frozen=True)
class Kind:
    """What a rule kind takes and means.

    Attributes
    ----------
    cells : str
        ``none`` (a global rule), ``group`` (one cell or more, any shape), ``pair`` (two
        orthogonal neighbours), ``path`` (two cells or more, a path), ``arrow`` (circle cells,
        then a path from the circle), ``line`` (no cells: those of the row or column an outside
        clue faces), ``diagonal`` (no cells: the diagonal from an outside clue).
    value : str
        ``none``, ``optional`` or ``required``.
    meaning : str
        The rule in one sentence, for every size N.
    cosmetic : bool
        Drawn, never solved.
    """

    cells: str
    value: str
    meaning: str
    cosmetic: bool = False


KINDS: dict[str, Kind] = {
    "cage": Kind(
        "group", "optional", "the digits of the cage differ, and sum to its number when it has one"
    ),
    "little-killer": Kind(
        "diagonal",
        "required",
        "the digits on the diagonal from the clue sum to it (they may repeat)",
    ),
    "outside-sum": Kind(
        "line",
        "required",
        "the digits from the clue to the end of the first box (or region) "
        "the line enters sum to it",
    ),
    "sandwich": Kind(
        "line",
        "required",
        "the digits between the 1 and the N of the row or column the clue faces sum to it",
    ),
    "skyscraper": Kind(
        "line",
        "required",
        "seen from the clue, a digit hides the smaller ones behind it; the "
        "clue counts the digits seen",
    ),
    "thermo": Kind("path", "none", "the digits increase from the bulb (the first cell)"),
    "slow-thermo": Kind("path", "none", "the digits never decrease from the bulb"),
    "arrow": Kind(
        "arrow",
        "none",
        "the digits along the arrow sum to the number its circle reads (a "
        "pill of 2 or 3 cells reads as a decimal number)",
    ),
    "white": Kind(
        "pair", "optional", "the two digits differ by the dot's number (1 when it has none)"
    ),
    "black": Kind(
        "pair", "optional", "one digit is the other times the dot's number (2 when it has none)"
    ),
    "x": Kind("pair", "none", "the two digits sum to 10"),
    "v": Kind("pair", "none", "the two digits sum to 5"),
    "even": Kind("group", "none", "each digit is even"),
    "odd": Kind("group", "none", "each digit is odd"),
    "antiknight": Kind("none", "none", "cells a knight's move apart hold different digits"),
    "antiking": Kind("none", "none", "cells a king's move apart hold different digits"),
    "nonconsecutive": Kind(
        "none", "none", "orthogonal neighbours do not differ by 1 (but where a white dot says so)"
    ),
    "negative": Kind(
        "none",
        "none",
        "every dot of the kinds named is shown: neighbours without one break it "
        "(negative: white black x v)",
    ),
    "disjoint": Kind(
        "none", "none", "the cells at one place of every box of a sub-grid hold different digits"
    ),
    "region": Kind("group", "none", "the digits of the region differ (a unit when it has N)"),
    "whisper": Kind(
        "path",
        "optional",
        "neighbours on the line differ by at least its number (N/2 "
        "rounded up when it has none: 5 on a 9×9)",
    ),
    "renban": Kind("path", "none", "the line holds different, consecutive digits, in any order"),
    "palindrome": Kind("path", "none", "the line reads the same both ways"),
    "line": Kind("group", "none", "a line drawn on the grid: no rule", cosmetic=True),
    "circle": Kind("group", "none", "circles drawn in cells: no rule", cosmetic=True),
    "outline": Kind("group", "none", "an outline drawn around cells: no rule", cosmetic=True),
}


@dataclass(frozen=True)
class Written:
    """A rule as read from text, before it is checked: positions are 0-based canvas
    ``(row, col)`` pairs, each with the line and column it was written at.

    Attributes
    ----------
    kind : str
    value : int or None
    positions : tuple of (int, int)
        The cells as written (for an arrow, the circle first; for a clue rule, the clue
        first).
    where : tuple of (int, int)
        Line and column of each position.
    line, column : int
        Where the rule starts (its kind).
    head : int
        Of an arrow: the positions before ``>``.
    words : tuple of str
        Other words (a little killer's direction, a negative's kinds, a cosmetic text).
    value_column : int
        Where the number was written (0: none).
    """

    kind: str
    value: int | None
    positions: tuple[tuple[int, int], ...]
    where: tuple[tuple[int, int], ...]
    line: int
    column: int
    head: int = 0
    words: tuple[str, ...] = ()
    value_column: int = 0


#: A line's pieces: a quoted text (perhaps unterminated), ``:``, ``>``, or a run of others.
_PIECE = re.compile(r'"(?:[^"\\]|\\.)*"?|[:>]|[^\s:>"]+')
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
_POSITION = re.compile(r"[rR](\d+)[cC](\d+)")
_RANGE = re.compile(r"[rR](\d+)[cC](\d+)\.\.[rR](\d+)[cC](\d+)")
_NUMBER = re.compile(r"-?\d+")
_DIGITS = re.compile(r"\d+")
_WORD = re.compile(r"[A-Za-z][A-Za-z-]*")
#: The start of a line that can only be a rule: a known kind, or any lower-case word of two
#: letters or more, then a number or ``:`` and a position (single letters are map letters).
_UNKNOWN_START = re.compile(r"[a-z][a-z-]+(?:\s+-?\d|\s*:\s*[rR]\d+[cC]\d+)")
#: Digits a number or a position may have: more is no canvas's and no rule's.
_MAX_DIGITS = 6


def a_kind(kind: str) -> str:
    """A rule kind with its article, for messages.

    >>> a_kind("cage"), a_kind("x"), a_kind("arrow")
    ('a cage', 'an x', 'an arrow')
    """
    return f"{'an' if kind[0] in 'aeiox' else 'a'} {kind}"


def unknown_kind(kind: str, line: int | None, column: int | None) -> ParseError:
    """The error of a rule kind ndoku does not know.

    >>> print(unknown_kind("kage", 3, 1))  # doctest: +ELLIPSIS
    line 3, column 1: ndoku knows no rule 'kage' (it knows cage, little-killer, ...)
    """
    return ParseError(f"ndoku knows no rule {kind!r} (it knows {', '.join(KINDS)})", line, column)


def is_rule_line(text: str) -> bool:
    """Whether a line of a file starts a block of rules rather than a grid or a map: a known
    kind then its number, words or ``:`` (a whole-grid kind alone), or any lower-case word of
    two letters or more then a number or ``:`` and a position (a misspelt kind, named as an
    error rather than read as a grid).

    >>> is_rule_line("cage 15: r1c1 r1c2"), is_rule_line("antiknight"), is_rule_line("x: r1c1 r1c2")
    (True, True, True)
    >>> is_rule_line("x x v v"), is_rule_line("i i i h h h"), is_rule_line("kage 15: r1c1")
    (False, False, True)
    """
    stripped = text.strip()
    word = _WORD.match(stripped)
    if word is None:
        return False
    rest = stripped[word.end() :]
    if word[0].lower() in KINDS:
        if not rest:
            return len(word[0]) > 1  # a lone x or v is a map letter
        if len(word[0]) == 1:
            return re.match(r"\s*(?:-?\d+\s*)?:", rest) is not None
        return rest[0].isspace() or rest[0] in ':"' or rest[0].isdigit()
    return _UNKNOWN_START.match(stripped) is not None


def read_rules(lines: Sequence[tuple[int, str]]) -> tuple[Written, ...]:
    """The rules of a block of rule lines, ``(line number, text)`` pairs (blank lines are
    skipped).

    Raises
    ------
    ParseError
        Naming the line and column: a kind ndoku does not know, a number or word where the
        kind takes none, a position that is no ``r<row>c<col>``, a range that is not straight.

    Examples
    --------
    >>> [cage, arrow] = read_rules([(12, "cage 15: r1c1..r1c3"), (13, "arrow: R2C1 > r2c2 r2c3")])
    >>> cage.kind, cage.value, cage.positions, cage.where[1], cage.value_column
    ('cage', 15, ((0, 0), (0, 1), (0, 2)), (12, 10), 6)
    >>> arrow.head, arrow.positions[0]
    (1, (1, 0))
    >>> read_rules([(4, "cage 15: r1c1 x")])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ndoku.errors.ParseError: line 4, column 15: expected a cell such as r1c1 ..., not 'x'
    """
    return tuple(_read_line(number, text) for number, text in lines if text.strip())


def _read_line(number: int, text: str) -> Written:
    pieces = [(m.start() + 1, m.group()) for m in _PIECE.finditer(text)]
    column, first = pieces[0]
    word = _WORD.fullmatch(first)
    if word is None or first.lower() not in KINDS:
        raise unknown_kind(first, number, column)
    kind = first.lower()
    spec = KINDS[kind]
    value: int | None = None
    value_column = 0
    words: list[str] = []
    positions: list[tuple[int, int]] = []
    where: list[tuple[int, int]] = []
    head = 0
    colon = False
    for at, piece in pieces[1:]:
        if piece == ":":
            if colon:
                raise ParseError("a rule has one ':', before its cells", number, at)
            colon = True
        elif not colon:
            if _NUMBER.fullmatch(piece):
                value, value_column = _number(kind, piece, number, at, value), at
            else:
                _word(kind, spec, piece, number, at, words)
        elif piece == ">":
            if spec.cells != "arrow":
                raise ParseError(f"only an arrow has '>', not {a_kind(kind)}", number, at)
            if head or not positions:
                raise ParseError(
                    "an arrow is its circle's cells, one '>', then the arrow's cells", number, at
                )
            head = len(positions)
        elif spec.cells == "none" and _WORD.fullmatch(piece):
            words.append(piece.lower())
        else:
            found = _positions(piece, number, at)
            positions += found
            where += [(number, at)] * len(found)
    if not colon and spec.cells != "none":
        raise ParseError(
            f"expected ':' then the cells (such as '{kind}: r1c1 r1c2')", number, len(text) + 1
        )
    return Written(
        kind, value, tuple(positions), tuple(where), number, column, head, tuple(words),
        value_column,
    )  # fmt: skip


def _number(kind: str, piece: str, number: int, at: int, value: int | None) -> int:
    """The rule's number, written at line ``number``, column ``at``."""
    if value is not None:
        raise ParseError(f"{a_kind(kind)} has one number", number, at)
    if len(piece.lstrip("-")) > _MAX_DIGITS:
        raise ParseError(f"the number {piece} is too large for any rule", number, at)
    return int(piece)


def _word(kind: str, spec: Kind, piece: str, number: int, at: int, words: list[str]) -> None:
    """Read a piece between the kind and ``:`` that is no number into ``words``: a drawing's
    quoted text or a little killer's direction; anything else is an error."""
    if piece.startswith('"'):
        if not spec.cosmetic:
            drawings = ", ".join(k for k, s in KINDS.items() if s.cosmetic)
            message = f"only a drawing ({drawings}) carries a text, not {a_kind(kind)}"
            raise ParseError(message, number, at)
        if _QUOTED.fullmatch(piece) is None:
            raise ParseError("this text has no closing '\"'", number, at)
        if words:
            raise ParseError(f"{a_kind(kind)} carries one text", number, at)
        words.append(re.sub(r"\\(.)", r"\1", piece[1:-1]))
    elif spec.cells == "diagonal" and piece.lower() in DIRECTIONS and not words:
        words.append(piece.lower())
    elif spec.cells == "diagonal":
        raise ParseError(
            f"a little killer runs one way: {', '.join(DIRECTIONS)}, not {piece!r}", number, at
        )
    elif piece == ">" or _POSITION.match(piece) or spec.cells == "none":
        example = f"{kind}: white x" if kind == "negative" else f"{kind}: r1c1 r1c2"
        raise ParseError(f"expected ':' before this (such as '{example}')", number, at)
    else:
        raise ParseError(f"{a_kind(kind)} takes no word {piece!r}", number, at)


def _positions(piece: str, number: int, at: int) -> list[tuple[int, int]]:
    """The 0-based positions of a ``r<row>c<col>`` piece or of a range of them."""
    single = _POSITION.fullmatch(piece)
    if any(len(d) > _MAX_DIGITS for d in (single.groups() if single else _DIGITS.findall(piece))):
        raise ParseError(f"{piece} is far outside any canvas", number, at)
    if single:
        return [(int(single[1]) - 1, int(single[2]) - 1)]
    span = _RANGE.fullmatch(piece)
    if span is None:
        raise ParseError(
            f"expected a cell such as r1c1 (row, column from 1), not {piece!r}", number, at
        )
    r0, c0, r1, c1 = (int(x) - 1 for x in span.groups())
    dr, dc = r1 - r0, c1 - c0
    if dr and dc and abs(dr) != abs(dc):
        raise ParseError(
            f"a range runs along a row, a column or a diagonal: {piece} does not", number, at
        )
    steps = max(abs(dr), abs(dc))
    if steps >= MAX_CELLS:
        raise ParseError(f"the range {piece} is longer than any canvas", number, at)
    sr, sc = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)
    return [(r0 + k * sr, c0 + k * sc) for k in range(steps + 1)]


def rule_line(
    kind: str,
    value: int | None,
    positions: Sequence[tuple[int, int]],
    head: int = 0,
    words: Sequence[str] = (),
) -> str:
    """A rule as ndoku writes it: its kind, its number, its words (a text quoted), ``:``, and
    its positions ``r<row>c<col>`` (0-based in, 1-based out), an arrow's circle before ``>``.

    >>> rule_line("cage", 15, [(0, 0), (0, 1)]), rule_line("arrow", None, [(0, 0), (0, 1)], 1)
    ('cage 15: r1c1 r1c2', 'arrow: r1c1 > r1c2')
    >>> rule_line("little-killer", 17, [(-1, 3)], words=["dl"]), rule_line("antiknight", None, [])
    ('little-killer 17 dl: r0c4', 'antiknight')
    >>> rule_line("outline", None, [(2, 2)], words=['say "hi"']), rule_line("negative", None, [],
    ...     words=["white", "x"])
    ('outline "say \\\\"hi\\\\"": r3c3', 'negative: white x')
    """
    spec = KINDS[kind]
    text = kind if value is None else f"{kind} {value}"
    if spec.cells == "none":
        return f"{text}: {' '.join(words)}" if words else text
    if spec.cosmetic and words:
        text += ' "' + words[0].replace("\\", "\\\\").replace('"', '\\"') + '"'
    elif words:
        text += " " + " ".join(words)
    cells = [f"r{r + 1}c{c + 1}" for r, c in positions]
    if head:
        cells.insert(head, ">")
    return f"{text}: {' '.join(cells)}"
