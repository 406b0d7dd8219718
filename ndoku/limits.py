"""Every limit and default that bounds ndoku's work, in one place (and the timeout's check).

The library's functions and the command's options take their defaults from here, so a limit
has one value wherever it shows.
"""

from __future__ import annotations

from ndoku.errors import NdokuError

#: Largest N (symbols per unit): a cell's candidates are the bits of a uint64. Layouts larger
#: than this are refused when they are read.
MAX_SYMBOLS = 64
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


def check_timeout(timeout: float) -> None:
    """Refuse a timeout that is not a positive number of seconds (NaN included).

    >>> check_timeout(0)
    Traceback (most recent call last):
    ...
    ndoku.errors.NdokuError: timeout must be a positive number of seconds, got 0
    """
    if not (timeout > 0):
        raise NdokuError(f"timeout must be a positive number of seconds, got {timeout}")
