"""Tuidaohu (推倒胡, MacePlay table, seed 000): worked examples, FAQ, table, settlement."""
from __future__ import annotations

import json

import numpy as np
import pytest

from mjfast import Hand, HandBatch, Meld, MeldKind, Situation, random_hands, score
from mjfast.errors import HandSizeError, IncompleteHandError, RuleSetError, SituationError
from mjfast.scoring import score_batch, score_waits
from mjfast.scoring import tuidaohu as T

E, S, W, N, C, F, P = range(27, 34)
EAST, SOUTH, WEST, NORTH = 0, 1, 2, 3


def m(i):
    return i - 1


def p(i):
    return 8 + i


def s_(i):
    return 17 + i


def pung(t, frm=1):
    return Meld(MeldKind.PUNG, t, claimed_from=frm)


def kong(t, frm=1, concealed=False, added=False):
    return Meld(MeldKind.KONG, t, concealed=concealed, added=added, claimed_from=frm)


def hand(concealed, melds=(), win=None, **sit):
    return Hand(tuple(concealed), tuple(melds), win, situation=Situation(**sit), rules="tuidaohu")


def fan_keys(res):
    return {T.FAN_TABLE.row(f.id).key: f.points for f in res.fans}


# ---------------------------------------------------------------------------------------
# The three worked examples of seed 000 (all on a base-100 table)
# ---------------------------------------------------------------------------------------
def test_example1_full_flush_concealed_tsumo_capped():
    # 123m 456m 789m 234m + 55m, no calls, self-drawn
    h = hand([m(1), m(2), m(3), m(4), m(5), m(6), m(7), m(8), m(9), m(2), m(3), m(4), m(5)],
             win=m(5), self_drawn=True)
    r = score(h, base=100)
    assert fan_keys(r) == {"win": 1, "self_drawn": 1, "concealed": 1, "full_flush": 6}
    assert r.total == 9
    assert r.extras["capped"] == 6
    assert r.extras["multiplier"] == 32
    assert r.extras["win_payment"] == 3200
    assert r.settlement == {"E": 9600, "S": -3200, "W": -3200, "N": -3200}
    assert r.extras["kong_payments"] == []
    assert r.legal


def test_example2_all_pungs_half_flush_with_open_kong():
    # pon E; open kong of 9p discarded by South; 111p 333p in hand; P single wait,
    # West discards P. Winner East: South is the next seat (offset 3), West across (2).
    h = hand([p(1)] * 3 + [p(3)] * 3 + [P], [pung(E, 2), kong(p(9), 3)], P,
             seat=EAST, discarder=WEST)
    r = score(h, base=100)
    assert fan_keys(r) == {"win": 1, "all_pungs": 2, "half_flush": 3}
    assert "concealed" not in fan_keys(r)
    assert r.total == 6 and r.extras["capped"] == 6 and r.extras["multiplier"] == 32
    assert r.extras["win"] == {"E": 3200, "S": 0, "W": -3200, "N": 0}
    assert r.extras["kong"] == {"E": 300, "S": -300, "W": 0, "N": 0}
    assert r.extras["kong_payments"] == [{"kind": "open", "tile": "9p",
                                          "payments": {"E": 300, "S": -300}}]
    assert r.settlement == {"E": 3500, "S": -300, "W": -3200, "N": 0}


def _example3(**sit):
    pairs = [m(1), m(3), p(5), p(7), s_(9), P]
    return hand([t for t in pairs for _ in range(2)] + [E], (), E, **sit)


def test_example3_seven_pairs_ron():
    r = score(_example3(seat=EAST, discarder=NORTH), base=100)
    assert fan_keys(r) == {"win": 1, "concealed": 1, "seven_pairs": 3}
    assert r.total == 5 and r.extras["capped"] == 5 and r.extras["multiplier"] == 16
    assert r.settlement == {"E": 1600, "S": 0, "W": 0, "N": -1600}


def test_example3_as_tsumo():
    r = score(_example3(seat=EAST, self_drawn=True), base=100)
    assert r.total == 6 and r.extras["multiplier"] == 32
    assert r.settlement == {"E": 9600, "S": -3200, "W": -3200, "N": -3200}


def test_example3_winner_not_east():
    # the same hand won by South off North: North pays
    r = score(_example3(seat=SOUTH, discarder=NORTH), base=100)
    assert r.settlement == {"E": 0, "S": 1600, "W": 0, "N": -1600}


# ---------------------------------------------------------------------------------------
# FAQ of seed 000
# ---------------------------------------------------------------------------------------
def test_concealed_kong_keeps_concealed():
    # concealed kong of 9p + 123p 456p 789m + EE, ron
    h = hand([p(1), p(2), p(3), p(4), p(5), p(6), m(7), m(8), m(9), E],
             [kong(p(9), concealed=True)], E, seat=EAST, discarder=SOUTH)
    r = score(h, base=100)
    assert "concealed" in fan_keys(r)
    # concealed kong: each other player pays 2 x base
    assert r.extras["kong"] == {"E": 600, "S": -200, "W": -200, "N": -200}
    assert r.total == 2   # win + concealed
    assert r.settlement == {"E": 200 + 600, "S": -200 - 200, "W": -200, "N": -200}


def test_any_kong_rules_out_seven_pairs():
    # five pairs + a declared concealed kong of P (as if it were two pairs) is no hand:
    # a kong is a set, so the tiles are one short of 4 sets + a pair and never seven pairs
    with pytest.raises(HandSizeError):
        Hand((m(1), m(1), m(3), m(3), p(5), p(5), p(7), p(7), s_(9)),
             (kong(P, concealed=True),), s_(9), situation=Situation(self_drawn=True),
             rules="tuidaohu")
    # with the right size (five pairs + a single + the kong) it is not complete either
    h = Hand((m(1), m(1), m(3), m(3), p(5), p(5), p(7), p(7), s_(9), E),
             (kong(P, concealed=True),), s_(9), situation=Situation(self_drawn=True),
             rules="tuidaohu")
    with pytest.raises(IncompleteHandError):
        score(h)
    # the same tiles with the four kept in the hand: luxury seven pairs
    h = hand([m(1), m(1), m(3), m(3), p(5), p(5), p(7), p(7), s_(9), P, P, P, P], (), s_(9),
             self_drawn=True)
    assert fan_keys(score(h)) == {"win": 1, "self_drawn": 1, "concealed": 1,
                                  "luxury_seven_pairs": 5}


def test_four_of_a_kind_in_seven_pairs_is_luxury():
    pairs = [m(1), m(1), p(5), p(7), s_(9), P]
    h = hand([t for t in pairs for _ in range(2)] + [E], (), E, seat=EAST, discarder=NORTH)
    r = score(h)
    assert fan_keys(r) == {"win": 1, "concealed": 1, "luxury_seven_pairs": 5}
    assert r.total == 7


def test_highest_reading_counts():
    # 222m333m444m + 11m + 55m... : 111 222 333 m as pungs or as chows; all pungs reading
    h = hand([m(1), m(1), m(1), m(2), m(2), m(2), m(3), m(3), m(3), m(5), m(5), m(5), m(9)],
             (), m(9), seat=EAST, discarder=SOUTH)
    r = score(h)
    assert fan_keys(r) == {"win": 1, "concealed": 1, "all_pungs": 2, "full_flush": 6}


def test_no_thirteen_orphans():
    orphans = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
    h = hand(orphans, (), 0, seat=EAST, discarder=SOUTH)
    with pytest.raises(IncompleteHandError):
        score(h)


def test_no_little_three_dragons_no_wind_pung_no_straight():
    # 123m 456m 789m (一気通貫 elsewhere) + CCC + FF: only win + concealed + half flush
    h = hand([m(1), m(2), m(3), m(4), m(5), m(6), m(7), m(8), m(9), C, C, C, F], (), F,
             seat=EAST, discarder=SOUTH)
    r = score(h)
    assert fan_keys(r) == {"win": 1, "concealed": 1, "half_flush": 3}


def test_all_honors_not_half_flush():
    h = hand([E, E, E, S, S, S, W, W, W, C, C, C, P], (), P, seat=EAST, discarder=SOUTH)
    r = score(h)
    assert fan_keys(r) == {"win": 1, "concealed": 1, "all_pungs": 2, "all_honors": 10}


def test_big_four_winds_and_little_four_winds():
    big = hand([E, E, E, S, S, S, W, W, W, N, N, N, m(5)], (), m(5), seat=EAST, discarder=SOUTH)
    assert fan_keys(score(big)) == {"win": 1, "concealed": 1, "all_pungs": 2,
                                    "half_flush": 3, "big_four_winds": 10}
    little = hand([E, E, E, S, S, S, W, W, W, N, m(1), m(2), m(3)], (), N,
                  seat=EAST, discarder=SOUTH)
    assert fan_keys(score(little)) == {"win": 1, "concealed": 1, "half_flush": 3,
                                       "little_four_winds": 8}


def test_big_three_dragons_with_a_kong():
    h = hand([C, C, C, F, F, F, m(1), m(2), m(3), m(9)], [kong(P, 2)], m(9),
             seat=EAST, discarder=SOUTH)
    r = score(h, base=100)
    assert fan_keys(r) == {"win": 1, "half_flush": 3, "big_three_dragons": 8}
    # open kong of P from offset 2 (across = West) pays 3 x base
    assert r.extras["kong"] == {"E": 300, "S": 0, "W": -300, "N": 0}


def test_timing_items():
    base = [m(1), m(2), m(3), m(4), m(5), m(6), p(7), p(8), p(9), s_(2), s_(3), s_(4), E]
    r = score(hand(base, (), E, self_drawn=True, last_tile=True))
    assert "last_tile_draw" in fan_keys(r)
    r = score(hand(base, (), E, discarder=SOUTH, last_tile=True))      # no 河底 item
    assert "last_tile_draw" not in fan_keys(r) and r.total == 2
    r = score(hand(base, (), E, discarder=SOUTH, robbing_kong=True), base=100)
    assert "robbing_kong" in fan_keys(r) and r.total == 3
    assert r.extras["kong"] == {"E": 0, "S": 0, "W": 0, "N": 0}      # robbed kong pays nothing
    assert r.settlement == {"E": 400, "S": -400, "W": 0, "N": 0}
    k = [m(1), m(2), m(3), m(4), m(5), m(6), p(7), p(8), p(9), E]
    r = score(hand(k, [kong(s_(5), added=True)], E, self_drawn=True, kong_replacement=True),
              base=100)
    assert fan_keys(r) == {"win": 1, "self_drawn": 1, "kong_replacement": 1}
    # added kong: each other player pays 1 x base; 3 fan -> 4 x 100 from each
    assert r.extras["kong"] == {"E": 300, "S": -100, "W": -100, "N": -100}
    assert r.settlement == {"E": 1500, "S": -500, "W": -500, "N": -500}
    with pytest.raises(SituationError):
        score(hand(base, (), E, self_drawn=True, kong_replacement=True))


def test_heavenly_and_earthly_hand_count_8_alone():
    tiles = [m(1), m(2), m(3), m(4), m(5), m(6), m(7), m(8), m(9), m(2), m(3), m(4), m(5)]
    r = score(hand(tiles, (), m(5), seat=EAST, dealer=EAST, self_drawn=True, first_turn=True),
              base=100)
    assert fan_keys(r) == {"heavenly_hand": 8}
    assert r.total == 8 and r.extras["capped"] == 6 and r.extras["multiplier"] == 32
    r = score(hand(tiles, (), m(5), seat=SOUTH, dealer=EAST, self_drawn=True, first_turn=True))
    assert fan_keys(r) == {"earthly_hand": 8}


# ---------------------------------------------------------------------------------------
# Settlement helpers
# ---------------------------------------------------------------------------------------
def test_multiplier_table():
    assert [T.multiplier(f) for f in range(1, 10)] == [1, 2, 4, 8, 16, 32, 32, 32, 32]


def test_head_bump_nearest_after_discarder():
    assert T.head_bump(WEST, [EAST, NORTH]) == NORTH
    assert T.head_bump(WEST, [SOUTH, EAST]) == EAST
    assert T.head_bump(NORTH, [WEST, SOUTH]) == SOUTH
    with pytest.raises(SituationError):
        T.head_bump(WEST, [WEST])


def test_next_dealer_repeats_on_dealer_win_or_draw():
    assert T.next_dealer(SOUTH, SOUTH) == SOUTH
    assert T.next_dealer(SOUTH, None) == SOUTH
    assert T.next_dealer(SOUTH, EAST) == WEST
    assert T.next_dealer(NORTH, WEST) == EAST
    r = score(_example3(seat=SOUTH, dealer=EAST, discarder=NORTH))
    assert r.extras["next_dealer"] == "S"


def test_kong_payment_helper():
    assert T.kong_payment("open", EAST, SOUTH, base=100) == {0: 300, 1: -300, 2: 0, 3: 0}
    assert T.kong_payment("concealed", WEST) == {0: -2, 1: -2, 2: 6, 3: -2}
    assert T.kong_payment("added", WEST) == {0: -1, 1: -1, 2: 3, 3: -1}
    assert T.kong_payment("robbed", WEST) == {0: 0, 1: 0, 2: 0, 3: 0}


def test_discard_win_without_discarder_assumes_previous_player():
    r = score(_example3(seat=SOUTH), base=100)
    assert r.extras["discarder_assumed"] == "E"
    assert r.settlement == {"E": -1600, "S": 1600, "W": 0, "N": 0}


def test_json_shape():
    r = score(_example3(seat=EAST, discarder=NORTH), base=100)
    d = json.loads(json.dumps(r.to_dict(), ensure_ascii=False))
    for k in ("rules", "total", "legal", "flowers", "fans", "settlement", "capped", "multiplier"):
        assert k in d
    assert d["fans"][0] == {"id": 1, "name_en": "Win", "name_zh": "和牌", "name_ja": "和了",
                            "points": 1, "count": 1}


def test_unit_param_rejected():
    with pytest.raises(RuleSetError):
        score(_example3(seat=EAST, discarder=NORTH), unit=1)


# ---------------------------------------------------------------------------------------
# Table
# ---------------------------------------------------------------------------------------
def test_table_rows_and_names():
    t = T.FAN_TABLE
    assert len(t) == 17
    for r in t.rows:
        assert r.en and r.zh and r.ja and r.source
    assert t.row("full_flush").points == 6 and t.row("seven_pairs").points == 3
    assert t.row("luxury_seven_pairs").excludes == (t.row("seven_pairs").id,)
    assert t.settlement["kong_open"] == 3 and t.settlement["fan_cap"] == 6


def test_unknown_variant():
    with pytest.raises(RuleSetError):
        T.get_table("tuidaohu", "nope")


def test_user_variant_file(tmp_path):
    v = tmp_path / "tuidaohu.study.toml"
    v.write_text('[variant]\nname = "study"\n[rows.11]\npoints = 4\n[params]\nkong_open = 5\n')
    h = hand([m(1), m(2), m(3), m(4), m(5), m(6), m(7), m(8), m(9), m(2), m(3), m(4), m(5)],
             win=m(5), self_drawn=True)
    r = T.score_hand(h, variant=str(v))
    assert r.total == 7
    assert T.get_table("tuidaohu", str(v)).settlement["kong_open"] == 5
    cyc = tmp_path / "tuidaohu.cyc.toml"
    cyc.write_text('[rows.8]\nexcludes = [9]\n')
    with pytest.raises(RuleSetError):
        T.get_table("tuidaohu", str(cyc))


# ---------------------------------------------------------------------------------------
# Batch and waits
# ---------------------------------------------------------------------------------------
def test_batch_matches_single():
    b = random_hands(300, "tuidaohu", seed=7)
    bs = score_batch(b)
    assert bs.complete.all() and bs.legal.all()
    for i in range(0, 300, 7):
        h = b.hand(i)
        r = T.score_hand(h)
        assert r.total == bs.totals[i]
        got = {f.id for f in r.fans}
        assert got == set(np.flatnonzero(bs.fan_counts[i]).tolist())
        assert bs.extras["multiplier"][i] == r.extras["multiplier"]
        assert bs.extras["kong_units"][i] == sum(v for v in r.extras["kong"].values() if v > 0)


def test_batch_incomplete_row_and_invalid_row():
    h = _example3(seat=EAST, discarder=NORTH)
    b = HandBatch.from_hands([h, h], rules="tuidaohu")
    b.counts[1, 0] -= 1
    b.counts[1, 1] += 1
    bs = score_batch(b)
    assert bs.totals.tolist() == [5, -1] and bs.complete.tolist() == [True, False]
    b.counts[1, 1] = 5
    with pytest.raises(Exception):
        score_batch(b)


def test_score_waits():
    # 123m 456m 789p 234s + E waiting: E single wait
    h = Hand((m(1), m(2), m(3), m(4), m(5), m(6), p(7), p(8), p(9), s_(2), s_(3), s_(4), E),
             rules="tuidaohu")
    w = score_waits(h, rules="tuidaohu")
    assert [x["tile"] for x in w] == ["E"]
    assert w[0]["total_discard"] == 2 and w[0]["total_self_drawn"] == 3
    assert w[0]["live"] == 3
    # 2345m + ...: 2m/5m (and seven-pairs-free) waits, full flush
    h = Hand((m(2), m(3), m(4), m(5), m(6), m(6), m(6), m(7), m(8), m(9), m(1), m(1), m(1)),
             rules="tuidaohu")
    tiles = {x["tile"]: x for x in score_waits(h, rules="tuidaohu")}
    assert set(tiles) >= {"2m", "5m"}
    assert all(x["total_discard"] >= 8 for x in tiles.values())   # win + concealed + flush


def test_variant_params_are_checked(tmp_path):
    bad = tmp_path / "tuidaohu.bad.toml"
    bad.write_text('[params]\nseveral_rons = "multiple"\n')
    with pytest.raises(RuleSetError):
        T.get_table("tuidaohu", str(bad))
    typo = tmp_path / "tuidaohu.typo.toml"
    typo.write_text('[params]\nkong_opne = 4\n')
    with pytest.raises(RuleSetError):
        T.get_table("tuidaohu", str(typo))
    mini = tmp_path / "tuidaohu.mini.toml"
    mini.write_text('[params]\nminimum_fan = 3\nbase = 10\n')
    r = T.score_hand(_example3(seat=EAST, discarder=NORTH), variant=str(mini))
    assert r.legal and r.settlement["E"] == 160           # 5 fan >= 3; base 10 by default
    r = T.score_hand(hand([m(1), m(2), m(3), m(4), m(5), m(6), p(7), p(8), p(9), s_(2), s_(3),
                           s_(4), E], (), E, discarder=SOUTH), variant=str(mini))
    assert r.total == 2 and not r.legal


def test_faq_no_minimum_fan():
    # a called pung, three suits: only 和了 (1 fan) is still a legal win paying 1 x base
    h = hand([m(1), m(2), m(3), p(4), p(5), p(6), s_(7), s_(8), s_(9), s_(5)], [pung(E, 1)],
             s_(5), seat=EAST, discarder=SOUTH)
    r = score(h, base=100)
    assert fan_keys(r) == {"win": 1} and r.total == 1 and r.legal
    assert r.extras["multiplier"] == 1 and r.settlement == {"E": 100, "S": -100, "W": 0, "N": 0}


def test_faq_no_dealer_bonus():
    tiles = [m(1), m(2), m(3), p(4), p(5), p(6), s_(7), s_(8), s_(9), s_(5), s_(5), s_(5), E]
    as_dealer = score(hand(tiles, (), E, seat=SOUTH, dealer=SOUTH, self_drawn=True), base=100)
    as_other = score(hand(tiles, (), E, seat=SOUTH, dealer=EAST, self_drawn=True), base=100)
    assert as_dealer.total == as_other.total == 3
    assert as_dealer.settlement == as_other.settlement == {"E": -400, "S": 1200, "W": -400, "N": -400}
    assert as_dealer.extras["next_dealer"] == "S" and as_other.extras["next_dealer"] == "S"
