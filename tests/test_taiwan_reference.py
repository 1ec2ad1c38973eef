"""The Taiwan kernel against a plain-Python reference written here from the seed's table
(its own decomposition, its own predicates; only the values and the exclusion graph
come from the table data)."""
from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast.hand import Hand, MeldKind
from mjfast.scoring import score_batch
from mjfast.scoring import taiwan as tw

TABLE = tw.FAN_TABLE
WINDS = range(27, 31)
DRAGONS = range(31, 34)


def _sets(c: list[int]):
    """Every multiset of sets covering counts c exactly: lists of ('chow'|'pung', tile)."""
    i = next((t for t in range(34) if c[t]), None)
    if i is None:
        yield []
        return
    if c[i] >= 3:
        c[i] -= 3
        for rest in _sets(c):
            yield [("pung", i)] + rest
        c[i] += 3
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for t in (i, i + 1, i + 2):
            c[t] -= 1
        for rest in _sets(c):
            yield [("chow", i)] + rest
        for t in (i, i + 1, i + 2):
            c[t] += 1


def readings(c: list[int]):
    """(pair, [sets]) for the concealed counts, unique."""
    seen = set()
    for p in range(34):
        if c[p] >= 2:
            c[p] -= 2
            for s in _sets(c):
                key = (p, tuple(sorted(s)))
                if key not in seen:
                    seen.add(key)
                    yield p, sorted(s)
            c[p] += 2


def special(c: list[int]):
    """The 七対+刻子 triplet tile, or None."""
    if sum(c) != 17:
        return None
    odd = [t for t in range(34) if c[t] % 2]
    if len(odd) == 1 and c[odd[0]] == 3:
        return odd[0]
    return None


def placements(pair, sets, wt):
    """(index of the set or -1 for the pair, shape) where the winning tile can sit."""
    out = []
    if pair == wt:
        out.append((-1, "single"))
    for i, (kind, t) in enumerate(sets):
        if kind == "pung" and t == wt:
            out.append((i, "dual"))
        elif kind == "chow" and t <= wt <= t + 2:
            rank = t % 9           # 0 = 123
            pos = wt - t
            if pos == 1:
                shape = "closed"
            elif (pos == 2 and rank == 0) or (pos == 0 and rank == 6):
                shape = "edge"
            else:
                shape = "two_sided"
            out.append((i, shape))
    return out


def apply_table(hits: dict[str, int]) -> tuple[int, dict[str, int]]:
    rows = {r.key: r for r in TABLE.rows}
    kept: dict[str, int] = {}
    removed: set[int] = set()
    standalone = [r.id for r in TABLE.rows if r.get("standalone", False)]
    for rid in standalone + [i for i in TABLE.table.order if i not in standalone]:
        r = TABLE.row(rid)
        if hits.get(r.key, 0) > 0 and rid not in removed:
            kept[r.key] = hits[r.key]
            removed |= TABLE.excluded_by(rid)
    kept = {k: v for k, v in kept.items() if rows[k].id not in removed}
    return sum(rows[k].points * v for k, v in kept.items()), kept


def reference(hand: Hand) -> tuple[int, list[dict[str, int]]]:
    """(highest total, every item set reaching it): equal totals can come from readings
    with different items (e.g. a single wait or a closed wait, 1 tai each)."""
    cands = list(_candidates(hand))
    top = max(t for t, _ in cands) if cands else -1
    return top, [k for t, k in cands if t == top]


def _candidates(hand: Hand):
    s = hand.situation
    nf = hand.flower_count
    if nf == 8:
        yield apply_table({"eight_flowers": 1})
        return
    c = [int(x) for x in hand.counts()]
    wt = hand.winning_tile
    melds = hand.melds
    claimed = [m for m in melds if not m.concealed]
    every = [int(x) for x in hand.all_counts()]
    suits = {t // 9 for t in range(27) if every[t]}
    has_honor = any(every[27:34])
    td = s.table_discards

    common = {"win_shape": 1, "flowers": nf, "no_flowers": int(nf == 0)}
    common["open_kong"] = sum(1 for m in melds if m.kind == MeldKind.KONG and not m.concealed)
    common["concealed_kong"] = sum(1 for m in melds if m.kind == MeldKind.KONG and m.concealed)
    if not claimed:
        common["concealed_self_draw" if s.self_drawn else "concealed_hand"] = 1
    common["self_draw"] = int(s.self_drawn)
    common["all_called"] = int(len(claimed) == 5 and not s.self_drawn)
    common["no_honors"] = int(not has_honor)
    common["no_honors_no_flowers"] = int(not has_honor and nf == 0)
    common["half_flush"] = int(len(suits) == 1 and has_honor)
    common["full_flush"] = int(len(suits) == 1 and not has_honor)
    common["last_tile_draw"] = int(s.last_tile and s.self_drawn)
    common["last_discard"] = int(s.last_tile and not s.self_drawn)
    common["robbing_kong"] = int(s.robbing_kong)
    if td is not None:
        common["very_early_win"] = int(td <= 5)
        common["early_win"] = int(6 <= td <= 9)
    common["original_ready"] = int(s.original_ready and not claimed)
    no_melds = not melds
    common["heavenly_win"] = int(no_melds and s.self_drawn and s.seat == s.dealer and (
        (s.first_turn and td is None) or td == 0))
    common["earthly_win"] = int(no_melds and not s.self_drawn and s.seat != s.dealer
                                and s.discarder in (None, s.dealer)
                                and ((s.first_turn and td is None) or td == 1))

    trip = special(c)
    if trip is not None and not melds:
        h = dict(common, seven_pairs_triplet=1, honor_pung=int(trip >= 27))
        yield apply_table(h)
    meld_sets = [("chow" if m.kind == MeldKind.CHOW else "pung", m.tile, not m.concealed)
                 for m in melds]
    for pair, sets in readings(list(c)):
        if len(sets) + len(melds) != 5:
            continue
        allsets = [(k, t, False) for k, t in sets] + meld_sets
        pungs = [t for k, t, _ in allsets if k == "pung"]
        chows = [(t, called) for k, t, called in allsets if k == "chow"]
        h = dict(common)
        h["honor_pung"] = sum(1 for t in pungs if t >= 27)
        h["all_chows"] = int(not pungs)
        h["pure_all_chows"] = int(not pungs and pair < 27 and nf == 0)
        h["all_pungs"] = int(not chows)
        nd = sum(1 for t in pungs if t in DRAGONS)
        nw = sum(1 for t in pungs if t in WINDS)
        h["big_three_dragons"] = int(nd == 3)
        h["small_three_dragons"] = int(nd == 2 and pair in DRAGONS)
        h["big_four_winds"] = int(nw == 4)
        h["small_four_winds"] = int(nw == 3 and pair in WINDS)
        h["three_wind_pungs"] = int(nw == 3)
        h["small_three_winds"] = int(nw >= 2 and pair in WINDS)
        for suit in range(3):
            need = [9 * suit, 9 * suit + 3, 9 * suit + 6]
            if all(any(t == n for t, _ in chows) for n in need):
                h["pure_straight"] = 1
                if all(any(t == n and not called for t, called in chows) for n in need):
                    h["concealed_pure_straight"] = 1
        for slot, shape in placements(pair, sets, wt):
            g = dict(h)
            g["single_wait"] = int(shape == "single")
            g["closed_or_edge_wait"] = int(shape in ("closed", "edge"))
            conc = sum(1 for k, t in sets if k == "pung") + common["concealed_kong"]
            if shape == "dual" and not s.self_drawn:
                conc -= 1
            for n, key in ((2, "two"), (3, "three"), (4, "four"), (5, "five")):
                g[f"{key}_concealed_pungs"] = int(conc >= n)
            yield apply_table(g)


@pytest.mark.parametrize("seed,melds,special", [(101, None, None), (202, 0, 0.2),
                                                 (303, 3, 0.0), (404, 5, 0.0)])
def test_kernel_matches_reference(seed, melds, special):
    b = mjfast.random_hands(700, "taiwan", seed=seed, melds=melds, special=special)
    res = score_batch(b)
    key_of = {r.id: r.key for r in TABLE.rows}
    for i in range(len(b)):
        h = b.hand(i)
        total, kept = reference(h)
        got = {key_of[int(j)]: int(res.fan_counts[i, j]) for j in np.flatnonzero(res.fan_counts[i])}
        assert total == int(res.totals[i]), (i, str(h), h.situation)
        assert got in kept, (i, str(h), h.situation)


def test_reference_on_heavy_hands():
    """Hands with many readings: pure suits, triples of chows."""
    rng = np.random.default_rng(5)
    from mjfast.hand import Situation
    n = 0
    for _ in range(400):
        suit = int(rng.integers(3)) * 9
        c = [0] * 34
        for _ in range(5):
            if rng.random() < 0.6:
                t = suit + int(rng.integers(7))
                for d in range(3):
                    c[t + d] += 1
            else:
                c[suit + int(rng.integers(9))] += 3
        c[suit + int(rng.integers(9))] += 2
        if max(c) > 4:
            continue
        tiles = [t for t in range(34) for _ in range(c[t])]
        wt = tiles[int(rng.integers(len(tiles)))]
        tiles.remove(wt)
        sd = bool(rng.random() < 0.5)
        h = Hand(tuple(tiles), (), wt, (), int(rng.integers(0, 3)),
                 Situation(self_drawn=sd, discarder=None if sd else 2), rules="taiwan")
        res = tw.score_hand(h)
        total, kept = reference(h)
        assert total == res.total, str(h)
        assert {TABLE.row(f.id).key: f.count for f in res.fans} in kept
        n += 1
    assert n > 100
