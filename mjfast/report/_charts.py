"""Charts (matplotlib, Agg backend) of the analyses' tables; each returns PNG bytes or None
when its table is empty. Computes nothing: it draws what the analytics returned."""
from __future__ import annotations

import io

import polars as pl

COLORS = {"all_high": "#2e7d32", "split": "#f9a825", "all_low": "#c62828"}
TOP_FANS = 20


def _plt(family: str | None):
    import matplotlib
    matplotlib.use("Agg", force=True)
    from matplotlib import pyplot as plt
    plt.rcParams["font.family"] = ([family, "DejaVu Sans"] if family else ["DejaVu Sans"])
    plt.rcParams["axes.unicode_minus"] = False
    plt.rcParams["axes.spines.top"] = False
    plt.rcParams["axes.spines.right"] = False
    return plt


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None})
    import matplotlib.pyplot as plt
    plt.close(fig)
    return buf.getvalue()


def _groups(df: pl.DataFrame, keys=("rules", "variant")):
    return [(g, df.filter(*[pl.col(k) == v for k, v in zip(keys, g)]))
            for g in df.select(*keys).unique(maintain_order=True).sort(list(keys)).rows()]


def fan_label(row: dict, cjk: bool) -> str:
    return f"{row['name_zh']}  {row['name_en']}" if cjk else str(row["name_en"])


def fan_frequency(df: pl.DataFrame, family: str | None) -> bytes | None:
    if df.height == 0:
        return None
    plt = _plt(family)
    groups = _groups(df, ("rules", "variant", "source"))
    most = max(min(TOP_FANS, sub.height) for _, sub in groups)
    fig, axes = plt.subplots(1, len(groups), figsize=(7.5 * len(groups), 0.34 * most + 1.5),
                             squeeze=False)
    for ax, (g, sub) in zip(axes[0], groups):
        sub = sub.sort("wins", descending=True).head(TOP_FANS).reverse()
        rows = sub.to_dicts()
        y = range(len(rows))
        share = [r["share"] for r in rows]
        err = [[r["share"] - r["ci_low"] for r in rows], [r["ci_high"] - r["share"] for r in rows]]
        ax.barh(y, share, xerr=err, color="#1565c0", alpha=.85, ecolor="#555", capsize=2)
        ax.set_yticks(list(y), [fan_label(r, family is not None) for r in rows])
        ax.set_xlabel("share of wins holding the fan (95% Wilson interval)")
        n = rows[0]["n_wins"] if rows else 0
        ax.set_title(f"{g[0]} / {g[1]}: top fans ({n} {'wins' if g[2] == 'wins' else 'complete hands'})")
        ax.set_xlim(0, min(1.0, max(r["ci_high"] for r in rows) * 1.1 + .02))
    return _png(fig)


def cooccurrence(df: pl.DataFrame, family: str | None) -> bytes | None:
    if df.height == 0:
        return None
    plt = _plt(family)
    import numpy as np
    g, sub = _groups(df, ("rules", "variant", "source"))[0]
    ids = sorted(set(sub["fan_a"]) | set(sub["fan_b"]))
    names = {}
    for r in sub.to_dicts():
        names[r["fan_a"]] = r["name_zh_a"] if family else r["name_en_a"]
        names[r["fan_b"]] = r["name_zh_b"] if family else r["name_en_b"]
    idx = {f: i for i, f in enumerate(ids)}
    m = np.full((len(ids), len(ids)), np.nan)
    for r in sub.to_dicts():
        m[idx[r["fan_a"]], idx[r["fan_b"]]] = r["p_b_given_a"]
        m[idx[r["fan_b"]], idx[r["fan_a"]]] = r["p_a_given_b"]
    fig, ax = plt.subplots(figsize=(1 + .6 * len(ids), 1 + .55 * len(ids)))
    im = ax.imshow(m, cmap="viridis", vmin=0, vmax=1)
    labels = [names[f] for f in ids]
    ax.set_xticks(range(len(ids)), labels, rotation=60, ha="right")
    ax.set_yticks(range(len(ids)), labels)
    ax.set_title(f"{g[0]} / {g[1]}: P(column fan | row fan)")
    fig.colorbar(im, ax=ax, shrink=.8)
    return _png(fig)


def high_low(df: pl.DataFrame, family: str | None) -> bytes | None:
    if df.height == 0:
        return None
    plt = _plt(family)
    rows = df.to_dicts()
    labels, bars = [], []
    for r in rows:
        for way, sfx in (("discard", ""), ("self-draw", "_self")):
            labels.append(f"{r['rules']}/{r['variant']} {r['source']}\n{way} (n={r['ready']})")
            bars.append([r[f"share_{c}{sfx}"] or 0 for c in COLORS])
    fig, ax = plt.subplots(figsize=(9, .55 * len(labels) + 1.4))
    left = [0.0] * len(labels)
    for j, cat in enumerate(COLORS):
        vals = [b[j] for b in bars]
        ax.barh(range(len(labels)), vals, left=left, color=COLORS[cat],
                label=cat.replace("_", " "))
        for i, v in enumerate(vals):
            if v >= .06:
                ax.text(left[i] + v / 2, i, f"{v:.0%}", ha="center", va="center",
                        color="white", fontsize=9)
        left = [a + b for a, b in zip(left, vals)]
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of ready hands")
    ax.set_title("Ready hands whose winning tiles all reach the minimum (high), split, or none (low)")
    ax.legend(loc="center left", bbox_to_anchor=(1.01, .5), frameon=False)
    return _png(fig)


def high_low_by_turn(df: pl.DataFrame, family: str | None) -> bytes | None:
    """Per rule set/variant: the split of ready decisions by turn (stacked shares) over the
    number of ready decisions at each turn (so thin turns show as thin)."""
    if df.height == 0:
        return None
    plt = _plt(family)
    groups = _groups(df)
    fig, axes = plt.subplots(2, len(groups), figsize=(8 * len(groups), 5.2), squeeze=False,
                             sharex="col", gridspec_kw={"height_ratios": [3, 1]})
    for k, (g, sub) in enumerate(groups):
        t = sub.group_by("turn").agg(pl.col("ready", *COLORS).sum()).sort("turn")
        turns = t["turn"].to_list()
        ready = t["ready"].cast(pl.Float64)
        shares = [(t[c] / ready).to_list() for c in COLORS]
        ax, axn = axes[0, k], axes[1, k]
        ax.stackplot(turns, *shares, colors=list(COLORS.values()),
                     labels=[c.replace("_", " ") for c in COLORS], alpha=.9)
        ax.set_ylim(0, 1)
        ax.set_ylabel("share of ready decisions")
        ax.set_title(f"{g[0]} / {g[1]}: high and low waits by turn")
        ax.legend(loc="center left", bbox_to_anchor=(1.01, .5), frameon=False)
        axn.bar(turns, t["ready"].to_list(), color="#90a4ae")
        axn.set_ylabel("ready\ndecisions")
        axn.set_xlabel("turn (the player's n-th discard)")
        axn.xaxis.get_major_locator().set_params(integer=True)
    fig.tight_layout()
    return _png(fig)


def ev(df: pl.DataFrame, family: str | None) -> bytes | None:
    if df.height == 0:
        return None
    plt = _plt(family)
    src = "hands" if (df["source"] == "hands").any() else "turns"
    sub = df.filter((pl.col("source") == src) & (pl.col("hands_live") > 0))
    if sub.height == 0:
        return None
    rows = sub.to_dicts()
    labels = [f"{r['rules']}/{r['variant']} {r['form_name'] or 'all'}"
              + (f", {r['n_melds']} melds" if r["n_melds"] is not None else "") for r in rows]
    fig, ax = plt.subplots(figsize=(9, .45 * len(rows) + 1.5))
    y = range(len(rows))
    ax.barh([i - .2 for i in y], [r["ev_discard"] for r in rows], height=.4,
            xerr=[1.96 * (r["ev_discard_se"] or 0) for r in rows], color="#1565c0",
            label="win on a discard")
    ax.barh([i + .2 for i in y], [r["ev_self"] for r in rows], height=.4,
            xerr=[1.96 * (r["ev_self_se"] or 0) for r in rows], color="#6a1b9a",
            label="self-draw")
    ax.set_yticks(list(y), labels)
    ax.invert_yaxis()
    ax.set_xlabel("expected gain of a winning tile, live copies weighted (±95%)")
    ax.set_title(f"Expected value of a ready hand ({src})")
    ax.legend(frameon=False)
    return _png(fig)


def by_turn(df: pl.DataFrame, family: str | None) -> bytes | None:
    if df.height == 0:
        return None
    plt = _plt(family)
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 3.8))
    for g, sub in _groups(df):
        sub = sub.sort("turn")
        a1.plot(sub["turn"], sub["mean_shanten"], "-o", ms=3, label=f"{g[0]}/{g[1]}")
        a2.plot(sub["turn"], sub["ready_rate"], "-o", ms=3, label=f"{g[0]}/{g[1]}")
        a2.fill_between(sub["turn"], sub["ready_low"], sub["ready_high"], alpha=.2)
    a1.set_xlabel("turn"); a1.set_ylabel("mean shanten (14 tiles)")
    a2.set_xlabel("turn"); a2.set_ylabel("ready after the discard")
    a1.set_title("Shanten by turn"); a2.set_title("Ready rate by turn")
    a1.legend(frameon=False)
    return _png(fig)


def payments(df: pl.DataFrame, family: str | None) -> bytes | None:
    if df.height == 0:
        return None
    plt = _plt(family)
    agg = df.group_by("rules", "variant", "dealer").agg(
        pl.col("deals").sum(), pl.col("net_sum").sum()).sort("rules", "variant", "dealer")
    seat = df.group_by("rules", "variant", "seat").agg(
        pl.col("deals").sum(), pl.col("net_sum").sum()).sort("rules", "variant", "seat")
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 3.8))
    lab = [f"{r['rules']}/{r['variant']}\n{'dealer' if r['dealer'] else 'non-dealer'}"
           for r in agg.to_dicts()]
    a1.bar(range(agg.height), (agg["net_sum"] / agg["deals"]).to_list(),
           color=["#ef6c00" if d else "#546e7a" for d in agg["dealer"]])
    a1.set_xticks(range(agg.height), lab)
    a1.set_ylabel("mean net payment per deal")
    a1.axhline(0, color="#333", lw=.8)
    a1.set_title("Dealer against the others")
    winds = "ESWN"
    lab2 = [f"{r['rules']}/{r['variant']}\n{winds[r['seat']] if r['seat'] is not None and 0 <= r['seat'] < 4 else '?'}"
            for r in seat.to_dicts()]
    a2.bar(range(seat.height), (seat["net_sum"] / seat["deals"]).to_list(), color="#00838f")
    a2.set_xticks(range(seat.height), lab2)
    a2.axhline(0, color="#333", lw=.8)
    a2.set_title("By seat wind")
    return _png(fig)


def compare(df: pl.DataFrame, family: str | None) -> bytes | None:
    """Small multiples: one row per metric (own scale), a point and 95% bar per variant."""
    sub = df.filter(pl.col("variant") != pl.col("reference")).filter(
        ~pl.col("metric").str.contains("fan") & pl.col("diff").is_not_null()
        & pl.col("se").is_not_null())
    if sub.height == 0:
        return None
    plt = _plt(family)
    metrics = sub.select("rules", "metric").unique(maintain_order=True).rows()
    fig, axes = plt.subplots(len(metrics), 1, figsize=(9, .62 * len(metrics) + 1.2),
                             squeeze=False)
    for ax, (rules, metric) in zip(axes[:, 0], metrics):
        rows = sub.filter((pl.col("rules") == rules) & (pl.col("metric") == metric)).to_dicts()
        y = list(range(len(rows)))
        ax.errorbar([r["diff"] for r in rows], y, xerr=[1.96 * r["se"] for r in rows],
                    fmt="o", color="#1565c0", capsize=3)
        ax.axvline(0, color="#333", lw=.8)
        ax.set_yticks(y, [r["variant"] for r in rows])
        ax.set_ylim(-.7, len(rows) - .3)
        ax.set_ylabel(f"{rules}: {metric}", rotation=0, ha="right", va="center")
        ax.tick_params(axis="x", labelsize=8)
    axes[0, 0].set_title(f"Rule balance: difference from {rows[0]['reference']} (±95%)")
    fig.tight_layout()
    return _png(fig)
