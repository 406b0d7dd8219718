"""lz-string payloads (f-puzzles and SudokuPad links) to text and back.

lz-string is an LZW coder with codes that widen as its dictionary grows, written six bits to a
character. A code is 0 (an 8-bit character follows), 1 (a 16-bit one follows), 2 (the end) or
a dictionary entry. A code goes least significant bit first into characters whose bits are
read most significant first. Text is coded as UTF-16 code units, as JavaScript holds it, so a
character beyond U+FFFF travels as its surrogate pair.

Two alphabets carry the bits: base64's (``compressToBase64``, ``=``-padded to a multiple of
four) and the URI-safe one (``compressToEncodedURIComponent``: ``+``, ``-`` and ``$``, no
padding). Decoding tolerates line breaks and tabs (removed) and spaces (read as ``+``: a URL
decoded as a form turns ``+`` into a space), but leaves URL escapes such as ``%2B`` to the
caller.
"""

from __future__ import annotations

import re
import string

from ndoku.errors import ParseError

_BASE64 = string.ascii_uppercase + string.ascii_lowercase + string.digits + "+/"
_URI = string.ascii_uppercase + string.ascii_lowercase + string.digits + "+-"
#: The most characters a payload may unpack to. A puzzle's JSON is a few kB; LZW can unpack
#: n codes to about n²/2 characters, so a small hostile payload could otherwise fill memory.
MAX_TEXT = 10_000_000

#: Six bits, as ``'010011'``, to the character that carries them, per alphabet.
_WRITE = {
    alphabet: {f"{value:06b}": char for value, char in enumerate(alphabet)}
    for alphabet in (_BASE64, _URI)
}
#: A character to its six bits, per alphabet; the reference reads the URI alphabet's 65th
#: character, ``$``, as six zero bits (its compressor never writes it).
_READ = {
    alphabet: str.maketrans({char: f"{value:06b}" for value, char in enumerate(alphabet)})
    for alphabet in (_BASE64, _URI)
}
_READ[_URI][ord("$")] = "000000"
#: Whitespace a payload may be wrapped in, other than the space (which stands for ``+``).
_BREAKS = re.compile(r"[^\S ]+")
_SURROGATE = re.compile("[\ud800-\udfff]")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")

_END = 2  # the code that ends a stream; 0 and 1 announce a new character


def compress_base64(text: str) -> str:
    """``text`` as lz-string's ``compressToBase64`` writes it, ``=`` padding included.

    Raises
    ------
    ValueError
        When ``text`` holds a lone surrogate (no UTF-8 or UTF-16 text can).

    Examples
    --------
    >>> compress_base64('{"size":9}')
    'N4IgzglgXgpiBcBOAvkA'
    >>> decompress_base64(compress_base64('{"title":"Sudoku ✓"}'))
    '{"title":"Sudoku ✓"}'
    """
    payload = _compress(text, _BASE64)
    return payload + "=" * (-len(payload) % 4)


def compress_uri(text: str) -> str:
    """``text`` as lz-string's ``compressToEncodedURIComponent`` writes it (SudokuPad's links).

    Raises
    ------
    ValueError
        When ``text`` holds a lone surrogate (no UTF-8 or UTF-16 text can).

    Examples
    --------
    >>> compress_uri("hello")
    'BYUwNmD2Q'
    >>> decompress_uri(compress_uri('{"cells":[[{}]]}'))
    '{"cells":[[{}]]}'
    """
    return _compress(text, _URI)


def decompress_base64(data: str) -> str:
    """The text of a ``compressToBase64`` payload (an f-puzzles ``?load=`` value).

    Raises
    ------
    ParseError
        When ``data`` is not such a payload: a character outside base64's alphabet (``%``
        means the link still needs URL unescaping), a stream cut short, a code the dictionary
        does not hold yet, text longer than :data:`MAX_TEXT`, or a lone surrogate.

    Examples
    --------
    >>> decompress_base64("N4IgzglgXgpiBcBOAvkA")
    '{"size":9}'
    >>> decompress_base64("BYUwNmD2Q===")
    'hello'
    """
    return _decompress(_clean(data, "="), _BASE64, "base64")


def decompress_uri(data: str) -> str:
    """The text of a ``compressToEncodedURIComponent`` payload (a SudokuPad link's).

    Raises
    ------
    ParseError
        As :func:`decompress_base64` does, for the URI-safe alphabet.

    Examples
    --------
    >>> decompress_uri("BYUwNmD2Q")
    'hello'
    >>> decompress_uri(compress_uri("a" * 1000)) == "a" * 1000
    True
    """
    return _decompress(_clean(data, ""), _URI, "URI-safe")


def _clean(data: str, padding: str) -> str:
    """``data`` without its line breaks, surrounding spaces and padding, spaces as ``+``.

    No payload starts or ends with ``+`` (its first code is 0, 1 or 2; its last character
    holds the end code's zeros), so spaces around it are never a ``+`` lost to a form.
    """
    data = _BREAKS.sub("", data).strip(" ")
    if padding:
        data = data.rstrip(padding).rstrip(" ")
    return data.replace(" ", "+")


def _compress(text: str, alphabet: str) -> str:
    """The characters of ``alphabet`` that carry ``text``'s lz-string stream."""
    if lone := _SURROGATE.search(text):
        raise ValueError(f"cannot compress {lone.group()!r} at {lone.start()}: a lone surrogate")
    units = _ASTRAL.sub(_pair, text)
    pieces: list[str] = []  # the stream, a code at a time
    width, room, size = 2, 2, 3  # bits per code, codes before they widen, the next code
    codes: dict[str, int] = {}  # a unit → its code
    unsent: dict[int, int] = {}  # code → unit, for units not yet sent as a literal
    longer: dict[tuple[int, str], int] = {}  # (code of a match, next unit) → the longer one's
    current = -1  # the code of the longest match so far; -1 before the first unit
    for unit in units:
        code = codes.get(unit)
        if code is None:
            code = codes[unit] = size
            unsent[size] = ord(unit)
            size += 1
        if current < 0:
            current = code
            continue
        grown = longer.get((current, unit))
        if grown is not None:
            current = grown
            continue
        width, room = _send(current, width, room, pieces, unsent)
        longer[current, unit] = size
        size += 1
        current = code
    if current >= 0:
        width, room = _send(current, width, room, pieces, unsent)
    pieces.append(_bits(_END, width))
    bits = "".join(pieces)
    # the reference pads to a whole character, and adds a character of zeros when none is open
    bits += "0" * (6 - len(bits) % 6)
    write = _WRITE[alphabet]
    return "".join([write[bits[start : start + 6]] for start in range(0, len(bits), 6)])


def _send(
    code: int, width: int, room: int, pieces: list[str], unsent: dict[int, int]
) -> tuple[int, int]:
    """Write ``code`` to ``pieces``, after its unit as a literal if that is new.

    Returns the width and room after it: the codes widen by a bit once ``room`` codes have been
    written at this width, a literal counting as a code of its own.
    """
    unit = unsent.pop(code, None)
    if unit is not None:
        wide = int(unit > 0xFF)
        pieces.append(_bits(wide, width))
        pieces.append(_bits(unit, 16 if wide else 8))
        room -= 1
        if room == 0:
            room, width = 1 << width, width + 1
    else:
        pieces.append(_bits(code, width))
    room -= 1
    if room == 0:
        room, width = 1 << width, width + 1
    return width, room


def _bits(value: int, width: int) -> str:
    """The low ``width`` bits of ``value`` as ``'0'``/``'1'``, least significant first.

    >>> _bits(6, 5)
    '01100'
    """
    return bin(value | 1 << width)[:2:-1]  # the sentinel bit keeps the leading zeros


def _pair(match: re.Match[str]) -> str:
    """A character beyond U+FFFF as its UTF-16 surrogate pair (JavaScript's two units)."""
    point = ord(match.group()) - 0x10000
    return chr(0xD800 + (point >> 10)) + chr(0xDC00 + (point & 0x3FF))


def _decompress(data: str, alphabet: str, name: str) -> str:
    """The text of ``data``, a payload in ``alphabet`` cleaned of padding and whitespace."""
    if not data:
        raise ParseError(f"not lz-string data: the {name} payload is empty")
    bits = data.translate(_READ[alphabet])
    if len(bits) != 6 * len(data):  # a character the table does not map stays one character
        wrong = next(char for char in data if len(char.translate(_READ[alphabet])) != 6)
        hint = " (URL-unescape the link first)" if wrong == "%" else ""
        raise ParseError(f"not lz-string data: {wrong!r} is not a {name} character{hint}")
    stream = bits[::-1]  # read from its end, a code's bits come most significant first
    left = len(stream)  # bits not read yet

    def read(width: int) -> int:
        nonlocal left
        if left < width:
            raise ParseError("not lz-string data: it ends before its end mark (cut short?)")
        left -= width
        return int(stream[left : left + width], 2)

    first = read(2)
    if first > _END:
        raise ParseError(f"not lz-string data: it starts with code {first}, not a character")
    if first == _END:
        return ""
    entries = ["", "", "", chr(read(16 if first else 8))]  # codes 0, 1, 2 are not entries
    previous = entries[3]
    parts = [previous]
    length = 1
    width, room = 3, 4  # as the compressor left them after its first literal
    # every pass reads at least three bits, so the payload's length bounds the loop
    while (code := read(width)) != _END:
        if code < _END:  # a new unit, which takes the next code
            entries.append(chr(read(16 if code else 8)))
            code = len(entries) - 1
            room -= 1
            if room == 0:
                room, width = 1 << width, width + 1
        if code < len(entries):
            entry = entries[code]
        elif code == len(entries):  # the entry this very code defines: LZW's one look ahead
            entry = previous + previous[0]
        else:
            at = len(stream) - left - width
            raise ParseError(f"not lz-string data: code {code} at bit {at} is not defined yet")
        length += len(entry)
        if length > MAX_TEXT:
            raise ParseError(f"not lz-string data: it unpacks to over {MAX_TEXT} characters")
        parts.append(entry)
        entries.append(previous + entry[0])
        previous = entry
        room -= 1
        if room == 0:
            room, width = 1 << width, width + 1
    units = "".join(parts)
    try:
        return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    except UnicodeDecodeError:
        raise ParseError("not lz-string data: it holds a lone UTF-16 surrogate") from None
