"""The ``simulate`` job's spec (``simulate.toml``): rule sets + bots + seed -> ``events``,
``deals``, ``games``, ``wins`` by :func:`mjfast.simulation.simulate_job` (whole games per
shard: a deal's wall and play depend only on (seed, game, deal) whatever runs it)."""
from __future__ import annotations

from typing import Any

from mjfast.runner import Job, SpecError

from ._spec import check_type, load_spec, resolve_variant


def build_job(spec: dict[str, Any], variants: list | None = None,
              name: str = "simulate") -> Job:
    """Shards of the simulate job (see ``simulate.toml``): for each rule set (and each of
    ``variants``, rule contexts), ``deals`` deals with ``bots`` from ``seed``."""
    from mjfast.simulation import simulate_job
    rules_list = spec["rules"] if isinstance(spec["rules"], list) else [spec["rules"]]
    deals = check_type(spec, "deals", int)
    seed = check_type(spec, "seed", int)
    gps = check_type(spec, "games_per_shard", int)
    if deals < 1 or gps < 1:
        raise SpecError(f"deals = {deals}", None, "deals and games_per_shard must be positive")
    if variants is None:
        variants = [resolve_variant(r, v) for r in rules_list
                    for v in (spec.get("variants") or ["default"])]
    return simulate_job(variants, spec.get("bots", "efficiency"), deals, seed,
                        wall=spec.get("wall") or None, duplicate=spec.get("duplicate") or None,
                        games_per_shard=gps, chips=spec.get("chips") or None,
                        jsonl=bool(spec.get("jsonl", False)),
                        botzone_text=bool(spec.get("botzone_text", False)), name=name)


def job_from_spec(path: str | None = None, **overrides) -> Job:
    spec = load_spec(path, "simulate", "simulate")
    spec.update({k: v for k, v in overrides.items() if v is not None})
    return build_job(spec)


__all__ = ["build_job", "job_from_spec"]
