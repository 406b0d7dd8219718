"""Writing pictures to files: the format from an option or the extension, several pictures
to numbered files (or the pages of one PDF); every file ndoku writes is written whole or
not at all (:func:`written`)."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
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
    … when there are several: all of them, or (an error, Ctrl-C) none.
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
    done: list[Path] = []
    try:
        for name, picture in zip(names, pictures, strict=True):
            done.append(
                _write(name, to_svg(picture).encode() if kind == "svg" else to_png(picture))
            )
    except BaseException:
        for name in done:
            name.unlink(missing_ok=True)
        raise
    return names


def _write(path: Path, data: bytes) -> Path:
    try:
        with written(path) as partial:
            partial.write_bytes(data)
    except OSError as exc:
        raise NdokuError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path


@contextmanager
def written(path: str | Path) -> Iterator[Path]:
    """A file beside ``path`` (with its extension) for the block to write, put in its place
    when the block ends and removed when it raises (an error, Ctrl-C): ``path`` is written
    whole, or left as it was.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder, written(Path(folder) / "a.txt") as out:
    ...     _ = out.write_text("whole")
    ...     sorted(p.name for p in Path(folder).iterdir()) != ["a.txt"]
    True
    """
    target = Path(path)
    partial = target.with_name(f".{target.stem}.{os.getpid()}.partial{target.suffix}")
    try:
        yield partial
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
