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
import contextlib
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numba

from ndoku.jit import cache_folder, sources_hash
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.chains.metropolis import metropolis
from ndoku.solvers.chains.metropolis import warm_parts as warm_chain_parts
from ndoku.solvers.exact.each import Each
from ndoku.solvers.exact.nine import warm_parts as warm_search_parts
from ndoku.solvers.exact.solver import ready
from ndoku.solvers.logic.path import PROOF_UP_TO, warm, warm_these
from ndoku.solvers.tables import Topology, has_locked

#: A 4×4 whose path is of singles (its arrays have the types of every layout's).
_SMALL = "1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n"


def _small() -> Puzzle:
    [puzzle] = read_puzzles(text=_SMALL)
    return puzzle


def _logic() -> None:
    warm(PROOF_UP_TO)


def _subsets() -> None:
    # the next kernels a path needs after the quick proof's (pairs, X-wings, the subsets and
    # fish of every size), from the far end: the command's path compiles the near one
    warm_these(("hidden pair", "X-wing", "naked pair"))


#: The rest of a path that ends in chains (a generated 9×9's rating may), from the far end:
#: the command's path comes from the subsets' side.
CHAINS = (
    "forcing chains", "WXYZ-wing", "unique rectangles and loops", "XYZ-wing", "XY-wing",
    "two strong links",
)  # fmt: skip


def _chains() -> None:
    warm_these(CHAINS)


def _ruled() -> None:
    # the search's version for puzzles with variant rules on one grid below 16×16 (one for
    # every such layout), by the kernel that searches many at once (it calls that version,
    # which is compiled and kept with it), its arguments' types from a 4×4 with a cage
    [caged] = read_puzzles(text=_SMALL + "\ncage 3: r1c2 r2c2\n")
    ready(Each(caged.frame, [caged.lowered.packed], probe=True), caged.givens, None, 2)


def _metropolis() -> None:
    small = _small()
    warm_chain_parts(small)  # the driver's parts first, the driver then (see warm_parts)
    metropolis(small, seed=0, max_proposals=100, givens=small.givens)


#: What each job compiles, by the name commands ask for it.
JOBS: dict[str, Callable[[], None]] = {
    "nine": warm_search_parts,
    "logic": _logic,
    "subsets": _subsets,
    "chains": _chains,
    "metropolis": _metropolis,
    "ruled": _ruled,
}


def search_jobs(puzzles: Sequence[Puzzle]) -> list[str]:
    """The jobs of the exact search: ``nine``, its parts, when one of ``puzzles`` is a
    classic 9×9 (searched by :mod:`ndoku.solvers.exact.nine`); ``ruled``, its version for
    variant rules, when one has rules on one grid below 16×16 (a first explain of a killer 9×9
    compiled the logic engine's rule techniques, 8 s, then that search, 8 s). The search's
    own compile is what a first command waits on longest, so these jobs go first.

    Examples
    --------
    >>> search_jobs(read_puzzles(text="0" * 81)), search_jobs([_small()])
    (['nine'], [])
    >>> search_jobs(read_puzzles(text=_SMALL + "\\ncage 3: r1c2 r2c2\\n"))
    ['ruled']
    """
    plain = [puzzle for puzzle in puzzles if not puzzle.lowered.constraints]
    jobs = ["nine"] if any(Topology.of(puzzle).classic for puzzle in plain) else []
    return jobs + ruled_jobs(puzzles)


def ruled_jobs(puzzles: Sequence[Puzzle], rules: bool = False) -> list[str]:
    """``["ruled"]`` (see :func:`search_jobs`) when one of ``puzzles`` is one grid below
    16×16 and has variant rules, or will have (``rules``: ``generate --rules``), else none
    (a multi-grid's search looks for locked candidates: another version).

    >>> ruled_jobs(read_puzzles(text="0" * 81)), ruled_jobs(read_puzzles(text="0" * 81), True)
    ([], ['ruled'])
    """
    ruled = any(
        (rules or puzzle.lowered.constraints) and not has_locked(puzzle.frame) for puzzle in puzzles
    )
    return ["ruled"] if ruled else []


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


def _allowed() -> bool:
    return os.environ.get("NDOKU_WARM_ASIDE") != "0" and not _started and _cores() >= 2


def _command(jobs: list[str]) -> list[str]:
    # -P: not the working folder first on the path, where another checkout's ndoku would be
    # the one imported (and warmed)
    return [sys.executable, "-P", "-m", "ndoku.tasks.warming", *jobs]


def _spawn(jobs: list[str]) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        _command(jobs),
        stdin=subprocess.DEVNULL if jobs else subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _started.append(process)
    atexit.register(_stop, process)
    return process


def start_aside(*jobs: str) -> bool:
    """Start the process before the command knows which of ``jobs`` it needs (it reads the
    names later, from :func:`warm_aside`): its imports, about a second, then overlap the
    command's reading of its input. Not started when each of ``jobs`` was warmed already, or
    as in :func:`warm_aside`; return whether it started."""
    if not _allowed() or all(_mark(job).exists() for job in jobs):
        return False
    _spawn([])
    return True


def warm_aside(*jobs: str) -> bool:
    """Have a process compile ``jobs`` (names of :data:`JOBS`, in that order), those not
    warmed already: the one :func:`start_aside` started, or a new one unless this process
    started one, the machine has one core, or ``NDOKU_WARM_ASIDE`` is ``0``; return whether
    a process has jobs.

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
    left = [job for job in jobs if not _mark(job).exists()]
    waiting = [process for process in _started if process.stdin and not process.stdin.closed]
    if waiting:
        [process] = waiting
        with contextlib.suppress(OSError):  # it ended already: nothing to warm then
            process.stdin.write(" ".join(left).encode() + b"\n")  # type: ignore[union-attr]
        with contextlib.suppress(OSError):
            process.stdin.close()  # type: ignore[union-attr]
        return bool(left)
    if not _allowed() or not left:
        return False
    _spawn(left)
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
    """Run ``jobs`` in turn, marking each done; none named: those of the line read on
    standard input (none at its end)."""
    if not jobs:
        jobs = [job for job in sys.stdin.readline().split() if job in JOBS]
    for job in jobs:
        JOBS[job]()
        _mark(job).touch()


if __name__ == "__main__":  # the second process
    main(sys.argv[1:])
