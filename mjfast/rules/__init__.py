"""Rule sets as data: one file per rule set, the registry of structural facts, and the one
rule profile the scorers read (:func:`get_profile`)."""
from ._mask import without_fans
from ._profile import RuleProfile, get_profile
from .registry import RULESETS, RuleSet, get_rules

__all__ = ["RULESETS", "RuleSet", "get_rules", "RuleProfile", "get_profile",
           "without_fans"]
