"""lz-string payloads: the reference's bytes, round trips, and garbage refused as ParseError."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ndoku.errors import ParseError
from ndoku.text import lzstring
from ndoku.text.lzstring import compress_base64, compress_uri, decompress_base64, decompress_uri

PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
URI = BASE64[:-1] + "-$"

# The expected payloads below were written by the reference, lz-string 1.5.0 from npm under
# node 20 (compressToBase64, compressToEncodedURIComponent), outside this repository.
VECTORS = [
    ("", "Q===", "Q"),
    ("a", "IZA=", "IZA"),
    ("hello", "BYUwNmD2Q===", "BYUwNmD2Q"),
    ('{"size":9}', "N4IgzglgXgpiBcBOAvkA", "N4IgzglgXgpiBcBOAvkA"),
    ("a" * 61, "IY18ZXTFA===", "IY18ZXTFA"),  # one code spells the entry it defines
    ("héllo wörld €", "BYS4NmD2AEDuBvAnMATagagiA===", "BYS4NmD2AEDuBvAnMATagagiA"),
    ("😀x😀", "rwbgA9gepA==", "rwbgA9gepA"),  # a surrogate pair is two 16-bit units
]
#: The f-puzzles example KillerSudoku_106_6x6 (from /work/shared/formats/examples) as compact
#: JSON, and the reference's payloads of it.
KILLER = (
    '{"size":6,"title":"janko KillerSudoku","author":"janko.at","grid":[[{"region":0},'
    '{"region":0},{"region":0},{"region":1},{"region":1},{"region":1}],[{"region":0},'
    '{"region":0},{"region":0},{"region":1},{"region":1},{"region":1}],[{"region":2},'
    '{"region":2},{"region":2},{"region":3},{"region":3},{"region":3}],[{"region":2},'
    '{"region":2},{"region":2},{"region":3},{"region":3},{"region":3}],[{"region":4},'
    '{"region":4},{"region":4},{"region":5},{"region":5},{"region":5}],[{"region":4},'
    '{"region":4},{"region":4},{"region":5},{"region":5},{"region":5}]],"killercage":['
    '{"cells":["R1C1","R1C2","R2C1"],"value":"11"},{"cells":["R1C3","R1C4"],"value":"9"},'
    '{"cells":["R1C5","R1C6"],"value":"5"},{"cells":["R2C2","R3C2"],"value":"10"},'
    '{"cells":["R2C3","R3C3"],"value":"3"},{"cells":["R2C4","R3C4"],"value":"4"},'
    '{"cells":["R2C5","R3C5"],"value":"7"},{"cells":["R2C6","R3C6"],"value":"11"},'
    '{"cells":["R3C1","R4C1"],"value":"4"},{"cells":["R4C2","R5C2"],"value":"6"},'
    '{"cells":["R4C3","R5C3"],"value":"11"},{"cells":["R4C4","R5C4"],"value":"6"},'
    '{"cells":["R4C5","R5C5"],"value":"9"},{"cells":["R4C6","R5C6"],"value":"7"},'
    '{"cells":["R5C1","R6C1","R6C2"],"value":"11"},{"cells":["R6C3","R6C4"],"value":"9"},'
    '{"cells":["R6C5","R6C6"],"value":"3"}]}'
)
KILLER_BASE64 = (
    "N4IgzglgXgpiBcA2ANCALhNAbO8QCsBDAOwGsB7AAgGkIscAnAZQFcATc0lkVQltABbkGCAiQoA6Qmh4gA5gwhsE"
    "AbRWgGMORHLEEABgC+yDVp174RkyE3bdB46bsWAjI5tn78N9dvmEbgC6yOoezg6+nhZWTv6W7n5ePrFJCVEBhsGh"
    "iRYATGnh8PmRhcUpFgDMBXFVJTWZIeUIZWFxLTnN1V61TfA9rd0N2enwACxdFuN1XlO9AKwTCAvTFgtZvbMDk4tj"
    "O8vze5nBIKR0jADGhHK4oecw9GCqIABKLgDCLrKvb7lfuR8gY4AN0IWBYuBALk+7juDye3wqX3eo0BqBBYIhAE4Q"
    "DD7lhHvAVC93nMkW9EKiQOjwaJSbi4YSXv9fqhnhUfpTqRCXPocdZYfj4f9Eaz2YjgaCaXhEfTBYznv8UaK3iiJR"
    "jRCjZQSiQq3qTlaS1VKQAB2PmgAXapnkr7silG7nQ/l4q1sgGs0YAh0a80gS3wz0sl5zDnevAUrUBt4i4PRzmSx2"
    "+/3yz1K2OqtEJ0QR50MnWe/Wxw2Z9V4bGRlM21kh+0l41mis6kOfVmId0vNu/MOQp0Wl3wtsx55tjNUrNlpP9+Vt"
    "wvDm3dmWBQxAA==="
)
#: The reference's URI-safe payload of it: base64's ``/`` as ``-``, and no padding.
KILLER_URI = KILLER_BASE64.replace("/", "-").rstrip("=")
#: sha256 of the reference's compressToBase64 of each example file, read as it is.
EXAMPLES = Path("/work/shared/formats/examples")
EXAMPLE_HASHES = {
    "EvenOddSudoku_104_9x9": "a35b50e0cbbe506f32f1ab9a8b67d9cd4886bf30beadc29b6843ef453d57ea2c",
    "KillerSudoku_106_6x6": "9139bcc6a479fa4f205c8450de12f479186ce24d7df366bb45fb7a2a0bdbaeab",
    "KillerSudoku_112_9x9": "c66e6e6cd191d3cd47bb42540cd4194b8b963de62da51040a6d52a76baa367d6",
    "MarginSudoku_03_9x9": "f9f5c094b377c42cac0b00f0b3d9bb892bb61a1cf817d8a60d89ed85e5b02a14",
    "SkyscraperSudoku_03_9x9": "e245f2049cac6b1d48bd5e66fee11f8619792136bd9451f10126fe6ca3940918",
}
#: sha256 of the reference's payloads of the squares 0..39999 written one after another
#: (353,751 digits): over 65,536 dictionary entries, so codes grow past 16 bits.
SQUARES_BASE64 = "4efedda8a731a9ebcce0e6eba6b2063d1852200c15043bf4cc28017a70d7625a"
SQUARES_URI = "6db3cec7eb1a5875f143c7797d6925c6f68de8754330632e9206205931d5ed84"


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("ascii")).hexdigest()


@pytest.mark.parametrize(("text", "base64", "uri"), VECTORS)
def test_the_reference_vectors(text: str, base64: str, uri: str) -> None:
    assert compress_base64(text) == base64
    assert compress_uri(text) == uri
    assert decompress_base64(base64) == text
    assert decompress_uri(uri) == text


def test_the_fpuzzles_killer_both_ways() -> None:
    assert decompress_base64(KILLER_BASE64) == KILLER
    assert json.loads(decompress_base64(KILLER_BASE64))["size"] == 6
    assert compress_base64(KILLER) == KILLER_BASE64
    assert decompress_uri(KILLER_URI) == KILLER
    assert compress_uri(KILLER) == KILLER_URI


@pytest.mark.skipif(not EXAMPLES.is_dir(), reason="the shared f-puzzles examples are absent")
@pytest.mark.parametrize("name", sorted(EXAMPLE_HASHES))
def test_the_shared_examples_match_the_reference(name: str) -> None:
    text = (EXAMPLES / f"{name}.fpuzzles.json").read_text(encoding="utf-8")
    payload = compress_base64(text)
    assert _sha256(payload) == EXAMPLE_HASHES[name]
    assert payload.startswith("N4KABARAzglg")  # the pretty-printed JSON's opening
    assert decompress_base64(payload) == text
    assert decompress_uri(compress_uri(text)) == text


def test_codes_wider_than_sixteen_bits() -> None:
    text = "".join(str(k * k) for k in range(40000))
    payload = compress_base64(text)
    assert _sha256(payload) == SQUARES_BASE64
    assert _sha256(compress_uri(text)) == SQUARES_URI
    assert decompress_base64(payload) == text


@PROPERTY
@given(st.text())
def test_any_text_round_trips(text: str) -> None:
    assert decompress_base64(compress_base64(text)) == text
    assert decompress_uri(compress_uri(text)) == text
    assert len(compress_base64(text)) % 4 == 0


@PROPERTY
@given(st.text(alphabet='ab{}":,é€😀', max_size=3000))
def test_repetitive_text_round_trips(text: str) -> None:
    assert decompress_base64(compress_base64(text)) == text


@pytest.mark.parametrize(
    "text",
    ["a" * 100_000, "ab" * 30_000, "abc" * 10_001 + "x", "😀" * 5000, "\x00\xff\u0100\uffff" * 99],
)
def test_long_repetitive_text_round_trips(text: str) -> None:
    payload = compress_uri(text)
    assert decompress_uri(payload) == text
    assert len(payload) < len(text)


def test_empty_text_and_empty_payload() -> None:
    assert decompress_base64(compress_base64("")) == ""
    for decompress in (decompress_base64, decompress_uri):
        with pytest.raises(ParseError, match="empty"):
            decompress(" \n ")


def test_whitespace_and_a_form_decoded_plus() -> None:
    wrapped = "\n".join(KILLER_BASE64[k : k + 60] for k in range(0, len(KILLER_BASE64), 60))
    assert decompress_base64(f"  {wrapped}\r\n") == KILLER
    assert decompress_base64(KILLER_BASE64.replace("+", " ")) == KILLER
    assert decompress_uri("\t" + KILLER_URI.replace("+", " ") + " \n") == KILLER
    assert decompress_base64(KILLER_BASE64.rstrip("=")) == KILLER  # padding is optional


@pytest.mark.parametrize(
    ("decompress", "data", "message"),
    [
        (decompress_base64, "N4Ig%2Bzg", r"'%' is not a base64 character \(URL-unescape"),
        (decompress_base64, "N4Ig-zglg", "'-' is not a base64 character"),
        (decompress_uri, "N4Ig/zglg", "'/' is not a URI-safe character"),
        (decompress_base64, "N4I=gzglg", "'=' is not a base64"),
        (decompress_base64, "N4IgzglgXgpiBcBO", "ends before its end mark"),
        (decompress_base64, "////", "starts with code 3"),
        (decompress_base64, "gAbQ", "lone UTF-16 surrogate"),  # the reference's "\ud800"
        (decompress_base64, "B6AB2J5A", "lone UTF-16 surrogate"),  # its "x\udc00y"
        (decompress_base64, "Ibg", "code 7 at bit 10 is not defined yet"),  # "a", then 7
    ],
)
def test_bad_payloads(decompress: Callable[[str], str], data: str, message: str) -> None:
    with pytest.raises(ParseError, match=f"^not lz-string data: .*{message}"):
        decompress(data)


def test_a_payload_that_unpacks_too_far(monkeypatch: pytest.MonkeyPatch) -> None:
    payload = compress_base64("a" * 5000)
    monkeypatch.setattr(lzstring, "MAX_TEXT", 4999)
    with pytest.raises(ParseError, match="unpacks to over 4999 characters"):
        decompress_base64(payload)


def test_a_lone_surrogate_is_not_compressed() -> None:
    with pytest.raises(ValueError, match="lone surrogate"):
        compress_base64("x\ud800")


def _refused_or_read(data: str) -> None:
    for decompress in (decompress_base64, decompress_uri):
        try:
            assert isinstance(decompress(data), str)
        except ParseError as error:
            assert str(error).startswith("not lz-string data: ")


@PROPERTY
@given(st.text())
def test_any_text_is_read_or_refused(data: str) -> None:
    _refused_or_read(data)


@PROPERTY
@given(st.text(alphabet=BASE64 + URI + "= \n", max_size=2000))
def test_any_payload_of_the_alphabets_is_read_or_refused(data: str) -> None:
    _refused_or_read(data)


@PROPERTY
@given(st.text(max_size=300), st.data())
def test_damaged_payloads_are_read_or_refused(text: str, data: st.DataObject) -> None:
    payload = compress_uri(text)
    at = data.draw(st.integers(0, len(payload) - 1))
    damage = data.draw(st.sampled_from(["cut", "change", "insert"]))
    if damage == "cut":
        payload = payload[:at]
    else:
        char = data.draw(st.sampled_from(URI))
        payload = payload[:at] + char + payload[at + (damage == "change") :]
    _refused_or_read(payload)


def test_fifty_kilobytes_of_json_round_trip() -> None:
    """A large puzzle's JSON (its speed is measured by the exchange benchmark, not here)."""
    rng = random.Random(0)
    cells = [f"R{rng.randint(1, 16)}C{rng.randint(1, 16)}" for _ in range(4000)]
    grid = [
        [{"value": rng.randint(1, 16), "centerPencilMarks": rng.sample(range(1, 17), 4)}] * 16
        for _ in range(16)
    ]
    cages = [{"cells": cells[k : k + 5], "value": str(rng.randint(3, 60))} for k in range(800)]
    text = json.dumps({"size": 16, "grid": grid, "killercage": cages}, indent=1)[:50_000]
    assert decompress_base64(compress_base64(text)) == text
    assert decompress_uri(compress_uri(text)) == text
