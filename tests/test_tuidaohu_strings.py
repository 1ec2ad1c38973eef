"""Tuidaohu / two-player through hand strings, score_table and the CLI: the worked examples
of seeds 000 and 003 as one call each (the kongs are part of the hand string)."""
from __future__ import annotations

import json

import pytest

import mjfast
from mjfast.errors import RuleSetError

EXAMPLES = [
    # (string, rules, options, total, capped, multiplier, settlement)
    ("123456789m234m55m", "tuidaohu", dict(self_drawn=True), 9, 6, 32,
     {"E": 9600, "S": -3200, "W": -3200, "N": -3200}),
    ("[EEE,2][9999p,3]111p333pPP", "tuidaohu", dict(discarder="W"), 6, 6, 32,
     {"E": 3500, "S": -300, "W": -3200, "N": 0}),
    ("11m33m55p77p99sPPEE", "tuidaohu", dict(discarder="N"), 5, 5, 16,
     {"E": 1600, "S": 0, "W": 0, "N": -1600}),
    ("11m33m55p77p99sPPEE", "tuidaohu", dict(self_drawn=True), 6, 6, 32,
     {"E": 9600, "S": -3200, "W": -3200, "N": -3200}),
    ("123456789mEEEPP", "two_player", dict(self_drawn=True, fee=0), 3, 3, 4,
     {"E": 400, "S": -400}),
    ("[222m][777m]333m55m999m", "two_player", dict(discarder="S", fee=0), 5, 5, 16,
     {"E": 1600, "S": -1600}),
    ("[EEEE][CCC]FFFPPNNP", "two_player", dict(self_drawn=True, fee=0), 22, 6, 32,
     {"E": 3600, "S": -3600}),
]


@pytest.mark.parametrize("text,rules,opts,total,capped,mult,settlement", EXAMPLES)
def test_worked_examples_from_strings(text, rules, opts, total, capped, mult, settlement):
    r = mjfast.score(text, rules=rules, base=100, **opts)
    assert (r.total, r.extras["capped"], r.extras["multiplier"]) == (total, capped, mult)
    assert r.settlement == settlement


def test_two_player_string_with_pin_rejected():
    with pytest.raises(RuleSetError):
        mjfast.score("123456789m234p55m", rules="two_player", self_drawn=True)


def test_score_table_tuidaohu():
    import polars as pl
    df = pl.DataFrame({"hand": ["123456789m234m55m|EE1000", "11m33m55p77p99sPPEE", "123m"]})
    out = mjfast.score_table(df, rules="tuidaohu")
    assert out["total"].to_list() == [9, 5, None]


def test_cli_score_json():
    from typer.testing import CliRunner
    from mjfast.cli import app
    res = CliRunner().invoke(app, ["score", "[EEEE][CCC]FFFPPNNP", "--rules", "two_player",
                                   "--tsumo", "--base", "100", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert d["total"] == 22 and d["capped"] == 6 and d["multiplier"] == 32
    assert d["settlement"] == {"E": 3420, "S": -3600}
    assert d["gross"] == {"E": 3600, "S": -3600} and d["fee"] == {"E": 180, "S": 0}
    res = CliRunner().invoke(app, ["score", "[EEE,2][9999p,3]111p333pPP", "--rules", "tuidaohu",
                                   "--discarder", "W", "--base", "100"])
    assert res.exit_code == 0, res.output
    assert "E +3500" in res.output
