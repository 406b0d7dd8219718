"""A read-only install still caches compiled kernels (outside the package folder)."""

from __future__ import annotations

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
