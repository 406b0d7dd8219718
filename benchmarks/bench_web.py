"""``ndoku serve`` measured from outside, as a browser or a script sees it: a real server
process (``python -m ndoku serve --port 0``) and HTTP requests from threads of this one.

Goals (issue 37): the time from the server's "listening" line to the first solved 9×9, on a
warm numba cache, ≤ 1.5 s; a warm Samurai solve's round trip through the API, median
≤ 20 ms; 9×9 solves per second with 20 clients at once (the issue sets no goal: 100/s is
this benchmark's own mark); and a load of 500 requests from 20
clients at once, 9×9 solves and Samurai hints mixed, each bounded in time, where every
answer is verified here, none fails, and the server's memory ends within 50 MB of where it
started (after its first answers).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from benchmarks._common import REPO, Goal, median, one_line_puzzles
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.tasks.solve import solve
from ndoku.tasks.verify import verify

SAMURAI = (REPO / "examples" / "samurai.txt").read_text()
NINES = "sudoku9/norvig_top95.txt"
ROUND_TRIPS = 30
CLIENTS = 20
LOAD = 500
REQUEST_SECONDS = 30.0  # the bound of each request of the load


def post(url: str, name: str, ask: dict[str, Any]) -> tuple[int, Any]:
    """Status and JSON of ``POST /api/NAME``."""
    request = urllib.request.Request(
        f"{url}api/{name}",
        data=json.dumps(ask).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=REQUEST_SECONDS) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def rss_mb(pid: int) -> float:
    """Resident memory of a process, in MB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text(encoding="ascii").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def start_server() -> tuple[subprocess.Popen[str], str, float]:
    """A server on a free port; its URL, and the moment its "listening" line was read."""
    server = subprocess.Popen(
        [sys.executable, "-m", "ndoku", "serve", "--port", "0"],
        cwd=REPO,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert server.stderr is not None
    line = server.stderr.readline()
    said = re.search(r"listening on (http://\S+/)", line)
    if said is None:
        server.kill()
        raise RuntimeError(f"the server said {line!r}")
    return server, said.group(1), time.perf_counter()


def solved(puzzle: Puzzle, record: dict[str, Any]) -> bool:
    """True when the record holds a solution of the puzzle (checked here, every rule)."""
    if record.get("status") != "solved":
        return False
    [filled] = read_puzzles(text=record["solution"])
    verify(puzzle, filled.givens)
    return True


def main() -> list[Goal]:
    nines = one_line_puzzles(NINES)
    [samurai] = read_puzzles(text=SAMURAI)
    samurai_solution = solve(samurai).values
    assert samurai_solution is not None
    server, url, listening = start_server()
    try:
        status, answer = post(url, "solve", {"text": nines[0].text()})
        first = time.perf_counter() - listening
        assert status == 200 and solved(nines[0], answer["records"][0]), answer
        goals = [
            Goal("ndoku serve: listening to the first solved 9×9, warm cache", first, 1.5, "s")
        ]

        post(url, "solve", {"text": SAMURAI})  # its kernels loaded
        times = []
        for _ in range(ROUND_TRIPS):
            start = time.perf_counter()
            status, answer = post(url, "solve", {"text": SAMURAI})
            times.append(time.perf_counter() - start)
            assert status == 200 and solved(samurai, answer["records"][0]), answer
        detail = f"{ROUND_TRIPS} round trips, worst {max(times) * 1000:.1f} ms"
        goals.append(
            Goal(
                "ndoku serve: warm Samurai solve round trip (median)",
                median(times) * 1000,
                20.0,
                "ms",
                detail=detail,
            )
        )

        def solve_one(k: int) -> bool:
            puzzle = nines[k % len(nines)]
            status, answer = post(url, "solve", {"text": puzzle.text()})
            return status == 200 and solved(puzzle, answer["records"][0])

        with ThreadPoolExecutor(CLIENTS) as pool:
            start = time.perf_counter()
            done = list(pool.map(solve_one, range(LOAD)))
            seconds = time.perf_counter() - start
        goals.append(
            Goal(  # a figure the issue asks reported, with no goal: any rate passes
                f"ndoku serve: 9×9 solves per second, {CLIENTS} clients ({NINES}), reported",
                LOAD / seconds,
                0.0,
                "/s",
                higher_is_better=True,
                detail=f"{LOAD} requests, {done.count(False)} failed or unverified",
            )
        )

        def mixed(k: int) -> bool:
            if k % 2:
                return solve_one(k)
            status, answer = post(url, "hint", {"text": SAMURAI})
            if status != 200:
                return False
            [record] = answer["records"]
            return all(
                samurai_solution[int(samurai.index[r, c])] == int(v)
                for r, c, v in record["placements"]
            )

        before = rss_mb(server.pid)
        with ThreadPoolExecutor(CLIENTS) as pool:
            start = time.perf_counter()
            done = list(pool.map(mixed, range(LOAD)))
            seconds = time.perf_counter() - start
        grown = rss_mb(server.pid) - before
        detail = f"{LOAD} requests in {seconds:.1f} s; memory {before:.0f} MB, then {grown:+.1f} MB"
        goals.append(
            Goal(
                f"ndoku serve: {LOAD} solves and hints from {CLIENTS} clients, failed",
                done.count(False),
                0,
                "requests",
                detail=detail,
            )
        )
        goals.append(
            Goal("ndoku serve: memory grown under that load", grown, 50.0, "MB", detail=detail)
        )
    finally:
        server.terminate()
        server.wait(10)
    return goals
