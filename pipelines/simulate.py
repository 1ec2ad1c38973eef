"""The ``simulate`` job: rule set + bots + seed -> ``events``, ``deals``, ``games``, ``wins``
via :mod:`mjfast.simulation`.

The simulator's own plan cuts the games into shards of whole games (every seat
permutation of a game in one shard); each shard is one task here, so a deal's wall and
play depend only on (seed, game, deal) whatever runs it. Deals the engine stopped on are
listed in the shard's done marker (``errors``).
"""
from __future__ import annotations

from typing import Any

from ._core import Job, Shard, ShardResult, SpecError
from ._spec import check_type, context_params, load_spec, resolve_variant, shard_context

TRANSFORM = "mjfast.pipelines.simulate:transform"


def _plan(p: dict[str, Any]):
    from mjfast.simulation import make_plan
    return make_plan(p["rules"], p["bots"], p["deals"], p["seed"], p["variant_arg"],
                     p["wall"], p["duplicate"])


def transform(p: dict[str, Any]) -> ShardResult:
    from mjfast.simulation._simulate import play_shard
    plan = _plan(p)
    idx = plan.shards(p["games_per_shard"])[p["index"]]
    res = play_shard(plan, idx)
    # the inputs are the planned games (Taiwan's games run to the end of their North
    # round, so their deal count is known only once played); each becomes a games row
    n_in = len(idx)
    tables = [(name, p["rules"], p["variant"], t) for name, t in res.tables.items()]
    errors = [{k: (int(v) if not isinstance(v, str) else v) for k, v in e.items()}
              for e in res.errors]
    return ShardResult(tables, n_in=n_in, primary="games",
                       n_out=res.tables["games"].num_rows, info={"errors": errors})


def build_job(spec: dict[str, Any], variants: list | None = None,
              name: str = "simulate") -> Job:
    """Shards of the simulate job (see ``simulate.toml``): for each rule set (and each of
    ``variants``), ``deals`` deals with ``bots`` from ``seed``."""
    rules_list = spec["rules"] if isinstance(spec["rules"], list) else [spec["rules"]]
    deals = check_type(spec, "deals", int)
    seed = check_type(spec, "seed", int)
    gps = check_type(spec, "games_per_shard", int)
    if deals < 1 or gps < 1:
        raise SpecError(f"deals = {deals}", None, "deals and games_per_shard must be positive")
    wall = spec.get("wall") or None
    dup = spec.get("duplicate") or None
    bots = spec.get("bots", "efficiency")
    if variants is None:
        variants = [resolve_variant(r, v) for r in rules_list
                    for v in (spec.get("variants") or ["default"])]
    shards = []
    for v in variants:
        p = {**context_params(v), "bots": bots,
             "deals": deals, "seed": seed, "wall": wall, "duplicate": dup,
             "games_per_shard": gps}
        n = len(_plan(p).shards(gps))
        for k in range(n):
            shards.append(Shard(f"{name}-{v.rules}-{v.variant}-{k:05d}", TRANSFORM,
                                {**p, "index": k}))
    config = {"variants": [v.manifest() for v in variants], "bots": bots, "deals": deals,
              "seed": seed, "wall": wall or "standard", "duplicate": dup,
              "games_per_shard": gps}
    return Job(name, shards, config, [])


def job_from_spec(path: str | None = None, **overrides) -> Job:
    spec = load_spec(path, "simulate", "simulate")
    spec.update({k: v for k, v in overrides.items() if v is not None})
    return build_job(spec)


__all__ = ["transform", "build_job", "job_from_spec"]
