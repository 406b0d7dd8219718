"""A read-only install still caches compiled kernels (outside the package folder)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numba
import pytest

from ndoku import _cache


def test_read_only_package_caches_in_the_user_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)
    writable = _cache._writable
    monkeypatch.setattr(_cache, "_writable", lambda d: d.name != "__pycache__" and writable(d))
    chosen = _cache.choose_cache_dir()
    assert chosen == str(tmp_path / "ndoku")
    assert chosen == numba.config.CACHE_DIR
    assert (tmp_path / "ndoku").is_dir()


def test_a_writable_package_or_an_explicit_folder_is_left_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", "/somewhere")
    assert _cache.choose_cache_dir() is None
    monkeypatch.setenv("NUMBA_CACHE_DIR", "")
    assert _cache.choose_cache_dir() is None  # the package folder is writable in a checkout


def test_the_compile_notice_shows_on_the_first_run_only(tmp_path: Path) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    command = [sys.executable, "-m", "ndoku", "solve", "-", "--method", "exact"]
    runs = [
        subprocess.run(
            command,
            input="1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n",
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        for _ in range(2)
    ]
    assert "compiling kernels" in runs[0].stderr
    assert runs[1].stderr == ""
    assert runs[0].stdout == runs[1].stdout and len(runs[0].stdout.split()) == 16
