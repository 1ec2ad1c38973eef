"""The report's charts as inline SVG panels (:mod:`._svg`), drawn from the analyses' tables.

Each function takes the analysis's table and returns a :class:`Chart` (panels, a note), or
None when there is nothing to draw. Rules: one panel per rule set (and variant, source)
rather than everything on one axis; every estimate with its 95% interval when the table has
one; estimates that are compared share one scale; a legend only for series that are drawn;
base fans (held by every ordinary win) left out of the fan charts and named in the note.
Draws what the analytics computed; computes nothing."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

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
    span: set[int] = field(default_factory=set)   # panels (indices) across the whole width


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
            unit = F.UNIT_WORDS.get(kind, "")
            panels.append(S.interval_panel(
                f"{label(g)}: difference from {ref} ({unit})", rows, kind, lo=-m, hi=m,
                bars=False, zero=True, width=S.WIDE_W,
                subtitle="estimate and 95% interval; 0 = no difference",
                axis_label=f"difference ({F.UNIT.get(kind) or unit})"))
    left = sub.filter(pl.col("fan")).height
    note = (f"Fans: only those whose share changed with an interval clear of zero are drawn "
            f"(at most {max_fans} per rule set); the table lists the rest." if left else "")
    return Chart(panels, note, wide=True)


# -- the studies' analyses ---------------------------------------------------------------------
_BY_HEAD = {"dealer": "Dealer", "seat_wind": "Seat wind (the turn order: East, the dealer, first)",
            "position": "Position in the record (player 0..3)", "bot": "Bot in the seat"}
_BY_ORDER = ("dealer", "seat_wind", "position", "bot")
_GROUP_ORDER = {"dealer": 0, "non-dealer": 1, "E": 0, "S": 1, "W": 2, "N": 3}


def _variants(df: pl.DataFrame) -> list[str]:
    vs = df["variant"].unique(maintain_order=True).to_list() if "variant" in df.columns else [""]
    return sorted(vs, key=lambda v: (not str(v).startswith("default"), str(v)))


def seat_advantage(df: pl.DataFrame, cjk: bool) -> Chart | None:
    """Per rule set and source: net points per player-deal by dealer, seat wind and position
    (and bot), every variant on one scale with its 95% interval (clustered by wall), each
    labelled with the compensation that would equalise the expectations."""
    if df.height == 0 or "by" not in df.columns:
        return None
    panels = []
    keys = group_keys(df, ("rules", "source"))
    order = {"simulate": 0, "replay": 1}
    gs = sorted(groups(df, keys), key=lambda g: (str(g[0][0]), order.get(
        dict(zip(keys, g[0])).get("source"), 2)))
    zero_sum = all(abs(x or 0) < 1e-9 for x in df["mean"].to_list()) if "mean" in df.columns \
        else True
    for g, part in gs:
        vs = _variants(part)
        series = [(v, S.SERIES[k % len(S.SERIES)]) for k, v in enumerate(vs)]
        lo = min([v for v in part["net_low"].to_list() if v is not None] + [0.0])
        hi = max([v for v in part["net_high"].to_list() if v is not None] + [0.0])
        m = max(abs(lo), abs(hi))
        rows: list[S.Row] = []
        for by in [b for b in _BY_ORDER if b in set(part["by"].to_list())] + sorted(
                set(part["by"].to_list()) - set(_BY_ORDER)):
            sub = part.filter(pl.col("by") == by)
            rows.append(S.Row(_BY_HEAD.get(by, by), [], heading=True))
            names = sorted(set(sub["group"].to_list()),
                           key=lambda x: (_GROUP_ORDER.get(x, 9), x))
            for name in names:
                pts = []
                for v in vs:
                    r = sub.filter((pl.col("group") == name) & (pl.col("variant") == v))
                    if r.height == 0:
                        pts.append(S.Point(None))
                        continue
                    r = r.row(0, named=True)
                    lab = F.fmt(F.DPOINTS, r["net"]) + ("" if zero_sum else (
                        f" (comp. {F.fmt(F.DPOINTS, r['compensation'])})"))
                    pts.append(S.Point(r["net"], r["net_low"], r["net_high"], lab))
                lab = f"player {name}" if by == "position" else str(name)
                rows.append(S.Row(lab, pts, title=f"{_BY_HEAD.get(by, by)}: {lab}"))
        first = part.row(0, named=True)
        d = dict(zip(keys, g))
        src = d.get("source")
        sample = (f"{first['deals']:,} deals on {first['walls']:,} walls" if
                  first["walls"] and first["walls"] < first["deals"]
                  else f"{first['deals']:,} deals")
        mean = first.get("mean")
        ref = (mean, "mean of all players") if mean is not None and abs(mean) > 1e-9 else None
        panels.append(S.interval_panel(
            f"{label(g)} ({sample})", rows, F.DPOINTS, lo=-m, hi=m, series=series,
            bars=False, zero=True, ref=ref,
            subtitle="net points per player-deal, 95% interval" + (
                " clustered by wall" if src == "simulate" else "")
            + ("" if zero_sum else "; comp.: the compensation that equalises"),
            axis_label="net points per deal"))
    return Chart(panels, "Read: a dot right of 0 wins points on average in that seat. The "
                 "compensation is what a seat would receive (+) or pay (−) per deal to make "
                 "every seat's expectation equal" + (
                     ": the distance to the mean of all players (dashed; comp. in the labels)"
                     if not zero_sum else
                     ": payments here are zero-sum, so it is minus the net (a seat that nets "
                     "+0.7 would pay 0.7; the table gives it with its interval)")
                 + ". An interval that crosses 0 is no evidence of an advantage.")


def fan_value(df: pl.DataFrame, cjk: bool) -> Chart | None:
    """The price list: per rule set and source, each fan's frequency among legal wins (log
    scale, 95% interval) in bands of its points, every variant on one scale, the marker's
    area its pivotal share; base fans left out (named in the note)."""
    if df.height == 0 or "frequency" not in df.columns:
        return None
    has_base = "base" in df.columns
    shown = df.filter(~pl.col("base").fill_null(False)) if has_base else df
    shown = shown.filter(pl.col("frequency") > 0)
    if shown.height == 0:
        return None
    lo = min(v for v in shown["frequency"].to_list() if v and v > 0)
    panels = []
    keys = group_keys(shown, ("rules", "source"))
    order = {"simulate": 0, "replay": 1}
    gs = sorted(groups(shown, keys), key=lambda g: (str(g[0][0]), order.get(
        dict(zip(keys, g[0])).get("source"), 2)))
    for g, part in gs:
        vs = _variants(part)
        series = [(v, S.SERIES[k % len(S.SERIES)]) for k, v in enumerate(vs)]
        pivotal = part["pivotal_share"].drop_nulls().len() > 0
        by_fan: dict[int, dict] = {}
        for r in part.to_dicts():
            by_fan.setdefault(r["fan_id"], {})[r["variant"]] = r
        first_v = vs[0]

        def sort_key(item):
            rs = item[1]
            r0 = rs.get(first_v) or next(iter(rs.values()))
            return -(r0["frequency"] or 0)
        bands: dict[int, list] = {}
        for fid, rs in sorted(by_fan.items(), key=sort_key):
            r0 = rs.get(first_v) or next(iter(rs.values()))
            marks = []
            for v in vs:
                r = rs.get(v)
                if r is None:
                    marks.append(S.Mark(None))
                    continue
                piv = r.get("pivotal_share")
                hover = (f"{r['name_en']} ({v}): {r['points']} points, held by "
                         f"{F.fmt(F.PCT, r['frequency'], unit=True)} of wins, "
                         f"{F.fmt(F.PCT, r['points_share'], unit=True)} of all points"
                         + (f", pivotal in {F.fmt(F.PCT, piv, unit=True)}" if piv is not None
                            else ""))
                marks.append(S.Mark(r["frequency"], r["frequency_low"], r["frequency_high"],
                                    piv if pivotal else None, hover))
            zh, en = r0.get("name_zh"), r0.get("name_en") or str(fid)
            item = (S.Item(zh, marks, sub=en, title=en) if cjk and zh
                    else S.Item(en, marks, title=en))
            bands.setdefault(int(r0["points"] or 0), []).append(item)
        n = part["n_wins"].max()
        unit = "points" if str(g[0]) == "mcr" else {"taiwan": "tai", "tuidaohu": "fan",
                                                      "two_player": "fan"}.get(str(g[0]), "points")
        band_list = [(f"{p} {unit if p != 1 else unit.rstrip('s')}", items)
                     for p, items in sorted(bands.items(), reverse=True)]
        panels.append(S.price_panel(
            f"{label(g)}: points against how often the fan is held ({n:,} legal wins"
            + (" a variant" if len(vs) > 1 else "") + ")",
            band_list, F.PCT, lo=lo, hi=1.0, series=series,
            subtitle="each fan in the band of its points; share of legal wins holding it "
                     "(log scale) with its 95% interval"
                     + ("; marker area: pivotal share" if pivotal else ""),
            axis_label="share of wins holding the fan % (log scale)",
            size_legend=("pivotal share:", (0.0, 0.25, 0.5, 1.0)) if pivotal else None))
    note = ("Read: a fan far right is common, far left rare; within a band the same points buy "
            "very different odds. Pivotal share: of the wins holding the fan, those that no "
            "longer reach the minimum when the hand is scored again without it (a big marker: "
            "the fan carries hands over the line).")
    if has_base:
        base = df.filter(pl.col("base").fill_null(False))
        if base.height:
            names = sorted({(r["rules"], (r["name_zh"] + " ") if cjk and r.get("name_zh")
                             else "", r["name_en"]) for r in base.to_dicts()})
            note += (" Left out: the base fan every ordinary win holds ("
                     + "; ".join(f"{zh}{en}, {rules}" for rules, zh, en in names)
                     + "); it stays in the table.")
    return Chart(panels, note, wide=True)


_SOURCE_SAMPLE = {"simulate": "simulated", "replay": "logged", "hands": "hand sample"}


def sample_size(df: pl.DataFrame, cjk: bool,
                metrics: Sequence[str] | None = None) -> Chart | None:
    """Per rule set and unit (rates and shares, points, counts): the units each variant
    needs to detect a difference, against the difference (log-log), one line per metric
    and source — the study's headline ``metrics`` when given (the rest in the table), fans
    in the table only — the observed difference ringed, each source's present sample
    dashed."""
    if df.height == 0 or "delta" not in df.columns:
        return None
    sub = df.filter(pl.col("fan_id").is_null() & pl.col("units_needed").is_not_null()
                    & (pl.col("delta") > 0))
    chosen = sub.filter(pl.col("metric").is_in(list(metrics))) if metrics else sub
    if chosen.height:
        sub = chosen
    if sub.height == 0:
        return None
    order = {"simulate": 0, "replay": 1, "hands": 2}
    rank = {m: i for i, m in enumerate(metrics or ())}
    panels, span = [], set()
    keys = group_keys(sub, ("rules",))
    gs = sorted(groups(sub, [*keys, "unit"]), key=lambda g: (
        str(g[0][0]), {"share": 0, "points": 1}.get(g[0][-1], 2)))
    for g, part in gs:
        d = dict(zip([*keys, "unit"], g))
        kind = F.DIFF.get(F.metric_kind(str(part["metric"][0]), d.get("unit")), F.NUMBER)
        several_v = part.select("variant").n_unique() > 1
        several_s = part.select("source").n_unique() > 1
        lines, hl = [], {}
        parts = sorted(part.group_by(["source", "metric", "variant", "pairing"],
                                     maintain_order=True),
                       key=lambda x: (order.get(x[0][0], 3), rank.get(x[0][1], 99), x[0][1]))
        for k, ((source, metric, variant, _), m) in enumerate(parts):
            m = m.sort("delta")
            r0 = m.row(0, named=True)
            name = str(r0.get("label") or metric)
            name = (name[:1].upper() + name[1:]
                    + (f" ({_SOURCE_SAMPLE.get(source, source)})" if several_s else "")
                    + (f" [{variant}]" if several_v else ""))
            obs = m.filter(pl.col("delta_basis") == "observed")
            mark, hover = None, None
            if obs.height:
                o = obs.row(0, named=True)
                mark = (o["delta"], float(o["units_needed"]))
                hover = (f"{name}: the observed difference {F.fmt(kind, o['diff'], unit=True)} "
                         f"needs {o['units_needed']:,}")
            lines.append(S.LogLine(name, m["delta"].to_list(),
                                   [float(x) for x in m["units_needed"].to_list()],
                                   S.SERIES[k % len(S.SERIES)], mark, hover))
            words = str(r0.get("sample_unit") or "units")
            hl.setdefault((r0["n_units"], words), source)
        what = {"share": "rates and shares", "points": "points",
                "count": "counts"}.get(d.get("unit"), d.get("unit") or "")
        wide = len(lines) > 3
        if wide:
            span.add(len(panels))
        panels.append(S.loglog_panel(
            f"{label([d.get(k) for k in keys])}: {what}", lines, kind,
            x_label=f"true difference to detect ({F.UNIT_WORDS.get(kind, '')}, log scale)",
            y_label="needed per variant (log scale)",
            subtitle="95% confidence, 80% power; ring: the difference this study observed",
            hlines=[(n, f"this sample: {n:,} {w}") for (n, w) in hl],
            width=S.WIDE_W if wide else S.PANEL_W))
    note = ("Read: pick the difference you care about on the horizontal axis; a metric's line "
            "gives the deals (hands, decisions) each variant needs to detect it. Where a line "
            "is below a dashed line (this study's sample of that kind), the sample already "
            "detects that difference. ")
    note += ("Lines: the study's headline metrics; the other metrics and the fans' shares are "
             "in the table." if metrics and chosen.height else
             "Fans' shares are in the table only.")
    return Chart(panels, note, span=span)


def _blend(c1: str, c2: str, t: float) -> str:
    a = [int(c1[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(c2[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b))


def _lift_colour(lift: float | None) -> str:
    import math
    if lift is None or lift <= 0:
        return "#f2f2f2"
    t = max(-1.0, min(1.0, math.log2(lift)))       # 0.5 .. 2 across the colours
    return (_blend("#ffffff", "#56B4E9", -t) if t < 0 else _blend("#ffffff", "#E69F00", t))


def fan_cooccurrence(df: pl.DataFrame, cjk: bool) -> Chart | None:
    """Per rule set, variant and source: the lift of every pair of the ten most frequent
    fans (base fans aside) as a triangular heat map (1 = as often as chance)."""
    if df.height == 0 or "lift" not in df.columns:
        return None
    panels = []
    for g, part in groups(df):
        wins: dict[int, tuple[int, str, str | None]] = {}
        for r in part.to_dicts():
            for side in ("a", "b"):
                fid = r[f"fan_{side}"]
                zh, en = r.get(f"name_zh_{side}"), r.get(f"name_en_{side}") or str(fid)
                wins[fid] = (r[f"wins_{side}"] or 0, en, zh)
        fans = sorted(wins, key=lambda f: (-wins[f][0], f))
        if len(fans) < 3:
            continue
        pos = {f: i for i, f in enumerate(fans)}
        names = [((wins[f][2] if cjk and wins[f][2] else wins[f][1]),
                  wins[f][1] if cjk and wins[f][2] else None) for f in fans]
        cells = {}
        for r in part.to_dicts():
            i, j = pos[r["fan_a"]], pos[r["fan_b"]]
            i, j = max(i, j), min(i, j)
            lift = r["lift"]
            cells[(i, j)] = (_lift_colour(lift), F.fmt(F.RATIO, lift),
                             f"{wins[fans[j]][1]} + {wins[fans[i]][1]}: {r['wins']:,} wins "
                             f"together, lift {F.fmt(F.RATIO, lift)}")
        n = part["n_wins"].max()
        panels.append(S.heatmap_panel(
            f"{label(g)} ({n:,} wins)", names, cells,
            legend=[(_lift_colour(0.5), "0.5: half as often"), ("#ffffff", "1: as chance"),
                    (_lift_colour(2.0), "2: twice as often")],
            subtitle="lift of each pair of the ten most frequent fans (base fans aside)"))
    return Chart(panels, "Read: each cell is a pair of fans; its number, the lift, is how much "
                         "more often they come together than if they were independent (orange "
                         "above 1, blue below, grey: never together). Rows and columns in order "
                         "of frequency.") if panels else None


MIN_PER_POINT = 30


def high_low_by_turn(df: pl.DataFrame, cjk: bool) -> Chart | None:
    """The share of ready decisions whose every wait reaches the minimum, by turn, one line
    per shanten before the discard, where a point rests on at least MIN_PER_POINT ready
    decisions; else no chart, and the note says why."""
    if df.height == 0 or "share_all_high" not in df.columns:
        return None
    panels, most = [], int(df["ready"].max() or 0)
    enough = df.filter(pl.col("ready") >= MIN_PER_POINT)
    for g, part in groups(enough):
        lines = []
        for k, ((sh,), sub) in enumerate(part.sort("prev_shanten", nulls_last=True).group_by(
                ["prev_shanten"], maintain_order=True)):
            sub = sub.sort("turn")
            if sub.height < 2:
                continue
            lines.append(S.Line("first decision" if sh is None else
                                f"shanten {sh} before the discard", sub["turn"].to_list(),
                                sub["share_all_high"].to_list(),
                                sub["share_all_high_low"].to_list(),
                                sub["share_all_high_high"].to_list(),
                                S.SERIES[k % len(S.SERIES)]))
        if lines:
            panels.append(S.line_panel(
                label(g), lines, F.PCT, lo=0.0, hi=1.0, x_label="turn",
                y_label="all waits high %",
                subtitle=f"ready decisions whose every wait reaches the minimum, 95% band "
                         f"(points of >= {MIN_PER_POINT} decisions)"))
    if not panels:
        return Chart([], f"No chart: at most {most:,} ready decisions per turn and shanten "
                         f"here, too few for a line (a point needs {MIN_PER_POINT}); the "
                         f"table has the counts.")
    return Chart(panels)


CHARTS: dict[str, Callable[[pl.DataFrame, bool], Chart | None]] = {
    "play-stats": play_stats, "fan-frequency": fan_frequency, "ev": ev,
    "high-low": high_low, "play-by-turn": play_by_turn, "compare": compare,
    "seat-advantage": seat_advantage, "fan-value": fan_value, "sample-size": sample_size,
    "fan-cooccurrence": fan_cooccurrence, "high-low-by-turn": high_low_by_turn}


__all__ = ["Chart", "CHARTS", "groups", "label", "TOP_FANS"] + list(CHARTS)
