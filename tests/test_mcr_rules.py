"""The seed's (004) and RULES-NOTES' MCR decisions, one test each, plus the scorer's
contract (typed errors, result shape, settlement, batch = one by one)."""
from __future__ import annotations

import json

import numpy as np
import pytest

from mjfast.errors import IncompleteHandError, RuleSetError
from mjfast.hand import Hand, HandBatch, Meld, MeldKind, Situation
from mjfast.notation import parse_hand
from mjfast.scoring import mcr


def fans(text, variant=None, **sit):
    r = mcr.score_hand(parse_hand(text, rules="mcr", **sit), variant=variant)
    return r, {f.name_zh: f.count for f in r.fans}


# ---- RULES-NOTES: values ----------------------------------------------------------------
def test_two_concealed_kongs_and_two_dragon_pungs_are_6_by_default_8_in_seed_variant():
    r, f = fans("[CCC,1]FFF123m456p7s7s")          # 双箭刻 + 单钓将
    assert f == {"双箭刻": 1, "独听・单钓": 1} and r.total == 7
    r8, _ = fans("[CCC,1]FFF123m456p7s7s", variant="seed")
    assert r8.total == 9
    r, f = fans("[1111m][2222p]345s678s99s|EE1000")  # two concealed kongs
    assert f["双暗杠"] == 1 and "暗杠" not in f and mcr.rule_table(None).row(53).points == 6


# ---- RULES-NOTES: 明暗杠 --------------------------------------------------------------------
def test_concealed_plus_melded_kong_is_off_by_default_on_in_botzone():
    _, f = fans("[1111m][EEEE,1]123p456p7s7s")
    assert f["明杠"] == 1 and f["暗杠"] == 1 and "明暗杠" not in f
    _, fb = fans("[1111m][EEEE,1]123p456p7s7s", variant="botzone")
    assert fb.get("明暗杠") == 1 and "明杠" not in fb and "暗杠" not in fb


# ---- seed: fans that always combine count only the higher one (無字 vs 断幺) ---------------
def test_higher_of_nested_fans_counts():
    _, f = fans("234m345p456s678s55m")              # no honors and no terminals
    assert "断幺" in f and "无字" not in f
    _, f = fans("123m345p456s999s55m")              # no honors, terminals
    assert "无字" in f and "断幺" not in f


# ---- RULES-NOTES / seed: 8-point minimum without flowers ------------------------------------
def test_minimum_is_8_without_flowers_and_never_raises():
    r, f = fans("[CCC,1]FFF123m456p7s7s|EE0000|3")   # 7 + 3 flowers
    assert r.total == 10 and r.flowers == 3 and not r.legal and f["花牌"] == 3
    r, _ = fans("123m456p789s12399s|EE0000|2")        # 13 + 2 flowers
    assert r.legal and r.total == 15


# ---- seed: settlement --------------------------------------------------------------------
def test_settlement_discard_win():
    r = mcr.score_hand(parse_hand("123m456p789s12399s|EE0000", rules="mcr", discarder=2))
    t = r.total
    assert r.settlement == {"E": t + 8 + 16, "S": -8, "W": -(t + 8), "N": -8}
    assert sum(r.settlement.values()) == 0


def test_settlement_self_draw():
    r = mcr.score_hand(parse_hand("123m456p789s12399s|SW1000", rules="mcr"))
    t = r.total
    assert r.settlement == {"E": -(t + 8), "S": -(t + 8), "W": 3 * (t + 8), "N": -(t + 8)}


def test_settlement_example_shape():
    assert mcr.settle_mcr(9, True, seat=0, self_drawn=False, discarder=2) == {"E": 33, "S": -8, "W": -17, "N": -8}
    # a false win (under 8): the claimant pays 10 to each (Botzone judge convention)
    assert mcr.settle_mcr(7, False, seat=1, self_drawn=True, discarder=None) == {"E": 10, "S": -30, "W": 10, "N": 10}


def test_flowers_count_in_the_payment():
    r = mcr.score_hand(parse_hand("123m456p789s12399s|EE1000|4", rules="mcr"))
    assert r.total == sum(f.points * f.count for f in r.fans) and r.fan(81).count == 4
    assert r.settlement["E"] == 3 * (r.total + 8)


# ---- seed: flowers drawn and replaced do not make 杠上开花 ------------------------------------
def test_flower_replacement_is_not_a_kong_replacement():
    # the kong flag on a self-draw without any kong cannot be 杠上开花 (reference behaviour)
    _, f = fans("123m456p789s12399s|EE1001|1")
    assert "杠上开花" not in f and f["不求人"] == 1
    _, f = fans("[1111m,1]456p789s12399s|EE1001")
    assert f["杠上开花"] == 1 and "自摸" not in f


# ---- RULES-NOTES: 和绝张 is a flag for hand-only scoring -------------------------------------
def test_last_tile_is_a_flag_and_inferred_from_own_melds():
    _, f = fans("123m456p789s1299s3s|EE0100")
    assert f["和绝张"] == 1
    _, f = fans("123m456p789s1239s9s|EE0100")         # another 9s in hand: cannot be the last
    assert "和绝张" not in f
    _, f = fans("[555p,1]123m789s99s46p5p|EE0000")     # three 5p in the own pung
    assert f["和绝张"] == 1


def test_robbing_the_kong_excludes_last_tile():
    _, f = fans("123m456p789s1299s3s|EE0101")
    assert f["抢杠和"] == 1 and "和绝张" not in f


# ---- seed: 七対 with a held four (二盃口... four of a kind counts as two pairs) --------------
def test_seven_pairs_with_a_four():
    _, f = fans("11112233445566s|EE1000")           # four 1s = two pairs; not seven shifted pairs
    assert f == {"七对": 1, "清一色": 1, "四归一": 1, "自摸": 1}
    _, f = fans("5566m11pEENNCC55m|EE1000")
    assert f["七对"] == 1 and f["四归一"] == 1


# ---- seed: 九蓮宝燈 needs the pure 1112345678999 wait ----------------------------------------
def test_nine_gates_must_be_pure():
    _, f = fans("1112345678999p5p")
    assert f["九莲宝灯"] == 1 and "清一色" not in f and "门前清" not in f
    _, f = fans("1112345678899p9p")            # not the pure pattern before the win
    assert "九莲宝灯" not in f and f["清一色"] == 1


# ---- seed: 全求人 (all melded, won on a discard; a concealed kong breaks it) ------------------
def test_melded_hand():
    _, f = fans("[123m,1][456p,1][789s,1][EEE,1]SS")
    assert f["全求人"] == 1 and "独听・单钓" not in f
    _, f = fans("[123m,1][456p,1][789s,1][EEEE]SS")
    assert "全求人" not in f


# ---- seed: 無番和 (chicken hand) ---------------------------------------------------------------
def test_chicken_hand():
    _, f = fans("[123m,1][345m,1]678p56sWW7s|EE0000|2")
    assert f == {"无番和": 1, "花牌": 2}


# ---- seed: 幺九刻 / wind pungs: seat and prevalent count once each -------------------------
def test_wind_pungs_account_once():
    _, f = fans("[EEE,1]123m456p789s9s9s", prevalent=0, seat=0)
    assert f["圈风刻"] == 1 and f["门风刻"] == 1 and "幺九刻" not in f
    _, f = fans("[SSS,1]123m456p789s9s9s", prevalent=0, seat=2)   # South is neither wind
    assert f == {"花龙": 1, "幺九刻": 1}


# ---- RULES-NOTES: the highest-scoring division wins ----------------------------------------
def test_highest_division_wins():
    # pungs 111 222 333m (一色三节高 24 + 三暗刻 16 ...) beat chows 123m x3 (一色三同顺 24 + 平和 2 ...)
    r, f = fans("111222333m456p7s7s|EE1000")
    assert f == {"一色三节高": 1, "三暗刻": 1, "不求人": 1, "幺九刻": 1, "无字": 1, "独听・单钓": 1}
    assert r.total == 47


# ---- contract ------------------------------------------------------------------------------
def test_incomplete_and_waiting_hands_raise_typed_errors():
    with pytest.raises(IncompleteHandError):
        mcr.score_hand(parse_hand("123m456p789s1239s8s", rules="mcr"))
    with pytest.raises(IncompleteHandError):
        mcr.score_hand(parse_hand("123m456p789s1239s", rules="mcr"))
    with pytest.raises(RuleSetError):
        mcr.score_hand(parse_hand("123m456p789s12399s", rules="mcr"), variant="nosuch")


def test_result_json_shape():
    import mjfast
    r = mjfast.score("[EEE,1]123m456p789s9s9s|EE0000", rules="mcr", discarder=2)
    d = r.to_dict()
    assert set(d) >= {"rules", "total", "legal", "flowers", "fans", "settlement"}
    assert d["rules"] == "mcr" and set(d["settlement"]) == {"E", "S", "W", "N"}
    for f in d["fans"]:
        assert set(f) == {"id", "name_en", "name_zh", "name_ja", "points", "count"}
    json.dumps(d, ensure_ascii=False)


def test_batch_equals_one_by_one():
    import sys
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
    from test_mcr_gen import random_batch
    b = random_batch(300, seed=5)
    res = mcr.score_batch(b, variant="botzone")
    assert res.fan_counts.shape == (300, 83) and res.fan_counts.dtype == np.int16
    for i in range(0, 300, 7):
        one = mcr.score_hand(b.hand(i), variant="botzone")
        assert one.total == res.totals[i]
        assert {f.id: f.count for f in one.fans} == {int(k): int(res.fan_counts[i, k]) for k in np.flatnonzero(res.fan_counts[i])}


def test_score_table_polars():
    import polars as pl
    import mjfast
    df = pl.DataFrame({"hand": ["123m456p789s12399s|EE1000", "[CCC,1]FFF123m456p7s7s", "123m", "1112345678999p5p"]})
    out = mjfast.score_table(df, rules="mcr")
    assert out.columns[:1] == ["hand"] and {"total", "legal", "fan_ids", "fan_counts"} <= set(out.columns)
    assert out["total"][1] == 7 and out["legal"][1] is False and out["total"][2] is None
    assert 4 in out["fan_ids"][3].to_list()
