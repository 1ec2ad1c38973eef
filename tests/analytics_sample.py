"""A small hand-made dataset for the analytics and report tests: raw Python rows (the tests
compute expected numbers from these, independently of the code under test) and a writer
that puts them into a dataset as two shards (A and B), or one shard each (A alone, B alone),
its manifest recording the rule context the rows are under (the analyses read names and
values from it)."""
from __future__ import annotations

from mjfast.datasets import Dataset
from mjfast.rules import rule_context


def W(tile, live, td, ts, ld, ls, fd=None):
    return {"tile": tile, "live": live, "total_discard": td, "total_self_drawn": ts,
            "legal_discard": ld, "legal_self_drawn": ls, "fans_discard": fd}


def F(*fans):
    return [{"id": i, "points": p, "count": c} for i, p, c in fans]


# ---- shard A ---------------------------------------------------------------------------------
WINS_A = [
    dict(deal_id="d1", step=50, winner=0, self_drawn=False, discarder=2, tile=5, total=8,
         legal=True, fans=F((49, 6, 1), (76, 1, 2)), scores=[32, -8, -16, -8]),
    dict(deal_id="d2", step=40, winner=1, self_drawn=False, discarder=0, tile=7, total=7,
         legal=False, fans=F((49, 6, 1), (81, 1, 1)), scores=[10, -30, 10, 10]),
    dict(deal_id="d3", step=60, winner=2, self_drawn=True, discarder=-1, tile=9, total=17,
         legal=True, fans=F((24, 16, 1), (76, 1, 1)), scores=[-25, -25, 75, -25]),
]
WINS_B = [
    dict(deal_id="d4", step=30, winner=3, self_drawn=False, discarder=1, tile=2, total=22,
         legal=True, fans=F((49, 6, 1), (24, 16, 1)), scores=[-8, -30, -8, 46]),
    dict(deal_id="d5", step=70, winner=0, self_drawn=True, discarder=-1, tile=20, total=9,
         legal=None, fans=F((76, 1, 3), (70, 2, 1)), scores=[51, -17, -17, -17]),
]

# deals: d1..d3 in A, d4..d6 in B (d6 a draw); dealer 0 everywhere except d4 (dealer 1)
DEALS_A = [
    dict(deal_id="d1", dealer=0, seats=[0, 1, 2, 3], draw=False, total=8,
         fans=F((49, 6, 1), (76, 1, 2)), scores=[32, -8, -16, -8]),
    dict(deal_id="d2", dealer=0, seats=[0, 1, 2, 3], draw=False, total=7,
         fans=F((49, 6, 1)), scores=[10, -30, 10, 10]),
    dict(deal_id="d3", dealer=0, seats=[0, 1, 2, 3], draw=False, total=17,
         fans=F((24, 16, 1), (76, 1, 1)), scores=[-25, -25, 75, -25]),
]
DEALS_B = [
    dict(deal_id="d4", dealer=1, seats=[3, 0, 1, 2], draw=False, total=22,
         fans=F((49, 6, 1), (24, 16, 1)), scores=[-8, -30, -8, 46]),
    dict(deal_id="d5", dealer=0, seats=[0, 1, 2, 3], draw=False, total=9,
         fans=F((76, 1, 3), (70, 2, 1)), scores=[51, -17, -17, -17]),
    dict(deal_id="d6", dealer=0, seats=[0, 1, 2, 3], draw=True, total=None, fans=None,
         scores=[0, 0, 0, 0]),
]

# hands (generated ready hands)
HANDS_A = [
    dict(hand_id=1, form=0, n_melds=1, shanten=0,
         waits=[W(1, 3, 10, 12, True, True, F((49, 6, 1), (76, 1, 1))),
                W(4, 1, 6, 8, False, True, F((76, 1, 1), (70, 2, 1)))]),
    dict(hand_id=2, form=1, n_melds=0, shanten=0, waits=[W(9, 2, 24, 26, True, True)]),
    dict(hand_id=3, form=0, n_melds=1, shanten=1, waits=[]),
    dict(hand_id=7, form=0, n_melds=0, shanten=-1, waits=[], total=14, legal=True,
         fans=F((49, 6, 1), (70, 2, 1), (76, 1, 1))),
    dict(hand_id=8, form=0, n_melds=0, shanten=-1, waits=[], total=5, legal=False,
         fans=F((70, 2, 1))),
]
HANDS_B = [
    dict(hand_id=4, form=0, n_melds=1, shanten=0,
         waits=[W(3, 0, 5, 6, False, False), W(6, 4, 7, 9, False, True)]),
    dict(hand_id=5, form=0, n_melds=2, shanten=0, error="bad hand",
         waits=[W(3, 4, 50, 60, True, True)]),
    dict(hand_id=6, form=0, n_melds=1, shanten=0,
         waits=[W(2, 2, 9, 11, True, True, F((49, 6, 1), (77, 1, 1))),
                W(5, 3, 4, 5, False, False, F((77, 1, 1)))]),
]

# turns (replays): d1 player 0 and 1; d4 player 3
TURNS_A = [
    dict(deal_id="d1", step=10, player=0, turn=1, shanten=2, shanten_after=1, waits=[]),
    dict(deal_id="d1", step=20, player=0, turn=2, shanten=1, shanten_after=0,
         waits=[W(1, 2, 9, 11, True, True), W(4, 2, 5, 7, False, False)]),
    dict(deal_id="d1", step=30, player=0, turn=3, shanten=0, shanten_after=0,
         waits=[W(1, 1, 9, 11, True, True), W(4, 2, 5, 7, False, False)]),
    dict(deal_id="d1", step=15, player=1, turn=1, shanten=3, shanten_after=2, waits=[]),
    dict(deal_id="d1", step=25, player=1, turn=2, shanten=2, shanten_after=2, waits=[]),
]
TURNS_B = [
    dict(deal_id="d4", step=12, player=3, turn=1, shanten=1, shanten_after=0,
         waits=[W(2, 3, 4, 6, False, False)]),
    dict(deal_id="d4", step=22, player=3, turn=2, shanten=0, shanten_after=0,
         waits=[W(2, 3, 12, 14, True, True)]),
]

# candidates: d1 step 20 (chosen left a split wait, another kept more high tiles), d4 step 12
CANDIDATES_A = [
    dict(deal_id="d1", step=20, player=0, discard=4, chosen=True, shanten_after=0,
         waits=[W(1, 2, 9, 11, True, True), W(4, 2, 5, 7, False, False)],
         rank_efficiency=2, rank_value=2),
    dict(deal_id="d1", step=20, player=0, discard=8, chosen=False, shanten_after=0,
         waits=[W(1, 2, 9, 11, True, True), W(7, 3, 8, 10, True, True)],
         rank_efficiency=1, rank_value=1),
    dict(deal_id="d1", step=20, player=0, discard=9, chosen=False, shanten_after=1,
         waits=[], rank_efficiency=3, rank_value=3),
]
CANDIDATES_B = [
    dict(deal_id="d4", step=12, player=3, discard=2, chosen=True, shanten_after=0,
         waits=[W(2, 3, 4, 6, False, False)], rank_efficiency=1, rank_value=2),
    dict(deal_id="d4", step=12, player=3, discard=5, chosen=False, shanten_after=1,
         waits=[], rank_efficiency=2, rank_value=1),
]

SHARD_A = {"wins": WINS_A, "deals": DEALS_A, "hands": HANDS_A, "turns": TURNS_A,
           "candidates": CANDIDATES_A}
SHARD_B = {"wins": WINS_B, "deals": DEALS_B, "hands": HANDS_B, "turns": TURNS_B,
           "candidates": CANDIDATES_B}


def _cols(rows):
    keys = []
    for r in rows:
        keys += [k for k in r if k not in keys]
    return {k: [r.get(k) for r in rows] for k in keys}


def write(path, shards=(("00000", SHARD_A), ("00001", SHARD_B)), rules="mcr", variant=None):
    ds = Dataset(path)
    for shard, tables in shards:
        for table, rows in tables.items():
            ds.write(table, _cols(rows), rules=rules, variant=variant, shard=shard)
    ds.write_manifest({"job": "test", "rules": [rule_context(rules, variant).record()]})
    return ds


# a paired study: the same deals under the default rules and the botzone variant
STUDY_DEFAULT = [
    dict(deal_id="s1", dealer=0, seats=[0, 1, 2, 3], draw=False, total=10,
         fans=F((49, 6, 1)), scores=[34, -18, -8, -8]),
    dict(deal_id="s2", dealer=0, seats=[0, 1, 2, 3], draw=True, total=None, fans=None,
         scores=[0, 0, 0, 0]),
    dict(deal_id="s3", dealer=0, seats=[0, 1, 2, 3], draw=False, total=8,
         fans=F((76, 1, 1)), scores=[-24, 48, -12, -12]),
]
STUDY_BOTZONE = [
    dict(deal_id="s1", dealer=0, seats=[0, 1, 2, 3], draw=False, total=12,
         fans=F((49, 6, 1), (82, 2, 1)), scores=[36, -20, -8, -8]),
    dict(deal_id="s2", dealer=0, seats=[0, 1, 2, 3], draw=True, total=None, fans=None,
         scores=[0, 0, 0, 0]),
    dict(deal_id="s3", dealer=0, seats=[0, 1, 2, 3], draw=False, total=8,
         fans=F((76, 1, 1)), scores=[-24, 48, -12, -12]),
    dict(deal_id="s4", dealer=0, seats=[0, 1, 2, 3], draw=False, total=30,
         fans=F((24, 16, 1)), scores=[114, -38, -38, -38]),
]


def write_study(path):
    ds = Dataset(path)
    ds.write("deals", _cols(STUDY_DEFAULT), rules="mcr", variant=None)
    ds.write("deals", _cols(STUDY_BOTZONE), rules="mcr", variant="botzone")
    for variant, deals in ((None, STUDY_DEFAULT), ("botzone", STUDY_BOTZONE)):
        wins = [dict(deal_id=d["deal_id"], step=1, winner=0, self_drawn=False, discarder=1,
                     total=d["total"], legal=True, fans=d["fans"], scores=d["scores"])
                for d in deals if not d["draw"]]
        ds.write("wins", _cols(wins), rules="mcr", variant=variant)
    ds.write_manifest({"job": "study", "rules": [rule_context("mcr", v).record()
                                                 for v in ("default", "botzone")]})
    return ds
