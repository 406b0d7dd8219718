"""A chain watched from the page: a Metropolis or tempering run in a worker thread, its
glimpses sent as lines of JSON while it runs (about five a second), stopped when the client
goes away; the last line is the solve record, its answer verified.

The lines (``application/x-ndjson``):

- first ``{"run": ID, "cells": [[row, col], ...]}``: the run's name, for ``POST /api/steer``
  (a Metropolis chain's temperature set as it runs), and each cell's canvas position;
- then ``{"glimpse": {...}}``: ``proposals``, ``energy``, ``best``, ``temperature``, the
  ``values`` in cell order, the cells whose value a peer holds too (``conflicts``), and in a
  tempering run each rung's ``energies`` and ``temperatures``, coldest first;
- last the ``solve`` endpoint's answer (``records``, ``svg``, ``trace``), or ``{"error": …}``.
"""

from __future__ import annotations

import asyncio
import json
import queue
import secrets
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ndoku.errors import NdokuError
from ndoku.limits import DEFAULT_TRACE_EVERY
from ndoku.model.frame import Frame
from ndoku.model.puzzle import Puzzle
from ndoku.solvers.chains.checks import check_temperature
from ndoku.solvers.chains.watch import Glimpse
from ndoku.tasks.settings import solve_options
from ndoku.tasks.solve import solve
from ndoku.web.answers import drawn, puzzles_of, trace_record
from ndoku.web.asks import MOST_SECONDS, BadAsk, ChainAsk

#: The methods a page can watch.
WATCHED = ("metropolis", "tempering")
#: The runs under way, by name (each leaves when its thread ends).
RUNS: dict[str, Run] = {}


@dataclass(frozen=True)
class WatchAsk(ChainAsk):
    """A chain to watch: ``ndoku solve --method metropolis|tempering`` with its settings."""

    method: str = "metropolis"
    prune: bool = True  # tempering: start from pruned candidates
    timeout: float = MOST_SECONDS


def conflicts(puzzle: Puzzle, values: np.ndarray) -> list[int]:
    """The cells whose value one of their peers holds too.

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> # row 1 holds 1 twice, columns 2-4 a value twice each, box 2 a 2 twice
    >>> conflicts(p, np.array([1, 1, 2, 3, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]))
    [0, 1, 2, 3, 7, 9, 11, 14]
    """
    _, peers = puzzle.peers
    owner = puzzle.frame.table("peer owners", _peer_owners)  # once a layout, not a glimpse
    same = values[owner] == values[peers]
    return sorted({int(c) for c in owner[same]})


def _peer_owners(frame: Frame) -> np.ndarray:
    """The cell each entry of the peer listing belongs to."""
    ptr, _ = frame.peers
    return np.repeat(np.arange(frame.n_cells), np.diff(ptr))


def glimpse_record(puzzle: Puzzle, glimpse: Glimpse) -> dict[str, Any]:
    """A glimpse as the page reads it."""
    record: dict[str, Any] = {
        "proposals": glimpse.proposals,
        "energy": glimpse.energy,
        "best": glimpse.best_energy,
        "temperature": glimpse.temperature,
        "values": glimpse.values.tolist(),
        "conflicts": conflicts(puzzle, glimpse.values),
    }
    if glimpse.energies:
        record |= {"energies": list(glimpse.energies), "temperatures": list(glimpse.temperatures)}
    return record


def watched_puzzle(ask: WatchAsk) -> Puzzle:
    """The one puzzle of the ask, after its method is checked."""
    if ask.method not in WATCHED:
        raise BadAsk(f"only {' and '.join(WATCHED)} runs are watched, not {ask.method!r}")
    if ask.temperature is not None:  # refused before the stream starts, as a 400
        check_temperature(ask.temperature)
    [puzzle] = puzzles_of(ask, one=True)
    return puzzle


class Run:
    """A Metropolis or tempering run streamed as lines of JSON while it runs (a few a
    second: each state, its energy and conflicts), the solve record last; a client that goes
    away stops it.

    The run starts in a worker thread when made; ``release`` is called once that thread has
    ended (whether the run finished, failed or was stopped).
    """

    def __init__(self, puzzle: Puzzle, ask: WatchAsk, release: Callable[[], object]) -> None:
        self.puzzle = puzzle
        self.options = solve_options(
            ask.method,
            seed=ask.seed,
            temperature=ask.temperature,
            moves=ask.moves,
            max_proposals=ask.max_proposals,
            prune=ask.prune,
            timeout=ask.timeout,
            trace=True,
            trace_every=DEFAULT_TRACE_EVERY,
        )
        self.method = ask.method
        self.release = release
        self.queue: queue.Queue[dict[str, Any]] = queue.Queue()
        self.stop = threading.Event()
        self.steered: float | None = None  # a temperature asked, not yet taken
        self.name = secrets.token_hex(8)
        RUNS[self.name] = self
        threading.Thread(target=self._run, name="ndoku-watch", daemon=True).start()

    def steer(self, temperature: float) -> None:
        """Run the chain at ``temperature`` from its next call on (a Metropolis chain only)."""
        if self.method != "metropolis":
            raise NdokuError("only a Metropolis chain is steered: a tempering run keeps its ladder")
        check_temperature(temperature)
        self.steered = temperature

    def _watch(self, glimpse: Glimpse) -> bool | float:
        self.queue.put({"glimpse": glimpse_record(self.puzzle, glimpse)})
        if self.stop.is_set():
            return False
        steered, self.steered = self.steered, None
        return True if steered is None else steered

    def _run(self) -> None:
        try:
            outcome = solve(self.puzzle, self.method, replace(self.options, watch=self._watch))
            answer: dict[str, Any] = {"records": [outcome.record(False)]}
            answer["svg"] = drawn(self.puzzle, outcome.drawn(False))
            if outcome.trace is not None:
                answer["trace"] = trace_record(outcome.trace)
            self.queue.put(answer)
        except NdokuError as exc:
            self.queue.put({"error": str(exc)})
        finally:
            RUNS.pop(self.name, None)
            self.release()
            self.queue.put({})  # the end

    async def lines(self) -> AsyncIterator[bytes]:
        """The run's lines as they come; when the client goes away (this stops being
        read), the chain stops at its next glimpse."""
        try:
            yield _line({"run": self.name, "cells": self.puzzle.cell_rc.tolist()})
            while True:
                try:
                    line = self.queue.get_nowait()
                except queue.Empty:
                    await asyncio.sleep(0.02)
                    continue
                if not line:
                    return
                yield _line(line)
        finally:
            self.stop.set()


@dataclass(frozen=True)
class SteerAsk:
    """A watched Metropolis chain's new temperature: ``run`` names it (its first line)."""

    run: str
    temperature: float


def steer(ask: SteerAsk) -> dict[str, Any]:
    """Set a watched chain's temperature; refused for a run that has ended or is unknown."""
    run = RUNS.get(ask.run)
    if run is None:
        raise BadAsk(f"no chain {ask.run!r} is running (it ended, or never was)")
    run.steer(ask.temperature)
    return {"run": ask.run, "temperature": ask.temperature}


def _line(record: dict[str, Any]) -> bytes:
    return json.dumps(record).encode() + b"\n"
