"""JSON lines (``--format jsonl``, and ``.jsonl`` files under ``--format events``): events
as one JSON object per line (mjai-like, extended for flowers, 16-tile hands, fans and
payments). The one module of the format: its codes, the writer, the reader.

One JSON object per line. Each deal opens with a header, then one object per event, in
``seq`` order::

    {"type": "start_deal", "deal_id": "mcr-s1-g0-d0", "players": 4, ...deal metadata}
    {"type": "deal", "actor": 0, "tiles": ["1m", "E", "a", ...]}     consecutive DEAL rows
    {"type": "draw", "actor": 0, "tile": "5p", "flags": ["replacement"]}
    {"type": "flower", "actor": 0, "tile": "a"}
    {"type": "discard", "actor": 0, "tile": "5p"}
    {"type": "chow", "actor": 1, "target": 0, "tile": "5p", "chow": "4p"}
    {"type": "pung" | "kong" | "concealed_kong" | "added_kong", "actor", "tile", "target"}
    {"type": "claim_lost", "actor": 2, "target": 0, "tile": "5p", "claim": "pung"}
    {"type": "win_passed", "actor": 3, "tile": "5p", "target": 0}
    {"type": "win", "actor": 2, "target": 0, "tile": "5p", "total": 12,
     "fans": [{"id": 49, "name": "Mixed Shifted Chows", "zh": "三色三步高",
               "points": 6, "count": 1}, ...], "scores": [-20, -8, 36, -8]}
    {"type": "exhaustive_draw"}
    {"type": "kong_payment", "actor": 1, "scores": [-2, 6, -2, -2]}
    {"type": "dealer_change", "actor": 1, "streak": 0}

Tiles are the project's short names (``5m``, ``E``, ``C``, flowers ``a``..``h``; see
``mjfast/tiles.py``), ``null`` for a hidden tile. ``flags`` lists the
:class:`~mjfast.datasets.EventFlag` names set (lower case). A field equal to its default
(-1, no flags) is left out; any ``aux`` the kind gives no name to is written as ``"aux"``.
Fan names are joined from the rule context at writing time (the reader ignores them); the
header records the context's ``rules`` and ``variant`` (what wrote the events: a replay
without ``--variant`` uses it). The header carries ``deal_id``, ``players`` and any
metadata the writer is given (a row of the ``deals`` table: dealer, prevalent, seats,
scores...); :func:`read_jsonl` gives back the same :class:`Events` (and the headers on
request).
"""
from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping

import numpy as np

from ..datasets import EventBuilder, EventFlag, EventKind, Events
from ..errors import LogParseError, MjfastError
from ..tiles import N_TILE_IDS, tile_name
from ._chunk import DealInfo, LogChunk, deal_info, events_chunk

if TYPE_CHECKING:
    from ..rules import RuleContext

NAME = "jsonl"
SUFFIXES = (".jsonl", ".ndjson")
SOURCE = None               # the header records the rules that wrote the events

TYPE_NAMES = {
    EventKind.DEAL: "deal", EventKind.DRAW: "draw", EventKind.FLOWER: "flower",
    EventKind.DISCARD: "discard", EventKind.CHOW: "chow", EventKind.PUNG: "pung",
    EventKind.KONG_EXPOSED: "kong", EventKind.KONG_CONCEALED: "concealed_kong",
    EventKind.KONG_ADDED: "added_kong", EventKind.CLAIM_LOST: "claim_lost",
    EventKind.WIN_PASSED: "win_passed", EventKind.WIN: "win",
    EventKind.EXHAUSTIVE_DRAW: "exhaustive_draw", EventKind.KONG_PAYMENT: "kong_payment",
    EventKind.DEALER_CHANGE: "dealer_change",
}
KIND_OF = {v: k for k, v in TYPE_NAMES.items()}
FLAG_NAMES = {int(f): f.name.lower() for f in EventFlag if f.value}
FLAG_OF = {v: k for k, v in FLAG_NAMES.items()}
_TILE_OF = {tile_name(t): t for t in range(N_TILE_IDS)}
_SCORED = (EventKind.WIN, EventKind.KONG_PAYMENT)


def _tile(t: int):
    return None if t < 0 else tile_name(int(t))


def _context(ctx) -> "RuleContext | None":
    """A rule context (or a rule set's name: its default) for the names, or None."""
    if ctx is None:
        return None
    from ..rules import rule_context
    return rule_context(ctx)


def _flags_list(flags: int) -> list[str]:
    f = int(flags) & 0xFF
    out = [name for bit, name in FLAG_NAMES.items() if f & bit]
    rest = f & ~sum(FLAG_NAMES)
    if rest:
        out.append(int(rest))
    return out


def _event_object(ev: Events, r: int, names) -> dict[str, Any]:
    k = EventKind(int(ev.kind[r]))
    o: dict[str, Any] = {"type": TYPE_NAMES[k]}
    if ev.player[r] >= 0:
        o["actor"] = int(ev.player[r])
    if ev.tile[r] >= 0:
        o["tile"] = _tile(ev.tile[r])
    if ev.target[r] >= 0:
        o["target"] = int(ev.target[r])
    aux = int(ev.aux[r])
    if aux != -1:
        if k == EventKind.CHOW and aux >= 0:
            o["chow"] = _tile(aux)
        elif k == EventKind.CLAIM_LOST and aux in {int(x) for x in TYPE_NAMES}:
            o["claim"] = TYPE_NAMES[EventKind(aux)]
        elif k == EventKind.DEALER_CHANGE:
            o["streak"] = aux
        else:
            o["aux"] = aux
    if ev.flags[r]:
        o["flags"] = _flags_list(ev.flags[r])
    if k == EventKind.WIN or ev.total[r] != -1:
        o["total"] = int(ev.total[r])
    if k == EventKind.WIN:
        fans = []
        for fid, pts, cnt in ev.fans_of(r):
            f = {"id": fid}
            if fid in names:
                f["name"], f["zh"] = names[fid]
            f["points"], f["count"] = pts, cnt
            fans.append(f)
        o["fans"] = fans
    if k in _SCORED:
        o["scores"] = [int(x) for x in ev.scores[r]]
    return o


def _jsonable(v):
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    return v


def iter_jsonl(ev: Events, ctx: "RuleContext | str | None" = None,
               headers: Mapping[str, Mapping[str, Any]] | None = None) -> Iterable[str]:
    """The JSON lines of ``ev`` (one string per line, no newline). ``ctx``: the rule
    context that wrote the events (fan names, and ``rules`` / ``variant`` in each header;
    a rule set's name: its default; None: neither). ``headers``: extra metadata per deal
    id, written into its ``start_deal`` object."""
    ctx = _context(ctx)
    names = {} if ctx is None else {i: (n.en, n.zh) for i, n in ctx.names.items()}
    for d, a, b in ev.deal_slices():
        did = ev.deal_ids[d]
        seqs = ev.seq[a:b]
        if not np.array_equal(seqs, np.arange(b - a, dtype=seqs.dtype)):
            raise LogParseError(did, int(a), "events of a deal must be numbered 0, 1, 2, ...")
        head: dict[str, Any] = {"type": "start_deal", "deal_id": did, "players": ev.players}
        if ctx is not None:
            head["rules"] = ctx.rules
            head["variant"] = ctx.variant
        if headers and did in headers:
            for key, v in headers[did].items():
                if key not in ("type", "deal_id", "players"):
                    head[key] = _jsonable(v)
        yield json.dumps(head, ensure_ascii=False, separators=(",", ":"))
        r = a
        while r < b:
            if ev.kind[r] == EventKind.DEAL:
                p = ev.player[r]
                s = r
                while (r < b and ev.kind[r] == EventKind.DEAL and ev.player[r] == p
                       and ev.aux[r] == -1 and ev.target[r] == -1 and ev.flags[r] == 0):
                    r += 1
                if r > s:
                    o = {"type": "deal", "actor": int(p),
                         "tiles": [_tile(t) for t in ev.tile[s:r]]}
                    yield json.dumps(o, ensure_ascii=False, separators=(",", ":"))
                    continue
            yield json.dumps(_event_object(ev, r, names), ensure_ascii=False,
                             separators=(",", ":"))
            r += 1


def encode(ev: Events, ctx: "RuleContext | str | None" = None,
           headers: Mapping[str, Mapping[str, Any]] | None = None) -> bytes:
    """The file's bytes for ``ev`` (:func:`iter_jsonl`, UTF-8, ``\\n`` line ends)."""
    buf = io.StringIO()
    for line in iter_jsonl(ev, ctx, headers):
        buf.write(line)
        buf.write("\n")
    return buf.getvalue().encode("utf-8")


def write(path: str | os.PathLike, ev: Events, ctx: "RuleContext | str | None" = None,
          headers: Mapping[str, Mapping[str, Any]] | None = None) -> Path:
    """Write ``ev`` as JSON lines, atomically. Returns the path."""
    from ..datasets import atomic_write_bytes
    path = Path(path)
    atomic_write_bytes(path, encode(ev, ctx, headers))
    return path


def _err(src: str, line: int, msg: str) -> LogParseError:
    return LogParseError(src, line, msg)


def _tile_id(v, src, line) -> int:
    if v is None:
        return -1
    if isinstance(v, str) and v in _TILE_OF:
        return _TILE_OF[v]
    raise _err(src, line, f"unknown tile {v!r}")


def _int(o, key, src, line, default=-1) -> int:
    v = o.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int):
        raise _err(src, line, f"{key!r} must be an integer, got {v!r}")
    return v


def read_jsonl(source, with_headers: bool = False):
    """Read JSON lines (a path, or an iterable of lines) back into :class:`Events`.
    ``with_headers=True`` returns ``(events, [header dict per deal])``. Bad lines raise
    :class:`~mjfast.errors.LogParseError` naming the source and the line (1-based)."""
    if isinstance(source, (str, os.PathLike)):
        src = str(source)
        with open(source, encoding="utf-8") as f:
            lines = f.read().splitlines()
    else:
        src = "<lines>"
        lines = list(source)
    builder: EventBuilder | None = None
    headers: list[dict] = []
    for i, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            o = json.loads(text)
        except json.JSONDecodeError as e:
            raise _err(src, i, f"not JSON: {e.msg}") from None
        if not isinstance(o, dict) or "type" not in o:
            raise _err(src, i, "each line must be an object with a 'type'")
        t = o["type"]
        if t == "start_deal":
            players = _int(o, "players", src, i, 4)
            if builder is None:
                builder = EventBuilder(players)
            elif builder.players != players:
                raise _err(src, i, "deals with different player counts in one file")
            if not isinstance(o.get("deal_id"), str):
                raise _err(src, i, "start_deal needs a string 'deal_id'")
            builder.start_deal(o["deal_id"])
            headers.append(o)
            continue
        if builder is None or not builder.deal_ids:
            raise _err(src, i, f"{t!r} before any start_deal")
        if t not in KIND_OF:
            raise _err(src, i, f"unknown event type {t!r}")
        kind = KIND_OF[t]
        player = _int(o, "actor", src, i)
        if t == "deal" and "tiles" in o:
            if not isinstance(o["tiles"], list):
                raise _err(src, i, "'tiles' must be a list")
            for name in o["tiles"]:
                builder.add(kind, player=player, tile=_tile_id(name, src, i))
            continue
        tile = _tile_id(o.get("tile"), src, i)
        aux = _int(o, "aux", src, i)
        if "chow" in o:
            aux = _tile_id(o["chow"], src, i)
        if "claim" in o:
            if o["claim"] not in KIND_OF:
                raise _err(src, i, f"unknown claim {o['claim']!r}")
            aux = int(KIND_OF[o["claim"]])
        if "streak" in o:
            aux = _int(o, "streak", src, i)
        flags = 0
        for name in o.get("flags", []):
            if isinstance(name, int) and not isinstance(name, bool):
                flags |= name
            elif name in FLAG_OF:
                flags |= FLAG_OF[name]
            else:
                raise _err(src, i, f"unknown flag {name!r}")
        scores = None
        if kind in _SCORED:
            s = o.get("scores")
            if (not isinstance(s, list) or len(s) != builder.players
                    or not all(isinstance(x, int) for x in s)):
                raise _err(src, i, f"'scores' must be {builder.players} integers")
            scores = s
        fans = None
        if kind == EventKind.WIN:
            fans = []
            for f in o.get("fans", []):
                try:
                    fans.append((int(f["id"]), int(f["points"]), int(f["count"])))
                except (KeyError, TypeError, ValueError):
                    raise _err(src, i, f"bad fan {f!r}: needs id, points, count") from None
        builder.add(kind, player=player, tile=tile, aux=aux,
                    target=_int(o, "target", src, i), flags=flags,
                    total=_int(o, "total", src, i), scores=scores, fans=fans)
    ev = builder.build() if builder is not None else Events.empty()
    return (ev, headers) if with_headers else ev


# ---------------------------------------------------------------------------------------
# the replay's reader
# ---------------------------------------------------------------------------------------
def _jsonl_blocks(path: Path) -> Iterator[tuple[int, list[str]]]:
    """(first line number, lines) of each deal block (a start_deal line and what follows)."""
    block: list[str] = []
    start = 1
    with open(path, "rb") as f:
        for no, raw in enumerate(f, start=1):
            text = raw.decode("utf-8", errors="replace").rstrip("\r\n")
            if '"start_deal"' in text and block:
                yield start, block
                block, start = [], no
            if not block:
                start = no
            block.append(text)
    if block:
        yield start, block


def read_file(path: Path, chunk_deals: int, seen: set, bz: bool) -> Iterator[LogChunk]:
    """The deals of one JSON-lines file in chunks; a block (a ``start_deal`` line and what
    follows) that :func:`read_jsonl` rejects is quarantined with its line."""
    src = str(path)
    parts: list[Events] = []
    infos: list[DealInfo] = []
    lines: list[np.ndarray] = []
    quarantine: list[dict] = []
    n_in = 0

    def flush():
        ev = Events.concat(parts) if parts else Events.empty()
        ln = np.concatenate(lines) if lines else np.zeros(0, np.int64)
        return events_chunk(src, ev, list(infos), list(quarantine), n_in, ln)

    for start, block in _jsonl_blocks(path):
        n_in += 1
        try:
            ev, headers = read_jsonl(block, with_headers=True)
        except MjfastError as e:
            did = None
            try:
                did = json.loads(block[0]).get("deal_id")
            except (ValueError, AttributeError):
                pass
            pos = getattr(e, "position", None)
            quarantine.append({"source": src, "deal_id": did,
                               "line": start + (pos - 1 if isinstance(pos, int) else 0),
                               "step": None, "reason": getattr(e, "reason", str(e)),
                               "rows": len(block)})
            continue
        if len(ev.deal_ids) != 1:
            quarantine.append({"source": src, "deal_id": None, "line": start, "step": None,
                               "reason": "a block without exactly one start_deal",
                               "rows": len(block)})
            continue
        did = ev.deal_ids[0]
        if did in seen:
            quarantine.append({"source": src, "deal_id": did, "line": start, "step": None,
                               "reason": f"deal id {did} repeats an earlier deal",
                               "rows": len(block)})
            continue
        seen.add(did)
        parts.append(ev)
        infos.append(deal_info(did, src, headers[0], start, botzone_default=bz))
        # line of each event: events follow the header one per line (DEAL rows share one)
        lines.append(np.full(len(ev), start, np.int64))
        if len(infos) >= chunk_deals:
            yield flush()
            parts, infos, lines, quarantine, n_in = [], [], [], [], 0
    yield flush()


def read(paths, ctx: "RuleContext | None" = None, *, chunk_deals: int = 2000,
         seen: set | None = None) -> Iterator[LogChunk]:
    """Chunks of the deals of each JSON-lines file of ``paths``. A deal without a wall
    takes the Botzone wall under ``ctx`` MCR ``botzone`` (a replayed Botzone log), else
    the standard one."""
    seen = seen if seen is not None else set()
    bz = ctx is not None and ctx.rules == "mcr" and ctx.variant == "botzone"
    for p in ([paths] if isinstance(paths, (str, os.PathLike)) else paths):
        yield from read_file(Path(p), chunk_deals, seen, bz)


def recorded_variant(path: str | os.PathLike) -> tuple[str, str] | None:
    """(rules, variant) the file's first deal header records (what wrote it), or None."""
    with open(path, "rb") as f:
        for raw in f:
            if raw.strip():
                try:
                    head = json.loads(raw)
                except ValueError:
                    return None
                if isinstance(head, dict) and head.get("rules"):
                    return str(head["rules"]), str(head.get("variant") or "default")
                return None
    return None


__all__ = ["NAME", "SUFFIXES", "SOURCE", "TYPE_NAMES", "KIND_OF", "FLAG_NAMES", "iter_jsonl",
           "encode", "write", "read_jsonl", "read_file", "read", "recorded_variant"]
