"""Numbers as a person reads them: one format per quantity, used by the HTML page, the
terminal tables of ``mjfast query`` / ``mjfast report`` and ``mjfast run``'s summary.

A quantity has a *kind*; the kind decides the format, never the value:

==========  =================================================  ==============  ========
kind        what                                               cell            unit
==========  =================================================  ==============  ========
``pct``     rates and shares (stored as fractions 0..1)        ``23.0``        ``%``
``pp``      a difference of two rates or shares                ``+7.9``        ``pp``
``points``  points, tai, fan (the rule set's scoring unit)     ``13.8``        points
``dpoints`` a difference of points                             ``+4.3``        points
``turns``   turns (a mean turn)                                ``11.4``        turns
``dturns``  a difference of turns                              ``+0.3``        turns
``count``   whole numbers                                      ``20,000``
``mean``    a mean of a count (tiles drawn a deal)             ``52.4``
``dmean``   a difference of such means                         ``-7.2``
``ratio``   a ratio such as a lift                             ``1.25``        ×
``number``  anything else (a column of unknown meaning)        fixed decimals
``text``    names, labels
==========  =================================================  ==============  ========

Cells carry no unit sign; the header does (``win rate %``). A sentence (the headline
findings) carries the unit with the number (``23.0%``, ``+7.9 pp``). An interval is
formatted like its estimate: the same kind, decimals and unit (``17.1 to 30.2``).
Machine formats (CSV, JSON, Parquet) keep the stored values and column names.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

PCT, PP, POINTS, DPOINTS, TURNS, DTURNS, COUNT, RATIO, NUMBER, TEXT, WIND, MEAN, DMEAN = (
    "pct", "pp", "points", "dpoints", "turns", "dturns", "count", "ratio", "number", "text",
    "wind", "mean", "dmean")
WINDS = "ESWN"

UNIT = {PCT: "%", PP: "pp", POINTS: "points", DPOINTS: "points", TURNS: "turns",
        DTURNS: "turns", RATIO: "", COUNT: "", NUMBER: "", TEXT: "", WIND: "", MEAN: "",
        DMEAN: ""}
DECIMALS = {PCT: 1, PP: 1, POINTS: 1, DPOINTS: 1, TURNS: 1, DTURNS: 1, RATIO: 2, COUNT: 0,
            MEAN: 1, DMEAN: 1}
SCALE = {PCT: 100.0, PP: 100.0}
SIGNED = {PP, DPOINTS, DTURNS, DMEAN}
# the kind of a difference between two values of a kind, and back
DIFF = {PCT: PP, POINTS: DPOINTS, TURNS: DTURNS, COUNT: NUMBER, RATIO: NUMBER,
        NUMBER: NUMBER, MEAN: DMEAN}
LEVEL = {PP: PCT, DPOINTS: POINTS, DTURNS: TURNS, DMEAN: MEAN}
# what a difference's unit is called in a chart title or a sentence
UNIT_WORDS = {PP: "percentage points", DPOINTS: "points", DTURNS: "turns", DMEAN: "count",
              PCT: "%", POINTS: "points", TURNS: "turns", MEAN: "count"}
MISSING = "–"


def _number(v: float, decimals: int, signed: bool) -> str:
    s = f"{v:+,.{decimals}f}" if signed else f"{v:,.{decimals}f}"
    zero = f"{0:.{decimals}f}"
    if s.lstrip("+-").replace(",", "") == zero:   # no "-0.0" nor "+0.0"
        s = zero
    return s


def fmt(kind: str, v: Any, *, unit: bool = False, decimals: int | None = None,
        signed: bool | None = None) -> str:
    """One value of a kind: ``fmt("pct", 0.2304) == "23.0"``, with ``unit=True`` ``"23.0%"``.
    ``signed=False``: a difference's size (a detectable difference, a Δ to plan for) in the
    difference's unit without its sign (``fmt("pp", 0.012, signed=False) == "1.2"``)."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return MISSING
    if isinstance(v, bool):
        return "yes" if v else "no"
    if kind == WIND and isinstance(v, int):
        return WINDS[v] if 0 <= v < 4 else str(v)
    if kind == TEXT or isinstance(v, str):
        return str(v)
    if isinstance(v, (list, tuple, dict)):
        return json.dumps(v, ensure_ascii=False, separators=(",", ":"), default=str)
    if not isinstance(v, (int, float)):
        return str(v)
    if kind == COUNT and isinstance(v, int):
        s = f"{v:,}"
    else:
        d = DECIMALS.get(kind, 3) if decimals is None else decimals
        s = _number(float(v) * SCALE.get(kind, 1.0), d,
                    kind in SIGNED if signed is None else signed)
    if unit and UNIT.get(kind):
        u = UNIT[kind]
        s = s + u if u in ("%", "×") else f"{s} {u}"
    return s


def fmt_interval(kind: str, lo: Any, hi: Any, *, unit: bool = False,
                 decimals: int | None = None) -> str:
    """An interval formatted like its estimate: ``"17.1 to 30.2"`` (``unit=True``: ``"17.1
    to 30.2%"``, ``"-10.5 to +26.4 pp"``)."""
    if lo is None and hi is None:
        return MISSING
    s = (f"{fmt(kind, lo, decimals=decimals)} to "
         f"{fmt(kind, hi, decimals=decimals)}")
    if unit and UNIT.get(kind):
        u = UNIT[kind]
        s = s + u if u in ("%", "×") else f"{s} {u}"
    return s


def fmt_estimate(kind: str, v: Any, lo: Any = None, hi: Any = None) -> str:
    """A sentence's number: ``"23.0% (95% CI 17.1 to 30.2%)"``."""
    s = fmt(kind, v, unit=True)
    if lo is not None or hi is not None:
        s += f" (95% CI {fmt_interval(kind, lo, hi, unit=True)})"
    return s


def header(label: str, kind: str) -> str:
    """A column header with its unit: ``header("win rate", "pct") == "win rate %"``,
    ``header("win total", "points") == "win total (points)"``; a label that already names
    its unit keeps it once (``"points per win"``)."""
    u = UNIT.get(kind, "")
    if not u or u.rstrip("s") in label:
        return label
    return f"{label} {u}" if u in ("%", "pp") else f"{label} ({u})"


def decimals_for(values: Iterable[Any]) -> int:
    """Decimals for a column of unknown meaning (``number``), chosen once per column from
    its largest magnitude, so every cell of the column has the same decimals."""
    m = max((abs(float(v)) for v in values
             if isinstance(v, (int, float)) and not isinstance(v, bool)
             and not (isinstance(v, float) and math.isnan(v))), default=0.0)
    if m >= 1000:
        return 0
    if m >= 10:
        return 1
    if m >= 1:
        return 2
    return 3 if m >= 0.01 or m == 0 else 5


# -- columns: what each analysis's column is ---------------------------------------------------
@dataclass(frozen=True)
class Col:
    """A displayed column: the frame column ``name``, its ``label``, its ``kind``, the
    columns of its 95% interval, shown beside the value and formatted like it (``("±",
    "value:se")``: the value ± 1.96 standard errors), and its ``rank``: 0 the columns a person needs first (names, counts, shares
    with intervals), 1 useful, 2 detail (dropped first when the terminal is narrow)."""
    name: str
    label: str
    kind: str = NUMBER
    ci: tuple[str, str] | None = None
    rank: int = 1


@dataclass(frozen=True)
class View:
    """How one analysis's table is shown: its columns in order. Columns of the frame not
    named here are shown after them (rank 2) with their own names, so nothing is hidden."""
    cols: tuple[Col, ...]
    group: tuple[str, ...] = ("rules", "variant", "source")
    extra: bool = True          # append unnamed frame columns (rank 2)
    hide: tuple[str, ...] = ()  # frame columns never shown as such (used by another column)
    sort: tuple[str, ...] = ()  # order of rows inside a group (descending), if any
    # columns whose kind is the row's own (a table of metrics in several units: the row's
    # ``unit`` / ``metric`` decide, :func:`metric_kind`), the cell carrying its unit: a value
    # of the metric, a difference of it (signed), or a size of a difference (unsigned: a
    # detectable difference)
    row_value: tuple[str, ...] = ()
    row_diff: tuple[str, ...] = ()
    row_size: tuple[str, ...] = ()

    def row_kind(self, col: str, metric: str, unit: str | None) -> str | None:
        """The kind of cell ``col`` in a row of ``metric`` / ``unit`` (None: the column's)."""
        if col not in self.row_value + self.row_diff + self.row_size:
            return None
        kind = metric_kind(metric, unit)
        return kind if col in self.row_value else DIFF.get(kind, NUMBER)

    def columns(self, frame_columns: Sequence[str], dtypes: dict | None = None) -> list[Col]:
        have = set(frame_columns)
        out = [c for c in self.cols if c.name in have]
        used = {c.name for c in out} | {x for c in out if c.ci for x in c.ci} | set(self.hide)
        if self.extra:      # the analysis's other columns: detail, shown last
            for n in frame_columns:
                if n not in used:
                    c = guess(n, (dtypes or {}).get(n))
                    out.append(Col(c.name, c.label, c.kind, c.ci, 2))
        return out


def K(name, label=None, kind=TEXT, ci=None, rank=0):
    return Col(name, label or name, kind, ci, rank)


_KEYS = (K("rules"), K("variant"), K("source", rank=1))


def _v(*cols, group=("rules", "variant", "source"), hide=(), sort=()):
    return View(tuple(_KEYS) + tuple(cols), group=group, hide=hide, sort=sort)


VIEWS: dict[str, View] = {
    "play-stats": _v(
        K("deals", "deals", COUNT), K("win_rate", "win rate", PCT,
                                      ("win_rate_low", "win_rate_high")),
        K("self_draw_rate", "self-draw rate", PCT, ("self_draw_rate_low", "self_draw_rate_high"),
          rank=1),
        K("deal_in_rate", "deal-in rate", PCT, ("deal_in_rate_low", "deal_in_rate_high"),
          rank=1),
        K("draw_rate", "draw rate (per deal)", PCT, ("draw_rate_low", "draw_rate_high"),
          rank=1),
        K("mean_win_turn", "winning turn", TURNS, rank=1),
        K("mean_win_total", "win total", POINTS, rank=1),
        K("false_wins", "false wins", COUNT, rank=2),
        K("wins", "wins", COUNT, rank=2), K("player_deals", "player-deals", COUNT, rank=2),
        K("self_draw_share", "self-draws of wins", PCT, rank=2),
        K("wins_per_deal", "wins per deal", RATIO, rank=2),
        K("win_turn_sd", "winning turn sd", TURNS, rank=2)),
    "fan-frequency": View((
        K("name_zh", "fan"), K("name_en", "fan (en)"), K("rules"), K("variant"),
        K("source", rank=1), K("wins", "wins", COUNT),
        K("share", "share of wins", PCT, ("ci_low", "ci_high")),
        K("points_per_win", "points per win", POINTS, rank=1),
        K("points_share", "share of points", PCT, rank=1),
        K("base", "held by every win", TEXT, rank=2),
        K("name_ja", "fan (ja)", rank=2), K("n_wins", "all wins", COUNT, rank=2),
        K("count", "count", COUNT, rank=2), K("points", "points", POINTS, rank=2),
        K("fan_id", "fan id", COUNT, rank=2)), sort=("wins",)),
    "fan-cooccurrence": View((
        K("name_zh_a", "fan a"), K("name_zh_b", "fan b"), K("rules"), K("variant"),
        K("wins", "wins with both", COUNT), K("share", "share of wins", PCT),
        K("name_en_a", "fan a (en)", rank=1), K("name_en_b", "fan b (en)", rank=1),
        K("source", rank=1),
        K("p_b_given_a", "P(b | a)", PCT, rank=1), K("p_a_given_b", "P(a | b)", PCT, rank=1),
        K("lift", "lift", RATIO, rank=1), K("wins_a", "wins with a", COUNT, rank=2),
        K("wins_b", "wins with b", COUNT, rank=2), K("n_wins", "all wins", COUNT, rank=2),
        K("fan_a", "fan a id", COUNT, rank=2), K("fan_b", "fan b id", COUNT, rank=2)),
        sort=("wins",)),
    "high-low": _v(
        K("ready", "ready hands", COUNT),
        K("share_all_high", "all high", PCT, ("share_all_high_low", "share_all_high_high")),
        K("share_split", "split", PCT, ("share_split_low", "share_split_high"), rank=1),
        K("share_all_low", "all low", PCT, ("share_all_low_low", "share_all_low_high"),
          rank=1),
        K("low_live_share", "low live tiles", PCT, rank=1),
        K("share_all_high_self", "all high, self-draw", PCT,
          ("share_all_high_self_low", "share_all_high_self_high"), rank=2),
        K("share_split_self", "split, self-draw", PCT,
          ("share_split_self_low", "share_split_self_high"), rank=2),
        K("share_all_low_self", "all low, self-draw", PCT,
          ("share_all_low_self_low", "share_all_low_self_high"), rank=2),
        K("low_live_share_self", "low live tiles, self-draw", PCT, rank=2),
        K("low_wait_share", "low waits", PCT, rank=2)),
    "high-low-self-draw": _v(
        K("discard", "on a discard"), K("self_draw", "on a self-draw"),
        K("hands", "hands", COUNT), K("share", "share of hands", PCT),
        K("share_of_discard", "share of its discard category", PCT, rank=1)),
    "high-low-fans": View((
        K("name_zh", "fan"), K("name_en", "fan (en)"), K("rules"), K("variant"),
        K("decides", "decides the split", COUNT), K("share", "share of split hands", PCT),
        K("on_high_only", "on high waits only", COUNT, rank=1),
        K("split_hands_with_fans", "split hands with fan lists", COUNT, rank=1),
        K("split_hands_without_fans", "split hands without", COUNT, rank=1),
        K("fan_id", "fan id", COUNT, rank=2)), sort=("decides",)),
    "high-low-by-turn": _v(
        K("turn", "turn", COUNT), K("prev_shanten", "shanten before", COUNT),
        K("ready", "ready decisions", COUNT),
        K("share_all_high", "all high", PCT, ("share_all_high_low", "share_all_high_high")),
        K("share_split", "split", PCT, rank=1), K("share_all_low", "all low", PCT, rank=1),
        K("low_live_share", "low live tiles", PCT, rank=1)),
    "high-low-stood": _v(
        K("player_deals_ready", "player-deals ready", COUNT),
        K("share_stood_low_or_split", "stood on low or split", PCT, ("ci_low", "ci_high")),
        K("stood_split", "on split", COUNT, rank=1), K("stood_all_low", "on all low", COUNT,
                                                       rank=1),
        K("share_turns_low_or_split", "ready turns low or split", PCT, rank=1)),
    "high-low-better": _v(
        K("chosen_category", "chosen wait"), K("decisions", "decisions", COUNT),
        K("share_better", "a better discard existed", PCT, ("ci_low", "ci_high")),
        K("better_exists", "better existed", COUNT, rank=1),
        K("all_high_available", "all-high available", COUNT, rank=1),
        K("high_live_gained_per_decision", "live high tiles gained", RATIO, rank=1)),
    "ev": _v(
        K("form_name", "form"), K("n_melds", "melds", COUNT), K("hands", "hands", COUNT),
        K("ev_discard", "EV on a discard", POINTS, ("±", "ev_discard:ev_discard_se")),
        K("ev_self", "EV on a self-draw", POINTS, ("±", "ev_self:ev_self_se"), rank=1),
        K("legal_share_discard", "live tiles that win, discard", PCT, rank=1),
        K("legal_share_self", "live tiles that win, self-draw", PCT, rank=1),
        K("live_per_hand", "live tiles per hand", RATIO, rank=1),
        K("hands_live", "hands with a live wait", COUNT, rank=2),
        K("ev_discard_sd", "EV sd, discard", POINTS, rank=2),
        K("ev_self_sd", "EV sd, self-draw", POINTS, rank=2),
        K("ev_discard_se", "EV se, discard", POINTS, rank=2),
        K("ev_self_se", "EV se, self-draw", POINTS, rank=2),
        K("waits_per_hand", "waits per hand", RATIO, rank=2), K("form", "form id", COUNT,
                                                                  rank=2)),
    "payments": _v(
        K("player", "player", COUNT), K("seat", "seat wind", WIND), K("dealer", "dealer", TEXT),
        K("deals", "deals", COUNT),
        K("mean", "net per deal", DPOINTS, ("ci_low", "ci_high")),
        K("sd", "sd", POINTS, rank=1), K("se", "se", POINTS, rank=2),
        K("net_sum", "net total", POINTS, rank=2)),
    "play-by-turn": _v(
        K("turn", "turn", COUNT), K("decisions", "decisions", COUNT),
        K("ready_rate", "ready after the discard", PCT, ("ready_low", "ready_high")),
        K("mean_shanten", "mean shanten", RATIO, rank=1),
        K("shanten_sd", "shanten sd", RATIO, rank=2), K("ready", "ready", COUNT, rank=2),
        K("complete", "complete", COUNT, rank=2)),
    "discard-agreement": _v(
        K("decisions", "decisions", COUNT),
        K("agreement", "efficiency-best", PCT, ("ci_low", "ci_high")),
        K("agreement_value", "value-best", PCT, rank=1),
        K("mean_rank_efficiency", "mean efficiency rank", RATIO, rank=1)),
    "compare": View((
        K("rules"), K("source", rank=0), K("metric", "metric"), K("variant"),
        K("n", "sample", COUNT, rank=1), K("paired", "paired", TEXT, rank=1),
        K("reference", "against", rank=1), K("value", "value", NUMBER, rank=1),
        K("ref_value", "reference value", NUMBER, rank=1),
        K("diff", "difference", NUMBER, ("ci_low", "ci_high")),
        K("detectable", "detectable difference", NUMBER, rank=1),
        K("se", "se", NUMBER, rank=2)), group=("rules", "source"),
        hide=("unit", "metric_id", "fan"), row_value=("value", "ref_value"),
        row_diff=("diff",), row_size=("detectable", "se")),
    "seat-advantage": View((
        K("rules"), K("variant"), K("source"), K("by", "grouping"), K("group", "group"), K("deals", "deals", COUNT),
        K("net", "net per deal", DPOINTS, ("net_low", "net_high")),
        K("compensation", "compensation", DPOINTS, ("compensation_low", "compensation_high")),
        K("mde", "detectable", DPOINTS, rank=1),
        K("win_rate", "win rate", PCT, ("win_rate_low", "win_rate_high"), rank=1),
        K("deal_in_rate", "deal-in rate", PCT, ("deal_in_rate_low", "deal_in_rate_high"),
          rank=2),
        K("walls", "walls", COUNT, rank=2),
        K("self_draw_rate", "self-draw rate", PCT, ("self_draw_rate_low", "self_draw_rate_high"),
          rank=2)), row_size=("mde",)),
    "fan-value": View((
        K("rank", "rank", COUNT), K("fan", "fan"), K("rules"), K("variant"), K("source"),
        K("points", "points", COUNT),
        K("frequency", "share of wins", PCT, ("frequency_low", "frequency_high")),
        K("pivotal_share", "pivotal", PCT, ("pivotal_share_low", "pivotal_share_high")),
        K("points_share", "share of points", PCT, ("points_share_low", "points_share_high"),
          rank=1),
        K("mean_total", "mean total of its wins", POINTS, ("mean_total_low", "mean_total_high"),
          rank=2),
        K("wins", "wins", COUNT, rank=1), K("name_zh", "fan (zh)", rank=2),
        K("name_en", "fan (en)", rank=2), K("rescored", "rescored", COUNT, rank=2),
        K("not_rescored", "not rescored", COUNT, rank=2)), sort=("points_share",)),
    # sample-size as read (one row per comparison: mjfast.report._tables.sample_size_for_reading)
    "sample-size": View((
        K("rules"), K("source"), K("label", "metric"), K("variant"),
        K("diff", "observed difference", NUMBER),
        K("units_needed", "needed to confirm it", COUNT),
        K("mde", "detectable now", NUMBER), K("sample_unit", "counted in", rank=1),
        K("n_units", "sample now", COUNT, rank=1),
        K("grid", "needed for other differences", rank=1),
        K("clusters_needed", "walls needed", COUNT, rank=2),
        K("units_needed_unpaired", "needed unpaired", COUNT, rank=2),
        K("reference", "against", rank=2), K("pairing", "pairing", rank=2)),
        group=("rules", "source"),
        hide=("metric", "unit", "fan_id", "name_en", "fan"),
        row_value=(), row_diff=("diff",), row_size=("mde",)),
    "findings": View((
        K("finding"), K("group", "rule set: variants"), K("estimate", "estimate (95% CI)"),
        K("detectable", "detectable difference", rank=1), K("sample", rank=1),
        K("note", rank=2)), group=()),
}

# columns of the SQL tables and of analyses without a view: kind by exact name
_BY_NAME = {
    "deals": COUNT, "wins": COUNT, "hands": COUNT, "ready": COUNT, "decisions": COUNT,
    "turn": COUNT, "step": COUNT, "player": COUNT, "winner": COUNT, "dealer": COUNT,
    "discarder": COUNT, "total": POINTS, "points": POINTS, "n": COUNT,
}


def guess(name: str, dtype=None) -> Col:
    """A column no view names (a SQL result): its kind from its exact name, else from its
    type (whole numbers ``count``, other numbers ``number`` with per-column decimals)."""
    kind = _BY_NAME.get(name)
    if kind is None and dtype is not None:
        if dtype.is_integer():
            kind = COUNT
        elif dtype.is_float() or dtype.is_decimal():
            kind = NUMBER
        else:
            kind = TEXT
    return Col(name, name, kind or TEXT, None, 2 if dtype is not None and dtype.is_nested()
               else 1)


# -- compare: the kind of each metric row -----------------------------------------------------
def metric_kind(metric: str, unit: str | None = None) -> str:
    """The kind of a ``compare`` metric's values (its differences are :data:`DIFF` of it).
    A ``unit`` column, when the analysis gives one, decides; else the metric's name."""
    if unit:
        u = unit.strip().lower()
        for k, names in ((PCT, ("%", "pct", "percent", "share", "rate", "proportion")),
                         (POINTS, ("points", "point", "tai", "fan")),
                         (TURNS, ("turn", "turns")), (MEAN, ("count",))):
            if u in names:
                return k
    m = metric.lower()
    if m.startswith("ev") or "payment" in m or "win total" in m or "dealer net" in m:
        return POINTS
    if "turn" in m and "share" not in m and "rate" not in m:
        return TURNS
    if any(w in m for w in ("net payment", "dealer net", "win total", "ev ", "points",
                            "payment")):
        return POINTS
    if m.startswith("ev"):
        return POINTS
    return PCT      # rates, shares, fan shares, agreement, per-deal draw indicators


def unique_labels(cols: Sequence[Col]) -> list[str]:
    """Headers (label and unit) that are all different: a label used twice gets its
    column name appended."""
    heads = [header(c.label, c.kind) for c in cols]
    seen: dict[str, int] = {}
    for h in heads:
        seen[h] = seen.get(h, 0) + 1
    return [h if seen[h] == 1 else f"{h} [{c.name}]" for h, c in zip(heads, cols)]


__all__ = ["PCT", "PP", "POINTS", "DPOINTS", "TURNS", "DTURNS", "COUNT", "RATIO", "NUMBER",
           "TEXT", "WIND", "MEAN", "DMEAN", "UNIT", "DIFF", "LEVEL", "UNIT_WORDS", "MISSING", "fmt", "fmt_interval", "fmt_estimate",
           "header", "decimals_for", "Col", "View", "VIEWS", "guess", "metric_kind",
           "unique_labels"]
