"""Two-player 二人麻雀 (MacePlay, 64 tiles, seed 003): worked examples, FAQ, fee, chip cap,
the 64-tile set, and the table being a variant of Tuidaohu's."""
from __future__ import annotations

import numpy as np
import pytest

from mjfast import Hand, HandBatch, Meld, MeldKind, Situation, random_hands, score
from mjfast.errors import (IncompleteHandError, InvalidCountsError, MeldError, RuleSetError,
                           SituationError)
from mjfast.scoring import score_batch, score_waits
from mjfast.scoring import tuidaohu as T

E, S, W, N, C, F, P = range(27, 34)
EAST, SOUTH = 0, 1
TP = T.FAN_TABLES["two_player"]


def m(i):
    return i - 1


def hand(concealed, melds=(), win=None, **sit):
    return Hand(tuple(concealed), tuple(melds), win, situation=Situation(**sit), rules="two_player")


def fan_keys(res):
    return {TP.row(f.id).key: f.points for f in res.fans}


# ---------------------------------------------------------------------------------------
# The three worked examples of seed 003
# ---------------------------------------------------------------------------------------
def test_example1_concealed_tsumo():
    # 123m 456m 789m EEE + P single wait, self-drawn P
    h = hand([m(1), m(2), m(3), m(4), m(5), m(6), m(7), m(8), m(9), E, E, E, P], (), P,
             seat=EAST, self_drawn=True)
    r = score(h, base=100, fee=0)
    assert fan_keys(r) == {"win": 1, "self_drawn": 1, "concealed": 1}
    assert r.total == 3 and r.extras["capped"] == 3 and r.extras["multiplier"] == 4
    assert r.extras["win_payment"] == 400
    assert r.settlement == {"E": 400, "S": -400}


def test_example2_full_flush_all_pungs_ron():
    # pon 2m and 7m; 333m + 55m + 99m in hand, waiting 5m/9m; the opponent discards 9m
    h = hand([m(3)] * 3 + [m(5)] * 2 + [m(9)] * 2,
             [Meld(MeldKind.PUNG, m(2)), Meld(MeldKind.PUNG, m(7))], m(9),
             seat=EAST, discarder=SOUTH)
    r = score(h, base=1, fee=0)
    assert fan_keys(r) == {"win": 1, "all_pungs": 2, "full_flush": 2}
    assert "concealed" not in fan_keys(r)
    assert r.total == 5 and r.extras["multiplier"] == 16
    assert r.settlement == {"E": 16, "S": -16}


def _example3():
    # concealed kong of E, pon C; FFF, PP, NN in hand; self-drawn P
    return hand([F, F, F, P, P, N, N], [Meld(MeldKind.KONG, E, concealed=True),
                                        Meld(MeldKind.PUNG, C)], P, seat=EAST, self_drawn=True)


def test_example3_capped_hand_with_concealed_kong():
    r = score(_example3(), base=1, fee=0)
    assert fan_keys(r) == {"win": 1, "self_drawn": 1, "all_pungs": 2,
                           "big_three_dragons": 8, "all_honors": 10}
    assert r.total == 22 and r.extras["capped"] == 6 and r.extras["multiplier"] == 32
    assert r.extras["win"] == {"E": 32, "S": -32}
    assert r.extras["kong"] == {"E": 4, "S": -4}          # concealed kong, outside the cap
    assert r.extras["kong_payments"] == [{"kind": "concealed", "tile": "E",
                                          "payments": {"E": 4, "S": -4}}]
    assert r.settlement == {"E": 36, "S": -36}            # 32 + 4 = 36 x base


def test_example3_with_the_default_fee():
    r = score(_example3(), base=100)                     # fee 5% by default
    assert r.extras["gross"] == {"E": 3600, "S": -3600}
    assert r.extras["fee"] == {"E": 180, "S": 0}
    assert r.extras["net"] == {"E": 3420, "S": -3600}
    assert r.settlement == r.extras["net"]
    assert r.extras["fee_rate"] == 0.05 and r.extras["chip_capped"] is False


def test_chip_cap():
    r = score(_example3(), base=100, chips=2000)
    assert r.extras["owed"] == {"E": 3600, "S": -3600}
    assert r.extras["gross"] == {"E": 2000, "S": -2000}
    assert r.extras["net"] == {"E": 1900, "S": -2000}
    assert r.extras["chip_capped"] is True
    r = score(_example3(), base=100, chips={"S": 5000, "E": 10})
    assert r.extras["chip_capped"] is False and r.settlement == {"E": 3420, "S": -3600}


def test_fee_in_whole_coins_rounded_half_up():
    r = score(_example3(), base=1)                       # 36 x 5% = 1.8 -> 2
    assert r.extras["fee"] == {"E": 2, "S": 0} and r.settlement == {"E": 34, "S": -36}
    r = score(_example3(), base=10)                      # 360 x 5% = 18
    assert r.settlement == {"E": 342, "S": -360}
    h = hand([m(1), m(2), m(3), m(4), m(5), m(6), m(7), m(8), m(9), E, E, E, P], (), P,
             seat=EAST, self_drawn=True)
    r = score(h, base=1)                                 # 4 x 5% = 0.2 -> 0
    assert r.extras["fee"] == {"E": 0, "S": 0} and r.settlement == {"E": 4, "S": -4}
    r = score(h, base=10)                                # 40 x 5% = 2
    assert r.settlement == {"E": 38, "S": -40}
    assert all(isinstance(v, int) for v in r.settlement.values())


# ---------------------------------------------------------------------------------------
# FAQ and rules of seed 003
# ---------------------------------------------------------------------------------------
def test_concealed_chows_count():
    r = score(hand([m(1), m(2), m(3), m(3), m(4), m(5), m(5), m(6), m(7), m(7), m(8), m(9), m(9)],
                   (), m(9), seat=EAST, discarder=SOUTH))
    assert fan_keys(r) == {"win": 1, "concealed": 1, "full_flush": 2}


def test_no_claimed_chow():
    with pytest.raises(MeldError):
        hand([m(4), m(5), m(6), m(7), m(8), m(9), E, E, E, P], [Meld(MeldKind.CHOW, m(1))], P)


def test_seven_pairs_and_luxury():
    r = score(hand([m(1), m(1), m(3), m(3), m(5), m(5), E, E, C, C, P, P, N], (), N,
                   seat=EAST, discarder=SOUTH))
    assert fan_keys(r) == {"win": 1, "concealed": 1, "seven_pairs": 3}
    r = score(hand([m(1), m(1), m(1), m(1), m(5), m(5), E, E, C, C, P, P, N], (), N,
                   seat=EAST, discarder=SOUTH))
    assert fan_keys(r) == {"win": 1, "concealed": 1, "luxury_seven_pairs": 5}


def test_no_half_flush():
    r = score(hand([m(1), m(2), m(3), m(4), m(5), m(6), m(7), m(8), m(9), C, C, C, F], (), F,
                   seat=EAST, discarder=SOUTH))
    assert fan_keys(r) == {"win": 1, "concealed": 1}


def test_open_and_added_kong_payments():
    h = hand([m(1), m(2), m(3), m(4), m(5), m(6), E], [Meld(MeldKind.KONG, C),
                                                       Meld(MeldKind.KONG, F, added=True)],
             E, seat=SOUTH, discarder=EAST)
    r = score(h, base=10, fee=0)
    assert r.extras["kong"] == {"E": -30, "S": 30}            # open 2x + added 1x
    assert r.total == 1 and r.settlement == {"E": -40, "S": 40}


def test_robbing_kong_pays_no_kong():
    h = hand([m(1), m(2), m(3), m(4), m(5), m(6), m(7), m(8), m(9), E, E, E, P], (), P,
             seat=EAST, discarder=SOUTH, robbing_kong=True)
    r = score(h, fee=0)
    assert fan_keys(r) == {"win": 1, "concealed": 1, "robbing_kong": 1}
    assert r.extras["kong"] == {"E": 0, "S": 0} and r.settlement == {"E": 4, "S": -4}


def test_heavenly_and_earthly():
    tiles = [m(1), m(2), m(3), m(4), m(5), m(6), m(7), m(8), m(9), E, E, E, P]
    r = score(hand(tiles, (), P, seat=EAST, dealer=EAST, self_drawn=True, first_turn=True))
    assert fan_keys(r) == {"heavenly_hand": 8}
    r = score(hand(tiles, (), P, seat=SOUTH, dealer=EAST, self_drawn=True, first_turn=True))
    assert fan_keys(r) == {"earthly_hand": 8}


def test_discard_win_needs_no_discarder():
    r = score(hand([m(1), m(2), m(3), m(4), m(5), m(6), m(7), m(8), m(9), E, E, E, P], (), P,
                   seat=SOUTH), fee=0)
    assert r.settlement == {"E": -2, "S": 2} and "discarder_assumed" not in r.extras


def test_seats_are_east_and_south():
    with pytest.raises(SituationError):
        score(hand([m(1), m(2), m(3), m(4), m(5), m(6), m(7), m(8), m(9), E, E, E, P], (), P,
                   seat=2, self_drawn=True))


def test_next_dealer_two_players():
    assert T.next_dealer(EAST, EAST, players=2) == EAST
    assert T.next_dealer(EAST, None, players=2) == EAST
    assert T.next_dealer(EAST, SOUTH, players=2) == SOUTH
    assert T.next_dealer(SOUTH, EAST, players=2) == EAST


# ---------------------------------------------------------------------------------------
# The 64-tile set: pin, sou and flowers are rejected with a typed error
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [9 + 4, 18 + 4])
def test_pin_and_sou_rejected(bad):
    with pytest.raises(RuleSetError):
        hand([m(1), m(2), m(3), m(4), m(5), m(6), m(7), m(8), m(9), E, E, E, bad], (), bad)
    with pytest.raises(RuleSetError):                      # in a meld too
        hand([m(1), m(2), m(3), m(4), m(5), m(6), E, E, E, P], [Meld(MeldKind.PUNG, bad)], P)


def test_flower_rejected():
    with pytest.raises(RuleSetError):
        Hand((m(1), m(2), m(3), m(4), m(5), m(6), m(7), m(8), m(9), E, E, E, P), (), P,
             flowers=(34,), rules="two_player")
    with pytest.raises(RuleSetError):
        Hand((m(1), m(2), m(3), m(4), m(5), m(6), m(7), m(8), m(9), E, E, E, P), (), P,
             flower_count=1, rules="two_player")


def test_batch_row_outside_tile_set_rejected():
    b = random_hands(10, "two_player", seed=3)
    b.counts[4, 12] = 1
    with pytest.raises(InvalidCountsError):
        score_batch(b)


# ---------------------------------------------------------------------------------------
# The table is a variant of Tuidaohu's
# ---------------------------------------------------------------------------------------
def test_variant_differs_only_where_the_seed_says():
    base = T.FAN_TABLES["tuidaohu"]
    diff = {}
    for a, b in zip(base.rows, TP.rows):
        assert (a.id, a.key, a.en, a.zh, a.ja, a.excludes) == (b.id, b.key, b.en, b.zh, b.ja, b.excludes)
        if (a.points, a.enabled) != (b.points, b.enabled):
            diff[a.key] = (b.points, b.enabled)
    assert diff == {"half_flush": (3, False), "full_flush": (2, True)}
    assert TP.settlement["players"] == 2 and TP.settlement["fee"] == 0.05
    assert [TP.settlement[k] for k in ("kong_open", "kong_added", "kong_concealed")] == [2, 1, 4]
    assert TP.table.meta["variant"]["name"] == "two_player"


def test_batch_matches_single():
    b = random_hands(200, "two_player", seed=11)
    assert not (b.melds[:, :, 0] == 0).any()                  # no claimed chows
    bs = score_batch(b)
    assert bs.complete.all()
    assert (bs.fan_counts[:, TP.row("half_flush").id] == 0).all()
    for i in range(0, 200, 5):
        r = T.score_hand(b.hand(i), fee=0)
        assert r.total == bs.totals[i]
        assert {f.id for f in r.fans} == set(np.flatnonzero(bs.fan_counts[i]).tolist())


def test_score_waits_two_player():
    h = Hand((m(1), m(2), m(3), m(4), m(5), m(6), m(7), m(8), m(9), E, E, E, P), rules="two_player")
    w = score_waits(h, rules="two_player")
    assert [x["tile"] for x in w] == ["P"]
    assert (w[0]["total_discard"], w[0]["total_self_drawn"]) == (2, 3)


def test_faq_seven_pairs_cannot_hold_a_kong():
    # FAQ: ポンやカンをすると七対子では和了れません; keep the four in hand for 豪華七対
    with pytest.raises(IncompleteHandError):
        score(hand([m(1), m(1), m(3), m(3), m(5), m(5), E, E, C, N], [Meld(MeldKind.KONG, P,
                                                                         concealed=True)],
                   N, seat=EAST, self_drawn=True))
    r = score(hand([m(1), m(1), m(3), m(3), m(5), m(5), E, E, P, P, P, P, N], (), N,
                   seat=EAST, self_drawn=True), fee=0)
    assert fan_keys(r) == {"win": 1, "self_drawn": 1, "concealed": 1, "luxury_seven_pairs": 5}


def test_faq_dealer_after_a_draw_or_a_non_dealer_win():
    assert T.next_dealer(SOUTH, None, players=2) == SOUTH
    assert T.next_dealer(SOUTH, EAST, players=2) == EAST
    r = score(_example3(), fee=0)                     # East wins as dealer (default)
    assert r.extras["next_dealer"] == "E"
