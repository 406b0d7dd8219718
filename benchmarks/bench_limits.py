"""Limits honoured: how far past its ``--timeout`` each method and command runs, and the peak
memory of exact searches that hit their timeout on 36×36 and on the largest canvas (64×64).

Per method, in this process with the kernels loaded: wall time of ``solve`` against the
timeout (the median of three runs), on the slowest puzzles it has: the minimal Gecode 25×25,
whose exact search takes 0.1-0.8 s; counting every solution of an empty 25×25, 36×36 and
64×64, which never ends, and of a 36×36 with many solutions; for the chains, the 25×25 and
36×36 they do not solve quickly. A run that finishes before its timeout says nothing about
it and is left out. Per command, whole processes: wall time minus start-up against the
timeout, start-up being the same command on a solved grid of the size (every kernel loaded,
nothing to search). ``rate`` and ``explain`` give each stage (the proof, the path) their
timeout; their bound is twice it. Memory: the peak resident size of ``ndoku count`` runs
that hit a 10 s timeout.

The goal is the issue's: within 10% of the timeout (plus start-up), on two cores shared with
other work (which the chains feel most: a parallel tempering round waits for both cores).
Measured 2026-11-24, medians, worst case per method (before the chains sized their calls by
the timeout and generation kept to it, in brackets): metropolis, hybrid, tempering 0%
(10%, 45%, 132%), the exact search 8% up to 36×36 (the same) and 27% on an empty 64×64
(32%), generate 10% (201%); whole commands within ±0.15 s of start-up plus timeout, which
is the noise of start-up here; peak memory 185 MB (empty 36×36), 377 MB (empty 64×64).
Again 2026-11-25, quiet, once the stack's growth counted toward the timeout: the exact
search at most 3% everywhere, the empty 64×64 included (26-38% at 1 s before).
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks._common import REPO, Goal, benchmark_data, median
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.tasks.generate import GenerateTimeout, generate, layout_puzzle
from ndoku.tasks.solve import METHODS, Options, solve

#: Timeouts tried in this process, and by whole commands; runs of each, whose median counts
#: (other work on the machine delays a run now and then).
TIMEOUTS = (0.2, 1.0)
RUNS = 3
COMMAND_TIMEOUTS = (1.0, 3.0)
#: Seconds of the searches whose memory is measured.
MEMORY_TIMEOUT = 10.0
OVERSHOOT_GOAL = 10.0  # percent


def _empty(n: int) -> str:
    return ("0 " * (n * n) + "\n") * (n * n)


def _gecode(line: int) -> tuple[str, str]:
    """A minimal Gecode 25×25 and its solution (as the data file gives it)."""
    record = benchmark_data("sudoku25/gecode_25x25_shared6.txt").read_text().splitlines()[line]
    puzzle, solution = record.split()[1].split(",")
    return puzzle + "\n", solution + "\n"


def _sparse36() -> str:
    """The VegaMario 36×36 with three givens in five left out: many solutions, deep searches."""
    rows = benchmark_data("sudoku36/vegamario_36x36.txt").read_text().split("\n")
    kept = [
        " ".join(v if (r * 36 + c) % 5 < 2 else "0" for c, v in enumerate(row.split()))
        for r, row in enumerate(rows[:36])
    ]
    return "\n".join(kept) + "\n"


def _one(text: str) -> Puzzle:
    [puzzle] = read_puzzles(text=text)
    return puzzle


def _overshoot(seconds: float, timeout: float) -> float:
    return 100 * (seconds - timeout) / timeout


def _method_goal(method: str, cases: list[tuple[str, Puzzle, Options]]) -> Goal:
    worst, lines, early = -100.0, [], 0
    for name, puzzle, base in cases:
        solve(puzzle, method, Options(timeout=0.05, limit=base.limit))  # loaded
        for timeout in TIMEOUTS:
            options = Options(timeout=timeout, limit=base.limit)
            overs = []
            for _ in range(RUNS):
                start = time.perf_counter()
                outcome = solve(puzzle, method, options)
                seconds = time.perf_counter() - start
                if outcome.result.stop == "timeout":
                    overs.append(_overshoot(seconds, timeout))
            if len(overs) < RUNS:
                early += 1
                continue
            worst = max(worst, median(overs))
            lines.append(f"{name} {timeout:g} s: {median(overs):+.0f}% (max {max(overs):+.0f}%)")
    return Goal(
        f"solve --method {method}: worst overshoot of --timeout",
        worst,
        OVERSHOOT_GOAL,
        "%",
        detail="; ".join(lines) + (f"; {early} runs finished first" if early else ""),
    )


def _generate_goal() -> Goal:
    worst, lines = -100.0, []
    for name in ("25x25", "sumo", "36x36"):
        layout = layout_puzzle(name)
        with contextlib.suppress(GenerateTimeout):
            generate(layout, timeout=0.1)  # loaded
        for timeout in (0.5, *TIMEOUTS[1:], 3.0):
            overs = []
            for _ in range(RUNS):
                start = time.perf_counter()
                made = generate(layout, timeout=timeout)
                seconds = time.perf_counter() - start
                if made.stop == "timeout":
                    overs.append(_overshoot(seconds, timeout))
            if len(overs) == RUNS:
                worst = max(worst, median(overs))
                lines.append(
                    f"{name} {timeout:g} s: {median(overs):+.0f}% (max {max(overs):+.0f}%)"
                )
    return Goal(
        "generate: worst overshoot of --timeout",
        worst,
        OVERSHOOT_GOAL,
        "%",
        detail="; ".join(lines),
    )


#: Runs a command and prints its peak resident size (KB) and exit status: measured from a
#: small process, since a child forked from this one counts this one's pages until it execs.
_LAUNCH = (
    "import resource, subprocess, sys\n"
    "done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, done.returncode)\n"
)


def _run(args: list[str]) -> tuple[float, float, int]:
    """Wall seconds, peak resident MB and exit status of ``ndoku ARGS``."""
    command = [sys.executable, "-S", "-c", _LAUNCH, sys.executable, "-m", "ndoku", *args]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - start
    peak, status = done.stdout.split()
    return seconds, int(peak) / 1024, int(status)


def _command_goal(
    name: str, work: Callable[[float], list[str]], startup: list[str], stages: int = 1
) -> Goal:
    """``ndoku work(timeout)`` (median of RUNS) against ``stages`` × the timeout, beyond the
    start-up measured on ``ndoku startup`` (best of three, after a first run)."""
    _run(startup)
    start = min(_run(startup)[0] for _ in range(3))
    worst, lines = -100.0, []
    for timeout in COMMAND_TIMEOUTS:
        seconds = median([_run(work(timeout))[0] - start for _ in range(RUNS)])
        over = _overshoot(seconds, stages * timeout)
        worst = max(worst, over)
        lines.append(f"{timeout:g} s: {seconds:.2f} s ({over:+.0f}%)")
    return Goal(
        f"ndoku {name}: worst overshoot beyond start-up",
        worst,
        OVERSHOOT_GOAL,
        "%",
        detail=f"start-up {start:.2f} s; " + "; ".join(lines),
    )


def _memory_goal(name: str, text: str, target: float) -> Goal:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "puzzle.txt"
        path.write_text(text)
        args = ["count", str(path), "--limit", str(10**9), "--timeout", str(MEMORY_TIMEOUT)]
        seconds, peak, _ = _run(args)
    return Goal(
        f"peak memory, exact search of {name} hitting a {MEMORY_TIMEOUT:g} s timeout",
        peak,
        target,
        "MB",
        detail=f"whole process {seconds:.1f} s",
    )


def main() -> list[Goal]:
    puzzle, solution = _gecode(5)
    gecode, empty25, empty36 = _one(puzzle), _one(_empty(5)), _one(_empty(6))
    sparse36 = _one(_sparse36())
    vegamario = _one(benchmark_data("sudoku36/vegamario_36x36.txt").read_text())
    counted = Options(limit=10**9)
    exact = [
        ("gecode25", gecode, Options()),
        ("empty25 (count)", empty25, counted),
        ("sparse36 (count)", sparse36, counted),
        ("empty36 (count)", empty36, counted),
        ("empty64 (count)", _one(_empty(8)), counted),
    ]
    chains = [
        ("gecode25", gecode, Options()),
        ("vegamario36", vegamario, Options()),
        ("empty36", empty36, Options()),
    ]
    goals = [_method_goal(m, exact if m in ("auto", "exact") else chains) for m in METHODS]
    goals.append(_generate_goal())

    with tempfile.TemporaryDirectory() as folder:
        files = {"puzzle": puzzle, "solution": solution, "empty": _empty(5), "sparse": _sparse36()}
        files["solved36"] = vegamario.text(solve(vegamario).values)  # start-up of a 36×36
        for key, text in files.items():
            (Path(folder) / key).write_text(text)
        hard, done, empty, sparse, done36 = (str(Path(folder) / key) for key in files)

        def seconds(t: float) -> list[str]:
            return ["--timeout", str(t)]

        goals += [
            *(
                _command_goal(
                    f"count --limit 10⁹ ({name})",
                    lambda t, path=path: ["count", path, "--limit", str(10**9), *seconds(t)],
                    ["count", solved],
                )
                for name, path, solved in (
                    ("empty 25×25", empty, done),
                    ("sparse 36×36", sparse, done36),
                )
            ),
            *(
                _command_goal(
                    f"solve --method {m} (gecode25)",
                    lambda t, m=m: ["solve", hard, "--method", m, *seconds(t)],
                    ["solve", done, "--method", m],
                )
                for m in ("metropolis", "hybrid", "tempering")
            ),
            *(
                _command_goal(
                    f"{command} (gecode25: proof and path, each its timeout)",
                    lambda t, c=command: [*c.split(), hard, *seconds(t)],
                    [*command.split(), done],
                    stages=2,
                )
                for command in ("explain", "rate --chains 0")
            ),
            _command_goal(
                "generate 25x25",
                lambda t: ["generate", "25x25", *seconds(t)],
                ["generate", "25x25", "--givens", "625"],
            ),
        ]
    goals += [
        _memory_goal("an empty 36×36", _empty(6), 512),
        _memory_goal("a sparse 36×36 (VegaMario, 2 givens in 5)", _sparse36(), 512),
        _memory_goal("an empty 64×64 (the largest canvas)", _empty(8), 512),
    ]
    return goals
