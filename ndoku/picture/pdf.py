"""Writing scenes as the pages of a PDF, with ReportLab: vector lines, fonts embedded."""

from __future__ import annotations

import io
from collections.abc import Sequence

from ndoku.picture.needs import font_file, require
from ndoku.picture.scene import Scene

#: The names the writer registers Bitstream Vera under, regular and bold.
FONT_NAMES = {False: "ndoku-Vera", True: "ndoku-Vera-Bold"}


def to_pdf(pages: Sequence[Scene], title: str = "") -> bytes:
    """A PDF with one page per scene, each page the scene's size (points are PDF's unit).

    Fonts are embedded (only the glyphs used), so the file prints alike anywhere.

    Examples
    --------
    >>> from ndoku.picture.scene import Label
    >>> pdf = to_pdf([Scene(100, 50, labels=[Label(50, 30, "7", 12)])] * 2)
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
        for f in page.fills:
            canvas.setFillColor(HexColor(f.colour))
            canvas.rect(f.x, height - f.y - f.h, f.w, f.h, stroke=0, fill=1)
        for ln in page.lines:
            canvas.setStrokeColor(HexColor(ln.colour))
            canvas.setLineWidth(ln.width)
            canvas.setLineCap(2 if ln.square else 0)
            canvas.line(ln.x0, height - ln.y0, ln.x1, height - ln.y1)
        for lb in page.labels:
            canvas.setFillColor(HexColor(lb.colour))
            canvas.setFont(FONT_NAMES[lb.bold], lb.size)
            write = canvas.drawCentredString if lb.anchor == "middle" else canvas.drawString
            write(lb.x, height - lb.y, lb.text)
        canvas.showPage()
    canvas.save()
    return out.getvalue()


def _register_fonts() -> None:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for bold, name in FONT_NAMES.items():
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(font_file(bold))))
