"""Simulator invariants, determinism, pairing and read-back (docs/simulation.md).

Deal counts are bounded for CI time (compile included); ``MJFAST_SIM_DEALS`` raises them.
The issue's 10k deals per rule set run in ``test_simulation_10k.py`` (slow; the same
invariants checked over whole tables).
"""
import os
from pathlib import Path
from collections import Counter

import numpy as np
import pytest

import mjfast
from mjfast.datasets import Dataset, EventKind as K, events_from_arrow
from mjfast.formats.jsonl import read_jsonl
from mjfast.engine import Game, fold
from mjfast.engine import layout as EL
from mjfast.hand import Hand, Meld, MeldKind, Situation
from mjfast.rules.registry import get_rules
from mjfast.simulation import simulate, tile_set
from mjfast.tiles import WIND_LETTERS

N = int(os.environ.get("MJFAST_SIM_DEALS", "256"))
RULES = ["mcr", "taiwan", "tuidaohu", "two_player"]


@pytest.fixture(scope="module", params=RULES)
def sim(request):
    rules = request.param
    res = simulate(rules, "efficiency" if rules != "tuidaohu" else "value", deals=N, seed=11)
    assert res.errors == []
    return rules, res


def _deal_rows(res):
    return res.tables["deals"].to_pylist()


def _folded_before(ev, a, r, rules, deal):
    """A Game with the deal's events before row ``r`` applied."""
    g = Game(rules, wall=deal["wall"], dealer=deal["dealer"], prevalent=deal["prevalent"],
             streak=deal["streak"], seats=deal["seats"])
    for i in range(a, r):
        g.apply(int(ev.kind[i]), int(ev.player[i]), int(ev.tile[i]), int(ev.aux[i]),
                int(ev.target[i]), int(ev.flags[i]) & ~16)
    return g


@pytest.mark.slow
def test_tiles_accounted_and_no_fifth_copy(sim):
    rules, res = sim
    ev = res.events
    size = len(tile_set(rules))
    deals = _deal_rows(res)
    for (d, a, b), deal in zip(ev.deal_slices(), deals):
        assert len(deal["wall"]) == size
        assert sorted(deal["wall"]) == sorted(tile_set(rules).tolist())
        got = ev.tile[a:b][np.isin(ev.kind[a:b], (K.DEAL, K.DRAW))]
        assert (got >= 0).all()
        c = np.bincount(got, minlength=42)
        assert c[:34].max() <= 4 and c[34:].max() <= 1
        assert (c <= np.bincount(np.asarray(deal["wall"]), minlength=42)).all()
        # every tile received is in a hand, a meld, a river or the flowers at the end
        states = fold(ev.take_deals([d]), rules, wall=[deal["wall"]], dealer=deal["dealer"],
                      prevalent=deal["prevalent"], streak=deal["streak"], seats=deal["seats"])
        S, result = states[0]
        held = 0
        n = get_rules(rules).players
        for p in range(n):
            held += int(S[EL.HAND + 34 * p: EL.HAND + 34 * p + 34].sum())
            for j in range(int(S[EL.H_NMELDS + p])):
                m = EL.MELDS + (p * EL.MAX_MELDS + j) * EL.MELD_FIELDS
                held += 4 if S[m + EL.M_KIND] == 2 else 3
            river = S[EL.RIVER + p * EL.MAX_RIVER: EL.RIVER + p * EL.MAX_RIVER + S[EL.H_NDISC + p]]
            held += int(((river & EL.RIVER_CLAIMED) == 0).sum())
            held += int(S[EL.H_NFLOWERS + p])
        # a chow/pung/kong takes one river tile into a meld (marked claimed); a discard win
        # takes the winning tile into the hand: both are counted once above, except that
        # several winners on one discard (Taiwan) each hold the winning tile
        ron = int(((ev.kind[a:b] == K.WIN) & (ev.target[a:b] >= 0) & ((ev.flags[a:b] & 32) == 0)).sum())
        assert held == len(got) + max(ron - 1, 0), (ev.deal_ids[d], held, len(got))


def test_draw_only_when_the_wall_is_spent(sim):
    rules, res = sim
    ev = res.events
    rs = get_rules(rules)
    for (d, a, b), deal in zip(ev.deal_slices(), _deal_rows(res)):
        kinds = ev.kind[a:b]
        if deal["draw"]:
            assert (kinds == K.EXHAUSTIVE_DRAW).sum() == 1 and (kinds == K.WIN).sum() == 0
            drawn = int(np.isin(kinds, (K.DEAL, K.DRAW)).sum())
            assert drawn == len(deal["wall"]) - rs.dead_wall
        else:
            assert (kinds == K.WIN).sum() >= 1 and (kinds == K.EXHAUSTIVE_DRAW).sum() == 0


def test_payments_balance(sim):
    rules, res = sim
    for deal in _deal_rows(res):
        s = sum(deal["scores"])
        if rules == "two_player":
            assert s <= 0            # the winner's fee leaves the table
        else:
            assert s == 0
    for g in res.tables["games"].to_pylist():
        assert (sum(g["final_scores"]) == 0) or rules == "two_player"


@pytest.mark.slow
def test_wins_rescored_by_the_scorer(sim):
    rules, res = sim
    ev = res.events
    deals = {d["deal_id"]: d for d in _deal_rows(res)}
    wins = res.tables["wins"].to_pylist()
    assert wins, "no wins to check"
    starts = {ev.deal_ids[d]: a for d, a, _ in ev.deal_slices()}
    checked = 0
    for w in wins:
        deal = deals[w["deal_id"]]
        a = starts[w["deal_id"]]
        r = a + w["step"]
        if int(ev.flags[r]) & 32:      # Taiwan's instant flower wins have no hand
            continue
        g = _folded_before(ev, a, r, rules, deal)
        p = w["winner"]
        h = g.hand(p)
        conc = list(h["concealed"])
        tile = w["tile"]
        if w["self_drawn"]:
            conc.remove(tile)
        melds = [Meld(MeldKind[m["kind"].upper()], m["tile"], m["concealed"], m["added"],
                      m["claimed"] if m["kind"] != "chow" else 1,
                      m["claimed"] if m["kind"] == "chow" else 0) for m in h["melds"]]
        f = w["flags"]
        seats = deal["seats"]
        sit = Situation(seat=seats[p], prevalent=deal["prevalent"], dealer=seats[deal["dealer"]],
                        self_drawn=w["self_drawn"],
                        discarder=None if w["self_drawn"] else seats[w["discarder"]],
                        streak=deal["streak"],
                        table_discards=int(g.S[EL.H_N_DISCARDS]) if rules == "taiwan" else None,
                        last_tile=bool(f & 4), kong_replacement=bool(f & 8),
                        robbing_kong=bool(f & 16), fourth_tile=bool(f & 2),
                        first_turn=bool(f & 64))
        hand = Hand(tuple(conc), tuple(melds), tile, tuple(h["flowers"]), len(h["flowers"]),
                    sit, rules)
        sr = mjfast.score(hand)
        assert sr.total == w["total"], (w, sr)
        assert {x.id: x.count for x in sr.fans} == {x["id"]: x["count"] for x in w["fans"]}
        gains = [sr.settlement[WIND_LETTERS[seats[q]]] for q in range(len(seats))]
        want = np.array(w["scores"])
        kp = []
        if rules in ("tuidaohu", "two_player"):
            # the scorer settles the winner's kongs with the hand; the engine records them
            # as KONG_PAYMENT rows
            end = a + int((ev.deal[a:] == ev.deal[a]).sum())
            kp = np.flatnonzero((ev.kind[a:end] == K.KONG_PAYMENT) & (ev.player[a:end] == p)) + a
            want = want + ev.scores[kp].sum(axis=0)
        # the two-player fee is taken once per deal from each receiver (the engine spreads
        # it over the rows), as the scorer takes it once per hand: equal, kongs or not
        assert gains == want.tolist(), (w, sr.settlement)
        checked += 1
    assert checked > 0


@pytest.mark.slow
def test_same_seed_same_files_whatever_the_workers(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    kw = dict(deals=40, seed=3, jsonl=True, games_per_shard=1)
    simulate("mcr", "efficiency", out=str(a), workers=1, **kw)
    simulate("mcr", "efficiency", out=str(b), workers=2, **kw)
    fa = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    fb = sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    assert fa == fb and len(fa) > 10
    for f in fa:
        assert (a / f).read_bytes() == (b / f).read_bytes(), f
    c = simulate("mcr", "efficiency", deals=40, seed=4)
    assert not np.array_equal(c.events.tile, events_from_arrow(Dataset(a).read("events")).tile[:len(c.events)])


def test_read_back_and_fold_again(tmp_path):
    out = tmp_path / "sim"
    res = simulate("taiwan", "efficiency", deals=20, seed=5, out=str(out), jsonl=True)
    ds = Dataset(out)
    ev_pq = events_from_arrow(ds.read("events").drop(["rules", "variant"]))
    ev_js = read_jsonl(next((out / "jsonl").rglob("*.jsonl")))
    deals = {d["deal_id"]: d for d in ds.read("deals").to_dicts()}
    for ev in (ev_pq, ev_js):
        order = [deals[i] for i in ev.deal_ids]
        folded = fold(ev, "taiwan", wall=[d["wall"] for d in order],
                      dealer=[d["dealer"] for d in order], prevalent=[d["prevalent"] for d in order],
                      streak=[d["streak"] for d in order])
        for d, (S, result) in zip(order, folded):
            assert result["scores"] == d["scores"]
            assert (result["ended"] == "draw") == d["draw"]
            if result["wins"]:
                assert result["wins"][0]["player"] == d["winner"]
                assert result["wins"][0]["total"] == d["total"]
    # both readers give the same events
    for c in ("kind", "player", "tile", "aux", "target", "flags", "seq"):
        assert np.array_equal(getattr(ev_pq, c), getattr(ev_js, c)), c
    assert ev_pq.deal_ids == ev_js.deal_ids


def test_duplicate_deals_share_their_walls():
    res = simulate("mcr", "efficiency,value,efficiency,value", deals=3, seed=8, duplicate=True)
    deals = res.tables["deals"].to_pylist()
    assert len(deals) == 12
    by_wall = {}
    for d in deals:
        key = (d["game_id"].split("-p")[0], d["deal_index"])
        by_wall.setdefault(key, []).append(d)
    assert len(by_wall) == 3
    for group in by_wall.values():
        assert len(group) == 4 and len({tuple(d["wall"]) for d in group}) == 1
        assert len({tuple(d["bots"]) for d in group}) == 2          # rotations of a,b,a,b
        assert sorted(d["permutation"] for d in group) == [0, 1, 2, 3]
    res24 = simulate("mcr", "efficiency", deals=1, seed=8, duplicate=24)
    assert res24.tables["deals"].num_rows == 24


def test_botzone_wall_and_text(tmp_path):
    out = tmp_path / "bz"
    simulate("mcr", "efficiency", deals=8, seed=2, variant="botzone", wall="botzone",
             out=str(out), botzone_text=True)
    text = next((out / "botzone").rglob("*.txt")).read_bytes().decode()
    assert text.count("Match ") == 8 and text.count("\r\nScore ") == 8
    deals = Dataset(out).read("deals")
    assert all(len(w) == 136 for w in deals["wall"].to_list())
    with pytest.raises(mjfast.MjfastError):
        simulate("mcr", "efficiency", deals=1, botzone_text=True, out=str(tmp_path / "x"))


def test_bad_arguments_are_typed():
    for kw in (dict(bots="nobody"), dict(deals=0), dict(bots="efficiency,value"),
               dict(wall="mine"), dict(duplicate=5)):
        args = dict(rules="mcr", bots="efficiency", deals=1, seed=0)
        args.update(kw)
        with pytest.raises(mjfast.MjfastError):
            simulate(**args)
    with pytest.raises(mjfast.MjfastError):
        simulate("taiwan", "efficiency", deals=1, wall="botzone")



def test_user_variant_file_by_path_keeps_its_case(tmp_path):
    """A variant file outside the package, in a folder with capitals and a space, simulates
    by path: a copy of the bundled ``botzone`` variant gives the same deals as the name."""
    (tmp_path / "My Rules").mkdir()
    user = tmp_path / "My Rules" / "MCR.House.toml"
    user.write_bytes((Path(mjfast.__file__).parent / "rules" / "mcr.botzone.toml").read_bytes())
    a = simulate("mcr", "efficiency", deals=8, seed=3, variant="botzone")
    b = simulate("mcr", "efficiency", deals=8, seed=3, variant=str(user))
    assert a.errors == [] and b.errors == [] and a.n_deals == b.n_deals == 8
    da, db = a.tables["deals"], b.tables["deals"]
    for col in ("winner", "total", "scores"):
        assert da.column(col).to_pylist() == db.column(col).to_pylist()

# ---- the game structure (mjfast.engine._structure) -----------------------------------
def _games(res):
    deals = res.tables["deals"].to_pylist()
    by = {}
    for d in deals:
        by.setdefault(d["game_id"], []).append(d)
    return by, {g["game_id"]: g for g in res.tables["games"].to_pylist()}


def _check_scores_carry(ds, game, n):
    tot = [0] * n
    for d in ds:
        assert d["start_scores"] == [tot[e] for e in d["entrants"]]
        for p, e in enumerate(d["entrants"]):
            tot[e] += d["scores"][p]
    assert game["final_scores"] == tot and game["n_deals"] == len(ds)


def test_mcr_game_four_winds_with_seat_changes():
    res = simulate("mcr", "efficiency,value,efficiency,value", deals=32, seed=21)
    by, games = _games(res)
    assert len(by) == 2
    for gid, ds in by.items():
        assert [d["deal_index"] for d in ds] == list(range(16))
        assert [d["prevalent"] for d in ds] == [k // 4 for k in range(16)]
        assert [d["dealer"] for d in ds] == [k % 4 for k in range(16)]
        assert all(d["streak"] == 0 and d["wall_mode"] == "standard" for d in ds)
        for r in range(4):
            rnd = ds[4 * r: 4 * r + 4]
            assert len({tuple(d["entrants"]) for d in rnd}) == 1      # seats kept in a round
            # every player deals once in every round
            assert sorted(d["entrants"][d["dealer"]] for d in rnd) == [0, 1, 2, 3]
            # bots follow their player
            for d in rnd:
                assert d["bots"] == [["efficiency", "value"][e % 2] for e in d["entrants"]]
        # every player sits at each wind once at a round's start (the dealer's seat East)
        starts = [ds[4 * r]["entrants"] for r in range(4)]
        for e in range(4):
            assert sorted(s.index(e) for s in starts) == [0, 1, 2, 3]
        assert starts[0] == [0, 1, 2, 3] and starts[1] == [1, 0, 3, 2]
        _check_scores_carry(ds, games[gid], 4)
        assert games[gid]["end"] == "structure" and games[gid]["prevalent_rounds"] == 4


def test_taiwan_game_by_winds_with_dealer_repeats():
    res = simulate("taiwan", "efficiency", deals=32, seed=22)
    by, games = _games(res)
    assert len(by) == 2 and res.n_deals == sum(len(v) for v in by.values()) >= 32
    for gid, ds in by.items():
        g = games[gid]
        # 15 passes between its deals; the 16th, after the last deal, ends the game
        assert g["end"] == "structure" and g["dealer_passes"] == 15 and g["prevalent_rounds"] == 4
        assert len(ds) >= 16
        passes = 0
        for a, b in zip(ds, ds[1:] + [None]):
            assert a["prevalent"] == passes // 4
            dealer_won = a["winner"] == a["dealer"] or (
                a["n_wins"] > 1 and _dealer_among_winners(res, a))
            if b is None:
                assert not (a["draw"] or dealer_won)            # the last dealer passed
                break
            if a["draw"]:
                assert (b["dealer"], b["streak"]) == (a["dealer"], a["streak"])
            elif dealer_won:
                assert (b["dealer"], b["streak"]) == (a["dealer"], a["streak"] + 1)
            else:
                assert (b["dealer"], b["streak"]) == ((a["dealer"] + 1) % 4, 0)
                passes += 1
        assert passes == 15
        _check_scores_carry(ds, g, 4)
    # fewer than 16 deals: exactly that many, the game cut short
    res = simulate("taiwan", "efficiency", deals=5, seed=22)
    assert res.tables["deals"].num_rows == 5
    assert res.tables["games"].to_pylist()[0]["end"] == "budget"


def _dealer_among_winners(res, deal):
    w = res.tables["wins"].to_pylist()
    return any(x["deal_id"] == deal["deal_id"] and x["winner"] == deal["dealer"] for x in w)


@pytest.mark.parametrize("rules", ["tuidaohu", "two_player"])
def test_set_number_of_deals(rules):
    res = simulate(rules, "efficiency", deals=20, seed=23)
    by, games = _games(res)
    assert sorted(len(v) for v in by.values()) == [4, 16]
    n = get_rules(rules).players
    for gid, ds in by.items():
        assert games[gid]["end"] == ("structure" if len(ds) == 16 else "budget")
        for a, b in zip(ds, ds[1:]):
            if a["draw"] or a["winner"] == a["dealer"]:
                assert b["dealer"] == a["dealer"]
            else:
                assert (b["dealer"], b["streak"]) == ((a["dealer"] + 1) % n, 0)
        _check_scores_carry(ds, games[gid], n)


def test_two_player_chips():
    chips = 12
    res = simulate("two_player", "efficiency", deals=64, seed=24, chips=chips)
    assert res.errors == []
    by, games = _games(res)
    ev = res.events
    rows = {ev.deal_ids[d]: (a, b) for d, a, b in ev.deal_slices()}
    for gid, ds in by.items():
        for d in ds:
            stack = [chips + x for x in d["start_scores"]]
            assert min(stack) > 0
            a, b = rows[d["deal_id"]]
            pay = np.minimum(ev.scores[a:b], 0).sum(axis=0)
            assert (-pay <= np.array(stack)).all()       # nobody pays beyond his stack
        fin = games[gid]["final_scores"]
        assert min(chips + x for x in fin) >= 0
        if games[gid]["end"] == "bust":
            assert min(chips + x for x in fin) == 0
    assert any(g["end"] == "bust" for g in games.values())
    with pytest.raises(mjfast.MjfastError):
        simulate("mcr", "efficiency", deals=1, chips=10)


def test_a_run_without_chips_after_one_with_chips_has_no_cap():
    """The worker's context is reused within a process: a run with chips must not leave
    its caps behind for the next run without them."""
    def rows(res):
        t = res.tables["deals"]
        return t.column("scores").to_pylist(), t.column("total").to_pylist()
    before = rows(simulate("two_player", "efficiency", deals=32, seed=24))
    capped = rows(simulate("two_player", "efficiency", deals=32, seed=24, chips=6))
    after = rows(simulate("two_player", "efficiency", deals=32, seed=24))
    assert capped != before                       # the cap binds on these deals
    assert after == before


@pytest.mark.parametrize("rules, chips", [("mcr", None), ("two_player", 12)])
def test_python_loop_keeps_the_game_structure(rules, chips):
    """The Python loop (Python policies' path) re-seats, caps and ends games as the
    compiled loop does: the same tables, row for row."""
    from mjfast.simulation._pyloop import play_jobs_python
    from mjfast.simulation._simulate import make_plan, play_shard
    bots = "efficiency,value,efficiency,value" if rules == "mcr" else "efficiency,value"
    plan = make_plan(rules, bots, 20, 5, chips=chips)
    idx = np.arange(len(plan.jobs))
    a, b = play_shard(plan, idx), play_jobs_python(plan, idx)
    for name in ("events", "deals", "games", "wins"):
        assert a.tables[name].equals(b.tables[name]), name
    ent = a.tables["deals"]["entrants"].to_pylist()
    assert (len({tuple(e) for e in ent}) > 1) == (rules == "mcr")
