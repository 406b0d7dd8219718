"""The Dask side of a batch: reaching a cluster (or starting one here), and chunks sent to its
workers with their results coming back as they finish.

``distributed`` is imported only here and only when a cluster is used (the dask extra:
``pip install distributed``, or in ndoku's clone ``pip install -e '.[dask]'``); without it, a
clear :class:`~ndoku.errors.MissingExtra` names the extra.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ndoku.errors import MissingExtra, NdokuError
from ndoku.limits import MAX_JOBS
from ndoku.tasks.chunks import warm
from ndoku.tasks.workers import Job

if TYPE_CHECKING:
    from distributed import Client, Future

#: Seconds to reach a scheduler before giving up on it.
CONNECT_TIMEOUT = 10.0
#: Times Dask runs a chunk again when it raised (a lost worker's chunks are always run again).
RETRIES = 2
_ADDRESS = re.compile(r"(?:(?:tcp|tls|ws|wss|ucx)://)?(?:[\w.-]+|\[[0-9A-Fa-f:.]+\]):\d{1,5}")
_LOCAL = re.compile(r"local(?::(.*))?")


class ClusterError(NdokuError):
    """A cluster that cannot be used: a bad address, a scheduler out of reach."""


def distributed() -> ModuleType:
    """Dask's ``distributed``, or a clear error naming the extra that installs it."""
    try:
        import distributed
    except ImportError:
        raise MissingExtra.of("--cluster and client=", "dask", ["distributed"]) from None
    return distributed


def local_workers(address: str) -> int | None:
    """The worker processes of ``local`` (one per core) or ``local:N``; None for the address
    of a scheduler (``tcp://host:8786``, ``host:8786``).

    >>> local_workers("local:3"), local_workers("tcp://10.0.0.5:8786")
    (3, None)
    >>> local_workers("local:0")
    Traceback (most recent call last):
    ...
    ndoku.tasks.cluster.ClusterError: local:N takes 1 to 1024 worker processes, not '0'
    """
    local = _LOCAL.fullmatch(address)
    if local is not None:
        count = local.group(1)
        if count is None:
            return os.cpu_count() or 1
        if not count.isdigit() or not 1 <= int(count) <= MAX_JOBS:
            raise ClusterError(f"local:N takes 1 to {MAX_JOBS} worker processes, not {count!r}")
        return int(count)
    if _ADDRESS.fullmatch(address) is None:
        raise ClusterError(
            f"{address!r} is no cluster: give a scheduler's address (tcp://host:8786), local "
            "(a worker process per core) or local:N"
        )
    return None


@contextmanager
def open_cluster(address: str, connect_timeout: float | None = None) -> Iterator[Client]:
    """A client of the scheduler at ``address``, or of a cluster of worker processes started
    here (``local``, ``local:N``: one thread each) and closed after.

    Raises
    ------
    ClusterError
        A bad address, a scheduler not reached within ``connect_timeout`` seconds
        (:data:`CONNECT_TIMEOUT` by default), worker processes that did not start.
    MissingExtra
        ``distributed`` is not installed.
    """
    timeout = CONNECT_TIMEOUT if connect_timeout is None else connect_timeout
    workers = local_workers(address)
    dask = distributed()
    if workers is not None:
        try:
            cluster = dask.LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,  # no dashboard; its HTTP server on a free port:
                scheduler_kwargs={"dashboard_address": ":0"},
                silence_logs=logging.CRITICAL,  # a chunk's error is raised here
            )
        except (OSError, RuntimeError) as exc:  # no worker process could start
            raise ClusterError(
                f"cannot start {workers} worker processes: {exc} (a script that starts them "
                "does so under if __name__ == '__main__':)"
            ) from None
        with cluster, dask.Client(cluster) as client:
            client.wait_for_workers(workers)
            _warm_up(client)
            yield client
        return
    try:
        client = dask.Client(address, timeout=timeout)
    except (OSError, TimeoutError) as exc:
        raise ClusterError(f"cannot reach a Dask scheduler at {address}: {exc}") from None
    with client:
        _warm_up(client)
        yield client


def _warm_up(client: Client) -> None:
    """Each worker loads the exact search's kernels now, while this process reads the
    puzzles (a chunk would otherwise wait for them)."""
    dask = distributed()
    for worker in client.scheduler_info()["workers"]:
        dask.fire_and_forget(client.submit(warm, "auto", workers=[worker], pure=False))


def threads(client: Client) -> int:
    """Worker threads of the cluster now (at least 1, for a cluster still waiting for any)."""
    return max(1, sum(client.nthreads().values()))  # type: ignore[no-untyped-call]


def replies(
    client: Client, jobs: Iterable[Job], ahead: int, room: Callable[[], bool] = lambda: True
) -> Generator[tuple[int, Job, Any]]:
    """Each job run on the cluster: ``(job number, job, result)`` as they finish, with at most
    ``ahead`` of them submitted and not finished (the rest are taken from ``jobs`` as those
    finish and while ``room()``, so that a long batch is read as it goes and results that
    wait for a slow job's do not pile up at the caller).

    Dask runs a job again when its worker is lost, or (up to :data:`RETRIES` times) when
    it raised; the jobs submitted first run first. When the caller stops (an error, Ctrl-C,
    a loop left early) the jobs not finished are cancelled.
    """
    dask = distributed()
    taken = enumerate(jobs)
    running = dask.as_completed(with_results=True)
    # the jobs not finished, by key; a finished one is let go, so that the cluster forgets it
    pending: dict[Any, tuple[int, Job, Future[Any]]] = {}
    last: list[Future[Any]] = []

    def submit() -> bool:
        """Submit the next job, while there are some, ``ahead`` allows and ``room()`` (or
        none is pending, so that the batch always goes on)."""
        if len(pending) >= ahead or (pending and not room()):
            return False
        item = next(taken, None)
        if item is None:
            return False
        number, job = item
        future = client.submit(job.function, *job.args, retries=RETRIES, pure=False, **job.kwargs)
        pending[future.key] = (number, job, future)
        running.add(future)
        return True

    try:
        while submit():
            pass
        for future, result in running:
            number, job, _ = pending.pop(future.key)
            last = [future]
            yield number, job, result
            while submit():
                pass
    finally:
        if client.status == "running":  # not when the client was closed before the caller
            client.cancel([f for *_, f in pending.values()] + last)  # type: ignore[no-untyped-call]
