"""The job runner's core: a job is a source of shards, a transform per shard and a sink.

- **source**: :meth:`Job.shards` lists :class:`Shard` s, each a deterministic key and the
  JSON-able parameters its transform needs (never data: a worker reads its own input);
- **transform**: a module-level function ``transform(params) -> ShardResult`` (a library
  call: no rule logic here), named by ``"module:function"`` so any worker can import it;
- **sink**: the worker writes each output table of its shard through
  :class:`mjfast.datasets.Dataset` (atomic files) and any extra files (JSON lines, Botzone
  text), then the shard's done marker.

:func:`run_job` runs the shards that have no done marker on an executor (inline, a local
process pool, or Dask; see :mod:`._executors`), then writes the manifest. A shard's files
depend only on its key and parameters, so the dataset is the same bytes whatever the
executor, the worker count, or how often the run was killed and resumed.

Row accounting: a transform reports how many inputs it took (``n_in``) and how many ended
in its primary output table and in ``quarantine``; the framework checks that they add up
and the manifest records the totals.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from mjfast.errors import InputError

if TYPE_CHECKING:
    from mjfast.rules import RuleContext


class SpecError(InputError):
    """A bad job spec (TOML file or options): unknown key, wrong type, missing input."""


class ShardFailure(RuntimeError):
    """Some shards raised: the dataset is incomplete; running the job again resumes it."""

    def __init__(self, failures: dict[str, str]):
        self.failures = failures
        first = next(iter(failures.items()))
        super().__init__(f"{len(failures)} shard(s) failed (first: {first[0]}: {first[1]}); "
                         "run the same command again to resume")


class AccountingError(RuntimeError):
    """A transform's rows do not add up (inputs != output rows + quarantined): a bug."""


@dataclass(frozen=True)
class Shard:
    """One unit of work: ``key`` names its files (``part-<key>.parquet``) and done marker;
    ``transform`` is the ``"module:function"`` that runs it on ``params``."""
    key: str
    transform: str
    params: dict[str, Any]


@dataclass
class ShardResult:
    """What a transform returns: ``tables`` as ``(table, rules, variant, data)``, extra
    ``files`` as ``(path relative to the dataset folder, bytes)`` and the row accounting:
    ``n_in`` inputs = ``n_out`` rows of ``primary`` + ``n_quarantined``."""
    tables: list[tuple[str, str, str | None, Any]]
    n_in: int
    primary: str
    n_out: int
    n_quarantined: int = 0
    info: dict[str, Any] = field(default_factory=dict)
    files: list[tuple[str, bytes]] = field(default_factory=list)


@dataclass
class Job:
    """A job: its name, the shards and the manifest's metadata (``config``: what the job
    computes, pinned in ``_job.json``; ``inputs``: files with their hashes; ``rules``: the
    records of the rule contexts it uses, :meth:`mjfast.rules.RuleContext.record`)."""
    name: str
    shards: list[Shard]
    config: dict[str, Any]
    inputs: list[dict[str, Any]] = field(default_factory=list)
    rules: list[dict[str, Any]] = field(default_factory=list)


def stable_hash(obj: Any, n: int = 16) -> str:
    """A short hex digest of a JSON-able object (sorted keys): stable across runs."""
    text = json.dumps(obj, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:n]


def context_params(ctx: RuleContext) -> dict[str, Any]:
    """What a shard's parameters carry of its rule context (JSON): the rule set, the
    variant's label, what the loaders take and the content hash."""
    return {"rules": ctx.rules, "variant": ctx.variant, "variant_arg": ctx.arg,
            "variant_hash": ctx.content_hash}


def shard_context(p: dict[str, Any]) -> RuleContext:
    """The rule context of a shard (:func:`context_params`), rebuilt in the worker; a
    variant file whose content changed since the job was planned is refused."""
    from mjfast.errors import RuleSetError
    from mjfast.rules import rule_context
    ctx = rule_context(p["rules"], p["variant_arg"])
    if ctx.content_hash != p["variant_hash"]:
        raise RuleSetError(ctx.variant_id, None,
                           f"the rules changed since the job was planned (hash "
                           f"{p['variant_hash']}, now {ctx.content_hash}): a dataset holds "
                           "one version of each variant; write the new one to another folder")
    return ctx


def derive_seed(seed: int, *parts: Any) -> int:
    """A 64-bit seed for one shard from the job seed and the shard's coordinates
    (counter-based: no shared generator state, the same whatever runs it)."""
    h = hashlib.sha256(json.dumps([int(seed), *parts], default=str).encode()).digest()
    return int.from_bytes(h[:8], "little")


def _resolve(ref: str) -> Callable[[dict[str, Any]], ShardResult]:
    module, _, name = ref.partition(":")
    return getattr(importlib.import_module(module), name)


def execute_shard(shard: Shard, out: str, single_thread: bool = True) -> dict[str, Any]:
    """Run one shard in whatever process holds it: transform, write its tables, mark it
    done. Returns the done marker's content (small; the data stays in the files)."""
    if single_thread:
        import numba
        numba.set_num_threads(1)
    from mjfast.datasets import Dataset
    res = _resolve(shard.transform)(dict(shard.params))
    if res.n_in != res.n_out + res.n_quarantined:
        raise AccountingError(f"shard {shard.key}: {res.n_in} inputs but {res.n_out} "
                              f"{res.primary} rows + {res.n_quarantined} quarantined")
    from mjfast.datasets import atomic_write_bytes
    ds = Dataset(out)
    rows: dict[str, int] = {}
    for table, rules, variant, data in res.tables:
        if _num_rows(data) == 0:
            continue
        path = ds.write(table, data, rules=rules, variant=variant, shard=shard.key)
        import pyarrow.parquet as pq
        n = pq.ParquetFile(path).metadata.num_rows
        rows[table] = rows.get(table, 0) + n
    root = Path(out).resolve()
    for rel, data in res.files:
        target = (root / rel).resolve()
        if root not in target.parents:
            raise AccountingError(f"shard {shard.key}: file {rel!r} outside the dataset")
        atomic_write_bytes(target, data)
    info = {"params": shard.params, "rows": rows, "n_in": res.n_in, "primary": res.primary,
            "n_out": res.n_out, "n_quarantined": res.n_quarantined, **res.info}
    if res.files:
        info["files"] = sorted(rel for rel, _ in res.files)
    ds.mark_done(shard.key, info)
    return info


def _num_rows(data) -> int:
    if isinstance(data, dict):
        return max((len(v) for v in data.values()), default=0)
    return data.num_rows if hasattr(data, "num_rows") else len(data)


def _clean_partial(path: Path) -> int:
    """Remove the temporary files a killed run left (``.<name>.<random>.tmp``)."""
    n = 0
    if path.exists():
        for p in path.rglob(".*.tmp"):
            try:
                p.unlink()
                n += 1
            except FileNotFoundError:
                pass
    return n


def _rule_hashes(obj: Any, out: dict[str, str] | None = None) -> dict[str, str]:
    """Variant id -> content hash of every rule context a job config names."""
    out = {} if out is None else out
    if isinstance(obj, dict):
        if isinstance(obj.get("id"), str) and isinstance(obj.get("hash"), str):
            out[obj["id"]] = obj["hash"]
        for v in obj.values():
            _rule_hashes(v, out)
    elif isinstance(obj, list):
        for v in obj:
            _rule_hashes(v, out)
    return out


def _check_job_file(out: Path, job: Job) -> None:
    """``_job.json`` holds the job's config; another job's dataset is never mixed in, nor
    data of the same variant written with other rules (another content hash)."""
    from mjfast.datasets import atomic_write_bytes
    p = out / "_job.json"
    want = {"job": job.name, "config": job.config}
    text = json.dumps(want, sort_keys=True, indent=1, ensure_ascii=False, default=str)
    if p.exists():
        have = json.loads(p.read_text())
        if have != json.loads(text):
            old, new = _rule_hashes(have), _rule_hashes(json.loads(text))
            changed = sorted(k for k in old.keys() & new.keys() if old[k] != new[k])
            if changed:
                k = changed[0]
                raise SpecError(str(out), None,
                                f"the dataset was written under {k} with rules of hash "
                                f"{old[k]}, these rules hash {new[k]} (the variant file "
                                "changed): a resume or merge across different rules is "
                                "refused; choose another --out")
            raise SpecError(str(out), None, "the output folder holds a dataset of another job "
                            f"or spec ({have.get('job')}); choose another --out")
        return
    atomic_write_bytes(p, text.encode())


@dataclass
class RunSummary:
    """What :func:`run_job` did: shards run / skipped, row accounting, the manifest."""
    out: Path
    job: str
    shards_total: int
    shards_run: int
    shards_skipped: int
    n_in: int
    n_out: int
    n_quarantined: int
    tables: dict[str, int]
    manifest: dict[str, Any]


def run_job(job: Job, out: str | os.PathLike, executor=None, progress=None) -> RunSummary:
    """Run ``job`` into the dataset folder ``out``: skip shards with a done marker, run the
    others on ``executor`` (default: inline), then write the manifest.

    ``progress(shard_key, info, done, total)`` is called as each shard finishes. Raises
    :class:`ShardFailure` after the other shards finished when some raised.
    """
    from mjfast.datasets import Dataset
    from ._executors import InlineExecutor

    out = Path(out)
    keys = [s.key for s in job.shards]
    if len(set(keys)) != len(keys):
        raise AccountingError(f"job {job.name}: duplicate shard keys")
    out.mkdir(parents=True, exist_ok=True)
    _clean_partial(out)
    _check_job_file(out, job)
    ds = Dataset(out)
    pending = [s for s in job.shards if not ds.is_done(s.key)]
    executor = executor or InlineExecutor()
    done = len(job.shards) - len(pending)
    failures: dict[str, str] = {}
    for key, info, error in executor.run(pending, str(out)):
        if error is not None:
            failures[key] = error
            continue
        done += 1
        if progress is not None:
            progress(key, info, done, len(job.shards))
    if failures:
        raise ShardFailure(dict(sorted(failures.items())))
    markers = {k: v for k, v in ds.done_shards().items() if k in set(keys)}
    n_in = sum(m["n_in"] for m in markers.values())
    n_out = sum(m["n_out"] for m in markers.values())
    n_q = sum(m["n_quarantined"] for m in markers.values())
    rules = {r["id"]: r for r in job.rules}
    meta = {"job": job.name, "config": job.config, "inputs": job.inputs,
            "rules": [rules[k] for k in sorted(rules)],
            "accounting": {"inputs": n_in, "outputs": n_out, "quarantined": n_q}}
    manifest = ds.write_manifest(meta)
    return RunSummary(out, job.name, len(job.shards), len(pending),
                      len(job.shards) - len(pending), n_in, n_out, n_q,
                      dict(manifest["tables"]), manifest)
