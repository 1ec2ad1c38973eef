"""Rule sets as data: one file per rule set plus the registry of structural facts."""
from .registry import RULESETS, RuleSet, get_rules

__all__ = ["RULESETS", "RuleSet", "get_rules"]
