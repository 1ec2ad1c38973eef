"""The rule context: one normaliser, built once, immutable, recorded and rebuilt."""
from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import pytest

from mjfast.errors import RuleSetError
from mjfast.rules import (RuleContext, bundled_variants, get_profile, produced_variant,
                          rule_context, variant_key)

RULES_DIR = Path(__file__).resolve().parents[1] / "mjfast" / "rules"


def _user_variant(path: Path, points: int = 5) -> Path:
    path.write_text(f'[variant]\nname = "house"\n[rows.82]\nenabled = true\npoints = {points}\n')
    return path


@pytest.mark.parametrize("given", [None, "", "default", "DEFAULT", "none", "official"])
def test_no_variant_is_the_base_tables(given):
    assert variant_key("mcr", given) is None
    assert rule_context("mcr", given if given is not None else "default").variant == "default"


def test_one_normaliser_for_names_and_paths(tmp_path):
    assert variant_key("mcr", "Botzone") == "botzone"
    assert variant_key("mcr", str(RULES_DIR / "mcr.seed.toml")) == "seed"
    assert variant_key("mcr", RULES_DIR / "mcr.botzone.toml") == "botzone"
    mine = _user_variant(tmp_path / "My.House.toml")
    assert variant_key("mcr", str(mine)) == str(mine.resolve())      # case kept, absolute
    os.chdir(tmp_path)
    assert variant_key("mcr", "My.House.toml") == str(mine.resolve())
    assert variant_key("two_player", RULES_DIR / "tuidaohu.two_player.toml") is None
    with pytest.raises(RuleSetError, match="available: botzone, .*seed"):
        variant_key("mcr", "nope")
    with pytest.raises(RuleSetError, match="not found"):
        variant_key("mcr", str(tmp_path / "missing.toml"))
    with pytest.raises(RuleSetError, match="unknown tuidaohu variant"):
        variant_key("tuidaohu", "two_player")      # a rule set of its own, not a variant
    assert bundled_variants("two_player") == []


def test_built_once_and_immutable(tmp_path):
    a = rule_context("mcr", "botzone")
    assert rule_context("MCR", "Botzone") is a
    assert rule_context("mcr", RULES_DIR / "mcr.botzone.toml") is a
    assert rule_context(a) is a and rule_context("mcr", a) is a
    with pytest.raises(RuleSetError):
        rule_context("taiwan", a)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.variant = "x"
    with pytest.raises(TypeError):
        a.params["minimum"] = 1
    with pytest.raises(TypeError):
        a.names[1] = None
    assert a.variant_id == "mcr:botzone" and a.variant_file == "mcr.botzone.toml"
    assert a.profile is get_profile("mcr", "botzone")
    assert a.content_hash == a.profile.content_hash()
    assert a.names[82].zh == "明暗杠" and a.params["players"] == 4
    assert a.structure.players == 4
    assert a != rule_context("mcr") and len({a, rule_context("mcr", "botzone")}) == 1


def test_no_variant_means_what_produced_the_data():
    assert produced_variant("mcr", "botzone") == "botzone"
    assert produced_variant("mcr", "botzone-json") == "botzone"
    assert produced_variant("mcr", "hands") is None
    assert produced_variant("mcr", "simulate") is None
    assert produced_variant("taiwan", "botzone") is None
    assert rule_context("mcr", source="botzone").variant == "botzone"
    assert rule_context("mcr", source="simulate").variant == "default"


def test_a_user_file_is_labelled_by_its_name_and_reloaded_when_edited(tmp_path):
    f = _user_variant(tmp_path / "mcr.house.toml", 5)
    a = rule_context("mcr", str(f))
    assert (a.variant, a.variant_id, a.variant_file) == ("house", "mcr:house", str(f))
    assert a.profile.by_id[82].points == 5
    st = f.stat()
    _user_variant(f, 6)
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    b = rule_context("mcr", str(f))
    assert b.profile.by_id[82].points == 6 and b.content_hash != a.content_hash


def test_a_record_rebuilds_the_context_without_its_file(tmp_path):
    f = _user_variant(tmp_path / "mcr.house.toml", 7)
    live = rule_context("mcr", str(f))
    record = json.loads(json.dumps(live.record()))          # as a manifest holds it
    f.unlink()
    back = RuleContext.from_record(record)
    assert back == live and back.recorded
    assert back.names == live.names and dict(back.params) == dict(live.params)
    assert back.profile.by_id[82].points == 7
    with pytest.raises(RuleSetError, match="no rule file"):
        back.arg
    # a bundled variant's record gives the loadable context back
    assert RuleContext.from_record(rule_context("mcr", "botzone").record()) is \
        rule_context("mcr", "botzone")
    record["profile"]["rows"][0]["points"] += 1
    with pytest.raises(RuleSetError, match="do not match"):
        RuleContext.from_record(record)
