"""Worker processes of this machine for a batch: each runs one job at a time, and one that
dies (killed, out of memory) loses only its own job.

``concurrent.futures`` fails every job of a pool when one of its workers dies, and waits for
the running ones when the caller stops; here a dead worker's job comes back as
:class:`WorkerLost` (its puzzles get an ``error`` status, and the batch goes on with a new
worker), and a caller that stops (Ctrl-C, an error, a closed pipe) stops every worker at
once. Workers are spawned (safe on every platform) and ignore SIGINT: a Ctrl-C at a terminal
reaches the whole process group, and the parent decides what becomes of their work.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections import deque
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.context import SpawnProcess
from typing import Any

from ndoku.errors import NdokuError

#: Seconds between two ticks (a ``None``) of :func:`run_jobs` while the workers work: the
#: caller looks at the clock and for Ctrl-C.
TICK_SECONDS = 0.1
#: Seconds a stopped worker gets to end before it is killed.
_END_SECONDS = 1.0


class WorkerLost(NdokuError):
    """A worker process died (killed, out of memory) while it ran a job."""


@dataclass(frozen=True, eq=False)
class Job:
    """``function(*args, **kwargs)`` for a worker process; ``size``: the puzzles it covers,
    ``tag``: what the caller keeps with it (the part of the batch it solves)."""

    function: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)
    size: int = 1
    tag: Any = None


def run_jobs(
    jobs: Iterable[Job], processes: int, room: Callable[[], bool] = lambda: True
) -> Generator[tuple[int, Job, Any] | None]:
    """Run ``jobs`` over at most ``processes`` worker processes: ``(number, job, result)``
    as each finishes (a :class:`WorkerLost` as the result of a job whose worker died), and
    ``None`` every :data:`TICK_SECONDS` while none does.

    Jobs are taken from ``jobs`` as workers are ready for them, a few ahead, and only while
    ``room()`` (the caller holds few results yet, see :func:`~ndoku.tasks.paced.in_order`,
    so that a stalled job cannot make the others' results pile up): a job that
    raises in its worker raises here; an error raised by ``jobs`` itself (a bad line read
    while the batch goes on) is raised once the jobs taken before it have finished. When
    the caller stops, every worker is stopped.

    >>> from operator import mul
    >>> done = run_jobs([Job(mul, (k, k)) for k in range(4)], 2)
    >>> sorted(result for _, _, result in filter(None, done))
    [0, 1, 4, 9]
    """
    context = multiprocessing.get_context("spawn")
    taken = enumerate(jobs)
    waiting: deque[tuple[int, Job]] = deque()
    workers: list[_Worker] = []
    failure: Exception | None = None
    exhausted, failed_starts = False, 0

    def idle() -> bool:  # no job waits for a worker or runs in one
        return not waiting and all(w.number is None for w in workers)

    try:
        while True:
            # without room, a job is still taken when none runs, so that the batch goes on
            while not exhausted and len(waiting) < processes and (room() or idle()):
                try:
                    item = next(taken, None)
                except Exception as exc:  # raised once the jobs taken before it are done
                    item, failure = None, exc
                exhausted = item is None
                if item is not None:
                    waiting.append(item)
            free = [w for w in workers if w.number is None]
            for _ in range(min(len(waiting) - len(free), processes - len(workers))):
                workers.append(_Worker.start(context))
            for worker in free:
                if not (worker.ready and waiting):
                    continue
                if worker.give(*waiting[0]):
                    waiting.popleft()
                else:  # it died before it could take the job, which waits for another
                    workers.remove(worker)
                    worker.stop()
            if exhausted and idle():
                if failure is not None:
                    raise failure
                return
            heard = wait(
                [w.connection for w in workers] + [w.sentinel for w in workers], TICK_SECONDS
            )
            if not heard:
                yield None
            for worker in [w for w in workers if w.connection in heard or w.sentinel in heard]:
                number, job = worker.number, worker.job
                said = worker.hear()
                if said is _DIED:
                    workers.remove(worker)
                    worker.stop()
                    if job is None:
                        failed_starts += not worker.ready
                        if failed_starts > processes:
                            raise WorkerLost("worker processes die as they start")
                        continue
                    said = (True, WorkerLost(f"its worker process died ({worker.ending()})"))
                if said is _READY or said is None:
                    continue
                ok, value = said
                if not ok:
                    raise value
                assert number is not None and job is not None
                yield number, job, value
    finally:
        for worker in workers:
            worker.stop()


_READY, _DIED = (True, "ready"), (False, "died")


@dataclass(eq=False)
class _Worker:
    process: SpawnProcess
    connection: Connection
    ready: bool = False
    number: int | None = None
    job: Job | None = None

    @classmethod
    def start(cls, context: Any) -> _Worker:
        mine, theirs = context.Pipe()
        process = context.Process(target=_serve, args=(theirs,), daemon=True)
        process.start()
        theirs.close()
        return cls(process, mine)

    @property
    def sentinel(self) -> int:
        return int(self.process.sentinel)

    def give(self, number: int, job: Job) -> bool:
        """Send it the job; False when it has died (the job stays to be given)."""
        try:
            self.connection.send((job.function, job.args, job.kwargs))  # the tag stays here
        except OSError:
            return False
        self.number, self.job = number, job
        return True

    def hear(self) -> tuple[bool, Any] | None:
        """What it said: :data:`_READY`, ``(True, result)`` or ``(False, error)`` of its
        job; :data:`_DIED` when it is gone; None when nothing is there yet."""
        try:
            if not self.connection.poll():
                return None if self.process.is_alive() else _DIED
            message = self.connection.recv()
        except (EOFError, OSError):
            return _DIED
        if message is None:
            self.ready = True
            return _READY
        self.number, self.job = None, None
        said: tuple[bool, Any] = message
        return said

    def ending(self) -> str:
        """How it ended: its pid, and the signal that killed it or its exit status."""
        self.process.join(_END_SECONDS)
        code = self.process.exitcode
        if code is not None and code < 0:
            return f"pid {self.process.pid}, {signal.Signals(-code).name}: killed, or out of memory"
        return f"pid {self.process.pid}, exit status {code}"

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(_END_SECONDS)
            if self.process.is_alive():
                self.process.kill()
        self.process.join(_END_SECONDS)
        self.connection.close()


def _serve(connection: Connection) -> None:
    """A worker: says it is ready, then runs each job it is given and sends back
    ``(True, result)`` or ``(False, error)``, until its parent goes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    connection.send(None)
    while True:
        try:
            function, args, kwargs = connection.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[bool, Any] = (True, function(*args, **kwargs))
        except Exception as exc:
            reply = (False, exc)
        try:
            connection.send(reply)
        except Exception as exc:  # a result or error that does not pickle
            connection.send((False, NdokuError(f"a worker's reply could not be sent: {exc}")))
