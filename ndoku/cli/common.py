"""What the commands share: their common options, reading FILES, the progress bar, exit statuses."""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO, TypeVar, cast

import click

from ndoku.cli.numbers import JOBS, SECONDS, Whole
from ndoku.errors import NdokuError, VerificationError
from ndoku.limits import DEFAULT_TIMEOUT
from ndoku.model.table import PuzzleTable, TableStream
from ndoku.picture.book import PAPER
from ndoku.solvers.chains import MOVES

if TYPE_CHECKING:
    from distributed import Client
    from rich.console import Console

    from ndoku.model.puzzle import Puzzle
    from ndoku.picture.scene import Scene
    from ndoku.text.fpuzzles import Converted
    from ndoku.text.pieces import Piece

F = TypeVar("F", bound=Callable[..., Any])

EXIT_UNSOLVED = 1
EXIT_BAD_INPUT = 2
EXIT_BUG = 3
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a command stopped by Ctrl-C


class Failure(Exception):
    """Stop with an exit status after the messages were already printed."""

    def __init__(self, status: int):
        self.status = status


def puzzle_options(command: F) -> F:
    """Options every command that reads puzzles shares."""
    command = click.option(
        "--symbols",
        metavar="ALPHABET",
        help="Symbols in value order, e.g. 0-F for hexadoku written 0..F (then - or _ is empty).",
    )(command)
    return click.option(
        "--layout",
        metavar="NAME|PATH",
        help="Sub-grid layout: a name from 'ndoku layouts' or a layout file.",
    )(command)


def timeout_option(help: str) -> Callable[[F], F]:
    """``--timeout`` in seconds, default :data:`~ndoku.limits.DEFAULT_TIMEOUT`."""
    return click.option(
        "--timeout",
        type=SECONDS,
        default=DEFAULT_TIMEOUT,
        show_default=True,
        help=help,
    )


def assume_unique_option(command: F) -> F:
    """``--assume-unique``: the logic path may use the uniqueness techniques."""
    return click.option(
        "--assume-unique",
        is_flag=True,
        help="Use the uniqueness techniques too (unique rectangles and loops, BUG), which "
        "hold only for a puzzle with one solution: the search proves that first.",
    )(command)


def limit_options(command: F) -> F:
    """Bounds every solving command shares."""
    command = timeout_option("Seconds per puzzle before giving up.")(command)
    command = click.option(
        "--max-nodes",
        type=Whole(1),
        default=None,
        help="Stop an exact search after this many nodes [default: 10⁹].",
    )(command)
    return click.option(
        "--jobs",
        "-j",
        type=JOBS,
        default=None,
        help="Processes for batches that take a while, threads for the search of one "
        "puzzle (exact) [default: all cores].",
    )(command)


def format_option(formats: tuple[str, ...], help: str) -> Callable[[F], F]:
    """``--format``, one of ``formats`` (the first is the default), into the ``fmt`` argument."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(formats),
        default=formats[0],
        show_default=True,
        help=help,
    )


def chain_options(command: F) -> F:
    """Options of the Monte-Carlo chain that solve and tune share."""
    command = click.option(
        "--max-proposals",
        type=Whole(),
        default=None,
        help="Stop a chain after this many proposals [default: no limit but the timeout].",
    )(command)
    command = click.option(
        "--seed", type=Whole(), default=0, show_default=True, help="Random seed."
    )(command)
    return click.option(
        "--moves",
        type=click.Choice(MOVES),
        default="box",
        show_default=True,
        help="Moves of the chain: box = swap two free cells of a box; row = of a row (single "
        "grids); single = one free cell takes another value.",
    )(command)


def cluster_option(command: F) -> F:
    """``--cluster ADDRESS``: the work goes to a Dask cluster (see :func:`cluster_client`)."""
    return click.option(
        "--cluster",
        metavar="ADDRESS",
        default=None,
        help="Send the work to the Dask scheduler at ADDRESS (tcp://host:8786), or start a "
        "cluster of N worker processes here for the run (local: one per core, local:N). "
        "Needs the dask extra: pip install distributed, or in ndoku's clone "
        "pip install -e '.[dask]'.",
    )(command)


def jobs_option(command: F) -> F:
    """``--jobs``: processes of this machine for commands that work puzzle by puzzle."""
    return click.option(
        "--jobs",
        "-j",
        type=JOBS,
        default=1,
        show_default=True,
        help="Processes working at once on this machine, a puzzle each.",
    )(command)


def cluster_client(address: str | None) -> Client | None:
    """A client of the cluster ``--cluster`` names, closed when the command ends; None
    without ``--cluster``."""
    if address is None:
        return None
    from ndoku.tasks.cluster import open_cluster

    return click.get_current_context().with_resource(open_cluster(address))


def workers(requested: int | None) -> int:
    """Worker processes a batch may use: all cores by default (used only when they pay)."""
    return requested if requested is not None else os.cpu_count() or 1


@contextmanager
def progress_bar(
    total: int | None, label: str = "solving"
) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on stderr for a batch of ``total`` puzzles (None: not known yet, a
    long file from a pipe), when stderr is a terminal and the command does not read it: a
    bar would share the lines of what is typed and of the answers to it."""
    if (total is not None and total < 2) or not sys.stderr.isatty() or _reads_terminal():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    columns = (
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
    )
    console = Console(stderr=True, soft_wrap=True)  # long answers above the bar stay whole
    shown = Progress(
        *columns, console=console, transient=True, redirect_stdout=False, redirect_stderr=False
    )
    with shown as bar, _lines_above(console):
        task = bar.add_task(label, total=total, rate="")
        start = time.perf_counter()

        def advance(done: int) -> None:
            rate = done / max(time.perf_counter() - start, 1e-9)
            bar.update(task, completed=done, rate=f"{rate:,.0f} puzzles/s")

        yield advance


@contextmanager
def _lines_above(console: Console) -> Iterator[None]:
    """While a bar shows, lines written to stderr, and to stdout when it is the terminal too,
    go above the bar (stdout to a file or a pipe is left as it is)."""
    from rich.file_proxy import FileProxy

    def above(stream: TextIO) -> TextIO:
        # rich's stand-in prints whole lines above the bar; it is given the stream's encoding,
        # without which click writes to the bytes underneath it, onto the bar's line
        class Above(FileProxy):
            encoding = stream.encoding
            errors = stream.errors

        return cast("TextIO", Above(console, stream))

    saved = sys.stdout, sys.stderr
    sys.stdout = above(sys.stdout) if sys.stdout.isatty() else sys.stdout
    sys.stderr = above(sys.stderr)
    try:
        yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        sys.stdout, sys.stderr = saved


#: Said on stderr when ``-`` reads a terminal.
STDIN_HINT = "ndoku: reading the terminal: paste or type the puzzle, then Ctrl-D on a new line"
#: The key of ``click.Context.meta`` that says the command reads the terminal.
_TERMINAL = "ndoku.reads_terminal"


def files_argument(command: F) -> F:
    """FILES: puzzle files, ``-`` for stdin, or one-line puzzles written out; none reads stdin
    when it is no terminal (``ndoku solve < puzzles.txt``)."""
    return click.argument(
        "files", nargs=-1, type=click.Path(allow_dash=True), callback=_stdin_unless_terminal
    )(command)


def file_argument(command: F) -> F:
    """FILE, one puzzle file taken as :func:`files_argument` takes FILES."""
    return click.argument(
        "file", required=False, type=click.Path(allow_dash=True), callback=_stdin_unless_terminal
    )(command)


def _stdin_unless_terminal(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """No files: ``-`` when stdin is a pipe or a file; when it is a terminal, a usage error
    that says how to give a puzzle (a command typed without files more often lacks them than
    waits for a puzzle to be typed)."""
    if value or ctx.resilient_parsing:
        return value
    if sys.stdin is not None and not sys.stdin.isatty():
        return ("-",) if param.nargs == -1 else "-"
    name = f"ndoku {ctx.info_name}"
    raise click.MissingParameter(
        f"Give a puzzle as a file or as a one-line puzzle, pipe it in ('{name} < puzzle.txt'), "
        f"or paste or type it after '{name} -' (then Ctrl-D).",
        ctx=ctx,
        param=param,
        param_hint=f"'{(param.name or 'files').upper()}{'...' if param.nargs == -1 else ''}'",
    )


def _reads_terminal() -> bool:
    """Whether the command reads stdin, and stdin is a terminal."""
    ctx = click.get_current_context(silent=True)
    return ctx is not None and bool(ctx.meta.get(_TERMINAL))


def read_all(
    files: Iterable[str], symbols: str | None, layout: str | None
) -> Iterator[tuple[str, list[Puzzle] | None]]:
    """``(path, puzzles)`` per file; ``None`` (after printing the error) when it is bad."""
    for path, read in _read_files(files, symbols, layout, tables=False):
        assert not isinstance(read, PuzzleTable | TableStream)
        yield path, read


def read_tables(
    files: Iterable[str], symbols: str | None, layout: str | None
) -> Iterator[tuple[str, PuzzleTable | TableStream | list[Puzzle] | None]]:
    """As :func:`read_all`, but a batch of one-line puzzles of one layout is read as a
    :class:`~ndoku.model.table.PuzzleTable` (a hundred thousand lines in a fraction of a
    second), or, when the file is long, as a :class:`~ndoku.model.table.TableStream` read as
    it is solved (a bad line further on is an error met on the way)."""
    yield from _read_files(files, symbols, layout, tables=True)


def _read_files(
    files: Iterable[str], symbols: str | None, layout: str | None, tables: bool
) -> Iterator[tuple[str, PuzzleTable | TableStream | list[Puzzle] | None]]:
    from ndoku.model.exchange import read_exchanged
    from ndoku.model.puzzle import read_puzzles
    from ndoku.model.table import read_table

    for argument in files:
        try:
            name, read = _opened(argument, symbols, tables)
        except NdokuError as exc:  # the errors of opening a file name it themselves
            click.echo(f"Error: {exc}", err=True)
            yield argument, None
            continue
        try:
            converted = _exchanged(read)
            if converted is not None:  # f-puzzles or SudokuPad: it declares its own layout
                yield name, read_exchanged(converted, name)
                continue
            if isinstance(read, str):
                text, table = read, read_table(read, name, symbols, layout) if tables else None
            else:
                first, pieces = read
                table = read_table(first.text, name, symbols, layout)
                if table is not None and not first.last:
                    yield name, TableStream(table, first, pieces)
                    continue
                # the first piece decides: a file that starts as no batch is read whole
                text = first.text + "".join(piece.text for piece in pieces)
            if table is not None and len(table) > 1:
                yield name, table
                continue
            yield name, read_puzzles(name, text=text, symbols=symbols, layout=layout)
        except NdokuError as exc:
            if isinstance(exc, VerificationError):
                raise
            click.echo(f"Error: {name}: {exc}", err=True)
            yield name, None


def _exchanged(read: str | tuple[Piece, Iterator[Piece]]) -> Converted | None:
    """The puzzle of an f-puzzles or SudokuPad form (JSON, a payload, a link) as ndoku text;
    None for text of ndoku's own (whose pieces are then left unread)."""
    from ndoku.text.links import exchanged, is_exchanged

    if isinstance(read, str):
        return exchanged(read)
    first, pieces = read
    if not is_exchanged(first.text):
        return None
    return exchanged(first.text + "".join(piece.text for piece in pieces))


def _opened(
    argument: str, symbols: str | None, tables: bool
) -> tuple[str, str | tuple[Piece, Iterator[Piece]]]:
    """The name an argument goes by and its text, or for ``tables`` the first piece of a file
    and the rest as they come (a long batch streams: :mod:`ndoku.text.pieces`)."""
    from ndoku.text.formats import read_file
    from ndoku.text.pieces import read_pieces

    if argument != "-" and not os.path.lexists(argument):
        text = _written(argument, symbols)
        line = text.strip().split("\n")[0]  # puzzles written out go by their first characters
        return (line if line == text.strip() and len(line) <= 20 else line[:16] + "…"), text
    name = "<stdin>" if argument == "-" else argument
    typed = argument == "-" and sys.stdin.isatty()
    if typed:
        # A pasted grid is read to the end of input, which a terminal gives on Ctrl-D.
        click.echo(STDIN_HINT, err=True)
        click.get_current_context().meta[_TERMINAL] = True
    if not tables:
        text = read_file(argument)
        if typed:
            _after_typing(text)
        return name, text
    pieces = read_pieces(argument)
    if typed:
        pieces = _typed_pieces(pieces)
    return name, (next(pieces), pieces)


def _written(argument: str, symbols: str | None) -> str:
    """The text of an argument that names no file, when it is puzzles written out: one-line
    puzzles (one a line, as a file of them holds them), sukaku lines, or an f-puzzles or
    SudokuPad link or payload (read as a file holding it is: :func:`_exchanged`).

    This is the one place that says what an argument may be besides a file.
    """
    from ndoku.text.alphabet import parse_symbols
    from ndoku.text.lines import line_table
    from ndoku.text.links import is_exchanged
    from ndoku.text.marks import sukaku_cells

    pipe = f"to give a puzzle as text, pipe it to 'ndoku {click.get_current_context().info_name} -'"
    if is_exchanged(argument):
        return argument
    lines = [(n, line) for n, line in enumerate(argument.splitlines(), start=1) if line.strip()]
    alphabet = parse_symbols(symbols) if symbols else None
    if lines and (
        line_table(lines, alphabet, {}, "<argument>") is not None
        or all(sukaku_cells(line) is not None for _, line in lines)
    ):
        return argument
    raise NdokuError(f"{argument}: no such file; {pipe}")


def _typed_pieces(pieces: Iterator[Piece]) -> Iterator[Piece]:
    """The pieces of a terminal's input, as :func:`_after_typing` ends the last."""
    for piece in pieces:
        if piece.last:
            _after_typing(piece.text)
        yield piece


def _after_typing(text: str) -> None:
    """After input typed at a terminal that ends mid-line (Ctrl-D twice), a new line: what
    comes next (the answers) starts on a line of its own."""
    if text and not text.endswith("\n"):
        err = sys.stderr.isatty()
        if err or sys.stdout.isatty():
            click.echo(err=err)


def file_record(path: str, number: int, batch: bool) -> dict[str, Any]:
    """The start of a JSON line: the file, and the puzzle's number in a batch."""
    return {"file": path, "puzzle": number} if batch else {"file": path}


@dataclass(frozen=True)
class Pictures:
    """Where a command draws its pictures (``--svg``, ``--png``, ``--pdf``, ``-o``) and how;
    the libraries each format needs were checked when it was made, before any work."""

    targets: tuple[tuple[str, str], ...]
    paper: str
    title: str | None
    caption: bool
    fill_regions: bool

    def __bool__(self) -> bool:
        return bool(self.targets)

    def write(self, scenes: Sequence[Scene], on_pages: bool = False) -> None:
        """Write every target, and say which files were written (on stderr)."""
        from ndoku.picture.files import save

        for path, kind in self.targets:
            for written in save(
                scenes, path, kind, paper=self.paper, on_pages=on_pages, title=self.title or ""
            ):
                click.echo(f"ndoku: wrote {written}", err=True)


def picture_options(which: str) -> Callable[[F], F]:
    """Options that draw ``which`` (a phrase: "the solution") as SVG, PNG or PDF; the command
    gets them as one ``pictures`` argument (:class:`Pictures`)."""

    def decorate(command: F) -> F:
        @functools.wraps(command)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            from ndoku.picture.files import format_of

            asked: list[tuple[str | None, str | None]] = [
                (kwargs.pop(kind), kind) for kind in ("svg", "png", "pdf")
            ]
            asked.append((kwargs.pop("output"), None))
            targets = tuple((path, format_of(path, kind)) for path, kind in asked if path)
            kwargs["pictures"] = Pictures(
                targets,
                kwargs.pop("paper"),
                kwargs.pop("title"),
                kwargs.pop("caption"),
                kwargs.pop("fill_regions"),
            )
            return command(*args, **kwargs)

        options = [
            click.option(
                f"--{kind}",
                metavar="FILE",
                type=click.Path(dir_okay=False),
                help=f"Draw {which} as {kind.upper()} to FILE{more}.",
            )
            for kind, more in (
                ("svg", ""),
                ("png", " (needs the print extra)"),
                ("pdf", " (needs the print extra)"),
            )
        ]
        options += [
            click.option(
                "--output",
                "-o",
                metavar="FILE",
                type=click.Path(dir_okay=False),
                help=f"Draw {which} to FILE, as its extension says (.svg, .png or .pdf). "
                "Several pictures go to numbered files (name-1.svg, …) or PDF pages.",
            ),
            click.option(
                "--paper",
                type=click.Choice(sorted(PAPER)),
                default="a4",
                show_default=True,
                help="Paper size of PDF pages.",
            ),
            click.option("--title", help="A title above each picture."),
            click.option(
                "--caption",
                is_flag=True,
                help="A line under each picture: layout, givens, difficulty (and seed).",
            ),
            click.option(
                "--fill-regions", is_flag=True, help="Fill jigsaw regions in pale colours."
            ),
        ]
        for option in reversed(options):
            wrapper = option(wrapper)
        return wrapper  # type: ignore[return-value]

    return decorate
