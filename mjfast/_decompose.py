"""The hand decomposer (:func:`mjfast.decompose`, :func:`mjfast.decompose_batch`): every division of a complete hand into melds and a pair, and the
special forms, with the wait shape of each place the winning tile can sit.

- :func:`decompose` takes one :class:`~mjfast.Hand` and returns :class:`Division` objects.
- :func:`decompose_batch` takes (N, 34) counts (or a :class:`~mjfast.HandBatch`) and returns
  flat arrays (:class:`DivisionArrays`), computed by a compiled kernel.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import hand as _hand_module
from .errors import ArgumentError, HandSizeError, InvalidCountsError
from .hand import Hand, HandBatch, MeldKind
from .kernels import _decompose as _k
from .rules.registry import FORM_NAMES, get_rules
from .tiles import tile_name

WAIT_SHAPES = _k.WAIT_NAMES   # two_sided, closed, edge, single, dual_pung


@dataclass(frozen=True)
class DivisionMeld:
    """One meld of a division. ``called`` melds come from the hand's declared melds;
    the others were formed from concealed tiles."""
    kind: MeldKind
    tile: int
    called: bool = False
    concealed_kong: bool = False
    added_kong: bool = False

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.kind == MeldKind.CHOW:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (4 if self.kind == MeldKind.KONG else 3)

    def __str__(self) -> str:
        body = "".join(tile_name(t) for t in self.tiles)
        return f"[{body}]" if self.called else f"({body})"


@dataclass(frozen=True)
class WaitPlacement:
    """A place the winning tile can sit in a division and the wait shape it makes there.
    ``slot`` is "pair", ``"meld:<i>"`` (index into :attr:`Division.melds`) or "special"."""
    slot: str
    shape: str


@dataclass(frozen=True)
class Division:
    """One reading of a complete hand.

    ``form`` is one of ``regular``, ``seven_pairs``, ``thirteen_orphans``,
    ``honors_knitted``, ``knitted_straight``, ``seven_pairs_triplet``. ``melds`` holds the
    called melds first, then the concealed sets; ``pair`` the pair tile (regular and
    knitted-straight forms); ``pairs`` the seven pairs (a held four appears twice);
    ``knitted`` the nine knitted-straight tiles; ``tiles`` the concealed tiles of the
    special forms; ``waits`` where the winning tile can sit.
    """
    form: str
    melds: tuple[DivisionMeld, ...] = ()
    pair: int | None = None
    pairs: tuple[int, ...] = ()
    knitted: tuple[int, ...] = ()
    tiles: tuple[int, ...] = ()
    waits: tuple[WaitPlacement, ...] = ()

    def key(self) -> tuple:
        """A canonical, hashable description (used to compare divisions)."""
        return (self.form, tuple(sorted((int(m.kind), m.tile, m.called) for m in self.melds)),
                self.pair, self.pairs, self.knitted, self.tiles)

    def __str__(self) -> str:
        parts = [str(m) for m in self.melds]
        if self.knitted:
            parts.append("{" + "".join(tile_name(t) for t in self.knitted) + "}")
        if self.pair is not None:
            parts.append(f"({tile_name(self.pair) * 2})")
        if self.pairs:
            parts.extend(f"({tile_name(t) * 2})" for t in self.pairs)
        if self.tiles:
            parts.append("<" + "".join(tile_name(t) for t in self.tiles) + ">")
        w = ", ".join(f"{p.shape}@{p.slot}" for p in self.waits)
        return f"{self.form}: {' '.join(parts)}" + (f"  waits: {w}" if w else "")


def form_mask(rules) -> int:
    """Bit mask of the rule set's winning forms (bit = form code)."""
    mask = 0
    for f in get_rules(rules).forms:
        mask |= 1 << f
    return mask


def decompose(hand: Hand) -> list[Division]:
    """Every distinct division of a complete hand (called melds fixed).

    An empty list means the hand is not complete. Raises :class:`HandSizeError` for a
    hand without a winning tile, :class:`ArgumentError` for anything but a Hand (parse a
    string with :func:`mjfast.parse_hand`; count arrays go to :func:`decompose_batch`).
    """
    if not isinstance(hand, Hand):
        hint = ("count arrays go to decompose_batch" if isinstance(hand, (np.ndarray, list, tuple))
                else "parse a string first with mjfast.parse_hand" if isinstance(hand, str)
                else "a Hand is needed")
        raise ArgumentError(repr(hand)[:120], None, f"decompose takes one Hand ({hint})")
    if hand.winning_tile is None:
        raise HandSizeError(hand.describe(), None,
                            "decompose needs a complete hand (with a winning tile)")
    counts = hand.counts().astype(np.int64)
    out = np.zeros((_k.MAX_DIVISIONS, _k.DIV_COLS), dtype=np.int16)
    n = _k.divisions(counts, form_mask(hand.rules), out)
    called = tuple(DivisionMeld(m.kind, m.tile, True, m.concealed, m.added) for m in hand.melds)
    return [_division_from_row(out[r], counts, called, hand.winning_tile) for r in range(n)]


def _division_from_row(row: np.ndarray, counts: np.ndarray, called, win: int) -> Division:
    form = FORM_NAMES[int(row[0])]
    code = int(row[0])
    if code in (_k.FORM_REGULAR, _k.FORM_KNITTED_STRAIGHT):
        sets = tuple(DivisionMeld(MeldKind.CHOW if row[3 + 2 * i] == _k.SET_CHOW else MeldKind.PUNG,
                                  int(row[4 + 2 * i])) for i in range(int(row[2])))
        melds = called + sets
        knitted = ()
        if code == _k.FORM_KNITTED_STRAIGHT:
            buf = np.zeros(9, dtype=np.int64)
            _k.knitted_tiles(int(row[13]), buf)
            knitted = tuple(int(t) for t in buf)
        waits = []
        place = np.zeros((8, 2), dtype=np.int16)
        for j in range(_k.wait_placements(row, win, place)):
            slot, shape = int(place[j, 0]), int(place[j, 1])
            waits.append(WaitPlacement("pair" if slot < 0 else f"meld:{len(called) + slot}",
                                       WAIT_SHAPES[shape]))
        if knitted and win in knitted:
            waits.append(WaitPlacement("knitted", "special"))
        return Division(form, melds, int(row[1]), knitted=knitted, waits=tuple(waits))
    if code == _k.FORM_SEVEN_PAIRS:
        pairs = tuple(t for t in range(34) for _ in range(int(counts[t]) // 2))
        return Division(form, called, pairs=pairs, waits=(WaitPlacement("pair", "single"),))
    if code == _k.FORM_SEVEN_PAIRS_TRIPLET:
        trip = int(row[13])
        rest = counts.copy()
        rest[trip] -= 3
        pairs = tuple(t for t in range(34) for _ in range(int(rest[t]) // 2))
        return Division(form, (DivisionMeld(MeldKind.PUNG, trip),), pairs=pairs,
                        waits=(WaitPlacement("special", "special"),))
    tiles = tuple(t for t in range(34) for _ in range(int(counts[t])))
    knitted = ()
    if code == _k.FORM_HONORS_KNITTED and row[13] >= 0:
        buf = np.zeros(9, dtype=np.int64)
        _k.knitted_tiles(int(row[13]), buf)
        knitted = tuple(int(t) for t in buf)
    return Division(form, called, tiles=tiles, knitted=knitted,
                    waits=(WaitPlacement("special", "special"),))


@dataclass
class DivisionArrays:
    """All divisions of N hands in flat arrays.

    ``rows[offsets[i]:offsets[i+1]]`` are hand i's divisions, one ``int16`` row each:
    ``[form, pair, n_sets, kind0, tile0, ..., kind4, tile4, extra]`` (kind 0 chow, 1 pung;
    extra = knitted permutation or Taiwan triplet tile). Called melds are not repeated.
    """
    offsets: np.ndarray
    rows: np.ndarray

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def count(self) -> np.ndarray:
        """Divisions per hand (0 = not complete)."""
        return np.diff(self.offsets)


def _check_counts(counts: np.ndarray, rules: str) -> np.ndarray:
    if isinstance(counts, (str, bytes, dict, Hand)) or counts is None:
        raise ArgumentError(repr(counts)[:120], None,
                            "decompose_batch takes an (N, 34) count array or a HandBatch")
    try:
        arr = np.asarray(counts)
    except (ValueError, TypeError):
        raise InvalidCountsError(repr(counts)[:120], None, "counts must be an (N, 34) integer array") from None
    if arr.ndim != 2 or arr.shape[1] != 34:
        raise InvalidCountsError(f"array of shape {arr.shape}", None, "counts must have shape (N, 34)")
    if arr.dtype.kind not in "iu":
        raise InvalidCountsError(f"array of dtype {arr.dtype}", None, "counts must be integers")
    bad = np.flatnonzero(((arr < 0) | (arr > 4)).any(axis=1))
    if bad.size:
        i = int(bad[0])
        raise InvalidCountsError(f"row {i}: {arr[i].tolist()}", i, "a count outside 0..4")
    rs = get_rules(rules)
    outside = np.flatnonzero(arr[:, ~rs.kind_mask].any(axis=1))
    if outside.size:
        i = int(outside[0])
        raise InvalidCountsError(f"row {i}: {arr[i].tolist()}", i, f"a tile outside the {rs.name} set")
    totals = arr.sum(axis=1)
    bad = np.flatnonzero((totals % 3 != 2) | (totals > rs.win_size))
    if bad.size:
        i = int(bad[0])
        raise InvalidCountsError(f"row {i}: {arr[i].tolist()}", i,
                                 f"{int(totals[i])} tiles is not a complete {rs.name} hand size")
    return np.ascontiguousarray(arr, dtype=np.uint8)


def decompose_batch(hands: np.ndarray | HandBatch, rules: str | None = None) -> DivisionArrays:
    """Divisions of N hands' concealed parts (winning tile included), as flat arrays.

    ``hands`` is an (N, 34) count array (3k+2 tiles per row; rows with called melds simply
    hold fewer tiles) or a :class:`HandBatch`.
    """
    if isinstance(hands, HandBatch):
        rules = rules if rules is not None else hands.rules
        hands = hands.counts
    rules = get_rules(rules if rules is not None else "mcr").name
    counts = _check_counts(hands, rules)
    offsets, rows = _k.decompose_batch(counts, form_mask(rules))
    return DivisionArrays(offsets, rows)


_hand_module.register_layer_function("decompose", decompose)

__all__ = ["Division", "DivisionMeld", "WaitPlacement", "DivisionArrays", "decompose",
           "decompose_batch", "WAIT_SHAPES"]
