"""What the PNG and PDF writers need (Pillow, ReportLab and the fonts it ships), or a clear
error naming the install command, raised before any work."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from ndoku.errors import MissingExtra

#: Library (import name, what to install) each picture format needs; SVG needs none.
LIBRARIES = {
    "png": [("PIL", "pillow"), ("reportlab", "reportlab")],
    "pdf": [("reportlab", "reportlab")],
}
FORMATS = ("svg", "png", "pdf")


def require(kind: str) -> None:
    """Raise :class:`MissingExtra` unless the libraries of picture format ``kind`` import.

    >>> require("svg")
    """
    missing = [package for module, package in LIBRARIES.get(kind, ()) if not _found(module)]
    if missing:
        raise MissingExtra.of(f"{kind.upper()} pictures", "print", missing)


def font_file(bold: bool) -> Path:
    """Bitstream Vera (bold or regular), the typeface of PNG and PDF pictures, as ReportLab
    ships it: one font for both, with every symbol an alphabet may use up to 36×36."""
    require("pdf")
    import reportlab

    return Path(reportlab.__file__).parent / "fonts" / ("VeraBd.ttf" if bold else "Vera.ttf")


def _found(module: str) -> bool:
    return importlib.util.find_spec(module) is not None
