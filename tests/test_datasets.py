"""The datasets module: event round trips, schemas, atomic shard writes, manifests."""
from __future__ import annotations

import json

import numpy as np
import polars as pl
import pyarrow as pa
import pytest

import mjfast.datasets as ds
from mjfast.errors import InputError


def _events(n_deals=3, players=4):
    rng = np.random.default_rng(5)
    b = ds.EventBuilder(players)
    for d in range(n_deals):
        b.start_deal(f"deal-{d}")
        for p in range(players):
            for t in rng.integers(0, 34, 13):
                b.add(ds.EventKind.DEAL, p, int(t))
        b.add(ds.EventKind.DRAW, 0, 7, flags=ds.EventFlag.REPLACEMENT)
        b.add(ds.EventKind.DISCARD, 0, 7)
        b.add(ds.EventKind.CLAIM_LOST, 2, 7, aux=int(ds.EventKind.CHOW), target=0)
        if d % 2:
            b.add(ds.EventKind.WIN, 1, 7, target=0, total=8 + d,
                  scores=[-(16 + d)] + [24 + d] + [-8] * (players - 2),
                  fans=[(d + 1, 2, 1), (40, 8, 1)])
        else:
            b.add(ds.EventKind.EXHAUSTIVE_DRAW)
    return b.build()


def _same(a: ds.Events, b: ds.Events):
    assert a.deal_ids == b.deal_ids
    for c in ds.EVENT_COLUMNS:
        np.testing.assert_array_equal(getattr(a, c), getattr(b, c), err_msg=c)
    np.testing.assert_array_equal(a.scores, b.scores)
    np.testing.assert_array_equal(a.fan_offsets, b.fan_offsets)
    np.testing.assert_array_equal(a.fan_id, b.fan_id)
    np.testing.assert_array_equal(a.fan_points, b.fan_points)
    np.testing.assert_array_equal(a.fan_count, b.fan_count)


@pytest.mark.parametrize("players", [4, 2])
def test_events_arrow_round_trip(players, tmp_path):
    ev = _events(players=players)
    table = ds.events_to_arrow(ev)
    assert table.schema == ds.schema("events")
    rows = table.to_pylist()
    wins = [r for r in rows if r["kind"] == ds.EventKind.WIN]
    assert [w["total"] for w in wins] == [9]
    assert wins[0]["fans"] == [{"id": 2, "points": 2, "count": 1}, {"id": 40, "points": 8, "count": 1}]
    assert wins[0]["scores"] == [-17, 25] + [-8] * (players - 2)
    assert all(r["fans"] is None and r["scores"] is None for r in rows if r["kind"] != ds.EventKind.WIN)
    _same(ev, ds.events_from_arrow(table, players=players))
    # through a Parquet file and Polars
    d = ds.Dataset(tmp_path)
    d.write("events", table, rules="mcr", shard="0")
    back = d.read("events").drop(["rules", "variant"])
    _same(ev, ds.events_from_arrow(back, players=players))


def test_take_and_concat():
    ev = _events(4)
    parts = [ev.take_deals([i]) for i in (2, 0, 3, 1)]
    assert [p.deal_ids for p in parts] == [["deal-2"], ["deal-0"], ["deal-3"], ["deal-1"]]
    joined = ds.Events.concat([parts[1], parts[3], parts[0], parts[2]])
    _same(ev, joined)
    with pytest.raises(ValueError):
        ds.Events.concat([parts[0], parts[0]])
    assert [s[0] for s in joined.deal_slices()] == [0, 1, 2, 3]


def test_builder_discard_deal():
    b = ds.EventBuilder()
    b.start_deal("good"); b.add(ds.EventKind.DISCARD, 0, 1)
    b.start_deal("bad"); b.add(ds.EventKind.DISCARD, 0, 1); b.add(ds.EventKind.DISCARD, 1, 2)
    b.discard_deal()
    ev = b.build()
    assert ev.deal_ids == ["good"] and len(ev) == 1


def test_every_table_has_a_schema_and_conforms():
    for name in ds.TABLES:
        t = ds.empty_table(name)
        assert t.num_rows == 0
        assert ds.conform(name, t).schema == ds.schema(name)
    with pytest.raises(InputError):
        ds.schema("nope")
    wins = ds.conform("wins", {"deal_id": ["a"], "winner": [1], "total": [9]})
    assert wins.column("discarder").null_count == 1
    with pytest.raises(InputError):
        ds.conform("wins", pa.table({"winner": [1]}))


def test_store_layout_manifest_and_atomicity(tmp_path):
    d = ds.Dataset(tmp_path / "out")
    p = d.write("quarantine", pl.DataFrame({"source": ["f.txt"], "reason": ["bad"], "line": [3]}),
                rules="mcr", variant="botzone", shard="s1")
    assert p == tmp_path / "out/quarantine/rules=mcr/variant=botzone/part-s1.parquet"
    assert not list(p.parent.glob(".*tmp"))
    d.write("quarantine", {"source": ["g"], "reason": ["x"]}, rules="taiwan", shard="s2")
    assert not d.is_done("s1")
    d.mark_done("s1", {"rows": {"quarantine": 1}})
    assert d.is_done("s1")
    m = d.write_manifest({"job": "test", "seed": 1})
    assert m["tables"] == {"quarantine": 2}
    assert json.loads((tmp_path / "out/manifest.json").read_text()) == m
    first = (tmp_path / "out/manifest.json").read_bytes()
    d.write_manifest({"job": "test", "seed": 1})
    assert (tmp_path / "out/manifest.json").read_bytes() == first   # deterministic
    frame = d.read("quarantine").sort("source")
    assert frame["rules"].to_list() == ["mcr", "taiwan"]
    assert frame["variant"].to_list() == ["botzone", "default"]
    assert d.scan("wins").collect().height == 0
    with pytest.raises(InputError):
        d.write("events", ds.empty_table("events"), rules="../evil", shard="1")


def test_sim_ids_stable():
    assert ds.sim_deal_id("mcr", 7, 3, 15) == "mcr-s7-g3-d15"
    assert ds.sim_deal_id("mcr", 7, 3, 15, permutation=2) == "mcr-s7-g3-p2-d15"
