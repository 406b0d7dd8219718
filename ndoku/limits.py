"""Every limit and default that bounds ndoku's work, in one place, with the checks of the
numbers people give it (seconds, counts) and the clock a timeout runs on (:class:`Deadline`).

The library's functions and the command's options take their defaults and their ranges from
here, so a limit has one value wherever it shows.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager

from ndoku.errors import NdokuError
from ndoku.jit import work_clock

#: Largest N (symbols per unit): a cell's candidates are the bits of a uint64. Layouts larger
#: than this are refused when they are read.
MAX_SYMBOLS = 64
#: Most cells of a puzzle: those of a 64×64, the largest grid. The exact search's stack holds
#: a copy of every cell's candidates per level, a level per free cell at most (on an empty
#: 64×64, 176 MB after doubling), so a larger canvas would make it quadratically larger.
MAX_CELLS = MAX_SYMBOLS * MAX_SYMBOLS
#: Largest N of the Metropolis chains, which keep symbol ``s`` at bit ``s`` (1 .. N) of a
#: uint64, so one fewer.
CHAIN_MAX_SYMBOLS = 63
#: Seconds a puzzle may take, for every method (and per puzzle of a batch).
DEFAULT_TIMEOUT = 60.0
#: The exact search stops after this many solutions: 2 proves uniqueness (or its absence).
DEFAULT_LIMIT = 2
#: Nodes an exact search may propagate.
DEFAULT_MAX_NODES = 1_000_000_000
#: Proposals a chain (or all replicas of a ladder together) may make: in effect no limit but
#: the timeout.
DEFAULT_MAX_PROPOSALS = 10_000_000_000
#: ``ndoku rate``'s chains give an opinion, not an answer: proposals a rating chain may run
#: before it gives up (about a second on a 9×9), and its seconds at most.
RATE_MAX_PROPOSALS = 100_000_000
RATE_CHAIN_TIMEOUT = 10.0
#: Seconds the logic path that rates a generated puzzle may take when no level or technique
#: was asked (the puzzle does not depend on it; past it, its level is a lower bound, and
#: ``ndoku rate`` rates it in full). Paths of minimal multi-grids and 16×16 take seconds.
GENERATE_PATH_TIMEOUT = 0.5
#: Seconds per chain of ``ndoku tune`` before the run counts as unsolved.
TUNE_TIMEOUT = 10.0
#: Temperatures ``ndoku tune`` tries when none are given and none is cooled.
TUNE_TEMPERATURES = "0.15:0.5:0.025"
#: Proposals between two traced points of a chain (``--trace``, ``--plot``).
DEFAULT_TRACE_EVERY = 1000
#: Largest count ndoku takes (nodes, proposals, solutions, seeds, runs, …): far more than any
#: run reaches, and small enough that the kernels' int64 counters cannot overflow.
MAX_COUNT = 10**18
#: Longest timeout, in seconds (about four months): a longer one, or an infinite one, bounds
#: nothing, and ``Every method is bounded``.
MAX_SECONDS = 1e7
#: Highest temperature, and inverse temperature, of a chain: far beyond any energy change, so
#: that above it every move is taken (below its inverse, none that raises the energy).
MAX_TEMPERATURE = 1e6
#: Worker processes at most: each one loads numba and the kernels (about 150 MB).
MAX_JOBS = 1024
#: Replicas (rungs of the ladder) of parallel tempering at most: each is a chain of its own.
MAX_REPLICAS = 1024
#: Numbers a grid of them (a ladder, the temperatures ``ndoku tune`` scans) may list.
MAX_GRID = 10_000
#: Seconds the exact search that proves a finished puzzle unique may take past a deadline (it
#: repeats a search that succeeded within the time, so it takes milliseconds).
PROOF_SECONDS = 1.0
#: Longest stretch of work between two looks at the clock, in seconds and as a share of the
#: timeout: a timeout is then overshot by a few percent at most.
CHECK_SECONDS = 0.05
CHECK_SHARE = 0.04


def check_timeout(timeout: float) -> None:
    """Refuse a timeout that is not a positive number of seconds up to :data:`MAX_SECONDS`
    (NaN and infinity included).

    >>> check_timeout(0)
    Traceback (most recent call last):
    ...
    ndoku.errors.NdokuError: timeout must be a positive number of seconds up to 10⁷, got 0
    """
    if not (0 < timeout <= MAX_SECONDS):
        raise NdokuError(
            f"timeout must be a positive number of seconds up to {shown(MAX_SECONDS)}, "
            f"got {timeout}"
        )


def check_count(value: int, name: str, low: int = 0, high: int = MAX_COUNT) -> None:
    """Refuse a count (``name``: ``max nodes``, ``seed``, …) outside ``low .. high``.

    >>> check_count(10**30, "max nodes", 1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ndoku.errors.NdokuError: max nodes must be a whole number from 1 to 10¹⁸, got a number ...
    """
    if not low <= value <= high:
        digits = len(str(abs(value)))
        got = str(value) if digits <= 20 else f"a number of {digits} digits"
        raise NdokuError(
            f"{name} must be a whole number from {shown(low)} to {shown(high)}, got {got}"
        )


def seconds_left(deadline: float) -> float:
    """Seconds until ``deadline`` (a :func:`~ndoku.jit.work_clock` reading, infinite for none)
    as the timeout of the next piece of work: at least a millisecond, so that a piece started
    after it stops at once, and at most :data:`MAX_SECONDS`.

    >>> seconds_left(work_clock() - 5), seconds_left(math.inf)
    (0.001, 10000000.0)
    """
    return min(max(deadline - work_clock(), 0.001), MAX_SECONDS)


def shown(bound: float) -> str:
    """A bound as people read it: a power of ten from 10⁶ up as such.

    >>> shown(MAX_COUNT), shown(MAX_SECONDS), shown(0.0), shown(1024)
    ('10¹⁸', '10⁷', '0', '1024')
    """
    if bound >= 1e6 and math.isfinite(bound) and math.log10(bound).is_integer():
        return "10" + str(round(math.log10(bound))).translate(_SUPERSCRIPTS)
    return f"{bound:g}"


_SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


class Deadline:
    """The end of a timeout, and how long the next stretch of work may run before the clock
    is read again: what is left, and at most :data:`CHECK_SHARE` of the timeout or
    :data:`CHECK_SECONDS`, so that the work stops within a few percent of the timeout.

    >>> deadline = Deadline(10.0)
    >>> deadline.passed(), deadline.stretch()
    (False, 0.05)
    >>> deadline.fit(1000, done=1000, seconds=0.01, least=100, most=10**6)  # 5000 fit, 2000 asked
    2000
    """

    def __init__(self, timeout: float) -> None:
        check_timeout(timeout)
        self.timeout = timeout
        self.end = work_clock() + timeout  # compiles do not count

    def left(self) -> float:
        """Seconds until the end (negative after it)."""
        return self.end - work_clock()

    def passed(self) -> bool:
        """True once the end is reached."""
        return self.left() <= 0

    def stretch(self) -> float:
        """Seconds the next stretch of work may run (0 once the end is passed)."""
        return max(0.0, min(self.left(), self.timeout * CHECK_SHARE, CHECK_SECONDS))

    def fit(self, size: int, done: int, seconds: float, least: int, most: int) -> int:
        """The size of the next stretch of work, in units (proposals, rounds): twice ``size``,
        unless the last one (``done`` units in ``seconds``) says fewer fit in
        :meth:`stretch`; from ``least`` to ``most``.

        ``least`` keeps the calls long enough that what each costs besides its work (starting
        threads, waiting for a core on a busy machine) does not shrink them further."""
        size = min(2 * size, most)
        if done > 0 and seconds > 0:
            size = min(size, int(done / seconds * self.stretch()))
        return max(least, size)

    @contextmanager
    def paused(self) -> Iterator[None]:
        """The time spent inside does not count (warming kernels up on small puzzles)."""
        start = work_clock()
        try:
            yield
        finally:
            self.end += work_clock() - start
