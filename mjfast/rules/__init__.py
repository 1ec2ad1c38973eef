"""Rule sets as data: one file per rule set, the registry of structural facts, and the one
rule profile the scorers read (:func:`get_profile`)."""
from ._profile import RuleProfile, get_profile
from .registry import RULESETS, RuleSet, get_rules

__all__ = ["RULESETS", "RuleSet", "get_rules", "RuleProfile", "get_profile"]

# the rule context: one rule set and variant resolved once at the edge (docs/INTERNALS.md).
# Loaded on first use (PEP 562): the compiled layer imports this package, and its kernel
# cache follows module-level imports, so the context's module stays out of its closure.
_CONTEXT_NAMES = ("DEFAULT", "FanName", "RuleContext", "bundled_variants", "produced_variant",
                  "rule_context", "variant_key")
__all__ += ["Decision", "check_decisions", *_CONTEXT_NAMES]
from ._profile import Decision, check_decisions  # noqa: E402


def __getattr__(name: str):
    if name in _CONTEXT_NAMES:
        from . import _context
        value = getattr(_context, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
