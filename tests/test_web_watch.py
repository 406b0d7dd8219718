"""A chain watched through the API (``POST /api/watch``): lines of JSON as it runs, each state
with its energy and its conflicting cells (against the units read directly), tempering's rungs,
the verified answer last, bad asks refused, and a client that leaves stopping the chain."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from starlette.testclient import TestClient

from ndoku.model.puzzle import read_puzzles
from ndoku.web.app import make_app

DATA = Path(__file__).parent / "data"
HARD = (DATA / "sudoku9" / "forum_hardest_1106_first40.txt").read_text().split()[0].split(",")[0]
EASY = "1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n"


def _client(jobs: int = 2) -> TestClient:
    return TestClient(make_app(jobs=jobs), base_url="http://127.0.0.1:8000")


def _lines(client: TestClient, most: int | None = None, **ask: Any) -> list[dict[str, Any]]:
    """The lines of a watched run (the first ``most`` of them, the client leaving then)."""
    got = []
    with client.stream("POST", "/api/watch", json=ask) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("application/x-ndjson")
        for line in response.iter_lines():
            got.append(json.loads(line))
            if most is not None and len(got) >= most:
                break
    return got


def _conflicts(puzzle: Any, values: np.ndarray) -> list[int]:
    """Cells whose value is repeated in one of their units (a classic 9×9 has no other peers)."""
    found = set()
    for u in range(len(puzzle.units)):
        cells = puzzle.units[u].tolist()
        for a in cells:
            if sum(values[b] == values[a] for b in cells) > 1:
                found.add(a)
    return sorted(found)


def test_a_watched_chain_streams_its_states_then_its_answer() -> None:
    [puzzle] = read_puzzles(text=HARD + "\n")
    lines = _lines(_client(), text=HARD, method="metropolis", temperature=2.0, timeout=3)
    first, *glimpses, last = lines
    assert first["cells"] == puzzle.cell_rc.tolist()
    assert len(glimpses) >= 10 and all("glimpse" in line for line in glimpses)
    proposals = [line["glimpse"]["proposals"] for line in glimpses]
    assert proposals == sorted(proposals)
    for line in glimpses[:: max(1, len(glimpses) // 10)]:
        seen = line["glimpse"]
        values = np.array(seen["values"])
        assert seen["conflicts"] == _conflicts(puzzle, values)
        assert (values[puzzle.givens > 0] == puzzle.givens[puzzle.givens > 0]).all()
        assert seen["temperature"] == 2.0 and seen["best"] <= seen["energy"]
    [record] = last["records"]
    assert record["method"] == "metropolis" and record["stop"] == "timeout"
    assert record["proposals"] >= proposals[-1] and last["svg"].startswith("<svg")


def test_a_solved_chain_ends_with_its_verified_answer() -> None:
    *_, last = _lines(_client(), text=EASY, method="tempering", seed=1)
    [record] = last["records"]
    assert record["status"] == "solved" and record["solution"].startswith("1 3 2 4")


def test_tempering_shows_every_rung() -> None:
    with _client() as client:
        lines = _lines(client, 4, text=HARD, method="tempering", seed=1, prune=False, timeout=5)
    seen = lines[1]["glimpse"]
    assert len(seen["energies"]) == len(seen["temperatures"]) >= 2
    assert seen["temperatures"] == sorted(seen["temperatures"])
    assert seen["energy"] == seen["energies"][0]


def test_a_client_that_leaves_stops_its_chain() -> None:
    # one slot: while the chain held it, another job would wait 10 s and get 503
    with _client(jobs=1) as client:  # one event loop for both requests, as a server has
        _lines(client, 3, text=HARD, method="metropolis", temperature=2.0, timeout=60)
        start = time.perf_counter()
        counted = client.post("/api/count", json={"text": EASY})
    assert counted.status_code == 200 and time.perf_counter() - start < 8


@pytest.mark.parametrize(
    ("ask", "said"),
    [
        ({"text": EASY, "method": "exact"}, "only metropolis and tempering runs are watched"),
        ({"text": "1 2 3\n4 5\n"}, "ragged row"),
        ({"text": EASY, "temperature": -1.0}, "temperature"),
        ({"text": EASY, "speed": 3}, "unknown option 'speed'"),
    ],
)
def test_bad_asks_are_refused_with_the_sentence(ask: dict[str, Any], said: str) -> None:
    response = _client().post("/api/watch", json=ask)
    assert response.status_code == 400 and said in response.json()["error"]


def test_a_watched_metropolis_chain_is_steered_to_another_temperature() -> None:
    with (
        _client() as client,
        client.stream(
            "POST", "/api/watch", json={"text": HARD, "temperature": 2.0, "timeout": 10}
        ) as response,
    ):
        lines = response.iter_lines()
        run = json.loads(next(lines))["run"]
        said = client.post("/api/steer", json={"run": run, "temperature": 3.5})
        assert said.status_code == 200 and said.json()["temperature"] == 3.5
        temperatures = []
        for line in lines:  # glimpses made before the steer was taken come first
            glimpse = json.loads(line).get("glimpse")
            if glimpse is None:
                break
            temperatures.append(glimpse["temperature"])
            if temperatures.count(3.5) >= 3:
                break
    steered = temperatures.index(3.5)
    assert set(temperatures[:steered]) == {2.0} and set(temperatures[steered:]) == {3.5}
    assert len(temperatures) - steered >= 3


def test_steering_what_cannot_be_steered_is_refused() -> None:
    with _client() as client:
        gone = client.post("/api/steer", json={"run": "0123", "temperature": 1.0})
        assert gone.status_code == 400 and "no chain '0123' is running" in gone.json()["error"]
        ask = {"text": HARD, "method": "tempering", "prune": False, "timeout": 10}
        with client.stream("POST", "/api/watch", json=ask) as response:
            lines = response.iter_lines()  # kept: a dropped iterator closes the stream, and
            run = json.loads(next(lines))["run"]  # the run stops before the steer comes
            said = client.post("/api/steer", json={"run": run, "temperature": 1.0})
        assert said.status_code == 400 and "keeps its ladder" in said.json()["error"]
