"""The simulation as a job of the one runner (:mod:`mjfast.runner`).

The plan (:func:`~mjfast.simulation.make_plan`) cuts the games into shards of whole games
(every seat permutation of a game in one shard); each shard is one task, so a deal's wall
and play depend only on (seed, game, deal) whatever runs it. A shard writes the
``events``, ``deals``, ``games`` and ``wins`` tables and, when asked, its deals as JSON
lines (``jsonl/rules=R/variant=V/part-<shard>.jsonl``) and as Botzone text
(``botzone/...txt``; MCR, Botzone wall and variant) through the formats' writers. Deals
the engine stopped on are listed in the shard's done marker (``errors``).
"""
from __future__ import annotations

from typing import Any, Iterable

from ..errors import ArgumentError
from ..rules import RuleContext
from ..runner import Job, Shard, ShardResult, context_params, shard_context, stable_hash

TRANSFORM = "mjfast.simulation:shard_transform"

# Python policies and bot objects cannot travel as JSON: a job that uses them runs in
# this process, its shards finding the objects here by the token in their parameters.
_LIVE_BOTS: dict[str, list[Any]] = {}


def _bot_param(bots) -> tuple[Any, str | None]:
    """(JSON form of ``bots``, token of the objects kept in this process or None)."""
    from ._simulate import _bot_name
    items = [b.strip() for b in bots.split(",")] if isinstance(bots, str) else list(bots)
    if all(isinstance(b, str) for b in items):
        return ",".join(items), None
    names = [_bot_name(b) for b in items]
    token = stable_hash(names)
    _LIVE_BOTS[token] = items
    return names, token


def shard_transform(p: dict[str, Any]) -> ShardResult:
    """One shard of the simulate job: play its games, build the tables and the files."""
    from ..formats import get_format
    from ._simulate import headers, make_plan, play_shard
    ctx = shard_context(p)
    bots = p["bots"]
    if p.get("bot_token"):
        if p["bot_token"] not in _LIVE_BOTS:
            raise ArgumentError(str(bots), None, "Python policies and bot objects play in "
                                                 "the process that planned the run (inline)")
        bots = _LIVE_BOTS[p["bot_token"]]
    plan = make_plan(ctx, bots, p["deals"], p["seed"], wall=p["wall"],
                     duplicate=p["duplicate"], chips=p.get("chips"))
    idx = plan.shards(p["games_per_shard"])[p["index"]]
    res = play_shard(plan, idx)
    tables = [(name, ctx.rules, ctx.variant, t) for name, t in res.tables.items()]
    errors = [{k: (int(v) if not isinstance(v, str) else v) for k, v in e.items()}
              for e in res.errors]
    files = []
    part = f"rules={ctx.rules}/variant={ctx.variant}/part-{p['key']}"
    for fmt, folder, suffix in (("jsonl", "jsonl", ".jsonl"), ("botzone", "botzone", ".txt")):
        if p.get(fmt):
            data = get_format(fmt).encode(res.events, ctx, headers(res.tables["deals"]))
            files.append((f"{folder}/{part}{suffix}", data))
    # the inputs are the planned games (Taiwan's games run to the end of their North
    # round, so their deal count is known only once played); each becomes a games row
    return ShardResult(tables, n_in=len(idx), primary="games",
                       n_out=res.tables["games"].num_rows, info={"errors": errors},
                       files=files)


def simulate_job(contexts: Iterable[RuleContext], bots="efficiency", deals: int = 64,
                 seed: int = 0, *, wall: str | None = None, duplicate: int | bool | None = None,
                 games_per_shard: int = 4, chips: int | None = None, jsonl: bool = False,
                 botzone_text: bool = False, name: str = "simulate") -> Job:
    """The simulate job: for each rule context, ``deals`` deals with ``bots`` from ``seed``
    (each context plays the same walls), ``games_per_shard`` games a shard."""
    from ._simulate import make_plan
    if isinstance(games_per_shard, bool) or not isinstance(games_per_shard, int) \
            or games_per_shard < 1:
        raise ArgumentError(str(games_per_shard), None, "games_per_shard: a positive integer")
    contexts = list(contexts)
    bot_param, token = _bot_param(bots)
    shards = []
    for ctx in contexts:
        plan = make_plan(ctx, bots, deals, seed, wall=wall, duplicate=duplicate, chips=chips)
        if botzone_text and not (ctx.rules == "mcr" and plan.wall == "botzone"
                                 and ctx.variant == "botzone"):
            raise ArgumentError("botzone_text", None, "Botzone text needs rules mcr, "
                                                      "wall botzone and variant botzone")
        p = {**context_params(ctx), "bots": bot_param, "deals": int(deals), "seed": int(seed),
             "wall": plan.wall, "duplicate": duplicate, "games_per_shard": games_per_shard,
             "chips": chips, "jsonl": bool(jsonl), "botzone": bool(botzone_text)}
        if token:
            p["bot_token"] = token
        for k in range(len(plan.shards(games_per_shard))):
            key = f"{name}-{ctx.rules}-{ctx.variant}-{k:05d}"
            shards.append(Shard(key, TRANSFORM, {**p, "index": k, "key": key}))
    config = {"variants": [c.manifest() for c in contexts], "bots": bot_param,
              "deals": int(deals), "seed": int(seed), "wall": wall or "standard",
              "duplicate": duplicate, "games_per_shard": games_per_shard, "chips": chips,
              "jsonl": bool(jsonl), "botzone_text": bool(botzone_text)}
    return Job(name, shards, config, [], [c.record() for c in contexts])


__all__ = ["TRANSFORM", "simulate_job", "shard_transform"]
