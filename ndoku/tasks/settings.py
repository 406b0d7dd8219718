"""Options from the solve command's settings: which go with which method, and the schedule.

Each setting is named by its option in the errors (``--reheat steers a Monte-Carlo chain``),
since these are the settings a person typed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ndoku.errors import NdokuError
from ndoku.limits import DEFAULT_TIMEOUT, DEFAULT_TRACE_EVERY
from ndoku.solvers.chains import Restarts, Schedule
from ndoku.tasks.solve import CHAIN_METHODS, EXACT_METHODS, Options
from ndoku.text.numbers import parse_numbers


def solve_options(
    method: str,
    *,
    seed: int = 0,
    temperature: float | None = None,
    moves: str = "box",
    max_proposals: int | None = None,
    schedule: str | None = None,
    t0: float | None = None,
    alpha: float | None = None,
    beta_max: float | None = None,
    reheat: int = 0,
    ladder: str | None = None,
    replicas: int | None = None,
    exchange_every: int | None = None,
    prune: bool = True,
    runs: int = 1,
    trace: bool = False,
    plot: bool = False,
    trace_every: int = DEFAULT_TRACE_EVERY,
    timeout: float = DEFAULT_TIMEOUT,
    max_nodes: int | None = None,
    propagation: str | None = None,
    branching: str | None = None,
    plateau: int | None = None,
    restarts: str | None = None,
    restart_unit: int | None = None,
) -> Options:
    """The :class:`~ndoku.tasks.solve.Options` that ``ndoku solve``'s settings ask of ``method``.

    Settings that steer a chain are refused for the exact methods; the schedule is built
    from its kind, ``t0``, ``alpha``, ``beta_max`` and ``reheat`` (none of them: the constant
    chain). The method-specific checks stay with the method (:func:`~ndoku.tasks.solve.solve`).

    Parameters
    ----------
    method : str
        One of :data:`~ndoku.tasks.solve.METHODS`.
    schedule : str, optional
        The schedule's kind [default: exponential with ``alpha``, ramp with ``beta_max``,
        else constant].
    ladder : str, optional
        Tempering rungs as written (:func:`~ndoku.text.numbers.parse_numbers`).
    runs : int
        Seeds each puzzle is solved with (only checked here: see ``solve_runs``).
    trace, plot : bool
        A trace CSV or a plot of the energy is asked for: the chain then records a row every
        ``trace_every`` proposals.
    max_proposals, max_nodes : int, optional
        [default: those of ``Options``].
    propagation, branching : str, optional
        The exact search's (:mod:`ndoku.solvers.study`); refused for the other methods even
        when they name ndoku's own [default: ``full`` and ``mrv``].
    plateau : int, optional
        Hill climbing's proposals without progress before a restart [default: by size].
    restarts, restart_unit : str or int, optional
        A chain's restart strategy (:data:`~ndoku.solvers.chains.RESTARTS`) and the
        proposals of its shortest run [default: the method's strategy; by free cells].
    seed, temperature, moves, replicas, exchange_every, prune, timeout
        As in ``Options``.

    Examples
    --------
    >>> solve_options("metropolis", alpha=0.999).schedule.kind
    'exponential'
    >>> solve_options("exact", reheat=5)  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    NdokuError: --reheat steers a Monte-Carlo chain: add --method metropolis, hybrid or tempering
    """
    chain_asked = {
        "--moves": moves != "box",
        "--schedule": schedule is not None,
        "--t0": t0 is not None,
        "--alpha": alpha is not None,
        "--beta-max": beta_max is not None,
        "--reheat": reheat > 0,
        "--ladder": ladder is not None,
        "--replicas": replicas is not None,
        "--exchange-every": exchange_every is not None,
        "--no-prune": not prune,
        "--restarts": restarts is not None,
        "--restart-unit": restart_unit is not None,
        "--runs": runs > 1 and method != "hillclimb",
        "--trace": trace,
        "--plot": plot,
    }
    asked = [name for name, given in chain_asked.items() if given]
    if asked and method not in CHAIN_METHODS:
        raise NdokuError(
            f"{', '.join(asked)} {'steers' if len(asked) == 1 else 'steer'} a Monte-Carlo "
            "chain: add --method metropolis, hybrid or tempering"
        )
    given = {"--propagation": propagation, "--branching": branching}
    searched = [name for name, value in given.items() if value is not None]
    if searched and method not in EXACT_METHODS:
        verb = "chooses" if len(searched) == 1 else "choose"
        raise NdokuError(f"{' and '.join(searched)} {verb} the exact search: add --method exact")
    if plateau is not None and method != "hillclimb":
        raise NdokuError("--plateau ends a climb: add --method hillclimb")
    options = Options(
        seed=seed,
        temperature=temperature,
        timeout=timeout,
        moves=moves,
        schedule=_schedule(schedule, temperature, t0, alpha, beta_max, reheat),
        ladder=None if ladder is None else tuple(parse_numbers(ladder, "ladder")),
        replicas=replicas,
        exchange_every=exchange_every,
        trace_every=trace_every if trace or plot else 0,
        prune=prune,
        plateau=plateau,
        restarts=_restarts(restarts, restart_unit),
    )
    if propagation is not None:
        options = replace(options, propagation=propagation)
    if branching is not None:
        options = replace(options, branching=branching)
    if max_proposals is not None:
        options = replace(options, max_proposals=max_proposals)
    if max_nodes is not None:
        options = replace(options, max_nodes=max_nodes)
    return options


def _restarts(kind: str | None, unit: int | None) -> Restarts | None:
    """The restarts asked for, or None for the method's own; a unit alone means Luby's."""
    if kind is None and unit is None:
        return None
    return Restarts(kind or "luby", unit)


def _schedule(
    kind: str | None,
    temperature: float | None,
    t0: float | None,
    alpha: float | None,
    beta_max: float | None,
    reheat: int,
) -> Schedule | None:
    """The schedule the settings ask for, or None for the plain constant-temperature chain."""
    if kind is None:
        kind = "exponential" if alpha is not None else "ramp" if beta_max is not None else None
    if kind is None and t0 is None and not reheat:
        return None
    kind = kind or "constant"
    if alpha is not None and kind != "exponential":
        raise NdokuError(f"--alpha is the rate of exponential cooling, not of a {kind} schedule")
    if beta_max is not None and kind != "ramp":
        raise NdokuError(f"--beta-max ends a ramp, not a {kind} schedule")
    if temperature is not None:
        raise NdokuError("a schedule starts at --t0: --temperature is for a constant chain")
    settings: dict[str, Any] = {"kind": kind, "t0": t0, "reheat": reheat}
    if alpha is not None:
        settings["alpha"] = alpha
    if beta_max is not None:
        settings["beta_max"] = beta_max
    return Schedule(**settings)
