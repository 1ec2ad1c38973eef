"""Under ``NUMBA_DISABLE_JIT=1`` (debugging: every kernel runs as Python) the package still
imports and works: the linked symbols call their Python implementations."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import REPO

SCRIPT = r"""
import json
import mjfast
out = {}
for rules, h in [("mcr", "[EEE,2][SSSS,1]WWWNN55pN|EE1000|3"), ("taiwan", "123m456m789m123p456p1s1s"),
                 ("tuidaohu", "123m456m789m123p11p"), ("two_player", "123m456m789m111z22z")]:
    r = mjfast.score(mjfast.parse_hand(h, rules=rules, self_drawn=True), rules=rules)
    out[rules] = [r.total, r.legal]
out["shanten"] = int(mjfast.shanten("123m456p789s1299s"))
out["waits"] = [int(t) for t in mjfast.waits(mjfast.parse_hand("123m456p789s1299s")).mask.nonzero()[0]]
from mjfast.engine import Game
from mjfast.simulation import make_wall
g = Game("mcr", wall=make_wall("mcr", 1, 0, 0))
out["auto"] = g.auto()
out["legal"] = len(g.legal_actions(int(g.S[15])))
print(json.dumps(out))
"""


@pytest.mark.slow
def test_the_package_runs_without_compiling():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    r = subprocess.run([sys.executable, "-c", SCRIPT], cwd=REPO, env=env, capture_output=True,
                       text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    import json
    got = json.loads(r.stdout.strip().splitlines()[-1])
    r2 = subprocess.run([sys.executable, "-c", SCRIPT], cwd=REPO, capture_output=True, text=True,
                        env={k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"})
    assert r2.returncode == 0, r2.stderr[-3000:]
    assert got == json.loads(r2.stdout.strip().splitlines()[-1])     # the compiled answers
    assert got["mcr"] == [101, True] and got["auto"] > 0 and got["legal"] > 0
