"""Stopping a command cleanly: Ctrl-C (SIGINT) and SIGTERM end it within a second with every
answer found written, in whole lines, and a closed pipe (``| head``) ends it quietly.

A signal raises :class:`Stopped` where the command stands, as Ctrl-C raises
``KeyboardInterrupt``, except within :func:`held` blocks: there it waits until the block is
over, or (work whose answers are about to be written, which calls :func:`check` every few
milliseconds) until :data:`GRACE_SECONDS` have passed. Writes are held (:func:`echo`), so a
line is never cut; so is the solving of a batch's chunk, so that what it found is written
before the command stops. A second signal stops at once. Worker processes are stopped by the
code that started them, as the exception passes; files are written whole or not at all
(:func:`~ndoku.picture.files.written`).
"""

from __future__ import annotations

import io
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import BinaryIO

import click

#: Seconds the work in hand (a chunk of a batch) gets, after a signal, to finish and be written.
GRACE_SECONDS = 0.5
#: The exit status of a command whose output pipe was closed, as a shell reports a command
#: that SIGPIPE ended (128 + 13): ``ndoku solve big.txt | head -1`` stops there, quietly.
EXIT_PIPE = 141
_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Stopped(KeyboardInterrupt):
    """A signal stopped the command; its exit status is 128 + the signal (130 for SIGINT,
    143 for SIGTERM), as shells report a command a signal ended."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum

    @property
    def status(self) -> int:
        return 128 + self.signum

    @property
    def word(self) -> str:
        return "interrupted" if self.signum == signal.SIGINT else "terminated"


class _Pending:
    """The signal that came while a block was held, and when."""

    signum: int | None = None
    at = 0.0
    holding = 0


_PENDING = _Pending()


def _handle(signum: int, frame: FrameType | None) -> None:
    if _PENDING.holding == 0 or _PENDING.signum is not None:
        raise Stopped(signum)
    _PENDING.signum, _PENDING.at = signum, time.monotonic()


@contextmanager
def caught() -> Iterator[None]:
    """SIGINT and SIGTERM handled as this module says while a command runs (in the main
    thread; elsewhere, as Python handles them)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _PENDING.signum, _PENDING.holding = None, 0
    previous = {s: signal.signal(s, _handle) for s in _SIGNALS}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


@contextmanager
def held() -> Iterator[None]:
    """A signal that comes in the block waits for its end (see the module docstring)."""
    _PENDING.holding += 1
    try:
        yield
    finally:
        _PENDING.holding -= 1
    if _PENDING.holding == 0:
        due()


def check() -> None:
    """Stop when a signal came more than :data:`GRACE_SECONDS` ago: held work calls it as
    it goes."""
    if _PENDING.signum is not None and time.monotonic() - _PENDING.at > GRACE_SECONDS:
        raise Stopped(_PENDING.signum)


def due() -> None:
    """Stop now when a signal came: every answer found has been written."""
    if _PENDING.signum is not None:
        raise Stopped(_PENDING.signum)


def checking(progress: Callable[[int], None] | None) -> Callable[[int], None]:
    """``progress`` (a bar, or None) that also calls :func:`check`: held work calls it
    every few milliseconds."""

    def call(done: int) -> None:
        if progress is not None:
            progress(done)
        check()

    return call


def echo(message: str | bytes = "", nl: bool = True, err: bool = False) -> None:
    """``click.echo``, held and whole: a signal never cuts what it writes to stdout."""
    with held():
        out = sys.stdout
        if err:
            click.echo(message, nl=nl, err=err)
            return
        encoding = out.encoding or "utf-8"
        if not isinstance(out, io.TextIOWrapper):
            # A progress bar's stdout, which prints whole lines above the bar (its bytes, and
            # click's writes, would go past it onto the bar's line), or a stdout of text only.
            text = message.decode(encoding) if isinstance(message, bytes) else message
            out.write(text + "\n" if nl else text)
            out.flush()
            return
        data = message if isinstance(message, bytes) else message.encode(encoding)
        out.flush()  # what the text layer holds goes first
        _write_all(out.buffer, data + b"\n" if nl else data)


def _write_all(stream: BinaryIO, data: bytes) -> None:
    """Every byte of ``data``: a raw stream (``PYTHONUNBUFFERED``) takes only part of it when
    a signal comes in the middle, and says so."""
    view = memoryview(data)
    while view:
        view = view[stream.write(view) or 0 :]
    stream.flush()


def quiet_stdout() -> None:
    """After a closed pipe: what is left to flush of stdout goes nowhere, without an error
    when Python exits."""
    try:
        out = sys.stdout.fileno()
    except (OSError, ValueError):  # not a file (a test's stdout)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, out)
    os.close(devnull)
