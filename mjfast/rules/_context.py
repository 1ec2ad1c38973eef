"""The rule context: one rule set and variant, resolved once at the edge.

A :class:`RuleContext` is built once, where a rule set enters the program (CLI option
parsing, a job spec, a public call), from ``(rules, variant)`` by :func:`rule_context`,
and handed down: no layer below resolves a name again. It is immutable and carries:

- ``rules``: the canonical rule-set name (``mcr``, ``taiwan``, ``tuidaohu``,
  ``two_player``); ``structure``: its :class:`~mjfast.rules.registry.RuleSet`;
- ``variant``: the variant's label, the dataset partition key (``default``, ``botzone``,
  ``house`` for a file ``mcr.house.toml`` of your own);
- ``variant_id``: a stable id, ``<rules>:<label>`` (``mcr:botzone``);
- ``variant_file``: the variant file (a bundled variant: its file name; a file of your
  own: its absolute path; the default: None) and ``files``: every rule file read, with its
  SHA-256;
- ``content_hash``: the profile's content hash (:meth:`RuleProfile.content_hash`): equal
  for equal rules whatever the file names, comments or key order;
- ``profile``: the one :class:`~mjfast.rules.RuleProfile` (rows, values, exclusions, the
  kernel arrays); ``params``: the settlement and engine parameters (a read-only mapping,
  ``players`` included); ``names``: fan id -> :class:`FanName` (en, zh, ja);
- ``key``: what the loaders take (None, a bundled variant's name, or the file's path):
  the output of :func:`variant_key`, the one normaliser.

**"No variant"** has one meaning: the rules the data was produced under
(:func:`produced_variant`): Botzone logs (text and JSON) were judged under ``botzone``
(MCR); the project's own events under what their dataset's manifest (or JSON lines
header) records; generated hands and simulations under ``default``.

Datasets record the contexts they were written with (:meth:`RuleContext.record`, in the
manifest); :meth:`RuleContext.from_record` rebuilds a context from such a record, from
the recorded content and not from today's files, so an analysis of an old dataset shows
what it was written with.
"""
from __future__ import annotations

import functools
import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping, NamedTuple

from ..errors import RuleSetError
from ._profile import BASE_FILE, BUILTIN_VARIANT, RuleProfile, get_profile, profile_from_dict
from ._table import RULES_DIR, available_variants
from .registry import RuleSet, get_rules

DEFAULT = "default"
"""The label of a rule set's base tables (no variant file)."""

_NO_VARIANT = ("", "none", "default", "official")

# what produced the data -> the variant it was produced under (MCR; other rule sets: default)
_PRODUCED = {"botzone": "botzone", "botzone-json": "botzone"}


class FanName(NamedTuple):
    """A fan's names: English, Chinese, Japanese (labels only: code keys on ids)."""
    en: str
    zh: str
    ja: str


def _looks_like_path(text: str) -> bool:
    return text.lower().endswith(".toml") or "/" in text or "\\" in text or os.sep in text


def bundled_variants(rules: str) -> list[str]:
    """The names of the variant files shipped for ``rules`` (``mcr``: botzone, seed)."""
    return list(_bundled(get_rules(rules).name))


@functools.lru_cache(maxsize=None)
def _bundled(name: str) -> tuple[str, ...]:
    """:func:`bundled_variants`, the package folder listed once per process (every call
    that names a variant asks; a listing was most of a small batch's cost)."""
    if name in BUILTIN_VARIANT:           # two_player is itself the variant of tuidaohu
        return ()
    return tuple(v for v in available_variants(BASE_FILE[name])
                 if v not in BUILTIN_VARIANT.values())


def variant_key(rules: str | RuleSet, variant: str | os.PathLike | None) -> str | None:
    """THE variant normaliser: what the loaders take for ``variant`` of ``rules``.

    - ``None``, ``""``, ``"none"``, ``"default"``, ``"official"`` -> None (the base tables);
    - a path (ends in ``.toml`` or holds a path separator) -> the file's absolute path,
      case kept (``~`` expanded); a bundled file given by path
      (``mjfast/rules/mcr.seed.toml``) -> its name (``seed``); a missing file is an error;
    - a name -> lower case, one of :func:`bundled_variants` (else an error naming them).

    Raises :class:`~mjfast.errors.RuleSetError`."""
    name = get_rules(rules).name
    if variant is None:
        return None
    text = os.fspath(variant) if isinstance(variant, os.PathLike) else variant
    if not isinstance(text, str):
        raise RuleSetError(repr(variant), None, "a variant is a name or the path of a .toml file")
    text = text.strip()
    if text.lower() in _NO_VARIANT:
        return None
    if isinstance(variant, os.PathLike) or _looks_like_path(text):
        p = Path(text).expanduser()
        if not p.is_file():
            raise RuleSetError(text, None, "rule variant file not found")
        p = p.resolve()
        base = BASE_FILE[name]
        if p.parent == RULES_DIR and p.name.startswith(f"{base}.") and p.name.count(".") == 2:
            stem = p.name[len(base) + 1:-len(".toml")]
            if name in BUILTIN_VARIANT and stem == BUILTIN_VARIANT[name]:
                return None                  # two_player's own file: its base tables
            if stem in bundled_variants(name):
                return stem
        if p.suffix.lower() != ".toml":
            raise RuleSetError(text, None, "a variant file is a .toml file")
        return str(p)
    key = text.lower()
    avail = bundled_variants(name)
    if key not in avail:
        raise RuleSetError(text, None, f"unknown {name} variant (available: "
                                       f"{', '.join(avail) or 'none'}; or give a .toml path)")
    return key


def produced_variant(rules: str | RuleSet, source: str | None) -> str | None:
    """The variant data of ``source`` was produced under (what "no variant" means):
    ``botzone`` / ``botzone-json`` logs of MCR -> ``botzone``; anything else
    (``hands``, ``simulate``, None) -> None, the default. The project's own events record
    theirs (the replay reads it from their manifest or header)."""
    name = get_rules(rules).name
    return _PRODUCED.get(source or "") if name == "mcr" else None


def _label(name: str, key: str | None) -> str:
    """The partition label of a variant key: ``default``, the bundled name, or the file's
    stem without the rule-set prefix (``mcr.house.toml`` -> ``house``)."""
    import re
    if key is None:
        return DEFAULT
    if not _looks_like_path(key):
        return key
    stem = Path(key).name[:-len(".toml")]
    base = BASE_FILE[name]
    for prefix in (f"{name}.", f"{base}."):
        if stem.startswith(prefix):
            stem = stem[len(prefix):]
            break
    return re.sub(r"[^A-Za-z0-9_.\-]+", "_", stem) or "variant"


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _files(name: str, key: str | None) -> tuple[tuple[str, str], ...]:
    """(file, SHA-256) of every rule file the context reads: the bundled ones by name, a
    file of your own by its path."""
    base = BASE_FILE[name]
    paths = [RULES_DIR / f"{base}.toml"]
    if name in BUILTIN_VARIANT:
        paths.append(RULES_DIR / f"{base}.{BUILTIN_VARIANT[name]}.toml")
    if key is not None:
        paths.append(Path(key) if _looks_like_path(key) else RULES_DIR / f"{base}.{key}.toml")
    return tuple((p.name if p.parent == RULES_DIR else str(p), _sha256(p)) for p in paths)


@dataclass(frozen=True, eq=False)
class RuleContext:
    """One rule set and variant, resolved once (see the module docstring). Build it with
    :func:`rule_context`; equal contexts compare equal by (id, content hash)."""
    rules: str
    variant: str
    key: str | None
    content_hash: str
    files: tuple[tuple[str, str], ...]
    profile: RuleProfile = field(repr=False)
    recorded: bool = field(default=False, repr=False)

    # ---- identity ---------------------------------------------------------------------
    @property
    def variant_id(self) -> str:
        """``<rules>:<label>``, e.g. ``mcr:botzone``."""
        return f"{self.rules}:{self.variant}"

    @property
    def variant_file(self) -> str | None:
        """The variant file: a bundled one's name, a file of your own's path; None for the
        default (two-player: its own file ``tuidaohu.two_player.toml``)."""
        if self.key is None:
            return self.files[-1][0] if self.rules in BUILTIN_VARIANT else None
        return self.files[-1][0]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RuleContext):
            return NotImplemented
        return (self.variant_id, self.content_hash) == (other.variant_id, other.content_hash)

    def __hash__(self) -> int:
        return hash((self.variant_id, self.content_hash))

    # ---- the data ---------------------------------------------------------------------
    @property
    def structure(self) -> RuleSet:
        """Tiles, hand size, sets, forms, players... (the registry's facts)."""
        return get_rules(self.rules)

    @functools.cached_property
    def params(self) -> Mapping[str, Any]:
        """The settlement and engine parameters (read-only; ``players`` included)."""
        return MappingProxyType(dict(self.profile.settlement))

    @functools.cached_property
    def names(self) -> Mapping[int, FanName]:
        """Fan id -> :class:`FanName` (read-only)."""
        return MappingProxyType({r.id: FanName(r.en, r.zh, r.ja) for r in self.profile.rows})

    def kernel_args(self) -> tuple:
        """The scorers' profile arrays (:meth:`RuleProfile.kernel_args`)."""
        return self.profile.kernel_args()

    # ---- the compiled side ------------------------------------------------------------
    # The compiled code receives this context as ONE int64 array whose layout the
    # compiled layer owns: ``mjfast.kernels.context_of(ctx.profile)``, built once per
    # profile (the engine's ``make_context(ctx)`` does it). The rules layer sits below the
    # compiled one and does not build it; the profile is all the compiled side reads.

    # ---- what a dataset records ---------------------------------------------------------
    def manifest(self) -> dict[str, Any]:
        """The short form a job's config and manifest pin: rules, variant, id, content
        hash, the variant file (bundled: its name; yours: its file name) and every rule
        file's SHA-256 by file name."""
        vf = self.variant_file
        return {"rules": self.rules, "variant": self.variant, "id": self.variant_id,
                "hash": self.content_hash, "file": None if vf is None else Path(vf).name,
                "files": [{"file": Path(f).name, "sha256": h} for f, h in self.files]}

    def record(self) -> dict[str, Any]:
        """Everything a dataset records of its rules (the manifest's ``rules`` list): the
        :meth:`manifest` fields with the variant file's path and the whole profile
        (:meth:`RuleProfile.to_dict`: rows with names and values, parameters,
        exclusions), from which :meth:`from_record` rebuilds this context."""
        return {**self.manifest(), "file": self.variant_file,
                "files": [{"file": f, "sha256": h} for f, h in self.files],
                "profile": self.profile.to_dict()}

    @property
    def arg(self) -> str | None:
        """What the loaders take for this context (:attr:`key`). A context rebuilt from a
        dataset's record whose content no file of today holds has none: an error naming
        it (give the variant file it was written with)."""
        if self.recorded:
            raise RuleSetError(self.variant_id, None,
                               f"the dataset's rules {self.variant_id} (hash "
                               f"{self.content_hash}) are in no rule file of this "
                               "installation: give the variant file they were written with")
        return self.key

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> "RuleContext":
        """The context a dataset recorded (:meth:`record`), rebuilt from the recorded
        content (never today's files; its hash is checked against the recorded one). When
        today's bundled variant of that label holds the same content, that (loadable)
        context is returned instead."""
        try:
            rules, label, digest = record["rules"], str(record["variant"]), record["hash"]
            name = get_rules(rules).name
            key = None if label == DEFAULT else label
            if key is None or key in bundled_variants(name):
                live = rule_context(name, key)
                if live.content_hash == digest:
                    return live
            prof = profile_from_dict(record["profile"], label)
        except (KeyError, TypeError) as exc:
            raise RuleSetError("record", None, f"not a rule-context record ({exc})") from None
        if prof.content_hash() != digest:
            raise RuleSetError(f"{rules}:{label}", None,
                               f"the recorded rules do not match their hash {digest}")
        files = tuple((f["file"], f["sha256"]) for f in record.get("files", ()))
        return cls(name, label, None, digest, files, prof, True)


@functools.lru_cache(maxsize=None)
def _build(name: str, key: str | None, stamp: tuple | None) -> RuleContext:
    prof = get_profile(name, key)
    return RuleContext(name, _label(name, key), key, prof.content_hash(), _files(name, key),
                       prof)


def _stamp(key: str | None) -> tuple | None:
    """A variant file's (size, mtime): an edited file is loaded again."""
    if key is None or not _looks_like_path(key):
        return None
    st = Path(key).stat()
    return (st.st_size, st.st_mtime_ns)


def rule_context(rules: str | RuleSet | RuleContext,
                 variant: str | os.PathLike | RuleContext | None = None, *,
                 source: str | None = None) -> RuleContext:
    """THE constructor: the :class:`RuleContext` of ``rules`` and ``variant`` (a bundled
    name, the path of a ``.toml`` file, or None). ``variant`` None means the variant the
    data was produced under (:func:`produced_variant` of ``source``). Built once per
    process and (rules, variant) (an edited variant file is read again). A context given
    as ``rules`` (or as ``variant``, of the same rule set) is returned as it is."""
    named = (source is None and type(rules) is str
             and (variant is None or (type(variant) is str and not _looks_like_path(variant))))
    if named:       # a bundled variant (or none) of a rule set named as a string
        asked = (rules, variant)
        got = _NAMED.get(asked)
        if got is not None:
            return got
    if isinstance(rules, RuleContext):
        if variant is not None and variant_key(rules.rules, variant) != rules.key:
            raise RuleSetError(str(variant), None,
                               f"the rule context is {rules.variant_id}, not this variant")
        return rules
    name = get_rules(rules).name
    if isinstance(variant, RuleContext):
        if variant.rules != name:
            raise RuleSetError(variant.variant_id, None, f"a {variant.rules} rule context "
                                                         f"where {name} rules are needed")
        return variant
    if variant is None:
        variant = produced_variant(name, source)
    key = variant_key(name, variant)
    ctx = _build(name, key, _stamp(key))
    if named:
        _NAMED[asked] = ctx
    return ctx


# rule_context of (rules name, bundled variant name or None) as called: nothing to stat,
# nothing to normalise again (a one-hand call asks for its context every time)
_NAMED: dict[tuple[str, str | None], RuleContext] = {}


__all__ = ["DEFAULT", "FanName", "RuleContext", "bundled_variants", "produced_variant",
           "rule_context", "variant_key"]
