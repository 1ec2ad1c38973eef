"""The simulator's Python driver: games -> shards -> tables.

A run is a list of *jobs* (one game under one seat permutation), cut into shards of whole
games; the shards depend only on the arguments (never on the worker count), each is played
by the compiled loop (:func:`mjfast.simulation._loop.play_jobs`) and turned into the
``events``, ``deals``, ``games`` and ``wins`` tables of :mod:`mjfast.datasets`.
:func:`simulate` plays them in this process and returns the tables, or with ``out`` (or
``workers``) runs the simulate job (:mod:`._job`) on the one job runner.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Sequence

import numpy as np
import pyarrow as pa

from ..datasets import (EventFlag, EventKind, Events, conform, events_to_arrow, schema,
                        sim_deal_id, sim_game_id)
from ..engine import END_NAMES, GAME_LENGTH, MODE_WINDS, MODES, WINDS_CAP
from ..errors import ArgumentError, RuleSetError
from ..kernels import C_MINIMUM
from ..rules import RuleContext, get_rules, rule_context

GAME_DEALS = GAME_LENGTH
"""Nominal deals per game (``deals`` N asks for ceil(N / 16) games): MCR four winds x
four dealers; Taiwan at least 16 (four wind rounds with dealer repeats, played to the
end, capped at ``WINDS_CAP``); Tuidaohu / two-player a set 16 deals. See
:mod:`mjfast.engine._structure`."""
GAMES_PER_SHARD = 64
ENGINE_ERRORS = "engine"


def parse_bots(bots: str | Sequence[Any], players: int) -> list[Any]:
    """``"efficiency"`` / ``"efficiency,value,..."`` / a list of names, Python policies or
    :class:`ExternalBot` specs -> one per player (a single one is repeated)."""
    if isinstance(bots, str):
        items: list[Any] = [b.strip() for b in bots.split(",") if b.strip()]
    else:
        items = list(bots)
    if len(items) == 1:
        items = items * players
    if len(items) != players:
        raise ArgumentError(str(bots), None, f"give 1 or {players} bots (one per player)")
    from ._bots import BUILTIN
    for b in items:
        if isinstance(b, str) and b not in BUILTIN and not b.startswith("cmd:"):
            raise ArgumentError(b, None, f"unknown bot (built-ins: {', '.join(BUILTIN)}; "
                                         "an external bot: cmd:<command line>)")
    return items


def permutations(players: int, duplicate: int | bool | None) -> list[tuple[int, ...]]:
    """Seat permutations: none (identity), 4 rotations (``duplicate`` True or 4, or the
    player count), or all 24 (``duplicate`` 24). Permutation ``perm[p]`` = the index of
    the bot list given to player ``p``."""
    if not duplicate:
        return [tuple(range(players))]
    if duplicate is True or int(duplicate) == players:
        return [tuple((p + j) % players for p in range(players)) for j in range(players)]
    if int(duplicate) == 24 and players == 4:
        return list(itertools.permutations(range(4)))
    raise ArgumentError(str(duplicate), None, f"duplicate: {players} rotations or 24 (4 players)")


@dataclass
class Plan:
    rules: str
    variant: str | None                            # the loader's key of ``ctx``
    seed: int
    bots: list[Any]
    n_deals: int
    wall: str | None
    perms: list[tuple[int, ...]]
    jobs: np.ndarray = field(repr=False)           # (J, 4) game, perm, max deals, dealer
    job_bots: list[list[Any]] = field(repr=False)  # per job, bot by entrant (game player)
    chips: int = 0                                 # two-player chips per entrant (0: none)
    ctx: RuleContext | None = field(default=None, repr=False)   # the rule context

    def shards(self, games_per_shard: int = GAMES_PER_SHARD) -> list[np.ndarray]:
        """Job index ranges of the shards (whole games, every permutation of a game in
        the same shard)."""
        games = self.jobs[:, 0]
        out = []
        ug = np.unique(games)
        for i in range(0, len(ug), games_per_shard):
            sel = np.flatnonzero(np.isin(games, ug[i:i + games_per_shard]))
            out.append(sel)
        return out


def make_plan(rules: str | RuleContext, bots, deals: int, seed: int,
              variant: str | RuleContext | None = None, wall: str | None = None,
              duplicate: int | bool | None = None, chips: int | None = None) -> Plan:
    """The jobs of a run: ceil(deals / 16) games, each once per seat permutation. A
    job's ``max deals`` is 16 (MCR, Tuidaohu, two-player) or the safety cap (Taiwan,
    whose games run to the end of the North round); the last game is cut to the
    remainder when ``deals`` is not a multiple of 16 (so Taiwan runs give at least
    ``deals`` deals, exactly ``deals`` when fewer than 16). ``rules`` / ``variant``: a
    rule set and variant, or a :class:`~mjfast.rules.RuleContext` (no variant: the
    default tables)."""
    ctx = rule_context(rules, variant)
    rs = ctx.structure
    if wall not in (None, "standard", "botzone"):
        raise ArgumentError(str(wall), None, "wall is 'standard' or 'botzone'")
    if wall == "botzone" and rs.name != "mcr":
        raise RuleSetError(rs.name, None, "the Botzone wall is an MCR convention")
    if not isinstance(deals, (int, np.integer)) or deals < 1:
        raise ArgumentError(str(deals), None, "deals must be a positive integer")
    if not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2 ** 63:
        raise ArgumentError(str(seed), None, "seed must be an integer in 0..2**63-1")
    if chips is not None and (not isinstance(chips, (int, np.integer)) or chips < 0):
        raise ArgumentError(str(chips), None, "chips must be a non-negative integer")
    if chips and rs.name != "two_player":
        raise RuleSetError(rs.name, None, "chips (a cap on payments) are a two-player rule")
    items = parse_bots(bots, rs.players)
    perms = permutations(rs.players, duplicate)
    g = GAME_DEALS[rs.name]
    full = WINDS_CAP if MODES[rs.name] == MODE_WINDS else g
    rows, job_bots = [], []
    n_games = -(-int(deals) // g)
    for game in range(n_games):
        rest = int(deals) - game * g
        nd = full if rest >= g else rest
        for pi, perm in enumerate(perms):
            rows.append((game, pi, nd, 0))
            job_bots.append([items[perm[p]] for p in range(rs.players)])
    return Plan(rs.name, ctx.arg, int(seed), items, int(deals), wall, perms,
                np.asarray(rows, dtype=np.int64).reshape(-1, 4), job_bots, int(chips or 0), ctx)


# ---------------------------------------------------------------------------------------
# one worker's compiled pieces
# ---------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def _worker(rules: str, variant: str | None, wall: str | None):
    from ..engine import make_context
    from ..engine.layout import STATE_SIZE
    from ._eval import make_bot_context
    from ._rng import tile_set
    ctx = make_context(rules, variant)
    bc = make_bot_context(rules)
    S = np.zeros(STATE_SIZE, dtype=np.int32)
    base = tile_set(rules, flowers=False if wall == "botzone" else None)
    return ctx, bc, S, base


def _bot_code(b) -> int:
    from ._bots import BOT_PYTHON, BUILTIN
    return BUILTIN.get(b, BOT_PYTHON) if isinstance(b, str) else BOT_PYTHON


@dataclass
class ShardResult:
    events: Events
    tables: dict[str, pa.Table]
    errors: list[dict]


def play_shard(plan: Plan, job_idx: np.ndarray, every_seat_in_python: bool = False) -> ShardResult:
    """Play the jobs ``job_idx`` of ``plan`` in the compiled loop and build the tables.
    Built-in seats decide in compiled code; the loop stops for a seat with a Python policy
    or an external bot, :class:`~._pyloop.PythonSeats` answers and the loop resumes (a
    shard without such a seat is played in one call). ``every_seat_in_python``: every
    decision and event goes through the Python side (a check of the stops)."""
    from . import _loop as L
    from ..engine.layout import WALL_BOTZONE, WALL_STANDARD
    ctx, bc, S, base = _worker(plan.rules, plan.variant, plan.wall)
    jobs = plan.jobs[job_idx]
    codes = np.array([[_bot_code(b) for b in plan.job_bots[j]] + [0] * (4 - len(plan.job_bots[j]))
                      for j in job_idx], dtype=np.int64).reshape(-1, 4)
    seats = None
    if every_seat_in_python or (codes < 0).any():
        from ._pyloop import PythonSeats
        seats = PythonSeats(plan, job_idx, every_seat_in_python)
        codes = seats.codes()
    total_deals = int(jobs[:, 2].sum())
    wall_mode = WALL_BOTZONE if plan.wall == "botzone" else WALL_STANDARD
    minimum = int(ctx[0][C_MINIMUM])
    cap_d = max(total_deals, 1)
    EV = np.zeros((min(cap_d, 256) * 1024 + 1024, L.EV_COLS), dtype=np.int32)
    FN = np.zeros((min(cap_d, 256) * 160 + 160, 3), dtype=np.int32)
    META = np.zeros((cap_d, L.META_COLS), dtype=np.int64)
    WALLS = np.zeros((cap_d, len(base)), dtype=np.int8)
    W, A, Q = L.new_workspace()
    wall = np.empty(len(base), dtype=np.int8)
    seed = np.uint64(plan.seed)
    mode, length = MODES[plan.rules], GAME_LENGTH[plan.rules]
    while True:
        st = int(L.play_jobs(S, ctx, bc, base, seed, jobs, codes, wall_mode, mode, length,
                             plan.chips, minimum, EV, FN, META, WALLS, W, A, Q, wall))
        if st == L.J_DONE:
            break
        if st == L.J_FULL:
            EV = np.concatenate((EV, np.zeros_like(EV)))
            FN = np.concatenate((FN, np.zeros_like(FN)))
            continue
        if seats is None:
            raise RuntimeError(f"the play loop stopped with status {st} in a game without a Python seat")
        seats(st, S, W, A, Q, EV, ctx, bc)
    dd, r, nf = int(W[L.JS_DD]), int(W[L.JS_R]), int(W[L.JS_NF])
    return build_tables(plan, job_idx, EV[:r], FN[:nf], META[:dd], WALLS[:dd])


def build_tables(plan: Plan, job_idx, EV, FN, META, WALLS) -> ShardResult:
    """Events and the ``events``/``deals``/``games``/``wins`` tables of one shard."""
    from . import _loop as L
    rs = get_rules(plan.rules)
    n = rs.players
    jobs = plan.jobs[job_idx]
    D = len(META)
    deal_ids, game_ids = [], []
    for d in range(D):
        game, perm = (int(x) for x in jobs[META[d, L.M_JOB], :2])
        deal_ids.append(sim_deal_id(plan.rules, plan.seed, game, int(META[d, L.M_DEAL]), perm))
        game_ids.append(sim_game_id(plan.rules, plan.seed, game, perm))
    counts = (META[:, L.M_EV1] - META[:, L.M_EV0]).astype(np.int64)
    R = int(counts.sum())
    deal_col = np.repeat(np.arange(D, dtype=np.int32), counts)
    starts = np.repeat(META[:, L.M_EV0], counts)
    seq = (np.arange(R) - starts).astype(np.int32)
    kind = EV[:, L.E_KIND].astype(np.int8)
    pts = (plan.ctx or rule_context(plan.rules, plan.variant)).profile.points_array(256, np.int32)
    flen = np.bincount(FN[:, 0], minlength=R)[:R].astype(np.int32) if len(FN) else np.zeros(R, np.int32)
    offs = np.zeros(R + 1, dtype=np.int32)
    np.cumsum(flen, out=offs[1:])
    order = np.argsort(FN[:, 0], kind="stable") if len(FN) else np.zeros(0, np.int64)
    FNs = FN[order]
    total = EV[:, L.E_TOTAL].astype(np.int32)
    ev = Events(deal_ids=deal_ids, deal=deal_col, seq=seq, kind=kind,
                player=EV[:, L.E_PLAYER].astype(np.int8), tile=EV[:, L.E_TILE].astype(np.int8),
                aux=EV[:, L.E_AUX].astype(np.int8), target=EV[:, L.E_TARGET].astype(np.int8),
                flags=EV[:, L.E_FLAGS].astype(np.int8), total=total,
                scores=np.ascontiguousarray(EV[:, L.E_SCORES:L.E_SCORES + n]).astype(np.int32),
                fan_offsets=offs, fan_id=FNs[:, 1].astype(np.int16),
                fan_points=pts[FNs[:, 1]].astype(np.int32), fan_count=FNs[:, 2].astype(np.int16),
                players=n)
    errors = [{"deal_id": deal_ids[d], "code": int(META[d, L.M_ERR])}
              for d in np.flatnonzero(META[:, L.M_ERR] != 0)]
    return ShardResult(ev, _tables(plan, jobs, ev, META, WALLS, deal_ids, game_ids, EV), errors)


def _lists(rows: np.ndarray, type_) -> pa.Array:
    """A list column from a 2-D array, one list per row (all of one length)."""
    D, k = rows.shape
    offsets = pa.array(np.arange(0, (D + 1) * k, k, dtype=np.int32))
    return pa.ListArray.from_arrays(offsets, pa.array(rows.reshape(-1), type_.value_type))


def _masked(values: np.ndarray, valid: np.ndarray, type_) -> pa.Array:
    """``values`` where ``valid``, null elsewhere (0 under a null)."""
    if valid.all():
        return pa.array(values, type_)
    return pa.array(np.where(valid, values, 0), type_, mask=~valid)


def _tables(plan: Plan, jobs, ev: Events, META, WALLS, deal_ids, game_ids, EV) -> dict:
    """The ``deals``, ``games`` and ``wins`` tables (columns built from the arrays, the
    fan lists taken from the events table's)."""
    from . import _loop as L
    n = ev.players
    D = len(META)
    events = events_to_arrow(ev)
    win_rows = np.flatnonzero(ev.kind == EventKind.WIN)
    first = np.full(D, -1, dtype=np.int64)          # each deal's first win (event row)
    if len(win_rows):
        uniq, at = np.unique(ev.deal[win_rows], return_index=True)
        first[uniq] = win_rows[at]
    has = first >= 0
    w = np.where(has, first, 0)
    tgt = ev.target[w].astype(np.int64) if len(ev) else np.zeros(D, np.int64)
    fans = events.column("fans").combine_chunks()
    job_of = META[:, L.M_JOB]
    dealer = META[:, L.M_DEALER]
    entrants = META[:, L.M_ENTRANT:L.M_ENTRANT + n]
    names: dict[int, list[str]] = {}
    bots = []
    for d in range(D):
        j = int(job_of[d])
        if j not in names:
            names[j] = [_bot_name(b) for b in _job_bots(plan, jobs, j)]
        bots.append([names[j][e] for e in entrants[d]])
    sch = schema("deals")
    typ = {f.name: f.type for f in sch}
    deals = {
        "deal_id": deal_ids, "game_id": game_ids,
        "deal_index": pa.array(META[:, L.M_DEAL], typ["deal_index"]),
        "source": ["simulate"] * D,
        "seed": pa.array(np.full(D, plan.seed, dtype=np.uint64), typ["seed"]),
        "prevalent": pa.array(META[:, L.M_PREVALENT], typ["prevalent"]),
        "dealer": pa.array(dealer, typ["dealer"]),
        "streak": pa.array(META[:, L.M_STREAK], typ["streak"]),
        "seats": _lists((np.arange(n)[None, :] - dealer[:, None]) % n, typ["seats"]),
        "start_scores": _lists(META[:, L.M_START:L.M_START + n], typ["start_scores"]),
        "wall": pa.array([np.asarray(x, np.int8) for x in WALLS], type=typ["wall"]),
        "wall_mode": [plan.wall or "standard"] * D,
        "entrants": _lists(entrants, typ["entrants"]),
        "bots": bots,
        "permutation": pa.array(jobs[job_of, 1] if D else np.zeros(0, np.int64),
                                typ["permutation"]),
        "draw": pa.array(META[:, L.M_ENDED] == 2, typ["draw"]),
        "n_wins": pa.array(META[:, L.M_NWINS], typ["n_wins"]),
        "winner": _masked(ev.player[w] if len(ev) else np.zeros(D), has, typ["winner"]),
        "self_drawn": _masked(tgt < 0, has, typ["self_drawn"]),
        "discarder": _masked(tgt, has & (tgt >= 0), typ["discarder"]),
        "total": _masked(ev.total[w] if len(ev) else np.zeros(D), has, typ["total"]),
        "fans": fans.take(pa.array(w, mask=~has)) if D else pa.array([], typ["fans"]),
        "scores": _lists(META[:, L.M_SCORES:L.M_SCORES + n], typ["scores"]),
        "n_events": pa.array(META[:, L.M_EV1] - META[:, L.M_EV0], typ["n_events"]),
    }
    games: dict[str, list] = {k: [] for k in ("game_id", "seed", "n_deals", "bots",
                                              "final_scores", "end", "prevalent_rounds",
                                              "dealer_passes")}
    seen = {}
    for d in range(D):
        seen.setdefault(game_ids[d], []).append(d)
    for gid, ds in seen.items():
        last = ds[-1]
        ent = META[last, L.M_ENTRANT:L.M_ENTRANT + n]
        fin = np.zeros(n, dtype=np.int64)        # by entrant (the game's players)
        fin[ent] = META[last, L.M_START:L.M_START + n] + META[last, L.M_SCORES:L.M_SCORES + n]
        dealers = META[ds, L.M_DEALER]
        games["game_id"].append(gid)
        games["seed"].append(plan.seed)
        games["n_deals"].append(len(ds))
        games["bots"].append([_bot_name(b) for b in _job_bots(plan, jobs, int(job_of[ds[0]]))])
        games["final_scores"].append([int(x) for x in fin])
        games["end"].append(END_NAMES[int(META[last, L.M_GAME_END])] or None)
        games["prevalent_rounds"].append(len(np.unique(META[ds, L.M_PREVALENT])))
        games["dealer_passes"].append(int((dealers[1:] != dealers[:-1]).sum()))
    wt = {f.name: f.type for f in schema("wins")}
    wtg = ev.target[win_rows].astype(np.int64)
    wins = {
        "deal_id": [deal_ids[d] for d in ev.deal[win_rows]],
        "step": pa.array(ev.seq[win_rows], wt["step"]),
        "winner": pa.array(ev.player[win_rows], wt["winner"]),
        "self_drawn": pa.array(wtg < 0, wt["self_drawn"]),
        "discarder": _masked(wtg, wtg >= 0, wt["discarder"]),
        "tile": pa.array(ev.tile[win_rows], wt["tile"]),
        "flags": pa.array(EV[win_rows, L.E_SIT], wt["flags"]),
        "total": pa.array(ev.total[win_rows], wt["total"]),
        "legal": pa.array((ev.flags[win_rows].astype(np.int64)
                           & int(EventFlag.FALSE_WIN)) == 0, wt["legal"]),
        "fans": fans.take(pa.array(win_rows)),
        "scores": _lists(np.asarray(ev.scores[win_rows]).reshape(len(win_rows), n),
                         wt["scores"]),
        "source": ["simulate"] * len(win_rows),
    }
    return {"events": events, "deals": conform("deals", deals),
            "games": conform("games", games), "wins": conform("wins", wins)}


def _job_bots(plan: Plan, jobs, j: int):
    # jobs rows are (game, perm, ...): the bots of a job follow from its permutation
    perm = plan.perms[int(jobs[j, 1])]
    return [plan.bots[perm[p]] for p in range(len(perm))]


def _bot_name(b) -> str:
    if isinstance(b, str):
        return b
    return getattr(b, "name", None) or getattr(b, "__name__", None) or type(b).__name__


# ---------------------------------------------------------------------------------------
# the run: shards -> files / tables
# ---------------------------------------------------------------------------------------
@dataclass
class SimulationResult:
    """What :func:`simulate` returns: the tables (in memory when no ``out`` was given),
    the dataset folder (when written), deals the engine stopped on (``errors``)."""
    tables: dict[str, pa.Table] | None
    events: Events | None
    path: str | None
    n_deals: int
    errors: list[dict]


def headers(deals: pa.Table) -> dict[str, dict]:
    """Per deal id, what a log writer puts in its header (the ``deals`` row's dealer,
    winds, seats, scores, bots, game)."""
    cols = ("dealer", "prevalent", "streak", "seats", "start_scores", "bots", "permutation",
            "game_id", "deal_index")
    data = deals.select(["deal_id", *cols]).to_pylist()
    return {row.pop("deal_id"): row for row in data}


def simulate(rules: str | RuleContext = "mcr", bots="efficiency", deals: int = 100,
             seed: int = 0, *, variant: str | RuleContext | None = None,
             wall: str | None = None, duplicate: int | bool | None = None,
             out: str | None = None, jsonl: bool = False, botzone_text: bool = False,
             workers: int = 1, games_per_shard: int = GAMES_PER_SHARD,
             chips: int | None = None,
             progress: Callable[[int, int, int], None] | None = None,
             executor=None) -> SimulationResult:
    """Simulate ``deals`` deals (ceil(deals / 16) games played by the rule set's game
    structure, the last one cut short; Taiwan's games run to the end of the North round,
    so a Taiwan run has at least ``deals`` deals) with ``bots`` (one
    name, a comma list or a list: ``efficiency``, ``value``, ``planner``,
    ``planner_defend``, ``cmd:<command>``, a Python policy, a :class:`BotzoneBot`), deterministic in ``seed`` whatever ``workers``.

    ``rules`` / ``variant``: a rule set and variant (a bundled name or a ``.toml`` path;
    none: the default tables), or a :class:`~mjfast.rules.RuleContext`.
    ``duplicate`` (True / 4 / 24) plays every game once per seat permutation (same walls).
    ``wall="botzone"`` (MCR): the Botzone judge's wall (136 tiles, a 34-tile segment per
    player). Without ``out`` the tables come back in memory (``workers`` > 1: played by the
    job runner's process pool). With ``out`` the simulate job (:func:`simulate_job`) runs on
    the one job runner into that dataset folder (``events``, ``deals``, ``games``,
    ``wins``; plus ``jsonl/`` and, for MCR + botzone wall + botzone variant, ``botzone/``
    text): resumable, the same command again rewrites nothing; only the path comes back.
    ``executor``: a runner executor (default: a pool of ``workers``, inline for one).
    ``progress(shards_done, shards, deals_done)`` is called after each shard.
    ``chips`` (two-player): each player brings that many chips, pays at most his stack
    and the game ends when a stack is spent.
    """
    plan = make_plan(rules, bots, deals, seed, variant, wall, duplicate, chips)
    if botzone_text and not (plan.rules == "mcr" and plan.wall == "botzone"
                             and plan.ctx.variant == "botzone"):
        raise ArgumentError("botzone_text", None, "Botzone text needs rules mcr, "
                                                  "wall botzone and variant botzone")
    if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) or workers < 1:
        raise ArgumentError(str(workers), None, "workers must be a positive integer")
    if out is None and workers == 1 and executor is None:
        shards = plan.shards(games_per_shard)
        parts = []
        done_deals = 0
        for i, idx in enumerate(shards):
            res = play_shard(plan, idx)
            parts.append(res)
            done_deals += res.tables["deals"].num_rows
            if progress:
                progress(i + 1, len(shards), done_deals)
        tables = {k: pa.concat_tables([p.tables[k] for p in parts]) for k in parts[0].tables}
        events = Events.concat([p.events for p in parts])
        return SimulationResult(tables, events, None, done_deals,
                                [e for p in parts for e in p.errors])
    from ..runner import InlineExecutor, make_executor, run_job
    from ._job import simulate_job
    ex = executor or make_executor(workers)
    if not all(isinstance(b, str) for b in plan.bots) and not isinstance(ex, InlineExecutor):
        raise ArgumentError(str(workers), None, "Python policies and bot objects play in this "
                                                "process: workers=1")
    job = simulate_job([plan.ctx], plan.bots, plan.n_deals, plan.seed, wall=plan.wall,
                       duplicate=duplicate, games_per_shard=games_per_shard, chips=chips,
                       jsonl=jsonl and out is not None, botzone_text=botzone_text and out is not None)
    state = {"deals": 0}

    def on_shard(key, info, done, total):
        state["deals"] += int(info.get("rows", {}).get("deals", 0))
        if progress:
            progress(done, total, state["deals"])

    if out is not None:
        summary = run_job(job, out, ex, progress=on_shard)
        markers = summary.manifest["shards"].values()
        return SimulationResult(None, None, str(out), int(summary.tables.get("deals", 0)),
                                [e for m in markers for e in m.get("errors", [])])
    import tempfile
    from ..datasets import Dataset, events_from_arrow
    with tempfile.TemporaryDirectory(prefix="mjfast-simulate-") as tmp:
        summary = run_job(job, tmp, ex, progress=on_shard)
        ds = Dataset(tmp)
        import pyarrow.parquet as pq
        tables = {}
        for name in ("events", "deals", "games", "wins"):
            files = [ds.shard_path(name, plan.rules, plan.ctx.variant, s.key) for s in job.shards]
            tables[name] = pa.concat_tables([pq.read_table(f) for f in files if f.exists()]) \
                if any(f.exists() for f in files) else conform(name, {})
        markers = summary.manifest["shards"].values()
        return SimulationResult(tables, events_from_arrow(tables["events"]), None,
                                tables["deals"].num_rows,
                                [e for m in markers for e in m.get("errors", [])])
