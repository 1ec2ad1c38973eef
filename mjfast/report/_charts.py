"""The report's charts as inline SVG panels (:mod:`._svg`), drawn from the analyses' tables.

Each function takes the analysis's table and returns a :class:`Chart` (panels, a note), or
None when there is nothing to draw. Rules: one panel per rule set (and variant, source)
rather than everything on one axis; every estimate with its 95% interval when the table has
one; estimates that are compared share one scale; a legend only for series that are drawn;
base fans (held by every ordinary win) left out of the fan charts and named in the note.
Draws what the analytics computed; computes nothing."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import polars as pl

from . import _format as F
from . import _svg as S

TOP_FANS = 12
Z95 = 1.959963984540054


@dataclass
class Chart:
    panels: list[str]
    note: str = ""
    wide: bool = False                 # panels take the whole width (one per row)
    extra: list[str] = field(default_factory=list)


GROUP_KEYS = ("rules", "variant", "source")


def group_keys(df: pl.DataFrame, keys=GROUP_KEYS) -> list[str]:
    return [k for k in keys if k in df.columns]


def groups(df: pl.DataFrame, keys=GROUP_KEYS):
    ks = group_keys(df, keys)
    if not ks:
        return [((), df)]
    out = []
    for g in df.select(ks).unique(maintain_order=True).sort(ks, nulls_last=True).rows():
        cond = [pl.col(k).is_null() if v is None else pl.col(k) == v for k, v in zip(ks, g)]
        out.append((g, df.filter(*cond)))
    return out


def label(g) -> str:
    return " · ".join(str(x) for x in g if x is not None and x != "")


def _hi(values, floor=0.0, cap=None) -> float:
    vals = [v for v in values if v is not None]
    hi = max(vals + [floor]) if vals else 1.0
    return min(hi, cap) if cap is not None else hi


_SOURCE_WORDS = {"wins": "wins", "hands": "complete hands (hands sample)"}


def fan_frequency(df: pl.DataFrame, cjk: bool) -> Chart | None:
    """Per group the most frequent fans (base fans aside) as bars with Wilson intervals,
    every panel on the same 0..max scale."""
    if df.height == 0:
        return None
    has_base = "base" in df.columns
    shown = df.filter(~pl.col("base")) if has_base else df
    gs = [(g, sub.sort(["wins", "fan_id"], descending=[True, False]).head(TOP_FANS))
          for g, sub in groups(shown)]
    gs = [(g, sub) for g, sub in gs if sub.height]
    if not gs:
        return None
    hi = _hi([v for _, sub in gs for v in sub["ci_high"].to_list()], cap=1.0)
    panels = []
    for g, sub in gs:
        rows = [S.Row(r["name_zh"] if cjk else r["name_en"],
                      [S.Point(r["share"], r["ci_low"], r["ci_high"])],
                      sub=r["name_en"] if cjk else None,
                      title=f"{r['name_en']}: {r['wins']:,} of {r['n_wins']:,} wins")
                for r in sub.to_dicts()]
        n = sub["n_wins"][0]
        src = dict(zip(group_keys(sub), g)).get("source", "wins")
        panels.append(S.interval_panel(
            label([x for x in g if x not in _SOURCE_WORDS]),
            rows, F.PCT, lo=0.0, hi=hi,
            subtitle=f"share of {n:,} {_SOURCE_WORDS.get(src, src)} holding the fan, "
                     f"95% interval",
            axis_label="share of wins %"))
    note = ""
    if has_base:
        base = df.filter(pl.col("base"))
        if base.height:
            seen = {}
            for r in base.to_dicts():
                seen.setdefault((r["rules"], r["name_zh"] if cjk else "", r["name_en"]),
                                []).append(r["share"])
            parts = [f"{zh + ' ' if zh else ''}{en} ({rules}, in "
                     f"{F.fmt(F.PCT, min(v), unit=True)}"
                     + (f"–{F.fmt(F.PCT, max(v), unit=True)}" if max(v) != min(v) else "")
                     + " of wins)" for (rules, zh, en), v in seen.items()]
            note = ("Left out of the chart: the base fan every ordinary win holds — "
                    + "; ".join(parts) + ". It stays in the table below, marked.")
    return Chart(panels, note)


def play_stats(df: pl.DataFrame, cjk: bool) -> Chart | None:
    """One panel per rate, one row per rule set / variant, one scale per rate."""
    if df.height == 0:
        return None
    specs = (("win_rate", "Win rate", "per player-deal"),
             ("self_draw_rate", "Self-draw rate", "per player-deal"),
             ("deal_in_rate", "Deal-in rate", "per player-deal"),
             ("draw_rate", "Draw rate", "per deal"))
    gs = groups(df)
    panels = []
    for col, title, per in specs:
        if col not in df.columns:
            continue
        lo_c, hi_c = f"{col}_low", f"{col}_high"
        rows = []
        for g, sub in gs:
            r = sub.row(0, named=True)
            rows.append(S.Row(label(g), [S.Point(r[col], r.get(lo_c), r.get(hi_c))],
                              title=f"{label(g)}: {r['deals']:,} deals"))
        hi = _hi([r.points[0].hi if r.points[0].hi is not None else r.points[0].value
                  for r in rows], floor=0.05, cap=1.0)
        panels.append(S.interval_panel(f"{title} ({per})", rows, F.PCT, lo=0.0, hi=hi,
                                       axis_label=f"{title.lower()} %",
                                       subtitle="95% Wilson interval"))
    return Chart(panels)


def payments(df: pl.DataFrame, cjk: bool) -> Chart | None:
    """Per rule set: each seat's mean net payment per deal with its 95% interval; the
    variants of a rule set on one scale."""
    if df.height == 0:
        return None
    winds = "ESWN"
    panels = []
    for (rules,), sub in groups(df, ("rules",)):
        hi = _hi(sub["ci_high"].to_list())
        lo = min([v for v in sub["ci_low"].to_list() if v is not None] + [0.0])
        for g, part in groups(sub, ("variant", "source")):
            part = part.sort(["dealer", "seat", "player"], descending=[True, False, False],
                             nulls_last=True)
            rows = []
            for r in part.to_dicts():
                seat = r.get("seat")
                w = winds[seat] if isinstance(seat, int) and 0 <= seat < 4 else "?"
                lab = f"{'dealer' if r['dealer'] else 'non-dealer'}, seat {w}"
                if part.select("player").n_unique() > 1 and part.height > 8:
                    lab += f", player {r['player']}"
                rows.append(S.Row(lab, [S.Point(r["mean"], r["ci_low"], r["ci_high"])],
                                  title=f"{lab}: {r['deals']:,} deals"))
            panels.append(S.interval_panel(
                label((rules,) + tuple(g)), rows, F.POINTS, lo=lo, hi=hi, bars=False,
                zero=True, subtitle=f"mean net payment per deal, 95% interval "
                                    f"({part['deals'].max():,} deals)",
                axis_label="points per deal"))
    return Chart(panels)


def ev(df: pl.DataFrame, cjk: bool) -> Chart | None:
    """Per rule set and variant: EV on a discard and on a self-draw (± 1.96 se, as the
    analysis gives it), by form and meld count."""
    if df.height == 0:
        return None
    sub_all = df.filter(pl.col("hands_live") > 0)
    if sub_all.height == 0:
        return None
    series = (("win on a discard", S.BLUE), ("self-draw", S.VERMILION))
    panels = []
    for (rules,), sub in groups(sub_all, ("rules",)):
        vals = []
        for c, se in (("ev_discard", "ev_discard_se"), ("ev_self", "ev_self_se")):
            for v, s in zip(sub[c].to_list(), sub[se].to_list()):
                if v is not None:
                    vals.append(v + Z95 * (s or 0))
        hi = _hi(vals)
        for g, part in groups(sub, ("variant", "source")):
            rows = []
            for r in part.to_dicts():
                form = r["form_name"] or "all forms"
                lab = form + (f", {r['n_melds']} melds" if r["n_melds"] is not None else "")

                def pt(c, se):
                    v, s = r[c], r[se]
                    return S.Point(v, None if s is None else v - Z95 * s,
                                   None if s is None else v + Z95 * s)
                rows.append(S.Row(lab, [pt("ev_discard", "ev_discard_se"),
                                        pt("ev_self", "ev_self_se")],
                                  title=f"{lab}: {r['hands']:,} hands"))
            n = part["hands"].sum()
            panels.append(S.interval_panel(
                label((rules,) + tuple(g)), rows, F.POINTS, lo=0.0, hi=hi, series=series,
                subtitle=f"expected gain of a winning tile, live copies weighted, 95% "
                         f"interval ({n:,} ready hands)", axis_label="points"))
    return Chart(panels)


HL = (("all high", S.GREEN), ("split", S.ORANGE), ("all low", S.VERMILION))


def high_low(df: pl.DataFrame, cjk: bool) -> Chart | None:
    if df.height == 0:
        return None
    rows = []
    for r in df.to_dicts():
        g = label([r.get(k) for k in GROUP_KEYS if k in r])
        for way, sfx in (("discard", ""), ("self-draw", "_self")):
            rows.append((f"{g} · {way} (n = {r['ready']:,})",
                         [r.get(f"share_{c}{sfx}") for c in ("all_high", "split", "all_low")]))
    return Chart([S.stacked_panel(
        "Ready hands whose winning tiles all reach the minimum (all high), some (split) or "
        "none (all low)", rows, HL, axis_label="share of ready hands %",
        subtitle="source hands: the generated sample; turns: the hand after each discard in "
                 "replays and simulations")], wide=True)


def play_by_turn(df: pl.DataFrame, cjk: bool) -> Chart | None:
    """Ready rate (with its interval band) and mean shanten by turn: one line per rule
    set / variant on one scale."""
    if df.height == 0:
        return None
    gs = groups(df)
    lines_r, lines_s = [], []
    for k, (g, sub) in enumerate(gs):
        sub = sub.sort("turn")
        colour = S.SERIES[k % len(S.SERIES)]
        xs = sub["turn"].to_list()
        lines_r.append(S.Line(label(g), xs, sub["ready_rate"].to_list(),
                              sub["ready_low"].to_list(), sub["ready_high"].to_list(), colour))
        lines_s.append(S.Line(label(g), xs, sub["mean_shanten"].to_list(), colour=colour))
    hi_r = _hi([v for ln in lines_r for v in ln.hi], cap=1.0)
    hi_s = _hi([v for ln in lines_s for v in ln.ys])
    return Chart([
        S.line_panel("Ready after the discard, by turn", lines_r, F.PCT, lo=0.0, hi=hi_r,
                     x_label="turn (the player's n-th discard)", y_label="ready %",
                     subtitle="share of decisions, 95% interval band"),
        S.line_panel("Mean shanten by turn", lines_s, F.RATIO, lo=0.0, hi=hi_s,
                     x_label="turn (the player's n-th discard)", y_label="shanten",
                     subtitle="14-tile shanten before the discard")])


def compare(df: pl.DataFrame, cjk: bool, max_fans: int = 8) -> Chart | None:
    """Per rule set (and source): the differences from the reference variant with their
    95% intervals, one panel per unit (rates in percentage points, points, turns), one
    scale within a panel; paired differences that are exactly zero are said, not drawn."""
    from ._tables import compare_for_reading
    sub = compare_for_reading(df).filter(pl.col("diff").is_not_null())
    if sub.height == 0:
        return None
    panels = []
    keys = group_keys(sub, ("rules", "source"))
    for g, part in groups(sub, keys):
        rows_by_kind: dict[str, list[S.Row]] = {}
        recs = part.to_dicts()
        other = [r for r in recs if not r["fan"]]
        sig = [r for r in recs if r["fan"] and r["ci_low"] is not None
               and (r["ci_low"] > 0 or r["ci_high"] < 0)][:max_fans]   # by |difference|
        for r in other + sig:
            kind = F.DIFF[F.metric_kind(r["metric_id"], r.get("unit"))]
            lab = r["metric"]
            if part.select("variant").n_unique() > 1:
                lab += f" ({r['variant']})"
            same = r.get("paired") and r["diff"] == 0 and not r.get("se")
            rows_by_kind.setdefault(kind, []).append(S.Row(
                lab, [S.Point(r["diff"], r["ci_low"], r["ci_high"])],
                note=f"same under both ({r['n']:,} paired)" if same else None,
                title=f"{lab}: n = {r['n']:,}"))
        for kind, rows in rows_by_kind.items():
            ext = [abs(v) for rw in rows for p in rw.points for v in (p.lo, p.hi, p.value)
                   if v is not None and rw.note is None]
            m = max(ext + [1e-3])
            ref = recs[0]["reference"]
            unit = {"pp": "percentage points", "dpoints": "points", "dturns": "turns"}.get(
                kind, "")
            panels.append(S.interval_panel(
                f"{label(g)}: difference from {ref} ({unit})", rows, kind, lo=-m, hi=m,
                bars=False, zero=True, width=S.WIDE_W,
                subtitle="estimate and 95% interval; 0 = no difference",
                axis_label=f"difference ({F.UNIT.get(kind) or unit})"))
    left = sub.filter(pl.col("fan")).height
    note = (f"Fans: only those whose share changed with an interval clear of zero are drawn "
            f"(at most {max_fans} per rule set); the table lists the rest." if left else "")
    return Chart(panels, note, wide=True)


CHARTS: dict[str, Callable[[pl.DataFrame, bool], Chart | None]] = {
    "play-stats": play_stats, "fan-frequency": fan_frequency, "payments": payments,
    "ev": ev, "high-low": high_low, "play-by-turn": play_by_turn, "compare": compare}


__all__ = ["Chart", "CHARTS", "groups", "label", "TOP_FANS"] + list(CHARTS)
