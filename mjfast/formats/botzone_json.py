"""Botzone match-log JSON (``--format botzone-json``): one deal per file, the file name is
its id. The format has a reader only (the project writes Botzone logs as text).

The public events are the judge steps' ``display`` objects (``INIT``, ``DEAL``, ``DRAW``,
``PLAY``, ``PENG``, ``CHI``, ``GANG``, ``BUGANG``, ``HU``, ``HUANG``); the bots' replies
between them give the claims that lost on priority. Resolved here:

- ``PENG`` / ``CHI`` carry the claimer's follow-up discard: two events (the claim, then a
  DISCARD); the claimed tile is the live discard, ``tileCHI`` the chow's middle tile.
- ``GANG`` is an exposed kong of the live discard when one is live (a discard by another
  player, not yet claimed), else a concealed kong (after the player's own draw).
- ``BUGANG`` is an added kong, which the others may rob (a ``HU`` right after it).
- ``canHu`` of each display is kept per event row (on PENG/CHI: on the follow-up discard).
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator

import numpy as np

from ..datasets import EventFlag, EventKind
from ._chunk import ChunkBuilder, DealInfo, LogChunk
from .botzone_text import judge_names, tile_codes

if TYPE_CHECKING:
    from ..rules import RuleContext

NAME = "botzone-json"
SUFFIXES = (".json",)
SOURCE = "botzone-json"     # judged under the Botzone rules (MCR: variant botzone)

_CLAIM_WORDS = {"PENG": EventKind.PUNG, "CHI": EventKind.CHOW, "GANG": EventKind.KONG_EXPOSED,
                "HU": EventKind.WIN}


class _Bad(Exception):
    def __init__(self, step, reason):
        super().__init__(reason)
        self.step = step


def read(paths, ctx: "RuleContext | None" = None, *, chunk_deals: int = 2000,
         seen: set | None = None) -> Iterator[LogChunk]:
    """Chunks of ``chunk_deals`` deals (files) of ``paths``; ``ctx`` maps the judge's fan
    names (default: MCR ``botzone``, the rules the judge used)."""
    from ..rules import rule_context
    ctx = rule_context(ctx if ctx is not None else "mcr", source=SOURCE)
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    yield from Reader(paths, ctx, chunk_deals, seen=seen)


class Reader:
    """Iterate Botzone match-log JSON files in chunks of deals (:class:`LogChunk`)."""

    def __init__(self, paths: Iterable[str | os.PathLike], ctx: "RuleContext",
                 chunk_deals: int = 2000, seen: set | None = None, source: str | None = None):
        self.paths = [str(p) for p in paths]
        self.chunk_deals = max(1, int(chunk_deals))
        self.codes = tile_codes()
        self.fans = judge_names(ctx)
        self.seen = seen if seen is not None else set()
        self.source = source

    def __iter__(self) -> Iterator[LogChunk]:
        cb = ChunkBuilder(self.source or (self.paths[0] if self.paths else ""))
        for path in self.paths:
            if len(cb.deals) >= self.chunk_deals:
                yield cb.build()
                cb = ChunkBuilder(self.source or path)
            self.read_file(cb, path)
        yield cb.build()

    # ------------------------------------------------------------------------------------
    def _tile(self, tok, step) -> int:
        t = self.codes.get(tok, -1) if isinstance(tok, str) else -1
        if t < 0:
            raise _Bad(step, f"unknown tile {tok!r}")
        return t

    def read_file(self, cb: ChunkBuilder, path: str) -> None:
        did = Path(path).stem
        cb.source = self.source or path
        info = DealInfo(deal_id=did, source=path, line=0)
        cb.start(info)
        if did in self.seen:
            cb.reject(None, None, f"deal id {did} repeats an earlier deal")
            return
        self.seen.add(did)
        try:
            with open(path, "rb") as f:
                doc = json.loads(f.read().decode("utf-8"))
        except UnicodeDecodeError as e:
            cb.reject(None, None, f"invalid JSON: not UTF-8 text (byte {e.start})")
            return
        except json.JSONDecodeError as e:
            cb.reject(e.lineno, None, f"invalid JSON: {e.msg} (line {e.lineno} column {e.colno})")
            return
        except OSError as e:
            cb.reject(None, None, f"cannot read the file: {e.strerror}")
            return
        try:
            self._doc(cb, info, doc)
        except _Bad as e:
            cb.reject(e.step, cb.current_seq, str(e))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            cb.reject(None, cb.current_seq, f"unexpected log structure: {type(e).__name__} {e}")

    def _doc(self, cb: ChunkBuilder, info: DealInfo, doc) -> None:
        if not isinstance(doc, dict) or "logs" not in doc:
            raise _Bad(None, "not a Botzone match log (no 'logs')")
        init = doc.get("initdata")
        if isinstance(init, str) and init.strip():
            try:
                init = json.loads(init)
            except json.JSONDecodeError as e:
                raise _Bad(None, f"initdata is not valid JSON: {e.msg}") from None
        if isinstance(init, dict):
            info.prevalent = int(init.get("quan", 0))
            if init.get("srand") is not None:
                info.seed = int(init["srand"])
            wall = init.get("walltiles")
            if wall:
                toks = wall.split() if isinstance(wall, str) else list(wall)
                if len(toks) != 136:
                    raise _Bad(None, f"initdata.walltiles has {len(toks)} tiles (136 expected)")
                info.wall = np.array([self._tile(t, None) for t in toks], dtype=np.int8)
        players = doc.get("players")
        if isinstance(players, list):
            info.bots = [p.get("name") if isinstance(p, dict) else str(p) for p in players]
        logs = doc["logs"]
        if not isinstance(logs, list):
            raise _Bad(None, "'logs' is not a list")
        live = None           # (player, tile) of a discard claims may take
        last = None           # (kind, player, tile)
        kong_by = -1
        replies = None        # the bots' responses since the last display
        ended = False
        for step, entry in enumerate(logs):
            if not isinstance(entry, dict):
                raise _Bad(step, "a log step is not an object")
            out = entry.get("output")
            if out is None:
                replies = {k: v.get("response") for k, v in entry.items()
                           if isinstance(v, dict) and k in ("0", "1", "2", "3")}
                continue
            disp = out.get("display") if isinstance(out, dict) else None
            if not isinstance(disp, dict):
                continue
            if ended:
                raise _Bad(step, "a display after the deal's result")
            act = disp.get("action")
            can = disp.get("canHu")
            if can is not None:
                if not (isinstance(can, list) and len(can) == 4):
                    raise _Bad(step, "canHu is not a list of 4")
                can = [int(x) for x in can]
            p = disp.get("player")
            if p is not None and p not in (0, 1, 2, 3):
                raise _Bad(step, f"bad player {p!r}")

            def add(kind, player=-1, tile=-1, aux=-1, target=-1, flags=0, with_can=True):
                nonlocal last
                cb.add(step, kind, player, tile, aux=aux, target=target, flags=int(flags),
                       can_hu=can if with_can else None)
                last = (kind, player, tile)

            lost: list = []
            # claims that lost on priority: replies naming a claim on the live discard
            # (or a rob of an added kong) by players other than the one who acted
            if replies and act in ("PENG", "CHI", "GANG", "HU") and (live is not None or (
                    last is not None and last[0] == EventKind.KONG_ADDED)):
                target = live[0] if live is not None else last[1]
                for k in sorted(replies):
                    m = int(k)
                    word = (replies[k] or "").split()
                    if m == p or not word or word[0] not in _CLAIM_WORDS or m == target:
                        continue
                    kind = _CLAIM_WORDS[word[0]]
                    t = live[1] if live is not None else last[2]
                    lost.append((m, t, int(kind), target))
            replies = None

            def flush_lost():
                # lost claims follow the claim that beat them (the engine's play-loop order)
                for m_, t_, k_, g_ in lost:
                    cb.add(step, EventKind.CLAIM_LOST, m_, t_, aux=k_, target=g_)
                lost.clear()

            if act == "INIT":
                if disp.get("quan") is not None:
                    info.prevalent = int(disp["quan"])
            elif act == "DEAL":
                hands = disp.get("hand")
                if not (isinstance(hands, list) and len(hands) == 4):
                    raise _Bad(step, "DEAL without four hands")
                for q, h in enumerate(hands):
                    if len(h) != 13:
                        raise _Bad(step, f"player {q} is dealt {len(h)} tiles (13 expected)")
                    for t in h:
                        add(EventKind.DEAL, q, self._tile(t, step), with_can=False)
            elif act == "DRAW":
                t = self._tile(disp.get("tile"), step)
                flags = EventFlag.REPLACEMENT if kong_by == p else 0
                kong_by = -1
                add(EventKind.DRAW, p, t, flags=flags)
                live = None
            elif act == "PLAY":
                t = self._tile(disp.get("tile"), step)
                add(EventKind.DISCARD, p, t)
                live = (p, t)
            elif act in ("PENG", "CHI"):
                if live is None or live[0] == p:
                    raise _Bad(step, f"{act} with no discard before it")
                dp, dt = live
                if act == "PENG":
                    add(EventKind.PUNG, p, dt, target=dp, with_can=False)
                else:
                    mid = self._tile(disp.get("tileCHI"), step)
                    if mid >= 27 or mid % 9 in (0, 8):
                        raise _Bad(step, "CHI names the chow's middle tile (a suited 2..8)")
                    add(EventKind.CHOW, p, dt, aux=mid - 1, target=dp, with_can=False)
                flush_lost()
                t = self._tile(disp.get("tile"), step)
                add(EventKind.DISCARD, p, t)
                live = (p, t)
            elif act == "GANG":
                if live is not None and live[0] != p:
                    add(EventKind.KONG_EXPOSED, p, live[1], target=live[0])
                else:
                    tok = disp.get("tile")
                    t = self._tile(tok, step) if tok else -1
                    add(EventKind.KONG_CONCEALED, p, t,
                        flags=EventFlag.HIDDEN if t < 0 else 0)
                flush_lost()
                live = None
                kong_by = p
            elif act == "BUGANG":
                add(EventKind.KONG_ADDED, p, self._tile(disp.get("tile"), step))
                live = None
                kong_by = p
            elif act == "HU":
                if last is not None and last[0] == EventKind.DRAW and last[1] == p:
                    add(EventKind.WIN, p, last[2])
                elif live is not None and live[0] != p:
                    add(EventKind.WIN, p, live[1], target=live[0])
                elif last is not None and last[0] == EventKind.KONG_ADDED and last[1] != p:
                    add(EventKind.WIN, p, last[2], target=last[1], flags=EventFlag.ROBBING)
                else:
                    raise _Bad(step, "HU with no tile to win on")
                flush_lost()
                fans = disp.get("fan") or []
                for f in fans:
                    name, cnt = f.get("name"), int(f.get("cnt", 1))
                    hit = self.fans.get(name)
                    if hit is None:
                        info.unknown_fans.append((str(name), cnt))
                    else:
                        info.logged_fans.append((hit[0], hit[1], cnt))
                if disp.get("fanCnt") is not None:
                    info.logged_total = int(disp["fanCnt"])
                if disp.get("score") is not None:
                    info.logged_scores = [int(x) for x in disp["score"]]
                ended = True
            elif act == "HUANG":
                add(EventKind.EXHAUSTIVE_DRAW)
                info.logged_scores = [0, 0, 0, 0]
                ended = True
            else:
                raise _Bad(step, f"unknown action {act!r}")
        if not ended:
            raise _Bad(len(logs), "truncated: the log has no HU or HUANG")
        info.n_lines = len(logs)


__all__ = ["NAME", "SUFFIXES", "SOURCE", "Reader", "read"]
