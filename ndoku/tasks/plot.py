"""Seeing the chain: energy traces as CSV and PNG, and the figure of a temperature scan.

Plots need matplotlib (the plot extra: ``pip install matplotlib``, or in ndoku's clone
``pip install -e '.[plot]'``); everything else here does not.

Glossary
--------
trace
    Rows of (proposal, energy, temperature, acceptance rate) a chain wrote every few
    proposals (``ndoku.solvers.chains.metropolis.TRACE_COLUMNS``).
labelled trace
    A trace with the file and seed of its run, so several runs share one CSV or plot.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import MissingExtra, NdokuError
from ndoku.picture.files import written
from ndoku.solvers.chains.metropolis import TRACE_COLUMNS, ChainResult
from ndoku.tasks.solve import Outcome
from ndoku.tasks.tune import Fit, Summary


@dataclass(frozen=True, eq=False)
class LabelledTrace:
    """One run's trace, with where it came from."""

    file: str
    seed: int
    rows: NDArray[np.float64]


def labelled_traces(file: str, outcomes: Iterable[Outcome]) -> list[LabelledTrace]:
    """The traces of the chains among ``outcomes`` that kept one, each labelled ``file`` and
    its seed."""
    return [
        LabelledTrace(file, outcome.result.seed, outcome.trace)
        for outcome in outcomes
        if outcome.trace is not None and isinstance(outcome.result, ChainResult)
    ]


def write_trace_csv(traces: Sequence[LabelledTrace], path: str | Path) -> None:
    """Write ``file, seed`` and the trace columns, one row per traced point.

    >>> import io, tempfile, os
    >>> rows = np.array([[0, 12, 0.25, 0.0], [100, 3, 0.25, 0.4]])
    >>> with tempfile.TemporaryDirectory() as d:
    ...     write_trace_csv([LabelledTrace("a.txt", 7, rows)], os.path.join(d, "t.csv"))
    ...     print(open(os.path.join(d, "t.csv")).read().splitlines()[1])
    a.txt,7,0,12,0.25,0
    """
    try:
        with written(path) as partial, open(partial, "w", newline="") as out:
            writer = csv.writer(out)
            writer.writerow(("file", "seed", *TRACE_COLUMNS))
            for trace in traces:
                for proposal, energy, temperature, acceptance in trace.rows:
                    writer.writerow(
                        (
                            trace.file,
                            trace.seed,
                            int(proposal),
                            int(energy),
                            f"{temperature:.6g}",
                            # the first row has no proposals behind it: no rate
                            "" if np.isnan(acceptance) else f"{acceptance:.6g}",
                        )
                    )
    except OSError as exc:
        raise NdokuError(f"cannot write the trace to {path}: {exc.strerror}") from exc


def pyplot() -> Any:
    """matplotlib's pyplot on a file-only backend, or a clear error when it is missing."""
    try:
        import matplotlib
    except ImportError:
        raise MissingExtra.of("plots", "plot", ["matplotlib"]) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_traces(traces: Sequence[LabelledTrace], path: str | Path, title: str = "") -> None:
    """Energy against proposals, one line per run, saved as an image (PNG by its suffix)."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.5), layout="constrained")
    files = {trace.file for trace in traces}
    for trace in traces:
        label = f"seed {trace.seed}" if len(files) == 1 else f"{trace.file}, seed {trace.seed}"
        # energy 0 cannot show on a log axis: draw E + 1
        ax.step(trace.rows[:, 0], trace.rows[:, 1] + 1, where="post", label=label, lw=1)
    ax.set_yscale("log")
    ax.set_xlabel("proposals")
    ax.set_ylabel("energy + 1")
    ax.set_title(title or "Energy of the chain")
    ax.grid(alpha=0.3)
    if len(traces) <= 12:
        ax.legend(fontsize="small")
    _save(fig, path)


def plot_scan(
    summaries: Sequence[Summary],
    xs: Sequence[float],
    xlabel: str,
    fit: Fit | None,
    path: str | Path,
    *,
    xscale: str = "linear",
    title: str = "",
) -> None:
    """Mean seconds (95% interval) and success rate against the scanned value, with the fit.

    ``xscale`` is a matplotlib scale: ``logit`` spreads cooling rates such as 0.99, 0.999.
    """
    plt = pyplot()
    fig, (top, bottom) = plt.subplots(
        2, 1, figsize=(7, 6), sharex=True, layout="constrained", height_ratios=(2, 1)
    )
    x = np.asarray(xs, dtype=np.float64)
    mean = np.array([s.mean_seconds.value for s in summaries])
    low = np.array([s.mean_seconds.low for s in summaries])
    high = np.array([s.mean_seconds.high for s in summaries])
    top.errorbar(x, mean, yerr=[mean - low, high - mean], fmt="o", capsize=3, label="mean time")
    if fit is not None:
        dense = np.linspace(x.min(), x.max(), 200)
        label = "quadratic fit" + ("" if fit.best is None else f", minimum at {fit.best:.3g}")
        top.plot(dense, fit.at(dense), "-", label=label)
    top.set_ylabel("seconds to solve")
    top.set_title(title)
    top.legend(fontsize="small")
    top.grid(alpha=0.3)
    success = np.array([s.success.value for s in summaries])
    s_low = np.array([s.success.low for s in summaries])
    s_high = np.array([s.success.high for s in summaries])
    bottom.errorbar(x, success, yerr=[success - s_low, s_high - success], fmt="s", capsize=3)
    bottom.set_ylim(-0.05, 1.05)
    bottom.set_ylabel("solved")
    bottom.set_xlabel(xlabel)
    bottom.set_xscale(xscale)
    bottom.grid(alpha=0.3)
    _save(fig, path)


def _save(fig: Any, path: str | Path) -> None:
    try:
        with written(path) as partial:
            fig.savefig(partial, dpi=110)
    except (OSError, ValueError) as exc:
        raise NdokuError(f"cannot save the plot to {path}: {exc}") from exc
    finally:
        pyplot().close(fig)
