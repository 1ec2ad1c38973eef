"""What the first screen says: the study's question, its sources and sample sizes, and its
headline findings, as plain data (:class:`StudySummary`, :class:`Finding`) that the page and
the terminal render.

Analyses supply findings: :func:`findings_from_compare` reads the ``compare`` table
today; a study analysis can hand :func:`mjfast.report.headline_html` (or ``Report``'s
``findings``) its own list of :class:`Finding`. Reads results; computes no statistics,
except the detectable difference below when the analysis does not give one.

**Detectable difference.** The smallest true difference the sample would find at 95%
confidence with 80% power: ``(z(0.975) + z(0.80)) x se = 2.80 x se``, from the standard
error of the estimate. An analysis that knows better (clustered by wall, a sample-size
analysis) gives it in a ``detectable`` column, which is used as is.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

import polars as pl

from . import _format as F

Z_POWER = 1.959963984540054 + 0.8416212335729143      # 95% two-sided, 80% power
DETECTABLE_COLUMNS = ("detectable", "mdd", "min_detectable", "detectable_diff")


@dataclass(frozen=True)
class Finding:
    """One headline number: ``name`` (what it is), ``estimate`` and its 95% ``interval``
    (lo, hi), ``unit`` (a kind of :mod:`mjfast.report._format`: ``pp`` a difference of
    rates, ``dpoints``, ``pct``...), ``sample`` (what it rests on, in words: "19 paired
    deals"), ``detectable`` (the smallest difference the sample can detect, same unit;
    None when unknown), ``note`` (how to read it), and the group it belongs to."""
    name: str
    estimate: float | None
    interval: tuple[float | None, float | None] | None
    unit: str
    sample: str
    detectable: float | None = None
    note: str = ""
    rules: str = ""
    variant: str = ""
    reference: str = ""
    source: str = ""
    same: bool = False          # identical under both variants (said once)
    # the levels behind a difference (same kind as ``level_unit``): under the variant and
    # under the reference, each with its interval when it has one
    value: float | None = None
    ref_value: float | None = None
    value_interval: tuple[float | None, float | None] | None = None
    ref_interval: tuple[float | None, float | None] | None = None
    level_unit: str | None = None
    group: str = ""             # the heading it is listed under (default: rules, source, variants)

    def significant(self) -> bool:
        if self.interval is None or None in self.interval:
            return False
        lo, hi = self.interval
        return lo > 0 or hi < 0


@dataclass(frozen=True)
class Source:
    """A source of the study's data and its sample: ``name`` (replay, simulate, hands),
    ``rules``, ``variants``, ``sample`` (rows of ``unit`` per variant), ``design``."""
    name: str
    rules: str
    variants: tuple[str, ...]
    sample: int | None
    unit: str
    design: str


@dataclass
class StudySummary:
    title: str
    question: str
    sources: list[Source] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


# -- findings from the compare table -----------------------------------------------------------
_PAIRED_NAMES = {"paired: draw": "Draws (paired per deal)",
                 "paired: win total": "Win total (paired per deal)",
                 "paired: dealer net": "Dealer's net payment (paired per deal)"}
_HEADLINE_UNPAIRED = ("win_rate", "deal_in_rate", "self_draw_rate", "draw_rate",
                      "dealer net payment", "mean_win_turn")
_NICE = {"win_rate": "Win rate", "deal_in_rate": "Deal-in rate",
         "self_draw_rate": "Self-draw rate", "draw_rate": "Draw rate",
         "dealer net payment": "Dealer's net payment per deal",
         "mean_win_turn": "Winning turn"}


def metric_label(metric: str) -> str:
    if metric in _PAIRED_NAMES:
        return _PAIRED_NAMES[metric]
    if metric in _NICE:
        return _NICE[metric]
    m = metric
    for pre, say in (("paired fan: ", "{} held (paired per deal)"),
                     ("fan share: ", "{}: share of wins")):
        if m.startswith(pre):
            return say.format(m[len(pre):])
    m = m.replace("_", " ")
    for a, b in (("high-low hands:", "High/low, hands:"), ("high-low turns:", "High/low, turns:"),
                 ("high-low:", "High/low:"), ("ev hands:", "EV, hands:"),
                 ("ev turns:", "EV, turns:"), ("share all high", "share all high"),
                 ("low share of live tiles", "low share of live winning tiles")):
        if m.startswith(a) or a in m:
            m = m.replace(a, b, 1)
    return m[:1].upper() + m[1:]


def sample_unit(metric: str, paired: bool) -> str:
    """What a compare metric counts (the ``n`` of its row)."""
    m = metric.lower()
    if paired:
        return "paired hands" if "hand" in m else "paired deals"
    if "live" in m:
        return "live tiles"
    if m in ("win_rate", "self_draw_rate", "deal_in_rate"):
        return "player-deals"
    if m in ("draw_rate", "dealer net payment"):
        return "deals"
    if m == "mean_win_turn" or m.startswith("fan share"):
        return "wins"
    if m.startswith(("high-low hands", "ev hands")):
        return "ready hands"
    if m.startswith(("high-low turns", "ev turns")):
        return "ready turns"
    if "live" in m:
        return "live tiles"
    if "player-deals" in m:
        return "player-deals"
    if "discards" in m:
        return "decisions"
    return "rows"


def _detectable(row: dict) -> float | None:
    for c in DETECTABLE_COLUMNS:
        if row.get(c) is not None:
            return float(row[c])
    se = row.get("se")
    return None if se is None or se == 0 else Z_POWER * float(se)


def compare_finding(row: dict) -> Finding:
    """One ``compare`` row as a finding (the difference against the reference)."""
    kind = F.metric_kind(row["metric"], row.get("unit"))
    dkind = F.DIFF.get(kind, F.NUMBER)
    paired = bool(row.get("paired"))
    n = row.get("n")
    what = str(row.get("sample_unit") or sample_unit(row["metric"], paired))
    sample = f"{n:,} {what}" if isinstance(n, int) else "–"
    if not paired and isinstance(n, int) and row.get("ref_n") is not None:
        sample = f"{n:,} vs {int(row['ref_n']):,} {what}"
    same = paired and (bool(row.get("same")) or (row.get("diff") == 0
                                                 and (row.get("se") in (0, 0.0, None))))
    note = ""
    if same:
        note = "same under both"
    elif not paired:
        note = "unpaired: different deals or hands under each variant"
    lo, hi = row.get("ci_low"), row.get("ci_high")
    label = row.get("label")          # compare's own label (a fan's with its name)
    label = label[:1].upper() + label[1:] if label else metric_label(row["metric"])
    return Finding(label, row.get("diff"),
                   None if lo is None and hi is None else (lo, hi), dkind, sample,
                   None if same else _detectable(row), note, str(row.get("rules") or ""),
                   str(row.get("variant") or ""), str(row.get("reference") or ""),
                   str(row.get("source") or ""), same)


_HANDS = ("ev hands: discard", "ev hands: self-draw", "high-low hands: share split",
          "high-low hands: share all_low", "high-low hands: low share of live tiles")


def findings_from_compare(df: pl.DataFrame | None, max_fans: int = 3,
                          mode: str | None = None,
                          headline: Sequence[str] | None = None) -> list[Finding]:
    """The headline findings of a ``compare`` table, per rule set (and source, when the
    table has one) and variant against the reference.

    Where the same deals were played or scored under both variants (paired rows), the
    headline holds the paired differences (those exactly zero said once, "same under
    both"), the fans whose paired share changed, and the hand-sample metrics; unpaired play
    rates, which then compare different deals, stay in the comparison section. Without
    paired rows: the main rates, then the fans whose share changed most (interval clear of
    zero). ``mode`` (the study's): under ``rescore`` the hand-sample metrics are the same
    hands under both variants, which the note says. ``headline`` (the study's metrics that
    answer its question): the paired findings are those metrics, in that order."""
    if df is None or df.height == 0 or "diff" not in df.columns:
        return []
    rows = [r for r in df.to_dicts() if r.get("variant") != r.get("reference")
            and r.get("diff") is not None]
    out: list[Finding] = []
    first = {"simulate": 0} if mode == "resimulate" else {}    # the study's own source first
    keys = sorted({(r["rules"], r.get("source") or "", r["variant"]) for r in rows},
                  key=lambda k: (str(k[0]), first.get(k[1], 1), str(k[1]), str(k[2])))
    for rules, source, variant in keys:
        grp = [r for r in rows if (r["rules"], r.get("source") or "", r["variant"])
               == (rules, source, variant)]
        is_fan = [("fan" in r["metric"]) for r in grp]
        paired = [r for r, f in zip(grp, is_fan) if r.get("paired") and not f]
        if headline:
            paired = sorted((r for r in paired if r["metric"] in headline),
                            key=lambda r: list(headline).index(r["metric"]))
        if paired:
            main = [r for r in grp if not r.get("paired") and r["metric"] in _HANDS]
            main.sort(key=lambda r: _HANDS.index(r["metric"]))
            fan_rows = [r for r, f in zip(grp, is_fan) if f and r.get("paired")]
        else:
            main = [r for r in grp if not r.get("paired") and r["metric"] in _HEADLINE_UNPAIRED]
            main.sort(key=lambda r: _HEADLINE_UNPAIRED.index(r["metric"]))
            fan_rows = [r for r, f in zip(grp, is_fan) if f]
        fans = [compare_finding(r) for r in fan_rows]
        fans = sorted((f for f in fans if f.significant() or (f.estimate and not f.same
                                                              and f.interval is None)),
                      key=lambda f: -abs(f.estimate or 0))[:max_fans]
        found = [compare_finding(r) for r in paired]
        for r in main:
            f = compare_finding(r)
            if paired and mode == "rescore":
                f = Finding(f.name, f.estimate, f.interval, f.unit, f.sample, f.detectable,
                            "the same hands under both variants; the interval treats them "
                            "as independent samples (wider than a paired one)", f.rules,
                            f.variant, f.reference, f.source, f.same)
            found.append(f)
        found += fans
        same = [f for f in found if f.same]
        out += [f for f in found if not f.same]
        if same:
            names = ", ".join(f.name.replace(" (paired per deal)", "").lower() for f in same)
            out.append(Finding(f"Same under both: {names}", 0.0, None, same[0].unit,
                               same[0].sample, None, "identical in every paired deal",
                               rules, variant, same[0].reference, source, True))
    return out


_SOURCE_WORDS = {"simulate": "simulated walls", "replay": "logged deals, rescored",
                 "hands": "ready-hand sample, rescored"}
_CLUSTER_WORDS = {"simulate": "walls", "replay": "logged deals"}


def _answer_sample(r: dict) -> str:
    what = str(r.get("sample_unit") or {"play": "deals", "fans": "deals", "seats": "deals",
                                         "hands": "hands", "decisions": "decisions"}.get(
        r.get("family"), "units"))
    paired = "" if r.get("reference") is None or what.startswith("paired") else "paired "
    s = f"{r['n_units']:,} {paired}{what}"
    nc = r.get("n_clusters")
    if nc and nc != r["n_units"]:
        s += f" on {nc:,} {_CLUSTER_WORDS.get(r.get('source'), 'clusters')}"
    return s


def findings_from_answer(answer: pl.DataFrame | None) -> list[Finding]:
    """The headline findings of a study's answer (:func:`mjfast.analytics.study_answer`):
    one finding per paired metric and variant, with both levels and the difference, its
    interval, the sample (units and walls) and the difference the sample can detect;
    results identical under both variants said once per source; the dealer's compensation
    one finding per source, its level under each variant with its interval."""
    if answer is None or answer.height == 0:
        return []
    out: list[Finding] = []
    rows = answer.to_dicts()
    refs = {(r["rules"], r["source"]): r["reference"] for r in rows if r.get("reference")}
    study_ref = next(iter(refs.values()), None)
    seen: list[tuple] = []
    for r in rows:
        k = (r["rules"], r["source"], r["reference"] is None)
        if k not in seen:
            seen.append(k)
    for rules, source, levels in seen:
        grp = [r for r in rows if (r["rules"], r["source"], r["reference"] is None)
               == (rules, source, levels)]
        where = f"{rules} · {source} ({_SOURCE_WORDS.get(source, source)})"
        if levels:                # the dealer's compensation under each variant
            ref = refs.get((rules, source), study_ref)
            by_v = {r["variant"]: r for r in grp}
            base = by_v.get(ref)
            for v, r in by_v.items():
                if v == ref and len(by_v) > 1:
                    continue
                other = base if base is not None and v != ref else None
                note = "paid to (+) or by (-) the dealer for equal expectations"
                if other is not None and all(r.get(x) == other.get(x)
                                             for x in ("value", "ci_low", "ci_high")):
                    other = None               # identical under both: said once
                    note = f"the same under {ref} and {v}; " + note
                kind = F.DPOINTS
                label = str(r["label"]).replace(" (equal expectations)", "")
                out.append(Finding(
                    label[:1].upper() + label[1:], None, None, kind, _answer_sample(r),
                    max(x for x in (r.get("mde"), other and other.get("mde")) if x is not None)
                    if r.get("mde") is not None else None,
                    note, str(rules),
                    str(v),
                    str(ref or ""), str(source), False, r["value"],
                    other["value"] if other else None, (r["ci_low"], r["ci_high"]),
                    (other["ci_low"], other["ci_high"]) if other else None, kind,
                    f"{where}: seat advantage"))
            continue
        same = [r for r in grp if r.get("same")]
        for r in grp:
            if r.get("same"):
                continue
            kind = F.metric_kind(str(r["metric"]), r.get("unit"))
            label = str(r["label"])
            out.append(Finding(
                label[:1].upper() + label[1:], r["diff"], (r["ci_low"], r["ci_high"]),
                F.DIFF.get(kind, F.NUMBER), _answer_sample(r), r.get("mde"), "",
                str(rules), str(r["variant"]), str(r["reference"]), str(source), False,
                r["value"], r["ref_value"], None, None, kind,
                f"{where}: {r['variant']} against {r['reference']}"))
        if same:
            r = same[0]
            kind = F.metric_kind(str(r["metric"]), r.get("unit"))
            names = ", ".join(str(x["label"]) for x in same)
            out.append(Finding(
                f"Same under both: {names}", 0.0, None, F.DIFF.get(kind, F.NUMBER),
                _answer_sample(r), None, "identical in every paired unit", str(rules),
                str(r["variant"]), str(r["reference"]), str(source), True,
                group=f"{where}: {r['variant']} against {r['reference']}"))
    return out


def compare_notes(df: pl.DataFrame | None) -> list[str]:
    """What the headline leaves out of a comparison, in a sentence."""
    if df is None or df.height == 0:
        return []
    sub = df.filter(pl.col("variant") != pl.col("reference"))
    if "pairing" in sub.columns:       # the studies' compare: levels are not comparisons
        sub = sub.filter(pl.col("pairing") != "all")
    if sub.filter(pl.col("paired")).height and sub.filter(~pl.col("paired")).height:
        return ["Unpaired differences of play (win, deal-in, draw rates, fan shares of wins) "
                "compare different deals under each variant here, not a rule effect; they "
                "are listed under Rule comparison, not in the headline."]
    return []


# -- the study: question and sources ------------------------------------------------------------
def _manifest(path: Path) -> dict[str, Any]:
    p = path / "manifest.json"
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _variant_names(variants: Iterable[Any]) -> list[str]:
    out = []
    for v in variants or []:
        out.append(str(v.get("variant") or v.get("name") or v) if isinstance(v, dict)
                   else str(v))
    return out


def study_config(dataset: Path) -> dict[str, Any]:
    """The study's config from the dataset's manifest (empty when there is none)."""
    man = _manifest(dataset)
    return man.get("config", {}) if isinstance(man.get("config"), dict) else {}


def study_summary(dataset: Path, results: dict[str, pl.DataFrame],
                  counts: dict[str, int], findings: Sequence[Finding],
                  notes: Sequence[str] = ()) -> StudySummary:
    """The first screen's data: from the dataset's manifest (the study's name, question,
    mode, rule set, variants and sources) and the analyses' sample sizes."""
    man = _manifest(dataset)
    cfg = man.get("config", {}) if isinstance(man.get("config"), dict) else {}
    rules = cfg.get("rules")
    variants = _variant_names(cfg.get("variants", []))
    mode = cfg.get("mode")
    name = cfg.get("name") or man.get("job") or dataset.name
    question = cfg.get("question") or ""
    if not question:
        if rules and len(variants) >= 2:
            others = ", ".join(variants[1:])
            srcs = set(cfg.get("sources") or {})
            what = " and ".join(w for w, k in (("deals", "replay"), ("hands", "hands"))
                                if k in srcs) or "data"
            how = {"rescore": f"the same {what} scored under each variant, paired",
                   "resimulate": "the same walls played again under each variant"}.get(
                mode, "each variant's own data")
            question = (f"How does {rules.upper()} under {others} differ from "
                        f"{variants[0]}? ({how})")
        elif rules:
            question = f"What does play under {rules.upper()} look like?"
        else:
            question = "What do these games and hands show?"
    if cfg and rules and len(variants) >= 2:
        title = f"mjfast study {name}: {rules.upper()}, {' vs '.join(variants)}"
    elif cfg:
        title = f"mjfast study {name}"
    else:
        title = f"mjfast report: {dataset.name}"
    sources = _sources(man, results)
    notes_ = []
    if mode == "rescore" and "simulate" in (cfg.get("sources") or {}):
        notes_.append("The simulations run once per rule set under its default variant: "
                     "context, not part of the comparison.")
    return StudySummary(title, question, sources, list(findings), list(notes) + notes_)


_DESIGN = {"replay": ("the same logged deals under each variant (paired)", "logged deals"),
           "simulate": ("the same walls under each variant (paired)",
                        "context (default variant only)"),
           "hands": ("the same generated hands under each variant (paired)",
                     "generated hands")}


def _sources(man: dict, results: dict[str, pl.DataFrame]) -> list[Source]:
    """Sources and sample sizes from the manifest's shard markers: per source (the shard
    key's first word), rule set and variant, the rows of deals (replay, simulate) or hands
    written. Without a manifest: each rule set's deals from the play statistics."""
    sizes: dict[tuple[str, str], dict[str, int]] = {}
    units: dict[tuple[str, str], str] = {}
    for key, m in (man.get("shards") or {}).items():
        if not isinstance(m, dict):
            continue
        p = m.get("params") or {}
        src, rules, variant = key.split("-")[0], p.get("rules"), p.get("variant")
        rows = m.get("rows") or {}
        unit = "deals" if "deals" in rows else (m.get("primary") or "rows")
        if rules is None or variant is None:
            continue
        k = (src, str(rules))
        sizes.setdefault(k, {})
        sizes[k][str(variant)] = sizes[k].get(str(variant), 0) + int(rows.get(unit, 0))
        units[k] = unit
    out = []
    for (src, rules), per in sorted(sizes.items()):
        vs = tuple(sorted(per, key=lambda v: (v != "default", v)))
        ns = sorted(set(per.values()))
        paired, single = _DESIGN.get(src, ("each variant (paired)", "one variant"))
        out.append(Source(src, rules, vs, ns[0] if len(ns) == 1 else max(ns),
                          units[(src, rules)], paired if len(vs) > 1 else single))
    ps = results.get("play-stats")
    if not out and ps is not None and ps.height:
        for (r,), sub in ps.group_by(["rules"], maintain_order=True):
            vs = tuple(sorted(sub["variant"].cast(pl.String).to_list()))
            out.append(Source("data", str(r), vs, int(sub["deals"].max() or 0), "deals",
                              "per variant" if len(vs) > 1 else ""))
    return out


__all__ = ["Finding", "Source", "StudySummary", "findings_from_compare", "compare_finding",
           "findings_from_answer",
           "compare_notes", "study_config",
           "study_summary", "metric_label", "Z_POWER"]
