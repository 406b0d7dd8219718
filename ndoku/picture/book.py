"""Pages: pictures fitted to A4 or Letter paper, one or several a page under their headers,
and puzzle books with the solutions at the back in smaller print.

Glossary
--------
page
    A scene the size of a sheet of paper (:data:`PAPER`, in points).
slot
    The part of a page one picture takes, under its header line.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ndoku.errors import NdokuError
from ndoku.picture.scene import Label, Scene

#: Sheet sizes in points (portrait).
PAPER = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}
MARGIN = 42.0  # about 15 mm on every side
HEADER = 11.0  # size of a slot's header line
#: A picture alone on a page grows to fill it, but not beyond this (a 9×9 some 4.5 inches).
GROW = 2.0
MAX_PER_PAGE = 36


@dataclass(frozen=True)
class Entry:
    """One puzzle of a book: its header line, its picture and its solution's, and the
    short name its solution goes by (``Solution 3``)."""

    header: str
    puzzle: Scene
    solution: Scene | None = None
    name: str = ""


def pages(pictures: Sequence[Scene], paper: str = "a4") -> list[Scene]:
    """Each picture on a page of its own, centred and fitted within the margins.

    >>> [page] = pages([Scene(200, 100)])
    >>> round(page.width), round(page.height)
    (595, 842)
    """
    return [_page(paper, [("", picture)], 1) for picture in pictures]


def book(
    entries: Sequence[Entry],
    per_page: int = 1,
    paper: str = "a4",
    title: str = "",
    note: str = "",
) -> list[Scene]:
    """The pages of a puzzle book: ``per_page`` puzzles a page under their headers, then the
    solutions, four times as many a page (``note`` under their heading), and a page number at
    the foot of each.

    Examples
    --------
    >>> grid = Scene(100, 100)
    >>> entries = [Entry(f"Puzzle {k}", grid, grid) for k in range(1, 6)]
    >>> len(book(entries, per_page=2))  # 3 pages of puzzles, 2 of solutions (4 a page)
    4
    """
    if not 1 <= per_page <= MAX_PER_PAGE:
        raise NdokuError(f"--per-page must be 1 to {MAX_PER_PAGE}, not {per_page}")
    out = []
    for start in range(0, len(entries), per_page):
        chunk = entries[start : start + per_page]
        header = title if start == 0 else ""
        out.append(_page(paper, [(e.header, e.puzzle) for e in chunk], per_page, header))
    solved = [e for e in entries if e.solution is not None]
    per_solution_page = min(4 * per_page, MAX_PER_PAGE)
    for start in range(0, len(solved), per_solution_page):
        chunk = solved[start : start + per_solution_page]
        first = start == 0
        slots = [(f"Solution {e.name}", e.solution) for e in chunk if e.solution is not None]
        heading = "Solutions" if first else ""
        out.append(_page(paper, slots, per_solution_page, heading, note if first else ""))
    for number, page in enumerate(out, 1):
        page.add(Label(page.width / 2, page.height - MARGIN / 2, str(number), 9))
    return out


def _page(
    paper: str,
    slots: Sequence[tuple[str, Scene]],
    per_page: int,
    heading: str = "",
    note: str = "",
) -> Scene:
    """A page of up to ``per_page`` pictures in a grid of slots, each under its header, and
    a heading and a note above them."""
    if paper not in PAPER:
        raise NdokuError(f"paper must be one of {', '.join(PAPER)}, not {paper!r}")
    width, height = PAPER[paper]
    page = Scene(width, height)
    top = MARGIN
    if heading:
        page.add(Label(width / 2, top + 14, heading, 16, bold=True))
        top += 28
    if note:
        page.add(Label(width / 2, top + 4, note, 9))
        top += 16
    across = 1 if per_page <= 2 else math.ceil(math.sqrt(per_page))
    down = math.ceil(per_page / across)
    slot_w = (width - 2 * MARGIN) / across
    slot_h = (height - top - MARGIN) / down
    gap = HEADER * 1.6 if any(header for header, _ in slots) else 0.0
    for k, (header, picture) in enumerate(slots):
        x, y = MARGIN + (k % across) * slot_w, top + (k // across) * slot_h
        room_w, room_h = slot_w - HEADER, slot_h - gap - HEADER
        scale = min(room_w / picture.width, room_h / picture.height, GROW)
        y += (room_h - scale * picture.height) / 2  # header and picture centred in the slot
        if header:
            size = min(HEADER, slot_w / (0.6 * len(header)))  # a long header shrinks
            page.add(Label(x + slot_w / 2, y + HEADER, header, size, anchor="middle"))
        left = x + (slot_w - scale * picture.width) / 2
        page.place(picture, left, y + gap, scale)
    return page
