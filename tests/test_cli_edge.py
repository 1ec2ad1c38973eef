"""The CLI edge: --version, JSON errors (stdout, exit 2), contradictory options, a single
hand's errors name the typed hand (never a batch row)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

import mjfast


def run(*args):
    return subprocess.run([sys.executable, "-m", "mjfast", *args], capture_output=True, text=True)


def test_version_option():
    out = run("--version")
    assert out.returncode == 0 and out.stdout.strip() == mjfast.__version__


@pytest.mark.parametrize("args,kind,needle", [
    (("score", "1112345678999m55m", "--json"), "HandSizeError", "too many tiles: 15"),
    (("score", "1112345678999m5m", "--tsumo", "--ron", "--json"), "SituationError", "--tsumo"),
    (("score", "123m456m789m111z55z", "--rules", "two_player", "--fee", "2", "--json"),
     "ArgumentError", "fee"),
    (("score", "1112345678999m5m", "--rules", "taiwan", "--json"), "HandSizeError", "too few tiles: 14"),
    (("shanten", "123m 456p", "--json"), "TileParseError", "read as Botzone"),
    (("score-waits", "1112345678999m5m", "--json"), "HandSizeError", "has 14"),
])
@pytest.mark.slow
def test_json_errors_are_json_on_stdout_with_exit_2(args, kind, needle):
    out = run(*args)
    assert out.returncode == 2, out.stdout + out.stderr
    err = json.loads(out.stdout)["error"]
    assert err["type"] == kind and needle in err["message"], err
    assert set(err) == {"type", "message", "input", "position", "reason"}
    assert "row" not in err["message"]


@pytest.mark.slow
def test_text_errors_on_stderr():
    out = run("score", "1112345678999m5p")
    assert out.returncode == 2 and out.stdout == ""
    assert "1112345678999m5p" in out.stderr and "batch row" not in out.stderr
    out = run("score", "1112345678999m5m", "--tsumo", "--ron")
    assert out.returncode == 2 and "contradictory" in out.stderr
    out = run("score", "123m456m789m123p456p55s", "--rules", "taiwan", "--fee", "0.1")
    assert out.returncode == 2 and "taiwan does not use 'fee'" in out.stderr
    out = run("score", "1112345678999m5m", "--base", "-3")
    assert out.returncode == 2 and "base" in out.stderr
