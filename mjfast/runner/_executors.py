"""Where shards run: inline, on a local process pool, or on Dask. One task per shard.

Every executor calls the same :func:`~._core.execute_shard` with the same arguments, and a
shard's files depend only on its key and parameters, so the dataset is identical whatever
runs it. Workers keep Numba's kernels single-threaded (the parallelism is across shards).
Local pools start workers with ``forkserver`` (``spawn`` where there is none): forking a
process that already runs OpenMP/TBB threads can deadlock.

``executor.run(shards, out)`` yields ``(shard_key, info, error)`` as shards
finish (``error`` a one-line message, else None).
"""
from __future__ import annotations

import multiprocessing as mp
from typing import Iterator

from ._core import Shard, execute_shard


def _one_line(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}".splitlines()[0][:500]


class InlineExecutor:
    """Run shards one after the other in this process (kernels keep their threads)."""
    name = "inline"
    workers = 1

    def run(self, shards: list[Shard], out: str) -> Iterator[tuple]:
        for s in shards:
            try:
                yield s.key, execute_shard(s, out, single_thread=False), None
            except Exception as exc:  # noqa: BLE001  (reported per shard, run continues)
                yield s.key, None, _one_line(exc)


def _start_method() -> str:
    return "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"


class ProcessExecutor:
    """A local pool of ``workers`` processes (forkserver / spawn), one task per shard."""
    name = "processes"

    def __init__(self, workers: int):
        self.workers = max(1, int(workers))

    def run(self, shards: list[Shard], out: str) -> Iterator[tuple]:
        if not shards:
            return
        from concurrent.futures import ProcessPoolExecutor, as_completed
        ctx = mp.get_context(_start_method())
        with ProcessPoolExecutor(self.workers, mp_context=ctx) as ex:
            futures = {ex.submit(execute_shard, s, out, True): s.key for s in shards}
            try:
                for f in as_completed(futures):
                    key = futures[f]
                    try:
                        yield key, f.result(), None
                    except Exception as exc:  # noqa: BLE001
                        yield key, None, _one_line(exc)
            except BaseException:
                for f in futures:
                    f.cancel()
                raise


class DaskExecutor:
    """Shards as Dask tasks: on an existing cluster (``scheduler`` address) or on a
    LocalCluster of ``workers`` single-threaded worker processes started here. Workers
    write to ``out`` themselves, so on a real cluster it must be a shared folder."""
    name = "dask"

    def __init__(self, scheduler: str | None = None, workers: int | None = None,
                 processes: bool = True):
        self.scheduler = scheduler
        self.workers = workers or 2
        self.processes = processes

    def _client(self):
        try:
            from distributed import Client, LocalCluster
        except ImportError as exc:  # pragma: no cover
            from ._core import SpecError
            raise SpecError("dask", None, "Dask is not installed: pip install 'mjfast[dask]'") from exc
        if self.scheduler:
            return Client(self.scheduler), None
        cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1,
                               processes=self.processes, dashboard_address=":0",
                               silence_logs=40)
        return Client(cluster), cluster

    def run(self, shards: list[Shard], out: str) -> Iterator[tuple]:
        if not shards:
            return
        from distributed import as_completed
        client, cluster = self._client()
        try:
            futures = {}
            for s in shards:
                f = client.submit(execute_shard, s, out, True,
                                  key=f"mjfast-shard-{s.key}", pure=False, retries=0)
                futures[f] = s.key
            for f in as_completed(list(futures)):
                key = futures[f]
                try:
                    yield key, f.result(), None
                except Exception as exc:  # noqa: BLE001
                    yield key, None, _one_line(exc)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()


def make_executor(workers: int | None = None, scheduler: str | None = None,
                  dask: bool = False):
    """The executor for the CLI's options: ``scheduler`` -> Dask on that cluster;
    ``dask`` -> a Dask LocalCluster of ``workers``; ``workers`` > 1 -> a local process
    pool; else inline."""
    if scheduler or dask:
        return DaskExecutor(scheduler=scheduler, workers=workers)
    if workers is not None and workers > 1:
        return ProcessExecutor(workers)
    return InlineExecutor()


__all__ = ["InlineExecutor", "ProcessExecutor", "DaskExecutor", "make_executor"]
