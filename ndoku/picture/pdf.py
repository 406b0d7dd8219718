"""Writing scenes as the pages of a PDF, with ReportLab: vector lines, fonts embedded."""

from __future__ import annotations

import io
from collections.abc import Sequence

from ndoku.picture.needs import font_file, require
from ndoku.picture.scene import Fill, Line, Scene, Spot

#: The names the writer registers Bitstream Vera under, regular and bold.
FONT_NAMES = {False: "ndoku-Vera", True: "ndoku-Vera-Bold"}
#: PDF's line cap numbers.
CAPS = {"butt": 0, "round": 1, "square": 2}


def to_pdf(pages: Sequence[Scene], title: str = "") -> bytes:
    """A PDF with one page per scene, each page the scene's size (points are PDF's unit).

    Fonts are embedded (only the glyphs used), so the file prints alike anywhere.

    Examples
    --------
    >>> from ndoku.picture.scene import Label
    >>> pdf = to_pdf([Scene(100, 50, [Label(50, 30, "7", 12)])] * 2)
    >>> pdf[:5], pdf.count(b"/Type /Page\\n")
    (b'%PDF-', 2)
    """
    require("pdf")
    from reportlab.lib.colors import HexColor
    from reportlab.pdfgen.canvas import Canvas

    _register_fonts()
    out = io.BytesIO()
    canvas = Canvas(out, pageCompression=1, invariant=1)  # invariant: same bytes every run
    canvas.setTitle(title)
    canvas.setCreator("ndoku")
    for page in pages:
        height = page.height
        canvas.setPageSize((page.width, height))
        for shape in page.shapes:
            if isinstance(shape, Fill):
                canvas.setFillColor(HexColor(shape.colour))
                canvas.rect(shape.x, height - shape.y - shape.h, shape.w, shape.h, stroke=0, fill=1)
            elif isinstance(shape, Line):
                canvas.setStrokeColor(HexColor(shape.colour))
                canvas.setLineWidth(shape.width)
                canvas.setLineCap(CAPS[shape.cap])
                canvas.setDash([shape.dash] if shape.dash else [])
                canvas.line(shape.x0, height - shape.y0, shape.x1, height - shape.y1)
            elif isinstance(shape, Spot):
                if shape.fill:
                    canvas.setFillColor(HexColor(shape.fill))
                if shape.stroke:
                    canvas.setStrokeColor(HexColor(shape.stroke))
                    canvas.setLineWidth(shape.width)
                    canvas.setDash([])
                y = height - shape.y - shape.h
                canvas.roundRect(
                    shape.x,
                    y,
                    shape.w,
                    shape.h,
                    shape.radius,
                    stroke=int(bool(shape.stroke)),
                    fill=int(bool(shape.fill)),
                )
            else:
                canvas.setFillColor(HexColor(shape.colour))
                canvas.setFont(FONT_NAMES[shape.bold], shape.size)
                write = canvas.drawCentredString if shape.anchor == "middle" else canvas.drawString
                write(shape.x, height - shape.y, shape.text)
        canvas.showPage()
    canvas.save()
    return out.getvalue()


def _register_fonts() -> None:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for bold, name in FONT_NAMES.items():
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(font_file(bold))))
