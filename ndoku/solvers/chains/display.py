"""A chain's result shown in Jupyter: its figures, and its energy trace as an inline SVG chart.

:class:`~.metropolis.ChainResult` (so every chain's result: tempering's, hill climbing's)
shows itself by :func:`chain_html` (IPython's ``_repr_html_``). The trace is the one the
result holds, kept only when the chain was asked for one (``trace_every``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ndoku.text import html
from ndoku.text.words import plural

if TYPE_CHECKING:
    from ndoku.solvers.chains.metropolis import ChainResult

#: How each way a chain stops reads in the title.
STOPS = {
    "solved": "solved",
    "max-proposals": "unsolved: stopped by the proposal limit",
    "timeout": "unsolved: stopped by the timeout",
    "stopped": "unsolved: stopped by the one who watched it",
    "stuck": "unsolved: no move is possible",
    "propagation": "no solution: pruning found the givens contradict each other",
    "search": "solved by the exact search, before the chain ran",
}


def chain_html(result: ChainResult) -> str:
    """The figures of a Monte-Carlo run and, when it was traced, its energy against proposals.

    Parameters
    ----------
    result : ChainResult
        What :func:`~ndoku.solvers.chains.metropolis`, :func:`~ndoku.solvers.chains.tempering`
        or :func:`~ndoku.solvers.chains.hillclimb` returned.

    Returns
    -------
    str
        An HTML block: the title (how the chain stopped), a table of figures, and the trace's
        energy as an SVG polyline (or a note that the run kept no trace).

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> from ndoku.solvers.chains import metropolis
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> shown = metropolis(p, seed=1, trace_every=1)._repr_html_()
    >>> "<polyline" in shown, "<strong>solved</strong>" in shown
    (True, True)
    """
    from ndoku.solvers.chains.climb import ClimbResult
    from ndoku.solvers.chains.tempering import TemperingResult

    stop = STOPS.get(result.stop, result.stop)
    head = html.title(stop, f"{plural(result.proposals, 'proposal', ',')}, seed {result.seed}")
    taken = result.acceptances / max(result.proposals, 1)
    per_second = result.proposals / result.seconds if result.seconds else 0.0
    rows = [
        ("moves", result.moves),
        ("schedule", result.schedule),
        ("temperature", f"{result.temperature:g} (at the end)"),
        ("proposals", html.number(result.proposals)),
        ("acceptances", f"{html.number(result.acceptances)} ({taken:.1%})"),
        ("energy", f"{result.energy} (0 is solved)"),
        ("best energy", f"{result.best_energy}, first at proposal {result.best_at:,}"),
        ("seconds", f"{result.seconds:.3f} ({html.number(round(per_second))} proposals a second)"),
        ("seed", str(result.seed)),
        ("restarts", str(result.restarts)),
    ]
    if result.forced:
        rows.append(("forced by pruning", plural(result.forced, "cell", ",")))
    if result.ladder:
        rows.append(("ladder", ", ".join(f"{t:g}" for t in result.ladder)))
    if isinstance(result, TemperingResult) and result.exchange_rates:
        rates = ("never tried" if math.isnan(r) else f"{r:.0%}" for r in result.exchange_rates)
        rows.append(("exchanges taken", ", ".join(rates)))
    if isinstance(result, ClimbResult):
        rows.append(("plateau", plural(result.plateau, "proposal", ",")))
    trace = result.trace
    if len(trace):
        drawn = html.chart(trace[:, 0], trace[:, 1], "proposal", "energy")
    else:
        drawn = html.note("No trace: the chain keeps one when asked (trace_every > 0).")
    return html.block(head, html.figures(rows), drawn)
