"""The ``planner`` bot: its targets read the rule table, it sees only what a player sees
(hidden tiles permuted, every decision unchanged), it is deterministic, the Python loop
plays it as the compiled loop does, and a variant's table changes its play."""
import numpy as np
import pytest

from mjfast.engine import layout as EL
from mjfast.simulation import simulate
from mjfast.simulation import _pyloop
from mjfast.simulation import _planner
from mjfast.simulation._planner import (P_NT, P_T0, T_FLUSH, T_PATTERN, TR_COUNTS, TR_FAN,
                                        TR_FAN2, TR_KIND, TR_MASK, TROW, plan_rows)
from mjfast.simulation._simulate import make_plan, play_shard
from mjfast.simulation._pyloop import play_jobs_python


def _targets(rules):
    rows = plan_rows(rules)
    n = int(rows[P_NT])
    return [rows[P_T0 + TROW * i:P_T0 + TROW * (i + 1)] for i in range(n)]


def test_targets_follow_the_rule_table():
    """Every MCR target names a fan of the table, a pattern has 9 tiles in three chows, a
    flush mask holds one suit (with or without the honors); rule sets without a fan have
    no target for it (Tuidaohu: no straights)."""
    from mjfast.rules import get_profile
    table = get_profile("mcr").table
    keys = {int(r.id): r.key for r in table.rows}
    seen = set()
    for r in _targets("mcr"):
        f = int(r[TR_FAN])
        if f >= 0:
            seen.add(keys[f])
        if r[TR_KIND] == T_PATTERN:
            assert r[TR_COUNTS:].sum() == 9
        if r[TR_KIND] == T_FLUSH and keys[f] != "all_honors":
            bits = int(r[TR_MASK])
            assert bin(bits & ((1 << 27) - 1)).count("1") == 9
    for k in ("pure_straight", "mixed_straight", "mixed_triple_chow", "half_flush",
              "full_flush", "all_pungs", "seven_pairs", "thirteen_orphans", "knitted_straight",
              "lesser_honors_and_knitted_tiles", "mixed_shifted_chows"):
        assert k in seen, k
    tdh = get_profile("tuidaohu").table
    tkeys = {int(r.id): r.key for r in tdh.rows}
    tseen = {tkeys[int(r[TR_FAN])] for r in _targets("tuidaohu") if r[TR_FAN] >= 0}
    assert "half_flush" in tseen and "seven_pairs" in tseen and "win" in tseen
    assert not any(r[TR_KIND] == T_PATTERN for r in _targets("tuidaohu"))


def test_shifted_chows_with_all_chows_targets():
    """MCR has every mixed-shifted-chows pattern twice: alone and with All Chows (the other
    tiles restricted to the suits, the second fan all_chows); no other rule set has the
    combination (no such fans), and switching it off removes exactly those rows."""
    from mjfast.rules import get_profile
    keys = {int(r.id): r.key for r in get_profile("mcr").table.rows}
    rows = _targets("mcr")
    plain = [r for r in rows if r[TR_KIND] == T_PATTERN and r[TR_FAN2] < 0
             and keys[int(r[TR_FAN])] == "mixed_shifted_chows"]
    combo = [r for r in rows if r[TR_KIND] == T_PATTERN and r[TR_FAN2] >= 0]
    assert len(plain) == 30 and len(combo) == 30
    for r in combo:
        assert keys[int(r[TR_FAN])] == "mixed_shifted_chows"
        assert keys[int(r[TR_FAN2])] == "all_chows"
        assert int(r[TR_MASK]) == (1 << 27) - 1
    assert sorted(tuple(r[TR_COUNTS:]) for r in combo) == sorted(tuple(r[TR_COUNTS:])
                                                                 for r in plain)
    for rules in ("taiwan", "tuidaohu", "two_player"):
        assert not any(r[TR_FAN2] >= 0 for r in _targets(rules))
    old = _planner.ALL_CHOWS
    try:
        _planner.ALL_CHOWS = 0
        assert len(_targets("mcr")) == len(rows) - 30
    finally:
        _planner.ALL_CHOWS = old


@pytest.mark.slow
def test_planner_plays_for_shifted_chows_with_all_chows(monkeypatch):
    """With the combined targets four planners win more hands holding both Mixed Shifted
    Chows and All Chows (6 + 2: the minimum) than without them (the same walls)."""
    from mjfast.rules import get_profile
    from mjfast.simulation import _simulate
    by_key = get_profile("mcr").table.by_key
    want = {int(by_key["mixed_shifted_chows"].id), int(by_key["all_chows"].id)}

    def share(on):
        monkeypatch.setattr(_planner, "ALL_CHOWS", on)
        _simulate._worker.cache_clear()            # the bot context holds the targets
        res = simulate("mcr", "planner", deals=200, seed=13, workers=1)
        wins = [w for w in res.tables["wins"].to_pylist() if w["legal"]]
        both = sum(want <= {f["id"] for f in w["fans"]} for w in wins)
        return both / max(len(wins), 1), len(wins)

    try:
        without, n0 = share(0)
        with_, n1 = share(1)
    finally:
        _simulate._worker.cache_clear()
    assert n0 > 100 and n1 > 100
    assert with_ > without + 0.05, (with_, without)


def _permute_hidden(S, p, rng):
    """A copy of ``S`` with the tiles ``p`` cannot see shuffled: the opponents' concealed
    tiles and the live wall beyond the next draw (flowers stay where they are)."""
    S2 = S.copy()
    n = int(S[EL.H_PLAYERS])
    opp = [q for q in range(n) if q != p]
    front, back = int(S[EL.H_FRONT]), int(S[EL.H_BACK])
    pos = [i for i in range(front + 1, back) if 0 <= S[EL.WALL + i] < 34]
    pool = [int(S[EL.WALL + i]) for i in pos]
    sizes = []
    for q in opp:
        h = S[EL.HAND + 34 * q:EL.HAND + 34 * q + 34]
        sizes.append(int(h.sum()))
        pool += list(np.repeat(np.arange(34), h))
    before = np.bincount(pool, minlength=34)
    pool = list(rng.permutation(pool))
    at = 0
    for q, size in zip(opp, sizes):
        h = np.bincount(pool[at:at + size], minlength=34)
        S2[EL.HAND + 34 * q:EL.HAND + 34 * q + 34] = h
        at += size
    for i in pos:
        S2[EL.WALL + i] = pool[at]
        at += 1
    assert (np.bincount(pool, minlength=34) == before).all()
    return S2


def _defend(monkeypatch, weight, model):
    """``planner_defend``'s weight and danger model (data of the bot context)."""
    from mjfast.simulation import _simulate
    monkeypatch.setattr(_planner, "DANGER_DEFEND", weight)
    monkeypatch.setattr(_planner, "DANGER_MODEL", model)
    _simulate._worker.cache_clear()            # the bot context holds the parameters


def test_planner_defend_weight(monkeypatch):
    """``planner_defend`` without a weight makes every decision ``planner`` makes (the
    same events on the same walls); with a weight each danger model changes its discards,
    and ``planner`` seats beside it are untouched by its weight (their slot stays 0)."""
    from mjfast.simulation import _simulate
    mixed = "planner_defend,planner,planner_defend,planner"
    try:
        base = simulate("mcr", "planner", deals=40, seed=9, workers=1)
        _defend(monkeypatch, 0.0, 1)
        same = simulate("mcr", mixed, deals=40, seed=9, workers=1)
        assert same.tables["events"].equals(base.tables["events"])
        for model in (0, 1):
            _defend(monkeypatch, 1.0, model)
            moved = simulate("mcr", mixed, deals=40, seed=9, workers=1)
            assert moved.errors == []
            assert not moved.tables["events"].equals(base.tables["events"]), model
            assert simulate("mcr", "planner", deals=40, seed=9, workers=1).tables[
                "events"].equals(base.tables["events"])
    finally:
        monkeypatch.undo()
        _simulate._worker.cache_clear()


@pytest.mark.slow
@pytest.mark.parametrize("rules,bots,model", [("mcr", "planner", None),
                                              ("taiwan", "planner", None),
                                              ("tuidaohu", "planner", None),
                                              ("two_player", "planner", None),
                                              ("mcr", "planner_defend", 0),
                                              ("mcr", "planner_defend", 1)])
def test_planner_sees_only_what_a_player_sees(monkeypatch, rules, bots, model):
    """Every planner decision (own turns and claims) of a few deals is recomputed on
    copies of the state whose hidden tiles were shuffled: the decision never changes
    (also with a defence: it reads the opponents' rivers and exposed melds)."""
    from mjfast.simulation import _simulate
    if model is not None:
        _defend(monkeypatch, 1.0, model)
    orig = _pyloop.PythonSeats._compiled_choice
    checked, moved = [], []
    rng = np.random.default_rng(5)

    def checking(self, pol, S, W, A, Q, ctx, bc, p, claim):
        a = orig(self, pol, S, W, A, Q, ctx, bc, p, claim)
        W0 = W.copy()
        for _ in range(3):
            S2 = _permute_hidden(S, p, rng)
            moved.append(not np.array_equal(S2, S))
            W[:] = W0
            b = orig(self, pol, S2, W, A, Q, ctx, bc, p, claim)
            assert a == b, (p, claim)
        W[:] = W0
        # the real state's answer again (the waits slot written by the last call)
        assert orig(self, pol, S, W, A, Q, ctx, bc, p, claim) == a
        checked.append(claim)
        return a

    monkeypatch.setattr(_pyloop.PythonSeats, "_compiled_choice", checking)
    plan = make_plan(rules, bots, 8 if rules == "two_player" else 3, 17)
    try:
        play_jobs_python(plan, np.arange(len(plan.jobs)))
    finally:
        monkeypatch.undo()
        _simulate._worker.cache_clear()
    assert len(checked) > 100 and any(checked) and not all(checked)
    assert np.mean(moved) > 0.9          # the shuffles did change the hidden tiles


@pytest.mark.slow
def test_python_loop_equals_compiled_loop_with_planners(monkeypatch):
    from mjfast.simulation import _simulate
    for bots, model in (("planner,value,planner,efficiency", None),
                        ("planner_defend,value,planner,planner_defend", 1)):
        if model is not None:
            _defend(monkeypatch, 1.0, model)
        try:
            plan = make_plan("mcr", bots, 6, 23)
            idx = np.arange(len(plan.jobs))
            a = play_shard(plan, idx)
            b = play_jobs_python(plan, idx)
        finally:
            monkeypatch.undo()
            _simulate._worker.cache_clear()
        for name in ("events", "deals", "wins"):
            assert a.tables[name].equals(b.tables[name]), (bots, name)


def test_planner_is_deterministic():
    a = simulate("mcr", "planner", deals=40, seed=9)
    b = simulate("mcr", "planner", deals=40, seed=9)
    assert a.errors == []
    assert a.tables["events"].equals(b.tables["events"])


@pytest.mark.slow
def test_planner_reads_the_variant(monkeypatch):
    """The same states decided under the 6-point variant's context (the planner reads the
    minimum and the fan values from it): some decisions change, the others' do not."""
    from mjfast.engine import make_context
    min6 = make_context("mcr", "min6")
    orig = _pyloop.PythonSeats._compiled_choice
    same, differ = [], []

    def both(self, pol, S, W, A, Q, ctx, bc, p, claim):
        W0 = W.copy()
        b = orig(self, pol, S, W, A, Q, min6, bc, p, claim)
        W[:] = W0
        a = orig(self, pol, S, W, A, Q, ctx, bc, p, claim)
        (same if a == b else differ).append(claim)
        return a

    monkeypatch.setattr(_pyloop.PythonSeats, "_compiled_choice", both)
    plan = make_plan("mcr", "planner", 8, 31)
    play_jobs_python(plan, np.arange(len(plan.jobs)))
    assert len(differ) > 0 and len(same) > 10 * len(differ)


def _hand_text(counts):
    names = [f"{r + 1}{s}" for s in "mps" for r in range(9)] + list("ESWNCFP")
    return "".join(names[t] * int(counts[t]) for t in range(34))


def test_ready_hand_valued_over_both_ways_of_winning(monkeypatch):
    """A ready discard's value is the expectation over how the winning tile arrives: for
    every live wait, with chance 1/4 a self-draw, else a discard, each way counted when
    legal (MCR: at least 8) and paid as MCR settles it (self-drawn 3 x (total + 8), on a
    discard total + 3 x 8). Checked on the planners' own turns (concealed hands, flowers
    counted) against the Python scorer's ``score_waits``; the call restores the state,
    and some hands checked win legally only by self-draw (valued above 0)."""
    import mjfast
    from mjfast.engine.compiled import wall_left
    from mjfast.kernels import C_MINIMUM
    from mjfast.simulation._bots import _ready_legal
    orig = _pyloop.PythonSeats._compiled_choice
    checked, self_only = [], []

    def checking(self, pol, S, W, A, Q, ctx, bc, p, claim):
        if not claim and S[EL.H_NMELDS + p] == 0 and wall_left(S, p) >= 4:
            hand = S[EL.HAND + 34 * p:EL.HAND + 34 * p + 34].astype(np.int64)
            vis = S[EL.VISIBLE:EL.VISIBLE + 34].astype(np.int64)
            S0 = S.copy()
            for d in np.flatnonzero(hand):
                h = hand.copy()
                h[d] -= 1
                try:
                    waits = mjfast.score_waits(_hand_text(h), rules="mcr", visible=vis,
                                               seat=int(S[EL.H_SEATS + p]),
                                               prevalent=int(S[EL.H_PREVALENT]),
                                               flowers=int(S[EL.H_NFLOWERS + p]))
                except Exception:
                    continue                # not ready
                if not waits or any(vis[int(mjfast.notation.parse_tiles(w["tile"])[0])] >= 3
                                    for w in waits):
                    continue                # a fourth-tile win: the situations differ
                want, eff, only = 0.0, 0, False
                for w in waits:
                    t = int(mjfast.notation.parse_tiles(w["tile"])[0])
                    eff |= 1 << t
                    live = 4 - h[t] - vis[t]
                    if live <= 0:
                        continue
                    ok_d = w["legal_discard"] and w["total_discard"] >= 8
                    ok_s = w["legal_self_drawn"] and w["total_self_drawn"] >= 8
                    if ok_d:
                        want += live * 0.75 * (w["total_discard"] + 3 * 8)
                    if ok_s:
                        want += live * 0.25 * 3 * (w["total_self_drawn"] + 8)
                    only |= ok_s and not ok_d
                c = hand.copy()
                got = _ready_legal(S, ctx, p, int(d), np.int64(eff), c,
                                   int(ctx[0][C_MINIMUM]), np.zeros(EL.MAX_FANS, np.int64))
                assert got == pytest.approx(want), (_hand_text(h), waits, got, want)
                assert np.array_equal(S, S0) and np.array_equal(c, hand)
                checked.append(got)
                if only:
                    self_only.append(got)
        return orig(self, pol, S, W, A, Q, ctx, bc, p, claim)

    monkeypatch.setattr(_pyloop.PythonSeats, "_compiled_choice", checking)
    plan = make_plan("mcr", "planner", 12, 41)
    play_jobs_python(plan, np.arange(len(plan.jobs)))
    assert len(checked) > 20 and len(self_only) > 0 and min(self_only) > 0
