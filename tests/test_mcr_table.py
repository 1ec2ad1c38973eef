"""The MCR rule table (mjfast/rules/mcr.toml) and the generic rule-table loader."""
from __future__ import annotations

import csv

import pytest

from mjfast.errors import RuleSetError
from mjfast.rules._table import load_table


def test_mcr_table_matches_reference_ids(shared_dir):
    t = load_table("mcr")
    ref = {int(r["id"]): r for r in csv.DictReader(
        open(shared_dir / "data" / "mcr" / "fan_table_reference.tsv", encoding="utf-8"), delimiter="\t")}
    assert sorted(r.id for r in t.rows) == list(range(1, 83))
    for r in t.rows:
        assert r.zh == ref[r.id]["chinese_name"]
        assert r.en == ref[r.id]["english_name"]
        assert r.points == int(ref[r.id]["points"])
        assert r.ja and r.source


def test_official_values_and_variant():
    t = load_table("mcr")
    assert t.row("two_concealed_kongs").points == 6      # RULES-NOTES: official 6, seed says 8
    assert t.row("two_dragons_pungs").points == 6
    assert not t.row(82).enabled and t.points_array()[82] == 0
    b = load_table("mcr", "botzone")
    assert b.row(82).enabled and b.points_array()[82] == 5
    assert b.variant == "botzone"
    with pytest.raises(RuleSetError):
        load_table("mcr", "nosuch")


def test_order_is_topological():
    t = load_table("mcr")
    pos = {i: k for k, i in enumerate(t.order)}
    for r in t.rows:
        if r.enabled:
            for b in r.excludes:
                assert pos[r.id] < pos[b]


def _write(tmp_path, name, text):
    (tmp_path / name).write_text(text, encoding="utf-8")


ROW = 'id = {id}\nkey = "k{id}"\npoints = 1\nen = "e"\nzh = "z"\nja = "j"\nsource = "s"\nexcludes = {exc}\n'


def test_loader_rejects_cycles_and_unknown(tmp_path):
    _write(tmp_path, "x.toml", "[[row]]\n" + ROW.format(id=1, exc="[2]") + "[[row]]\n" + ROW.format(id=2, exc="[1]"))
    with pytest.raises(RuleSetError, match="cycle"):
        load_table("x", directory=tmp_path)
    _write(tmp_path, "y.toml", "[[row]]\n" + ROW.format(id=1, exc="[5]"))
    with pytest.raises(RuleSetError, match="unknown row"):
        load_table("y", directory=tmp_path)
    _write(tmp_path, "z.toml", "[[row]]\n" + ROW.format(id=1, exc="[]"))
    with pytest.raises(RuleSetError, match="predicate"):
        load_table("z", directory=tmp_path, predicates=["other"])


def test_variant_overrides_and_extra_fields(tmp_path):
    _write(tmp_path, "x.toml", "[params]\na = 1\n[[row]]\n" + ROW.format(id=1, exc="[]") + "cap = 3\n"
           + "[[row]]\n" + ROW.format(id=2, exc="[]"))
    _write(tmp_path, "x.v.toml", "[params]\na = 2\n[rows.1]\npoints = 9\n[rows.2]\nenabled = false\n"
           "[[row]]\n" + ROW.format(id=3, exc="[1]"))
    t = load_table("x", "v", directory=tmp_path)
    assert t.params["a"] == 2 and t.row(1).points == 9 and not t.row(2).enabled
    assert t.row(1).get("cap") == 3 and t.row(3).excludes == (1,)
    assert t.points_array()[2] == 0
