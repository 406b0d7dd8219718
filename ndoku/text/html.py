"""HTML for Jupyter's rich display: a block of titles, tables of figures and ordered lists, and a
line chart as an SVG document, every text escaped here (callers pass plain text).

IPython shows an object by its ``_repr_html_`` or ``_repr_svg_`` when it has one (no IPython
import is needed for that); ndoku's results build theirs from these pieces.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

import numpy as np
from numpy.typing import NDArray

#: Quiet text (notes, a chart's frame and labels) and the chart's line.
QUIET = "#555555"
FRAME = "#bbbbbb"
LINE = "#1f5fbf"
#: Points a chart draws at most: a longer series is thinned to this many, evenly spaced.
MOST_POINTS = 1000


def block(*parts: str) -> str:
    """HTML parts (made by this module's functions, or an SVG document) in one ``div``.

    >>> block(title("a < b"), note("then"))
    '<div class="ndoku"><p><strong>a &lt; b</strong></p><p style="color: #555555">then</p></div>'
    """
    return '<div class="ndoku">' + "".join(parts) + "</div>"


def title(text: str, rest: str = "") -> str:
    """A paragraph: ``text`` bold, then ``rest`` plain after a dash when given."""
    tail = f" — {escape(rest)}" if rest else ""
    return f"<p><strong>{escape(text)}</strong>{tail}</p>"


def note(text: str) -> str:
    """A quiet paragraph."""
    return f'<p style="color: {QUIET}">{escape(text)}</p>'


def figures(rows: Iterable[tuple[str, str]]) -> str:
    """A table of (name, value) rows, names on the left.

    >>> figures([("nodes", "1,024")])
    '<table><tr><th style="text-align: left">nodes</th><td>1,024</td></tr></table>'
    """
    cells = "".join(
        f'<tr><th style="text-align: left">{escape(name)}</th><td>{escape(value)}</td></tr>'
        for name, value in rows
    )
    return f"<table>{cells}</table>"


def ordered(items: Iterable[tuple[str, str]]) -> str:
    """An ordered list of (text, note) items, each note quiet after its text (none when empty).

    >>> ordered([("r1c1 > 3", "1.0"), ("Guess", "")])
    '<ol><li>r1c1 &gt; 3 <span style="color: #555555">(1.0)</span></li><li>Guess</li></ol>'
    """
    out = []
    for text, quiet in items:
        tail = f' <span style="color: {QUIET}">({escape(quiet)})</span>' if quiet else ""
        out.append(f"<li>{escape(text)}{tail}</li>")
    return "<ol>" + "".join(out) + "</ol>"


def number(x: float) -> str:
    """A figure as people read it: whole numbers with their thousands parted, others to three
    significant digits.

    >>> number(1234567.0), number(0.3721), number(2)
    ('1,234,567', '0.372', '2')
    """
    return f"{int(x):,}" if float(x).is_integer() else f"{x:.3g}"


def chart(
    x: NDArray[np.float64],
    y: NDArray[np.float64],
    x_name: str,
    y_name: str,
    *,
    width: int = 420,
    height: int = 150,
) -> str:
    """A line chart of ``y`` against ``x`` as an SVG document: one polyline in a frame, the
    ranges of both axes written at its corners (y from 0 or below). Points that are not finite
    are left out; a long series is thinned to :data:`MOST_POINTS`, evenly spaced.

    >>> svg = chart(np.array([0.0, 10, 20]), np.array([5.0, 2, 0]), "proposal", "energy")
    >>> svg.startswith("<svg") and 'points="44,10 227,73.6 410,116"' in svg
    True
    """
    keep = np.isfinite(x) & np.isfinite(y)
    x, y = x[keep], y[keep]
    if len(x) > MOST_POINTS:
        rows = np.unique(np.linspace(0, len(x) - 1, MOST_POINTS).round().astype(np.int64))
        x, y = x[rows], y[rows]
    left, top, right, bottom = 44, 10, 10, 34  # room for the labels
    w, h = width - left - right, height - top - bottom
    x0, x1 = (float(x.min()), float(x.max())) if len(x) else (0.0, 1.0)
    y0, y1 = (min(0.0, float(y.min())), float(y.max())) if len(y) else (0.0, 1.0)
    x1, y1 = max(x1, x0 + 1), max(y1, y0 + 1)  # a range for one point, or a flat line
    px = left + (x - x0) / (x1 - x0) * w
    py = top + (1 - (y - y0) / (y1 - y0)) * h
    points = " ".join(f"{a:.4g},{b:.4g}" for a, b in zip(px.tolist(), py.tolist(), strict=True))
    below, quiet = top + h + 14, f'fill="{QUIET}"'
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="10">',
        f'<rect x="{left}" y="{top}" width="{w}" height="{h}" fill="none" stroke="{FRAME}"/>',
        f'<polyline points="{points}" fill="none" stroke="{LINE}" stroke-width="1.2"/>',
        f'<text x="{left - 4}" y="{top + 8}" text-anchor="end" {quiet}>{number(y1)}</text>',
        f'<text x="{left - 4}" y="{top + h}" text-anchor="end" {quiet}>{number(y0)}</text>',
        f'<text x="{left}" y="{below}" {quiet}>{number(x0)}</text>',
        f'<text x="{left + w}" y="{below}" text-anchor="end" {quiet}>{number(x1)}</text>',
        f'<text x="{left + w / 2:g}" y="{below + 14}" text-anchor="middle">'
        f"{escape(y_name)} by {escape(x_name)}</text>",
        "</svg>",
    ]
    return "\n".join(parts)
