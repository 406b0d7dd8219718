"""Writing pictures to files: the format from an option or the extension, several pictures
to numbered files (or the pages of one PDF)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ndoku.errors import NdokuError
from ndoku.picture.book import pages
from ndoku.picture.needs import FORMATS, require
from ndoku.picture.scene import Scene


def format_of(path: str, kind: str | None = None) -> str:
    """The picture format of ``path``: ``kind`` when given, else its extension; the
    libraries it needs are checked here, before any work.

    >>> format_of("book.PDF"), format_of("out", "svg")
    ('pdf', 'svg')
    """
    chosen = kind or Path(path).suffix.lower().lstrip(".")
    if chosen not in FORMATS:
        raise NdokuError(
            f"cannot tell the picture format of {path}: end its name in .svg, .png or .pdf"
        )
    require(chosen)
    return chosen


def save(
    pictures: Sequence[Scene],
    path: str,
    kind: str | None = None,
    *,
    paper: str = "a4",
    on_pages: bool = False,
    title: str = "",
) -> list[Path]:
    """Write ``pictures``; return the files written.

    A PDF holds them all, one a page (fitted to ``paper``, unless they are pages already:
    ``on_pages``); SVG and PNG write one file each, numbered ``name-1.svg``, ``name-2.svg``,
    … when there are several.
    """
    from ndoku.picture.pdf import to_pdf
    from ndoku.picture.raster import to_png
    from ndoku.picture.svg import to_svg

    kind = format_of(path, kind)
    target = Path(path)
    if kind == "pdf":
        sheets = list(pictures) if on_pages else pages(pictures, paper)
        return [_write(target, to_pdf(sheets, title))]
    if len(pictures) == 1:
        names = [target]
    else:
        digits = len(str(len(pictures)))
        names = [
            target.with_name(f"{target.stem}-{k:0{digits}d}{target.suffix}")
            for k in range(1, len(pictures) + 1)
        ]
    for name, picture in zip(names, pictures, strict=True):
        _write(name, to_svg(picture).encode() if kind == "svg" else to_png(picture))
    return names


def _write(path: Path, data: bytes) -> Path:
    try:
        path.write_bytes(data)
    except OSError as exc:
        raise NdokuError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path
