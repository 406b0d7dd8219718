"""A scene: a picture as fills, lines and labels in points, drawn alike by every format.

Glossary
--------
scene
    What a picture holds: a size and its shapes in drawing order (fills, then lines, then
    labels), in points (1/72 inch) from the top-left corner, y downwards. SVG, PNG and PDF
    are each written from a scene by one small writer (:mod:`.svg`, :mod:`.raster`,
    :mod:`.pdf`), so the three look alike.
fill, line, label
    A fill is a coloured rectangle; a line a straight stroke (``square`` ends reach half its
    width past its end points, so thick borders meet at corners); a label a one-line text
    centred (or started) at ``x`` on its baseline ``y``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

#: Colours, as every writer reads them.
INK = "#000000"

Anchor = Literal["middle", "start"]


@dataclass(frozen=True)
class Fill:
    x: float
    y: float
    w: float
    h: float
    colour: str


@dataclass(frozen=True)
class Line:
    x0: float
    y0: float
    x1: float
    y1: float
    width: float
    colour: str = INK
    square: bool = False  # ends reach width/2 past the end points


@dataclass(frozen=True)
class Label:
    x: float
    y: float  # baseline
    text: str
    size: float  # font size in points
    colour: str = INK
    bold: bool = False
    anchor: Anchor = "middle"


@dataclass
class Scene:
    """A picture's size and shapes, in points.

    Examples
    --------
    >>> page = Scene(100, 100)
    >>> grid = Scene(10, 10, lines=[Line(0, 0, 10, 0, 1.0)])
    >>> page.place(grid, 20, 30, scale=2)
    >>> page.lines[0]
    Line(x0=20, y0=30, x1=40, y1=30, width=2.0, colour='#000000', square=False)
    """

    width: float
    height: float
    fills: list[Fill] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)

    def place(self, other: Scene, x: float, y: float, scale: float = 1.0) -> None:
        """Add ``other``'s shapes with its top-left corner at (x, y), scaled by ``scale``."""
        for f in other.fills:
            self.fills.append(
                replace(f, x=x + scale * f.x, y=y + scale * f.y, w=scale * f.w, h=scale * f.h)
            )
        for ln in other.lines:
            self.lines.append(
                replace(
                    ln,
                    x0=x + scale * ln.x0,
                    y0=y + scale * ln.y0,
                    x1=x + scale * ln.x1,
                    y1=y + scale * ln.y1,
                    width=scale * ln.width,
                )
            )
        for lb in other.labels:
            self.labels.append(
                replace(lb, x=x + scale * lb.x, y=y + scale * lb.y, size=scale * lb.size)
            )
