"""The replay as a job of the one runner (:mod:`mjfast.runner`): log files -> shards.

Shards are keyed by the input file's SHA-256 (and a hash of its name), so running the job
again over a folder that gained files replays only the new ones:

- a file of a format that can be cut (Botzone text: ``pieces``) is cut into pieces of
  ``chunk_deals`` deals by one streaming pass, one shard per piece and rule context
  (``...-c00000``, ``...-c00001``): a worker holds one piece, never the file, and each
  piece has its own done marker;
- any other file (a Botzone JSON deal, an own-events file or dataset) is one shard.

Deals in = replayed + quarantined, per shard (the replay's own accounting, checked by the
runner); a deal id that repeats one of an earlier piece of the same file is quarantined as
in a whole-file read (the cutting pass hands each piece the earlier ids it repeats).
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from ..datasets import file_sha256
from ..formats import expand_paths, get_format
from ..rules import RuleContext, rule_context
from ..runner import Job, Shard, ShardResult, SpecError, context_params, shard_context

TRANSFORM = "mjfast.replay:shard_transform"


def shard_transform(p: dict[str, Any]) -> ShardResult:
    """One shard of the replay job: a piece of a file, or a whole file."""
    from ._replay import replay_chunk
    ctx = shard_context(p)
    mod = get_format(p["format"])
    if "start" in p:
        chunk = mod.read_piece(p["path"], p, ctx)
        shards = [replay_chunk(chunk, ctx, candidates=p["candidates"], index=p["chunk"])]
    else:
        chunks = mod.read([p["path"]], ctx, chunk_deals=p["chunk_deals"], seen=set())
        shards = [replay_chunk(c, ctx, candidates=p["candidates"], index=i)
                  for i, c in enumerate(chunks)]
    from ._replay import gather
    res = gather(shards, p["candidates"])
    st = res.stats
    tables = [(name, ctx.rules, ctx.variant, t) for name, t in res.tables.items()]
    return ShardResult(tables, n_in=st.deals_in, primary="deals", n_out=st.replayed,
                       n_quarantined=st.quarantined,
                       info={"stats": st.as_dict(), "file": p["file_name"]})


def replay_job(inputs: Mapping[str, Sequence[str | Path]], rules: str | RuleContext = "mcr",
               variants: Iterable[str | RuleContext | None] | None = None,
               candidates: bool = False, chunk_deals: int = 2000, name: str = "replay") -> Job:
    """The replay job of ``inputs`` (format name -> files, folders or globs) under each of
    ``variants`` (names, ``.toml`` paths or rule contexts of ``rules``), paired by deal
    id; ``variants`` None: each file under the rules it was produced under
    (:func:`~mjfast.replay.log_context`)."""
    from ._replay import log_context
    if isinstance(chunk_deals, bool) or not isinstance(chunk_deals, int) or chunk_deals < 1:
        raise SpecError(f"chunk_deals = {chunk_deals!r}", None, "chunk_deals: a positive integer")
    given = None if variants is None else [rule_context(rules, v) for v in variants]
    shards: list[Shard] = []
    inputs_meta: list[dict[str, Any]] = []
    used: dict[str, RuleContext] = {}
    for fmt in sorted(inputs):
        items = [str(x) for x in inputs[fmt]]
        mod = get_format(fmt)
        paths = expand_paths(items, fmt)
        if not paths:
            raise SpecError(", ".join(items), None, f"no {fmt} log files there")
        cut = getattr(mod, "pieces", None)
        for path in paths:
            pieces: list[dict[str, Any]] = [{}]
            if cut is not None and path.is_file():
                digest, pieces = cut(path, chunk_deals)
            else:
                digest = file_sha256(path) if path.is_file() else _folder_sha256(path)
            inputs_meta.append({"file": path.name, "format": fmt, "bytes": _size(path),
                                "sha256": digest,
                                **({"pieces": len(pieces)} if pieces[0] else {})})
            tag = hashlib.sha256(path.name.encode()).hexdigest()[:6]
            for ctx in given or [log_context([path], fmt, rules, None)]:
                used[ctx.variant_id] = ctx
                for k, piece in enumerate(pieces):
                    key = f"{name}-{ctx.rules}-{ctx.variant}-{digest[:20]}-{tag}"
                    params = {"path": str(path), "file_name": path.name, "format": fmt,
                              **context_params(ctx), "candidates": bool(candidates),
                              "chunk_deals": chunk_deals}
                    if piece:
                        key += f"-c{k:05d}"
                        params.update(chunk=k, **piece)
                    shards.append(Shard(key, TRANSFORM, params))
    if not shards:
        raise SpecError(str(dict(inputs)), None, "no log files")
    contexts = [used[k] for k in sorted(used)]
    config = {"variants": [c.manifest() for c in contexts], "candidates": bool(candidates),
              "chunk_deals": chunk_deals}
    return Job(name, shards, config, inputs_meta, [c.record() for c in contexts])


def _size(path: Path) -> int:
    return path.stat().st_size if path.is_file() else sum(
        p.stat().st_size for p in path.rglob("*") if p.is_file())


def _folder_sha256(path: Path) -> str:
    """One hash of a dataset folder's event files (names and contents)."""
    h = hashlib.sha256()
    for p in sorted(path.rglob("*.parquet")):
        h.update(str(p.relative_to(path)).encode() + b"\0" + file_sha256(p).encode())
    return h.hexdigest()


__all__ = ["TRANSFORM", "replay_job", "shard_transform"]
