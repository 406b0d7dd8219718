"""Writing a scene as a PNG image, with Pillow."""

from __future__ import annotations

import io
from functools import lru_cache
from typing import TYPE_CHECKING

from ndoku.picture.needs import font_file, require
from ndoku.picture.scene import Scene

if TYPE_CHECKING:
    from PIL import ImageFont

#: Pixels per point by default: 144 dots per inch, a 9×9 some 450 pixels wide.
SCALE = 2.0


def to_png(scene: Scene, scale: float = SCALE) -> bytes:
    """The scene as PNG bytes, ``scale`` pixels per point, on white.

    Lines are drawn as rectangles snapped to whole pixels, so a grid stays crisp; labels are
    anti-aliased.

    Examples
    --------
    >>> from ndoku.picture.scene import Line
    >>> png = to_png(Scene(10, 5, lines=[Line(0, 2, 10, 2, 1.0)]))
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    require("png")
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (round(scene.width * scale), round(scene.height * scale)), "white")
    draw = ImageDraw.Draw(image)
    for f in scene.fills:
        box = [round(scale * v) for v in (f.x, f.y, f.x + f.w, f.y + f.h)]
        draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=f.colour)
    for ln in scene.lines:
        width = max(2 if ln.square else 1, round(scale * ln.width))  # walls stay walls
        reach = scale * ln.width / 2 if ln.square else 0.0
        x0, x1 = sorted((scale * ln.x0, scale * ln.x1))
        y0, y1 = sorted((scale * ln.y0, scale * ln.y1))
        if y0 == y1:  # across: `width` pixel rows centred on the line
            top = round(y0 - width / 2)
            draw.rectangle(
                (round(x0 - reach), top, round(x1 + reach) - 1, top + width - 1), fill=ln.colour
            )
        elif x0 == x1:
            left = round(x0 - width / 2)
            draw.rectangle(
                (left, round(y0 - reach), left + width - 1, round(y1 + reach) - 1), fill=ln.colour
            )
        else:
            draw.line(
                (scale * ln.x0, scale * ln.y0, scale * ln.x1, scale * ln.y1), ln.colour, width
            )
    for lb in scene.labels:
        font = _font(lb.bold, round(scale * lb.size * 4) / 4)
        draw.text(
            (scale * lb.x, scale * lb.y),
            lb.text,
            fill=lb.colour,
            font=font,
            anchor="ms" if lb.anchor == "middle" else "ls",
        )
    out = io.BytesIO()
    image.save(out, "PNG", optimize=False)
    return out.getvalue()


@lru_cache(maxsize=64)
def _font(bold: bool, size: float) -> ImageFont.FreeTypeFont:
    from PIL import ImageFont

    return ImageFont.truetype(str(font_file(bold)), size)
