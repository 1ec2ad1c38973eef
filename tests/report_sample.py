"""A small study-shaped dataset for the report tests: MCR under ``default`` and ``botzone``
(the analytics sample's rows, so some results are identical under both), Tuidaohu wins
that all hold its base fan 和牌 (id 1) with more fans than one table shows, and a manifest
with the study's config and shard markers, as ``mjfast run`` writes them."""
from __future__ import annotations

import json
from pathlib import Path

import analytics_sample as S
from mjfast.datasets import Dataset
from mjfast.rules import rule_context

# Tuidaohu: every win holds 和牌 (id 1, the base fan); ids 2..16 spread over the wins so a
# rule set has more fans than a table shows per group
TUIDAOHU_WINS = [
    dict(deal_id=f"t{i}", step=30 + i, winner=i % 4, self_drawn=i % 3 == 0,
         discarder=-1 if i % 3 == 0 else (i + 1) % 4, tile=i % 9, total=3, legal=True,
         fans=S.F((1, 1, 1), (2 + i % 15, 1, 1), (2 + (i * 7) % 15, 1, 1)),
         scores=[3, -1, -1, -1])
    for i in range(40)]
TUIDAOHU_DEALS = [
    dict(deal_id=w["deal_id"], dealer=0, seats=[0, 1, 2, 3], draw=False, total=3,
         fans=w["fans"], scores=w["scores"]) for w in TUIDAOHU_WINS]


def write(path) -> Path:
    path = Path(path)
    ds = Dataset(path)
    for variant in (None, "botzone"):
        for shard, tables in (("00000", S.SHARD_A), ("00001", S.SHARD_B)):
            for table, rows in tables.items():
                if table == "turns" or variant is None or table in ("deals", "wins"):
                    ds.write(table, S._cols(rows), rules="mcr", variant=variant,
                             shard=shard)
    ds.write("wins", S._cols(TUIDAOHU_WINS), rules="tuidaohu", variant=None, shard="00000")
    ds.write("deals", S._cols(TUIDAOHU_DEALS), rules="tuidaohu", variant=None, shard="00000")
    ds.write_manifest({"job": "study", "rules": [
        rule_context(r, v).record() for r, v in (("mcr", None), ("mcr", "botzone"),
                                                 ("tuidaohu", None))]})
    man = json.loads((path / "manifest.json").read_text())
    man["config"] = {"name": "sample", "mode": "rescore", "rules": "mcr", "seed": 0,
                     "variants": [{"rules": "mcr", "variant": "default"},
                                  {"rules": "mcr", "variant": "botzone"}],
                     "sources": {"replay": {}, "simulate": {}}}
    man["shards"] = {
        "replay-mcr-default-0": {"params": {"rules": "mcr", "variant": "default"},
                                 "primary": "deals", "rows": {"deals": 6}},
        "replay-mcr-botzone-0": {"params": {"rules": "mcr", "variant": "botzone"},
                                 "primary": "deals", "rows": {"deals": 6}},
        "simulate-tuidaohu-default-0": {"params": {"rules": "tuidaohu", "variant": "default"},
                                        "primary": "games", "rows": {"deals": 40}}}
    (path / "manifest.json").write_text(json.dumps(man, indent=1, ensure_ascii=False))
    return path
