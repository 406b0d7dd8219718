"""``ndoku generate``: puzzles of a layout with exactly one solution."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ndoku.cli.common import (
    EXIT_UNSOLVED,
    Failure,
    Pictures,
    cluster_client,
    cluster_option,
    format_option,
    jobs_option,
    picture_options,
    progress_bar,
)
from ndoku.cli.numbers import SECONDS, Whole
from ndoku.errors import NdokuError
from ndoku.limits import DEFAULT_TIMEOUT
from ndoku.picture.book import MAX_PER_PAGE
from ndoku.solvers.logic import LEVELS
from ndoku.text.words import plural

if TYPE_CHECKING:
    from ndoku.tasks.generate import Generated


@click.command()
@click.argument("layout")
@click.option(
    "--count",
    "-n",
    type=Whole(1),
    default=1,
    show_default=True,
    help="Puzzles to make; puzzle k uses seed SEED + k − 1.",
)
@click.option(
    "--givens",
    type=Whole(),
    default=None,
    help="Stop removing at this many givens [default: remove every given that can go].",
)
@click.option(
    "--difficulty",
    metavar="LEVEL",
    help="Draw solutions until the puzzle's solving path has this level: "
    f"{', '.join(LEVELS[:-1])} or {LEVELS[-1]} (see 'ndoku rate').",
)
@click.option(
    "--needs",
    metavar="TECHNIQUE",
    help="Draw solutions until the puzzle's solving path uses this technique (a name 'ndoku "
    "explain' prints, e.g. X-wing; any case); with --difficulty, both must hold.",
)
@click.option(
    "--symmetry",
    type=click.Choice(["none", "rotational", "mirror"]),
    default="none",
    show_default=True,
    help="Pattern of the givens: rotational = a half turn of the canvas, mirror = left-right.",
)
@click.option(
    "--rules",
    type=click.Choice(["killer", "consecutive", "xv", "thermo", "whisper", "arrow"]),
    default=None,
    help="Draw rules that fit each solution before removing givens, on any layout: killer = "
    "cages of 2 to 6 neighbouring cells (different digits) with their sums; consecutive = a "
    "white dot on every pair that differs by 1; xv = an X on every pair summing to 10, a V "
    "on every pair summing to 5 (both: with the negative constraint); thermo, whisper = "
    "lines of 3 to 6 cells along the solution; arrow = arrows whose 2 to 4 cells sum to their "
    "circle. Fewer givens are left, often none.",
)
@click.option(
    "--seed",
    type=Whole(),
    default=0,
    show_default=True,
    help="Seed of the first puzzle: the same seed makes the same puzzle.",
)
@click.option(
    "--timeout",
    type=SECONDS,
    default=DEFAULT_TIMEOUT,
    show_default=True,
    help="Seconds per puzzle; then the puzzle reached so far (still unique) is printed.",
)
@jobs_option
@cluster_option
@format_option(
    ("grid", "line", "json"),
    "grid: the layout's shape with its headers; line: one line per puzzle (single "
    "grids); json: one object per puzzle and line, with the solution and the rating.",
)
@picture_options("the puzzles as a book, their solutions at the back")
@click.option(
    "--per-page",
    type=Whole(1, MAX_PER_PAGE),
    default=1,
    show_default=True,
    help="Puzzles on each page of the book (solutions: four times as many).",
)
def generate(
    layout: str,
    count: int,
    givens: int | None,
    difficulty: str | None,
    needs: str | None,
    symmetry: str,
    rules: str | None,
    seed: int,
    timeout: float,
    jobs: int,
    cluster: str | None,
    fmt: str,
    pictures: Pictures,
    per_page: int,
) -> None:
    """Make puzzles of LAYOUT (a name from 'ndoku layouts' or a layout file) with exactly
    one solution.

    A random solution is drawn, then givens are removed while the exact solver proves the
    puzzle still unique. Each printed puzzle was read back, proved unique and its solution
    checked. Exit status 1 when a puzzle misses what was asked (the number of givens, the
    level or technique, or the timeout cut it short): it is printed all the same. With
    --pdf (or --svg, --png, -o) the puzzles are also drawn as a book: a header per puzzle
    (layout, givens, difficulty, seed), the solutions at the back in smaller print.
    """
    from ndoku.tasks.generate import GenerateTimeout, layout_puzzle, line_headers, puzzle_line
    from ndoku.tasks.many import iter_generate
    from ndoku.tasks.records import generate_command, generated_record
    from ndoku.tasks.thinning import Aim
    from ndoku.tasks.warming import ruled_jobs, search_jobs, warm_aside

    if givens is not None and (difficulty is not None or needs is not None):
        raise NdokuError("--givens excludes --difficulty and --needs: ask for one")
    aim = Aim.of(difficulty, needs)  # an unknown name is refused before any work
    empty = layout_puzzle(layout)
    if fmt == "line":
        puzzle_line(empty)  # refuses layouts a line cannot hold, before any work
        if rules is not None:
            raise NdokuError("a line holds no rules: use --format grid or json with --rules")
    headers = line_headers(empty, layout) if fmt == "line" else []
    client = cluster_client(cluster)
    if client is None:  # a first run compiles the rating's kernels beside the search's (the
        # chains before the subsets: the path compiles the subsets itself while they compile)
        warmed = [*search_jobs([empty]), *ruled_jobs([empty], rules is not None)]
        warm_aside(*warmed, "logic", "chains", "subsets")
    status = 0
    book: list[Generated] = []
    with progress_bar(count, "generating") as progress:
        made_all = iter_generate(
            layout,
            count,
            seed=seed,
            givens=givens,
            difficulty=difficulty,
            needs=needs,
            symmetry=symmetry,
            timeout=timeout,
            rules=rules,
            command=lambda asked: generate_command(
                layout, asked, givens, difficulty, needs, symmetry, rules
            ),
            jobs=jobs,
            client=client,
            progress=progress,
        )
        for number, made in enumerate(made_all, start=1):
            asked = seed + number - 1
            if isinstance(made, GenerateTimeout):
                click.echo(f"ndoku: {layout}: seed {asked}: {made}", err=True)
                status = EXIT_UNSOLVED
                continue
            if not made.reached:
                why = _missed(made, givens, aim)
                click.echo(f"ndoku: {layout}: seed {asked}: {why}", err=True)
                status = EXIT_UNSOLVED
            if fmt == "json":
                record = generated_record(made, layout, asked, givens, aim, symmetry, rules)
                click.echo(json.dumps(record))
            elif fmt == "line":
                click.echo("".join(h + "\n" for h in headers) + puzzle_line(made.puzzle))
                headers = []  # once, above the first line
            else:
                click.echo(("\n" if number > 1 else "") + made.text, nl=False)
            book.append(made)
    if pictures and book:
        from ndoku.tasks.pictures import book_pages

        title = pictures.title or ""
        pictures.write(
            book_pages(
                book, per_page, pictures.paper, title, pictures.fill_regions, Path(layout).stem
            ),
            on_pages=True,
        )
    if status:
        raise Failure(status)


def _missed(made: Any, givens: int | None, aim: Any) -> str:
    """Why a generated puzzle is not what was asked."""
    if aim is not None and made.stop in ("attempts", "timeout"):
        why = (
            f"in {plural(made.attempts, 'attempt')}"
            if made.stop == "attempts"
            else f"before the timeout ({plural(made.attempts, 'attempt')}; a longer --timeout "
            "tries more)"
        )
        return (
            f"no puzzle with {aim.text()} found {why}; the closest is printed "
            f"({made.rating.headline()})"
        )
    if made.stop == "timeout":
        return (
            f"the timeout stopped the work at {plural(made.givens, 'given')} (the puzzle is "
            "unique and printed); a longer --timeout gets further"
        )
    return (
        f"stopped at {plural(made.givens, 'given')}, above the {givens} asked: no remaining "
        "given (or symmetric pair) can go without losing uniqueness"
    )
