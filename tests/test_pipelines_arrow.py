"""Batch results to Arrow (mjfast.scoring._arrow): the same answers as the single-hand
scorer, whatever the chunking and thread count."""
from __future__ import annotations

import numpy as np
import polars as pl
import pyarrow as pa
import pytest

import mjfast
from mjfast.notation import format_batch
from mjfast.scoring._arrow import NOT_COMPLETE, error_column, fan_lists, score_strings


def test_fan_lists_by_hand():
    fc = np.zeros((4, 6), dtype=np.int16)
    fc[0, [1, 4]] = [1, 2]
    fc[2, 5] = 1
    fc[3, 2] = 3                      # row 3 not good: null whatever its counts
    points = np.array([0, 10, 20, 30, 40, 50], dtype=np.int32)
    fans, ids, counts = fan_lists(fc, points, np.array([True, True, True, False]))
    assert fans.to_pylist() == [[{"id": 1, "points": 10, "count": 1},
                                 {"id": 4, "points": 40, "count": 2}], [],
                                [{"id": 5, "points": 50, "count": 1}], None]
    assert ids.to_pylist() == [[1, 4], [], [5], None]
    assert counts.to_pylist() == [[1, 2], [], [1], None]


def test_error_column_only_bad_rows():
    col = error_column(5, np.array([True, False, True, False, True]),
                       [None, "bad a", None, "bad b", None],
                       np.array([False, False, True, False, False]))
    assert pa.types.is_dictionary(col.type)
    assert col.to_pylist() == [None, "bad a", NOT_COMPLETE, "bad b", None]


@pytest.mark.parametrize("rules", ["mcr", "taiwan"])
def test_score_strings_equals_single_hand_scorer(rules):
    b = mjfast.random_hands(300, rules, "complete", seed=11)
    hands = format_batch(b)
    strings = hands[:150] + ["123x", None, "123m"] + hands[150:]
    for threads, chunk in ((1, 1 << 19), (2, 37)):
        t = score_strings(pa.array(strings, pa.string()), rules, threads=threads, chunk_rows=chunk)
        assert t.num_rows == len(strings)
        df = pl.from_arrow(t)
        for i in [*range(30), 150, 151, 152, *range(153, 183)]:
            r = df.row(i, named=True)
            if i in (150, 151, 152):
                assert r["total"] is None and r["fans"] is None and r["error"]
                continue
            res = mjfast.score(strings[i], rules=rules)
            assert r["total"] == res.total and r["legal"] == res.legal and r["error"] is None
            assert sorted((f["id"], f["points"], f["count"]) for f in r["fans"]) == \
                sorted((f.id, f.points, f.count) for f in res.fans)


def test_score_table_uses_fast_path():
    df = pl.DataFrame({"hand": ["123m456p789s12399s|EE1000", "123m", "[CCC,1]FFF123m456p7s7s"]})
    out = mjfast.score_table(df, rules="mcr")
    assert out["error"].dtype == pl.String and out["error"][1] and out["error"][0] is None
    assert out["fans"][0] is not None and out["total"][2] == 7


@pytest.mark.parametrize("rules", ["mcr", "tuidaohu"])
def test_score_wait_lists_equals_wait_kernel(rules):
    """The wait lists (MCR: waits from the shanten tables, each wait scored by the batch
    scorer) hold exactly the wait kernel's winning tiles, totals, legality and live counts,
    and each wait's fan list adds up to its total; rows outside ``rows`` are null."""
    from mjfast.hand import FOURTH_TILE, KONG_REPLACEMENT, ROBBING_KONG, SELF_DRAWN
    from mjfast.scoring import scorer_module
    from mjfast.scoring._arrow import meld_counts, score_wait_lists
    b = mjfast.random_hands(1500, rules, "ready", seed=23)
    # situation bits a wait sets itself, on some hands (the kernel's handling is the rule)
    rng = np.random.default_rng(3)
    bits = np.array([SELF_DRAWN, FOURTH_TILE, KONG_REPLACEMENT, ROBBING_KONG], np.uint16)
    pick = rng.random(len(b)) < 0.2
    b.flags[pick] |= bits[rng.integers(0, 4, pick.sum())]
    ws = scorer_module(rules).score_waits_batch(b, None)
    rows = np.ones(len(b), bool)
    rows[::7] = False
    got = score_wait_lists(b, rows, threads=1).to_pylist()
    pts = lambda fl: sum(f["points"] * f["count"] for f in fl)   # noqa: E731
    n_waits = 0
    for i, waits in enumerate(got):
        if not rows[i]:
            assert waits is None
            continue
        tiles = np.flatnonzero(ws.wins[i])
        assert [w["tile"] for w in waits] == tiles.tolist()
        for w in waits:
            t = w["tile"]
            assert (w["total_discard"], w["total_self_drawn"], w["legal_discard"],
                    w["legal_self_drawn"], w["live"]) == (
                ws.total_discard[i, t], ws.total_self_drawn[i, t], ws.legal_discard[i, t],
                ws.legal_self_drawn[i, t], ws.live[i, t])
            if rules == "mcr":
                assert pts(w["fans_discard"]) == w["total_discard"]
                assert pts(w["fans_self_drawn"]) == w["total_self_drawn"]
            n_waits += 1
    assert n_waits > len(b)
    # meld tiles: a kong counts four
    mc = meld_counts(b)
    i = int(np.flatnonzero(b.n_melds > 0)[0])
    assert mc[i].sum() == sum(4 if b.melds[i, j, 0] == 2 else 3 for j in range(b.n_melds[i]))
