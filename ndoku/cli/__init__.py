"""The ``ndoku`` command: a thin layer over the library, one module per family of commands.

Exit status: 0 when every puzzle was solved, 1 when some puzzle was not (unsolved within the
limits, or its worker process died), 2 for bad input or options (``Error: …`` names the
file, line and column), 130 when Ctrl-C (SIGINT) stopped the work and 143 when SIGTERM did
(every answer found is written first: :mod:`ndoku.cli.stopping`), 141 when the pipe the
answers went to was closed (``| head``).
"""

from __future__ import annotations

import sys
from typing import Any

import click

from ndoku import __version__
from ndoku.cli.common import EXIT_BAD_INPUT, EXIT_BUG, EXIT_INTERRUPTED, EXIT_UNSOLVED, Failure
from ndoku.cli.lab import rate, tune
from ndoku.cli.looking import graph, layouts, show
from ndoku.cli.making import generate
from ndoku.cli.serving import serve
from ndoku.cli.solving import count, solve
from ndoku.cli.stopping import EXIT_PIPE, Stopped, caught, quiet_stdout
from ndoku.cli.teaching import explain, hint
from ndoku.errors import NdokuError, VerificationError
from ndoku.tasks.workers import WorkerLost


class NdokuGroup(click.Group):
    """Turns library errors into ``Error: …`` and an exit status instead of a traceback, and
    signals and a closed pipe into their exit statuses."""

    def invoke(self, ctx: click.Context) -> Any:
        with caught():
            try:
                return super().invoke(ctx)
            except Failure as exc:
                ctx.exit(exc.status)
            except NdokuError as exc:
                click.echo(f"Error: {exc}", err=True)
                ctx.exit(_exit_status(exc))
            except Stopped as exc:  # the answers found are written, the workers stopped
                click.echo(f"ndoku: {exc.word}", err=True)
                ctx.exit(exc.status)
            except KeyboardInterrupt:
                click.echo("ndoku: interrupted", err=True)
                ctx.exit(EXIT_INTERRUPTED)
            except BrokenPipeError:  # the reader of the answers has gone: so do we, quietly
                quiet_stdout()
                ctx.exit(EXIT_PIPE)


def _exit_status(exc: NdokuError) -> int:
    if isinstance(exc, WorkerLost):  # a rating's or a generation's worker process died
        return EXIT_UNSOLVED
    return EXIT_BUG if isinstance(exc, VerificationError) else EXIT_BAD_INPUT


@click.group(cls=NdokuGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ndoku")
def main() -> None:
    """Solve generalized sudoku: any size, any interlocked layout (Samurai, sumo, …).

    A puzzle is text as people write it: a grid of tokens or characters (0 or . for an empty
    cell; in a multi-grid, '.' where no cell is), pasted with bars and rules, one line of 81
    characters, pencil marks, a list of lists; a file of several is a batch. The answer comes
    back in the puzzle's own shape. FILES are puzzle files, '-' for stdin, or one-line
    puzzles written out; without FILES a pipe is read (ndoku solve < puzzles.txt). Run 'ndoku
    COMMAND --help' for each command.
    """


for command in (solve, count, hint, explain, layouts, show, graph, generate, rate, tune, serve):
    main.add_command(command)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
