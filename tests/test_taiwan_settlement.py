"""Taiwan settlement (seed 002 支払いと連荘): dealer bonus, tsumo, ron, multiple ron,
instant flower wins, dealer rotation, the missed-win rule."""
from __future__ import annotations

import pytest

from mjfast.errors import RuleSetError, SituationError
from mjfast.scoring import taiwan as tw
from mjfast.tiles import WIND_LETTERS

from test_taiwan import SEED_HAND, H, chow, score


def zero_sum(d):
    return sum(d.values()) == 0


def test_dealer_bonus_formula():
    assert [tw.dealer_bonus(n) for n in range(4)] == [1, 3, 5, 7]
    with pytest.raises(SituationError):
        tw.dealer_bonus(-1)


def test_dealer_tsumo_every_payer_pays_bonus():
    d = tw.settle_win(5, "E", self_drawn=True, dealer="E", streak=2)
    assert d == {"E": 30, "S": -10, "W": -10, "N": -10}


def test_nondealer_tsumo_no_bonus_even_from_dealer():
    d = tw.settle_win(5, "S", self_drawn=True, dealer="E", streak=1)
    assert d == {"E": -5, "S": 15, "W": -5, "N": -5}


def test_ron_dealer_wins_discarder_pays_bonus():
    d = tw.settle_win(8, 0, self_drawn=False, discarder=1, dealer=0, streak=0)
    assert d == {"E": 9, "S": -9, "W": 0, "N": 0}


def test_ron_dealer_deals_in_pays_bonus():
    d = tw.settle_win(4, "W", self_drawn=False, discarder="E", dealer="E", streak=1)
    assert d == {"E": -7, "S": 0, "W": 7, "N": 0}


def test_ron_between_nondealers_no_bonus():
    d = tw.settle_win(4, "W", self_drawn=False, discarder="N", dealer="E", streak=3)
    assert d == {"E": 0, "S": 0, "W": 4, "N": -4}


def test_base_and_unit():
    d = tw.settle_win(4, "S", self_drawn=True, dealer="S", streak=0, base=10, unit=2)
    assert d == {"E": -20, "S": 60, "W": -20, "N": -20}     # 10 + 2 x (4 + 1)


def test_settle_errors():
    with pytest.raises(SituationError):
        tw.settle_win(4, "S", self_drawn=True, discarder="E")
    with pytest.raises(SituationError):
        tw.settle_win(4, "S", self_drawn=False)
    with pytest.raises(SituationError):
        tw.settle_win(4, "S", self_drawn=False, discarder="S")
    with pytest.raises(SituationError):
        tw.settle_win(4, "X", self_drawn=True)


def test_multiple_ron_discarder_pays_each():
    d = tw.settle_multiple_ron({"E": 8, "S": 5}, "N", dealer="E", streak=0)
    assert d == {"E": 9, "S": 5, "W": 0, "N": -14}
    # the dealer deals in to two players: each gets the bonus
    d = tw.settle_multiple_ron([("S", 4), ("W", 6)], "E", dealer="E", streak=1)
    assert d == {"E": -16, "S": 7, "W": 9, "N": 0}
    assert zero_sum(d)
    with pytest.raises(SituationError):
        tw.settle_multiple_ron([("S", 4), ("S", 6)], "E")
    with pytest.raises(SituationError):
        tw.settle_multiple_ron({}, "E")


def test_flower_wins():
    assert tw.settle_flower_win("seven", "S", "N") == {"E": 0, "S": 20, "W": 0, "N": -20}
    assert tw.settle_flower_win("eight", "W") == {"E": -30, "S": -30, "W": 90, "N": -30}
    with pytest.raises(SituationError):
        tw.settle_flower_win("seven", "S")
    with pytest.raises(SituationError):
        tw.settle_flower_win("nine", "S")


@pytest.mark.parametrize("dealer,streak,winners,expected", [
    (0, 0, [0], (0, 1)),            # dealer wins: repeats, streak grows
    (0, 2, 0, (0, 3)),
    (0, 2, [2], (1, 0)),            # non-dealer wins: deal passes, streak resets
    (3, 1, ["E"], (0, 0)),          # North passes to East
    (1, 2, None, (1, 2)),           # draw: dealer and streak stay
    (1, 2, [], (1, 2)),
    (2, 0, [0, 2], (2, 1)),         # multiple ron with the dealer among the winners
    (2, 0, [0, 1], (3, 0)),
])
def test_next_dealer_state(dealer, streak, winners, expected):
    assert tw.next_dealer_state(dealer, streak, winners) == expected


def test_missed_win_rule():
    assert tw.win_allowed(4, [])
    assert not tw.win_allowed(4, [4])
    st = tw.MissedWins()
    st.passed(4)                 # passed a legal win on 5m
    assert not st.allows(4)      # no win on 5m, self-draw included...
    assert st.allows(5)          # ...other tiles are fine
    st.discarded()               # until the player's own next discard
    assert st.allows(4)


def test_score_hand_discard_without_discarder_assumes_next_player():
    res = score(H(SEED_HAND, "5m", [chow("1m")], seat=2, dealer=0))
    assert res.extras["discarder_assumed"] is True and res.extras["discarder"] == "N"
    assert res.settlement == {"E": 0, "S": 0, "W": 8, "N": -8}


def test_score_hand_dealer_deals_in():
    res = score(H(SEED_HAND, "5m", [chow("1m")], seat=1, dealer=0, discarder=0, streak=1))
    assert res.total == 8 and res.extras["dealer_bonus"] == 3
    assert res.settlement == {"E": -11, "S": 11, "W": 0, "N": 0}


def test_score_hand_nondealer_tsumo():
    res = score(H(SEED_HAND, "5m", [chow("1m")], seat=3, dealer=0, self_drawn=True, streak=4))
    assert res.extras["dealer_bonus"] == 0
    assert res.settlement == {"E": -9, "S": -9, "W": -9, "N": 27}


def test_base_unit_through_score_hand():
    res = tw.score_hand(H(SEED_HAND, "5m", [chow("1m")], self_drawn=True), base=1, unit=10)
    assert res.settlement == {"E": 303, "S": -101, "W": -101, "N": -101}


def test_multiple_ron_table_switch(monkeypatch):
    import dataclasses
    base = tw.get_table()
    t = dataclasses.replace(base, table=dataclasses.replace(
        base.table, params={**base.table.params, "multiple_ron": False}))
    monkeypatch.setattr(tw, "get_table", lambda variant=None: t)
    with pytest.raises(RuleSetError):
        tw.settle_multiple_ron({"E": 8, "S": 5}, "N")


def test_batch_settlement_columns_agree_with_one_win_settlement():
    """``score_batch``'s ``dealer_bonus`` / ``winner_gain`` (compiled, one pass) agree row
    by row with :func:`settle_win` / :func:`settle_flower_win` (the one-win API): random
    hands with random seats, dealers, streaks, discarders (none given: the next player)
    and self-draws, and rows of eight flowers (八花独占, every other player pays)."""
    import dataclasses

    import numpy as np

    from mjfast import random_hands
    from mjfast.hand import SELF_DRAWN

    b = random_hands(3000, "taiwan", "complete", seed=11)
    rng = np.random.default_rng(11)
    flowers = b.flowers.copy()
    flowers[rng.random(len(b)) < 0.05] = 8
    streak = rng.integers(0, 4, len(b)).astype(b.streak.dtype)
    discarder = b.discarder.copy()
    discarder[rng.random(len(b)) < 0.2] = -1
    b = dataclasses.replace(b, flowers=flowers, streak=streak, discarder=discarder)
    res = tw.score_batch(b)
    eight = tw.get_table().row("eight_flowers").id
    seen = {"eight": 0, "bonus": 0, "tsumo": 0, "ron": 0}
    for i in range(len(b)):
        tot = int(res.totals[i])
        if tot < 0:
            assert res.extras["dealer_bonus"][i] == 0 and res.extras["winner_gain"][i] == 0
            continue
        w, d = int(b.seat[i]), int(b.dealer[i])
        if res.fan_counts[i, eight] > 0:
            want = tw.settle_flower_win("eight", w)
            assert res.extras["dealer_bonus"][i] == 0
            seen["eight"] += 1
        else:
            drawn = bool(b.flags[i] & SELF_DRAWN)
            x = None if drawn else (int(b.discarder[i]) if b.discarder[i] >= 0 else (w + 1) % 4)
            want = tw.settle_win(tot, w, self_drawn=drawn, discarder=x, dealer=d,
                                 streak=int(b.streak[i]))
            applies = w == d or (not drawn and x == d)
            bonus = tw.dealer_bonus(int(b.streak[i])) if applies else 0
            assert res.extras["dealer_bonus"][i] == bonus
            seen["bonus"] += applies
            seen["tsumo" if drawn else "ron"] += 1
        assert res.extras["winner_gain"][i] == want[WIND_LETTERS[w]], i
    assert min(seen.values()) > 20, seen
