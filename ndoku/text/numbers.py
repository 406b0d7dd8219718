"""Lists of numbers written ``start:stop:step`` (stop included) or ``a,b,c``."""

from __future__ import annotations

import math
import re

from ndoku.errors import NdokuError
from ndoku.limits import MAX_GRID

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"


def parse_numbers(text: str, what: str = "temperature") -> list[float]:
    """The numbers of ``text``: ``start:stop:step`` (stop included) or a comma-separated list.

    ``what`` names the list in error messages (``the ladder grid … needs a positive step``).

    Examples
    --------
    >>> parse_numbers("0.2:0.3:0.05")
    [0.2, 0.25, 0.3]
    >>> parse_numbers("0.25, 0.3")
    [0.25, 0.3]
    """
    text = text.strip()
    if re.fullmatch(rf"{_NUMBER}:{_NUMBER}:{_NUMBER}", text):
        start, stop, step = (float(part) for part in text.split(":"))
        if not step > 0:
            raise NdokuError(f"the {what} grid {text!r} needs a positive step")
        if stop < start:
            raise NdokuError(f"the {what} grid {text!r} is empty: it stops before it starts")
        span = (stop - start) / step
        if not span < MAX_GRID:  # NaN and infinity too (1e999 reads as infinity)
            raise NdokuError(f"the {what} grid {text!r} lists more than {MAX_GRID} numbers")
        count = math.floor(span + 1e-9) + 1
        return [round(start + k * step, 12) for k in range(count)]
    parts = [part.strip() for part in text.split(",")]
    if not text or not all(re.fullmatch(_NUMBER, part) for part in parts):
        raise NdokuError(
            f"cannot read the {what} grid {text!r}: write start:stop:step (e.g. 0.15:0.5:0.025) "
            "or a list such as 0.2,0.25,0.3"
        )
    if len(parts) > MAX_GRID:
        raise NdokuError(f"the {what} grid lists more than {MAX_GRID} numbers")
    numbers = [float(part) for part in parts]
    if not all(math.isfinite(number) for number in numbers):
        raise NdokuError(f"the {what} grid {text!r} holds a number too large to read")
    return numbers
