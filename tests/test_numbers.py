"""Lists of numbers: ranges that include their stop, comma lists, and what is refused."""

from __future__ import annotations

import pytest

from ndoku.errors import NdokuError
from ndoku.text.numbers import parse_numbers


def test_ranges_include_their_stop() -> None:
    numbers = parse_numbers("0.15:0.5:0.025")
    assert len(numbers) == 15 and numbers[0] == 0.15 and numbers[-1] == 0.5
    assert parse_numbers("0.3") == [0.3]
    assert parse_numbers("0.99, 0.999,0.9999") == [0.99, 0.999, 0.9999]
    assert parse_numbers("1:1:0.1") == [1.0]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0.5:0.2:0.1", "stops before it starts"),
        ("0.2:0.5:0", "positive step"),
        ("0.2:0.5:-0.1", "positive step"),
        ("", "cannot read"),
        ("hot", "cannot read"),
        ("0.2,,0.3", "cannot read"),
    ],
)
def test_bad_lists(text: str, message: str) -> None:
    with pytest.raises(NdokuError, match=message):
        parse_numbers(text)
