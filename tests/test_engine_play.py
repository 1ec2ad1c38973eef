"""Engine play rules on scripted walls: replacements, last tile, robbing, missed win,
instant flower wins, dealer repeat and streak, the Botzone wall; settlement ports."""
from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast.datasets import EventFlag, EventKind as K
from mjfast.engine import EngineError, Game, fold
from mjfast.engine import layout as L
from mjfast.notation import parse_tiles
from mjfast.rules.registry import get_rules


def T(s: str) -> list[int]:
    return parse_tiles(s)


def scripted_wall(rules: str, hands: list[str], front: str = "", back: str = "",
                  flowers_in_hands=()) -> np.ndarray:
    """A standard wall: the hands (dealer first), then ``front`` draws, the rest in id
    order, and ``back`` as the replacement tiles (first replacement = last wall tile)."""
    rs = get_rules(rules)
    left = {t: 4 for t in rs.kinds}
    if rs.flowers:
        left.update({f: 1 for f in range(34, 42)})
    seq = []
    for h in hands:
        seq += T(h)
    seq += T(front) if front else []
    tail = list(reversed(T(back))) if back else []
    for t in seq + tail:
        left[t] -= 1
        assert left[t] >= 0, t
    mid = [t for t in sorted(left) for _ in range(left[t])]
    return np.array(seq + mid + tail, dtype=np.int64)


def expect(code, fn, *a):
    with pytest.raises(EngineError) as e:
        fn(*a)
    assert e.value.code == code, e.value


def test_kong_replacement_win_matches_score():
    hands = ["EEEE1m2m3m4m5m6m7m8m9m", "1s2s3s4s5s6s7s8s9sSSWW",
             "1p2p3p4p5p6p7p8p9pNNCC", "2s3s4s5s6s7s2p3p4p5p6p7pF"]
    g = Game("mcr", wall=scripted_wall("mcr", hands, front="1p", back="1p"))
    g.auto()                                   # deal and the dealer's draw (1p)
    assert g.phase == "drawn" and g.hand(0)["concealed"].count(T("1p")[0]) == 1
    assert any(a.kind == K.KONG_CONCEALED for a in g.legal_actions(0))
    g.apply(K.KONG_CONCEALED, 0, T("E")[0])
    g.auto()                                   # the replacement from the back
    ev = g.events
    assert ev.kind[-1] == K.DRAW and ev.flags[-1] & EventFlag.REPLACEMENT
    assert ev.tile[-1] == T("1p")[0]
    total, legal, flags, fans = g.win_value(0, T("1p")[0], True)
    ref = mjfast.score("[EEEE]123456789m1p1p", rules="mcr", self_drawn=True,
                       kong_replacement=True)
    assert (total, legal) == (ref.total, ref.legal)
    assert sorted((f[0], f[2]) for f in fans) == sorted((f.id, f.count) for f in ref.fans)
    assert any(a.kind == K.WIN for a in g.legal_actions(0))
    g.apply(K.WIN, 0, T("1p")[0])
    assert g.result()["scores"] == [3 * (8 + ref.total), -(8 + ref.total),
                                   -(8 + ref.total), -(8 + ref.total)]


def test_flower_replacement_in_the_deal_and_in_play():
    hands = ["a1m2m3m4m5m6m7m8m9m1p2p3p", "1s2s3s4s5s6s7s8s9sSSWW",
             "1p2p3p4p5p6p7p8p9pNNCC", "2s3s4s5s6s7s2p3p4p5p6p7pF"]
    wall = scripted_wall("mcr", hands, front="b", back="EF")
    g = Game("mcr", wall=wall)
    g.auto()
    h = g.hand(0)
    assert h["flowers"] == [34, 35] and len(h["concealed"]) == 14
    ev = g.events
    kinds = list(ev.kind[52:])
    assert kinds == [K.FLOWER, K.DRAW, K.DRAW, K.FLOWER, K.DRAW]
    assert ev.tile[53] == T("E")[0] and ev.flags[53] & EventFlag.REPLACEMENT
    assert ev.tile[56] == T("F")[0] and ev.flags[56] & EventFlag.REPLACEMENT
    (state, res), = fold(ev, "mcr", wall=wall)
    assert np.array_equal(state, g.S)
    (state, res), = fold(ev, "mcr")          # replay mode: the logged tiles, no wall
    same = np.ones(L.STATE_SIZE, bool)
    same[L.WALL:L.WALL + L.MAX_WALL] = False
    same[L.H_WALL_KNOWN] = False
    assert np.array_equal(state[same], g.S[same])
    assert res == g.result()


def _tsumogiri_to_end(g: Game, until_player=None):
    """Everyone discards what they drew, nobody claims, until ``until_player`` drew the
    last tile (returns True) or the deal is drawn."""
    passed = False
    while True:
        g.auto(passed=passed)
        passed = True
        if g.ended:
            return False
        p = g._h(L.H_TURN)
        if until_player is not None and p == until_player and g._h(L.H_LAST_DRAW):
            return True
        g.apply(K.DISCARD, p, g._h(L.H_DRAWN))


def test_last_tile_self_draw_and_exhaustive_draw():
    hands = ["1s1s1s2s2s2s3s3s3sEEEN", "1s4s4s4s5s5s5sSSSWWW",
             "6s6s6s7s7s7s8s8s8sNNCC", "1m2m3m4m5m6m7m8m9m1p2p3p5p"]
    wall = scripted_wall("tuidaohu", hands)
    # the last tile of the wall (136 - 52 = 84 draws: the 84th is player 3's) is a 5p
    pos = [i for i in range(52, 135) if wall[i] == T("5p")[0]]
    wall[pos[-1]], wall[135] = wall[135], wall[pos[-1]]
    g = Game("tuidaohu", wall=wall)
    assert _tsumogiri_to_end(g, until_player=3)
    assert g.events.flags[-1] & EventFlag.LAST_TILE
    total, legal, flags, _ = g.win_value(3, T("5p")[0], True)
    ref = mjfast.score("123456789m1235p5p", rules="tuidaohu", seat="N", self_drawn=True,
                       last_tile=True)
    assert flags & 4 and total == ref.total
    # not taken: the discard after it ends the deal in an exhaustive draw
    g.apply(K.DISCARD, 3, T("5p")[0])
    g.auto(passed=True)
    r = g.result()
    assert r["ended"] == "draw" and r["next_dealer"] == 0     # dealer repeats on a draw
    assert g.events.kind[-2] == K.EXHAUSTIVE_DRAW


def test_exhaustive_draw_only_when_spent():
    hands = ["1s1s1s2s2s2s3s3s3sEEEN", "1s4s4s4s5s5s5sSSSWWW",
             "6s6s6s7s7s7s8s8s8sNNCC", "1m2m3m4m5m6m7m8m9m1p2p3p5p"]
    g = Game("tuidaohu", wall=scripted_wall("tuidaohu", hands))
    g.auto()
    g.apply(K.DISCARD, 0, g._h(L.H_DRAWN))
    expect(L.E_NOT_EXHAUSTED, g.apply, K.EXHAUSTIVE_DRAW)


def _replay(rules, hands, dealer=0, **kw):
    g = Game(rules, dealer=dealer, **kw)
    n = g.players
    for k in range(n):
        p = (dealer + k) % n
        for t in T(hands[p]):
            g.apply(K.DEAL, p, t)
    return g


def test_robbing_an_added_kong_pays_no_kong():
    hands = ["1s1s1s2s2s2s3s3s3sEEEN", "5p5p4s4s4s5s5s5sSSSWW",
             "1m2m3m4m5m6m7m8m9m4p6pCC", "6s6s6s7s7s7s8s8s8sNNFF"]
    g = _replay("tuidaohu", hands)
    g.apply(K.DRAW, 0, T("5p")[0]); g.apply(K.DISCARD, 0, T("5p")[0])
    g.apply(K.PUNG, 1, T("5p")[0], -1, 0); g.apply(K.DISCARD, 1, T("W")[0])
    g.apply(K.DRAW, 2, T("P")[0]); g.apply(K.DISCARD, 2, T("P")[0])
    g.apply(K.DRAW, 3, T("P")[0]); g.apply(K.DISCARD, 3, T("P")[0])
    g.apply(K.DRAW, 0, T("P")[0]); g.apply(K.DISCARD, 0, T("P")[0])
    g.apply(K.DRAW, 1, T("5p")[0])
    assert any(a.kind == K.KONG_ADDED for a in g.legal_actions(1))
    g.apply(K.KONG_ADDED, 1, T("5p")[0])
    acts = g.legal_actions(2)
    assert any(a.kind == K.WIN and a.target == 1 for a in acts)
    g.apply(K.WIN, 2, T("5p")[0], -1, 1)
    ev = g.events
    assert ev.flags[-1] & EventFlag.ROBBING and ev.target[-1] == 1
    ref = mjfast.score("123456789m4p6pCC5p", rules="tuidaohu", seat="W", discarder="S",
                       robbing_kong=True)
    assert ev.total[-1] == ref.total
    assert g.hand(1)["melds"][0]["kind"] == "pung"            # reverts to a pung
    g.auto()
    assert K.KONG_PAYMENT not in list(g.events.kind)          # a robbed kong pays nothing
    assert g.result()["scores"][1] == -g.result()["scores"][2]
    assert g.result()["next_dealer"] == 1                      # a non-dealer won


def test_kong_payment_and_replacement_in_two_player():
    g = _replay("two_player", ["1m1m1m2m3m4m5m6m7m8mEEE", "9m9m9m2m3m4m5m6m7mSSSW"])
    g.apply(K.DRAW, 0, T("9m")[0]); g.apply(K.DISCARD, 0, T("9m")[0])
    assert any(a.kind == K.KONG_EXPOSED for a in g.legal_actions(1))
    g.apply(K.KONG_EXPOSED, 1, T("9m")[0], -1, 0)
    expect(L.E_PHASE, g.apply, K.DISCARD, 1, T("W")[0])       # replacement first
    g.apply(K.DRAW, 1, T("N")[0], -1, -1, int(EventFlag.REPLACEMENT))
    g.apply(K.DISCARD, 1, T("N")[0])
    g.apply(K.DRAW, 0, T("1m")[0])
    g.apply(K.KONG_CONCEALED, 0, T("1m")[0])
    g.apply(K.DRAW, 0, T("C")[0], -1, -1, int(EventFlag.REPLACEMENT))
    g.apply(K.DISCARD, 0, T("C")[0])
    g.apply(K.DRAW, 1, T("W")[0])
    g.apply(K.WIN, 1, T("W")[0])
    g.auto()
    ev = g.events
    pays = [list(ev.scores[i]) for i in range(len(ev)) if ev.kind[i] == K.KONG_PAYMENT]
    # in the order made: the exposed kong (discarder pays 2), the concealed kong (4)
    assert pays == [[-2, 2], [4, -4]]
    from mjfast.scoring import tuidaohu as SD
    assert SD.kong_payment("open", 1, 0, rules="two_player") == {0: -2, 1: 2}
    win = [i for i in range(len(ev)) if ev.kind[i] == K.WIN][0]
    fan = int(ev.total[win])
    st = SD.settle(fan, seat=1, self_drawn=True, rules="two_player")
    assert list(ev.scores[win]) == [st["settlement"]["E"], st["settlement"]["S"]]
    (state, res), = fold(ev, "two_player")
    assert res == g.result()


def test_missed_win_taiwan():
    hands = ["1s1s1s2s2s2s3s3s3sEEENNSS", "1m2m3m4m5m6m7m8m9m1p2p3p7s8s9s5p",
             "4s4s4s5s5s5s6s6s6sWWWCCFF", "7p7p7p8p8p8p9p9p9pPPP1p1p2p2p"]
    g = _replay("taiwan", hands)
    g.apply(K.DRAW, 0, T("5p")[0]); g.apply(K.DISCARD, 0, T("5p")[0])
    assert any(a.kind == K.WIN for a in g.legal_actions(1))
    g.apply(K.WIN_PASSED, 1, T("5p")[0], -1, 0)
    g.apply(K.DRAW, 1, T("F")[0])
    assert not any(a.kind == K.WIN for a in g.legal_actions(1))
    g.apply(K.DISCARD, 1, T("F")[0])
    g.apply(K.DRAW, 2, T("5p")[0]); g.apply(K.DISCARD, 2, T("5p")[0])
    # the player's own discard cleared the lock
    assert any(a.kind == K.WIN for a in g.legal_actions(1))
    g2 = _replay("taiwan", hands)
    g2.apply(K.DRAW, 0, T("5p")[0]); g2.apply(K.DISCARD, 0, T("5p")[0])
    g2.apply(K.WIN_PASSED, 1, T("5p")[0], -1, 0)
    g2.apply(K.DRAW, 1, T("5p")[0])                  # self-draw of the locked kind
    assert not any(a.kind == K.WIN for a in g2.legal_actions(1))
    expect(L.E_MISSED_WIN, g2.apply, K.WIN, 1, T("5p")[0])


def test_taiwan_instant_flower_wins():
    from mjfast.scoring import taiwan as ST
    seven = ["1s1s1s2s2s2s3s3s3sEEENNSS", "abcdefg1m2m3m4m5m6m7m8m9m",
             "4s4s4s5s5s5s6s6s6sWWWCCFF", "7p7p7p8p8p8p9p9p9pPPP1p1p2p2p"]
    g = _replay("taiwan", seven)
    for f, r in zip("abcdefg", T("3m3m3m4m4m4m5m")):
        g.apply(K.FLOWER, 1, T(f)[0])
        g.apply(K.DRAW, 1, r, -1, -1, int(EventFlag.REPLACEMENT))
    g.apply(K.DRAW, 0, T("h")[0])
    g.apply(K.FLOWER, 0, T("h")[0])
    g.auto()
    r = g.result()
    assert r["wins"][0]["player"] == 1 and r["wins"][0]["discarder"] == 0
    want = ST.settle_flower_win("seven", 1, 0)
    assert r["wins"][0]["scores"] == [want[w] for w in "ESWN"]
    row = ST.get_table().row("seven_flowers_rob")
    assert r["wins"][0]["fans"] == [(row.id, row.points, 1)]
    eight = ["1s1s1s2s2s2s3s3s3sEEENNSS", "abcdefgh1m2m3m4m5m6m7m8m",
             "4s4s4s5s5s5s6s6s6sWWWCCFF", "7p7p7p8p8p8p9p9p9pPPP1p1p2p2p"]
    g = _replay("taiwan", eight)
    for f in "abcdefgh":
        g.apply(K.FLOWER, 1, T(f)[0])
    g.auto()
    r = g.result()
    want = ST.settle_flower_win("eight", 1)
    assert r["wins"][0]["scores"] == [want[w] for w in "ESWN"]
    assert g.events.flags[[i for i in range(len(g.events)) if g.events.kind[i] == K.WIN][0]] \
        & EventFlag.INSTANT


@pytest.mark.parametrize("streak", [0, 2])
def test_dealer_repeat_and_streak_taiwan(streak):
    from mjfast.scoring import taiwan as ST
    hands = ["1m2m3m4m5m6m7m8m9m1p2p3p7s8s9s5p", "1s1s1s2s2s2s3s3s3sEEENNSS",
             "4s4s4s5s5s5s6s6s6sWWWCCFF", "7p7p7p8p8p8p9p9p9pPPP1p1p2p2p"]
    g = _replay("taiwan", hands, streak=streak)
    g.apply(K.DRAW, 0, T("5p")[0])
    g.apply(K.WIN, 0, T("5p")[0])
    g.auto()
    r = g.result()
    tai = r["wins"][0]["total"]
    want = ST.settle_win(tai, 0, self_drawn=True, dealer=0, streak=streak)
    assert r["scores"] == [want[w] for w in "ESWN"]
    assert r["scores"][1] == -(tai + 1 + 2 * streak)
    ev = g.events
    assert ev.kind[-1] == K.DEALER_CHANGE and ev.player[-1] == 0 and ev.aux[-1] == streak + 1
    assert ST.next_dealer_state(0, streak, [0]) == (0, streak + 1)
    expect(L.E_ENDED, g.apply, K.DISCARD, 0, T("1m")[0])


def test_botzone_wall_segments_and_last_tile():
    rng = np.random.default_rng(5)
    tiles = np.array([t for t in range(34) for _ in range(4)], dtype=np.int64)
    rng.shuffle(tiles)
    g = Game("mcr", "botzone", wall=tiles, wall_mode="botzone")
    g.auto()
    for p in range(4):     # the deal = the last 13 of each segment
        assert sorted(g.hand(p)["concealed"][:]) == sorted(
            tiles[34 * p + 21: 34 * p + 34].tolist() + ([tiles[34 * p + 20]] if p == 0 else []))
    assert g.wall_left(0) == 20 and g.wall_left(1) == 21
    _tsumogiri_to_end(g)
    r = g.result()
    assert r["ended"] == "draw"
    # drawn when the player to draw had nothing left: player 0 (the dealer) drew 21
    assert [g.wall_left(p) for p in range(4)] == [0, 0, 0, 0]
    ev = g.events
    last_draws = [i for i in range(len(ev)) if ev.kind[i] == K.DRAW and ev.flags[i] & EventFlag.LAST_TILE]
    assert len(last_draws) == 1 and ev.player[last_draws[0]] == 3


def _two_player_kongs_deal(tmp_path, chips=None, base=100):
    """Player 1 kongs player 0's 9m, player 0 a concealed 1m kong, player 1 self-draws;
    the stake ``base`` set by a variant file (contexts are read-only)."""
    variant = tmp_path / f"base{base}.toml"
    variant.write_text(f"[params]\nbase = {base}\n")
    g = _replay("two_player", ["1m1m1m2m3m4m5m6m7m8mEEE", "9m9m9m2m3m4m5m6m7mSSSW"],
                chips=chips, variant=str(variant))
    g.apply(K.DRAW, 0, T("9m")[0]); g.apply(K.DISCARD, 0, T("9m")[0])
    g.apply(K.KONG_EXPOSED, 1, T("9m")[0], -1, 0)
    g.apply(K.DRAW, 1, T("N")[0], -1, -1, int(EventFlag.REPLACEMENT))
    g.apply(K.DISCARD, 1, T("N")[0])
    g.apply(K.DRAW, 0, T("1m")[0])
    g.apply(K.KONG_CONCEALED, 0, T("1m")[0])
    g.apply(K.DRAW, 0, T("C")[0], -1, -1, int(EventFlag.REPLACEMENT))
    g.apply(K.DISCARD, 0, T("C")[0])
    g.apply(K.DRAW, 1, T("W")[0])
    g.apply(K.WIN, 1, T("W")[0])
    g.auto()
    ev = g.events
    rows = [i for i in range(len(ev)) if ev.kind[i] in (K.WIN, K.KONG_PAYMENT)]
    return g, ev, rows


@pytest.mark.parametrize("chips", [None, [300, 10 ** 6]])
def test_two_player_fee_once_per_deal_and_chip_cap(chips, tmp_path):
    """The seed: the receiving side loses 5% of what it receives, and its example 3
    settles the win and the winner's kong as one sum; a player pays at most his chips.
    The engine's rows add up to the scorer's hand settlement (fee once, half up)."""
    from mjfast.scoring import tuidaohu as SD
    g, ev, rows = _two_player_kongs_deal(tmp_path, chips)
    win = rows[0]
    assert ev.kind[win] == K.WIN and [ev.player[r] for r in rows[1:]] == [1, 0]
    fan = int(ev.total[win])
    st = SD.settle(fan, seat=1, self_drawn=True, kongs=[("open", 0)], rules="two_player",
                   base=100, chips=None if chips is None else {0: chips[0], 1: chips[1]})
    winner_rows = ev.scores[win] + ev.scores[rows[1]]           # the win and his kong
    assert winner_rows.tolist() == [st["settlement"]["E"], st["settlement"]["S"]]
    # player 0's concealed kong: 400 received, 5% fee once
    assert ev.scores[rows[2]].tolist() == [400 - 20, -400]
    # the fee leaves the table once per receiver: 5% of 400 + 5% of the winner's receipts
    gross = -int(st["gross"]["E"])
    assert int(ev.scores[rows].sum()) == -(20 + (gross * 5 + 50) // 100)
    if chips is not None:
        assert st["chip_capped"] and -int(ev.scores[[win, rows[1]], 0].sum()) == chips[0]


def test_fold_with_chip_caps(tmp_path):
    g, ev, rows = _two_player_kongs_deal(tmp_path, [3, 10 ** 6], base=1)
    assert -int(ev.scores[[rows[0], rows[1]], 0].sum()) == 3
    (state, res), = fold(ev, "two_player", chips=[[3, 10 ** 6]])
    assert res["scores"] == g.result()["scores"]
    with pytest.raises(EngineError):
        fold(ev, "two_player")          # without the cap the engine's rows differ
