"""The engine's rules of play on scripted event streams and scripted walls."""
from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast.datasets import EventFlag, EventKind as K
from mjfast.engine import EngineError, Game, fold
from mjfast.engine import layout as L
from mjfast.notation import parse_tiles

pytestmark = pytest.mark.filterwarnings("ignore")


def T(s: str) -> list[int]:
    return parse_tiles(s)


def dealt(rules: str, hands: list[str], dealer: int = 0, **kw) -> Game:
    """A replay-mode game (wall unknown) with the given hands dealt."""
    g = Game(rules, dealer=dealer, **kw)
    for p, h in enumerate(hands):
        for t in T(h):
            g.apply(K.DEAL, p, t)
    return g


FILL = ["1s1s2s2s3s3s4s4s6s6s7s7sE", "1p1p2p2p3p3p4p4p6p6p7p7pS",
        "8s8s9s9s8p8p9p9pWWNNC", "FFPPC5s5s5p5p9m9m8m8m"]


def expect(code, fn, *a):
    with pytest.raises(EngineError) as e:
        fn(*a)
    assert e.value.code == code, e.value
    return e.value


def test_chow_only_from_the_left_and_claim_errors():
    g = dealt("mcr", FILL)
    expect(L.E_NO_DISCARD, g.apply, K.PUNG, 1, T("1p")[0])       # a claim with no discard
    g.apply(K.DRAW, 0, T("5m")[0])
    expect(L.E_NOT_HELD, g.apply, K.DISCARD, 0, T("9p")[0])     # a tile not held
    g.apply(K.DISCARD, 0, T("5m")[0])
    acts2 = {a.kind for a in g.legal_actions(2)}
    assert K.CHOW not in acts2
    # player 3 holds 8m8m9m9m: 7m would be a chow, but player 3 is not on the left of 0
    g2 = dealt("mcr", FILL)
    g2.apply(K.DRAW, 0, T("7m")[0])
    g2.apply(K.DISCARD, 0, T("7m")[0])
    expect(L.E_CHOW_LEFT, g2.apply, K.CHOW, 3, T("7m")[0], T("7m")[0], 0)
    assert K.CHOW not in {a.kind for a in g2.legal_actions(3)}
    # the left player (1) can chow 2p 3p + 1p? he holds 1p2p3p..: discard 4p by 0 -> 2p3p4p
    g3 = dealt("mcr", ["4p" + FILL[0][2:]] + FILL[1:])
    g3.apply(K.DRAW, 0, T("5m")[0])
    g3.apply(K.DISCARD, 0, T("4p")[0])
    chows = [a for a in g3.legal_actions(1) if a.kind == K.CHOW]
    assert {a.aux for a in chows} == {T("2p")[0], T("3p")[0]} or chows
    g3.apply(K.CHOW, 1, T("4p")[0], T("2p")[0], 0)
    assert g3.phase == "claimed"
    h = g3.hand(1)
    assert h["melds"][0]["kind"] == "chow" and h["melds"][0]["claimed"] == 3
    assert g3.hand(0)["river_claimed"] == [True]


def test_no_chow_in_two_player():
    g = dealt("two_player", ["1m2m3m4m5m6m7m8m9mEEES", "1m2m3m4m5m6m7m8m9mWWWN"])
    g.apply(K.DRAW, 0, T("C")[0])
    g.apply(K.DISCARD, 0, T("4m")[0])
    assert all(a.kind != K.CHOW for a in g.legal_actions(1))
    expect(L.E_NO_CHOW, g.apply, K.CHOW, 1, T("4m")[0], T("3m")[0], 0)


def test_claim_priority_and_head_bump():
    # player 1 and 3 both wait on 5p; player 2 holds 5p5p (pung)
    hands = ["1s2s3s4s5s6s7s8s9sSSNN", "1m2m3m4m5m6m7m8m9m1p2p3p5p",
             "5p5pWWWNNCCCFFP", "1m2m3m4m5m6m7m8m9m4p6pEE"]
    g = dealt("mcr", hands)
    g.apply(K.DRAW, 0, T("5p")[0])
    g.apply(K.DISCARD, 0, T("5p")[0])
    kinds = {p: {a.kind for a in g.legal_actions(p)} for p in (1, 2, 3)}
    assert K.WIN in kinds[1] and K.WIN in kinds[3] and K.PUNG in kinds[2]
    assert g.resolve_claims([-1, K.WIN, K.PUNG, K.WIN]) == [1]       # head-bump: nearest
    assert g.resolve_claims([-1, -1, K.PUNG, K.WIN]) == [3]          # win beats pung
    assert g.resolve_claims([-1, K.CHOW, K.PUNG, -1]) == [2]         # pung beats chow
    g.apply(K.WIN, 1, T("5p")[0], -1, 0)
    expect(L.E_HEAD_BUMP, g.apply, K.WIN, 3, T("5p")[0], -1, 0)


def test_taiwan_multiple_wins():
    hands = ["1s2s3s4s4s4s5s6s7s8s9sSSSEE", "1m2m3m4m5m6m7m8m9m1p2p3p7s8s9s5p",
             "5p5pWWWNNNCCCFFFPP", "1m2m3m4m5m6m7m8m9m7p8p9p4p6pEE"]
    g = dealt("taiwan", hands)
    g.apply(K.DRAW, 0, T("5p")[0])
    g.apply(K.DISCARD, 0, T("5p")[0])
    assert g.resolve_claims([-1, K.WIN, K.PUNG, K.WIN]) == [1, 3]
    g.apply(K.WIN, 1, T("5p")[0], -1, 0)
    g.apply(K.WIN, 3, T("5p")[0], -1, 0)
    r = g.result()
    assert [w["player"] for w in r["wins"]] == [1, 3]
    assert r["scores"][0] == -(r["scores"][1] + r["scores"][3]) and r["scores"][2] == 0
    # the dealer deals in: each winner gets tai + dealer bonus (streak 0: 1)
    for w in r["wins"]:
        assert w["scores"][w["player"]] == w["total"] + 1
    # the engine's situation (seat, dealer, discarder, one table discard, first turn, no
    # flowers) scores as the public scorer does
    ref = mjfast.score("123456789m123p789s5p5p", rules="taiwan", seat="S", discarder="E",
                       dealer="E", table_discards=1, first_turn=True)
    assert r["wins"][0]["total"] == ref.total
    assert sorted((f[0], f[2]) for f in r["wins"][0]["fans"]) == \
        sorted((f.id, f.count) for f in ref.fans)


def test_win_value_equals_score():
    hands = ["1s2s3s4s5s6s7s8s9sEESS", "1m2m3m4m5m6m7m8m9m1p2p3p5p",
             "5p5pWWWNNNCCCFF", "2m3m4m5m6m7m2s3s4s7p8p9pS"]
    g = dealt("mcr", hands)
    g.apply(K.DRAW, 0, T("5p")[0])
    g.apply(K.DISCARD, 0, T("5p")[0])
    total, legal, _, fans = g.win_value(1, T("5p")[0], False)
    ref = mjfast.score("123456789m1235p5p", rules="mcr", seat="S", discarder="E")
    assert total == ref.total and legal == ref.legal
    assert sorted((f[0], f[2]) for f in fans) == sorted((f.id, f.count) for f in ref.fans)
    g.apply(K.WIN, 1, T("5p")[0], -1, 0)
    r = g.result()
    assert r["wins"][0]["total"] == ref.total
    assert r["scores"] == [-(8 + ref.total), 8 + 8 + 8 + ref.total, -8, -8]


def test_fold_reproduces_a_scripted_deal():
    hands = ["1s2s3s4s5s6s7s8s9sEESS", "1m2m3m4m5m6m7m8m9m1p2p3p5p",
             "5p5pWWWNNNCCCFF", "2m3m4m5m6m7m2s3s4s7p8p9pS"]
    g = dealt("mcr", hands)
    g.apply(K.DRAW, 0, T("5p")[0])
    g.apply(K.DISCARD, 0, T("5p")[0])
    g.apply(K.CLAIM_LOST, 2, T("5p")[0], int(K.PUNG), 0)
    g.apply(K.WIN, 1, T("5p")[0], -1, 0)
    g.auto()
    ev = g.events
    assert ev.kind[-1] == K.DEALER_CHANGE and ev.player[-1] == 1     # MCR: the deal passes
    (state, res), = fold(ev, "mcr")
    assert np.array_equal(state, g.S)
    assert res == g.result()


def test_fold_rejects_a_tampered_record():
    hands = ["1s2s3s4s5s6s7s8s9sEESS", "1m2m3m4m5m6m7m8m9m1p2p3p5p",
             "5p5pWWWNNNCCCFF", "2m3m4m5m6m7m2s3s4s7p8p9pS"]
    g = dealt("mcr", hands)
    g.apply(K.DRAW, 0, T("5p")[0])
    g.apply(K.DISCARD, 0, T("5p")[0])
    g.apply(K.WIN, 1, T("5p")[0], -1, 0)
    ev = g.events
    win = int(np.flatnonzero(ev.kind == K.WIN)[0])
    ev.scores[win, 0] -= 1
    with pytest.raises(EngineError, match="payments"):
        fold(ev, "mcr")
    ev = g.events
    ev.total[win] += 1
    with pytest.raises(EngineError, match="total"):
        fold(ev, "mcr")
    ev = g.events                                   # a discard of a tile never held
    ev.tile[int(np.flatnonzero(ev.kind == K.DISCARD)[0])] = T("P")[0]
    with pytest.raises(EngineError) as e:
        fold(ev, "mcr")
    assert e.value.code == L.E_NOT_HELD


# ---- the game structure ------------------------------------------------------------
from mjfast.engine import GameStructure  # noqa: E402
from mjfast.engine._structure import SEAT_CHANGE, WINDS_CAP  # noqa: E402


def test_mcr_structure_sixteen_deals_and_seat_changes():
    gs = GameStructure("mcr")
    seen = []
    while not gs.ended:
        seen.append((gs.deal_index, gs.dealer, gs.prevalent, gs.streak, gs.entrants))
        gs.advance((gs.dealer + 1) % 4, 0, [1, 0, 0, -1])      # by position
        if gs.deal_index == 8:                  # totals follow the players, not the seats
            assert gs.totals == [4, 4, -4, -4]
    assert gs.end == "structure" and len(seen) == 16
    for k, dealer, prevalent, streak, ent in seen:
        assert (dealer, prevalent, streak) == (k % 4, k // 4, 0)
        assert ent == SEAT_CHANGE[k // 4].tolist()
    # each player: dealer once per round, each wind once at a round's start
    for r in range(4):
        assert sorted(seen[4 * r + i][4][i] for i in range(4)) == [0, 1, 2, 3]
    for e in range(4):
        assert sorted(SEAT_CHANGE[r].tolist().index(e) for r in range(4)) == [0, 1, 2, 3]
    assert gs.totals == [0, 0, 0, 0]            # each player sat at each position once


def test_taiwan_structure_repeats_streak_and_end():
    gs = GameStructure("taiwan")
    # two dealer wins, a draw, then the deal passes: the wind waits for four passes
    for nd, ns in ((0, 1), (0, 2), (0, 2), (1, 0)):
        assert gs.advance(nd, ns, [0, 0, 0, 0])
    assert (gs.dealer, gs.streak, gs.prevalent, gs.deal_index) == (1, 0, 0, 4)
    for k in range(2, 16):
        assert gs.advance(k % 4, 0, [0, 0, 0, 0])
        assert gs.prevalent == k // 4
    assert not gs.advance(0, 0, [0, 0, 0, 0]) and gs.end == "structure"
    # a dealer who never passes: the safety cap ends the game
    gs = GameStructure("taiwan")
    k = 0
    while gs.advance(0, 0, [0, 0, 0, 0]):
        k += 1
    assert k + 1 == WINDS_CAP and gs.end == "budget"


def test_two_player_structure_and_chips():
    gs = GameStructure("two_player", chips=10)
    assert gs.caps() == [10, 10]
    assert gs.advance(0, 1, [4, -4]) and gs.caps() == [14, 6]
    assert gs.advance(1, 0, [-6, 6]) and gs.caps() == [8, 12]
    gs = GameStructure("two_player", chips=10)
    assert not gs.advance(1, 0, [-10, 10]) and gs.end == "bust"
    gs = GameStructure("tuidaohu")
    n = 0
    while gs.advance(gs.dealer, gs.streak + 1, [0] * 4):
        n += 1
    assert n + 1 == 16 and gs.end == "structure"


def _play_out(g):
    """Play a deal to its DEALER_CHANGE: nobody claims, win when legal, else discard
    the drawn tile."""
    while True:
        g.auto(passed=True)
        if g.ended and int(g.S[L.H_DEALER_DONE]):
            return
        if g.phase not in ("drawn", "claimed"):
            continue
        p = int(g.S[L.H_TURN])
        acts = g.legal_actions(p)
        pick = [a for a in acts if a.kind == K.WIN]
        pick = pick or [a for a in acts if a.kind == K.DISCARD and a.tile == int(g.S[L.H_DRAWN])]
        pick = pick or [a for a in acts if a.kind == K.DISCARD]
        a = pick[0]
        g.apply(a.kind, p, a.tile, a.aux, a.target)


def test_game_next_deal_plays_a_whole_mcr_game():
    from mjfast.simulation import tile_set
    rng = np.random.default_rng(5)
    g = Game("mcr", wall=rng.permutation(tile_set("mcr")), structure=GameStructure("mcr"))
    rows = []
    while g is not None:
        rows.append((g.structure.deal_index, int(g.S[L.H_DEALER]), int(g.S[L.H_PREVALENT]),
                     g.structure.entrants))
        _play_out(g)
        g = g.next_deal(wall=rng.permutation(tile_set("mcr")))
    assert len(rows) == 16
    assert [r[1] for r in rows] == [k % 4 for k in range(16)]
    assert [r[2] for r in rows] == [k // 4 for k in range(16)]
    assert rows[4][3] == [1, 0, 3, 2]


def test_next_deal_needs_a_finished_deal():
    g = Game("tuidaohu")
    with pytest.raises(EngineError):
        g.next_deal()
