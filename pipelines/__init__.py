"""Batch jobs composed from the library, installed as ``mjfast.pipelines``.

A job is a source of shards (deterministic keys), a transform per shard (a library call:
no rule logic here) and a sink (the datasets module's atomic Parquet writes, a done
marker per shard, a manifest). :func:`run_job` runs the unfinished shards inline, on a
local process pool or on Dask, with the same bytes whatever runs them. Jobs:
:mod:`.hands`, :mod:`.replay`, :mod:`.simulate`, :mod:`.study` (each with its default
spec, a TOML file beside it). See ``docs/pipelines.md``.
"""
from __future__ import annotations

from ._core import (AccountingError, Job, RunSummary, Shard, ShardFailure, ShardResult,
                    SpecError, derive_seed, execute_shard, run_job)
from ._executors import DaskExecutor, InlineExecutor, ProcessExecutor, make_executor

__all__ = ["AccountingError", "Job", "RunSummary", "Shard", "ShardFailure", "ShardResult",
           "SpecError", "derive_seed", "execute_shard", "run_job", "DaskExecutor",
           "InlineExecutor", "ProcessExecutor", "make_executor"]
