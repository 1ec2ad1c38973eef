"""The ``study`` job: a rule-balance study described by a small TOML file (``study.toml``).

``rules`` and ``variants`` (bundled names or ``.toml`` paths; every rule file's SHA-256 in
the manifest), ``seed``, ``mode`` and the data ``sources``, each with its own table:

- ``mode = "rescore"``: the same deals or hands scored under each variant, paired by
  ``deal_id`` / ``hand_id`` (sources ``replay``: every log replayed under each variant;
  ``hands``: the same generated hands, same ids, under each variant);
- ``mode = "resimulate"``: the same walls (same seed) played again under each variant
  (source ``simulate``).

Sources that do not vary (a ``simulate`` source in a ``rescore`` study, a ``replay`` in
a ``resimulate`` one) run once with no variant, which has one meaning (the rules the data
is produced under, :func:`mjfast.rules.produced_variant`): simulations under each rule
set's default tables, logs under the rules they were judged under (Botzone: ``botzone``);
``rescore`` lists sources to rescore under every variant whatever the mode (a
resimulation can also rescore its logs and hands: paired, nearly free). All shards go into
one dataset (tables partitioned by rules / variant), so one manifest and one report cover
the study.

``question`` (what the study asks, in words) and ``headline`` (the metrics of
:func:`mjfast.analytics.compare` that answer it) go into the manifest's config;
:func:`mjfast.analytics.study_answer` reads them back with the answer.
"""
from __future__ import annotations

from typing import Any

from mjfast.runner import Job, SpecError
from ._spec import load_spec, resolve_variant

MODES = ("rescore", "resimulate")
SOURCES = ("replay", "hands", "simulate")


def build_job(spec: dict[str, Any], name: str = "study") -> Job:
    from . import hands, replay, simulate
    mode = spec.get("mode")
    if mode not in MODES:
        raise SpecError(f"mode = {mode!r}", None, f"mode is one of {', '.join(MODES)}")
    rules = spec.get("rules", "mcr")
    if not isinstance(rules, str):
        raise SpecError(f"rules = {rules!r}", None, "a study compares variants of one rule set")
    variants = [resolve_variant(rules, v) for v in (spec.get("variants") or [])]
    if len(variants) < 1:
        raise SpecError("variants = []", None, "a study needs at least one variant")
    names = [v.variant for v in variants]
    if len(set(names)) != len(names):
        raise SpecError(str(names), None, "two variants share a name (rename a file)")
    sources = spec.get("sources") or []
    unknown = [s for s in sources if s not in SOURCES]
    if unknown or not sources:
        raise SpecError(str(sources), None, f"sources: some of {', '.join(SOURCES)}")
    seed = spec.get("seed", 0)
    rescore = list(spec.get("rescore") or [])
    if any(s not in ("replay", "hands") for s in rescore):
        raise SpecError(f"rescore = {rescore}", None, "rescore lists some of: replay, hands")
    shards, inputs, records = [], [], []
    config: dict[str, Any] = {"name": spec.get("name", "study"), "mode": mode, "rules": rules,
                              "variants": [v.manifest() for v in variants], "seed": seed,
                              "sources": {}}
    for key in ("question", "headline"):
        if spec.get(key):
            config[key] = spec[key]
    if rescore:
        config["rescore"] = rescore
    for src in sources:
        sub = dict(spec.get(src) or {})
        known = load_spec(None, src, src)
        bad = sorted(set(sub) - set(known))
        if bad:
            raise SpecError(f"[{src}] {bad}", None, f"unknown key(s) (known: {sorted(known)})")
        if src == "hands":
            sub_spec = {**load_spec(None, "hands", "hands"), **sub, "rules": [rules],
                        "seed": sub.get("seed", seed)}
            job = hands.build_job(sub_spec, variants if mode == "rescore" or src in rescore
                                  else [resolve_variant(rules, None)], name="hands")
        elif src == "replay":
            sub_spec = {**load_spec(None, "replay", "replay"), **sub, "rules": rules}
            # not varied: each log under the rules it was produced under (Botzone: botzone)
            vs = variants if mode == "rescore" or src in rescore else None
            job = replay.build_job({**sub_spec, "variants": []}, vs, name="replay")
        else:
            sub_spec = {**load_spec(None, "simulate", "simulate"), **sub,
                        "seed": sub.get("seed", seed)}
            sim_rules = sub_spec.get("rules") or [rules]
            sim_rules = [sim_rules] if isinstance(sim_rules, str) else sim_rules
            vs = []
            for r in sim_rules:
                if mode == "resimulate" and r == rules:
                    vs += variants
                else:
                    vs.append(resolve_variant(r, None))
            job = simulate.build_job(sub_spec, vs, name="simulate")
        shards += job.shards
        inputs += job.inputs
        records += job.rules
        config["sources"][src] = job.config
    return Job(name, shards, config, inputs, records)


def job_from_spec(path: str | None = None, default: str = "study", **overrides) -> Job:
    """The study of the TOML file ``path`` (on top of ``pipelines/<default>.toml``)."""
    spec = load_spec(path, default, "study")
    spec.update({k: v for k, v in overrides.items() if v is not None})
    return build_job(spec)


__all__ = ["build_job", "job_from_spec", "MODES", "SOURCES"]
