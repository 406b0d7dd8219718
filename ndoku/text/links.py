"""f-puzzles and SudokuPad puzzles as they travel (JSON, lz-string payloads, links), read into
ndoku's text form; f-puzzles data written as links that open in the browser.

Read (:func:`exchanged`):

- JSON text: an f-puzzles object (``{"size": 9, "grid": …}``) or a SudokuPad one (``cells``);
- a payload: the JSON compressed by lz-string's ``compressToBase64`` (``N4Ig…``), bare or
  after SudokuPad's prefix of its kind (``fpuzzles…``, ``scl…``);
- an f-puzzles link, ``https://www.f-puzzles.com/?load=<payload>`` (URL escapes such as
  ``%2B`` undone, other parameters after ``&`` ignored);
- a SudokuPad link that carries its puzzle: ``https://sudokupad.app/fpuzzles<payload>``,
  ``…/scl<payload>`` (and ``ctc``), also as ``?puzzleid=…``, on sudokupad.app and the
  crackingthecryptic.com app. A short id names a puzzle kept on a server, which ndoku does not
  fetch: it is refused with a sentence saying so.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import unquote, urlsplit

from ndoku.errors import ParseError
from ndoku.text.fpuzzles import Converted, from_fpuzzles
from ndoku.text.lzstring import compress_base64, decompress_base64
from ndoku.text.sudokupad import from_scl, is_scl, read_scl

#: Where links that ndoku writes open.
FPUZZLES_LINK = "https://www.f-puzzles.com/?load="
SUDOKUPAD_LINK = "https://sudokupad.app/fpuzzles"
_SUDOKUPAD_HOSTS = ("sudokupad.app", "crackingthecryptic.com", "svencodes.com")
#: A link written without its scheme.
_BARE_SITE = re.compile(r"(?:www\.)?(?:f-puzzles\.com|[\w.]*sudokupad\.app)/", re.IGNORECASE)
#: A payload: lz-string base64 of a JSON object (``{`` packs to ``N4``), URL escapes allowed.
_PAYLOAD = re.compile(r"N4[A-Za-z0-9+/=%]{8,}")
#: SudokuPad's puzzle ids that carry their puzzle: the kind, then its payload.
_CARRIED = re.compile(r"(fpuzzles|fpuz|scl|ctc)(.+)", re.DOTALL)
_STORED = re.compile(r"[\w-]{1,40}")
_NO_FETCH = (
    "this link names a puzzle kept on {site} ({name}), which ndoku does not fetch: give a "
    "link that carries the puzzle ({forms})"
)


def exchanged(text: str) -> Converted | None:
    """The puzzle of ``text`` as ndoku text when ``text`` is an f-puzzles or SudokuPad form of
    it (JSON, a payload, a link); None when it is none of them.

    Raises
    ------
    ParseError
        When it is one of them but cannot be read: not JSON, a damaged payload, a link to a
        stored puzzle, a rule ndoku does not support (named), …

    Examples
    --------
    >>> exchanged("53..7....") is None
    True
    >>> exchanged("N4IgzglgXgpiBcBOAvkA")  # {"size":9}
    Traceback (most recent call last):
    ...
    ndoku.errors.ParseError: f-puzzles 'grid' is 9 rows of 9 cells
    """
    stripped = text.strip()
    form = _form(stripped)
    if form == "json":
        return _from_json(stripped, located=True)
    if form == "link":
        return _from_link(stripped if "://" in stripped else "https://" + stripped)
    if form == "id":
        return _from_id(stripped)
    if form == "payload":
        return _from_json(_unpacked(unquote(stripped), "payload"), located=False)
    return None


def is_exchanged(text: str) -> bool:
    """Whether ``text`` is an f-puzzles or SudokuPad form of a puzzle (:func:`exchanged`
    reads it), judged from its start or its one line, without reading it.

    >>> is_exchanged('{"size": 9, "grid": []}'), is_exchanged("https://sudokupad.app/x")
    (True, True)
    >>> is_exchanged("53..7....\\n6..195...")
    False
    """
    return _form(text.strip()) is not None


def _form(stripped: str) -> str | None:
    if stripped.startswith("{"):
        return "json"
    if not stripped or "\n" in stripped:
        return None
    if "://" in stripped or _BARE_SITE.match(stripped):
        return "link"
    if _CARRIED.fullmatch(stripped) and not stripped.isalpha():
        return "id"
    if _PAYLOAD.fullmatch(stripped) and any(ch.islower() for ch in stripped):
        return "payload"
    return None


def fpuzzles_link(data: dict[str, Any]) -> str:
    """An f-puzzles link that opens ``data``.

    >>> fpuzzles_link({"size": 9})
    'https://www.f-puzzles.com/?load=N4IgzglgXgpiBcBOAvkA'
    """
    return FPUZZLES_LINK + _payload(data)


def sudokupad_link(data: dict[str, Any]) -> str:
    """A SudokuPad link that opens ``data`` (f-puzzles data, which SudokuPad reads).

    >>> sudokupad_link({"size": 9})
    'https://sudokupad.app/fpuzzlesN4IgzglgXgpiBcBOAvkA'
    """
    return SUDOKUPAD_LINK + _payload(data)


def _payload(data: dict[str, Any]) -> str:
    return compress_base64(json.dumps(data, separators=(",", ":"), ensure_ascii=False))


def _from_json(text: str, located: bool) -> Converted:
    """An f-puzzles or SudokuPad object's JSON text; ``located``: the text is the user's, so
    a JSON error names its line and column."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        if located:
            raise ParseError(f"not JSON: {exc.msg}", exc.lineno, exc.colno) from None
        raise ParseError(f"the puzzle it carries is not JSON: {exc.msg}") from None
    except (ValueError, RecursionError) as exc:
        raise ParseError(f"not JSON ndoku can read: {exc}") from None
    return _from_object(data)


def _from_object(data: Any) -> Converted:
    if isinstance(data, dict) and "size" in data:
        return from_fpuzzles(data)
    if isinstance(data, dict) and is_scl(data):
        return from_scl(data)
    raise ParseError(
        "a JSON object ndoku reads is an f-puzzles puzzle (with its 'size' and 'grid') or a "
        "SudokuPad one (with its 'cells')"
    )


def _unpacked(payload: str, what: str) -> str:
    """The text of an lz-string base64 payload, damage said as the link's."""
    try:
        return decompress_base64(payload)
    except ParseError as exc:
        raise ParseError(f"the {what} is damaged: {exc}") from None


def _from_link(link: str) -> Converted:
    parts = urlsplit(link)
    host = (parts.hostname or "").lower().removeprefix("www.")
    query: dict[str, str] = {}
    for item in parts.query.split("&"):
        key, _, value = item.partition("=")
        query.setdefault(key.lower(), unquote(value))
    if host == "f-puzzles.com":
        if query.get("load"):
            return _from_json(_unpacked(query["load"], "link's payload"), located=False)
        if query.get("id"):
            forms = "f-puzzles.com/?load=…"
            raise ParseError(_NO_FETCH.format(site="f-puzzles", name=query["id"], forms=forms))
        raise ParseError("an f-puzzles link carries its puzzle after ?load=")
    if host.endswith(_SUDOKUPAD_HOSTS):
        found = query.get("puzzleid") or unquote(parts.path).lstrip("/")
        for folder in ("sudoku/", "puzzle/"):
            found = found.removeprefix(folder)
        if not found:
            raise ParseError("this SudokuPad link names no puzzle")
        return _from_id(found)
    raise ParseError(f"ndoku reads f-puzzles and SudokuPad links, not {host or link!r}")


def _from_id(puzzle_id: str) -> Converted:
    """A SudokuPad puzzle id: its kind and the payload it carries."""
    carried = _CARRIED.fullmatch(puzzle_id)
    if carried is not None and not puzzle_id.isalpha():
        kind, payload = carried[1], carried[2]
        text = _unpacked(unquote(payload), f"SudokuPad {kind} payload")
        if kind.startswith("fpuz"):
            return _from_json(text, located=False)
        return _from_object(read_scl(text))
    if puzzle_id.startswith(("scf", "penpa")):
        kind = "penpa" if puzzle_id.startswith("penpa") else "scf"
        raise ParseError(f"SudokuPad's {kind!r} puzzles are not supported yet")
    if _STORED.fullmatch(puzzle_id):
        forms = "sudokupad.app/fpuzzles… or sudokupad.app/scl…"
        raise ParseError(_NO_FETCH.format(site="SudokuPad", name=puzzle_id, forms=forms))
    raise ParseError(f"{puzzle_id[:40]!r} is not a SudokuPad puzzle ndoku can read")
