"""score_waits for MCR: every wait of a ready hand agrees with scoring each completed hand
one by one (discard and self-draw), and the live counts follow the visible tiles."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

import mjfast  # noqa: E402
from mjfast.hand import FOURTH_TILE, KONG_REPLACEMENT, ROBBING_KONG, SELF_DRAWN, HandBatch  # noqa: E402
from mjfast.notation import parse_hand  # noqa: E402
from mjfast.scoring import mcr  # noqa: E402


def ready_batch(n, seed):
    """Ready hands: random complete hands minus their winning tile (the library's
    ``kind="ready"``: no self-drawn, fourth-tile, kong flags, no discarder)."""
    b = mjfast.random_hands(n, "mcr", "ready", seed=seed)
    assert not (b.flags & (SELF_DRAWN | FOURTH_TILE | KONG_REPLACEMENT | ROBBING_KONG)).any()
    return b


def all_completions(b, self_drawn):
    """One batch: row i * 34 + t = ready hand i completed with tile t."""
    n = len(b)
    idx = np.repeat(np.arange(n), 34)
    tiles = np.tile(np.arange(34), n)
    out = HandBatch.empty(n * 34, "mcr")
    for name in ("melds", "n_melds", "flowers", "seat", "prevalent", "dealer", "streak", "table_discards"):
        getattr(out, name)[:] = getattr(b, name)[idx]
    c = b.counts[idx].astype(np.int64)
    c[np.arange(n * 34), tiles] += 1
    out.counts[:] = np.minimum(c, 255)
    out.winning_tile[:] = tiles
    out.flags[:] = b.flags[idx] | (SELF_DRAWN if self_drawn else 0)
    return out


def test_waits_agree_with_one_by_one():
    b = ready_batch(1000, seed=77)
    ws = mcr.score_waits_batch(b, None, variant="botzone")
    comp = all_completions(b, False)
    d = mcr.score_batch(comp, variant="botzone")
    s = mcr.score_batch(all_completions(b, True), variant="botzone")
    own = b.counts.astype(np.int64).copy()
    for i in range(len(b)):
        for j in range(int(b.n_melds[i])):
            kd, t0 = int(b.melds[i, j, 0]), int(b.melds[i, j, 1])
            if kd == 0:
                own[i, t0:t0 + 3] += 1
            else:
                own[i, t0] += 3 if kd == 1 else 4
    win = d.complete.reshape(-1, 34) & (own < 4)
    assert (ws.wins == win).all()
    assert (ws.total_discard == np.where(win, d.totals.reshape(-1, 34), -1)).all()
    assert (ws.total_self_drawn == np.where(win, s.totals.reshape(-1, 34), -1)).all()
    assert (ws.legal_discard == (win & d.legal.reshape(-1, 34))).all()
    assert (ws.legal_self_drawn == (win & s.legal.reshape(-1, 34))).all()
    assert (ws.live == np.maximum(0, 4 - own)).all()
    assert win.sum() >= 1000
    # and a sample one by one through the single-hand API
    for i in range(0, 1000, 97):
        for t in np.flatnonzero(win[i]):
            h = comp.hand(i * 34 + int(t))
            assert mjfast.score(h, rules="mcr", variant="botzone").total == ws.total_discard[i, t]


def test_visible_tiles_live_count_and_last_tile():
    h = parse_hand("123m456p789s1299s", rules="mcr")       # waits on 3s only
    vis = np.zeros(34, dtype=np.int64)
    out = mjfast.score_waits(h, rules="mcr")
    assert [w["tile"] for w in out] == ["3s"] and out[0]["live"] == 4
    vis[20] = 3                                            # the three other 3s are visible
    out = mjfast.score_waits(h, rules="mcr", visible=vis)
    assert out[0]["live"] == 1
    full = mcr.score_hand(parse_hand("123m456p789s1299s3s|EE0100", rules="mcr"))
    assert out[0]["total_discard"] == full.total                # 和绝张 from the visible tiles
    plain = mcr.score_hand(parse_hand("123m456p789s1299s3s", rules="mcr"))
    assert full.total == plain.total + 4


def test_high_low_split():
    # 1-2-3 / 4-5-6 waits priced differently: 4s makes 123456s 连六 + ... ; check legal flags
    h = parse_hand("[CCC,1]123m456p5699s", rules="mcr")
    out = {w["tile"]: w for w in mjfast.score_waits(h, rules="mcr")}
    assert set(out) == {"4s", "7s"}
    for t, w in out.items():
        r = mcr.score_hand(parse_hand(f"[CCC,1]123m456p5699s{t}", rules="mcr"))
        assert (w["total_discard"], w["legal_discard"]) == (r.total, r.legal)
