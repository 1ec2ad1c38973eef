"""Taiwan 16-tile (mahjchina table, seed 002): the seed's examples, one test per tai item
and per combination decision, hands with two readings (the higher must win)."""
from __future__ import annotations

import re

import pytest

import mjfast
from mjfast.errors import IncompleteHandError, RuleSetError, SituationError
from mjfast.hand import Hand, Meld, MeldKind, Situation
from mjfast.scoring import taiwan as tw

# ------------------------------------------------------------------ helpers ----------
_SUIT = {"m": 0, "p": 9, "s": 18}
_HON = "ESWNCFP"


def T(text: str) -> list[int]:
    """'123m45p' / '1m2m' / 'EESC' -> tile ids (letters for honors)."""
    out = []
    for digits, suit, hon in re.findall(r"(\d+)([mps])|([ESWNCFP])", text):
        if hon:
            out.append(27 + _HON.index(hon))
        else:
            out += [_SUIT[suit] + int(d) - 1 for d in digits]
    return out


def chow(t: str, idx: int = 1) -> Meld:
    return Meld(MeldKind.CHOW, T(t)[0], claimed_index=idx)


def pung(t: str, frm: int = 1) -> Meld:
    return Meld(MeldKind.PUNG, T(t)[0], claimed_from=frm)


def kong(t: str, concealed: bool = False, added: bool = False) -> Meld:
    return Meld(MeldKind.KONG, T(t)[0], concealed=concealed, added=added)


def H(concealed: str, win: str, melds=(), flowers: int = 0, **sit) -> Hand:
    """A complete Taiwan hand: ``concealed`` excludes the winning tile ``win``.
    Defaults as the seed's calculator: winner East = dealer, streak 0."""
    return Hand(tuple(T(concealed)), tuple(melds), T(win)[0], (), flowers,
                Situation(**sit), rules="taiwan")


def items(res) -> dict[str, int]:
    """{key: count} of a result's items."""
    return {tw.FAN_TABLE.row(f.id).key: f.count for f in res.fans}


def score(h: Hand, **kw):
    res = tw.score_hand(h, **kw)
    assert res.total == sum(f.points * f.count for f in res.fans)
    return res


# ------------------------------------------------------------- seed examples ---------
SEED_HAND = "4m5m6m7p8p9p2s2s2s6s7s8s5m"   # + winning 5m, called chow 1m2m3m


def test_seed_tsumo_9_tai():
    res = score(H(SEED_HAND, "5m", [chow("1m")], self_drawn=True))
    assert res.total == 9
    assert items(res) == {"win_shape": 1, "no_flowers": 1, "self_draw": 1, "single_wait": 1,
                          "no_honors": 1, "no_honors_no_flowers": 1}
    assert res.settlement == {"E": 30, "S": -10, "W": -10, "N": -10}
    assert res.extras["dealer_bonus"] == 1


def test_seed_same_hand_by_ron_8_tai():
    res = score(H(SEED_HAND, "5m", [chow("1m")], discarder=1))
    assert res.total == 8
    assert items(res) == {"win_shape": 1, "no_flowers": 1, "single_wait": 1,
                          "no_honors": 1, "no_honors_no_flowers": 1}
    assert res.settlement == {"E": 9, "S": -9, "W": 0, "N": 0}


def test_seed_concealed_tsumo_11_tai():
    res = score(H("1m2m3m4m5m6m7p8p9p2s2s2s6s7s8s5m", "5m", self_drawn=True, table_discards=20))
    assert res.total == 11
    assert items(res) == {"win_shape": 1, "no_flowers": 1, "concealed_self_draw": 1,
                          "single_wait": 1, "no_honors": 1, "no_honors_no_flowers": 1}
    assert res.extras["dealer_bonus"] == 1
    assert res.settlement == {"E": 36, "S": -12, "W": -12, "N": -12}


def test_seed_dealer_streak_example():
    # a 5-tai hand: 和了形 2 + 花牌 x2 + ツモ 1 (called pung, honor pair, two-sided wait)
    h = H("4m5m6m7p8p9p3s4s5s7s8sEE", "6s", [pung("2p", 2)], flowers=2,
          self_drawn=True, dealer=0, seat=0, streak=2)
    res = score(h)
    assert res.total == 5
    assert items(res) == {"win_shape": 1, "flowers": 2, "self_draw": 1}
    assert res.extras["dealer_bonus"] == 1 + 4
    assert res.settlement == {"E": 30, "S": -10, "W": -10, "N": -10}
    assert tw.settle_win(5, "E", self_drawn=True, dealer="E", streak=2) == res.settlement


def test_seed_faq_three_concealed_pungs_is_7():
    # three concealed pungs (the win by a two-sided chow) -> 二暗刻 2 + 三暗刻 5
    h = H("2m2m2m5p5p5p8s8s8sEE3m4m6s7s8s", "5m", discarder=2)
    res = score(h)
    it = items(res)
    assert it["two_concealed_pungs"] == 1 and it["three_concealed_pungs"] == 1
    assert "four_concealed_pungs" not in it
    pts = {f.id: f.points * f.count for f in res.fans}
    assert pts[tw.FAN_TABLE.row("two_concealed_pungs").id] + \
        pts[tw.FAN_TABLE.row("three_concealed_pungs").id] == 7


def test_seed_faq_all_pungs_is_10():
    h = H("1m1m1m9p9p9p5s5s5sEEE7m", "7m", [pung("C")], discarder=1)
    res = score(h)
    assert items(res)["all_pungs"] == 1
    assert tw.FAN_TABLE.row("all_pungs").points == 10
    # a hand with a chow is never all pungs
    h2 = H("1m2m3m9p9p9p5s5s5sEEE7m", "7m", [pung("C")], discarder=1)
    assert "all_pungs" not in items(score(h2))


def test_public_dispatch():
    h = H(SEED_HAND, "5m", [chow("1m")], self_drawn=True)
    res = mjfast.score(h, rules="taiwan")
    assert res.total == 9 and res.rules == "taiwan"
    d = res.to_dict()
    assert d["total"] == 9 and d["dealer_bonus"] == 1
    assert d["settlement"] == {"E": 30, "S": -10, "W": -10, "N": -10}
    assert {f["name_ja"] for f in d["fans"]} >= {"和了形", "無花", "ツモ"}
    # situation keywords through the public API
    assert mjfast.score(h, rules="taiwan", self_drawn=False, discarder=1).total == 8


# ------------------------------------------------------------ one test per item ------
def test_win_shape_every_complete_hand():
    assert items(score(H(SEED_HAND, "5m", [chow("1m")], discarder=1)))["win_shape"] == 1


def test_no_flowers_and_flowers():
    base = H(SEED_HAND, "5m", [chow("1m")], discarder=1)
    assert items(score(base))["no_flowers"] == 1
    it = items(score(H(SEED_HAND, "5m", [chow("1m")], flowers=3, discarder=1)))
    assert it["flowers"] == 3
    assert "no_flowers" not in it and "no_honors_no_flowers" not in it
    assert it["no_honors"] == 1


def test_honor_pungs_each_count():
    # concealed E pung, called C pung, concealed-kong W: 3 honor pungs
    h = H("EEE1m2m3m4p5p6p9s", "9s", [pung("C"), kong("W", concealed=True)], discarder=3)
    it = items(score(h))
    assert it["honor_pung"] == 3


def test_open_and_added_kongs_each_1():
    h = H("1m2m3m4p5p6p9s", "9s", [kong("C"), kong("2s", added=True), chow("7m")],
          discarder=3)
    it = items(score(h))
    assert it["open_kong"] == 2 and "concealed_kong" not in it


def test_concealed_kong_2_and_counts_as_concealed_pung():
    h = H("1m2m3m4p5p6p2p3p4p9s5s5s5s", "9s", [kong("7m", concealed=True)], self_drawn=True)
    it = items(score(h))
    assert it["concealed_kong"] == 1
    assert tw.FAN_TABLE.row("concealed_kong").points == 2
    assert it["two_concealed_pungs"] == 1          # 555s + the concealed kong
    assert it["concealed_self_draw"] == 1          # a concealed kong keeps the hand concealed


def test_concealed_self_draw_replaces_concealed_and_self_draw():
    it = items(score(H("1m2m3m4m5m6m7p8p9p2s2s2s6s7s8s5m", "5m", self_drawn=True)))
    assert it["concealed_self_draw"] == 1
    assert "concealed_hand" not in it and "self_draw" not in it


def test_concealed_hand_on_ron():
    it = items(score(H("1m2m3m4m5m6m7p8p9p2s2s2s6s7s8s5m", "5m", discarder=3)))
    assert it["concealed_hand"] == 1
    assert "self_draw" not in it and "concealed_self_draw" not in it


def test_self_draw_open_hand():
    it = items(score(H(SEED_HAND, "5m", [chow("1m")], self_drawn=True)))
    assert it["self_draw"] == 1 and "concealed_hand" not in it


def test_all_called_with_its_single_wait():
    melds = [chow("1m"), pung("5p"), kong("C"), chow("6s"), pung("9m", 2)]
    h = H("E", "E", melds, discarder=1)
    it = items(score(h))
    assert it["all_called"] == 1 and it["single_wait"] == 1
    # self-drawn: not 全露手
    assert "all_called" not in items(score(H("E", "E", melds, self_drawn=True)))
    # a concealed kong among the melds is not called
    melds2 = [chow("1m"), pung("5p"), kong("C", concealed=True), chow("6s"), pung("9m")]
    assert "all_called" not in items(score(H("E", "E", melds2, discarder=1)))


def test_single_wait():
    assert items(score(H(SEED_HAND, "5m", [chow("1m")], discarder=1)))["single_wait"] == 1


def test_closed_and_edge_waits():
    # closed: 4p6p + 5p
    h = H("1m2m3m4p6p7s8s9sEEE9m9m", "5p", [chow("2s")], discarder=1)
    it = items(score(h))
    assert it["closed_or_edge_wait"] == 1 and "single_wait" not in it
    # edge: 1p2p + 3p
    h = H("1m2m3m1p2p7s8s9sEEE9m9m", "3p", [chow("2s")], discarder=1)
    assert items(score(h))["closed_or_edge_wait"] == 1
    # two-sided: no wait item
    h = H("1m2m3m2p3p7s8s9sEEE9m9m", "4p", [chow("2s")], discarder=1)
    it = items(score(h))
    assert "closed_or_edge_wait" not in it and "single_wait" not in it


def test_wait_placement_highest_reading():
    # 3m4m5m5m + 5m: the 5m completes the pair (single, +1) or the 345 chow (two-sided)
    h = H("3m4m5m5m7p8p9p2s3s4sEEE", "5m", [chow("6s")], discarder=1)
    assert items(score(h))["single_wait"] == 1


def test_no_honors_and_no_honors_no_flowers_cumulative():
    it = items(score(H(SEED_HAND, "5m", [chow("1m")], discarder=1)))
    assert it["no_honors"] == 1 and it["no_honors_no_flowers"] == 1
    it = items(score(H("1m2m3m4m5m6m7p8p9p2s2s2sEE6s7s", "8s", discarder=1)))
    assert "no_honors" not in it and "no_honors_no_flowers" not in it


def test_half_flush():
    h = H("1m2m3m4m5m6m9m9m9mEEEC", "C", [chow("6m")], discarder=1)
    it = items(score(h))
    assert it["half_flush"] == 1 and "full_flush" not in it


def test_full_flush_combines_with_no_honors():
    h = H("1m2m3m4m5m6m9m9m9m2m3m4m5m", "5m", [chow("6m")], discarder=1)
    it = items(score(h))
    assert it["full_flush"] == 1 and "half_flush" not in it
    assert it["no_honors"] == 1 and it["no_honors_no_flowers"] == 1


def test_seven_pairs_triplet_no_wait_item_honor_triplet_counts():
    # pairs 1m 4m 7m 2p 5p 8p 3s, triplet C: no regular reading
    h = H("1m1m4m4m7m7m2p2p5p5p8p8p3sCCC", "3s", discarder=2)
    res = score(h)
    it = items(res)
    assert it["seven_pairs_triplet"] == 1
    assert it["honor_pung"] == 1
    assert "single_wait" not in it and "closed_or_edge_wait" not in it
    assert it["concealed_hand"] == 1 and it["win_shape"] == 1


def test_seven_pairs_triplet_beats_regular_reading():
    # 112233m 445566p 77s 999s: regular (123m 123m 456p 456p 999s + 77s) or 七対+刻子
    h = H("1m1m2m2m3m3m4p4p5p5p6p6p7s9s9s9s", "7s", discarder=1)
    it = items(score(h))
    assert it["seven_pairs_triplet"] == 1


def test_all_chows_and_pure_all_chows_cumulative():
    h = H("1m2m3m4p5p6p7s8s9s2m3m4m5s5s6s7s", "8s", discarder=1)
    it = items(score(h))
    assert it["all_chows"] == 1 and it["pure_all_chows"] == 1
    # honor pair: 平和手 only
    h = H("1m2m3m4p5p6p7s8s9s2m3m4mEE6s7s", "8s", discarder=1)
    it = items(score(h))
    assert it["all_chows"] == 1 and "pure_all_chows" not in it
    # a flower: 平和手 only
    h = H("1m2m3m4p5p6p7s8s9s2m3m4m5s5s6s7s", "8s", flowers=1, discarder=1)
    it = items(score(h))
    assert it["all_chows"] == 1 and "pure_all_chows" not in it
    # called chows count for 平和手
    h = H("4p5p6p7s8s9s2m3m4m5s5s6s7s", "8s", [chow("1m")], discarder=1)
    assert items(score(h))["all_chows"] == 1


def test_chows_or_pungs_reading_higher_wins():
    # 111222333m + 456p + 789s + 55s: five chows (平和 3 + 清平和 10 = 13) or three
    # concealed pungs (二暗刻 2 + 三暗刻 5 = 7): without flowers the chows win...
    h = H("1m1m1m2m2m2m3m3m3m4p5p6p7s8s9s5s", "5s", self_drawn=True, seat=1)
    it = items(score(h))
    assert it["all_chows"] == 1 and it["pure_all_chows"] == 1
    assert "two_concealed_pungs" not in it
    # ...with a flower 平和 is 3 < 7: the pungs win
    h = H("1m1m1m2m2m2m3m3m3m4p5p6p7s8s9s5s", "5s", flowers=1, self_drawn=True, seat=1)
    it = items(score(h))
    assert it["two_concealed_pungs"] == 1 and it["three_concealed_pungs"] == 1
    assert "all_chows" not in it


def test_all_pungs_with_kongs():
    h = H("1m1m1m9p9p9pE", "E", [pung("5s"), kong("C"), kong("2p", concealed=True)],
          discarder=1)
    it = items(score(h))
    assert it["all_pungs"] == 1


def test_dragons_small_and_big():
    h = H("CCCFFFPP1m2m3m4p5p", "6p", [chow("2s")], discarder=1)
    it = items(score(h))
    assert it["small_three_dragons"] == 1 and "big_three_dragons" not in it
    assert it["honor_pung"] == 2
    h = H("CCCFFFPP1m2m3m9s9s", "P", [chow("2s")], discarder=1)   # PPP completed by discard
    it = items(score(h))
    assert it["big_three_dragons"] == 1 and "small_three_dragons" not in it
    assert it["honor_pung"] == 3


def test_winds_tiers_highest_only():
    # 小三風: two wind pungs + another wind pair
    h = H("EEESSSWW1m2m3m4p5p", "6p", [chow("2s")], discarder=1)
    it = items(score(h))
    assert it["small_three_winds"] == 1
    # 三風刻: three wind pungs, no wind pair
    h = H("EEESSSWWW1m2m3m9p", "9p", [chow("2s")], discarder=1)
    it = items(score(h))
    assert it["three_wind_pungs"] == 1 and "small_three_winds" not in it
    # 小四喜: three wind pungs + the fourth wind as the pair
    h = H("EEESSSWWWN1m2m3m", "N", [chow("2s")], discarder=1)
    it = items(score(h))
    assert it["small_four_winds"] == 1
    assert "three_wind_pungs" not in it and "small_three_winds" not in it
    # 大四喜
    h = H("EEESSSWWWNNN9p", "9p", [chow("2s")], discarder=1)
    it = items(score(h))
    assert it["big_four_winds"] == 1
    assert not {"small_four_winds", "three_wind_pungs", "small_three_winds"} & set(it)


@pytest.mark.parametrize("n,expected", [(2, 2), (3, 7), (4, 22), (5, 62)])
def test_concealed_pung_tiers_cumulative(n, expected):
    pungs = ["1m1m1m", "5p5p5p", "9s9s9s", "EEE", "CCC"][:n]
    chows = ["2m3m4m", "3p4p5p", "6s7s8s", "2s3s4s", "6m7m8m"][:5 - n]
    h = H("".join(pungs + chows) + "F", "F", self_drawn=True)   # single wait on F
    res = score(h)
    keys = ["two_concealed_pungs", "three_concealed_pungs", "four_concealed_pungs",
            "five_concealed_pungs"]
    got = sum(f.points for f in res.fans if tw.FAN_TABLE.row(f.id).key in keys)
    assert got == expected


def test_pung_completed_by_discard_is_not_concealed():
    # 1m1m + 5p5p5p 9s9s9s ...: ron on 1m completes the 1m pung (dual-pung wait)
    h = H("1m1m5p5p5p9s9s9s2m3m4m6s7s8sEE", "1m", discarder=1)
    it = items(score(h))
    assert it["two_concealed_pungs"] == 1 and "three_concealed_pungs" not in it
    h = H("1m1m5p5p5p9s9s9s2m3m4m6s7s8sEE", "1m", self_drawn=True)
    assert items(score(h))["three_concealed_pungs"] == 1


def test_pure_straight_open_5_concealed_10():
    h = H("4m5m6m7m8m9m2p2p2p5s6s7sE", "E", [chow("1m")], discarder=1)
    it = items(score(h))
    assert it["pure_straight"] == 1 and "concealed_pure_straight" not in it
    h = H("1m2m3m4m5m6m7m8m9m2p2p2p5s6s7sE", "E", discarder=1)
    it = items(score(h))
    assert it["concealed_pure_straight"] == 1 and "pure_straight" not in it
    # one value per hand: 10, not 15
    assert sum(f.points for f in score(h).fans
               if tw.FAN_TABLE.row(f.id).key.endswith("pure_straight")) == 10


def test_last_tile_draw_and_last_discard():
    assert items(score(H(SEED_HAND, "5m", [chow("1m")], self_drawn=True, last_tile=True)))[
        "last_tile_draw"] == 1
    it = items(score(H(SEED_HAND, "5m", [chow("1m")], discarder=1, last_tile=True)))
    assert it["last_discard"] == 1 and "last_tile_draw" not in it


def test_robbing_kong():
    assert items(score(H(SEED_HAND, "5m", [chow("1m")], discarder=1, robbing_kong=True)))[
        "robbing_kong"] == 1


@pytest.mark.parametrize("td,key", [(0, "very_early_win"), (5, "very_early_win"),
                                    (6, "early_win"), (9, "early_win"), (10, None),
                                    (None, None)])
def test_early_wins_highest_tier(td, key):
    it = items(score(H(SEED_HAND, "5m", [chow("1m")], discarder=1, table_discards=td)))
    got = {k for k in ("very_early_win", "early_win") if k in it}
    assert got == ({key} if key else set())


def test_original_ready():
    h = H("1m2m3m4m5m6m7p8p9p2s2s2s6s7s8s5m", "5m", discarder=1, original_ready=True)
    assert items(score(h))["original_ready"] == 1
    h = H(SEED_HAND, "5m", [chow("1m")], discarder=1, original_ready=True)
    assert "original_ready" not in items(score(h))


def test_heavenly_win_excludes_early_and_original_ready():
    h = H("1m2m3m4m5m6m7p8p9p2s2s2s6s7s8s5m", "5m", self_drawn=True, first_turn=True,
          table_discards=0, original_ready=True)
    it = items(score(h))
    assert it["heavenly_win"] == 1
    assert not {"very_early_win", "early_win", "original_ready"} & set(it)
    # not the dealer: no 天和
    h = h.with_situation(seat=2)
    assert "heavenly_win" not in items(score(h))


def test_earthly_win():
    h = H("1m2m3m4m5m6m7p8p9p2s2s2s6s7s8s5m", "5m", seat=1, discarder=0, first_turn=True,
          table_discards=1)
    it = items(score(h))
    assert it["earthly_win"] == 1
    assert "very_early_win" not in it
    # a discard from a non-dealer is not 地和
    h = h.with_situation(discarder=2)
    assert "earthly_win" not in items(score(h))


def test_seven_flowers_rob_the_eighth_stands_alone():
    h = H(SEED_HAND, "5m", [chow("1m")], flowers=7, self_drawn=True, streak=3)
    res = score(h, eighth_flower="W")
    assert items(res) == {"seven_flowers_rob": 1} and res.total == 20
    assert res.settlement == {"E": 20, "S": 0, "W": -20, "N": 0}
    assert res.extras["dealer_bonus"] == 0
    with pytest.raises(SituationError):
        score(H(SEED_HAND, "5m", [chow("1m")], flowers=6, self_drawn=True), eighth_flower="W")


def test_eight_flowers_stands_alone_no_shape_needed():
    waiting = Hand(tuple(T(SEED_HAND)), (chow("1m"),), None, (), 8,
                   Situation(seat=1, self_drawn=True, streak=2), rules="taiwan")
    res = score(waiting)
    assert items(res) == {"eight_flowers": 1} and res.total == 30
    assert res.settlement == {"E": -30, "S": 90, "W": -30, "N": -30}
    assert res.extras["dealer_bonus"] == 0


# ------------------------------------------------------------ errors & table ---------
def test_incomplete_hand_raises():
    bad = Hand(tuple(T("1m2m3m4m5m6m7p8p9p2s2s2s6s7s8s5m")), (), T("9p")[0],
               situation=Situation(self_drawn=True), rules="taiwan")
    with pytest.raises(IncompleteHandError):
        tw.score_hand(bad)
    waiting = Hand(tuple(T("1m2m3m4m5m6m7p8p9p2s2s2s6s7s8s5m")), (), None, rules="taiwan")
    with pytest.raises(IncompleteHandError):
        tw.score_hand(waiting)


def test_table_rows_complete():
    t = tw.FAN_TABLE
    assert len(t) == 42
    for r in t.rows:
        assert r.ja and r.zh and r.en and r.source.startswith("seed 002")
    names = {r.ja for r in t.rows}
    for ja in ("和了形", "無花", "花牌", "字牌刻子", "明杠", "暗カン", "全暗ツモ", "門前清", "ツモ",
               "全露手", "単騎待ち", "嵌張・辺張待ち", "無字", "無字無花", "混一色", "清一色",
               "七対+刻子", "平和手", "清平和・花なし", "対々和", "小三元", "大三元", "小三風",
               "三風刻", "小四喜", "大四喜", "二暗刻", "三暗刻", "四暗刻", "五暗刻", "清龍",
               "海底ツモ", "河底ロン", "槍槓", "ごく早い和了", "早い和了", "原始聴牌", "天和",
               "地和", "七花搶第八花", "八花独占"):
        assert ja in names, ja
    values = {r.key: r.points for r in t.rows}
    assert values["pure_straight"] == 5 and values["concealed_pure_straight"] == 10
    assert values["full_flush"] == 40 and values["seven_pairs_triplet"] == 30


def test_decisions_as_data():
    modes = {d.name: d.mode for d in tw.FAN_TABLE.decisions}
    assert modes == {"concealed_pung_tiers": "cumulative", "no_honors": "cumulative",
                     "all_chows": "cumulative", "concealed_self_draw": "replaces",
                     "pure_straight": "one_value", "dragons": "highest", "winds": "highest",
                     "early_wins": "highest", "heavenly_earthly": "replaces",
                     "earthly": "replaces", "instant_flower_wins": "standalone"}
    t = tw.FAN_TABLE
    assert t.excluded_by("big_four_winds") == {23, 24, 25}
    assert t.excluded_by("eight_flowers") == {r.id for r in t.rows} - {42}


def test_decision_check_rejects_a_table_that_disagrees():
    t = tw.FAN_TABLE.table
    raw = [{"name": "x", "mode": "highest", "members": [21, 22]}]
    tw._check_decisions(t, raw, "base")
    with pytest.raises(RuleSetError):
        tw._check_decisions(t, [{"name": "x", "mode": "highest", "members": [22, 21]}], "p")
    with pytest.raises(RuleSetError):
        tw._check_decisions(t, [{"name": "x", "mode": "cumulative", "members": [21, 22]}], "p")
    with pytest.raises(RuleSetError):
        tw._check_decisions(t, [{"name": "x", "mode": "replaces", "item": 7,
                                 "members": [8, 9, 10]}], "p")


def test_value_change_reaches_the_scorer(monkeypatch):
    # a variant-style value change (data only) changes the score
    import dataclasses
    base = tw.get_table()
    changed = base.table.with_points(no_honors_no_flowers=5)
    fake = dataclasses.replace(base, table=changed)       # the kernel arrays follow the table
    monkeypatch.setattr(tw, "get_table", lambda variant=None: fake)
    assert tw.score_hand(H(SEED_HAND, "5m", [chow("1m")], self_drawn=True)).total == 11


def test_eighth_flower_through_public_api():
    h = H(SEED_HAND, "5m", [chow("1m")], flowers=7, self_drawn=True)
    res = mjfast.score(h, rules="taiwan", eighth_flower="N")
    assert res.total == 20 and res.settlement["N"] == -20


def test_hand_string_through_public_api():
    res = mjfast.score("[123m,1]456m789p222s678s5m5m", rules="taiwan", self_drawn=True)
    assert res.total == 9 and res.settlement == {"E": 30, "S": -10, "W": -10, "N": -10}
    res = mjfast.score("[123m,1]456m789p222s678s5m5m", rules="taiwan", discarder=1)
    assert res.total == 8 and res.settlement == {"E": 9, "S": -9, "W": 0, "N": 0}
    res = mjfast.score("123m456m789p222s678s5m5m", rules="taiwan", self_drawn=True)
    assert res.total == 11 and res.settlement["E"] == 36


def test_heavenly_and_earthly_from_table_discards():
    concealed = "1m2m3m4m5m6m7p8p9p2s2s2s6s7s8s5m"
    # no discard on the table and the dealer self-draws: the dealt hand
    it = items(score(H(concealed, "5m", self_drawn=True, table_discards=0)))
    assert it["heavenly_win"] == 1 and "very_early_win" not in it
    # exactly one discard (the dealer's first) and a non-dealer wins on it
    it = items(score(H(concealed, "5m", seat=2, discarder=0, table_discards=1)))
    assert it["earthly_win"] == 1 and "very_early_win" not in it
    # first turn flag but a later table count contradicts it: no 天和 / 地和
    it = items(score(H(concealed, "5m", self_drawn=True, first_turn=True, table_discards=3)))
    assert "heavenly_win" not in it and it["very_early_win"] == 1
    it = items(score(H(concealed, "5m", seat=2, discarder=0, first_turn=True, table_discards=3)))
    assert "earthly_win" not in it
    # a called meld: never
    it = items(score(H(SEED_HAND, "5m", [chow("1m")], seat=2, discarder=0, table_discards=1)))
    assert "earthly_win" not in it and it["very_early_win"] == 1
