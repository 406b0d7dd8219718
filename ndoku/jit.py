"""The numba internals ndoku leans on, in one place: the cache folder, the cache's freshness
stamp, one compile per kernel among processes, parallel threads that soon sleep rather than spin,
kernels without reference counting, the CPU cycle counter, and the probe of numba's cache
behind the compile notice.

Each of them uses a part of numba that is not its documented API (``_nrt``, the cache index
and its source stamp, ``llvm.readcyclecounter`` through an intrinsic); ``tests/test_jit.py``
calls every one of them directly, so a numba upgrade that moves one fails there, loudly,
rather than making ndoku slow, quiet or stale.

numba keeps a cached kernel while the file that defines it is unchanged, and does not look
at the files of the kernels it calls or inlines. ndoku's kernels call each other across
files (the search inlines propagation, every chain the generator), so the stamp of every
ndoku kernel includes a hash of the sources kernels come from (:func:`sources_hash`): an
edit to one of them recompiles them all.

The cache folder is chosen when this module is imported, before any kernel is defined
(``ndoku/__init__`` imports it first): numba writes its cache next to the source
(``ndoku/**/__pycache__``) or in the user's cache folder, and refuses to load a
``cache=True`` kernel when neither is writable. In that case numba is pointed at
``$XDG_CACHE_HOME/ndoku`` (``~/.cache/ndoku``) or, failing that, a folder in the system's
temporary directory.

Processes that start together on an empty cache (a batch's workers, two commands in a
script) would each compile a kernel and write it; numba's own writes are atomic, but it reads
a kernel's index, adds an entry and writes it back without a lock, so two processes saving
two versions of one kernel can lose one or point its entry at the other's code (numba issue
4807). Each kernel therefore compiles under a lock of its own, a file beside its index
(:func:`cache_lock`): the first process compiles and writes, the others wait and load what it
wrote. A version already written loads without the lock.
"""

from __future__ import annotations

import hashlib
import os
import platform
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any, TypeVar


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

# Threads of a parallel kernel (tempering's rounds) spin only briefly at the end of a
# region, then sleep: with the other core busy, spinning made two threads run 15× slower
# than one (the spinner holds the core its partner waits for); sleeping at once cost a
# fifth on a quiet machine, 1 000 spins about 8 % (GNU OpenMP counts the spins; other
# runtimes read the policy). The runtime reads these when numba first loads it; a user's
# own setting of either stands.
if "OMP_WAIT_POLICY" not in os.environ and "GOMP_SPINCOUNT" not in os.environ:
    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    os.environ["GOMP_SPINCOUNT"] = "1000"

# numba reads NUMBA_CACHE_DIR when it is first imported: only now.
from llvmlite import ir  # type: ignore[import-untyped]  # noqa: E402
from numba import extending, njit, types  # noqa: E402
from numba.core import caching, event, sigutils  # noqa: E402

PACKAGE = Path(__file__).resolve().parent


@cache
def sources_hash() -> str:
    """A hash of the sources kernels may come from: every file under ``solvers/`` and every
    other one that imports numba (computed once per process). Other edits (the command, the
    readers) leave the compiled kernels alone."""
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py")):
        data = path.read_bytes()
        if "solvers" in path.relative_to(PACKAGE).parts or b"from numba" in data:
            digest.update(str(path.relative_to(PACKAGE)).encode() + b"\0" + data)
    return digest.hexdigest()


def cache_folder() -> Path:
    """The folder of ndoku's compiled kernels: numba's cache folder when one is set, else the
    package's ``__pycache__`` (numba's own choice for a writable package)."""
    from numba.core import config

    folder: str = getattr(config, "CACHE_DIR", "")  # set when numba reads its environment
    return Path(folder) if folder else PACKAGE / "__pycache__"


def _stamp_with_sources(stamp_of_file: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """numba's source stamp of a kernel's file, joined by :func:`sources_hash` for ndoku's."""

    def get_source_stamp(locator: Any) -> Any:
        stamp = stamp_of_file(locator)
        if Path(locator._py_file).resolve().is_relative_to(PACKAGE):
            return (stamp, sources_hash())
        return stamp

    get_source_stamp.ndoku = True  # type: ignore[attr-defined]
    return get_source_stamp


_locator: Any = caching._SourceFileBackedLocatorMixin
if not getattr(_locator.get_source_stamp, "ndoku", False):  # once, even if reloaded
    _locator.get_source_stamp = _stamp_with_sources(_locator.get_source_stamp)

try:
    import fcntl
except ImportError:  # Windows: no locks, numba's own behaviour
    fcntl = None  # type: ignore[assignment]

#: Seconds a process waits for another one's compile of a kernel before it compiles its own
#: (the longest compiles take about 20 s on two busy cores; a process stopped while it holds
#: a lock must not hang the others).
LOCK_WAIT = 120.0
_held: dict[str, tuple[int, int]] = {}  # lock file → (file descriptor, depth) in this process
_holding = threading.Lock()


@contextmanager
def cache_lock(dispatcher: Any) -> Iterator[None]:
    """Hold ``dispatcher``'s compile lock among processes: a file beside its cache index,
    locked with ``flock``. Reentrant within a process (a kernel's compile compiles those it
    calls; no kernel calls itself, so no two processes wait for each other). Without
    ``fcntl``, a cache folder or a lock within :data:`LOCK_WAIT`, it does nothing."""
    cache: Any = getattr(dispatcher, "_cache", None)
    folder = getattr(cache, "_cache_path", None)
    if fcntl is None or folder is None:
        yield
        return
    path = os.path.join(folder, cache._cache_file._index_name + ".lock")
    with _holding:
        fd, depth = _held.get(path, (-1, 0))
        if depth:
            _held[path] = (fd, depth + 1)
    if not depth:
        fd = _acquire(path)
        if fd < 0:
            yield
            return
        with _holding:
            _held[path] = (fd, 1)
    try:
        yield
    finally:
        with _holding:
            fd, depth = _held.pop(path)
            if depth > 1:
                _held[path] = (fd, depth - 1)
        if depth == 1:
            os.close(fd)  # releases the lock


def _acquire(path: str) -> int:
    """The descriptor of ``path`` locked exclusively, or -1 when it cannot be (in time)."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:
        return -1
    end = time.monotonic() + LOCK_WAIT
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() > end:
                break
            time.sleep(0.02)
        except OSError:  # a file system without locks
            break
    os.close(fd)
    return -1


# Untyped for mypy (numba's own annotations are partial).
_argument_types: Any = sigutils.normalize_signature


def _compiling_under_lock(dispatcher: Any) -> Any:
    """``dispatcher``, whose compiles (compile and save, or load what another process saved
    meanwhile) hold its :func:`cache_lock`. A version already in the cache loads without it:
    the lock is the kernel's, not the version's, and a process needing one version waited
    for another process's compile of another one (29 s of a cold test run on two cores);
    numba writes index and data files whole, so a read needs no lock. A compile, waiting for
    the lock included, stops the :func:`work_clock`; a load (milliseconds) does not."""
    compile = dispatcher.compile

    def locked(signature: Any) -> Any:
        try:
            saved = _in_cache(dispatcher, _argument_types(signature)[0])
        except Exception:  # numba internals moved: the lock is always right
            saved = False
        if saved:
            return compile(signature)
        with _clock_stopped(), cache_lock(dispatcher):
            return compile(signature)

    dispatcher.compile = locked
    return dispatcher


_stopped_lock = threading.Lock()
_stopped_depth = 0  # compiles under way in this process, any thread, nested ones included
_stopped_since = 0.0
_stopped_seconds = 0.0


@contextmanager
def _clock_stopped() -> Iterator[None]:
    """Time inside does not pass on the :func:`work_clock` (counted once while compiles in
    several threads overlap)."""
    global _stopped_depth, _stopped_since, _stopped_seconds
    with _stopped_lock:
        if not _stopped_depth:
            _stopped_since = time.perf_counter()
        _stopped_depth += 1
    try:
        yield
    finally:
        with _stopped_lock:
            _stopped_depth -= 1
            if not _stopped_depth:
                _stopped_seconds += time.perf_counter() - _stopped_since


def work_clock() -> float:
    """``time.perf_counter()`` less the time this process has spent compiling ndoku's kernels
    (or waiting for another process to compile one): the clock of
    :class:`~ndoku.limits.Deadline` (the chains', the logic paths') and of ``generate``'s
    deadline, so that a first run on an empty cache stops where a warm one does, and a
    seed's puzzle is the same on both (a first ``generate --rules killer`` of a 6×6, seed 2,
    gave another puzzle when compiles ate its time).

    >>> a = work_clock(); b = work_clock()
    >>> 0 <= b - a < 1
    True
    """
    with _stopped_lock:
        now = _stopped_since if _stopped_depth else time.perf_counter()  # stands still
        return now - _stopped_seconds


#: The x86 time-stamp counter is readable from user code; elsewhere ``ticks`` returns 0 and
#: callers time with the clock instead.
HAS_TICKS = platform.machine().lower() in {"x86_64", "amd64"}

_F = TypeVar("_F", bound=Callable[..., Any])
# Untyped for mypy, which would see the decorated functions as typing-time callables.
_intrinsic: Any = extending.intrinsic

#: The ``what`` of each compile notice looked at so far.
_settled: set[str] = set()
#: The ``what`` of each version :func:`compiled` made ready so far.
_ready: set[str] = set()


def kernel(*, refcounts: bool = False, **options: Any) -> Callable[[_F], _F]:
    """numba's ``njit`` as every ndoku kernel is compiled: cached, one process at a time
    (:func:`cache_lock`), and without reference counting unless ``refcounts`` (``options``:
    numba's, such as ``inline`` or ``parallel``).

    A kernel that allocates nothing (every array comes from the caller, who keeps it alive)
    gains from leaving the counts out: the atomic increments and decrements numba keeps on
    each array view and argument took 40% of the 9×9 search's time (``_nrt`` is numba's own
    switch for this, underscored but long-standing). The chains, the rating's singles and the
    small shared helpers were written and measured with counting on, and keep it.
    """
    if not refcounts:
        options["_nrt"] = False
    jit: Any = njit  # its stubs do not know ``_nrt``
    compiled = jit(cache=True, **options)

    def decorate(function: _F) -> _F:
        return _compiling_under_lock(compiled(function))  # type: ignore[no-any-return]

    return decorate


@_intrinsic
def ticks(typingctx):  # type: ignore[no-untyped-def]
    """The CPU time-stamp counter (x86), or 0 where user code cannot read it."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        if not HAS_TICKS:
            return ir.Constant(ir.IntType(64), 0)
        fnty = ir.FunctionType(ir.IntType(64), [])
        counter = builder.module.declare_intrinsic("llvm.readcyclecounter", fnty=fnty)
        return builder.call(counter, [])

    return types.int64(), codegen


def compile_notice(what: str, seconds: float, kernel: Any, arguments: tuple[Any, ...]) -> None:
    """Say on stderr that ``what`` is compiling and about how many ``seconds`` that takes, when
    ``kernel`` is neither compiled in this process nor in numba's cache for the types of
    ``arguments`` (the arguments of the call about to be made).

    Looked at once per ``what`` and process, so it may precede every call of ``kernel``; a
    ``what`` names one set of argument types (one compiled version).
    """
    if what in _settled:
        return
    _settled.add(what)
    try:
        cached = is_cached(kernel, arguments)
    except Exception:  # numba internals moved: stay quiet rather than guess
        cached = True
    if not cached:
        _say_compiling(f"{what} (first run only, about {seconds:g} s)")


class _Announcer(event.Listener):
    """Says that ``what`` is compiling at the first compile it hears of."""

    def __init__(self, what: str) -> None:
        self.what = what

    def on_start(self, ev: Any) -> None:
        if self.what not in _settled:
            _settled.add(self.what)
            _say_compiling(self.what)

    def on_end(self, ev: Any) -> None:
        pass


@contextmanager
def compiling_notice(what: str) -> Iterator[None]:
    """Say on stderr that ``what`` is compiling, once per ``what`` and process, when numba
    compiles anything inside: for work whose kernels are many and compiled as reached, where
    no one kernel tells beforehand (loading them from the cache says nothing)."""
    if what in _settled:
        yield
        return
    with event.install_listener("numba:compile", _Announcer(what)):
        yield


def _say_compiling(what: str) -> None:
    print(f"ndoku: compiling {what}…", file=sys.stderr)


def compiled(kernel: Any, arguments: tuple[Any, ...], what: str | None = None) -> None:
    """Load or compile ``kernel``'s version for the types of ``arguments`` now, without
    calling it: work timed from here on does not count the compile. With ``what`` (the name
    of that version, as a compile notice gives it), once per process: typing the arguments
    of a search with variant rules took 1.3 ms, each puzzle of a file."""
    if what in _ready:
        return
    kernel.compile(tuple(kernel.typeof_pyval(a) for a in arguments))
    if what is not None:
        _ready.add(what)


def is_cached(kernel: Any, arguments: tuple[Any, ...]) -> bool:
    """Whether ``kernel`` has a version for the types of ``arguments``, loaded or on disk.

    Reads numba's cache index (private attributes): raises when a numba upgrade moved them.
    """
    signature = tuple(kernel.typeof_pyval(a) for a in arguments)
    return signature in kernel.overloads or _in_cache(kernel, signature)


def _in_cache(kernel: Any, signature: tuple[Any, ...]) -> bool:
    """Whether numba's cache index on disk lists ``kernel``'s version for the argument types
    ``signature`` (private attributes: raises when a numba upgrade moved them)."""
    cache = kernel._cache
    key = cache._index_key(signature, kernel.targetctx.codegen())
    return key in cache._cache_file._load_index()
