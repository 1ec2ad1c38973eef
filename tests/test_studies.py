"""The rule-balance analyses (compare, seat-advantage, fan-value, sample-size) on a made-up
duplicate resimulation whose expected numbers are computed here independently (cluster
sums of linearised residuals, written out in numpy), on merges of shards split by wall,
and on a small real resimulation (MCR, 8-point minimum against the 6-point variant)."""
from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import mjfast.analytics as A
from mjfast.rules import rule_context
from mjfast.datasets import Dataset

FANS = [(63, 2), (70, 1), (49, 6), (76, 1), (69, 1), (24, 24), (54, 6)]   # (id, MCR value)


def _settle(winner, self_drawn, discarder, total):
    s = [0, 0, 0, 0]
    for q in range(4):
        if q == winner:
            continue
        pay = 8 + total if (self_drawn or q == discarder) else 8
        s[q] -= pay
        s[winner] += pay
    return s


def synth(seed=0, games=6, deals_per_game=4, rotations=4, variants=("default", "min6")):
    """Deals and wins of a duplicate resimulation: ``variants`` x games x deals x rotations;
    the dealer wins more often (a seat effect) and min6 scores lower."""
    rng = np.random.default_rng(seed)
    deals = {v: [] for v in variants}
    wins = {v: [] for v in variants}
    for g in range(games):
        for d in range(deals_per_game):
            luck = rng.normal(0, 1)                        # the wall's: shared by its rotations
            for p in range(rotations):
                did = f"mcr-s0-g{g}-p{p}-d{d}"
                dealer = d % 4
                seats = [(q - dealer) % 4 for q in range(4)]
                for vi, v in enumerate(variants):
                    draw = rng.random() < 0.12 - 0.04 * vi
                    row = dict(deal_id=did, game_id=f"mcr-s0-g{g}-p{p}", source="simulate",
                               dealer=dealer, prevalent=0, streak=0, seats=seats,
                               bots=["value"] * 4, permutation=p, draw=draw)
                    if draw:
                        deals[v].append({**row, "scores": [0, 0, 0, 0], "total": None,
                                         "fans": None})
                        continue
                    w = dealer if rng.random() < 0.34 else int(rng.integers(0, 4))
                    self_drawn = bool(rng.random() < 0.3)
                    disc = -1 if self_drawn else int((w + 1 + rng.integers(0, 3)) % 4)
                    k = int(rng.integers(1, 4))
                    pick = rng.choice(len(FANS), size=k, replace=False)
                    fans = [{"id": FANS[i][0], "points": FANS[i][1], "count": 1} for i in sorted(pick)]
                    total = sum(f["points"] for f in fans) + max(0, int(round(4 + luck)) - 2 * vi)
                    sc = _settle(w, self_drawn, disc, total)
                    deals[v].append({**row, "scores": sc, "total": total, "fans": fans,
                                     "winner": w, "self_drawn": self_drawn,
                                     "discarder": None if self_drawn else disc})
                    wins[v].append(dict(deal_id=did, step=90, winner=w, self_drawn=self_drawn,
                                        discarder=None if self_drawn else disc, tile=5,
                                        total=total, legal=True, fans=fans, scores=sc))
    return deals, wins


def _cols(rows):
    keys = []
    for r in rows:
        keys += [k for k in r if k not in keys]
    return {k: [r.get(k) for r in rows] for k in keys}


def write(path, deals, wins, games=None):
    ds = Dataset(path)
    for v in deals:
        keep = (lambda r: True) if games is None else (
            lambda r: int(r["deal_id"].split("-g")[1].split("-")[0]) in games)
        ds.write("deals", _cols([r for r in deals[v] if keep(r)]), rules="mcr", variant=v)
        w = [r for r in wins[v] if keep(r)]
        if w:
            ds.write("wins", _cols(w), rules="mcr", variant=v)
    ds.write_manifest({"job": "test", "rules": [rule_context("mcr", v).record() for v in deals]})
    return ds


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    base = tmp_path_factory.mktemp("studies")
    deals, wins = synth()
    whole = write(base / "whole", deals, wins)
    a = write(base / "a", deals, wins, games={0, 2, 4})
    b = write(base / "b", deals, wins, games={1, 3, 5})
    return deals, wins, whole, a, b


def cluster_of(did):
    g, rest = did.split("-p")
    return g + "-d" + rest.split("-d")[1]


def ratio_contrast(ya, xa, yb, xb, cl):
    """(R_a, R_b, D, se) with the CR1 variance from cluster sums of the linearised residuals."""
    ya, xa, yb, xb = (np.asarray(v, dtype=float) for v in (ya, xa, yb, xb))
    ra, rb = ya.sum() / xa.sum(), yb.sum() / xb.sum()
    z = (ya - ra * xa) / xa.sum() - (yb - rb * xb) / xb.sum()
    labels = {c: i for i, c in enumerate(dict.fromkeys(cl))}
    zg = np.zeros(len(labels))
    np.add.at(zg, [labels[c] for c in cl], z)
    g = len(labels)
    return ra, rb, ra - rb, math.sqrt(g / (g - 1) * (zg ** 2).sum())


def test_compare_paired_per_deal_clustered_by_wall(study):
    deals, _, whole, _, _ = study
    df = A.compare(whole.path)
    assert set(df["source"]) == {"simulate"}
    ref = {r["deal_id"]: r for r in deals["default"]}
    pairs = [(r, ref[r["deal_id"]]) for r in deals["min6"]]
    pts = lambda r: r["total"] or 0  # noqa: E731
    cl = [cluster_of(a["deal_id"]) for a, _ in pairs]
    ra, rb, dd, se = ratio_contrast([pts(a) for a, _ in pairs], [1] * len(pairs),
                                    [pts(b) for _, b in pairs], [1] * len(pairs), cl)
    r = df.filter((pl.col("metric") == "points_per_deal") & (pl.col("pairing") == "paired")).row(0, named=True)
    assert (r["variant"], r["reference"]) == ("min6", "default")
    assert r["n_units"] == len(pairs) and r["n_clusters"] == len(set(cl)) == 24
    assert r["value"] == pytest.approx(ra) and r["ref_value"] == pytest.approx(rb)
    assert r["diff"] == pytest.approx(dd) and r["se"] == pytest.approx(se)
    # the interval uses t with (walls - 1) degrees of freedom
    half = (r["ci_high"] - r["ci_low"]) / 2
    assert half / se == pytest.approx(2.068658, abs=1e-5)           # t(0.975, 23)
    assert r["mde"] == pytest.approx(se * (2.068658 + 0.857530), abs=1e-4)  # + t(0.8, 23)
    # a ratio metric: the mean total of a win, both sides' wins of the same deals
    wa = [1.0 if a["total"] is not None else 0.0 for a, _ in pairs]
    wb = [1.0 if b["total"] is not None else 0.0 for _, b in pairs]
    ra, rb, dd, se = ratio_contrast([pts(a) for a, _ in pairs], wa,
                                    [pts(b) for _, b in pairs], wb, cl)
    m = df.filter((pl.col("metric") == "mean_win_total") & (pl.col("pairing") == "paired")).row(0, named=True)
    assert m["diff"] == pytest.approx(dd) and m["se"] == pytest.approx(se)
    # draws under resimulation can change: a difference is reported
    d = df.filter((pl.col("metric") == "draw_rate") & (pl.col("pairing") == "paired"))
    assert d.height == 1 and d["diff"][0] is not None
    # every difference row says what it could detect; no unpaired rows (all paired)
    diffs = df.filter(pl.col("diff").is_not_null())
    assert diffs["mde"].is_not_null().all() and set(diffs["pairing"]) == {"paired"}
    # fan share family: Bonferroni over the fans of the (source, variant, pairing)
    f = df.filter((pl.col("metric") == "fan_share") & (pl.col("pairing") == "paired"))
    assert set(f["m"]) == {len(FANS)} and (f["adj_high"] - f["adj_low"] > f["ci_high"] - f["ci_low"]).all()
    fid, fp = FANS[2]
    hold_a = [1.0 if a["fans"] and any(x["id"] == fid for x in a["fans"]) else 0.0 for a, _ in pairs]
    hold_b = [1.0 if b["fans"] and any(x["id"] == fid for x in b["fans"]) else 0.0 for _, b in pairs]
    ra, rb, dd, se = ratio_contrast(hold_a, wa, hold_b, wb, cl)
    row = f.filter(pl.col("fan_id") == fid).row(0, named=True)
    assert row["value"] == pytest.approx(ra) and row["diff"] == pytest.approx(dd)
    assert row["se"] == pytest.approx(se)


def test_compare_unpaired_sources_never_mix(tmp_path):
    deals, wins = synth(seed=1, games=2)
    # a replayed log under default only, beside the simulation: its own source, no pairs
    log = [dict(r, deal_id=f"log{i}", source="/logs/a.txt", game_id=None) for i, r in
           enumerate(deals["default"][:10])]
    ds = Dataset(tmp_path)
    for v in deals:
        ds.write("deals", _cols(deals[v]), rules="mcr", variant=v, shard="00000")
        ds.write("wins", _cols(wins[v]), rules="mcr", variant=v, shard="00000")
    ds.write("deals", _cols(log), rules="mcr", variant="default", shard="00001")
    # a second simulation of min6 on other walls: unpaired with default's extra deals
    extra = [dict(r, deal_id=r["deal_id"].replace("-s0-", "-s9-")) for r in deals["min6"][:20]]
    ds.write("deals", _cols(extra), rules="mcr", variant="min6", shard="00002")
    ds.write_manifest({"job": "t", "rules": [rule_context("mcr", v).record() for v in deals]})
    df = A.compare(ds.path)
    rep = df.filter(pl.col("source") == "replay")
    assert set(rep["pairing"]) == {"all"} and set(rep["variant"]) == {"default"}
    sim = df.filter((pl.col("source") == "simulate") & (pl.col("metric") == "draw_rate"))
    by = {r["pairing"]: r for r in sim.filter(pl.col("variant") == "min6").iter_rows(named=True)}
    assert by["paired"]["n_units"] == len(deals["min6"])
    assert by["unpaired"]["n_units"] == 20 and by["unpaired"]["diff"] is None
    assert "one variant" in by["unpaired"]["note"]
    allr = sim.filter((pl.col("pairing") == "all") & (pl.col("variant") == "min6"))
    assert allr["n_units"][0] == len(deals["min6"]) + 20


def test_seat_advantage_against_direct_numbers(study):
    deals, wins, whole, _, _ = study
    df = A.seat_advantage(whole.path)
    assert set(df["by"]) == {"position", "seat_wind", "dealer"}     # one bot: no bot rows
    rows = deals["default"]
    cl = [cluster_of(r["deal_id"]) for r in rows]
    # East (the dealer) against the mean of all players, per deal
    east = [r["scores"][r["seats"].index(0)] for r in rows]
    allp = [sum(r["scores"]) for r in rows]
    ra, rb, dd, se = ratio_contrast(east, [1] * len(rows), allp, [4] * len(rows), cl)
    r = df.filter((pl.col("variant") == "default") & (pl.col("by") == "seat_wind")
                  & (pl.col("group") == "E")).row(0, named=True)
    assert r["net"] == pytest.approx(ra) and r["mean"] == pytest.approx(rb) == 0
    assert r["compensation"] == pytest.approx(-dd)
    assert (r["compensation_high"] - r["compensation_low"]) / 2 == pytest.approx(
        se * 2.068658, rel=1e-5)
    assert r["walls"] == 24 and r["deals"] == len(rows) and r["m"] == 4
    # compensations of the four winds add to zero (zero-sum payments)
    winds = df.filter((pl.col("variant") == "default") & (pl.col("by") == "seat_wind"))
    assert winds["compensation"].sum() == pytest.approx(0, abs=1e-9)
    assert winds["group"].to_list() == ["E", "S", "W", "N"]
    # win rate of the dealer: wins / deals, clustered
    wr = [1.0 if r.get("winner") == r["dealer"] and r["total"] is not None else 0.0 for r in rows]
    d = df.filter((pl.col("variant") == "default") & (pl.col("by") == "dealer")
                  & (pl.col("group") == "dealer")).row(0, named=True)
    assert d["win_rate"] == pytest.approx(sum(wr) / len(wr))
    assert d["win_rate_low"] < d["win_rate"] < d["win_rate_high"]
    nd = df.filter((pl.col("variant") == "default") & (pl.col("by") == "dealer")
                   & (pl.col("group") == "non-dealer")).row(0, named=True)
    assert nd["player_deals"] == 3 * len(rows)
    # deal-in rate of position 0
    di = [1.0 if (r["total"] is not None and not r["self_drawn"] and r["discarder"] == 0) else 0.0
          for r in rows]
    p0 = df.filter((pl.col("variant") == "default") & (pl.col("by") == "position")
                   & (pl.col("group") == "0")).row(0, named=True)
    assert p0["deal_in_rate"] == pytest.approx(sum(di) / len(di))


def test_fan_value_against_direct_numbers(study):
    _, wins, whole, _, _ = study
    df = A.fan_value(whole.path).filter(pl.col("variant") == "default")
    ws = wins["default"]
    cl = [cluster_of(w["deal_id"]) for w in ws]
    assert set(df["m"]) == {len(FANS)}
    for fid, pts in FANS:
        hold = [1.0 if any(f["id"] == fid for f in w["fans"]) else 0.0 for w in ws]
        r = df.filter(pl.col("fan_id") == fid).row(0, named=True)
        assert r["frequency"] == pytest.approx(sum(hold) / len(ws))
        assert r["wins"] == sum(hold) and r["n_wins"] == len(ws) and r["points"] == pts
        contrib = [pts * h for h in hold]
        ra, _, _, _ = ratio_contrast(contrib, [w["total"] for w in ws], [0] * len(ws),
                                     [1] * len(ws), cl)
        assert r["points_share"] == pytest.approx(ra)
        tot = [w["total"] for w, h in zip(ws, hold) if h]
        assert r["mean_total"] == pytest.approx(sum(tot) / len(tot))
        assert r["frequency_low"] <= r["frequency"] <= r["frequency_high"]
        assert r["frequency_adj_low"] <= r["frequency_low"]
        # no events in this dataset: the hands cannot be read back
        assert r["pivotal_share"] is None
    assert df["rank"].to_list() == list(range(1, len(FANS) + 1))
    assert df["points_share"].to_list() == sorted(df["points_share"].to_list(), reverse=True)
    assert set(df["not_rescored"]) == {len(ws)}


@pytest.mark.parametrize("name", ["compare", "seat-advantage", "fan-value", "sample-size"])
def test_shards_split_by_wall_merge_exactly(study, name):
    _, _, whole, a, b = study
    an = A.get_analysis(name)
    pa, pb = an.partial(a.path), an.partial(b.path)
    merged = an.merge(pa, pb)
    assert_frame_equal(merged, an.partial(whole.path), check_exact=False, check_dtypes=False)
    assert_frame_equal(an.finish(merged), an(whole.path), check_exact=False, check_dtypes=False)


def test_sample_size_from_the_observed_variance(study):
    _, _, whole, _, _ = study
    cmp = A.compare(whole.path).filter((pl.col("metric") == "points_per_deal")
                                       & (pl.col("pairing") == "paired")).row(0, named=True)
    ss = A.sample_size(whole.path).filter(pl.col("metric") == "points_per_deal")
    assert set(ss["delta_basis"]) == {"observed", "grid"}
    for r in ss.iter_rows(named=True):
        sig2 = cmp["se"] ** 2 * cmp["n_units"]
        want = (1.959964 + 0.841621) ** 2 * sig2 / r["delta"] ** 2
        assert r["units_needed"] == math.ceil(want - 1e-9)
        assert r["clusters_needed"] == math.ceil(want / (cmp["n_units"] / cmp["n_clusters"]) - 1e-9)
        assert r["detectable_now"] == (r["delta"] >= cmp["mde"])
        # pairing helps: the same difference on separate walls needs more deals
        assert r["units_needed_unpaired"] >= r["units_needed"]
    g = ss.filter(pl.col("delta_basis") == "grid")["delta"].to_list()
    assert g == [0.25, 0.5, 1.0]


# ---- a real resimulation: the same walls under the 8-point minimum and the 6-point variant --
@pytest.fixture(scope="module")
def resim(tmp_path_factory):
    from mjfast.pipelines import run_job
    from mjfast.pipelines.study import build_job
    out = tmp_path_factory.mktemp("resim") / "out"
    spec = {"name": "t", "rules": "mcr", "variants": ["default", "min6"], "mode": "resimulate",
            "seed": 3, "sources": ["simulate"], "question": "Does a 6-point minimum change MCR?",
            "headline": ["draw_rate", "mean_win_total", "under_default_minimum"],
            "simulate": {"rules": ["mcr"], "deals": 32, "bots": "value", "duplicate": 4,
                         "games_per_shard": 1}}
    run_job(build_job(spec), out)
    return out


def test_resimulation_min6(resim):
    deals = Dataset(resim).read("deals")
    assert set(deals["variant"]) == {"default", "min6"}
    df = A.compare(resim)
    r = df.filter((pl.col("metric") == "under_default_minimum") & (pl.col("pairing") == "paired")).row(0, named=True)
    assert r["ref_value"] == 0 and r["value"] > 0          # wins under 8 exist only under min6
    assert r["n_units"] == 128 and r["n_clusters"] == 32   # 4 rotations of 32 walls
    seat = A.seat_advantage(resim)
    assert set(seat["source"]) == {"simulate"} and seat["walls"].max() == 32


def test_pivotal_share_by_rescoring(resim, tmp_path):
    """Every simulated win is read back from the events exactly; the pivotal count of a fan
    equals a rescoring with the fan switched off by a variant file."""
    import mjfast
    from mjfast.analytics._core import frames
    from mjfast.analytics._wins import winning_hands
    from mjfast.scoring import take_rows
    fv = A.fan_value(resim)
    assert (fv["not_rescored"] == 0).all()
    fr = frames(resim, ["wins", "events", "deals"])
    for variant, minimum in (("default", 8), ("min6", 6)):
        sub = fv.filter(pl.col("variant") == variant)
        flower = sub.filter(pl.col("fan_id") == 81)
        assert flower.height == 0 or flower["pivotal_share"][0] == 0   # flowers never count
        w = fr["wins"].filter(pl.col("variant") == variant).collect()
        batch, ok = winning_hands(w, fr["events"], fr["deals"], "mcr",
                                  None if variant == "default" else variant)
        assert ok.all()
        for fid in sub.sort("wins", descending=True)["fan_id"].to_list()[:4]:
            path = tmp_path / f"mcr.{variant}-no{fid}.toml"
            path.write_text(f"[params]\nminimum = {minimum}\n[rows.{fid}]\nenabled = false\n")
            rows = [i for i, fans in enumerate(w["fans"].to_list())
                    if any(f["id"] == fid for f in fans)]
            sc = mjfast.score_batch(take_rows(batch, np.asarray(rows, dtype=np.int64)),
                                    variant=str(path))
            r = sub.filter(pl.col("fan_id") == fid).row(0, named=True)
            assert r["rescored"] == len(rows)
            assert r["pivotal"] == int((~sc.legal).sum())
            assert r["pivotal_share"] == pytest.approx((~sc.legal).mean())


def test_study_answer_states_question_and_intervals(resim):
    ans = A.study_answer(resim)
    assert set(ans["question"]) == {"Does a 6-point minimum change MCR?"}
    metrics = ans["metric"].to_list()
    assert metrics[:3] == ["draw_rate", "mean_win_total", "under_default_minimum"]
    assert metrics[3:] == ["dealer_compensation"] * 2          # one a variant
    cmp = A.compare(resim).filter((pl.col("pairing") == "paired") & (pl.col("metric") == "draw_rate"))
    r = ans.row(0, named=True)
    assert (r["diff"], r["ci_low"], r["ci_high"], r["mde"]) == (
        cmp["diff"][0], cmp["ci_low"][0], cmp["ci_high"][0], cmp["mde"][0])
    assert r["n_units"] == 128 and r["n_clusters"] == 32
    text = A.answer_text(ans)
    assert text[0] == "Question: Does a 6-point minimum change MCR?"
    assert "95% CI" in text[1] and "128 deals on 32 walls" in text[1] and "detectable" in text[1]
