"""Writing a scene as a PNG image, with Pillow."""

from __future__ import annotations

import io
import math
from functools import lru_cache
from typing import TYPE_CHECKING

from ndoku.picture.needs import font_file, require
from ndoku.picture.scene import Fill, Label, Line, Scene, Spot

if TYPE_CHECKING:
    from PIL import Image, ImageDraw, ImageFont

#: Pixels per point by default: 144 dots per inch, a 9×9 some 450 pixels wide.
SCALE = 2.0
#: Round shapes and slanted lines are drawn this many times finer, then shrunk: smooth edges.
SMOOTH = 4


def to_png(scene: Scene, scale: float = SCALE) -> bytes:
    """The scene as PNG bytes, ``scale`` pixels per point, on white.

    Lines across and down are drawn as rectangles snapped to whole pixels, so a grid stays
    crisp; labels, spots and other lines are anti-aliased.

    Examples
    --------
    >>> png = to_png(Scene(10, 5, [Line(0, 2, 10, 2, 1.0), Line(0, 0, 10, 5, 1.0, cap="round")]))
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    require("png")
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (round(scene.width * scale), round(scene.height * scale)), "white")
    draw = ImageDraw.Draw(image)
    for shape in scene.shapes:
        if isinstance(shape, Fill):
            box = [
                round(scale * v) for v in (shape.x, shape.y, shape.x + shape.w, shape.y + shape.h)
            ]
            if box[2] > box[0] and box[3] > box[1]:  # none narrower than half a pixel
                draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=shape.colour)
        elif isinstance(shape, Label):
            font = _font(shape.bold, round(scale * shape.size * 4) / 4)
            anchor = "ms" if shape.anchor == "middle" else "ls"
            xy = (scale * shape.x, scale * shape.y)
            draw.text(xy, shape.text, fill=shape.colour, font=font, anchor=anchor)
        elif isinstance(shape, Line) and shape.cap != "round" and _upright(shape):
            for piece in _dashes(shape) if shape.dash else [shape]:
                _straight(draw, piece, scale)
        else:
            _smooth(image, shape, scale)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=False)
    return out.getvalue()


def _upright(ln: Line) -> bool:
    """Whether a line runs across or down."""
    return ln.x0 == ln.x1 or ln.y0 == ln.y1


def _straight(draw: ImageDraw.ImageDraw, ln: Line, scale: float) -> None:
    """A line across or down, ``width`` whole pixels centred on it (at least 1; a wall 2)."""
    width = max(2 if ln.square else 1, round(scale * ln.width))  # walls stay walls
    reach = scale * ln.width / 2 if ln.square else 0.0
    x0, x1 = sorted((scale * ln.x0, scale * ln.x1))
    y0, y1 = sorted((scale * ln.y0, scale * ln.y1))
    if y0 == y1:  # at least a pixel long (a short dash at a small scale)
        top, left = round(y0 - width / 2), round(x0 - reach)
        right = max(left, round(x1 + reach) - 1)
        draw.rectangle((left, top, right, top + width - 1), ln.colour)
    else:
        left, top = round(x0 - width / 2), round(y0 - reach)
        bottom = max(top, round(y1 + reach) - 1)
        draw.rectangle((left, top, left + width - 1, bottom), ln.colour)


def _dashes(ln: Line) -> list[Line]:
    """A dashed line as its dashes, solid lines (the first at its start).

    >>> [(d.x0, d.x1) for d in _dashes(Line(0, 0, 10, 0, 1.0, dash=3.0))]
    [(0.0, 3.0), (6.0, 9.0)]
    """
    length = math.hypot(ln.x1 - ln.x0, ln.y1 - ln.y0)
    out = []
    for k in range(math.ceil(length / (2 * ln.dash))):  # a dash and a gap each
        a, b = 2 * k * ln.dash / length, min(1.0, (2 * k + 1) * ln.dash / length)
        out.append(
            Line(
                ln.x0 + a * (ln.x1 - ln.x0),
                ln.y0 + a * (ln.y1 - ln.y0),
                ln.x0 + b * (ln.x1 - ln.x0),
                ln.y0 + b * (ln.y1 - ln.y0),
                ln.width,
                ln.colour,
            )
        )
    return out


def _smooth(image: Image.Image, shape: Line | Spot, scale: float) -> None:
    """A spot or a slanted (or round-ended) line, drawn :data:`SMOOTH` times finer on its
    patch of the picture and shrunk back: its edges are anti-aliased, what lies under it
    stays as it was."""
    from PIL import Image, ImageDraw

    reach = shape.width / 2
    if isinstance(shape, Spot):
        box = (
            shape.x - reach,
            shape.y - reach,
            shape.x + shape.w + reach,
            shape.y + shape.h + reach,
        )
    else:
        box = (
            min(shape.x0, shape.x1) - reach,
            min(shape.y0, shape.y1) - reach,
            max(shape.x0, shape.x1) + reach,
            max(shape.y0, shape.y1) + reach,
        )
    left, top = max(0, math.floor(scale * box[0]) - 1), max(0, math.floor(scale * box[1]) - 1)
    right = min(image.width, math.ceil(scale * box[2]) + 1)
    bottom = min(image.height, math.ceil(scale * box[3]) + 1)
    if right <= left or bottom <= top:
        return
    patch = image.crop((left, top, right, bottom))
    fine = patch.resize((patch.width * SMOOTH, patch.height * SMOOTH), Image.Resampling.NEAREST)
    draw = ImageDraw.Draw(fine)
    k = scale * SMOOTH

    def at(x: float, y: float) -> tuple[float, float]:
        return k * x - SMOOTH * left, k * y - SMOOTH * top

    if isinstance(shape, Spot):
        # Pillow strokes inside the box, SVG and PDF on the outline: grow it by half a stroke
        half = shape.width / 2 if shape.stroke else 0.0
        x0, y0 = at(shape.x - half, shape.y - half)
        x1, y1 = at(shape.x + shape.w + half, shape.y + shape.h + half)
        width = round(k * shape.width) if shape.stroke else 0
        draw.rounded_rectangle(
            (x0, y0, x1, y1), k * (shape.radius + half), shape.fill, shape.stroke, width
        )
    else:
        width = max(1, round(k * shape.width))
        ends = (at(shape.x0, shape.y0), at(shape.x1, shape.y1))
        pieces = _dashes(shape) if shape.dash else [shape]
        for piece in pieces:
            draw.line((*at(piece.x0, piece.y0), *at(piece.x1, piece.y1)), shape.colour, width)
        if shape.cap == "round":
            for x, y in ends:
                r = k * shape.width / 2
                draw.ellipse((x - r, y - r, x + r, y + r), shape.colour)
    image.paste(fine.resize(patch.size, Image.Resampling.BOX), (left, top))


@lru_cache(maxsize=64)
def _font(bold: bool, size: float) -> ImageFont.FreeTypeFont:
    from PIL import ImageFont

    return ImageFont.truetype(str(font_file(bold)), size)
