"""Scan statistics: settings, Wilson and bootstrap intervals, the quadratic fit, scans."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ndoku.errors import NdokuError
from ndoku.model.puzzle import read_puzzles
from ndoku.tasks.solve import Options
from ndoku.tasks.tune import (
    Grid,
    Run,
    Setting,
    bootstrap,
    fit_minimum,
    grid_of,
    scan,
    settings_of,
    summarize,
    wilson,
)

EASY4 = "1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n"


def test_bad_settings() -> None:
    with pytest.raises(NdokuError, match="positive"):
        settings_of([0.2, -0.1])
    with pytest.raises(NdokuError, match="empty"):
        settings_of([])
    with pytest.raises(NdokuError, match=r"\(0, 1\]"):
        settings_of([1.0], [0.99, 1.5])
    with pytest.raises(NdokuError, match=r"\(0, 1\]"):
        settings_of([1.0], [0.0])
    assert settings_of([0.5, 1.0], [0.9, 1.0])[1] == Setting(0.5, 1.0)


@pytest.mark.parametrize(("successes", "trials"), [(0, 10), (3, 10), (19, 20), (20, 20), (1, 1)])
def test_wilson_bounds_solve_the_score_equation(successes: int, trials: int) -> None:
    # The Wilson bounds are the p where the observed share is z standard errors away.
    interval = wilson(successes, trials)
    share = successes / trials
    for p in (interval.low, interval.high):
        if 0 < p < 1:
            z = abs(share - p) / math.sqrt(p * (1 - p) / trials)
            assert z == pytest.approx(1.959964, rel=1e-6)
    assert interval.low <= share <= interval.high
    assert math.isnan(wilson(0, 0).value)


def test_bootstrap_interval_matches_the_normal_theory_width() -> None:
    sample = np.random.default_rng(5).normal(10.0, 2.0, size=400)
    interval = bootstrap(sample, np.mean)
    assert interval.value == pytest.approx(sample.mean())
    assert interval.low < 10.0 < interval.high
    width = 2 * 1.96 * sample.std(ddof=1) / math.sqrt(len(sample))
    assert interval.high - interval.low == pytest.approx(width, rel=0.15)
    assert bootstrap(sample, np.mean) == interval  # seeded: repeatable
    assert math.isnan(bootstrap(np.zeros(0), np.median).value)


def test_quadratic_fit_finds_the_vertex() -> None:
    xs = [0.15, 0.2, 0.25, 0.3, 0.35, 0.4]
    fit = fit_minimum(xs, [3 * (x - 0.27) ** 2 + 0.5 for x in xs])
    assert fit is not None and fit.best == pytest.approx(0.27)
    assert fit.a == pytest.approx(3.0)
    # a fit that opens downwards, a vertex outside the grid, or too few points: no minimum
    hump = fit_minimum(xs, [-((x - 0.27) ** 2) for x in xs])
    assert hump is not None and hump.best is None
    edge = fit_minimum(xs, [(x - 0.9) ** 2 for x in xs])
    assert edge is not None and edge.best is None
    assert fit_minimum(xs, [1.0, math.nan, math.nan, math.nan, math.nan, 2.0]) is None


def test_summaries_count_solved_runs_only_in_times() -> None:
    runs = [Run(Setting(0.3), 0, s, s != 1, 1.0 + s, 10 * (s + 1)) for s in range(3)]
    runs += [Run(Setting(0.4), 0, s, False, 5.0, 100) for s in range(2)]
    hot, cold = summarize(runs)
    assert (hot.solved, hot.runs) == (2, 3)
    assert hot.mean_seconds.value == pytest.approx(2.0)  # runs 0 and 2: 1 s and 3 s
    assert hot.median_proposals.value == pytest.approx(20.0)
    assert cold.solved == 0 and math.isnan(cold.mean_seconds.value)
    assert cold.record()["mean_seconds"] == [None, None, None]


def test_a_scan_runs_every_setting_with_the_same_seeds() -> None:
    [puzzle] = read_puzzles(text=EASY4)
    done = scan([puzzle, puzzle], settings_of([0.2, 0.4]), 3, base=Options(seed=10))
    assert len(done) == 12 and all(run.solved for run in done)
    assert [run.seed for run in done[:6]] == [10, 11, 12, 10, 11, 12]
    again = scan([puzzle], settings_of([0.2]), 3, base=Options(seed=10))
    assert [r.proposals for r in again] == [r.proposals for r in done[:3]]
    with pytest.raises(NdokuError, match="chain"):
        scan([puzzle], settings_of([0.2]), 1, method="exact")
    with pytest.raises(NdokuError, match="runs"):
        scan([puzzle], settings_of([0.2]), 0)


def test_a_grid_runs_along_the_one_value_that_varies() -> None:
    [puzzle] = read_puzzles(text=EASY4)
    constant = grid_of("0.2:0.3:0.05", None, puzzle)
    assert constant.temperatures == (0.2, 0.25, 0.3) and constant.alphas is None
    assert (constant.parameter, constant.name, constant.one_axis) == ("temperature", "T", True)
    starts = grid_of("0.2,0.3", "0.99", puzzle)
    assert (starts.parameter, starts.name, starts.one_axis) == ("temperature", "T0", True)
    rates = grid_of(None, "0.9,0.99", puzzle, "single")
    assert len(rates.temperatures) == 1 and (rates.parameter, rates.name) == ("alpha", "alpha")
    both = Grid((0.2, 0.3), (0.9, 0.99))
    assert not both.one_axis and len(both.settings) == 4
    runs = [Run(setting, 0, 0, True, 1.0, 10) for setting in both.settings]
    assert both.fit(summarize(runs)) is None
    assert len(grid_of(None, None, puzzle).temperatures) == 15
    with pytest.raises(NdokuError, match="positive"):
        Grid((0.2, -0.1))
