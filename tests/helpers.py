"""Helpers several test modules share: blank grids, puzzles from the test data, the energy
of a box-swap chain counted straight from the units, a swap chain driven a step at a time,
and random 4×4 puzzles with random variant rules beside every 4×4 sudoku (the slow reference
of the rules' solvers).

Test modules import it as ``helpers`` (pytest puts ``tests`` on the path: ``pythonpath`` in
pyproject.toml).
"""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys
import threading
import time
from functools import cache
from pathlib import Path

import numpy as np

from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.model.units import BOX
from ndoku.solvers.chains.kernels import fill_thresholds, swap_chain
from ndoku.solvers.chains.moves import (
    PENALTY,
    SwapSystem,
    initial_state,
    places,
    pruned,
    unit_counts,
)
from ndoku.tasks.verify import problems

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).resolve().parent.parent
NINE = DATA / "sudoku9" / "kaggle_bryanpark_first69.txt"
# Minimal 25×25 puzzles (``id puzzle,solution status``): pruning leaves them most cells.
GECODE25 = DATA / "sudoku25" / "gecode_25x25_shared6.txt"


def blank_grid(rows: int, cols: int | None = None) -> str:
    """The text of a grid of zeros, ``rows`` × ``cols`` (square when ``cols`` is None)."""
    return ("0 " * (cols or rows) + "\n") * rows


def load(path: Path) -> Puzzle:
    """The one puzzle of a file."""
    [puzzle] = read_puzzles(path)
    return puzzle


def puzzle_of(text: str) -> Puzzle:
    """The one puzzle of a text."""
    [puzzle] = read_puzzles(text=text)
    return puzzle


def line_puzzle(path: Path, line: int) -> Puzzle:
    """A one-line puzzle: ``puzzle[,solution]`` or ``id puzzle,solution status``."""
    text = path.read_text().splitlines()[line]
    field = text.split()[1] if " " in text.strip() else text
    return puzzle_of(field.split(",")[0])


def kaggle(line: int) -> tuple[Puzzle, str]:
    """A Kaggle 9×9 (``puzzle,solution``) and its published solution."""
    puzzle, solution = NINE.read_text().splitlines()[line].split(",")
    return puzzle_of(puzzle), solution


def gecode25(line: int = 0) -> Puzzle:
    """A minimal 25×25 puzzle; short pruned runs do not solve them."""
    return line_puzzle(GECODE25, line)


def naive_energy(puzzle: Puzzle, values: np.ndarray, system: SwapSystem | None = None) -> int:
    """Box-swap energy: rows and columns, N − distinct symbols each; with a pruned ``system``,
    plus the penalty of every free cell outside its candidates."""
    units = puzzle.units
    energy = sum(
        puzzle.size - len(set(values[units[u]].tolist()))
        for u in range(len(units))
        if units.kind[u] != BOX
    )
    if system is None or not system.pruned:
        return energy
    givens, masks = pruned(puzzle)
    assert masks is not None and np.array_equal(givens, system.givens)
    free = np.flatnonzero(givens == 0)
    return energy + PENALTY * sum(not int(masks[c]) >> (int(values[c]) - 1) & 1 for c in free)


class Command:
    """A real ``ndoku`` process (this checkout's), its stdout read as it comes: the tests of
    streaming and interruption watch it, signal it and time its end."""

    def __init__(self, *args: str, stdin: bool = False):
        self.process = subprocess.Popen(
            self.argv(*args),
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=self.env(),
        )
        self._out = bytearray()
        self._arrived = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    @staticmethod
    def argv(*args: str) -> list[str]:
        return [sys.executable, "-m", "ndoku", *args]

    @staticmethod
    def env() -> dict[str, str]:
        """The environment, with this checkout's ``ndoku`` first on the path."""
        paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
        return {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), *paths])}

    def _read(self) -> None:
        assert self.process.stdout is not None
        while block := self.process.stdout.read1(1 << 16):  # type: ignore[attr-defined]
            with self._arrived:
                self._out += block
                self._arrived.notify_all()
        with self._arrived:
            self._arrived.notify_all()

    def lines(self, at_least: int, timeout: float = 30.0) -> int:
        """Wait until ``at_least`` whole lines have come (or the process ended, or the
        timeout passed); the lines come so far."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while self._out.count(b"\n") < at_least and self._reader.is_alive():
                if not self._arrived.wait(max(0.0, deadline - time.monotonic())):
                    break
            return self._out.count(b"\n")

    def workers(self) -> list[int]:
        """Its worker processes now (Linux: the children it spawned)."""
        found = subprocess.run(
            ["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True
        ).stdout.split()
        return [int(pid) for pid in found if b"resource_tracker" not in _cmdline(int(pid))]

    def busy_worker(self, tries: int = 100) -> int:
        """A worker process that is solving now: its CPU time grows over 20 ms (an idle one
        waits for a job while its results are held, and killing it loses no puzzle)."""
        for _ in range(tries):
            before = {pid: _cpu_ticks(pid) for pid in self.workers()}
            time.sleep(0.02)
            for pid, ticks in before.items():
                if _cpu_ticks(pid) > ticks:
                    return pid
        raise AssertionError("no worker process is busy")

    def stop(self, signum: int, timeout: float = 30.0) -> tuple[int, bytes, str, float]:
        """Send ``signum``; exit status, stdout, stderr and the seconds to the end."""
        sent = time.monotonic()
        self.process.send_signal(signum)
        self.process.wait(timeout)  # its stderr is a few lines: the pipe holds them
        took = time.monotonic() - sent
        return (*self.finish(timeout), took)

    def finish(self, timeout: float = 60.0) -> tuple[int, bytes, str]:
        """Wait for the end: exit status, stdout, stderr."""
        assert self.process.stderr is not None
        err = self.process.stderr.read().decode()
        code = self.process.wait(timeout)
        self._reader.join(timeout)
        return code, bytes(self._out), err


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _cpu_ticks(pid: int) -> int:
    """User and system CPU ticks of a process so far (Linux), -1 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return -1
    return int(fields[11]) + int(fields[12])  # utime, stime: fields 14 and 15 of stat


def thresholds_for(temperature: float, size: int) -> np.ndarray:
    table = np.zeros(size, dtype=np.uint64)
    fill_thresholds(table, temperature)
    return table


class SwapWalk:
    """A swap chain driven step by step through the kernel, from ``initial_state(seed)``."""

    def __init__(self, system: SwapSystem, temperature: float, seed: int) -> None:
        self.system = system
        self.values = initial_state(system, seed=seed)
        self.place = places(system, self.values)
        self.counts, self.masks, energy = unit_counts(system, self.values)
        self.thresholds = thresholds_for(temperature, system.largest_change + 1)
        self.state = np.array([seed * 7919 + 1], dtype=np.uint64)
        self.stats = np.array([energy, energy, 0, 0, 0], dtype=np.int64)

    def step(self, budget: int = 1) -> None:
        swap_chain(
            self.values,
            self.values.copy(),
            self.place,
            self.counts,
            self.masks,
            *self.system.kernel_arrays,
            self.thresholds,
            self.state,
            self.stats,
            budget,
        )

    def assert_tallies_are_fresh(self) -> None:
        """The counts, masks and places kept along the way equal fresh ones."""
        counts, masks, _ = unit_counts(self.system, self.values)
        assert np.array_equal(self.counts, counts) and np.array_equal(self.masks, masks)
        assert np.array_equal(self.place, places(self.system, self.values))


@cache
def all_grids() -> tuple[tuple[int, ...], ...]:
    """Every 4×4 sudoku, row by row."""
    rows = list(itertools.permutations(range(1, 5)))
    found = []
    for grid in itertools.product(rows, repeat=4):
        if all(len({grid[r][c] for r in range(4)}) == 4 for c in range(4)) and all(
            len({grid[r][c] for r in (br, br + 1) for c in (bc, bc + 1)}) == 4
            for br in (0, 2)
            for bc in (0, 2)
        ):
            found.append(tuple(v for row in grid for v in row))
    return tuple(found)


def rc_name(cell: int) -> str:
    return f"r{cell // 4 + 1}c{cell % 4 + 1}"


def king_path(rng: random.Random, length: int) -> list[int]:
    """A random path of king's moves without repeats (shorter when it is boxed in)."""
    cell = rng.randrange(16)
    path = [cell]
    while len(path) < length:
        r, c = divmod(path[-1], 4)
        near = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)]
        steps = [a * 4 + b for a, b in near if 0 <= a < 4 and 0 <= b < 4 and a * 4 + b not in path]
        if not steps:
            break
        path.append(rng.choice(steps))
    return path


def random_rule(rng: random.Random, solution: tuple[int, ...]) -> str:
    """A rule line; about half of them made to hold in ``solution`` (so puzzles have some
    solutions), the others random."""
    kind = rng.choice(
        ["cage", "thermo", "slow-thermo", "arrow", "white", "black", "x", "v", "even", "odd",
         "whisper", "renban", "palindrome", "little-killer", "sandwich", "skyscraper",
         "outside-sum", "antiknight", "antiking", "nonconsecutive", "negative", "region"]
    )  # fmt: skip
    fits = rng.random() < 0.5
    if kind in ("antiknight", "antiking", "nonconsecutive"):
        return kind
    if kind == "negative":
        return "negative: " + " ".join(rng.sample(["white", "black", "x", "v"], rng.randint(1, 2)))
    if kind in ("white", "black", "x", "v"):
        a = rng.randrange(16)
        r, c = divmod(a, 4)
        b = a + 1 if c < 3 and (r == 3 or rng.random() < 0.5) else a + 4 if r < 3 else a - 4
        return f"{kind}: {rc_name(a)} {rc_name(b)}"
    if kind in ("even", "odd"):
        return f"{kind}: " + " ".join(rc_name(c) for c in rng.sample(range(16), rng.randint(1, 3)))
    if kind in ("sandwich", "skyscraper", "outside-sum", "little-killer"):
        side = rng.randrange(4)
        k = rng.randint(1, 4)
        clue = [f"r0c{k}", f"r5c{k}", f"r{k}c0", f"r{k}c5"][side]
        if kind == "little-killer":
            clue = rng.choice(["r0c2 dr", "r0c3 dl", "r2c0 dr", "r5c2 ur"])
            return f"little-killer {rng.randint(2, 12)} {clue.split()[1]}: {clue.split()[0]}"
        number = {"sandwich": rng.randint(0, 5), "skyscraper": rng.randint(1, 4)}
        return f"{kind} {number.get(kind, rng.randint(3, 7))}: {clue}"
    if kind in ("cage", "region"):
        cells = king_path(rng, rng.randint(2, 4))
        if len({solution[c] for c in cells}) < len(cells) and fits:
            return f"region: {' '.join(map(rc_name, cells[:1]))}"
        total = sum(solution[c] for c in cells) if fits else rng.randint(3, 10)
        number = f" {total}" if kind == "cage" and len(cells) > 1 else ""
        return f"{kind}{number}: " + " ".join(map(rc_name, cells))
    path = king_path(rng, rng.randint(2, 4))
    if len(path) < 2:
        path = [0, 1]
    if kind == "arrow":
        return f"arrow: {rc_name(path[0])} > " + " ".join(map(rc_name, path[1:]))
    if fits and kind in ("thermo", "slow-thermo"):
        path.sort(key=lambda c: solution[c])
        touching = all(
            abs(a // 4 - b // 4) <= 1 and abs(a % 4 - b % 4) <= 1
            for a, b in itertools.pairwise(path)
        )
        if not touching:
            path = [0, 1]
    return f"{kind}: " + " ".join(map(rc_name, path))


def random_ruled_puzzle(seed: int) -> Puzzle | None:
    """A random 4×4 with random rules, or None when its text is refused (a rule the givens
    break, a sum its cells cannot reach: the reader's business, tested elsewhere)."""
    rng = random.Random(seed)
    solution = rng.choice(all_grids())
    givens = [v if rng.random() < 0.15 else 0 for v in solution]
    rows = "".join(" ".join(map(str, givens[r * 4 : r * 4 + 4])) + "\n" for r in range(4))
    rules = "\n".join(random_rule(rng, solution) for _ in range(rng.randint(1, 4)))
    try:
        [puzzle] = read_puzzles(text=rows + "\n" + rules + "\n")
    except Exception as error:  # the reader refuses with an NdokuError
        assert type(error).__name__ in ("ParseError", "ConflictError", "LayoutError"), error
        return None
    return puzzle


def kept_grids(puzzle: Puzzle) -> list[tuple[int, ...]]:
    """The 4×4 sudokus that keep the puzzle's givens and every rule, by the verifier."""
    kept = []
    for grid in all_grids():
        values = np.array(grid, dtype=np.int32)
        if ((puzzle.givens == 0) | (puzzle.givens == values)).all() and not problems(
            puzzle, values
        ):
            kept.append(grid)
    return kept
