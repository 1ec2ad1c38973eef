"""Streaming reader of the Botzone text log format (one ``Match`` block per deal).

Grammar (``docs/replay.md``; CRLF or LF; blank lines between blocks are optional)::

    Match <id>
    Wind <0..3>
    Player <n> Deal <13 tiles>             four lines, n = 0..3 in order
    Player <n> Draw|Play|Chi|Peng|Gang|AnGang|BuGang|Hu <tile> [Ignore Player <m> <Act> <tile>]...
    Fan <total> <name>*<count>+...         after Hu
    Score <s0> <s1> <s2> <s3>
    Huang                                  exhaustive draw (then Score)

The file is read line by line in binary (never whole, lines capped at
:data:`MAX_LINE` bytes); a deal whose lines break the grammar is quarantined with the line
and the reason, the reader resynchronises on the next ``Match`` line and every other deal is
still read.
"""
from __future__ import annotations

import os
import re
from typing import Iterator

from ..datasets import EventFlag, EventKind
from ._log import ChunkBuilder, DealInfo, LogChunk, botzone_codes, fan_names

MAX_LINE = 4096
_CONTROL = re.compile(rb"[\x00-\x08\x0a-\x1f\x7f]")
_CLAIMS = {"Chi": EventKind.CHOW, "Peng": EventKind.PUNG, "Gang": EventKind.KONG_EXPOSED,
           "Hu": EventKind.WIN}
_KONGS = (EventKind.KONG_EXPOSED, EventKind.KONG_CONCEALED, EventKind.KONG_ADDED)


_PLAYERS = {"0": 0, "1": 1, "2": 2, "3": 3}
K_DISCARD = int(EventKind.DISCARD)
K_DRAW = int(EventKind.DRAW)
_REPL = int(EventFlag.REPLACEMENT)


class _Bad(Exception):
    """A grammar error in the current deal (message = the reason)."""


def _lines(f, n: int = 0):
    """Yield ``(line_number, text | None, error | None)`` from a binary file object (lines
    numbered from ``n + 1``), capped line length."""
    while True:
        raw = f.readline(MAX_LINE)
        if not raw:
            return
        n += 1
        if not raw.endswith(b"\n") and len(raw) >= MAX_LINE:
            while True:                       # skip the rest of an over-long line
                more = f.readline(MAX_LINE)
                if not more or more.endswith(b"\n"):
                    break
            yield n, None, f"line longer than {MAX_LINE} bytes"
            continue
        raw = raw.rstrip(b"\r\n")
        if _CONTROL.search(raw):
            yield n, None, "control characters (binary data)"
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            yield n, None, f"not UTF-8 text (byte {e.start})"
            continue
        yield n, text, None


class _Deal:
    """Context of the deal being read: just enough to name each event."""
    __slots__ = ("phase", "dealt", "live", "last", "kong_by", "result_line", "lines")

    def __init__(self):
        self.phase = "wind"        # wind -> deal -> play -> fan -> score -> done
        self.dealt = 0
        self.live = None           # (player, tile) of the discard claims may take
        self.last = None           # (kind, player, tile) of the last event
        self.kong_by = -1          # player whose next draw is a kong replacement
        self.result_line = 0
        self.lines = 0


class BotzoneTextReader:
    """Iterate a Botzone text log in chunks of deals (:class:`LogChunk`).

    ``rules``/``variant`` name the profile whose fan names (and aliases) map the ``Fan``
    lines to fan ids."""

    def __init__(self, path: str | os.PathLike, chunk_deals: int = 2000,
                 rules: str = "mcr", variant: str | None = "botzone", seen: set | None = None):
        self.path = str(path)
        self.chunk_deals = max(1, int(chunk_deals))
        self.codes = botzone_codes()
        self.fans = fan_names(rules, variant)
        self.seen = seen if seen is not None else set()

    # -- helpers -----------------------------------------------------------------------
    def _tile(self, tok: str) -> int:
        t = self.codes.get(tok, -1)
        if t < 0:
            raise _Bad(f"unknown tile {tok!r}")
        return t

    def _player(self, tok: str) -> int:
        if tok not in ("0", "1", "2", "3"):
            raise _Bad(f"bad player {tok!r} (0..3)")
        return int(tok)

    # -- main loop ---------------------------------------------------------------------
    def __iter__(self) -> Iterator[LogChunk]:
        with open(self.path, "rb") as f:
            yield from self._iter(f, 0)

    def iter_bytes(self, data: bytes, first_line: int = 0) -> Iterator[LogChunk]:
        """Read ``data`` (a part of the file whose first line is ``first_line + 1``)."""
        import io
        yield from self._iter(io.BytesIO(data), first_line)

    def _iter(self, f, n0: int) -> Iterator[LogChunk]:
        cb = ChunkBuilder(self.path)
        deal: _Deal | None = None
        skipping = False           # after an error: ignore lines until the next Match
        stray_at, stray_n = 0, 0   # a run of lines outside any deal

        def flush_stray():
            nonlocal stray_at, stray_n
            if stray_n:
                cb.stray(stray_at, "text outside a Match block", stray_n)
                stray_at, stray_n = 0, 0

        for no, text, err in _lines(f, n0):
            toks = text.split() if text is not None else None
            if toks is not None and toks and toks[0] == "Match":
                flush_stray()
                if deal is not None and not skipping:
                    cb.reject(no, cb.current_seq,
                              f"truncated: the deal has no result (next Match at line {no})",
                              rows=deal.lines)
                skipping = False
                if len(cb.deals) >= self.chunk_deals:
                    yield cb.build()
                    cb = ChunkBuilder(self.path)
                deal = _Deal()
                deal.lines = 1
                did = toks[1] if len(toks) == 2 else None
                if did is None:
                    cb.stray(no, "bad Match line (Match <id>)")
                    deal, skipping = None, True
                    continue
                cb.start(DealInfo(deal_id=did, source=self.path, line=no))
                if did in self.seen:
                    cb.reject(no, None, f"deal id {did} repeats an earlier deal")
                    deal, skipping = None, True
                    continue
                self.seen.add(did)
                continue
            if skipping:
                if deal is not None:
                    deal.lines += 1
                continue
            if deal is None:
                if toks is not None and not toks:
                    continue                      # blank line between blocks
                if not stray_n:
                    stray_at = no
                stray_n += 1
                continue
            deal.lines += 1
            if toks is not None and not toks:
                continue
            try:
                if err is not None:
                    raise _Bad(err)
                if deal.phase == "play" and toks[0] == "Player":
                    self._play(cb, deal, no, toks)
                else:
                    self._line(cb, deal, no, toks)
            except _Bad as e:
                cb.reject(no, cb.current_seq, str(e), rows=deal.lines)
                skipping = True
                continue
            if deal.phase == "done":
                cb.deals[-1].n_lines = deal.lines
                deal = None
        flush_stray()
        if deal is not None and not skipping:
            cb.reject(None, cb.current_seq, "truncated: the file ends inside the deal",
                      rows=deal.lines)
        yield cb.build()

    # -- one line ----------------------------------------------------------------------
    def _line(self, cb: ChunkBuilder, d: _Deal, no: int, toks: list[str]) -> None:
        head = toks[0]
        info = cb.deals[-1]
        if d.phase == "wind":
            if head != "Wind" or len(toks) != 2 or toks[1] not in ("0", "1", "2", "3"):
                raise _Bad("expected 'Wind <0..3>'")
            info.prevalent = int(toks[1])
            d.phase = "deal"
            return
        if d.phase == "deal":
            if head != "Player" or len(toks) < 3 or toks[2] != "Deal":
                raise _Bad(f"expected 'Player {d.dealt} Deal <13 tiles>'")
            p = self._player(toks[1])
            if p != d.dealt:
                raise _Bad(f"deal lines out of order (player {p}, expected {d.dealt})")
            tiles = [self._tile(t) for t in toks[3:]]
            if len(tiles) != 13:
                raise _Bad(f"player {p} is dealt {len(tiles)} tiles (13 expected)")
            for t in tiles:
                cb.add(no, EventKind.DEAL, p, t)
            for t in tiles:
                if t >= 34:
                    cb.add(no, EventKind.FLOWER, p, t)
            d.dealt += 1
            if d.dealt == 4:
                d.phase = "play"
            return
        if d.phase == "play":
            if head == "Player":
                self._play(cb, d, no, toks)
                return
            if head == "Huang" and len(toks) == 1:
                cb.add(no, EventKind.EXHAUSTIVE_DRAW)
                d.phase = "score"
                return
            raise _Bad(f"unknown line {' '.join(toks)[:40]!r}")
        if d.phase == "fan":
            if head != "Fan" or len(toks) not in (2, 3):
                raise _Bad("expected 'Fan <total> <name>*<count>+...' after Hu")
            self._fan(info, toks)
            d.phase = "score"
            return
        if d.phase == "score":
            if head != "Score" or len(toks) != 5:
                raise _Bad("expected 'Score <s0> <s1> <s2> <s3>'")
            try:
                scores = [int(x) for x in toks[1:]]
            except ValueError:
                raise _Bad("non-integer score") from None
            info.logged_scores = scores
            d.phase = "done"
            return
        raise _Bad("line after the deal's result")

    def _fan(self, info: DealInfo, toks: list[str]) -> None:
        try:
            info.logged_total = int(toks[1])
        except ValueError:
            raise _Bad(f"non-integer fan total {toks[1]!r}") from None
        if len(toks) == 2:
            return
        for item in toks[2].split("+"):
            name, star, cnt = item.rpartition("*")
            if not star or not cnt.isdigit() or not name:
                raise _Bad(f"bad fan item {item!r} (name*count)")
            hit = self.fans.get(name)
            if hit is None:
                info.unknown_fans.append((name, int(cnt)))
            else:
                info.logged_fans.append((hit[0], hit[1], int(cnt)))

    def _play(self, cb: ChunkBuilder, d: _Deal, no: int, toks: list[str]) -> None:
        if len(toks) == 4:                        # the hot path: Draw / Play, no clauses
            p = _PLAYERS.get(toks[1], -1)
            tile = self.codes.get(toks[3], -1)
            act = toks[2]
            if p >= 0 and tile >= 0:
                if act == "Play":
                    cb.add(no, K_DISCARD, p, tile)
                    d.last = (K_DISCARD, p, tile)
                    d.live = (p, tile)
                    return
                if act == "Draw" and tile < 34:
                    flags = _REPL if d.kong_by == p else 0
                    d.kong_by = -1
                    cb.add(no, K_DRAW, p, tile, flags=flags)
                    d.last = (K_DRAW, p, tile)
                    d.live = None
                    return
        if len(toks) < 4:
            raise _Bad("expected 'Player <n> <Action> <tile>'")
        p = self._player(toks[1])
        act = toks[2]
        tile = self._tile(toks[3])
        rest = toks[4:]
        lost = []
        while rest:
            if len(rest) < 5 or rest[0] != "Ignore" or rest[1] != "Player":
                raise _Bad("bad Ignore clause (Ignore Player <m> <Act> <tile>)")
            m = self._player(rest[2])
            kind = _CLAIMS.get(rest[3])
            if kind is None:
                raise _Bad(f"unknown claim {rest[3]!r} in an Ignore clause")
            lost.append((m, kind, self._tile(rest[4])))
            rest = rest[5:]
        target = -1
        if lost:
            if d.live is not None:
                target = d.live[0]
            elif (act == "Hu" and d.last is not None and d.last[0] == EventKind.KONG_ADDED
                  and d.last[1] != p):
                target = d.last[1]          # several players could rob the added kong
            else:
                raise _Bad("Ignore clause with no discard before it (nor an added kong)")
        self._act(cb, d, no, toks, p, act, tile)
        # lost claims follow the claim that beat them (the engine's play-loop order)
        for m, kind, t in lost:
            cb.add(no, EventKind.CLAIM_LOST, m, t, aux=int(kind), target=target)

    def _act(self, cb: ChunkBuilder, d: _Deal, no: int, toks: list[str], p: int, act: str,
             tile: int) -> None:
        if act == "Draw":
            flags = EventFlag.REPLACEMENT if d.kong_by == p else 0
            d.kong_by = -1
            self._event(cb, d, no, EventKind.DRAW, p, tile, flags=flags)
            if tile >= 34:
                self._event(cb, d, no, EventKind.FLOWER, p, tile)
                d.kong_by = p                       # the next draw replaces the flower
            return
        if act == "Play":
            self._event(cb, d, no, EventKind.DISCARD, p, tile)
            d.live = (p, tile)
            return
        if act in ("Chi", "Peng", "Gang"):
            if d.live is None or d.live[0] == p:
                raise _Bad(f"{act} with no discard before it")
            dp, dt = d.live
            if act == "Chi":
                if tile >= 27 or tile % 9 in (0, 8):
                    raise _Bad(f"Chi names the chow's middle tile, not {toks[3]}")
                if not tile - 1 <= dt <= tile + 1 or dt // 9 != tile // 9:
                    raise _Bad(f"Chi {toks[3]} cannot use the discard {dt}")
                self._event(cb, d, no, EventKind.CHOW, p, dt, aux=tile - 1, target=dp)
            else:
                if tile != dt:
                    raise _Bad(f"{act} {toks[3]} but the last discard is another tile")
                kind = EventKind.PUNG if act == "Peng" else EventKind.KONG_EXPOSED
                self._event(cb, d, no, kind, p, tile, target=dp)
                if kind == EventKind.KONG_EXPOSED:
                    d.kong_by = p
            return
        if act in ("AnGang", "BuGang"):
            kind = EventKind.KONG_CONCEALED if act == "AnGang" else EventKind.KONG_ADDED
            self._event(cb, d, no, kind, p, tile)
            d.kong_by = p
            return
        if act == "Hu":
            last = d.last
            if last is not None and last[0] == EventKind.DRAW and last[1] == p and last[2] == tile:
                self._event(cb, d, no, EventKind.WIN, p, tile)
            elif d.live is not None and d.live[0] != p and d.live[1] == tile:
                self._event(cb, d, no, EventKind.WIN, p, tile, target=d.live[0])
            elif (last is not None and last[0] == EventKind.KONG_ADDED and last[1] != p
                  and last[2] == tile):
                self._event(cb, d, no, EventKind.WIN, p, tile, target=last[1],
                            flags=EventFlag.ROBBING)
            else:
                raise _Bad(f"Hu {toks[3]} with no such tile to win on (no draw, discard or "
                           "added kong of it)")
            d.phase = "fan"
            return
        raise _Bad(f"unknown action {act!r}")

    @staticmethod
    def _event(cb, d, no, kind, p, tile, aux=-1, target=-1, flags=0):
        cb.add(no, kind, p, tile, aux=aux, target=target, flags=int(flags))
        d.last = (kind, p, tile)
        if kind != EventKind.DISCARD:
            d.live = None
