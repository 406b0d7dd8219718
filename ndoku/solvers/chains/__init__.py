"""Monte-Carlo chains: Metropolis with box, row or single-site moves, and parallel tempering.

Each module has one job, and the ones below it never import the ones above:

- :mod:`.checks`: the argument checks the chains share;
- :mod:`.fill`: the dive a pruned chain's start state begins with;
- :mod:`.broken`: how broken each constraint of a puzzle's rules is, in the energy;
- :mod:`.moves`: swap move sets, what their kernels work on, start states and energies;
- :mod:`.sites`: the same for single-site moves;
- :mod:`.schedule`: default temperatures and temperature schedules;
- :mod:`.kernels`: the jitted proposal loops and their acceptance tables;
- :mod:`.restarts`: when a chain starts again from a fresh state;
- :mod:`.display`: how a chain's result shows itself in Jupyter;
- :mod:`.metropolis`: one chain under a schedule, until solved or a limit;
- :mod:`.replicas`: the replicas of tempering, their rounds and exchanges;
- :mod:`.tempering`: replicas on a ladder of temperatures, exchanging states;
- :mod:`.climb`: random-restart hill climbing, the box-swap chain at T = 0;
- :mod:`.hybrid`: hybrid's exact search on a budget, before its pruned chain.

The names most callers need are here.
"""

from __future__ import annotations

from ndoku.solvers.chains.climb import ClimbResult, hillclimb
from ndoku.solvers.chains.metropolis import TRACE_COLUMNS, ChainResult, metropolis
from ndoku.solvers.chains.moves import MOVES, default_moves, pruned
from ndoku.solvers.chains.restarts import RESTARTS, Restarts, default_restarts
from ndoku.solvers.chains.schedule import (
    SCHEDULES,
    Schedule,
    default_temperature,
    puzzle_temperature,
    units_per_cell,
)
from ndoku.solvers.chains.tempering import (
    DEFAULT_EXCHANGE_EVERY,
    TemperingResult,
    default_ladder,
    geometric_ladder,
    tempering,
)

__all__ = [
    "DEFAULT_EXCHANGE_EVERY",
    "MOVES",
    "RESTARTS",
    "SCHEDULES",
    "TRACE_COLUMNS",
    "ChainResult",
    "ClimbResult",
    "Restarts",
    "Schedule",
    "TemperingResult",
    "default_ladder",
    "default_moves",
    "default_restarts",
    "default_temperature",
    "geometric_ladder",
    "hillclimb",
    "metropolis",
    "pruned",
    "puzzle_temperature",
    "tempering",
    "units_per_cell",
]
