"""The one job runner: every batch command (``mjfast hands``, ``simulate``, ``replay``,
``study``, ``run``) and the library's ``out=`` / ``workers=`` paths run through it.

A job (:class:`Job`) is a list of shards, each a deterministic key, a transform named
``"module:function"`` and its JSON parameters; :func:`run_job` runs the shards without a
done marker on an executor (inline, a local process pool, Dask), writes each shard's
tables (and files) atomically then its done marker, and the manifest with the row
accounting and the rule contexts the job used. One folder layout::

    DIR/_job.json                       the job and its config (another job's folder is refused)
    DIR/_done/<shard>.json              one marker per finished shard
    DIR/<table>/rules=R/variant=V/part-<shard>.parquet
    DIR/manifest.json                   config, inputs, rules, row counts, accounting, markers

Running the same job into the same folder again rewrites nothing; a killed run resumes.
The job definitions live with the library pieces they run (``mjfast.replay``,
``mjfast.simulation``) and in ``mjfast.pipelines`` (specs, the hands and study jobs).
"""
from __future__ import annotations

from ._core import (AccountingError, Job, RunSummary, Shard, ShardFailure, ShardResult,
                    SpecError, context_params, derive_seed, execute_shard, run_job,
                    shard_context, stable_hash)
from ._executors import DaskExecutor, InlineExecutor, ProcessExecutor, make_executor

__all__ = ["AccountingError", "Job", "RunSummary", "Shard", "ShardFailure", "ShardResult",
           "SpecError", "context_params", "derive_seed", "execute_shard", "run_job",
           "shard_context", "stable_hash",
           "DaskExecutor", "InlineExecutor", "ProcessExecutor", "make_executor"]
