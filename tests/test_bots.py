"""Bots: the compiled choices against brute force, the Python loop against the compiled
loop, Python policies, and an external Botzone-protocol bot process playing full deals."""
import sys
from pathlib import Path

import numpy as np
import pytest

import mjfast
from mjfast.datasets import EventKind as K
from mjfast.simulation import BotzoneBot, PolicyView, simulate
from mjfast.rules.registry import get_rules
from mjfast.simulation._eval import discard_options, make_bot_context, shanten_of
from mjfast.simulation._simulate import make_plan, play_shard
from mjfast.simulation._pyloop import play_jobs_python

BOT = Path(__file__).parent / "data" / "botzone_test_bot.py"


def _bits(mask) -> int:
    return int(sum(1 << int(t) for t in np.flatnonzero(mask)))


def _random_rows(rules, n, rng):
    """Waiting-size rows (every meld count) of the rule set: uniform draws, pair-heavy,
    orphan-heavy and knitted-heavy hands (MCR's special forms)."""
    rs = get_rules(rules)
    kinds = np.array([k for k in rs.kinds if k < 34])
    pool = np.repeat(kinds, 4)
    sizes = [rs.hand_size - 3 * m for m in range(rs.sets + 1)]
    orph = np.repeat([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33], 4)
    knit = np.array([0, 3, 6, 10, 13, 16, 20, 23, 26, 27, 28, 29, 30, 31, 32, 33])
    out = []
    while len(out) < n:
        size = sizes[rng.integers(len(sizes))]
        mode = rng.integers(4) if rules == "mcr" else rng.integers(2)
        if mode == 1:
            ks = rng.choice(kinds, size=(size + 1) // 2, replace=False)
            sel = np.concatenate([ks, ks])[:size]
        elif mode == 2:
            sel = rng.choice(orph, size=size, replace=False)
        elif mode == 3:
            sel = rng.choice(np.concatenate([knit, rng.choice(pool, 8, replace=False)]), size,
                             replace=False)
        else:
            sel = rng.choice(pool, size=size, replace=False)
        c = np.bincount(sel, minlength=34)
        if c.max() <= 4:
            out.append(c)
    return np.array(out, dtype=np.int64)


@pytest.mark.parametrize("rules", ["mcr", "taiwan", "tuidaohu", "two_player"])
def test_discard_options_match_the_public_waits(rules):
    """Every candidate's shanten is the public shanten of the hand after the discard; the
    candidates of the lowest shanten carry the public live count and effective tiles; the
    bots' one-hand shanten is the public shanten (every meld count, special-form-heavy
    hands)."""
    params, tab, vec, ct, opt, FD, R, cand, emask = make_bot_context(rules)
    tiles = np.array([k for k in get_rules(rules).kinds if k < 34])
    rng = np.random.default_rng(4)
    for row in _random_rows(rules, 150, rng):
        assert shanten_of(row, params, tab, vec, ct, FD) == mjfast.shanten(row, rules=rules)
        # a complete-size hand: the row and one more tile of the rule set
        hand = row.copy()
        hand[rng.choice(np.repeat(tiles, 4 - row[tiles]))] += 1
        vis = np.zeros(34, np.int32)
        vis[tiles] = np.minimum(rng.integers(0, 3, size=len(tiles)), 4 - hand[tiles])
        k = discard_options(hand, vis, params, tab, vec, ct, opt, FD, R, cand, emask)
        out = cand[:k]
        assert sorted(out[:, 0]) == list(np.flatnonzero(hand))
        lo = out[:, 1].min()
        for i, (t, s, live, _) in enumerate(out):
            after = hand.copy()
            after[t] -= 1
            w = mjfast.waits(after, rules=rules, visible=vis)
            assert w.shanten == s
            if s == lo:
                assert int(w.live.sum()) == live and _bits(w.mask) == emask[i]
            else:
                assert live == -1 and emask[i] == 0


@pytest.mark.slow
def test_python_loop_equals_compiled_loop():
    plan = make_plan("tuidaohu", "efficiency,value,efficiency,value", 6, 21)
    idx = np.arange(len(plan.jobs))
    a = play_shard(plan, idx)
    b = play_jobs_python(plan, idx)
    for name in ("events", "deals", "wins"):
        assert a.tables[name].equals(b.tables[name]), name


def test_python_policy_plays():
    seen = []

    def first_discard(view: PolicyView, actions):
        seen.append(view.phase)
        for i, a in enumerate(actions):
            if a.kind == K.WIN:
                return i
        for i, a in enumerate(actions):
            if a.kind < 0:
                return i          # pass every claim
        return len(actions) - 1   # own turn: the highest tile

    res = simulate("two_player", [first_discard, "efficiency"], deals=3, seed=2)
    assert res.errors == [] and res.tables["deals"].num_rows == 3
    assert "drawn" in seen
    ev = res.events
    own = ev.kind == K.DISCARD
    assert (ev.player[own] == 0).any()


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["keep", "restart"])
def test_external_bot_plays_a_full_deal(mode):
    cmd = [sys.executable, str(BOT)] + (["--restart"] if mode == "restart" else [])
    bot = BotzoneBot(cmd, timeout=60)
    res = simulate("mcr", [bot, "efficiency", "efficiency", "efficiency"], deals=1, seed=9,
                   wall="botzone", variant="botzone")
    assert res.errors == []
    deal = res.tables["deals"].to_pylist()[0]
    ev = res.events
    kinds = ev.kind
    assert kinds[-1] == K.DEALER_CHANGE
    assert (kinds == K.WIN).sum() + (kinds == K.EXHAUSTIVE_DRAW).sum() == 1
    # the test bot discards what it drew (or its highest tile after a pung)
    mine = np.flatnonzero((ev.player == 0) & (kinds == K.DISCARD))
    assert len(mine) >= 5
    for r in mine:
        if kinds[r - 1] == K.DRAW:
            assert ev.tile[r] == ev.tile[r - 1]
    # it saw every request: its history holds the start and the deal
    assert bot.requests[0].startswith("0 ") and bot.requests[1].startswith("1 0 0 0 0 ")
    assert len(bot.requests) == len(bot.responses) > 20


def test_external_bot_errors_are_typed(tmp_path):
    liar = tmp_path / "liar.py"
    liar.write_text("import sys\nfor l in sys.stdin:\n    print('PLAY W1')\n    print('>>>BOTZONE_REQUEST_KEEP_RUNNING<<<')\n    sys.stdout.flush()\n")
    bot = BotzoneBot([sys.executable, str(liar)], timeout=60)
    with pytest.raises(mjfast.MjfastError):
        simulate("mcr", [bot, "efficiency", "efficiency", "efficiency"], deals=1, seed=1,
                 wall="botzone")
