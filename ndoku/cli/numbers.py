"""The types of the commands' number options: counts, seconds and other numbers, each refused
outside what ndoku can use (NaN, infinities, 10³⁰, words) as a usage error (exit status 2).

Every number option of every command takes one of these, so they read and fail alike; the
library checks the same ranges again (:mod:`ndoku.limits`) for callers that skip the command.
"""

from __future__ import annotations

import math
from typing import Any

import click

from ndoku.limits import MAX_COUNT, MAX_JOBS, MAX_REPLICAS, MAX_SECONDS, MAX_TEMPERATURE, shown


class Whole(click.IntRange):
    """A whole number from ``low`` to ``high`` (:data:`~ndoku.limits.MAX_COUNT`).

    >>> Whole(1).convert("12", None, None), Whole(1)._describe_range()
    (12, '1<=x<=10¹⁸')
    """

    name = "integer"

    def __init__(self, low: int = 0, high: int = MAX_COUNT) -> None:
        super().__init__(min=low, max=high)

    def _describe_range(self) -> str:
        assert self.min is not None and self.max is not None
        return f"{shown(self.min)}<=x<={shown(self.max)}"


class Number(click.FloatRange):
    """A number above ``low``, up to ``high`` (below it: finite, when ``high`` is infinite).
    NaN, which passes every comparison click makes, is refused.

    >>> Number(0, 1).convert("nan", None, None)
    Traceback (most recent call last):
    ...
    click.exceptions.BadParameter: 'nan' is not a number.
    """

    name = "number"

    def __init__(self, low: float, high: float = math.inf) -> None:
        super().__init__(min=low, max=high, min_open=True, max_open=math.isinf(high))

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if math.isnan(number):
            self.fail(f"{value!r} is not a number.", param, ctx)
        return number

    def _describe_range(self) -> str:
        assert self.min is not None and self.max is not None
        if math.isinf(self.max):
            return f"x>{shown(self.min)}"
        return f"{shown(self.min)}<x<={shown(self.max)}"


#: A timeout: above 0, at most :data:`~ndoku.limits.MAX_SECONDS`.
SECONDS = Number(0, MAX_SECONDS)
#: A temperature or an inverse temperature.
TEMPERATURE = Number(0, MAX_TEMPERATURE)
#: Worker processes.
JOBS = Whole(1, MAX_JOBS)
#: Tempering replicas (rungs of the ladder).
REPLICAS = Whole(2, MAX_REPLICAS)
