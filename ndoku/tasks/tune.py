"""Temperature scans: which temperature (or cooling rate) solves puzzles fastest?

Glossary
--------
grid
    The settings a scan tries: temperatures (and cooling rates), each a list of numbers
    (:func:`~ndoku.text.numbers.parse_numbers`).
setting
    One point of the grid: a constant temperature T, or an exponential schedule (T0, α).
run
    One chain on one puzzle at one setting, with its own seed; it solves the puzzle or stops
    at the proposal or time limit.
summary
    Per setting: the share of runs that solved (with a Wilson 95% interval), and the mean and
    median seconds and proposals of the runs that solved (with bootstrap 95% intervals).
fit
    A quadratic through mean seconds against the scanned value; its minimum is the classic
    "best temperature" figure (the textbook finds T≈0.39 for single-site moves on 9×9).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import NdokuError
from ndoku.limits import TUNE_TEMPERATURES
from ndoku.model.puzzle import Puzzle
from ndoku.solvers.chains import ChainResult, Schedule, puzzle_temperature
from ndoku.solvers.random import generator
from ndoku.tasks.solve import Options, solve
from ndoku.text.numbers import parse_numbers

FloatArray = NDArray[np.float64]
#: Resamples of the bootstrap intervals; their seed is fixed so a report can be repeated.
BOOTSTRAP = 2000
_Z95 = 1.959963984540054


@dataclass(frozen=True)
class Setting:
    """A point of a scan: constant ``temperature``, or exponential cooling from it by ``alpha``."""

    temperature: float
    alpha: float | None = None

    def value(self, parameter: str) -> float:
        """The value of ``parameter``: ``alpha``, else the temperature (T, or T0 when cooling)."""
        if parameter != "alpha":
            return self.temperature
        if self.alpha is None:
            raise NdokuError("a constant-temperature setting has no alpha")
        return self.alpha

    def options(self, base: Options, seed: int) -> Options:
        """``base`` with this setting's temperature or schedule and ``seed``."""
        if self.alpha is None:
            return replace(base, seed=seed, temperature=self.temperature, schedule=None)
        schedule = Schedule(kind="exponential", t0=self.temperature, alpha=self.alpha)
        return replace(base, seed=seed, temperature=None, schedule=schedule)


def settings_of(
    temperatures: Sequence[float], alphas: Sequence[float] | None = None
) -> list[Setting]:
    """Every pair of a temperature (T, or T0 when cooling) and an α (none: constant T)."""
    if not temperatures:
        raise NdokuError("the temperature grid is empty")
    for t in temperatures:
        if not (math.isfinite(t) and t > 0):
            raise NdokuError(f"temperatures must be positive numbers, got {t:g}")
    if alphas is None:
        return [Setting(t) for t in temperatures]
    if not alphas:
        raise NdokuError("the alpha grid is empty")
    for a in alphas:
        if not 0 < a <= 1:
            raise NdokuError(f"alpha must lie in (0, 1], got {a:g}")
    return [Setting(t, a) for t in temperatures for a in alphas]


@dataclass(frozen=True)
class Grid:
    """The settings of a scan: every temperature (T, or T0 when cooling) with every cooling
    rate (none: constant T).

    The scan runs along the cooling rates when there are several, else along the
    temperatures; a fit and a plot need one of the two fixed (:attr:`one_axis`).
    """

    temperatures: tuple[float, ...]
    alphas: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        settings_of(self.temperatures, self.alphas)  # refuses what no chain can run

    @property
    def settings(self) -> list[Setting]:
        """Every setting, temperature by temperature (see :func:`settings_of`)."""
        return settings_of(self.temperatures, self.alphas)

    @property
    def one_axis(self) -> bool:
        """True when only one of the temperatures and the cooling rates varies."""
        return self.alphas is None or len(self.alphas) == 1 or len(self.temperatures) == 1

    @property
    def parameter(self) -> str:
        """``alpha`` when several cooling rates are tried, else ``temperature``."""
        return "alpha" if self.alphas is not None and len(self.alphas) > 1 else "temperature"

    @property
    def name(self) -> str:
        """The parameter as the table and the fit write it: ``alpha``, ``T0`` or ``T``."""
        if self.parameter == "alpha":
            return "alpha"
        return "T" if self.alphas is None else "T0"

    def values(self, summaries: Sequence[Summary]) -> list[float]:
        """The value of the parameter at each summary's setting."""
        return [s.setting.value(self.parameter) for s in summaries]

    def fit(self, summaries: Sequence[Summary]) -> Fit | None:
        """The quadratic fit of mean seconds along the parameter (None unless one axis)."""
        if not self.one_axis:
            return None
        return fit_minimum(self.values(summaries), [s.mean_seconds.value for s in summaries])


def grid_of(
    temperatures: str | None,
    alphas: str | None,
    puzzle: Puzzle,
    moves: str = "box",
    method: str = "metropolis",
) -> Grid:
    """The grid ``ndoku tune`` asks for, each list written as for
    :func:`~ndoku.text.numbers.parse_numbers`.

    Without temperatures: :data:`~ndoku.limits.TUNE_TEMPERATURES`, or when cooling, the
    temperature ``moves`` start from on ``puzzle`` (pruned for ``hybrid``).

    >>> from ndoku.tasks.generate import layout_puzzle
    >>> grid = grid_of(None, "0.99,0.999", layout_puzzle("9x9"))
    >>> grid.temperatures, grid.parameter, grid.name, len(grid.settings)
    ((0.3,), 'alpha', 'alpha', 2)
    """
    rates = None if alphas is None else tuple(parse_numbers(alphas, "alpha"))
    if temperatures is not None:
        values = tuple(parse_numbers(temperatures))
    elif rates is None:
        values = tuple(parse_numbers(TUNE_TEMPERATURES))
    else:
        values = (puzzle_temperature(puzzle, moves, pruned=method == "hybrid"),)
    return Grid(values, rates)


@dataclass(frozen=True)
class Run:
    """One chain: which setting, puzzle and seed, and what it did."""

    setting: Setting
    puzzle: int
    seed: int
    solved: bool
    seconds: float
    proposals: int


@dataclass(frozen=True)
class Interval:
    """An estimate with its 95% interval (``nan`` where there is nothing to estimate)."""

    value: float
    low: float
    high: float

    def text(self, write: Callable[[float], str]) -> str:
        """``value [low, high]``, each written by ``write``; ``-`` when there is no estimate."""
        if math.isnan(self.value):
            return "-"
        return f"{write(self.value)} [{write(self.low)}, {write(self.high)}]"

    def record(self) -> list[float | None]:
        """``[value, low, high]`` for JSON, with None for nan."""
        return [None if math.isnan(v) else round(v, 6) for v in (self.value, self.low, self.high)]


@dataclass(frozen=True)
class Summary:
    """What the runs of one setting did (times and proposals over the runs that solved)."""

    setting: Setting
    runs: int
    solved: int
    success: Interval
    mean_seconds: Interval
    median_seconds: Interval
    mean_proposals: Interval
    median_proposals: Interval

    def record(self) -> dict[str, object]:
        """The summary as a JSON object: intervals as ``[value, low, high]``."""
        return {
            "temperature": self.setting.temperature,
            "alpha": self.setting.alpha,
            "runs": self.runs,
            "solved": self.solved,
            "success": self.success.record(),
            "mean_seconds": self.mean_seconds.record(),
            "median_seconds": self.median_seconds.record(),
            "mean_proposals": self.mean_proposals.record(),
            "median_proposals": self.median_proposals.record(),
        }


def scan(
    puzzles: Sequence[Puzzle],
    settings: Sequence[Setting],
    runs: int,
    method: str = "metropolis",
    base: Options | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[Run]:
    """Run every setting ``runs`` times on every puzzle, seeds ``base.seed`` upwards.

    Run ``r`` of every setting and puzzle uses seed ``base.seed + r``, so settings are
    compared on the same starting states.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> done = scan([p], settings_of([0.25, 0.5]), runs=3)
    >>> len(done), all(run.solved for run in done)
    (6, True)
    """
    if runs < 1:
        raise NdokuError(f"runs must be 1 or more, got {runs}")
    if method not in ("metropolis", "hybrid"):
        raise NdokuError(f"a scan runs a chain at each setting: metropolis or hybrid, not {method}")
    base = base or Options()
    done: list[Run] = []
    for setting in settings:
        for number, puzzle in enumerate(puzzles):
            for r in range(runs):
                seed = base.seed + r
                outcome = solve(puzzle, method, setting.options(base, seed))
                result = outcome.result
                # a chain's; pruning that proves there is no solution leaves it at 0
                proposals = result.proposals if isinstance(result, ChainResult) else 0
                done.append(
                    Run(setting, number, seed, outcome.answered, outcome.seconds, proposals)
                )
                if progress is not None:
                    progress(len(done))
    return done


def summarize(done: Sequence[Run]) -> list[Summary]:
    """One summary per setting, in the order the settings first appear.

    >>> runs = [Run(Setting(0.3), 0, s, s < 3, 0.1 * (s + 1), 100 * (s + 1)) for s in range(4)]
    >>> [summary] = summarize(runs)
    >>> summary.solved, summary.runs, round(summary.mean_seconds.value, 3)
    (3, 4, 0.2)
    """
    by_setting: dict[Setting, list[Run]] = {}
    for run in done:
        by_setting.setdefault(run.setting, []).append(run)
    summaries = []
    for setting, runs in by_setting.items():
        solved = [run for run in runs if run.solved]
        seconds = np.array([run.seconds for run in solved], dtype=np.float64)
        proposals = np.array([run.proposals for run in solved], dtype=np.float64)
        summaries.append(
            Summary(
                setting,
                len(runs),
                len(solved),
                wilson(len(solved), len(runs)),
                bootstrap(seconds, np.mean),
                bootstrap(seconds, np.median),
                bootstrap(proposals, np.mean),
                bootstrap(proposals, np.median),
            )
        )
    return summaries


def wilson(successes: int, trials: int) -> Interval:
    """The share of successes with its Wilson score 95% interval.

    >>> i = wilson(19, 20)
    >>> round(i.value, 2), round(i.low, 3), round(i.high, 3)
    (0.95, 0.764, 0.991)
    """
    if trials == 0:
        return Interval(math.nan, math.nan, math.nan)
    p = successes / trials
    z2 = _Z95**2
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = _Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials**2)) / (1 + z2 / trials)
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def bootstrap(sample: FloatArray, statistic: Callable[..., np.floating]) -> Interval:
    """``statistic`` of ``sample`` with a percentile bootstrap 95% interval (fixed seed).

    >>> i = bootstrap(np.arange(1.0, 101.0), np.median)
    >>> i.value, i.low < 50.5 < i.high
    (50.5, True)
    """
    if len(sample) == 0:
        return Interval(math.nan, math.nan, math.nan)
    value = float(statistic(sample))
    rng = generator(0)  # the same resamples every run
    resamples = sample[rng.integers(0, len(sample), size=(BOOTSTRAP, len(sample)))]
    estimates = statistic(resamples, axis=1)
    low, high = np.percentile(estimates, [2.5, 97.5])
    return Interval(value, float(low), float(high))


@dataclass(frozen=True)
class Fit:
    """``seconds ≈ a·x² + b·x + c`` over the scanned values; ``best`` is its minimum, if any."""

    a: float
    b: float
    c: float
    best: float | None

    def at(self, x: FloatArray) -> FloatArray:
        return (self.a * x + self.b) * x + self.c

    def record(self, name: str) -> dict[str, object]:
        """The fit as a JSON object; ``name`` is the scanned parameter."""
        return {"parameter": name, "a": self.a, "b": self.b, "c": self.c, "minimum": self.best}


def fit_minimum(xs: Sequence[float], seconds: Sequence[float]) -> Fit | None:
    """Fit a quadratic to mean seconds; its minimum when it opens upwards inside the grid.

    Settings without a solved run (``nan`` seconds) are left out; fewer than three points
    give no fit.

    >>> fit = fit_minimum([0.2, 0.3, 0.4, 0.5], [1.225, 1.025, 1.025, 1.225])
    >>> round(fit.best, 3)
    0.35
    """
    x = np.asarray(xs, dtype=np.float64)
    y = np.asarray(seconds, dtype=np.float64)
    keep = np.isfinite(y)
    if np.unique(x[keep]).size < 3:
        return None
    a, b, c = np.polyfit(x[keep], y[keep], 2)
    best = -b / (2 * a) if a > 0 else None
    if best is not None and not x[keep].min() <= best <= x[keep].max():
        best = None
    return Fit(float(a), float(b), float(c), None if best is None else float(best))


def table(summaries: Sequence[Summary]) -> str:
    """One aligned line per setting: its values, solved runs, success and times (95% intervals).

    Times are written in the unit that suits the slowest setting, proposals with k, M or G.

    >>> runs = [Run(Setting(0.3), 0, s, True, 0.01 * (s + 1), 1000 * (s + 1)) for s in range(3)]
    >>> print("\\n".join(line[:45].rstrip() for line in table(summarize(runs)).splitlines()))
    T    solved  success [95%]      mean ms [95%]
    0.3  3/3     1.00 [0.44, 1.00]  20 [10, 30]
    """
    cooling = any(s.setting.alpha is not None for s in summaries)
    unit, scale = _time_unit([s.mean_seconds.value for s in summaries])
    head = ["T0", "alpha"] if cooling else ["T"]
    head += ["solved", "success [95%]", f"mean {unit} [95%]", f"median {unit} [95%]"]
    head += ["median proposals [95%]"]
    rows = [head]
    for s in summaries:
        row = [f"{s.setting.temperature:g}"] + ([f"{s.setting.alpha:g}"] if cooling else [])
        row += [
            f"{s.solved}/{s.runs}",
            s.success.text(lambda x: f"{x:.2f}"),
            s.mean_seconds.text(lambda x: f"{x / scale:.3g}"),
            s.median_seconds.text(lambda x: f"{x / scale:.3g}"),
            s.median_proposals.text(_count),
        ]
        rows.append(row)
    widths = [max(len(row[k]) for row in rows) for k in range(len(head))]
    lines = ("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in rows)
    return "\n".join(line.rstrip() for line in lines)


def _time_unit(seconds: Sequence[float]) -> tuple[str, float]:
    """``(unit, seconds per unit)`` for times up to the largest of ``seconds``."""
    largest = max((x for x in seconds if not math.isnan(x)), default=1.0)
    for unit, scale in (("s", 1.0), ("ms", 1e-3)):
        if largest >= scale:
            return unit, scale
    return "µs", 1e-6


def _count(x: float) -> str:
    """A count in 3 digits: 950, 1.92k, 20.7k, 16M."""
    for suffix, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= scale:
            return f"{x / scale:.3g}{suffix}"
    return f"{x:.3g}"


def fit_line(fit: Fit | None, name: str) -> str:
    """The fit in words: where its minimum lies, and its coefficients."""
    if fit is None:
        return "no quadratic fit: it needs one swept value with three or more solved settings"
    where = (
        "no minimum inside the grid" if fit.best is None else f"minimum at {name} = {fit.best:.4g}"
    )
    return f"quadratic fit of mean seconds: {where} (a={fit.a:.4g}, b={fit.b:.4g}, c={fit.c:.4g})"
