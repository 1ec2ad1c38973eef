"""The ``hands`` job: hands -> shanten, waits, scores and every wait's score -> ``hands``.

Sources (spec ``hands.toml`` beside this file):

- ``generate`` (default): ``n`` ready or complete hands per rule set from the library's
  generator (:func:`mjfast.random_hands`, its documented mix), in shards of
  ``shard_size``. Shard k's hands come from a seed derived from (seed, rules, kind, k), so
  every variant of a rule set sees the same hands (``hand_id`` pairs them);
- ``files``: hand strings, one per line (``.txt``) or a ``hand`` column (``.parquet``);
  rows that do not parse go to ``quarantine`` with their line and reason.

Every row that parses is analysed the same way (a library call per column, no rule
logic here): ``shanten`` (all forms; ``form`` the first form reaching it), for a ready
hand every winning tile scored on a discard and on a self-draw (``waits``), for a
complete hand its fans, total and legality.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from mjfast.runner import (Job, Shard, ShardResult, SpecError, context_params, derive_seed,
                           shard_context)
from ._spec import check_type, load_spec, resolve_variant

TRANSFORM = "mjfast.pipelines.hands:transform"


# ---------------------------------------------------------------------------------------
# transform
# ---------------------------------------------------------------------------------------
def _take(batch, idx: np.ndarray):
    """Rows ``idx`` of a HandBatch."""
    from mjfast.scoring import take_rows
    return take_rows(batch, idx)


def analyse(batch, variant, strings=None, hand_id: np.ndarray | None = None,
            wait_fans: bool = True):
    """The ``hands`` table's columns for a HandBatch (dict of Arrow/NumPy columns);
    ``wait_fans``: also each wait's fan lists (MCR: from the same scoring pass as the
    totals; other rule sets: one more pass per way)."""
    import numba
    import pyarrow as pa
    import mjfast
    from mjfast.rules.registry import FORM_NAMES
    from mjfast.scoring import error_column, fan_lists, fan_points, score_wait_lists
    n = len(batch)
    threads = numba.get_num_threads()      # 1 in a pool / Dask worker, all cores inline
    rules = batch.rules
    sh = mjfast.shanten(batch.counts, rules, forms=True, threads=1) if n else {"shanten": np.zeros(0, np.int8)}
    shanten = np.asarray(sh["shanten"], dtype=np.int8)
    form = np.full(n, -1, dtype=np.int8)
    for code in reversed(range(len(FORM_NAMES))):         # lowest form code wins
        per = sh.get(FORM_NAMES[code])
        if per is not None:
            form[np.asarray(per) == shanten] = code
    complete_rows = batch.winning_tile >= 0
    ready_rows = (~complete_rows) & (shanten == 0)
    cols: dict[str, Any] = {
        "hand_id": np.arange(n, dtype=np.int64) if hand_id is None else hand_id,
        "hand": strings if strings is not None else pa.nulls(n, pa.string()),
        "form": form, "n_melds": batch.n_melds.astype(np.int8), "shanten": shanten}
    # every wait of the ready hands, scored both ways (one batch-scorer pass per way)
    if ready_rows.any():
        cols["waits"] = score_wait_lists(batch, ready_rows, variant, fans=wait_fans,
                                         threads=threads)
    else:
        cols["waits"] = pa.nulls(n, pa.list_(pa.null()))
    # complete hands scored
    incomplete = np.zeros(n, dtype=bool)
    if complete_rows.any():
        idx = np.flatnonzero(complete_rows)
        sub = batch if idx.size == n else _take(batch, idx)
        sc = mjfast.score_batch(sub, variant=variant, threads=threads)
        fc = np.zeros((n, sc.fan_counts.shape[1]), dtype=sc.fan_counts.dtype)
        fc[idx] = sc.fan_counts
        total = np.zeros(n, dtype=np.int32)
        total[idx] = sc.totals
        legal = np.zeros(n, dtype=bool)
        legal[idx] = sc.legal
        good = np.zeros(n, dtype=bool)
        good[idx] = sc.complete
        incomplete[idx] = ~np.asarray(sc.complete, dtype=bool)
        fans, _, _ = fan_lists(fc, fan_points(rules, variant, fc.shape[1]), good)
        cols["fans"] = fans
        cols["total"] = pa.array(total, mask=~good)
        cols["legal"] = pa.array(legal, mask=~good)
    cols["error"] = error_column(n, np.ones(n, bool), None, incomplete)
    cols["source"] = pa.repeat(pa.scalar("hands", pa.string()), n)
    return cols


def transform(p: dict[str, Any]) -> ShardResult:
    """One shard of the ``hands`` job (parameters from :func:`build_job`)."""
    import pyarrow as pa
    ctx = shard_context(p)
    rules, vname, varg = ctx.rules, ctx.variant, ctx
    if p["source"] == "generate":
        import mjfast
        from mjfast.notation import format_batch
        b = mjfast.random_hands(p["n"], rules, p["kind"], seed=p["seed"], threads=1)
        strings = pa.array(format_batch(b), pa.string()) if p["strings"] else None
        ids = p["start"] + np.arange(p["n"], dtype=np.int64)
        cols = analyse(b, varg, strings, ids, p["wait_fans"])
        return ShardResult([("hands", rules, vname, cols)], n_in=p["n"], primary="hands",
                           n_out=p["n"])
    # files: rows [start, start + n) of one input file
    from mjfast.notation import parse_batch
    strings, first_line = _read_rows(p)
    n = len(strings)
    b, ok, messages = parse_batch(strings, rules=rules, errors="mask")
    ok = np.asarray(ok, dtype=bool)
    good = np.flatnonzero(ok)
    lines = first_line + np.arange(n, dtype=np.int64)
    bad = np.flatnonzero(~ok)
    quarantine = {"source": [p["file_name"]] * bad.size, "deal_id": pa.nulls(bad.size, pa.string()),
                  "line": lines[bad], "step": pa.nulls(bad.size, pa.int32()),
                  "reason": [messages[i] or "unparsable" for i in bad.tolist()],
                  "rows": np.ones(bad.size, np.int64)}
    sub = b if good.size == n else _take(b, good)
    cols = analyse(sub, varg, strings.take(pa.array(good)), lines[good], p["wait_fans"])
    return ShardResult([("hands", rules, vname, cols), ("quarantine", rules, vname, quarantine)],
                       n_in=n, primary="hands", n_out=int(good.size),
                       n_quarantined=int(bad.size))


def _read_rows(p: dict[str, Any]):
    """(pa string array of the shard's rows, 1-based line / row number of the first)."""
    import pyarrow as pa
    path = Path(p["path"])
    if p["format"] == "parquet":
        import pyarrow.parquet as pq
        f = pq.ParquetFile(path)
        t = f.read_row_group(p["row_group"], columns=[p["column"]])
        col = t.column(p["column"]).combine_chunks()
        if not (pa.types.is_string(col.type) or pa.types.is_large_string(col.type)):
            col = col.cast(pa.string())
        return col, p["first_line"]
    with open(path, "rb") as f:
        f.seek(p["byte_start"])
        data = f.read(p["byte_end"] - p["byte_start"])
    text = data.decode("utf-8", errors="replace")
    rows = text.split("\n")
    if rows and rows[-1] == "":
        rows.pop()
    rows = [r[:-1] if r.endswith("\r") else r for r in rows]
    return pa.array(rows, pa.string()), p["first_line"]


# ---------------------------------------------------------------------------------------
# source
# ---------------------------------------------------------------------------------------
def _text_shards(path: Path, rows_per_shard: int) -> list[tuple[int, int, int, int]]:
    """(byte_start, byte_end, first_line, n_lines) per shard of a text file, found by one
    streaming pass (bounded memory)."""
    out = []
    start, line, count, pos = 0, 1, 0, 0
    with open(path, "rb") as f:
        while True:
            block = f.read(1 << 24)
            if not block:
                break
            nl = np.flatnonzero(np.frombuffer(block, dtype=np.uint8) == 10)
            j = 0
            while j < nl.size:
                take = min(rows_per_shard - count, nl.size - j)
                j += take
                count += take
                if count == rows_per_shard:
                    end = pos + int(nl[j - 1]) + 1
                    out.append((start, end, line, count))
                    start, line, count = end, line + count, 0
            pos += len(block)
    if pos > start:   # a last line without newline, or leftovers
        with open(path, "rb") as f:
            f.seek(start)
            rest = f.read()
        n_lines = rest.count(b"\n") + (0 if rest.endswith(b"\n") else 1)
        out.append((start, pos, line, n_lines))
    return out


def build_job(spec: dict[str, Any], variants: list | None = None,
              name: str = "hands") -> Job:
    """The ``hands`` job of a spec (see ``hands.toml``)."""
    from mjfast.datasets import file_sha256
    source = spec.get("source", "generate")
    if source not in ("generate", "files"):
        raise SpecError(f"source = {source!r}", None, "source must be 'generate' or 'files'")
    rules_list = spec["rules"] if isinstance(spec["rules"], list) else [spec["rules"]]
    if variants is None:
        vnames = spec.get("variants") or ["default"]
        variants = [resolve_variant(r, v) for r in rules_list for v in vnames
                    if v == "default" or _variant_applies(r, v)]
    shards: list[Shard] = []
    inputs: list[dict[str, Any]] = []
    config: dict[str, Any] = {"source": source, "variants": [v.manifest() for v in variants]}
    if source == "generate":
        from mjfast._generate import MIXES
        n = check_type(spec, "n", int)
        size = check_type(spec, "shard_size", int)
        seed = check_type(spec, "seed", int)
        kind = spec.get("kind", "ready")
        if kind not in ("ready", "complete"):
            raise SpecError(f"kind = {kind!r}", None, "kind must be 'ready' or 'complete'")
        if n < 0 or size < 1:
            raise SpecError(f"n = {n}, shard_size = {size}", None, "n >= 0, shard_size >= 1")
        config.update(kind=kind, n=n, shard_size=size, seed=seed,
                      strings=bool(spec.get("strings", True)),
                      wait_fans=bool(spec.get("wait_fans", True)),
                      mix={v.rules: MIXES[v.rules] for v in variants},
                      generator="mjfast.random_hands; shard k seed = sha256([seed, rules, kind, k])[:8]")
        for v in variants:
            for k, a in enumerate(range(0, n, size)):
                m = min(size, n - a)
                shards.append(Shard(f"{name}-{v.rules}-{v.variant}-{kind}-{k:06d}", TRANSFORM, {
                    "source": "generate", **context_params(v), "kind": kind, "n": m, "start": a,
                    "seed": derive_seed(seed, v.rules, kind, k),
                    "strings": bool(spec.get("strings", True)),
                    "wait_fans": bool(spec.get("wait_fans", True))}))
        return Job(name, shards, config, inputs, [v.record() for v in variants])
    # files
    paths = _expand(spec.get("files") or [])
    if not paths:
        raise SpecError(str(spec.get("files")), None, "no input files")
    size = check_type(spec, "shard_size", int)
    column = spec.get("column", "hand")
    config.update(shard_size=size, column=column, wait_fans=bool(spec.get("wait_fans", True)))
    for path in paths:
        digest = file_sha256(path)
        inputs.append({"file": path.name, "bytes": path.stat().st_size, "sha256": digest})
        fmt = "parquet" if path.suffix == ".parquet" else "text"
        pieces = []
        if fmt == "parquet":
            import pyarrow.parquet as pq
            md = pq.ParquetFile(path).metadata
            first = 1
            for g in range(md.num_row_groups):
                pieces.append({"row_group": g, "first_line": first})
                first += md.row_group(g).num_rows
        else:
            for a, z, line, _ in _text_shards(path, size):
                pieces.append({"byte_start": a, "byte_end": z, "first_line": line})
        for v in variants:
            for k, piece in enumerate(pieces):
                shards.append(Shard(f"{name}-{v.rules}-{v.variant}-{digest[:16]}-{k:06d}", TRANSFORM, {
                    "source": "files", **context_params(v), "path": str(path), "file_name": path.name,
                    "format": fmt, "column": column,
                    "wait_fans": bool(spec.get("wait_fans", True)), **piece}))
    return Job(name, shards, config, inputs, [v.record() for v in variants])


def _variant_applies(rules: str, v: str) -> bool:
    """A bundled variant name listed for several rule sets applies where its file exists."""
    try:
        resolve_variant(rules, v)
        return True
    except SpecError:
        return False


def _expand(items) -> list[Path]:
    """Files, folders (their files, sorted) and globs -> sorted unique file paths."""
    import glob
    out: list[Path] = []
    for it in ([items] if isinstance(items, str) else items):
        matches = sorted(glob.glob(str(it))) or [str(it)]
        for m in matches:
            p = Path(m)
            if p.is_dir():
                out += sorted(q for q in p.iterdir() if q.is_file() and not q.name.startswith("."))
            elif p.is_file():
                out.append(p)
            else:
                raise SpecError(str(it), None, "input file not found")
    seen, uniq = set(), []
    for p in out:
        r = p.resolve()
        if r not in seen:
            seen.add(r)
            uniq.append(r)
    return uniq


def job_from_spec(path: str | None = None, **overrides) -> Job:
    spec = load_spec(path, "hands", "hands")
    spec.update({k: v for k, v in overrides.items() if v is not None})
    return build_job(spec)


__all__ = ["analyse", "transform", "build_job", "job_from_spec"]
