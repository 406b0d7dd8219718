"""Writing a scene as SVG text (no library needed)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from itertools import groupby
from xml.sax.saxutils import escape, quoteattr

from ndoku.picture.scene import Fill, Label, Line, Scene, Shape, Spot

#: The writers' typeface (Bitstream Vera) first, then its descendants and look-alikes.
FONTS = "'Bitstream Vera Sans', 'DejaVu Sans', Verdana, Arial, sans-serif"


def to_svg(scene: Scene) -> str:
    """The scene as an SVG document, sized in points, with a white background.

    Shapes are written in the scene's order; within a run of lines, those of one style share
    one path, and within a run of labels, those of one size and style one group.

    Examples
    --------
    >>> from ndoku.picture.scene import Label, Line
    >>> scene = Scene(20, 10, [Line(0, 5, 20, 5, 0.5), Label(10, 8, "7", 9)])
    >>> print(to_svg(scene))  # doctest: +NORMALIZE_WHITESPACE
    <svg xmlns="http://www.w3.org/2000/svg" width="20pt" height="10pt" viewBox="0 0 20 10">
    <rect width="20" height="10" fill="#ffffff"/>
    <path d="M0 5H20" stroke="#000000" stroke-width="0.5" fill="none"/>
    <g font-family="'Bitstream Vera Sans', 'DejaVu Sans', Verdana, Arial, sans-serif"
       font-size="9" fill="#000000" text-anchor="middle"><text x="10" y="8">7</text></g>
    </svg>
    """
    w, h = _n(scene.width), _n(scene.height)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}pt" height="{h}pt" '
        f'viewBox="0 0 {w} {h}">',
        f'<rect width="{w}" height="{h}" fill="#ffffff"/>',
    ]
    for sort, run in groupby(scene.shapes, type):
        out += _WRITERS[sort](list(run))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _fills(fills: Sequence[Shape]) -> Iterator[str]:
    for f in fills:
        assert isinstance(f, Fill)
        yield (
            f'<rect x="{_n(f.x)}" y="{_n(f.y)}" width="{_n(f.w)}" height="{_n(f.h)}" '
            f'fill="{f.colour}"/>'
        )


def _spots(spots: Sequence[Shape]) -> Iterator[str]:
    for s in spots:
        assert isinstance(s, Spot)
        stroke = f' stroke="{s.stroke}" stroke-width="{_n(s.width)}"' if s.stroke else ""
        yield (
            f'<rect x="{_n(s.x)}" y="{_n(s.y)}" width="{_n(s.w)}" height="{_n(s.h)}" '
            f'rx="{_n(s.radius)}" fill="{s.fill or "none"}"{stroke}/>'
        )


def _lines(lines: Sequence[Shape]) -> Iterator[str]:
    paths: dict[tuple[float, str, str, float], list[str]] = defaultdict(list)
    for ln in lines:
        assert isinstance(ln, Line)
        move = f"M{_n(ln.x0)} {_n(ln.y0)}"
        key = (ln.width, ln.colour, ln.cap, ln.dash)
        if ln.y0 == ln.y1:
            paths[key].append(f"{move}H{_n(ln.x1)}")
        elif ln.x0 == ln.x1:
            paths[key].append(f"{move}V{_n(ln.y1)}")
        else:
            paths[key].append(f"{move}L{_n(ln.x1)} {_n(ln.y1)}")
    for (width, colour, cap, dash), parts in paths.items():
        style = "" if cap == "butt" else f' stroke-linecap="{cap}"'
        if dash:
            style += f' stroke-dasharray="{_n(dash)}"'
        yield (
            f'<path d="{"".join(parts)}" stroke="{colour}" stroke-width="{_n(width)}"{style} '
            'fill="none"/>'
        )


def _labels(labels: Sequence[Shape]) -> Iterator[str]:
    groups: dict[tuple[float, str, bool, str], list[str]] = defaultdict(list)
    for lb in labels:
        assert isinstance(lb, Label)
        cell = f' data-cell="{lb.cell[0]},{lb.cell[1]}"' if lb.cell is not None else ""
        groups[lb.size, lb.colour, lb.bold, lb.anchor].append(
            f'<text x="{_n(lb.x)}" y="{_n(lb.y)}"{cell}>{escape(lb.text)}</text>'
        )
    for (size, colour, bold, anchor), texts in groups.items():
        weight = ' font-weight="bold"' if bold else ""
        yield (
            f'<g font-family={quoteattr(FONTS)} font-size="{_n(size)}"{weight} '
            f'fill="{colour}" text-anchor="{anchor}">{"".join(texts)}</g>'
        )


_WRITERS = {Fill: _fills, Spot: _spots, Line: _lines, Label: _labels}


def _n(x: float) -> str:
    """A coordinate to two decimals, without trailing zeros.

    >>> _n(3.0), _n(2.505), _n(0.125)
    ('3', '2.5', '0.12')
    """
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text
