"""SudokuPad's own puzzle format ("scl") in ndoku's text form: its cells, regions and cages.

An scl puzzle is a JSON object that SudokuPad draws: ``cells`` (rows of cells, a given's digit
as ``value``), ``regions`` (lists of 0-based ``[row, col]``), ``cages`` (cells with a
``value``, the sum of a killer cage; a cage of metadata such as ``title: …`` has no cells),
``global`` (``antiknight``, ``antiking``, ``nonconsecutive``, ``disjoint``, and
``antiratio``/``antidifference``/``antixv`` for negative constraints) and ``metadata``. Links
carry it "zipped": the long keys shortened (``ce`` for ``cells``), keys unquoted, ``{}`` left
out of arrays, ``t``/``f`` for true and false, colours without their ``#``, and ``'`` for ``"``
(:func:`read_scl`).

Every other rule of an scl puzzle is only a drawing (a thermometer is a grey line and a grey
circle, as a plain line is a line), so ndoku cannot tell which rule it is: ``lines``,
``arrows``, ``overlays`` and ``underlays`` are refused by name, never ignored. f-puzzles data
in a SudokuPad link keeps its rules (:mod:`ndoku.text.fpuzzles`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from ndoku.errors import ParseError
from ndoku.text.fpuzzles import SIZES, Converted, Lines
from ndoku.text.rules import rule_line

#: Zipped keys, as SudokuPad shortens them.
_KEYS = {
    "c": "color",
    "ca": "cages",
    "ct": "center",
    "c1": "borderColor",
    "c2": "backgroundColor",
    "ce": "cells",
    "cs": "cellSize",
    "a": "arrows",
    "o": "overlays",
    "u": "underlays",
    "w": "width",
    "h": "height",
    "v": "value",
    "vd": "videos",
    "l": "lines",
    "r": "rounded",
    "re": "regions",
    "fs": "fontSize",
    "th": "thickness",
    "hl": "headLength",
    "wp": "wayPoints",
    "t": "title",
    "te": "text",
    "d": "duration",
    "d2": "d",
}
#: Keys of an scl puzzle that draw rules ndoku cannot tell apart.
DRAWINGS = ("lines", "arrows", "overlays", "underlays")
#: Keys that carry no rule.
_DATA = ("id", "cellSize", "cells", "regions", "cages", "global", "metadata", "settings", "videos")
#: What ndoku writes for each ``global`` rule.
_GLOBAL = {"antiknight": "antiknight", "antiking": "antiking", "nonconsecutive": "nonconsecutive"}
_GLOBAL |= {"antiratio": "negative: black", "antidifference": "negative: white"}
_GLOBAL |= {"antixv": "negative: x v", "disjoint": "disjoint"}
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_KEY = re.compile(r"([,{\[])([a-zA-Z0-9]+):")
_EMPTY = re.compile(r"([,\[])(?=[,\]])")
_COLOR = re.compile(r"(:)(?:#([0F])|([0-9a-fA-F]{6}))(?=[,}\]])")
_FLAG = re.compile(r"(:)([tf])(?=[,}\]])")
_META = re.compile(r"[a-zA-Z]+: ")
_QUOTE = "\ue000"  # stands for an escaped quote while quotes are swapped
_MARK = '"\ue001"'  # stands for a string while the rest is unzipped


def read_scl(text: str) -> Any:
    """The scl object of a payload's text: JSON, or SudokuPad's zipped JSON.

    >>> read_scl(r"{ce:[[{v:5},,]],ca:[{ce:[[0,0]],v:'it\\'s',c:#0,unique:t}]}")
    {'cells': [[{'value': 5}, {}, {}]], 'cages': [{'cells': [[0, 0]], 'value': "it's", \
'color': '#000000', 'unique': True}]}
    """
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        pass
    if '"' not in text:  # zipped strings are in single quotes
        text = text.replace("\\'", _QUOTE).replace("'", '"').replace(_QUOTE, "'")
    strings = _STRING.findall(text)
    bare = _STRING.sub(_MARK, text)
    bare = _KEY.sub(r'\1"\2":', bare)
    bare = _EMPTY.sub(r"\1{}", bare)
    bare = _FLAG.sub(lambda m: ":" + ("true" if m[2] == "t" else "false"), bare)
    bare = _COLOR.sub(_color, bare)
    parts = bare.split(_MARK)
    if len(parts) != len(strings) + 1:
        raise ParseError("SudokuPad's puzzle is neither JSON nor its zipped form")
    joined = parts[0] + "".join(s + part for s, part in zip(strings, parts[1:], strict=True))
    try:
        data = json.loads(joined)
    except (ValueError, RecursionError):
        raise ParseError("SudokuPad's puzzle is neither JSON nor its zipped form") from None
    return _long_keys(data)


def _color(match: re.Match[str]) -> str:
    short = {"0": "000000", "F": "FFFFFF"}
    return f':"#{short[match[2]] if match[2] else match[3]}"'


def _long_keys(data: Any, depth: int = 0) -> Any:
    if depth > 100:
        raise ParseError("SudokuPad's puzzle nests too deep")
    if isinstance(data, list):
        return [_long_keys(item, depth + 1) for item in data]
    if isinstance(data, dict):
        return {_KEYS.get(key, key): _long_keys(value, depth + 1) for key, value in data.items()}
    return data


def from_scl(data: object) -> Converted:
    """An scl puzzle (the JSON object, parsed and unzipped) as ndoku text.

    Raises
    ------
    ParseError
        Naming the key and entry: a drawing ndoku cannot read as a rule, a cage whose digits
        may repeat, cells in no region, a shape that is not one N×N grid.

    Examples
    --------
    >>> cells = [[{"value": 1}, {}, {}, {}]] + [[{}] * 4] * 3
    >>> regions = [[[r, c] for r in rows for c in cols] for rows in ((0, 1), (2, 3))
    ...            for cols in ((0, 1), (2, 3))]
    >>> cages = [{"value": "title: Tiny"}, {"cells": [[0, 0], [0, 1]], "value": "3"}]
    >>> print(from_scl({"cells": cells, "regions": regions, "cages": cages}).text)
    1 0 0 0
    0 0 0 0
    0 0 0 0
    0 0 0 0
    <BLANKLINE>
    A A B B
    A A B B
    C C D D
    C C D D
    <BLANKLINE>
    cage 3: r1c1 r1c2
    <BLANKLINE>
    """
    if not isinstance(data, dict):
        raise ParseError("a SudokuPad puzzle is a JSON object with its 'cells'")
    for key, value in data.items():
        if value in (None, [], {}, "", False):
            continue
        if key in DRAWINGS:
            raise ParseError(
                f"SudokuPad {key!r}: ndoku cannot tell which rule a SudokuPad drawing shows "
                "(a thermometer and a plain line are both lines): give the puzzle as an "
                "f-puzzles link, whose rules are named"
            )
        if key not in _DATA:
            raise ParseError(f"SudokuPad rule {key!r} is not supported yet")
    givens = _cells(data.get("cells"))
    size = len(givens)
    out = Lines("SudokuPad")
    regions = _regions(data.get("regions"), size)
    if regions is None:
        out.add("# box: none", "'regions'")
    out.grid(givens)
    if regions is not None:
        out.regions(regions, "'regions'")
    rules = _cages(data.get("cages"), size)
    names = data.get("global") or []
    if not isinstance(names, list) or not all(name in _GLOBAL for name in names):
        raise ParseError(f"SudokuPad 'global' names rules of {', '.join(_GLOBAL)}, not {names!r}")
    cages = data.get("cages")
    groups = isinstance(cages, list) and any(  # disjoint groups given as cages
        isinstance(c, dict) and "disjoint" in (c.get("style"), c.get("type")) for c in cages
    )
    rules += [
        (_GLOBAL[name], "'global'")
        for name in dict.fromkeys(names)
        if not (name == "disjoint" and groups)
    ]
    out.rules(rules)
    return out.converted()


def _cells(rows: object) -> list[list[int]]:
    """The givens of ``cells``, which are N rows of N cells."""
    if not (isinstance(rows, list) and len(rows) in SIZES and all(
        isinstance(row, list) and len(row) == len(rows) for row in rows
    )):  # fmt: skip
        raise ParseError("SudokuPad 'cells' are N rows of N cells, N from 4 to 16")
    size = len(rows)
    givens = [[0] * size for _ in range(size)]
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            value = cell.get("value") if isinstance(cell, dict) else None
            if value in (None, ""):
                continue
            if isinstance(value, bool) or not isinstance(value, int | str):
                value = None
            elif isinstance(value, str):
                value = int(value) if value.strip().isdecimal() and len(value) < 4 else None
            if value is None or not 1 <= value <= size:
                raise ParseError(f"SudokuPad cell R{r + 1}C{c + 1}: a given is 1 to {size}")
            givens[r][c] = value
    return givens


def _place(item: object, size: int, where: str) -> tuple[int, int]:
    """A 0-based ``[row, col]`` of the grid."""
    if not (isinstance(item, list) and len(item) == 2 and all(
        isinstance(x, int) and not isinstance(x, bool) and 0 <= x < size for x in item
    )):  # fmt: skip
        raise ParseError(f"SudokuPad {where}: {item!r} is no [row, column] of the grid")
    return item[0], item[1]


def _regions(regions: object, size: int) -> list[list[int]] | None:
    """Each cell's region number; None when the puzzle has no regions."""
    if regions in (None, []):
        return None
    if not isinstance(regions, list) or len(regions) != size:
        raise ParseError(f"SudokuPad 'regions' are {size} lists of cells")
    numbers = [[-1] * size for _ in range(size)]
    for n, region in enumerate(regions):
        where = f"'regions' entry {n + 1}"
        if not isinstance(region, list) or len(region) != size:
            raise ParseError(f"SudokuPad {where}: a region has {size} cells")
        for item in region:
            r, c = _place(item, size, where)
            if numbers[r][c] >= 0:
                raise ParseError(f"SudokuPad {where}: R{r + 1}C{c + 1} is in two regions")
            numbers[r][c] = n
    return numbers


def _cages(cages: object, size: int) -> list[tuple[str, str]]:
    """The rule lines of ``cages``: killer cages, groups of different digits (extra regions,
    disjoint groups) and outlines; metadata (a cage without cells) is left out."""
    if cages is None:
        return []
    if not isinstance(cages, list):
        raise ParseError("SudokuPad 'cages' is a list of cages")
    found = []
    for n, cage in enumerate(cages, start=1):
        where = f"'cages' entry {n}"
        if not isinstance(cage, dict):
            raise ParseError(f"SudokuPad {where}: a cage is an object")
        cells = cage.get("cells") or []
        if not isinstance(cells, list):
            raise ParseError(f"SudokuPad {where}: 'cells' lists [row, column] pairs")
        if not cells:
            continue
        kind, value = _cage(cage, where)
        positions = [_place(item, size, where) for item in cells]
        found.append((rule_line(kind, value, positions), where))
    return found


def _cage(cage: Mapping[str, object], where: str) -> tuple[str, int | None]:
    """The rule kind and number of a cage with cells."""
    styles = {cage.get("style"), cage.get("type")} - {None, "killer"}
    value, unique = cage.get("value", cage.get("sum")), cage.get("unique")
    if styles - {"extraregion", "disjoint"}:
        raise ParseError(f"SudokuPad {where}: rule {styles.pop()!r} is not supported yet")
    if styles:
        return "region", None
    if unique is False or cage.get("hidden"):
        if value not in (None, "") or cage.get("hidden"):
            raise ParseError(
                f"SudokuPad {where}: a cage whose digits may repeat (or cells in no region) "
                "is not supported yet"
            )
        return "outline", None
    if "outlineC" in cage and unique is not True:  # a drawing of f-puzzles
        return "outline", None
    number = str(value).strip() if isinstance(value, int | str) else ""
    if number.isdecimal() and len(number) < 7:
        return "cage", int(number)
    if unique is True:
        return "cage", None
    raise ParseError(
        f"SudokuPad {where}: a cage without a sum nor 'unique': ndoku cannot tell a killer "
        "cage from an outline"
    )


def is_scl(data: Mapping[str, object]) -> bool:
    """Whether a JSON object is an scl puzzle (it has ``cells`` and no ``size``)."""
    return "cells" in data and "size" not in data
