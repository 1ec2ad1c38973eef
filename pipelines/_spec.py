"""Job specs (small TOML files) and rule-set / variant resolution with file hashes."""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._core import SpecError

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


@dataclass(frozen=True)
class Variant:
    """A rule set + variant as a job uses it: ``name`` (the partition key), ``arg`` (what
    the scorers take: None, a bundled variant's name or a file path) and the rule files
    with their SHA-256 (for the manifest)."""
    rules: str
    name: str
    arg: str | None
    files: tuple[tuple[str, str], ...]

    def manifest(self) -> dict[str, Any]:
        return {"rules": self.rules, "variant": self.name,
                "files": [{"file": f, "sha256": h} for f, h in self.files]}


_SAFE = re.compile(r"[^A-Za-z0-9_.\-]+")


def resolve_variant(rules: str, variant: str | None) -> Variant:
    """Resolve a variant given by name (``botzone`` for ``mjfast/rules/mcr.botzone.toml``)
    or by path (a ``.toml`` file); ``None`` / ``default`` is the base rule file."""
    from mjfast.datasets import file_sha256
    from mjfast.rules._table import RULES_DIR
    from mjfast.rules.registry import get_rules
    rs = get_rules(rules).name
    base_files = ([RULES_DIR / "tuidaohu.toml", RULES_DIR / "tuidaohu.two_player.toml"]
                  if rs == "two_player" else [RULES_DIR / f"{rs}.toml"])
    base_files = [p for p in base_files if p.exists()]

    def files(extra=()):
        return tuple((p.name, file_sha256(p)) for p in [*base_files, *extra])

    if variant is None or str(variant).lower() in ("", "default", "none", "official"):
        return Variant(rs, "default", None, files())
    text = str(variant)
    looks_path = "/" in text or text.endswith(".toml") or Path(text).exists()
    if not looks_path:
        f = RULES_DIR / f"{rs if rs != 'two_player' else 'tuidaohu'}.{text.lower()}.toml"
        if not f.exists():
            from mjfast.rules._table import available_variants
            avail = available_variants(rs if rs != "two_player" else "tuidaohu")
            raise SpecError(text, None, f"unknown {rs} variant (available: "
                            f"{', '.join(avail) or 'none'}; or give a .toml path)")
        return Variant(rs, text.lower(), text.lower(), files([f]))
    p = Path(text).expanduser()
    if not p.is_file():
        raise SpecError(text, None, "variant file not found")
    p = p.resolve()
    if p.parent == RULES_DIR.resolve() and p.name.startswith(f"{rs}.") and p.name.count(".") == 2:
        name = p.name[len(rs) + 1:-5]
        return Variant(rs, name, name, files([p]))
    stem = p.name[:-5] if p.name.endswith(".toml") else p.name
    if stem.startswith(f"{rs}."):
        stem = stem[len(rs) + 1:]
    name = _SAFE.sub("_", stem) or "variant"
    return Variant(rs, name, str(p), files([p]))


__all__ = ["load_spec", "check_type", "Variant", "resolve_variant"]
