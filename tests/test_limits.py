"""Limits honoured: every number option refuses what ndoku cannot use, on the command line and
in the library; timeouts, node and proposal limits stop every method; the largest canvas and
the exact search's stack stay bounded. (The overshoot per method is measured by
``python -m benchmarks limits``: the bounds here only catch a limit that is ignored.)"""

from __future__ import annotations

import math
import re
import time
from dataclasses import replace
from typing import Any

import click
import pytest
from conftest import CliRun

from ndoku.cli import main
from ndoku.cli.numbers import Number, Whole
from ndoku.errors import NdokuError
from ndoku.limits import MAX_CELLS, MAX_REPLICAS, Deadline, check_count, check_timeout
from ndoku.solvers.chains import Restarts, metropolis, tempering
from ndoku.solvers.exact import solve_exact
from ndoku.solvers.exact import solver as exact_solver
from ndoku.tasks.cluster import local_workers
from ndoku.tasks.generate import generate, layout_puzzle
from ndoku.tasks.solve import METHODS, Options, solve
from ndoku.text.numbers import parse_numbers

from helpers import blank_grid, gecode25, puzzle_of

#: Values no number option takes; options above 0 refuse "0" too.
ABSURD = ["-1", "nan", "inf", "-inf", "1e30", "1" + "0" * 30, "abc", ""]
#: Seconds past a timeout after which a run counts as ignoring it (the real figures are a few
#: percent: see the benchmark).
SLACK = 3.0


def _number_options() -> list[tuple[str, click.Option]]:
    return [
        (name, option)
        for name, command in sorted(main.commands.items())
        for option in command.params
        if isinstance(option, click.Option)
        and isinstance(option.type, click.types.IntParamType | click.types.FloatParamType)
    ]


def test_every_number_option_takes_one_of_the_checked_types() -> None:
    options = _number_options()
    assert len(options) > 30
    unchecked = [
        f"{name} {o.opts[0]}" for name, o in options if type(o.type) not in (Whole, Number)
    ]
    assert unchecked == []


def _absurd(option: click.Option) -> list[str]:
    kind: Any = option.type
    return ABSURD + (["0"] if kind.min > 0 or kind.min_open else [])


@pytest.mark.parametrize(
    ("command", "option", "value"),
    [
        (name, option.opts[0], value)
        for name, option in _number_options()
        for value in _absurd(option)
    ],
)
def test_an_absurd_number_is_a_usage_error(
    run: CliRun, command: str, option: str, value: str
) -> None:
    argument = "9x9" if command == "generate" else "puzzle.txt"  # never read: the option fails
    code, out, err = run(command, argument, option, value)
    assert code == 2 and out == ""
    assert f"Error: Invalid value for '{option}'" in err


@pytest.mark.parametrize(
    "arguments",
    [
        ["solve", "-", "--method", "tempering", "--ladder", "0.2:1e30:1e-30"],
        ["solve", "-", "--method", "tempering", "--ladder", "1e999,2"],
        ["tune", "-", "--temperatures", "0.1:1e9:1e-9"],
        ["solve", "-", "--cluster", "local:100000"],
    ],
)
def test_an_absurd_grid_or_cluster_is_an_error(run: CliRun, arguments: list[str]) -> None:
    code, _, err = run(*arguments, input=blank_grid(4))
    assert code == 2 and err.startswith("Error:")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: Options(max_nodes=10**30), "max nodes must be a whole number from 1 to 10¹⁸"),
        (lambda: Options(timeout=math.inf), "timeout must be a positive number of seconds"),
        (lambda: Options(timeout=math.nan), "timeout must be a positive number of seconds"),
        (lambda: Options(seed=-1), "seed must be a whole number from 0"),
        (lambda: Options(exchange_every=0), "exchange interval must be a whole number from 1"),
        (lambda: check_timeout(1e30), "up to 10⁷, got 1e+30"),
        (lambda: check_count(10**19, "runs", 1), "runs must be a whole number from 1 to 10¹⁸"),
        (lambda: parse_numbers("0:1:1e-9"), "lists more than 10000 numbers"),
        (lambda: parse_numbers("1e999"), "a number too large to read"),
        (lambda: local_workers("local:5000"), "local:N takes 1 to 1024 worker processes"),
        (lambda: metropolis(gecode25(), timeout=math.inf), "timeout must be a positive"),
        (lambda: solve_exact(gecode25(), timeout=1e30), "timeout must be a positive"),
        (
            lambda: tempering(gecode25(), replicas=MAX_REPLICAS + 1),
            f"takes {MAX_REPLICAS} replicas at most",
        ),
    ],
)
def test_the_library_refuses_them_too(call: Any, message: str) -> None:
    with pytest.raises(NdokuError, match=re.escape(message)):
        call()


def test_a_canvas_beyond_the_largest_grid_is_refused(run: CliRun) -> None:
    strip = blank_grid(9, 9 * 60)  # 60 sudokus side by side: 4860 cells
    code, out, err = run("solve", "-", input=strip)
    assert code == 2 and out == ""
    assert f"this canvas has 4,860 cells; ndoku takes {MAX_CELLS:,} at most" in err


def _timed(work: Any) -> tuple[Any, float]:
    start = time.perf_counter()
    done = work()
    return done, time.perf_counter() - start


@pytest.mark.parametrize("method", METHODS)
def test_every_method_stops_at_its_timeout(method: str) -> None:
    # counting every solution of an empty 25×25 never ends; the chains never solve this one
    # (hybrid's exact search first would: a setting of the chain leaves its chain alone)
    puzzle = puzzle_of(blank_grid(25)) if method in ("auto", "exact") else gecode25()
    options = Options(timeout=0.3, limit=10**9)
    if method == "hybrid":
        options = replace(options, restarts=Restarts("luby"))
    solve(puzzle, method, Options(timeout=0.01))  # kernels compiled or loaded first
    outcome, seconds = _timed(lambda: solve(puzzle, method, options))
    assert outcome.result.stop == "timeout"
    assert 0.3 <= seconds < 0.3 + SLACK


@pytest.mark.parametrize("method", METHODS)
def test_node_and_proposal_limits_are_not_passed(method: str) -> None:
    puzzle = puzzle_of(blank_grid(25)) if method in ("auto", "exact") else gecode25()
    options = Options(max_nodes=4321, max_proposals=54321, limit=10**9)
    if method == "hybrid":  # its chain alone: its search would solve the Gecode puzzle
        options = replace(options, restarts=Restarts("luby"))
    result = solve(puzzle, method, options).result
    if method in ("auto", "exact"):
        assert (result.stop, result.nodes) == ("nodes", 4321)
    elif method == "tempering":  # whole proposals per replica: up to one less each
        assert result.stop == "max-proposals" and 54321 - len(result.ladder) < result.proposals
        assert result.proposals <= 54321
    else:
        assert (result.stop, result.proposals) == ("max-proposals", 54321)


def test_generating_stops_at_its_timeout() -> None:
    layout = layout_puzzle("25x25")
    generate(layout_puzzle("4x4"), timeout=60)  # the rating's kernels, compiled or loaded
    solve_exact(gecode25(), max_nodes=1)  # and the 25×25 search's
    made, seconds = _timed(lambda: generate(layout, timeout=0.5))
    assert made.stop == "timeout" and not made.reached
    assert 0.5 <= seconds < 0.5 + SLACK


def test_the_exact_search_stack_grows_no_deeper_than_the_free_cells(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """It doubles when a search gets deeper; a level fixes a cell at least, so it ends below
    twice the cells (a 64×64, the largest canvas, then holds 4096 levels of 44 KB)."""
    depths: list[int] = []
    grow = exact_solver.Workspace.grow

    def recorded(work: exact_solver.Workspace) -> None:
        grow(work)
        depths.append(len(work.stack))

    monkeypatch.setattr(exact_solver.Workspace, "grow", recorded)
    empty = puzzle_of(blank_grid(16))
    result = solve_exact(empty, limit=10**9, max_nodes=300_000)
    assert result.stop == "nodes" and depths  # it went deeper than the first 64 levels
    assert max(depths) <= 2 * (empty.n_cells + 2)


def test_a_deadline_sizes_the_next_stretch_of_work() -> None:
    deadline = Deadline(1.0)  # stretches of at most 0.04 s
    assert deadline.fit(100, done=100, seconds=0.001, least=10, most=10**6) == 200  # doubles
    assert deadline.fit(100, done=100, seconds=0.1, least=10, most=10**6) == 40  # shrinks
    assert deadline.fit(100, done=100, seconds=10.0, least=10, most=10**6) == 10  # not below
    with deadline.paused():
        time.sleep(0.05)
    assert deadline.left() > 0.95  # the pause did not count
    late = Deadline(0.001)
    time.sleep(0.002)
    assert late.passed() and late.stretch() == 0
