"""Differential test: the compiled Tuidaohu / two-player scorer against a plain-Python
reference written straight from the seeds' fan tables (000 and 003), on random hands
with random situations. The reference shares no code with the scorer: its own reading
enumeration, its own fan rules and values, its own settlement arithmetic."""
from __future__ import annotations

import pytest

from mjfast import Hand, MeldKind, Situation, random_hands
from mjfast.scoring import tuidaohu as T


# values as printed in the seeds' tables
SEED_000 = {"win": 1, "self_drawn": 1, "concealed": 1, "kong_replacement": 1,
            "last_tile_draw": 1, "robbing_kong": 1, "all_pungs": 2, "seven_pairs": 3,
            "luxury_seven_pairs": 5, "half_flush": 3, "full_flush": 6, "all_honors": 10,
            "big_three_dragons": 8, "little_four_winds": 8, "big_four_winds": 10,
            "heavenly_hand": 8, "earthly_hand": 8}
SEED_003 = dict(SEED_000, full_flush=2)
del SEED_003["half_flush"]
KONGS = {"tuidaohu": {"open": 3, "added": 1, "concealed": 2},
         "two_player": {"open": 2, "added": 1, "concealed": 4}}


def readings(counts):
    """Every (pair, [(kind, tile)]) reading of the concealed tiles as sets + a pair."""
    out = []
    c = list(counts)

    def sets(start, acc):
        i = start
        while i < 34 and c[i] == 0:
            i += 1
        if i == 34:
            out.append((pair[0], list(acc)))
            return
        if c[i] >= 3:
            c[i] -= 3
            sets(i, acc + [("pung", i)])
            c[i] += 3
        if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            for d in range(3):
                c[i + d] -= 1
            sets(i, acc + [("chow", i)])
            for d in range(3):
                c[i + d] += 1

    for p in range(34):
        if c[p] >= 2:
            c[p] -= 2
            pair = [p]
            sets(0, [])
            c[p] += 2
    return out


def reference(hand: Hand, values: dict) -> int:
    counts = [0] * 34
    for t in hand.concealed + (hand.winning_tile,):
        counts[t] += 1
    s = hand.situation
    tiles = [t for t in range(34) if counts[t]] + [t for mm in hand.melds for t in mm.tiles]
    suits = {t // 9 for t in tiles if t < 27}
    honors = any(t >= 27 for t in tiles)
    base = {"win"}
    if s.self_drawn:
        base.add("self_drawn")
    if all(mm.concealed for mm in hand.melds):
        base.add("concealed")
    if s.kong_replacement and any(mm.kind == MeldKind.KONG for mm in hand.melds):
        base.add("kong_replacement")
    if s.last_tile and s.self_drawn:
        base.add("last_tile_draw")
    if s.robbing_kong:
        base.add("robbing_kong")
    if len(suits) == 1 and honors:
        base.add("half_flush")
    if len(suits) == 1 and not honors:
        base.add("full_flush")
    if not suits:
        base.add("all_honors")
    best = -1
    cands = []
    if sum(counts) == 14 and all(x % 2 == 0 for x in counts):
        cands.append(base | ({"luxury_seven_pairs"} if 4 in counts else {"seven_pairs"}))
    called = [("chow" if mm.kind == MeldKind.CHOW else "pung", mm.tile) for mm in hand.melds]
    for pair, sets in readings(counts):
        allsets = sets + called
        if len(allsets) != 4:
            continue
        f = set(base)
        if all(k == "pung" for k, _ in allsets):
            f.add("all_pungs")
        pungs = {t for k, t in allsets if k == "pung"}
        if {31, 32, 33} <= pungs:
            f.add("big_three_dragons")
        winds = len(pungs & {27, 28, 29, 30})
        if winds == 4:
            f.add("big_four_winds")
        if winds == 3 and 27 <= pair <= 30:
            f.add("little_four_winds")
        cands.append(f)
    if cands and s.first_turn and s.self_drawn and not hand.melds:
        return 8                        # 天和 / 地和 alone
    for f in cands:
        best = max(best, sum(values.get(k, 0) for k in f))
    return best


def reference_settlement(hand: Hand, fan: int, rules: str, base: int) -> dict[int, int]:
    s = hand.situation
    players = 2 if rules == "two_player" else 4
    pay = base * 2 ** (min(fan, 6) - 1)
    out = {p: 0 for p in range(players)}
    payers = [p for p in range(players) if p != s.seat] if s.self_drawn else [s.discarder]
    for p in payers:
        out[p] -= pay
        out[s.seat] += pay
    for mm in hand.melds:
        if mm.kind != MeldKind.KONG:
            continue
        kind = "concealed" if mm.concealed else "added" if mm.added else "open"
        amt = KONGS[rules][kind] * base
        if kind == "open":
            who = [1 - s.seat] if players == 2 else [(s.seat - mm.claimed_from) % 4]
        else:
            who = [p for p in range(players) if p != s.seat]
        for p in who:
            out[p] -= amt
            out[s.seat] += amt
    return out


def random_hands_of(rules, n, seed):
    """n random complete hands with random situations (mjfast.random_hands) as Hands."""
    b = random_hands(n, rules, seed=seed)
    return [b.hand(i) for i in range(n)]


@pytest.mark.parametrize("rules,values", [("tuidaohu", SEED_000), ("two_player", SEED_003)])
def test_scorer_matches_reference(rules, values):
    for h in random_hands_of(rules, 1500, 20261129 + len(rules)):
        want = reference(h, values)
        got = T.score_hand(h, base=100, fee=0)
        assert got.total == want, (h, got.fans)
        st = reference_settlement(h, want, rules, 100)
        assert got.settlement == {"ESWN"[p]: v for p, v in st.items()}, h


@pytest.mark.parametrize("rules,values", [("tuidaohu", SEED_000), ("two_player", SEED_003)])
def test_waits_match_reference(rules, values):
    """score_waits_batch against trying every tile of the set with the reference."""
    from dataclasses import replace

    from mjfast.hand import HandBatch
    from mjfast.rules.registry import get_rules
    kinds = get_rules(rules).kinds
    ready = []
    for h in random_hands_of(rules, 150, 77 + len(rules)):
        s = h.situation
        sit = Situation(seat=s.seat, dealer=s.dealer)   # plain situation: a ready hand
        ready.append(Hand(h.concealed, h.melds, None, situation=sit, rules=rules))
    ws = T.score_waits_batch(HandBatch.from_hands(ready, rules=rules))
    for i, h in enumerate(ready):
        held = h.all_counts()
        for t in kinds:
            if held[t] >= 4:
                assert not ws.wins[i, t]
                continue
            d = reference(replace(h, winning_tile=t, situation=Situation(
                seat=h.situation.seat, dealer=h.situation.dealer,
                discarder=(h.situation.seat + 1) % (2 if rules == "two_player" else 4))), values)
            assert ws.wins[i, t] == (d >= 0), (h, t)
            if d >= 0:
                assert ws.total_discard[i, t] == d
                sd = reference(replace(h, winning_tile=t, situation=Situation(
                    seat=h.situation.seat, dealer=h.situation.dealer, self_drawn=True)), values)
                assert ws.total_self_drawn[i, t] == sd
                assert ws.live[i, t] == 4 - held[t]
