"""The solve task as library calls: typed results and their records, messages and captions;
runs over several seeds; options from the command's settings; counts."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ndoku.errors import NdokuError
from ndoku.model.puzzle import read_puzzles
from ndoku.solvers.chains.metropolis import ChainResult
from ndoku.solvers.chains.tempering import TemperingResult
from ndoku.solvers.exact import ExactResult
from ndoku.tasks.count import count_all
from ndoku.tasks.runs import Tally, solve_runs
from ndoku.tasks.settings import solve_options
from ndoku.tasks.solve import Options, solve

from helpers import puzzle_of

SHIDOKU = "1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n"
#: No direct conflict, but the third cell of the first row has no candidate left.
IMPOSSIBLE = "1 2 0 0\n0 0 3 0\n0 0 4 0\n0 0 0 0\n"
HEAD = ["status", "solution", "method", "seconds"]
CHAIN = ["seed", "moves", "schedule", "temperature", "proposals", "acceptances"]
CHAIN += ["acceptance_rate", "proposals_per_second", "energy", "best_energy", "best_at", "stop"]
CHAIN += ["restarts"]


def test_an_exact_outcome_keeps_its_result_and_records_it_in_order() -> None:
    outcome = solve(puzzle_of(SHIDOKU))
    assert isinstance(outcome.result, ExactResult) and outcome.result.unique is True
    record = outcome.record()
    assert list(record) == [*HEAD, "count", "unique", "nodes", "guesses", "propagated", "stop"]
    assert record["solution"] == outcome.puzzle.text(outcome.values).rstrip("\n")
    assert (record["count"], record["stop"]) == (1, "complete")
    assert outcome.message() is None and outcome.caption().startswith("solved by auto in ")


def test_a_puzzle_with_several_solutions_is_refused_only_when_unique_is_asked() -> None:
    outcome = solve(puzzle_of("1 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n"))
    assert outcome.status == "multiple" and outcome.shown() and not outcome.shown(unique=True)
    assert outcome.record(unique=True)["solution"] is None
    assert outcome.message() == (
        "more than one solution (2 found before stopping): the first one found is printed"
    )
    assert str(outcome.message(unique=True)).endswith("refused by --unique")
    assert outcome.drawn(unique=True) is None and outcome.caption(unique=True) == (
        "multiple: the givens are shown"
    )


def test_chain_outcomes_record_their_figures() -> None:
    metropolis = solve(puzzle_of(SHIDOKU), "metropolis", Options(seed=4))
    assert isinstance(metropolis.result, ChainResult) and metropolis.result.seed == 4
    assert list(metropolis.record()) == HEAD + CHAIN
    hybrid = solve(puzzle_of(SHIDOKU), "hybrid", Options(seed=4))
    assert hybrid.pruned and list(hybrid.record()) == [*HEAD, "forced", *CHAIN]
    assert isinstance(hybrid.result, ChainResult)
    assert hybrid.record()["forced"] == hybrid.result.forced
    tempering = solve(puzzle_of(SHIDOKU), "tempering", Options(seed=4))
    assert isinstance(tempering.result, TemperingResult)
    assert list(tempering.record()) == [*HEAD, "forced", *CHAIN, "ladder", "exchange_rates"]
    unpruned = solve(puzzle_of(SHIDOKU), "tempering", Options(seed=4, prune=False))
    assert "forced" not in unpruned.record()


def test_pruning_that_proves_no_solution_records_only_forced_and_stop() -> None:
    outcome = solve(puzzle_of(IMPOSSIBLE), "hybrid")
    assert outcome.status == "none" and outcome.values is None
    assert list(outcome.record()) == [*HEAD, "forced", "stop"]
    assert outcome.record()["stop"] == "propagation"
    assert outcome.message() == "no solution: the givens contradict each other (proved)"


def test_an_unsolved_chain_says_what_stopped_it_and_draws_its_best_state(data: Path) -> None:
    [puzzle] = read_puzzles(data / "sudoku9" / "norvig_top95.txt")[:1]
    outcome = solve(puzzle, "metropolis", Options(max_proposals=100))
    assert outcome.status == "unsolved" and outcome.drawn() is outcome.values
    assert str(outcome.message()).startswith(
        "unsolved: stopped by the proposal limit after 100 proposals; best energy "
    )
    assert outcome.caption().endswith("conflicts in red")


def test_runs_are_shown_by_the_first_answer_else_the_lowest_best_energy(data: Path) -> None:
    [solved] = solve_runs([puzzle_of(SHIDOKU)], "metropolis", Options(seed=7), runs=3)
    assert [o.record()["seed"] for o in solved.outcomes] == [7, 8, 9]
    assert solved.representative is solved.outcomes[0]
    assert solved.summary().startswith("3 of 3 runs solved, median ")
    puzzles = read_puzzles(data / "sudoku9" / "norvig_top95.txt")[:2]
    done: list[int] = []
    tried = solve_runs(puzzles, "metropolis", Options(max_proposals=50), 4, progress=done.append)
    assert done == list(range(1, 9)) and len(tried) == 2
    for runs in tried:
        energies = [o.record()["best_energy"] for o in runs.outcomes]
        assert runs.representative is runs.outcomes[energies.index(min(energies))]
        assert runs.summary() == "0 of 4 runs solved"


def test_a_tally_counts_statuses_part_by_part_in_the_order_they_first_appear() -> None:
    counted = Tally()
    counted.add(["solved", "unsolved"], 0.5)
    counted.add(np.array(["none", "none", "solved"]), 1.5)
    assert str(counted) == "5 puzzles: 2 solved, 1 unsolved, 2 none (2.000 s solving)"


@pytest.mark.parametrize(
    ("method", "settings", "message"),
    [
        ("exact", {"reheat": 5}, "--reheat steers a Monte-Carlo chain: add --method"),
        ("auto", {"moves": "row", "runs": 2}, "--moves, --runs steer a Monte-Carlo chain"),
        ("auto", {"plot": True}, "--plot steers"),
        ("metropolis", {"schedule": "ramp", "alpha": 0.9}, "not of a ramp schedule"),
        ("metropolis", {"beta_max": 8.0, "alpha": 0.9}, "--beta-max ends a ramp, not a"),
        ("metropolis", {"temperature": 0.3, "t0": 0.4}, "a schedule starts at --t0"),
        ("tempering", {"ladder": "0.3:0.2:0.05"}, "the ladder grid '0.3:0.2:0.05' is empty"),
    ],
)
def test_settings_that_do_not_fit_are_named(
    method: str, settings: dict[str, object], message: str
) -> None:
    with pytest.raises(NdokuError, match=message):
        solve_options(method, **settings)


def test_settings_become_options() -> None:
    assert solve_options("auto") == Options()
    options = solve_options("metropolis", alpha=0.99, trace=True, trace_every=50)
    assert options.schedule is not None and options.schedule.kind == "exponential"
    assert options.trace_every == 50 and solve_options("metropolis").trace_every == 0
    options = solve_options("tempering", ladder="0.2,0.3", max_proposals=9, max_nodes=3)
    assert (options.ladder, options.max_proposals, options.max_nodes) == ((0.2, 0.3), 9, 3)
    reheating = solve_options("metropolis", reheat=100).schedule
    assert reheating is not None and reheating.kind == "constant"


def test_counts_say_whether_a_limit_cut_them_short(data: Path) -> None:
    [open4] = count_all([puzzle_of("1 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n")], Options(limit=5))
    assert (open4.text(), open4.certain, open4.record()["at_least"]) == ("≥5", True, True)
    [single] = count_all([puzzle_of(SHIDOKU)])
    assert single.text() == "1" and single.record()["at_least"] is False
    hardest = read_puzzles(data / "sudoku9" / "forum_hardest_1106_first40.txt")[:1]
    [cut] = count_all(hardest, Options(max_nodes=1))
    assert not cut.certain and cut.text() == f"≥{cut.result.count} (node limit)"
    keys = ["count", "at_least", "limit", "nodes", "guesses", "stop", "seconds"]
    assert list(cut.record()) == keys
