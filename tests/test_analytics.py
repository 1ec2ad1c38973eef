"""Analyses on a small hand-made dataset: expected numbers computed here from the raw rows
(tests/analytics_sample.py), merges of shard partials, SQL and named queries."""
from __future__ import annotations

import math
import tomllib
from collections import Counter, defaultdict
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import analytics_sample as S
import mjfast.analytics as A
from mjfast.errors import MjfastError

ROOT = Path(__file__).resolve().parents[1]
ALL = {t: S.SHARD_A[t] + S.SHARD_B[t] for t in S.SHARD_A}


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    base = tmp_path_factory.mktemp("analytics")
    whole = S.write(base / "whole")
    a = S.write(base / "a", shards=(("00000", S.SHARD_A),))
    b = S.write(base / "b", shards=(("00001", S.SHARD_B),))
    return whole, a, b


def wilson(k, n, z=1.959963984540054):
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z / d * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return c - h, c + h


def mcr_names():
    rows = tomllib.loads((ROOT / "mjfast/rules/mcr.toml").read_text())["row"]
    return {r["id"]: (r["zh"], r["en"]) for r in rows}


def test_fan_frequency(data):
    whole, _, _ = data
    legal = [w for w in ALL["wins"] if w["legal"] is not False]
    n = len(legal)
    holding, points = Counter(), Counter()
    for w in legal:
        for f in w["fans"]:
            holding[f["id"]] += 1
            points[f["id"]] += f["points"] * f["count"]
    everything = A.run("fan-frequency", whole.path)
    df = everything.filter(pl.col("source") == "wins")
    assert df.columns[:6] == ["name_zh", "wins", "name_en", "share", "ci_low", "ci_high"]
    names = mcr_names()
    got = {r["fan_id"]: r for r in df.iter_rows(named=True)}
    assert set(got) == set(holding)
    assert 81 not in got              # only in the false win
    for fid, k in holding.items():
        r = got[fid]
        assert r["wins"] == k and r["n_wins"] == n
        assert r["share"] == pytest.approx(k / n)
        lo, hi = wilson(k, n)
        assert (r["ci_low"], r["ci_high"]) == (pytest.approx(lo), pytest.approx(hi))
        assert r["points"] == points[fid]
        assert (r["name_zh"], r["name_en"]) == names[fid]
    assert df["wins"].to_list() == sorted(df["wins"].to_list(), reverse=True)
    # the complete hands of the hands sample: one legal hand, its three fans
    h = everything.filter(pl.col("source") == "hands")
    assert sorted(h["fan_id"].to_list()) == [49, 70, 76]
    assert set(h["n_wins"]) == {1} and set(h["share"]) == {1.0}


def test_fan_cooccurrence(data):
    whole, _, _ = data
    legal = [w for w in ALL["wins"] if w["legal"] is not False]
    sets = [{f["id"] for f in w["fans"]} for w in legal]
    df = A.run("fan-cooccurrence", whole.path).filter(pl.col("source") == "wins")
    for r in df.iter_rows(named=True):
        a, b = r["fan_a"], r["fan_b"]
        both = sum(a in s and b in s for s in sets)
        na, nb = sum(a in s for s in sets), sum(b in s for s in sets)
        assert r["wins"] == both
        assert r["p_b_given_a"] == pytest.approx(both / na)
        assert r["lift"] == pytest.approx(both * len(sets) / (na * nb))
    pairs = {(r["fan_a"], r["fan_b"]) for r in df.iter_rows(named=True)}
    assert (49, 76) in pairs and (24, 49) in pairs


def _gain_mcr(total, legal, self_drawn):
    if not legal:
        return 0
    return 3 * (8 + total) if self_drawn else (8 + total) + 8 + 8


def _ready(rows, skip_errors=True):
    return [r for r in rows if r["waits"] and not (skip_errors and r.get("error"))]


def test_expected_value(data):
    whole, _, _ = data
    df = A.run("ev", whole.path)
    groups = defaultdict(list)
    for h in _ready(ALL["hands"]):
        groups[("hands", h["form"], h["n_melds"])].append(h["waits"])
    for t in _ready(ALL["turns"]):
        groups[("turns", None, None)].append(t["waits"])
    assert df.height == len(groups)
    for r in df.iter_rows(named=True):
        hands = groups[(r["source"], r["form"], r["n_melds"])]
        evd, evs, live, legal_live = [], [], 0, 0
        for ws in hands:
            lv = sum(w["live"] for w in ws)
            live += lv
            legal_live += sum(w["live"] for w in ws if w["legal_discard"])
            if lv:
                evd.append(sum(w["live"] * _gain_mcr(w["total_discard"], w["legal_discard"], False)
                               for w in ws) / lv)
                evs.append(sum(w["live"] * _gain_mcr(w["total_self_drawn"], w["legal_self_drawn"], True)
                               for w in ws) / lv)
        assert r["hands"] == len(hands) and r["hands_live"] == len(evd)
        assert r["ev_discard"] == pytest.approx(sum(evd) / len(evd))
        assert r["ev_self"] == pytest.approx(sum(evs) / len(evs))
        if len(evd) > 1:
            m = sum(evd) / len(evd)
            sd = math.sqrt(sum((x - m) ** 2 for x in evd) / (len(evd) - 1))
            assert r["ev_discard_sd"] == pytest.approx(sd)
        assert r["legal_share_discard"] == pytest.approx(legal_live / live)
    # hand 1: (3 x (10 + 24) + 1 x 0) / 4 on a discard
    h1 = df.filter((pl.col("source") == "hands") & (pl.col("form") == 1))
    assert h1["ev_discard"][0] == pytest.approx(24 + 24)


def test_payments(data):
    whole, _, _ = data
    df = A.run("payments", whole.path)
    nets = defaultdict(list)
    for d in ALL["deals"]:
        for p, s in enumerate(d["scores"]):
            nets[(p, d["seats"][p], p == d["dealer"])].append(s)
    assert df.height == len(nets)
    for r in df.iter_rows(named=True):
        xs = nets[(r["player"], r["seat"], r["dealer"])]
        assert r["deals"] == len(xs) and r["mean"] == pytest.approx(sum(xs) / len(xs))
        if len(xs) > 1:
            m = sum(xs) / len(xs)
            assert r["sd"] == pytest.approx(math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1)))


def _cat(ws, key):
    hi = sum(bool(w[key]) for w in ws)
    return "all_high" if hi == len(ws) else "all_low" if hi == 0 else "split"


def test_high_low(data):
    whole, _, _ = data
    df = A.run("high-low", whole.path)
    for src, rows in (("hands", _ready(ALL["hands"])), ("turns", _ready(ALL["turns"]))):
        r = df.filter(pl.col("source") == src).row(0, named=True)
        cats = Counter(_cat(x["waits"], "legal_discard") for x in rows)
        cats_s = Counter(_cat(x["waits"], "legal_self_drawn") for x in rows)
        live = sum(w["live"] for x in rows for w in x["waits"])
        low = sum(w["live"] for x in rows for w in x["waits"] if not w["legal_discard"])
        assert r["ready"] == len(rows)
        for c in ("all_high", "split", "all_low"):
            assert r[c] == cats[c] and r[f"{c}_self"] == cats_s[c]
            assert r[f"share_{c}"] == pytest.approx(cats[c] / len(rows))
        assert r["low_live_share"] == pytest.approx(low / live)
    # the self-draw table: hands by (discard, self-draw) category
    sd = A.run("high-low-self-draw", whole.path).filter(pl.col("source") == "hands")
    want = Counter((_cat(x["waits"], "legal_discard"), _cat(x["waits"], "legal_self_drawn"))
                   for x in _ready(ALL["hands"]))
    assert {(r["discard"], r["self_draw"]): r["hands"] for r in sd.iter_rows(named=True)} == want


def test_high_low_turns_and_candidates(data):
    whole, _, _ = data
    bt = A.run("high-low-by-turn", whole.path)
    prev = {}
    want = Counter()
    for t in sorted(ALL["turns"], key=lambda t: (t["deal_id"], t["player"], t["step"])):
        k = (t["deal_id"], t["player"])
        if t["waits"]:
            want[(t["turn"], prev.get(k), _cat(t["waits"], "legal_discard"))] += 1
        prev[k] = t["shanten_after"]
    got = Counter()
    for r in bt.iter_rows(named=True):
        for c in ("all_high", "split", "all_low"):
            if r[c]:
                got[(r["turn"], r["prev_shanten"], c)] += r[c]
    assert got == want
    st = A.run("high-low-stood", whole.path).row(0, named=True)
    per = defaultdict(set)
    for t in _ready(ALL["turns"]):
        per[(t["deal_id"], t["player"])].add(_cat(t["waits"], "legal_discard"))
    assert st["player_deals_ready"] == len(per)
    assert st["stood_low_or_split"] == sum(bool(s - {"all_high"}) for s in per.values())
    better = A.run("high-low-better", whole.path)
    split = better.filter(pl.col("chosen_category") == "split").row(0, named=True)
    # d1 step 20: chosen keeps 2 live high tiles; discarding 8 keeps 2 + 3
    assert (split["decisions"], split["better_exists"], split["chosen_high_live"],
            split["best_high_live"]) == (1, 1, 2, 5)
    low = better.filter(pl.col("chosen_category") == "all_low").row(0, named=True)
    assert (low["decisions"], low["better_exists"]) == (1, 0)
    fans = A.run("high-low-fans", whole.path)
    top = fans.row(0, named=True)
    assert (top["fan_id"], top["decides"]) == (49, 2)   # on every high wait, no low one
    assert top["split_hands_without_fans"] == 2          # the two split turns lack fan lists


def test_play_stats(data):
    whole, _, _ = data
    r = A.run("play-stats", whole.path).row(0, named=True)
    deals, wins = ALL["deals"], [w for w in ALL["wins"] if w["legal"] is not False]
    pd_ = sum(len(d["scores"]) for d in deals)
    assert r["deals"] == len(deals) and r["player_deals"] == pd_
    assert r["draw_rate"] == pytest.approx(sum(d["draw"] for d in deals) / len(deals))
    assert r["win_rate"] == pytest.approx(len(wins) / pd_)
    assert r["self_draw_rate"] == pytest.approx(sum(w["self_drawn"] for w in wins) / pd_)
    assert r["deal_in_rate"] == pytest.approx(sum(not w["self_drawn"] for w in wins) / pd_)
    with_turns = {t["deal_id"] for t in ALL["turns"]}
    turns = [1 + sum(t["deal_id"] == w["deal_id"] and t["player"] == w["winner"]
                     and t["step"] < w["step"] for t in ALL["turns"])
             for w in wins if w["deal_id"] in with_turns]
    assert r["win_turn_n"] == len(turns)
    assert r["mean_win_turn"] == pytest.approx(sum(turns) / len(turns))
    bt = A.run("play-by-turn", whole.path)
    for row in bt.iter_rows(named=True):
        ts = [t for t in ALL["turns"] if t["turn"] == row["turn"]]
        assert row["decisions"] == len(ts)
        assert row["mean_shanten"] == pytest.approx(sum(t["shanten"] for t in ts) / len(ts))
        assert row["ready_rate"] == pytest.approx(sum(t["shanten_after"] == 0 for t in ts) / len(ts))
    ag = A.run("discard-agreement", whole.path).row(0, named=True)
    chosen = [c for c in ALL["candidates"] if c["chosen"]]
    assert ag["decisions"] == len(chosen)
    assert ag["agreement"] == pytest.approx(sum(c["rank_efficiency"] == 1 for c in chosen) / len(chosen))


@pytest.mark.parametrize("name", sorted(set(A.ANALYSES) - {"compare"}))
def test_merge_of_shards_equals_whole(data, name):
    whole, a, b = data
    an = A.get_analysis(name)
    merged = an.merge(an.partial(a.path), an.partial(b.path))
    assert_frame_equal(merged, an.partial(whole.path), check_exact=False, check_dtypes=False)
    assert_frame_equal(an.finish(merged), an(whole.path), check_exact=False, check_dtypes=False)


def test_folder_of_datasets_reads_them_all(data, tmp_path):
    whole, _, _ = data
    S.write(tmp_path / "replay", shards=(("00000", S.SHARD_A),))
    S.write(tmp_path / "hands", shards=(("00001", S.SHARD_B),))   # named like a table
    for name in ("fan-frequency", "high-low", "play-stats"):
        assert_frame_equal(A.run(name, tmp_path), A.run(name, whole.path), check_exact=False)


def test_compare_paired_study(tmp_path):
    """A rescored log (s1-s3 under both variants, s4 under botzone only): paired rows over
    s1-s3, s4 labelled unpaired, draws (which rescoring cannot change) as levels only."""
    ds = S.write_study(tmp_path / "study")
    df = A.compare(ds.path)
    assert set(df["reference"]) == {"default"} and set(df["source"]) == {"replay"}
    ref = {d["deal_id"]: d for d in S.STUDY_DEFAULT}
    paired = [d for d in S.STUDY_BOTZONE if d["deal_id"] in ref]
    diffs = [(d["total"] or 0) - (ref[d["deal_id"]]["total"] or 0) for d in paired]
    r = df.filter((pl.col("metric") == "points_per_deal") & (pl.col("variant") == "botzone")
                  & (pl.col("pairing") == "paired")).row(0, named=True)
    m = sum(diffs) / len(diffs)
    sd = math.sqrt(sum((x - m) ** 2 for x in diffs) / (len(diffs) - 1))
    assert r["n_units"] == len(diffs) == 3 and r["n_clusters"] == 3
    assert r["diff"] == pytest.approx(m) and r["se"] == pytest.approx(sd / math.sqrt(3))
    t2 = 4.302652729911275                            # t(0.975, 2 df): 3 deals
    assert r["ci_low"] == pytest.approx(m - t2 * sd / math.sqrt(3))
    assert r["mde"] > 0
    # the deal played under botzone only: labelled, never mixed into the pair
    u = df.filter((pl.col("metric") == "points_per_deal") & (pl.col("pairing") == "unpaired"))
    assert u.height == 1 and u["value"][0] == 30 and u["diff"][0] is None
    assert "one variant" in u["note"][0]
    # draws: a level per variant, no difference (rescoring cannot change them)
    d = df.filter(pl.col("metric") == "draw_rate")
    assert set(d["pairing"]) == {"all"} and d["diff"].is_null().all()
    assert sorted(d["value"].to_list()) == pytest.approx([1 / 4, 1 / 3])
    assert d["note"].str.contains("rescoring").all()
    # a paired metric that did not change is said to be the same
    same = df.filter((pl.col("metric") == "self_drawn_share") & (pl.col("pairing") == "paired"))
    assert same["same"].all() and same["diff"][0] == 0
    # paired fan share: 明暗杠 (82) in s1's botzone win only: 1 of the 2 paired wins
    k = df.filter((pl.col("metric") == "fan_share") & (pl.col("fan_id") == 82)
                  & (pl.col("pairing") == "paired")).row(0, named=True)
    assert k["value"] == pytest.approx(1 / 2) and k["ref_value"] == 0
    assert k["diff"] == pytest.approx(1 / 2) and k["name_en"] == "Concealed Kong and Melded Kong"
    # mean total per win over the paired deals
    w = df.filter((pl.col("metric") == "mean_win_total") & (pl.col("pairing") == "paired"))
    assert w["diff"][0] == pytest.approx((12 + 8) / 2 - (10 + 8) / 2)


@pytest.mark.parametrize("name", sorted(A.ANALYSES))
def test_empty_dataset_gives_empty_tables(tmp_path, name):
    from mjfast.datasets import Dataset
    Dataset(tmp_path).write_manifest({"job": "empty"})
    assert A.run(name, tmp_path).height == 0


def test_sql_and_errors(data):
    whole, _, _ = data
    df = A.sql(whole.path, "SELECT winner, COUNT(*) AS n FROM wins WHERE legal GROUP BY winner "
                           "ORDER BY winner")
    want = Counter(w["winner"] for w in ALL["wins"] if w["legal"])
    assert dict(zip(df["winner"].to_list(), df["n"].to_list())) == want
    with pytest.raises(MjfastError):
        A.sql(whole.path, "SELECT nope FROM nowhere")
    with pytest.raises(MjfastError):
        A.run("no-such-analysis", whole.path)
    with pytest.raises(MjfastError):
        A.run("fan-frequency", whole.path / "missing")


def test_a_broken_table_is_a_typed_error(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq
    bad = tmp_path / "wins" / "rules=mcr" / "variant=default" / "part-00000.parquet"
    bad.parent.mkdir(parents=True)
    pq.write_table(pa.table({"deal_id": ["x"], "fans": ["not a list"]}), bad)
    with pytest.raises(MjfastError, match="fan-frequency"):
        A.run("fan-frequency", tmp_path)
    (tmp_path / "wins" / "rules=mcr" / "variant=default" / "part-00001.parquet").write_bytes(b"junk")
    with pytest.raises(MjfastError):
        A.run("fan-frequency", tmp_path)


@pytest.mark.parametrize("rules, discard, self_draw", [
    # Taiwan: base 0 + unit 1 x tai, one payer on a discard, three on a self-draw
    ("taiwan", lambda f: f, lambda f: 3 * f),
    # Tuidaohu: base 1 x 2^(min(fan, 6) - 1), one payer / three payers
    ("tuidaohu", lambda f: 2 ** (min(f, 6) - 1), lambda f: 3 * 2 ** (min(f, 6) - 1)),
    # two-player: the other player pays 2^(min(fan, 6) - 1) either way
    ("two_player", lambda f: 2 ** (min(f, 6) - 1), lambda f: 2 ** (min(f, 6) - 1)),
])
def test_expected_value_other_rule_sets(tmp_path, rules, discard, self_draw):
    waits = [S.W(1, 2, 3, 4, True, True), S.W(2, 1, 9, 10, True, True),
             S.W(3, 3, 2, 2, False, True)]
    hands = {"hand_id": [1], "form": [0], "n_melds": [0], "shanten": [0], "waits": [waits]}
    from mjfast.datasets import Dataset
    from mjfast.rules import rule_context
    ds = Dataset(tmp_path / rules)
    ds.write("hands", hands, rules=rules)
    ds.write_manifest({"job": "test", "rules": [rule_context(rules).record()]})
    r = A.run("ev", ds.path).row(0, named=True)
    live = sum(w["live"] for w in waits)
    gd = sum(w["live"] * discard(w["total_discard"]) for w in waits if w["legal_discard"])
    gs = sum(w["live"] * self_draw(w["total_self_drawn"]) for w in waits if w["legal_self_drawn"])
    assert r["ev_discard"] == pytest.approx(gd / live)
    assert r["ev_self"] == pytest.approx(gs / live)


def test_side_by_side(tmp_path):
    ds = S.write_study(tmp_path / "study")
    df = A.side_by_side("fan-frequency", ds.path)
    rows = {r["fan_id"]: r for r in df.iter_rows(named=True)}
    n_bz = sum(not d["draw"] for d in S.STUDY_BOTZONE)
    n_df = sum(not d["draw"] for d in S.STUDY_DEFAULT)
    assert rows[82]["share_botzone"] == pytest.approx(1 / n_bz) and rows[82]["share_default"] is None
    assert rows[49]["share_default"] == pytest.approx(1 / n_df)
    ps = A.side_by_side("play-stats", ds.path).row(0, named=True)
    assert ps["draw_rate_botzone"] == pytest.approx(1 / 4) and ps["draw_rate_default"] == pytest.approx(1 / 3)


def _house(path, en="My Mixed Shifted Chows", seat_payment=16):
    path.write_text(f'[variant]\nname = "house"\n[params]\nseat_payment = {seat_payment}\n'
                    f'[rows.49]\nen = "{en}"\n', encoding="utf-8")
    return path


def test_names_and_settlement_come_from_what_the_dataset_records(tmp_path):
    """A dataset written under a variant file of one's own keeps its names and settlement
    parameters after the file changed or went: the analyses read the manifest's record."""
    from mjfast.datasets import Dataset
    from mjfast.rules import rule_context
    f = _house(tmp_path / "mcr.house.toml")
    ctx = rule_context("mcr", str(f))
    ds = Dataset(tmp_path / "ds")
    for table, rows in S.SHARD_A.items():
        ds.write(table, S._cols(rows), rules="mcr", variant=ctx.variant)
    ds.write_manifest({"job": "test", "rules": [ctx.record()]})
    _house(f, en="Something Else", seat_payment=8)          # today's file says otherwise
    ff = A.run("fan-frequency", ds.path).filter(pl.col("source") == "wins")
    assert ff.filter(pl.col("fan_id") == 49)["name_en"].to_list() == ["My Mixed Shifted Chows"]
    f.unlink()
    ev = A.run("ev", ds.path).filter(pl.col("source") == "hands").sort("n_melds")
    # hand 1 (the only ready hand of shard A with live legal waits): discard gains total +
    # 3 x 16 on its legal waits, weighted by live copies
    waits = S.HANDS_A[0]["waits"]
    live = sum(w["live"] for w in waits)
    gd = sum(w["live"] * (w["total_discard"] + 48) for w in waits if w["legal_discard"])
    gs = sum(w["live"] * 3 * (w["total_self_drawn"] + 16) for w in waits if w["legal_self_drawn"])
    row = ev.filter((pl.col("form") == 0) & (pl.col("n_melds") == 1)).row(0, named=True)
    hands1 = [h for h in S.HANDS_A if h["form"] == 0 and h["n_melds"] == 1 and h["waits"]]
    assert len(hands1) == 1 and row["hands_live"] == 1
    assert row["ev_discard"] == pytest.approx(gd / live)
    assert row["ev_self"] == pytest.approx(gs / live)


def test_datasets_written_with_different_rules_are_not_merged(tmp_path):
    from mjfast.datasets import Dataset
    from mjfast.rules import rule_context
    for name, pay in (("a", 16), ("b", 24)):
        f = _house(tmp_path / name / "mcr.house.toml", seat_payment=pay) if \
            (tmp_path / name).mkdir() is None else None
        ctx = rule_context("mcr", str(f))
        ds = Dataset(tmp_path / "runs" / name)
        ds.write("wins", S._cols(S.WINS_A), rules="mcr", variant=ctx.variant)
        ds.write_manifest({"job": "test", "rules": [ctx.record()]})
    A.run("fan-frequency", tmp_path / "runs" / "a")
    with pytest.raises(MjfastError, match="different rule contents"):
        A.run("fan-frequency", tmp_path / "runs")
