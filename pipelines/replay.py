"""The ``replay`` job's spec (``replay.toml``): game logs -> the replay's tables
(``deals``, ``events``, ``turns``, ``wins``, ``win_chances``, ``discrepancies``,
``quarantine``) by :func:`mjfast.replay.replay_job` (shards keyed by each file's SHA-256; a
Botzone text file cut into pieces of ``chunk_deals`` deals; see that function).

``files = ["bundled"]`` is the package's Botzone samples (text and JSON, each under its
own format); ``variants`` are names or ``.toml`` paths, every log replayed under each
(paired by ``deal_id``); no ``variants``: each log under the rules it was produced under.
"""
from __future__ import annotations

from typing import Any

from mjfast.formats import FORMATS
from mjfast.runner import Job, SpecError

from ._spec import load_spec, resolve_variant


def bundled_logs() -> dict[str, list[str]]:
    """The Botzone logs shipped as package data, by format."""
    from mjfast.data import botzone_json_samples, botzone_text_sample
    return {"botzone": [str(botzone_text_sample())],
            "botzone-json": [str(p) for p in botzone_json_samples()]}


def build_job(spec: dict[str, Any], variants: list | None = None,
              name: str = "replay") -> Job:
    """Shards of the replay job (see ``replay.toml``): ``files`` (``"bundled"`` for the
    package's sample logs) in ``format``, under each variant."""
    from mjfast.replay import replay_job
    rules = spec.get("rules", "mcr")
    if isinstance(rules, list):
        if len(rules) != 1:
            raise SpecError(str(rules), None, "replay: one rule set")
        rules = rules[0]
    if variants is None and spec.get("variants"):
        variants = [resolve_variant(rules, v) for v in spec["variants"]]
    files = spec.get("files") or []
    files = [files] if isinstance(files, str) else list(files)
    fmt = spec.get("format", "botzone")
    by_fmt: dict[str, list[str]] = {}
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
    return replay_job(by_fmt, rules, variants, bool(spec.get("candidates", False)),
                      spec.get("chunk_deals", 2000), name=name)


def job_from_spec(path: str | None = None, **overrides) -> Job:
    spec = load_spec(path, "replay", "replay")
    spec.update({k: v for k, v in overrides.items() if v is not None})
    return build_job(spec)


__all__ = ["build_job", "job_from_spec", "bundled_logs"]
