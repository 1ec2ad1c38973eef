"""Batch jobs composed from the library, installed as ``mjfast.pipelines``.

A job is a source of shards (deterministic keys), a transform per shard (a library call:
no rule logic here) and a sink (the datasets module's atomic Parquet writes, a done
marker per shard, a manifest), run by the one job runner (:mod:`mjfast.runner`: inline,
a local process pool or Dask, the same bytes whatever runs them). Here: the job specs
(TOML files beside each job) and the jobs :mod:`.hands`, :mod:`.replay`, :mod:`.simulate`,
:mod:`.study`. See ``docs/pipelines.md``.
"""
from __future__ import annotations

from mjfast.runner import (AccountingError, DaskExecutor, InlineExecutor, Job,
                           ProcessExecutor, RunSummary, Shard, ShardFailure, ShardResult,
                           SpecError, derive_seed, execute_shard, make_executor, run_job)

__all__ = ["AccountingError", "Job", "RunSummary", "Shard", "ShardFailure", "ShardResult",
           "SpecError", "derive_seed", "execute_shard", "run_job", "DaskExecutor",
           "InlineExecutor", "ProcessExecutor", "make_executor"]
