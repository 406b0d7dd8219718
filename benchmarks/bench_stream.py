"""A batch of a million 9×9 lines streamed by ``ndoku solve``: peak memory, time, and the time
from Ctrl-C (SIGINT) to the exit.

The batch is the 10 000 17-clue puzzles of ``royle17_sample10k`` written 100 times, in a
temporary folder. The goals are issue 18's: the run within 500 MB resident (peak resident
set of the largest process, its ``VmHWM`` sampled every 50 ms: ``wait4``'s ``ru_maxrss``
counts the pages a child shares with this process between fork and exec: a 197 MB run
read 818 MB from a process holding 600 MB, and 573-880 MB within ``make bench``),
its output lining up with its input (line i answers line i), and a SIGINT a few seconds in
stopping it within a second, with whole, right lines written. The detail adds the peak of
what the process and its worker processes hold together (their proportional set sizes,
sampled every 50 ms: libraries they share count once). Measured 2026-11-24 on two shared
cores: before the batch streamed, 1.45 GB and 21.8 s; after, 0.19 GB (0.34 GB with the two
workers) and 12 s, and 0.22 s from SIGINT to the exit.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks._common import REPO, Goal, benchmark_data

COPIES = 100
SIGNAL_AFTER = 3.0  # seconds into the batch


def _kilobytes(path: str, field: str) -> int:
    """Bytes of the ``field:`` lines (in kB) of a /proc file, 0 once the process is gone."""
    try:
        text = Path(path).read_text()
    except OSError:
        return 0
    return sum(int(line.split()[1]) * 1024 for line in text.splitlines() if line.startswith(field))


def _held(pid: int) -> tuple[int, int]:
    """Bytes a process and its children hold now, shared pages shared out; and the peak
    resident bytes of the largest of them so far (0 once gone)."""
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    together = largest = 0
    for one in [pid, *map(int, found.stdout.split())]:
        together += _kilobytes(f"/proc/{one}/smaps_rollup", "Pss:")
        largest = max(largest, _kilobytes(f"/proc/{one}/status", "VmHWM:"))
    return together, largest


def _solve(big: Path, out: Path, stop_after: float | None) -> tuple[int, float, int, int, float]:
    """Exit status, wall seconds, peak resident bytes of the largest process and of the
    process and its workers together, of ``ndoku solve big > out``; and the seconds from the
    signal to the exit (when ``stop_after`` sends one)."""
    with out.open("wb") as sink:
        start = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "ndoku", "solve", str(big)],
            stdout=sink,
            stderr=subprocess.DEVNULL,
            cwd=REPO,
        )
        together, largest, sent = 0, 0, None
        while True:
            pid, status = os.waitpid(process.pid, os.WNOHANG)
            if pid:
                break
            held, peak = _held(process.pid)
            together, largest = max(together, held), max(largest, peak)
            if stop_after is not None and sent is None and time.perf_counter() - start > stop_after:
                process.send_signal(signal.SIGINT)
                sent = time.perf_counter()
            time.sleep(0.05)
        end = time.perf_counter()
    process.returncode = os.waitstatus_to_exitcode(status)
    took = 0.0 if sent is None else end - sent
    return process.returncode, end - start, largest, together, took


def _lined_up(out: Path, answers: list[bytes]) -> int:
    """Lines of ``out`` that answer their input lines, all of them whole; -1 when one does not."""
    lines = out.read_bytes().split(b"\n")
    if lines[-1] != b"":
        return -1
    for i, line in enumerate(lines[:-1]):
        if line != answers[i % len(answers)]:
            return -1
    return len(lines) - 1


def main() -> list[Goal]:
    if not Path("/proc/self/status").exists():
        print("skipped: the resident memory is read from /proc")
        return []
    sample = benchmark_data("sudoku9/royle17_sample10k.txt")
    with tempfile.TemporaryDirectory() as folder:
        big, out = Path(folder) / "royle17_1m.txt", Path(folder) / "out.txt"
        answers = subprocess.run(
            [sys.executable, "-m", "ndoku", "solve", str(sample)],
            cwd=REPO,
            capture_output=True,
            check=True,
        ).stdout.split(b"\n")[:-1]
        big.write_bytes(sample.read_bytes() * COPIES)
        puzzles = len(answers) * COPIES
        code, seconds, peak, together, _ = _solve(big, out, None)
        lined = _lined_up(out, answers)
        whole = Goal(
            f"ndoku solve: {puzzles:,} lines, peak resident",
            peak / 1e6 if (code, lined) == (0, puzzles) else float("inf"),
            500.0,
            "MB",
            detail=f"{together / 1e6:.0f} MB with its workers; {seconds:.1f} s whole "
            f"({seconds / puzzles * 1e6:.1f} µs a puzzle), exit {code}, {lined:,} lines lined "
            "up with the input",
        )
        code, _, _, _, took = _solve(big, out, SIGNAL_AFTER)
        lined = _lined_up(out, answers)
        stopped = Goal(
            f"ndoku solve: {puzzles:,} lines, SIGINT {SIGNAL_AFTER:g} s in, to the exit",
            took,
            1.0,
            "s",
            detail=f"exit {code}, {lined:,} whole lines written, each the answer of its line",
        )
        if lined <= 0 or code != 130:
            stopped = Goal(stopped.name, float("inf"), 1.0, "s", detail=stopped.detail)
    return [whole, stopped]
