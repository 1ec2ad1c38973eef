"""One scorer contract: the per-rule-set ``score_hand`` of the four rule sets take the same
arguments and answer an unknown or unused option the same way (typed errors)."""
from __future__ import annotations

import inspect

import pytest

from mjfast import parse_hand
from mjfast.errors import ArgumentError, RuleSetError, SituationError
from mjfast.scoring import SETTLEMENT_PARAMS, scorer_module

HANDS = {"mcr": "1112345678999m5m", "taiwan": "[123m,1]456m789p222s678s5m5m",
         "tuidaohu": "1112345678999m5m", "two_player": "1112345678999m5m"}


def _hand(rules):
    return parse_hand(HANDS[rules], rules=rules, self_drawn=True)


def test_same_signature():
    sigs = {str(inspect.signature(scorer_module(r).score_hand)) for r in HANDS}
    assert len(sigs) == 1, sigs


@pytest.mark.parametrize("rules", sorted(HANDS))
def test_unknown_and_unused_options_are_typed_errors(rules):
    fn = scorer_module(rules).score_hand
    with pytest.raises(SituationError, match="unknown option 'colour'"):
        fn(_hand(rules), colour="red")
    for name, value in (("base", 1), ("unit", 1), ("fee", 0.1), ("chips", 5),
                        ("eighth_flower", "N")):
        if name in SETTLEMENT_PARAMS[rules]:
            continue
        with pytest.raises(RuleSetError, match=f"does not use '{name}'"):
            fn(_hand(rules), **{name: value})
    with pytest.raises(ArgumentError):
        fn(_hand(rules), base=-1)
    # None means "the table's default", for every rule set
    assert fn(_hand(rules), base=None).total == fn(_hand(rules)).total


def test_one_table_type():
    from mjfast.rules import RuleProfile
    from mjfast.scoring import mcr, taiwan, tuidaohu
    tables = [scorer_module(r).FAN_TABLE for r in HANDS] + list(tuidaohu.FAN_TABLES.values())
    tables += [mcr.rule_table("botzone"), taiwan.get_table(), tuidaohu.get_table("two_player")]
    assert {type(t) for t in tables} == {RuleProfile}
    for t in tables:
        assert len(t) == len(t.rows) and t[t.rows[0].id] is t.rows[0]
        assert t.n_cols == len(t.kernel_args()[1])
