"""Random legal play through the engine, every rule set: each deal ends, every tile is
accounted for, payments balance (fees aside), and the written events fold again to the
same final state and results."""
from __future__ import annotations

import numpy as np
import pytest

from mjfast.datasets import EventKind as K, events_from_arrow, events_to_arrow
from mjfast.engine import Game, fold
from mjfast.engine import layout as L
from mjfast.rules.registry import get_rules


def play(rules: str, wall, dealer: int, rng, wall_mode="standard", variant=None) -> Game:
    g = Game(rules, variant, wall=wall, dealer=dealer, wall_mode=wall_mode)
    for _ in range(5000):
        g.auto()
        if g.ended:
            break
        if g.phase in ("drawn", "claimed"):
            p = g._h(L.H_TURN)
            acts = g.legal_actions(p)
            wins = [a for a in acts if a.kind == K.WIN]
            kongs = [a for a in acts if a.kind in (K.KONG_CONCEALED, K.KONG_ADDED)]
            if wins:
                a = wins[0]
            elif kongs and rng.random() < 0.7:
                a = kongs[0]
            else:
                ds = [a for a in acts if a.kind == K.DISCARD]
                a = ds[rng.integers(len(ds))]
            g.apply(a.kind, p, a.tile, a.aux, a.target)
            continue
        chosen, kinds = {}, [-1] * 4
        for p in range(g.players):
            acts = g.legal_actions(p)
            for want in (K.WIN, K.KONG_EXPOSED, K.PUNG, K.CHOW):
                c = [a for a in acts if a.kind == want]
                if c and (want == K.WIN or rng.random() < 0.4):
                    chosen[p], kinds[p] = c[0], want
                    break
            else:
                if any(a.kind == K.WIN for a in acts):
                    g.apply(K.WIN_PASSED, p, g._h(L.H_LAST_TILE), -1, g._h(L.H_LAST_PLAYER))
        won = g.resolve_claims(kinds)
        for p in won:
            a = chosen[p]
            g.apply(a.kind, p, a.tile, a.aux, a.target)
        for p, a in chosen.items():
            if p not in won:
                g.apply(K.CLAIM_LOST, p, a.tile, int(a.kind), a.target)
        if not won:
            assert g.auto(passed=True) > 0
    assert g.ended and g.auto() == 0
    return g


def accounted(g: Game) -> int:
    """Tiles in hands, melds, unclaimed discards, flowers and the undrawn wall."""
    S = g.S
    n = 0
    for p in range(g.players):
        h = g.hand(p)
        n += len(h["concealed"]) + len(h["flowers"]) + len(h["held_flowers"])
        n += sum(4 if m["kind"] == "kong" else 3 for m in h["melds"])
        n += sum(1 for c in h["river_claimed"] if not c)
    if g.wall_mode == L.WALL_BOTZONE:
        n += int(S[L.H_SEG:L.H_SEG + 4].sum())
    else:
        n += int(S[L.H_BACK] - S[L.H_FRONT])
    # a Taiwan seven-flower rob moves the 8th flower's count, not its tile
    return n


@pytest.mark.parametrize("rules,wall_mode", [("mcr", "standard"), ("mcr", "botzone"),
                                             ("taiwan", "standard"), ("tuidaohu", "standard"),
                                             ("two_player", "standard")])
def test_random_play_invariants(rules, wall_mode):
    rs = get_rules(rules)
    rng = np.random.default_rng(11)
    base = [k for k in rs.kinds for _ in range(4)]
    if rs.flowers and wall_mode == "standard":
        base += list(range(34, 42))
    games, walls, dealers = [], [], []
    for d in range(12):
        wall = np.array(base, dtype=np.int64)
        rng.shuffle(wall)
        g = play(rules, wall, d % rs.players, rng, wall_mode,
                 "botzone" if wall_mode == "botzone" else None)
        assert accounted(g) == len(wall)
        S = g.S
        seen = S[L.SEEN:L.SEEN + 42]
        assert seen[:34].max() <= 4 and seen[34:].max() <= 1
        r = g.result()
        fee_side = sum(r["scores"])
        assert fee_side == 0 if rules != "two_player" else fee_side <= 0
        if r["ended"] == "draw":
            assert g.wall_left((g._h(L.H_LAST_PLAYER) + 1) % g.players) <= 0 or \
                g.wall_left(g._h(L.H_TURN)) <= 0
        games.append(g)
        walls.append(wall)
        dealers.append(d % rs.players)
    from mjfast.datasets import Events
    parts = []
    for i, g in enumerate(games):
        ev = g.events
        ev.deal_ids = [f"d{i}"]
        parts.append(ev)
    events = Events.concat(parts)
    back = events_from_arrow(events_to_arrow(events))      # the Parquet shape
    folded = fold(back, rules, "botzone" if wall_mode == "botzone" else None, wall=walls,
                  dealer=dealers, wall_mode=wall_mode)
    for g, (state, res) in zip(games, folded):
        assert np.array_equal(state, g.S)
        assert res == g.result()


@pytest.mark.parametrize("rules", ["mcr", "taiwan", "tuidaohu", "two_player"])
def test_quick_completeness_never_rejects_a_complete_hand(rules):
    """The engine's cheap pre-check before scoring a win accepts every complete hand of
    the generator (all forms), and agrees with the scorer on random 14-tile hands."""
    from mjfast import random_hands, score_batch
    from mjfast.engine._core import maybe_complete
    from mjfast.engine import make_context
    from mjfast.kernels import C_FORM_MASK
    mask = int(make_context(rules)[0][C_FORM_MASK])
    b = random_hands(3000, rules, "complete", seed=3)
    counts = b.counts.astype(np.int64)
    for i in range(len(b)):
        assert maybe_complete(counts[i], int(b.n_melds[i]), mask), i
    # near-complete hands: swap one tile of a complete hand; the scorer's complete rows
    # must all pass the pre-check
    rng = np.random.default_rng(4)
    rs = get_rules(rules)
    kinds = np.array(rs.kinds)
    c2 = counts.copy()
    for i in range(len(b)):
        held = np.flatnonzero(c2[i])
        c2[i, held[rng.integers(len(held))]] -= 1
        c2[i, kinds[rng.integers(len(kinds))]] += 1
    # writable copies: the read-only context typed as read-only arrays would add a second
    # compiled version of score_hand to the developer's kernel cache (test_compiled_core)
    ctx = tuple(a.copy() for a in make_context(rules))
    from mjfast.engine._score import score_hand
    from mjfast.kernels import (R_COUNTS, R_DISCARDER, R_FLOWERS, R_MELDS, R_N_MELDS,
                                R_TABLE_DISCARDS, R_WIN, new_row)
    fans = np.zeros(128, np.int64)
    checked = 0
    for i in range(len(b)):
        full = c2[i].copy()
        for j in range(int(b.n_melds[i])):
            kind, t = int(b.melds[i, j, 0]), int(b.melds[i, j, 1])
            if kind == 0:
                full[t:t + 3] += 1
            else:
                full[t] += 3 if kind == 1 else 4
        if full.max() > 4:
            continue
        win = int(np.flatnonzero(c2[i])[-1])
        row = new_row()
        row[R_COUNTS:R_COUNTS + 34] = c2[i]
        row[R_MELDS:R_MELDS + 20] = b.melds[i].ravel()
        row[R_N_MELDS], row[R_WIN], row[R_FLOWERS] = int(b.n_melds[i]), win, int(b.flowers[i])
        row[R_DISCARDER] = row[R_TABLE_DISCARDS] = -1
        total, _ = score_hand(ctx, row, fans)
        if total >= 0:
            checked += 1
            assert maybe_complete(c2[i], int(b.n_melds[i]), mask), i
    assert checked > 0


@pytest.mark.parametrize("rules", ["mcr", "two_player"])
def test_garbage_events_get_error_codes(rules):
    """Any event, however wrong, gets a code (no crash, no state outside its ranges)."""
    from mjfast.engine import EngineError
    rs = get_rules(rules)
    rng = np.random.default_rng(7)
    base = [k for k in rs.kinds for _ in range(4)] + (list(range(34, 42)) if rs.flowers else [])
    for trial in range(6):
        wall = np.array(base, dtype=np.int64)
        rng.shuffle(wall)
        g = Game(rules, wall=wall if trial % 2 == 0 else None)
        if trial % 2 == 0:
            g.auto()
        codes = set()
        for _ in range(400):
            ev = (int(rng.integers(-2, 17)), int(rng.integers(-2, 6)), int(rng.integers(-3, 46)),
                  int(rng.integers(-3, 40)), int(rng.integers(-2, 6)), int(rng.integers(0, 64)))
            try:
                g.apply(*ev)
                codes.add(0)
            except EngineError as e:
                assert e.code in L.ERROR_MESSAGES
                codes.add(e.code)
        S = g.S
        hands = S[L.HAND:L.HAND + 4 * 34]
        assert hands.min() >= 0 and hands.max() <= 4
        assert S[L.SEEN:L.SEEN + 34].max() <= 4
        assert len(codes) > 3


def test_events_parquet_round_trip_folds_the_same(tmp_path):
    import pyarrow.parquet as pq
    rng = np.random.default_rng(2)
    rs = get_rules("taiwan")
    wall = np.array([k for k in rs.kinds for _ in range(4)] + list(range(34, 42)))
    rng.shuffle(wall)
    g = play("taiwan", wall, 0, rng)
    pq.write_table(events_to_arrow(g.events), tmp_path / "events.parquet")
    back = events_from_arrow(pq.read_table(tmp_path / "events.parquet"))
    (state, res), = fold(back, "taiwan", wall=wall)
    assert np.array_equal(state, g.S) and res == g.result()
