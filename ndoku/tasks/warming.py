"""Compiling in a second process the kernels a command reaches later, while this one compiles
what it needs first: on an empty numba cache, a first ``rate`` or ``generate`` keeps both cores
busy instead of one.

numba compiles one kernel at a time in a process, and a command's kernels come in a fixed
order: ``rate`` compiles the exact search (8 to 10 s on a slow two-core machine), then the
logic engine's first techniques (3 s), then the Metropolis chain (6 s). A process started at
the command's beginning compiles the later ones meanwhile and writes them to the cache; the
command, reaching them, waits for that process's compile lock (:func:`ndoku.jit.cache_lock`)
and loads them. What either compiles, the other loads, so the answers are those of one process.

The second process starts only where it can help: several cores, and a job not yet warmed for
these sources (a file in the cache folder says so, written when a job ends). It is stopped when
the command ends, and ``NDOKU_WARM_ASIDE=0`` turns it off.
"""

from __future__ import annotations

import atexit
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numba

from ndoku.jit import cache_folder, sources_hash
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.chains.metropolis import metropolis
from ndoku.solvers.logic.path import PROOF_UP_TO, warm

#: A 4×4 whose path is of singles (its arrays have the types of every layout's).
_SMALL = "1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n"


def _small() -> Puzzle:
    [puzzle] = read_puzzles(text=_SMALL)
    return puzzle


def _logic() -> None:
    warm(PROOF_UP_TO)


def _metropolis() -> None:
    small = _small()
    metropolis(small, seed=0, max_proposals=100, givens=small.givens)


#: What each job compiles, by the name commands ask for it.
JOBS: dict[str, Callable[[], None]] = {"logic": _logic, "metropolis": _metropolis}

#: The process this one started, if any (one per process).
_started: list[subprocess.Popen[bytes]] = []


def _mark(job: str) -> Path:
    """The file that says ``job`` was warmed for these sources and this numba."""
    return cache_folder() / f"warmed-{job}-{sources_hash()[:16]}-numba-{numba.__version__}"


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def warm_aside(*jobs: str) -> bool:
    """Start a process that compiles ``jobs`` (names of :data:`JOBS`, in that order) unless
    each was warmed already, this process started one, the machine has one core, or
    ``NDOKU_WARM_ASIDE`` is ``0``; return whether it started.

    Examples
    --------
    >>> import os
    >>> before = os.environ.get("NDOKU_WARM_ASIDE")
    >>> os.environ["NDOKU_WARM_ASIDE"] = "0"
    >>> warm_aside("logic")
    False
    >>> if before is None:
    ...     del os.environ["NDOKU_WARM_ASIDE"]
    ... else:
    ...     os.environ["NDOKU_WARM_ASIDE"] = before
    """
    unknown = [job for job in jobs if job not in JOBS]
    if unknown:
        raise ValueError(f"no warming job is named {unknown[0]!r}")
    if os.environ.get("NDOKU_WARM_ASIDE") == "0" or _started or _cores() < 2:
        return False
    left = [job for job in jobs if not _mark(job).exists()]
    if not left:
        return False
    process = subprocess.Popen(
        [sys.executable, "-m", "ndoku.tasks.warming", *left],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _started.append(process)
    atexit.register(_stop, process)
    return True


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the warming process when the command ends (what it saved stays saved)."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()


def main(jobs: list[str]) -> None:
    """Run ``jobs`` in turn, marking each done."""
    for job in jobs:
        JOBS[job]()
        _mark(job).touch()


if __name__ == "__main__":  # the second process
    main(sys.argv[1:])
