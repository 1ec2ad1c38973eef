"""Rule sets as data: one file per rule set, the registry of structural facts, and the one
rule profile the scorers read (:func:`get_profile`).

The profile's kernel arrays (``RuleProfile.kernel_args()``) have a fixed layout that the
compiled layer reads: ``PROFILE_FIELDS`` (indices ``P_*``) and the ``ints`` slots ``I_*``,
exported here with the scorer family codes ``CODE_*`` and the predicate keys of each
scorer (``*_KEYS``, the kernels' column order). :func:`without_fans`: a profile with
some rows switched off, in memory (the studies' pivotal share); loaded on first use, so
that its module stays out of the compiled kernels' cache stamps (they import this face)."""
from ._profile import (CODE_MCR, CODE_TAIWAN, CODE_TUIDAOHU, I_CODE, I_EARLY, I_FLOWER_COL,
                       I_FLOWERS_TO_MIN, I_FORM_MASK, I_HEAVEN, I_KONG_COMBO, I_MINIMUM,
                       I_NCOLS, I_PLAYERS, I_VERY_EARLY, I_WIND_ONCE, P_COL, P_EXCL,
                       P_EXCL_BITS, P_EXCLUDERS, P_INTS, P_LIVE, P_OFF, P_POINTS, P_RED_N, P_RED_T,
                       P_RED_UNLESS, P_REDUCERS, P_TOPO, PROFILE_FIELDS, RULES_CODE,
                       RuleProfile, get_profile)
from ._keys import MCR_KEYS, PREDICATE_KEYS, TAIWAN_KEYS, TUIDAOHU_KEYS
from .registry import RULESETS, RuleSet, get_rules

__all__ = ["RULESETS", "RuleSet", "get_rules", "RuleProfile", "get_profile",
           "PROFILE_FIELDS", "RULES_CODE", "CODE_MCR", "CODE_TAIWAN", "CODE_TUIDAOHU",
           "P_INTS", "P_POINTS", "P_TOPO", "P_EXCL", "P_REDUCERS", "P_RED_T", "P_RED_N",
           "P_RED_UNLESS", "P_COL", "P_LIVE", "P_OFF", "P_EXCLUDERS",
           "P_EXCL_BITS",
           "I_CODE", "I_NCOLS", "I_MINIMUM", "I_KONG_COMBO", "I_HEAVEN", "I_FORM_MASK",
           "I_VERY_EARLY", "I_EARLY", "I_PLAYERS", "I_FLOWER_COL", "I_WIND_ONCE",
           "I_FLOWERS_TO_MIN", "without_fans",
           "MCR_KEYS", "TAIWAN_KEYS", "TUIDAOHU_KEYS", "PREDICATE_KEYS"]

# the rule context: one rule set and variant resolved once at the edge (docs/INTERNALS.md).
# Loaded on first use (PEP 562), like without_fans: the compiled layer imports this
# package, and its kernel cache follows module-level imports, so these modules stay out of
# its closure.
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
    if name == "without_fans":
        from ._mask import without_fans
        globals()["without_fans"] = without_fans
        return without_fans
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
