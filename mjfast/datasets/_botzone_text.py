"""Events of MCR deals as the Botzone text log format (the writer; the reader is in
``mjfast.replay``). Format: ``/work/shared/data/mcr/README.md``; one block per deal::

    Match <24 hex>                    a hash of the deal id (stable)
    Wind <prevalent 0..3>
    Player <n> Deal <13 tiles>        four lines, dealing order
    Player <n> Draw|Play|Chi|Peng|Gang|AnGang|BuGang|Hu <tile>  [Ignore Player <m> <Claim> <t>]...
    Fan <total> <zh name>*<count>+...  after a win (names: the judge's, aliases first)
    Score <s0> <s1> <s2> <s3>
    Huang / Score 0 0 0 0              exhaustive draw

``Player n`` is the player whose seat wind is n (the Botzone judge's numbering): the
deal's ``seats`` (seat wind by player, from its ``deals`` row) maps players to these
numbers; without it player n is taken to sit at wind n. ``Chi`` names the chow's middle
tile. ``CLAIM_LOST`` rows next to a claim become its ``Ignore`` clauses (a lost chow's
row carries the chow's middle tile as its ``tile``, as the log does). Lines end in CRLF
and blocks are separated by an empty line, as in the judge's files.

Only deals the format can express are accepted (4 players, no flowers, no kong payments);
anything else raises :class:`~mjfast.errors.LogParseError` naming the deal and the row.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from ..errors import LogParseError
from ..notation.botzone import tile_code
from ._events import EventKind as K, Events

_VERB = {K.DRAW: "Draw", K.DISCARD: "Play", K.CHOW: "Chi", K.PUNG: "Peng",
         K.KONG_EXPOSED: "Gang", K.KONG_CONCEALED: "AnGang", K.KONG_ADDED: "BuGang",
         K.WIN: "Hu"}
_CLAIMS = (K.CHOW, K.PUNG, K.KONG_EXPOSED, K.WIN)
_IGNORE = {K.CHOW: "Chi", K.PUNG: "Peng", K.KONG_EXPOSED: "Gang", K.WIN: "Hu"}
_SKIP = (K.DEALER_CHANGE, K.WIN_PASSED, K.EXHAUSTIVE_DRAW)


def match_id(deal_id: str) -> str:
    """A 24-hex ``Match`` id for a deal id (the first 24 hex digits of its SHA-1)."""
    return hashlib.sha1(deal_id.encode()).hexdigest()[:24]


def fan_labels(variant: str | None = "botzone") -> dict[int, str]:
    """Fan id -> the judge's Chinese name (a row's first alias, else its ``zh``)."""
    from ..rules import get_profile
    profile = get_profile("mcr", None if variant in (None, "default") else variant)
    out = {}
    for r in profile.rows:
        al = tuple(getattr(r, "aliases", ()) or ())
        out[r.id] = str(al[0]) if al else r.zh
    return out


def _fail(did: str, row: int, msg: str) -> LogParseError:
    return LogParseError(did, row, f"cannot write as Botzone text: {msg}")


def deal_block(ev: Events, start: int, stop: int, meta: Mapping[str, Any] | None,
               labels: Mapping[int, str], points: Mapping[int, int] | None = None) -> list[str]:
    """The lines of one deal (rows ``start:stop`` of ``ev``), without line ends."""
    did = ev.deal_ids[int(ev.deal[start])]
    meta = meta or {}
    if ev.players != 4:
        raise _fail(did, start, "Botzone MCR deals have 4 players")
    seats = [int(s) for s in meta.get("seats", range(4))]
    if sorted(seats) != [0, 1, 2, 3]:
        raise _fail(did, start, f"seats {seats} are not a permutation of 0..3")
    lines = [f"Match {match_id(did)}", f"Wind {int(meta.get('prevalent', 0))}"]
    hands: dict[int, list[str]] = {}
    order: list[int] = []
    claim_line = -1          # index in `lines` of the last claim, for Ignore clauses
    pending: list[str] = []  # Ignore clauses seen before their claim
    prev_claim = False
    result: np.ndarray | None = None
    win_seen = False
    for r in range(start, stop):
        k = K(int(ev.kind[r]))
        p = int(ev.player[r])
        n = seats[p] if 0 <= p < 4 else -1
        t = int(ev.tile[r])
        if k == K.DEAL:
            if t < 0 or t >= 34:
                raise _fail(did, r, "dealt tiles must be known and not flowers")
            if n not in hands:
                hands[n] = []
                order.append(n)
            hands[n].append(tile_code(t))
            continue
        if hands and order:
            for m in order:
                lines.append(f"Player {m} Deal {' '.join(hands[m])}")
            hands, order = {}, []
        if k in _SKIP:
            if k == K.EXHAUSTIVE_DRAW:
                lines.append("Huang")
            prev_claim = False
            continue
        if k == K.CLAIM_LOST:
            aux = int(ev.aux[r])
            if aux not in _IGNORE or t < 0:
                raise _fail(did, r, f"a lost claim of kind {aux} / tile {t}")
            clause = f"Ignore Player {n} {_IGNORE[K(aux)]} {tile_code(t)}"
            if prev_claim and claim_line >= 0:
                lines[claim_line] += " " + clause
            else:
                pending.append(clause)
            continue
        if k in (K.FLOWER, K.KONG_PAYMENT):
            raise _fail(did, r, f"{k.name} has no Botzone text form (use the botzone wall)")
        if t < 0 or t >= 34:
            raise _fail(did, r, f"{k.name} needs a known tile")
        shown = t
        if k == K.CHOW:
            low = int(ev.aux[r])
            if low < 0:
                raise _fail(did, r, "a chow without its lowest tile")
            shown = low + 1
        line = f"Player {n} {_VERB[k]} {tile_code(shown)}"
        if k in _CLAIMS:
            if pending:
                line += " " + " ".join(pending)
                pending = []
            lines.append(line)
            claim_line = len(lines) - 1
            prev_claim = True
        else:
            lines.append(line)
            prev_claim = False
        if k == K.WIN:
            if win_seen:
                raise _fail(did, r, "Botzone MCR deals have one winner")
            win_seen = True
            fans = sorted(ev.fans_of(r), key=lambda f: (-f[1] if points is None
                                                        else -points.get(f[0], f[1]), f[0]))
            names = "+".join(f"{labels.get(fid, str(fid))}*{cnt}" for fid, _, cnt in fans)
            lines.append(f"Fan {int(ev.total[r])} {names}".rstrip())
            result = np.zeros(4, np.int64)
            for p2 in range(4):
                result[seats[p2]] += int(ev.scores[r, p2])
    if hands and order:
        for m in order:
            lines.append(f"Player {m} Deal {' '.join(hands[m])}")
    if pending:
        raise _fail(did, stop - 1, "a lost claim without the claim that beat it")
    if result is None:
        if not lines or lines[-1] != "Huang":
            raise _fail(did, stop - 1, "a deal must end in a win or an exhaustive draw")
        result = np.zeros(4, np.int64)
    lines.append("Score " + " ".join(str(int(x)) for x in result))
    return lines


def botzone_text(ev: Events, headers: Mapping[str, Mapping[str, Any]] | None = None,
                 variant: str | None = "botzone") -> str:
    """The Botzone text of every deal in ``ev`` (CRLF, a blank line after each block).
    ``headers``: per deal id, ``prevalent`` and ``seats`` (a ``deals`` table row)."""
    labels = fan_labels(variant)
    out = []
    for d, a, b in ev.deal_slices():
        did = ev.deal_ids[d]
        block = deal_block(ev, a, b, (headers or {}).get(did), labels)
        out.append("\r\n".join(block) + "\r\n\r\n")
    return "".join(out)


def write_botzone_text(path: str | os.PathLike, ev: Events,
                       headers: Mapping[str, Mapping[str, Any]] | None = None,
                       variant: str | None = "botzone") -> Path:
    """Write :func:`botzone_text` to ``path`` (UTF-8), atomically."""
    from ._store import atomic_write_bytes
    path = Path(path)
    atomic_write_bytes(path, botzone_text(ev, headers, variant).encode("utf-8"))
    return path
