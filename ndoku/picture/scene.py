"""A scene: a picture as fills, lines, spots and labels in points, drawn alike by every format.

Glossary
--------
scene
    What a picture holds: a size and its shapes in drawing order (each drawn over those
    before it), in points (1/72 inch) from the top-left corner, y downwards. SVG, PNG and
    PDF are each written from a scene by one small writer (:mod:`.svg`, :mod:`.raster`,
    :mod:`.pdf`), so the three look alike.
fill, line, spot, label
    A fill is a coloured rectangle; a line a straight stroke (``square`` ends reach half its
    width past its end points, so thick borders meet at corners; ``round`` ends are half
    discs, so the strokes of a bent line join; ``dash`` makes it dashed); a spot a rectangle
    with rounded corners, filled, outlined or both (a circle when its radius is half its
    side, a pill when half its shorter side); a label a one-line text centred (or started)
    at ``x`` on its baseline ``y``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

#: Colours, as every writer reads them.
INK = "#000000"
WHITE = "#ffffff"
#: Advance of a bold digit in the writers' typeface, in ems: how wide a symbol draws.
ADVANCE = 0.7
#: Advance of an average character of text (a title, a caption), in ems, with room to spare.
TEXT_ADVANCE = 0.6
#: Baseline below a label's centre, in ems (half a digit's height).
DROP = 0.36

Anchor = Literal["middle", "start"]
Cap = Literal["butt", "square", "round"]


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
    cap: Cap = "butt"  # square: ends reach width/2 past the end points; round: half discs
    dash: float = 0.0  # length of each dash and each gap; 0: solid

    @property
    def square(self) -> bool:
        return self.cap == "square"


@dataclass(frozen=True)
class Spot:
    x: float  # top-left corner
    y: float
    w: float
    h: float
    radius: float  # of the corners: min(w, h) / 2 rounds them fully
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0  # of the outline


@dataclass(frozen=True)
class Label:
    x: float
    y: float  # baseline
    text: str
    size: float  # font size in points
    colour: str = INK
    bold: bool = False
    anchor: Anchor = "middle"
    cell: tuple[int, int] | None = None  # the canvas position whose value this is (SVG: data-cell)


Shape = Fill | Line | Spot | Label


def circle(
    x: float,
    y: float,
    r: float,
    fill: str | None = None,
    stroke: str | None = None,
    width: float = 0.0,
) -> Spot:
    """A circle of radius ``r`` centred at (x, y), as a spot.

    >>> circle(10, 10, 2, fill=INK)
    Spot(x=8, y=8, w=4, h=4, radius=2, fill='#000000', stroke=None, width=0.0)
    """
    return Spot(x - r, y - r, 2 * r, 2 * r, r, fill, stroke, width)


@dataclass
class Scene:
    """A picture's size and shapes, in points, in drawing order.

    ``fills``, ``lines``, ``spots`` and ``labels`` are the shapes of each sort, in order (to
    read; :meth:`add` adds shapes).

    Examples
    --------
    >>> page = Scene(100, 100)
    >>> grid = Scene(10, 10, [Line(0, 0, 10, 0, 1.0)])
    >>> page.place(grid, 20, 30, scale=2)
    >>> page.lines
    (Line(x0=20, y0=30, x1=40, y1=30, width=2.0, colour='#000000', cap='butt', dash=0.0),)
    """

    width: float
    height: float
    shapes: list[Shape] = field(default_factory=list)

    def add(self, *shapes: Shape) -> None:
        """Draw ``shapes`` over those already there."""
        self.shapes.extend(shapes)

    @property
    def fills(self) -> tuple[Fill, ...]:
        return tuple(s for s in self.shapes if isinstance(s, Fill))

    @property
    def lines(self) -> tuple[Line, ...]:
        return tuple(s for s in self.shapes if isinstance(s, Line))

    @property
    def spots(self) -> tuple[Spot, ...]:
        return tuple(s for s in self.shapes if isinstance(s, Spot))

    @property
    def labels(self) -> tuple[Label, ...]:
        return tuple(s for s in self.shapes if isinstance(s, Label))

    def place(self, other: Scene, x: float, y: float, scale: float = 1.0) -> None:
        """Add ``other``'s shapes with its top-left corner at (x, y), scaled by ``scale``."""
        for s in other.shapes:
            if isinstance(s, Line):
                self.shapes.append(
                    replace(
                        s,
                        x0=x + scale * s.x0,
                        y0=y + scale * s.y0,
                        x1=x + scale * s.x1,
                        y1=y + scale * s.y1,
                        width=scale * s.width,
                        dash=scale * s.dash,
                    )
                )
            elif isinstance(s, Label):
                self.shapes.append(
                    replace(s, x=x + scale * s.x, y=y + scale * s.y, size=scale * s.size)
                )
            elif isinstance(s, Spot):
                self.shapes.append(
                    replace(
                        s,
                        x=x + scale * s.x,
                        y=y + scale * s.y,
                        w=scale * s.w,
                        h=scale * s.h,
                        radius=scale * s.radius,
                        width=scale * s.width,
                    )
                )
            else:
                self.shapes.append(
                    replace(s, x=x + scale * s.x, y=y + scale * s.y, w=scale * s.w, h=scale * s.h)
                )
