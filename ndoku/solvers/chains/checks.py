"""Argument checks the chains share: a name from a fixed set, temperatures, seeds and limits."""

from __future__ import annotations

from ndoku.errors import NdokuError
from ndoku.limits import MAX_TEMPERATURE, check_count, check_timeout, shown


def check_choice(value: str, names: tuple[str, ...], what: str) -> None:
    """Refuse ``value`` unless it is one of ``names``, listing them.

    >>> check_choice("cooling", ("constant", "exponential", "ramp"), "schedule")
    Traceback (most recent call last):
    ...
    ndoku.errors.NdokuError: unknown schedule 'cooling': choose constant, exponential or ramp
    """
    if value not in names:
        listed = ", ".join(names[:-1]) + " or " + names[-1]
        raise NdokuError(f"unknown {what} {value!r}: choose {listed}")


def check_temperature(temperature: float, name: str = "temperature") -> None:
    """Refuse a temperature (or an inverse one) that is not a positive number up to
    :data:`~ndoku.limits.MAX_TEMPERATURE`."""
    if not (0 < temperature <= MAX_TEMPERATURE):
        raise NdokuError(
            f"{name} must be a positive number up to {shown(MAX_TEMPERATURE)}, got {temperature}"
        )


def check_arguments(
    temperature: float, seed: int, max_proposals: int, timeout: float, trace_every: int
) -> None:
    """Refuse what no chain can run with: a temperature that is not a positive number, a
    seed, limit or trace stride (0: no trace) that is no count, a timeout that is not a
    positive number of seconds (see :mod:`ndoku.limits`)."""
    check_temperature(temperature)
    check_count(seed, "seed")
    check_count(max_proposals, "max proposals")
    check_timeout(timeout)
    check_count(trace_every, "trace_every")
