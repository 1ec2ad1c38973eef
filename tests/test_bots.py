"""Bots: the compiled choices against brute force, the Python loop against the compiled
loop, Python policies, and an external Botzone-protocol bot process playing full deals."""
import sys
from pathlib import Path

import numpy as np
import pytest

import mjfast
from mjfast.datasets import EventKind as K
from mjfast.simulation import BotzoneBot, PolicyView, simulate
from mjfast.simulation._eval import discard_options, make_bot_context, set_visible
from mjfast.simulation._simulate import make_plan, play_shard
from mjfast.simulation._pyloop import play_jobs_python

BOT = Path(__file__).parent / "data" / "botzone_test_bot.py"


def test_discard_options_match_the_public_waits():
    bc = make_bot_context("mcr")
    rng = np.random.default_rng(4)
    for _ in range(40):
        wall = rng.permutation(np.repeat(np.arange(34), 4))
        hand = np.bincount(wall[:14], minlength=34)
        vis = np.bincount(wall[14:40], minlength=34).astype(np.int16)
        set_visible(bc, vis)
        k = discard_options(bc, hand)
        cand = bc[7][:k]
        assert sorted(cand[:, 0]) == list(np.flatnonzero(hand))
        for t, s, live, _ in cand:
            row = hand.copy()
            row[t] -= 1
            w = mjfast.waits(row, rules="mcr", visible=vis)
            assert (w.shanten, int(w.live.sum())) == (s, live)


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
