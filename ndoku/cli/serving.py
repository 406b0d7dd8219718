"""``ndoku serve``: the browser page and its JSON API on this machine (the serve extra)."""

from __future__ import annotations

import os
import signal
import sys
from typing import NoReturn

import click

from ndoku.cli.numbers import JOBS, Whole
from ndoku.cli.stopping import Stopped
from ndoku.errors import NdokuError


@click.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on; one other machines reach needs --public.",
)
@click.option(
    "--port",
    type=Whole(0, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on (0: a free one).",
)
@click.option("--open", "open_page", is_flag=True, help="Open the page in the web browser.")
@click.option(
    "--public",
    is_flag=True,
    help="Allow a --host other machines reach: anyone who reaches it may use the server.",
)
@click.option(
    "--allow-host",
    "allowed",
    multiple=True,
    metavar="NAME",
    help="A further name the server answers to in the Host header (as the browser writes it: "
    "the machine's name with --public); others are refused, as a guard against DNS rebinding.",
)
@click.option(
    "--jobs",
    "-j",
    type=JOBS,
    default=None,
    help="Heavy jobs (solve, count, …) at once; the others wait briefly or get 503 "
    "[default: one per core].",
)
def serve(
    host: str,
    port: int,
    open_page: bool,
    public: bool,
    allowed: tuple[str, ...],
    jobs: int | None,
) -> None:
    """Serve the page (paste or pick a puzzle; solve, count, hint, explain, rate, generate)
    and its JSON API (POST /api/solve, … with {"text": …}; the records of --format json;
    described at /api/openapi.json) until Ctrl-C.

    It listens on 127.0.0.1 unless told otherwise, and says where; at most --jobs heavy jobs
    run at once, the others wait briefly or get 503. Needs the serve extra (Starlette and
    uvicorn).
    """
    from ndoku.web.needs import require

    require()
    from ndoku.web.server import Listening, loopback

    if not loopback(host) and not public:
        raise NdokuError(
            f"--host {host} can be reached from other machines: add --public to listen there"
        )
    listening = Listening(host, port, allowed, jobs)
    if not loopback(host):
        click.echo(
            f"ndoku: warning: listening on {host}, which other machines may reach: anyone "
            "who does can use this server",
            err=True,
        )
    click.echo(f"ndoku: listening on {listening.url} (Ctrl-C stops)", err=True)
    if open_page:
        import webbrowser

        webbrowser.open(listening.url)
    try:
        listening.serve()
    except KeyboardInterrupt as stop:
        if not listening.still_warming():
            raise
        ended = stop if isinstance(stop, Stopped) else Stopped(signal.SIGINT)
        click.echo(f"ndoku: {ended.word}", err=True)
        _end_now(ended.status)
    if listening.still_warming():
        _end_now(0)


def _end_now(status: int) -> NoReturn:
    """End the process at once: Python's own ending stops the warming thread where it is,
    and inside a numba compile that aborts the process (SIGABRT) rather than ending it."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
