"""The numba internals ndoku leans on (``ndoku.jit``), each called directly: when a numba
upgrade moves one, these tests fail by name instead of ndoku turning slow, quiet or stale."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from numba.core import caching

from ndoku import jit
from ndoku.solvers import bits


@jit.kernel()
def _sum_without_refcounts(values: np.ndarray) -> int:
    total = 0
    for v in values:
        total += v
    return total


def test_kernels_compile_without_reference_counting() -> None:
    assert _sum_without_refcounts(np.arange(10, dtype=np.int64)) == 45
    assert _sum_without_refcounts.targetoptions.get("_nrt") is False


@jit.kernel()
def _two_ticks() -> tuple[int, int]:
    first = jit.ticks()
    total = 0
    for k in range(100_000):
        total += k
    return first, jit.ticks() + (total & 0)


def test_the_work_clock_stops_while_a_kernel_compiles(tmp_path: Path) -> None:
    # a kernel of its own in a fresh cache: compiled here, not loaded
    code = (
        "import time\nimport numpy as np\nfrom ndoku import jit\n"
        "@jit.kernel()\ndef twice(x: int) -> int:\n    return 2 * x\n"
        "wall, work = time.perf_counter(), jit.work_clock()\nassert twice(21) == 42\n"
        "print(time.perf_counter() - wall, jit.work_clock() - work)\n"
    )
    (tmp_path / "fresh.py").write_text(code)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, str(tmp_path / "fresh.py")], env=env, capture_output=True, text=True
    )
    walked, worked = map(float, done.stdout.split())
    assert 0 <= worked <= 0.5 * walked and walked > 0.01, done.stderr


def test_the_work_clock_stops_once_for_nested_and_overlapping_compiles() -> None:
    work = jit.work_clock()
    with jit._clock_stopped(), jit._clock_stopped():
        time.sleep(0.05)
    assert 0 <= jit.work_clock() - work < 0.02
    work, wall = jit.work_clock(), time.perf_counter()

    def stopped(seconds: float) -> None:
        with jit._clock_stopped():
            time.sleep(seconds)

    threads = [threading.Thread(target=stopped, args=(s,)) for s in (0.1, 0.15)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # the two overlap: the clock stood still for about 0.15 s, not 0.25 s (it never goes back)
    worked, walked = jit.work_clock() - work, time.perf_counter() - wall
    assert 0 <= worked < 0.05 and walked >= 0.15


def test_the_cycle_counter_runs_where_there_is_one() -> None:
    first, second = _two_ticks()
    if jit.HAS_TICKS:
        assert second > first > 0
    else:
        assert first == second == 0


def test_the_cache_probe_reads_numba_index() -> None:
    arguments = (np.zeros(3, dtype=np.int64),)
    # raises (rather than answering) when numba's cache attributes move
    before = jit.is_cached(_sum_without_refcounts, arguments)
    _sum_without_refcounts(*arguments)
    assert jit.is_cached(_sum_without_refcounts, arguments)
    assert isinstance(before, bool)
    assert not jit.is_cached(_sum_without_refcounts, (np.zeros(3, dtype=np.float32),))


def test_every_ndoku_kernel_is_stamped_with_the_sources_it_may_inline() -> None:
    assert getattr(caching._SourceFileBackedLocatorMixin.get_source_stamp, "ndoku", False)
    stamp = bits.copy._cache._cache_file._source_stamp
    assert isinstance(stamp, tuple) and stamp[1] == jit.sources_hash()


def test_the_stamp_changes_with_a_kernel_source_only(
    tmp_path: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "pkg"  # type: ignore[operator]
    for name, text in [
        ("solvers/a.py", "x = 1\n"),
        ("tasks/b.py", "from numba import njit\n"),
        ("cli/c.py", "y = 2\n"),
    ]:
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text)
    monkeypatch.setattr(jit, "PACKAGE", package)

    def fresh() -> str:
        jit.sources_hash.cache_clear()
        return jit.sources_hash()

    try:
        first = fresh()
        (package / "cli/c.py").write_text("y = 3\n")
        assert fresh() == first
        (package / "solvers/a.py").write_text("x = 2\n")
        assert fresh() != first
        second = fresh()
        (package / "tasks/b.py").write_text("from numba import njit  # changed\n")
        assert fresh() != second
    finally:
        jit.sources_hash.cache_clear()


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({}, "PASSIVE 1000"),
        ({"OMP_WAIT_POLICY": "ACTIVE"}, "ACTIVE -"),
        ({"GOMP_SPINCOUNT": "5"}, "- 5"),
    ],
)
def test_parallel_threads_soon_sleep_unless_the_user_says_otherwise(
    given: dict[str, str], expected: str
) -> None:
    # a fresh process: the OpenMP runtime reads the policy once, when numba loads it
    names = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")
    env = {k: v for k, v in os.environ.items() if k not in names} | given
    code = f"import os, ndoku; print(*(os.environ.get(n, '-') for n in {names!r}))"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.stdout.strip() == expected
