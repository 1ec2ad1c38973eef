"""The ``replay`` job: game logs -> the replay's tables (``deals``, ``events``, ``turns``,
``wins``, ``win_chances``, ``discrepancies``, ``quarantine``) via :mod:`mjfast.replay`.

Shards are keyed by the input file's SHA-256 (and a hash of its name), so running the job
again over a folder that gained files replays only the new ones:

- a Botzone text file is cut into pieces of ``chunk_deals`` deals by one streaming pass
  (:func:`text_chunks`: byte ranges starting at ``Match`` lines), one shard per piece and
  variant (``...-c00000``, ``...-c00001``): a worker holds one piece, never the file, and
  each piece has its own done marker;
- a Botzone JSON file (one deal) or an own-events file is one shard.

Deals in = replayed + quarantined, per shard (the replay's own accounting, checked by the
framework); a deal id that repeats one of an earlier piece of the same file is quarantined
as in a whole-file read (the scan passes each piece the earlier ids it repeats).
"""
from __future__ import annotations

import hashlib
from array import array
from pathlib import Path
from typing import Any

from ._core import Job, Shard, ShardResult, SpecError
from ._spec import context_params, load_spec, resolve_variant, shard_context

TRANSFORM = "mjfast.pipelines.replay:transform"
FORMATS = ("botzone", "botzone-json", "events")


def transform(p: dict[str, Any]) -> ShardResult:
    variant = p["variant_arg"] or "default"
    if "start" in p:                       # one piece of a Botzone text file
        from mjfast.replay import replay_text_range
        res = replay_text_range(p["path"], p["start"], p["end"], p["line0"], rules=p["rules"],
                                variant=variant, candidates=p["candidates"],
                                seen=p["seen"], index=p["chunk"])
    else:
        from mjfast.replay import replay
        res = replay([p["path"]], p["format"], rules=p["rules"], variant=variant,
                     candidates=p["candidates"], chunk_deals=p["chunk_deals"])
    st = res.stats
    tables = [(name, p["rules"], p["variant"], t) for name, t in res.tables.items()]
    return ShardResult(tables, n_in=st.deals_in, primary="deals", n_out=st.replayed,
                       n_quarantined=st.quarantined,
                       info={"stats": st.as_dict(), "file": p["file_name"]})


SCAN_BLOCK = 1 << 24


def _match_starts(work: bytes, line_start: bool = True):
    """Offsets of the lines of ``work`` that begin with ``Match ``."""
    if line_start and work.startswith(b"Match "):
        yield 0
    i = work.find(b"\nMatch ")
    while i >= 0:
        yield i + 1
        i = work.find(b"\nMatch ", i + 1)


def _match_id(line: bytes) -> bytes | None:
    toks = line.split()
    return toks[1] if len(toks) == 2 else None


def text_chunks(path: str | Path, chunk_deals: int, block: int = SCAN_BLOCK
                ) -> tuple[str, list[dict[str, Any]]]:
    """Cut a Botzone text file into pieces of ``chunk_deals`` deals by one streaming pass
    (memory: one block of ``block`` bytes, and 8 bytes per deal id). Returns the file's
    SHA-256 and, per piece, ``start`` / ``end`` (bytes; a piece starts at a ``Match``
    line, the first piece at 0), ``line0`` (lines before it), ``deals`` (its ``Match``
    lines) and ``seen``: the deal ids of the piece that an earlier piece already has (the
    reader quarantines their repeats, as it does within a piece)."""
    if isinstance(chunk_deals, bool) or not isinstance(chunk_deals, int) or chunk_deals < 1:
        raise SpecError(f"chunk_deals = {chunk_deals!r}", None, "a positive integer")
    digest = hashlib.sha256()
    pieces: list[dict[str, Any]] = []
    hashes, owner = array("q"), array("q")
    start = line0 = n = 0
    pos = lines = 0                # file offset / lines before ``work``
    carry = b""
    line_start = True              # ``work`` begins a line
    with open(path, "rb") as f:
        while True:
            data = f.read(block)
            digest.update(data)
            buf = carry + data
            cut = buf.rfind(b"\n") + 1
            if not data or (cut == 0 and len(buf) >= block):    # the end, or no line end
                cut = len(buf)
            work, carry = buf[:cut], buf[cut:]
            at = 0
            for a in _match_starts(work, line_start):
                lines += work.count(b"\n", at, a)
                at = a
                if n == chunk_deals:
                    pieces.append({"start": start, "end": pos + at, "line0": line0, "deals": n})
                    start, line0, n = pos + at, lines, 0
                n += 1
                did = _match_id(work[a:work.find(b"\n", a) % (len(work) + 1)])
                if did is not None:
                    hashes.append(hash(did))
                    owner.append(len(pieces))
            lines += work.count(b"\n", at)
            pos += len(work)
            if work:
                line_start = work.endswith(b"\n")
            if not data:
                break
    pieces.append({"start": start, "end": pos, "line0": line0, "deals": n})
    for p in pieces:
        p["seen"] = []
    if len(hashes) > 1:
        _repeats(path, pieces, hashes, owner)
    return digest.hexdigest(), pieces


def _repeats(path, pieces, hashes, owner) -> None:
    """Fill each piece's ``seen``: the ids it shares with an earlier piece (exact: the
    hash only picks the candidates, which a second read of their pieces confirms)."""
    import numpy as np
    h = np.frombuffer(hashes, np.int64)
    o = np.frombuffer(owner, np.int64)
    order = np.argsort(h, kind="stable")
    hs, os_ = h[order], o[order]
    same = hs[1:] == hs[:-1]
    cross = same & (os_[1:] != os_[:-1])
    if not cross.any():
        return
    cand = set(hs[1:][cross].tolist())
    where = sorted(set(os_[np.isin(hs, list(cand))].tolist()))
    first: dict[bytes, int] = {}
    with open(path, "rb") as f:
        for k in where:
            p = pieces[k]
            f.seek(p["start"])
            text = f.read(p["end"] - p["start"])
            for a in _match_starts(text):
                did = _match_id(text[a:text.find(b"\n", a) % (len(text) + 1)])
                if did is None or hash(did) not in cand:
                    continue
                j = first.setdefault(did, k)
                if j < k:
                    p["seen"].append(did.decode("utf-8", "replace"))
    for p in pieces:
        p["seen"] = sorted(set(p["seen"]))


def bundled_logs() -> dict[str, list[str]]:
    """The Botzone logs shipped as package data, by format."""
    from mjfast.data import botzone_json_samples, botzone_text_sample
    return {"botzone": [str(botzone_text_sample())],
            "botzone-json": [str(p) for p in botzone_json_samples()]}


def build_job(spec: dict[str, Any], variants: list | None = None,
              name: str = "replay") -> Job:
    """Shards of the replay job (see ``replay.toml``): ``files`` (``"bundled"`` for the
    package's sample logs) in ``format``, under each variant."""
    from mjfast.datasets import file_sha256
    from mjfast.replay import expand_paths
    rules = spec.get("rules", "mcr")
    if isinstance(rules, list):
        if len(rules) != 1:
            raise SpecError(str(rules), None, "replay: one rule set")
        rules = rules[0]
    if variants is None:
        variants = [resolve_variant(rules, v) for v in (spec.get("variants") or ["default"])]
    files = spec.get("files") or []
    files = [files] if isinstance(files, str) else list(files)
    by_fmt: dict[str, list[str]] = {}
    fmt = spec.get("format", "botzone")
    candidates = bool(spec.get("candidates", False))
    chunk_deals = spec.get("chunk_deals", 2000)
    if isinstance(chunk_deals, bool) or not isinstance(chunk_deals, int) or chunk_deals < 1:
        raise SpecError(f"chunk_deals = {chunk_deals!r}", None, "chunk_deals: a positive integer")
    for f in files:
        if f == "bundled":
            for k, v in bundled_logs().items():
                by_fmt.setdefault(k, []).extend(v)
        else:
            if fmt not in FORMATS:
                raise SpecError(f"format = {fmt!r}", None, f"format is one of {', '.join(FORMATS)}")
            by_fmt.setdefault(fmt, []).append(f)
    if not by_fmt:
        raise SpecError(str(spec.get("files")), None, "no log files")
    shards, inputs = [], []
    for f_fmt, items in sorted(by_fmt.items()):
        paths = expand_paths(items, f_fmt)
        if not paths:
            raise SpecError(", ".join(items), None, f"no {f_fmt} log files there")
        for path in paths:
            pieces: list[dict[str, Any]] = [{}]
            if f_fmt == "botzone" and path.is_file():
                digest, pieces = text_chunks(path, chunk_deals)
            else:
                digest = file_sha256(path)
            inputs.append({"file": path.name, "format": f_fmt, "bytes": path.stat().st_size,
                           "sha256": digest, **({"pieces": len(pieces)} if pieces[0] else {})})
            tag = hashlib.sha256(path.name.encode()).hexdigest()[:6]
            for v in variants:
                for k, piece in enumerate(pieces):
                    key = f"{name}-{v.rules}-{v.variant}-{digest[:20]}-{tag}"
                    params = {"path": str(path), "file_name": path.name, "format": f_fmt,
                              **context_params(v),
                              "candidates": candidates, "chunk_deals": chunk_deals}
                    if piece:
                        key += f"-c{k:05d}"
                        params.update(chunk=k, **piece)
                    shards.append(Shard(key, TRANSFORM, params))
    config = {"variants": [v.manifest() for v in variants], "candidates": candidates,
              "chunk_deals": chunk_deals}
    return Job(name, shards, config, inputs)


def job_from_spec(path: str | None = None, **overrides) -> Job:
    spec = load_spec(path, "replay", "replay")
    spec.update({k: v for k, v in overrides.items() if v is not None})
    return build_job(spec)


__all__ = ["transform", "build_job", "job_from_spec", "bundled_logs", "text_chunks"]
