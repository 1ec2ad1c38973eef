"""Job specs (small TOML files) and the rule contexts they name (resolved once, here)."""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mjfast.runner import SpecError

if TYPE_CHECKING:
    from mjfast.rules import RuleContext

HERE = Path(__file__).resolve().parent


def load_spec(path: str | Path | None, default: str, section: str) -> dict[str, Any]:
    """The ``[section]`` table of the spec file ``path`` on top of the job's default spec
    (``pipelines/<default>.toml``); unknown keys are an error."""
    base = tomllib.loads((HERE / f"{default}.toml").read_text())
    spec = dict(base.get(section, {}))
    spec.update({k: v for k, v in base.items() if k != section})
    if path is not None:
        p = Path(path)
        try:
            data = tomllib.loads(p.read_text())
        except FileNotFoundError:
            raise SpecError(str(p), None, "spec file not found") from None
        except tomllib.TOMLDecodeError as exc:
            raise SpecError(str(p), None, f"not valid TOML: {exc}") from None
        user = dict(data.get(section, {}))
        user.update({k: v for k, v in data.items() if k != section})
        unknown = sorted(set(user) - set(spec))
        if unknown:
            raise SpecError(str(p), None, f"unknown key(s) {unknown} (known: {sorted(spec)})")
        for k, v in user.items():
            if isinstance(spec[k], dict) and isinstance(v, dict):
                spec[k] = {**spec[k], **v}
            else:
                spec[k] = v
        spec["_path"] = str(p)
    return spec


def check_type(spec: dict[str, Any], key: str, kind, where: str = "spec"):
    v = spec.get(key)
    if kind is int and (isinstance(v, bool) or not isinstance(v, int)):
        raise SpecError(f"{key} = {v!r}", None, f"{key} must be an integer ({where})")
    if kind is not int and not isinstance(v, kind):
        raise SpecError(f"{key} = {v!r}", None, f"{key} has the wrong type ({where})")
    return v


def resolve_variant(rules: str, variant: str | None) -> RuleContext:
    """The :class:`~mjfast.rules.RuleContext` of a spec's rule set and variant (a bundled
    name or a ``.toml`` path; ``None`` / ``default``: the base tables), built once here at
    the edge; a bad name or a missing file is a :class:`SpecError`."""
    from mjfast.errors import RuleSetError
    from mjfast.rules import rule_context
    try:
        return rule_context(rules, variant)
    except RuleSetError as exc:
        raise SpecError(exc.text, exc.position, exc.reason) from None


__all__ = ["load_spec", "check_type", "resolve_variant"]
