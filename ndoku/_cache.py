"""Where numba keeps the compiled kernels, so that a read-only install still caches them.

numba writes its cache next to the source (``ndoku/__pycache__``) or in the user's cache
folder, and refuses to load a ``cache=True`` kernel when neither is writable. This module runs
before any kernel is defined (``ndoku/__init__`` imports it first) and, in that case, points
numba at ``$XDG_CACHE_HOME/ndoku`` (``~/.cache/ndoku``) or, failing that, a folder in the
system's temporary directory.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def choose_cache_dir() -> str | None:
    """Set numba's cache folder when the package folder is read-only; return the choice."""
    if os.environ.get("NUMBA_CACHE_DIR") or _writable(Path(__file__).parent / "__pycache__"):
        return None
    user = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ndoku"
    uid = os.getuid() if hasattr(os, "getuid") else 0
    fallback = Path(tempfile.gettempdir()) / f"ndoku-cache-{uid}"
    chosen = next((str(d) for d in (user, fallback) if _writable(d)), None)
    if chosen is None:
        return None
    os.environ["NUMBA_CACHE_DIR"] = chosen
    if "numba" in sys.modules:  # numba read its configuration already
        sys.modules["numba"].config.CACHE_DIR = chosen
    return chosen


choose_cache_dir()
