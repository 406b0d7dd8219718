"""Processes sharing numba's cache: two first runs at once write every compiled kernel once,
and a read-only install caches in the user's folder; the compile lock behind the first."""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import CliRun

import ndoku
from ndoku import jit
from ndoku.solvers.exact import kernels

ROOT = Path(ndoku.__file__).resolve().parent.parent
SHIDOKU = "1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n"
#: Seconds a run may take before the test calls it a hang (a first run compiles for ~5 s).
HANG = 120


def _start(env: dict[str, str], *args: str, **options: object) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "ndoku", *args],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **options,  # type: ignore[call-overload]
    )


def _answer(out: str) -> str:
    """Standard output without numba's cache log (NUMBA_DEBUG_CACHE)."""
    return "".join(line + "\n" for line in out.splitlines() if not line.startswith("[cache]"))


@pytest.mark.slow
def test_two_first_runs_at_once_write_each_kernel_once(tmp_path: Path) -> None:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), NUMBA_DEBUG_CACHE="1")
    env["PYTHONPATH"] = str(ROOT)
    puzzle = tmp_path / "shidoku.txt"
    puzzle.write_text(SHIDOKU)  # not stdin: each run would wait for the other to be fed
    runs = [_start(env, "solve", str(puzzle)) for _ in range(2)]
    done = [run.communicate(timeout=HANG) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], [err for _, err in done]
    first, second = (_answer(out) for out, _ in done)
    assert first == second and len(first.split()) == 16
    saved = Counter(
        line.rsplit("/", 1)[-1]
        for out, _ in done
        for line in out.splitlines()
        if line.startswith("[cache] data saved to")
    )
    assert saved and set(saved.values()) == {1}  # each compiled kernel written by one of them
    # and read whole by a later run, which compiles nothing
    third = _start(env, "solve", str(puzzle))
    out, err = third.communicate(timeout=HANG)
    assert third.returncode == 0 and _answer(out) == first
    assert "compiling" not in err and "data saved" not in out


def _without_root_overrides() -> None:
    """In the child: drop the capabilities that let root write where permissions say no
    (CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH, from the bounding set before exec)."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def _read_only_runs() -> Callable[[], None] | None:
    """What makes a read-only folder read-only for the child: nothing for a user, dropped
    capabilities for root (None when they cannot be dropped here)."""
    if os.geteuid() != 0:
        return lambda: None
    probe = subprocess.run(["true"], preexec_fn=_without_root_overrides, check=False)
    return _without_root_overrides if probe.returncode == 0 else None


@pytest.mark.slow
def test_a_read_only_install_caches_in_the_user_folder(tmp_path: Path) -> None:
    as_user = _read_only_runs()
    if as_user is None:
        pytest.skip("running as root without the right to drop capabilities")
    site = tmp_path / "site"
    package = site / "ndoku"
    shutil.copytree(ROOT / "ndoku", package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "layouts", package / "layouts")  # where a wheel puts them
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH")}
    env |= {"PYTHONPATH": str(site), "HOME": str(home), "XDG_CACHE_HOME": str(home / "cache")}
    subprocess.run(["chmod", "-R", "a-w", str(site)], check=True)
    try:
        answers = []
        for _ in range(2):
            run = _start(env, "solve", "-", preexec_fn=as_user, cwd=tmp_path)
            out, err = run.communicate(SHIDOKU, timeout=HANG)
            assert run.returncode == 0, err
            answers.append((out, err))
        listed = _start(env, "layouts", preexec_fn=as_user, cwd=tmp_path)
        names, err = listed.communicate(timeout=HANG)  # the layouts inside the package
        assert listed.returncode == 0 and "\nsamurai " in names, err
    finally:
        subprocess.run(["chmod", "-R", "u+w", str(site)], check=True)
    (first, notice), (second, quiet) = answers
    assert first == second and len(first.split()) == 16
    assert "compiling" in notice and quiet == ""  # compiled once, then loaded
    assert list((home / "cache" / "ndoku").rglob("*.nbi"))
    assert not list(package.rglob("__pycache__"))


def _search_lock() -> Path:
    """The lock file beside the search kernel's cache index."""
    cache = kernels.search._cache
    return Path(cache._cache_path) / (cache._cache_file._index_name + ".lock")


def test_a_kernel_compiles_under_its_own_lock(tmp_path: Path) -> None:
    """The lock is a file beside the kernel's cache index, held by one process at a time and
    reentrant within it."""
    assert kernels.search.compile.__name__ == "locked"
    lock = _search_lock()
    probe = (
        "import fcntl, os, sys\n"
        "fd = os.open(sys.argv[1], os.O_RDWR)\n"
        "try:\n"
        "    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\n"
        "except BlockingIOError:\n"
        "    sys.exit(1)\n"
    )
    tries = [sys.executable, "-c", probe, str(lock)]
    with jit.cache_lock(kernels.search), jit.cache_lock(kernels.search):
        assert lock.exists()
        assert subprocess.run(tries, check=False).returncode == 1  # held here
    assert subprocess.run(tries, check=False).returncode == 0  # released


@pytest.mark.slow
def test_a_saved_version_loads_while_another_process_compiles(run: CliRun) -> None:
    """A process needing a version of a kernel that is in the cache loads it at once, while
    another process holds the kernel's lock (compiling another version): it waited up to
    LOCK_WAIT before."""
    assert run("solve", "-", input=SHIDOKU)[0] == 0  # the versions a 4×4 solve needs: saved
    lock = _search_lock()
    hold = (
        "import fcntl, os, sys, time\n"
        "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)\n"
        "fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "print('held', flush=True)\n"
        "time.sleep(300)\n"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", hold, str(lock)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        solve = _start(env, "solve", "-")
        out, err = solve.communicate(SHIDOKU, timeout=jit.LOCK_WAIT / 4)
        assert solve.returncode == 0 and len(out.split()) == 16, err
    finally:
        holder.kill()
        holder.wait()
