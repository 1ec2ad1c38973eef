"""The real command line, run as a user would (a subprocess)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mjfast", *args], capture_output=True,
                          text=True, timeout=1800)


def test_help_lists_commands():
    out = run("--help")
    assert out.returncode == 0
    for cmd in ("parse", "shanten", "score", "score-waits"):
        assert cmd in out.stdout


def test_parse_prints_normalised_hand_and_divisions():
    out = run("parse", "[EEE,2][SSSS,1]WWWNN55pN|EE1000|3", "--rules", "mcr")
    assert out.returncode == 0, out.stderr
    assert "[EEE,2][SSSS,1]" in out.stdout
    assert "division" in out.stdout and "regular" in out.stdout


def test_parse_json_lists_every_format():
    out = run("parse", "11223344556677m", "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert set(d["hand"]) == {"mcr", "mpsz", "botzone"}
    assert d["complete"] and len(d["divisions"]) == 4


@pytest.mark.parametrize("args,needle", [
    (("parse", "123m456p789s11z2x"), "position"),
    (("parse", "1111m1m23456789p1s"), "5 copies of 1m"),
    (("parse", "123m", "--rules", "mcr"), "tiles"),
    (("parse", "123m456p789s11z22z", "--rules", "nonsense"), "unknown rule set"),
    (("parse", "123m456m789m11z22z", "--tsumo", "--discarder", "S"), "discarder"),
])
def test_bad_input_exits_2_with_a_message(args, needle):
    out = run(*args)
    assert out.returncode == 2
    assert needle in out.stderr
    assert "Traceback" not in out.stderr
