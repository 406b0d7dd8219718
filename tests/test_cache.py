"""A read-only install still caches compiled kernels (outside the package folder), and the
compile notice shows only when the cache lacks what is about to be compiled."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest
from numba.core import types
from numba.core.dispatcher import Dispatcher

from ndoku import jit
from ndoku.jit import compile_notice, compiling_notice
from ndoku.model.puzzle import read_puzzles
from ndoku.solvers import hall, propagation, tables
from ndoku.solvers.exact import kernels, solve_exact
from ndoku.solvers.exact.solver import Workspace


def test_read_only_package_caches_in_the_user_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)
    writable = jit._writable
    monkeypatch.setattr(jit, "_writable", lambda d: d.name != "__pycache__" and writable(d))
    chosen = jit.choose_cache_dir()
    assert chosen == str(tmp_path / "ndoku")
    assert chosen == numba.config.CACHE_DIR
    assert (tmp_path / "ndoku").is_dir()


def test_a_writable_package_or_an_explicit_folder_is_left_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", "/somewhere")
    assert jit.choose_cache_dir() is None
    monkeypatch.setenv("NUMBA_CACHE_DIR", "")
    assert jit.choose_cache_dir() is None  # the package folder is writable in a checkout


SHIDOKU = "1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n"


@pytest.mark.parametrize(
    ("size", "what", "seconds"),
    [
        (9, "the exact solver for single grids below 16×16", 14),
        (16, "the exact solver for multi-grids and 16×16 to 24×24 grids", 17),
        (25, "the exact solver for grids from 25×25 up", 47),
    ],
)
def test_the_notice_names_the_version_a_size_compiles(size: int, what: str, seconds: int) -> None:
    [puzzle] = read_puzzles(text=("0 " * size + "\n") * size)
    work = Workspace(tables.Topology.of(puzzle))
    assert work.compiling(kernels.search) == (what, seconds, kernels.search)


def test_the_notice_shows_only_when_the_cache_lacks_the_kernel(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Looked up in numba's cache by argument types, without compiling anything new."""
    [puzzle] = read_puzzles(text=SHIDOKU)
    solve_exact(puzzle)  # compiled or loaded from the cache now
    monkeypatch.setattr(jit, "_settled", set())
    capsys.readouterr()
    assert solve_exact(puzzle).status == "solved"
    assert capsys.readouterr().err == ""
    values = np.zeros(16, dtype=np.int32)
    never = np.zeros(16, dtype=np.float32)  # no kernel ever took these
    for _ in range(2):  # said once
        compile_notice("the write-out", 1, propagation.write_values, (never, values))
    assert (
        capsys.readouterr().err == "ndoku: compiling the write-out (first run only, about 1 s)…\n"
    )


def test_the_notice_of_kernels_compiled_as_reached_shows_only_when_one_compiles(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """numba's compile event says it: loading from the cache, or nothing to load, says
    nothing; a new compile inside says it once."""
    monkeypatch.setattr(jit, "_settled", set())
    [puzzle] = read_puzzles(text=SHIDOKU)
    solve_exact(puzzle)
    capsys.readouterr()
    with compiling_notice("the shidoku"):
        solve_exact(puzzle)  # compiled already
    assert capsys.readouterr().err == ""

    @numba.njit(cache=False)  # type: ignore[misc]  # compiled anew in every run
    def fresh(x: int) -> int:
        return x + 1

    for _ in range(2):
        with compiling_notice("the fresh kernel"):
            fresh(np.int64(1))
            fresh(np.float64(1.5))
    assert capsys.readouterr().err == "ndoku: compiling the fresh kernel…\n"


def test_a_path_warms_only_the_techniques_it_reaches() -> None:
    """In a new process, a path of singles compiles (or loads) the kernels of the first three
    techniques and the board's check, not the thirty others a first hint once waited for."""
    code = (
        "from ndoku import read_puzzles\n"
        "from ndoku.solvers.logic import path\n"
        f"[p] = read_puzzles(text={SHIDOKU!r})\n"
        "path.solve_path(p)\n"
        "print(sorted(path._warmed))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == str(sorted({"contradiction", "full house", "hidden single"}))


def test_a_run_with_the_kernels_cached_says_nothing() -> None:
    """The first run's notice on an empty cache is measured by ``python -m benchmarks
    firstrun``; here the kernels the tests compiled are loaded from the same cache."""
    [puzzle] = read_puzzles(text=SHIDOKU)
    solve_exact(puzzle)
    command = [sys.executable, "-m", "ndoku", "solve", "-", "--method", "exact"]
    run = subprocess.run(command, input=SHIDOKU, capture_output=True, text=True, check=True)
    assert run.stderr == ""
    assert len(run.stdout.split()) == 16


def test_no_exact_kernel_is_compiled_for_a_literal_argument(data: Path) -> None:
    """numba would compile a called kernel once more for each literal it is handed (see the
    notes on kernels in ``ndoku.solvers.propagation``); the cache holds every version compiled so
    far."""
    sixteen = (data / "sudoku16/goomii_16x16_first40.txt").read_text().split(",")[0]
    twenty_five = (data / "sudoku25/gecode_25x25_shared6.txt").read_text().split()[1]
    for text in (SHIDOKU, sixteen, twenty_five.split(",")[0]):
        [puzzle] = read_puzzles(text=text)
        assert solve_exact(puzzle).status == "solved"
    modules = (propagation, hall, kernels)
    found = {k for m in modules for k in vars(m).values() if isinstance(k, Dispatcher)}
    signatures = [key[0] for k in found for key in k._cache._cache_file._load_index()]
    assert len(signatures) >= 10
    assert not [s for s in signatures if any(isinstance(t, types.Literal) for t in s)]
