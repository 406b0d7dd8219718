"""What ``ndoku serve`` needs (Starlette and uvicorn, the serve extra), or a clear error
naming the install command, raised before anything of the web app is imported."""

from __future__ import annotations

import importlib.util

from ndoku.errors import MissingExtra

#: (import name, what to install) of the serve extra.
LIBRARIES = [("starlette", "starlette"), ("uvicorn", "uvicorn")]


def require() -> None:
    """Raise :class:`~ndoku.errors.MissingExtra` unless Starlette and uvicorn import.

    >>> require()  # in a venv with the serve extra
    """
    missing = [package for module, package in LIBRARIES if importlib.util.find_spec(module) is None]
    if missing:
        raise MissingExtra.of("the browser page and its API", "serve", missing)
