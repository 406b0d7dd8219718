"""Writing a scene as SVG text (no library needed)."""

from __future__ import annotations

from collections import defaultdict
from xml.sax.saxutils import escape, quoteattr

from ndoku.picture.scene import Scene

#: The writers' typeface (Bitstream Vera) first, then its descendants and look-alikes.
FONTS = "'Bitstream Vera Sans', 'DejaVu Sans', Verdana, Arial, sans-serif"


def to_svg(scene: Scene) -> str:
    """The scene as an SVG document, sized in points, with a white background.

    Lines of one width and colour share one path; labels of one size and style one group.

    Examples
    --------
    >>> from ndoku.picture.scene import Label, Line
    >>> scene = Scene(20, 10, lines=[Line(0, 5, 20, 5, 0.5)], labels=[Label(10, 8, "7", 9)])
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
    out += [
        f'<rect x="{_n(f.x)}" y="{_n(f.y)}" width="{_n(f.w)}" height="{_n(f.h)}" '
        f'fill="{f.colour}"/>'
        for f in scene.fills
    ]
    paths: dict[tuple[float, str, bool], list[str]] = defaultdict(list)
    for ln in scene.lines:
        move = f"M{_n(ln.x0)} {_n(ln.y0)}"
        if ln.y0 == ln.y1:
            paths[ln.width, ln.colour, ln.square].append(f"{move}H{_n(ln.x1)}")
        elif ln.x0 == ln.x1:
            paths[ln.width, ln.colour, ln.square].append(f"{move}V{_n(ln.y1)}")
        else:
            paths[ln.width, ln.colour, ln.square].append(f"{move}L{_n(ln.x1)} {_n(ln.y1)}")
    for (width, colour, square), parts in paths.items():
        cap = ' stroke-linecap="square"' if square else ""
        out.append(
            f'<path d="{"".join(parts)}" stroke="{colour}" stroke-width="{_n(width)}"{cap} '
            'fill="none"/>'
        )
    groups: dict[tuple[float, str, bool, str], list[str]] = defaultdict(list)
    for lb in scene.labels:
        groups[lb.size, lb.colour, lb.bold, lb.anchor].append(
            f'<text x="{_n(lb.x)}" y="{_n(lb.y)}">{escape(lb.text)}</text>'
        )
    for (size, colour, bold, anchor), texts in groups.items():
        weight = ' font-weight="bold"' if bold else ""
        out.append(
            f'<g font-family={quoteattr(FONTS)} font-size="{_n(size)}"{weight} '
            f'fill="{colour}" text-anchor="{anchor}">{"".join(texts)}</g>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _n(x: float) -> str:
    """A coordinate to two decimals, without trailing zeros.

    >>> _n(3.0), _n(2.505), _n(0.125)
    ('3', '2.5', '0.12')
    """
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text
