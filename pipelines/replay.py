"""The ``replay`` job: game logs -> the replay's tables (``deals``, ``events``, ``turns``,
``wins``, ``win_chances``, ``discrepancies``, ``quarantine``) via :mod:`mjfast.replay`.

One shard per log file and variant, keyed by the file's SHA-256 (and a hash of its name):
running the job again over a folder that gained files replays only the new ones. Deals in = replayed +
quarantined, per shard (the replay's own accounting, checked by the framework).
"""
from __future__ import annotations

import hashlib
from typing import Any

from ._core import Job, Shard, ShardResult, SpecError
from ._spec import Variant, load_spec, resolve_variant

TRANSFORM = "mjfast.pipelines.replay:transform"
FORMATS = ("botzone", "botzone-json", "events")


def transform(p: dict[str, Any]) -> ShardResult:
    from mjfast.replay import replay
    res = replay([p["path"]], p["format"], rules=p["rules"],
                 variant=p["variant_arg"] or "default", candidates=p["candidates"],
                 chunk_deals=p["chunk_deals"])
    st = res.stats
    tables = [(name, p["rules"], p["variant"], t) for name, t in res.tables.items()]
    return ShardResult(tables, n_in=st.deals_in, primary="deals", n_out=st.replayed,
                       n_quarantined=st.quarantined,
                       info={"stats": st.as_dict(), "file": p["file_name"]})


def bundled_logs() -> dict[str, list[str]]:
    """The Botzone logs shipped as package data, by format."""
    from mjfast.data import botzone_json_samples, botzone_text_sample
    return {"botzone": [str(botzone_text_sample())],
            "botzone-json": [str(p) for p in botzone_json_samples()]}


def build_job(spec: dict[str, Any], variants: list[Variant] | None = None,
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
            digest = file_sha256(path)
            inputs.append({"file": path.name, "format": f_fmt, "bytes": path.stat().st_size,
                           "sha256": digest})
            for v in variants:
                tag = hashlib.sha256(path.name.encode()).hexdigest()[:6]
                shards.append(Shard(f"{name}-{v.rules}-{v.name}-{digest[:20]}-{tag}", TRANSFORM, {
                    "path": str(path), "file_name": path.name, "format": f_fmt,
                    "rules": v.rules, "variant": v.name, "variant_arg": v.arg,
                    "candidates": bool(spec.get("candidates", False)),
                    "chunk_deals": int(spec.get("chunk_deals", 2000))}))
    config = {"variants": [v.manifest() for v in variants],
              "candidates": bool(spec.get("candidates", False))}
    return Job(name, shards, config, inputs)


def job_from_spec(path: str | None = None, **overrides) -> Job:
    spec = load_spec(path, "replay", "replay")
    spec.update({k: v for k, v in overrides.items() if v is not None})
    return build_job(spec)


__all__ = ["transform", "build_job", "job_from_spec", "bundled_logs"]
