"""The hand model: :class:`Meld`, :class:`Situation`, :class:`Hand` (immutable) and
:class:`HandBatch` (the same facts for N hands as NumPy arrays, what the kernels eat)."""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import IntEnum
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from .errors import (HandSizeError, MeldError, RuleSetError, SituationError,
                     TileCountError, WinningTileError)
from .rules.registry import RuleSet, get_rules
from .tiles import FLOWER_BASE, N_KINDS, WIND_LETTERS, tile_name


# The hand model sits below the notation and analysis layers (imports point one way:
# see docs/INTERNALS.md). Its convenience methods (printing, shanten, waits, decompose)
# call the functions those layers register here when ``mjfast`` is imported.
_LAYER_FUNCTIONS: dict[str, Callable[..., Any]] = {}


def register_layer_function(name: str, fn: Callable[..., Any]) -> None:
    """Called once by an upper layer at import (``format_hand``, ``shanten``, ``waits``,
    ``decompose``)."""
    _LAYER_FUNCTIONS[name] = fn


# the upper-layer module that registers each function (imported on first need: the
# package's re-exports load lazily, so a Hand can exist before those modules are imported)
_LAYER_MODULES = {"format_hand": "mjfast.notation._api", "decompose": "mjfast._decompose",
                  "shanten": "mjfast._shanten", "waits": "mjfast._shanten"}


def _layer_function(name: str) -> Callable[..., Any]:
    fn = _LAYER_FUNCTIONS.get(name)
    if fn is None:
        import importlib
        importlib.import_module(_LAYER_MODULES[name])
        fn = _LAYER_FUNCTIONS.get(name)
    if fn is None:   # the module is still being imported (an import cycle)
        raise RuntimeError(f"mjfast is still being imported: {name} is not available yet")
    return fn


class MeldKind(IntEnum):
    CHOW = 0
    PUNG = 1
    KONG = 2


# Bits of HandBatch.meld_flags / the third column of HandBatch.melds
MELD_CONCEALED = 1   # concealed kong
MELD_ADDED = 2       # added kong (a claimed pung promoted with the 4th tile)

# Bits of HandBatch.flags
SELF_DRAWN = 1 << 0
FOURTH_TILE = 1 << 1
LAST_TILE = 1 << 2
KONG_REPLACEMENT = 1 << 3
ROBBING_KONG = 1 << 4
ORIGINAL_READY = 1 << 5
FIRST_TURN = 1 << 6
FLAG_NAMES = ("self_drawn", "fourth_tile", "last_tile", "kong_replacement",
              "robbing_kong", "original_ready", "first_turn")


@dataclass(frozen=True)
class Meld:
    """A called (or concealed-kong) meld.

    ``tile`` is the meld's lowest tile. ``claimed_from`` is the seat offset of the player
    the tile came from (1 = previous player / left 上家, 2 = across, 3 = next / right);
    0 for a concealed kong. For a chow ``claimed_index`` (1..3) is the claimed tile's
    position inside the chow; for pungs and kongs it is 0.
    """
    kind: MeldKind
    tile: int
    concealed: bool = False
    added: bool = False
    claimed_from: int = 1
    claimed_index: int = 0

    def __post_init__(self):
        try:
            if not _is_int(self.kind):
                raise TypeError
            object.__setattr__(self, "kind", MeldKind(self.kind))
        except (ValueError, TypeError):
            raise MeldError(repr(self.kind)[:60], None, "meld kind must be CHOW, PUNG or KONG (0, 1, 2)") from None
        for name in ("tile", "claimed_from", "claimed_index"):
            if not _is_int(getattr(self, name)):
                raise MeldError(repr(getattr(self, name))[:60], None, f"meld {name} must be an int")
        for name in ("concealed", "added"):
            if not _is_flag(getattr(self, name)):
                raise MeldError(repr(getattr(self, name))[:60], None, f"meld {name} must be True or False")
        t = self.tile
        if not 0 <= t < N_KINDS:
            raise MeldError(repr(self), None, f"meld tile {t} is not one of the 34 kinds")
        if self.kind == MeldKind.CHOW:
            if t >= 27 or t % 9 > 6:
                raise MeldError(tile_name(t), None, "a chow needs three consecutive suited tiles")
            if self.concealed or self.added:
                raise MeldError(tile_name(t), None, "a chow cannot be concealed or added")
            if self.claimed_index == 0:
                object.__setattr__(self, "claimed_index", 1)
            if not 1 <= self.claimed_index <= 3:
                raise MeldError(tile_name(t), None, "chow claimed position must be 1..3")
        else:
            if self.concealed and self.added:
                raise MeldError(tile_name(t), None, "a kong cannot be both concealed and added")
            if (self.concealed or self.added) and self.kind != MeldKind.KONG:
                raise MeldError(tile_name(t), None, "only a kong can be concealed or added")
            if self.concealed:
                object.__setattr__(self, "claimed_from", 0)
            elif not 1 <= self.claimed_from <= 3:
                raise MeldError(tile_name(t), None, "claimed_from must be 1, 2 or 3")

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.kind == MeldKind.CHOW:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (4 if self.kind == MeldKind.KONG else 3)

    @property
    def is_kong(self) -> bool:
        return self.kind == MeldKind.KONG

    @property
    def exposed(self) -> bool:
        """True for every meld but a concealed kong."""
        return not self.concealed

    @property
    def flags(self) -> int:
        return (MELD_CONCEALED if self.concealed else 0) | (MELD_ADDED if self.added else 0)


def _is_int(v) -> bool:
    if type(v) is int:          # the common case, first (bool is not int's type)
        return True
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _is_flag(v) -> bool:
    return isinstance(v, (bool, np.bool_)) or (_is_int(v) and v in (0, 1))


@dataclass(frozen=True)
class Situation:
    """How and where the hand was won. One vocabulary for every rule set.

    Winds are 0..3 = E S W N. ``discarder`` is the discarder's seat wind (None on a
    self-draw or when unknown). ``table_discards`` None means "not given".
    """
    seat: int = 0
    prevalent: int = 0
    dealer: int = 0
    self_drawn: bool = False
    discarder: int | None = None
    streak: int = 0
    table_discards: int | None = None
    original_ready: bool = False
    last_tile: bool = False
    kong_replacement: bool = False
    robbing_kong: bool = False
    fourth_tile: bool = False
    first_turn: bool = False

    def __post_init__(self):
        for name in FLAG_NAMES:
            if not _is_flag(getattr(self, name)):
                raise SituationError(repr(getattr(self, name))[:60], None, f"{name} must be True or False")
        for name in ("seat", "prevalent", "dealer"):
            v = getattr(self, name)
            if not _is_int(v) or not 0 <= v <= 3:
                raise SituationError(str(v), None, f"{name} must be a wind 0..3 (E S W N)")
        if self.discarder is not None:
            if not _is_int(self.discarder) or not 0 <= self.discarder <= 3:
                raise SituationError(str(self.discarder), None, "discarder must be a wind 0..3")
            if self.self_drawn:
                raise SituationError(f"discarder={WIND_LETTERS[self.discarder]}", None,
                                     "a self-drawn win has no discarder")
            if self.discarder == self.seat:
                raise SituationError(f"discarder={WIND_LETTERS[self.discarder]}", None,
                                     "the winner cannot be the discarder")
        if not _is_int(self.streak) or self.streak < 0:
            raise SituationError(str(self.streak), None, "streak must be >= 0")
        if self.table_discards is not None and (not _is_int(self.table_discards)
                                                or self.table_discards < 0):
            raise SituationError(str(self.table_discards), None, "table_discards must be >= 0")
        if self.kong_replacement and self.robbing_kong:
            raise SituationError("kong_replacement+robbing_kong", None,
                                 "a win cannot be both on a kong replacement and robbing a kong")
        if self.kong_replacement and not self.self_drawn:
            raise SituationError("kong_replacement", None, "a kong replacement win is self-drawn")
        if self.robbing_kong and self.self_drawn:
            raise SituationError("robbing_kong", None, "robbing a kong is a discard win")

    @property
    def is_dealer(self) -> bool:
        return self.seat == self.dealer

    @property
    def flags(self) -> int:
        bits = 0
        for i, name in enumerate(FLAG_NAMES):
            if getattr(self, name):
                bits |= 1 << i
        return bits

    def with_options(self, **options) -> "Situation":
        """A copy with options replaced; unknown names are a :class:`SituationError`."""
        known = {f.name for f in fields(self)}
        for k in options:
            if k not in known:
                raise SituationError(k, None, f"unknown situation option (known: {', '.join(sorted(known))})")
        merged = {f.name: getattr(self, f.name) for f in fields(self)}
        merged.update(options)
        for k in ("seat", "prevalent", "dealer", "discarder"):   # wind letters -> 0..3
            v = merged[k]
            if isinstance(v, str) and len(v) == 1 and v.upper() in WIND_LETTERS:
                merged[k] = WIND_LETTERS.index(v.upper())
        if options.get("self_drawn") and "discarder" not in options:
            merged["discarder"] = None
        if options.get("discarder") is not None and "self_drawn" not in options:
            merged["self_drawn"] = False
        return Situation(**merged)


def _tile_ids(tiles, name: str) -> tuple[int, ...]:
    """Sorted int tile ids, or the typed error naming the field."""
    try:
        if isinstance(tiles, (str, bytes)):
            raise TypeError
        out = [t for t in tiles]
    except TypeError:
        raise TileParseError(repr(tiles)[:60], None,
                             f"{name} must be a sequence of tile ids (parse strings with parse_hand)") from None
    bad = [t for t in out if not _is_int(t)]
    if bad:
        raise TileParseError(repr(bad[0])[:60], None, f"{name} must hold int tile ids")
    return tuple(sorted(int(t) for t in out))


@dataclass(frozen=True)
class Hand:
    """One hand: concealed tiles, called melds, the winning tile, flowers, situation.

    ``concealed`` excludes the winning tile; ``winning_tile`` is None for a hand waiting
    to win (13 / 16 tiles). ``flowers`` holds flower tile ids when known; ``flower_count``
    is always the number of flowers.
    """
    concealed: tuple[int, ...]
    melds: tuple[Meld, ...] = ()
    winning_tile: int | None = None
    flowers: tuple[int, ...] = ()
    flower_count: int = 0
    situation: Situation = field(default_factory=Situation)
    rules: str = "mcr"

    def __post_init__(self):
        object.__setattr__(self, "concealed", _tile_ids(self.concealed, "concealed"))
        try:
            object.__setattr__(self, "melds", tuple(self.melds))
        except TypeError:
            raise MeldError(repr(self.melds)[:60], None, "melds must be a sequence of Meld") from None
        bad = [m for m in self.melds if not isinstance(m, Meld)]
        if bad:
            raise MeldError(repr(bad[0])[:60], None, "melds must be Meld objects")
        object.__setattr__(self, "flowers", _tile_ids(self.flowers, "flowers"))
        if self.winning_tile is not None and not _is_int(self.winning_tile):
            raise WinningTileError(repr(self.winning_tile)[:60], None, "winning_tile must be a tile id or None")
        if not _is_int(self.flower_count):
            raise TileCountError(repr(self.flower_count)[:60], None, "flower_count must be an int")
        if not isinstance(self.situation, Situation):
            raise SituationError(repr(self.situation)[:60], None, "situation must be a Situation")
        if not isinstance(self.rules, str):
            get_rules(self.rules)              # a RuleSet is fine; anything else: RuleSetError
            object.__setattr__(self, "rules", get_rules(self.rules).name)
        if self.flowers and self.flower_count == 0:
            object.__setattr__(self, "flower_count", len(self.flowers))
        self.validate()

    # ---- validation -------------------------------------------------------------
    def validate(self) -> None:
        """Raise the typed error of the first problem found (the message text, which
        prints the hand, is only built when there is one)."""
        problem = self._first_problem()
        if problem is not None:
            cls, pos, reason = problem
            raise cls(self.describe(), pos, reason)

    def _first_problem(self) -> tuple[type, int | None, str] | None:
        rs = get_rules(self.rules)
        mask = rs.kind_flags
        for pos, t in enumerate(self.concealed + ((self.winning_tile,) if self.winning_tile is not None else ())):
            if not 0 <= t < N_KINDS:
                return RuleSetError, pos, f"tile id {t} is not a playing tile"
            if not mask[t]:
                return RuleSetError, pos, f"tile {tile_name(t)} is not in the {rs.name} tile set"
        for m in self.melds:
            for t in m.tiles:
                if not mask[t]:
                    return RuleSetError, None, f"meld tile {tile_name(t)} is not in the {rs.name} tile set"
            if m.kind == MeldKind.CHOW and not rs.chow_allowed:
                return MeldError, None, f"{rs.name} does not allow claimed chows"
        counts = self._copies(True)     # every tile held (ids checked above)
        if max(counts) > 4:
            t = next(t for t, c in enumerate(counts) if c > 4)
            return TileCountError, None, f"{counts[t]} copies of {tile_name(t)} (at most 4)"
        if len(set(self.flowers)) != len(self.flowers):
            return TileCountError, None, "a flower tile held twice"
        if self.flowers and any(not FLOWER_BASE <= f < FLOWER_BASE + 8 for f in self.flowers):
            return TileParseError, None, "flower ids must be 34..41"
        if self.flower_count < 0 or self.flower_count > 8:
            return TileCountError, None, f"{self.flower_count} flowers (at most 8)"
        if self.flower_count and not rs.flowers:
            return RuleSetError, None, f"{rs.name} has no flowers"
        if len(self.melds) > rs.sets:
            return HandSizeError, None, f"{len(self.melds)} melds (at most {rs.sets} in {rs.name})"
        size = self.size
        expected = rs.hand_size + (1 if self.winning_tile is not None else 0)
        if size != expected:
            want = "waiting" if self.winning_tile is None else "complete"
            return (HandSizeError, None,
                    f"{size} tiles (kongs counted as 3) where a {want} {rs.name} hand has {expected}")
        return None

    # ---- views --------------------------------------------------------------------
    @property
    def size(self) -> int:
        """Tiles with each meld counted as 3 (kongs aside), winning tile included."""
        return len(self.concealed) + 3 * len(self.melds) + (self.winning_tile is not None)

    @property
    def ruleset(self) -> RuleSet:
        return get_rules(self.rules)

    @property
    def is_concealed(self) -> bool:
        """No claimed meld (concealed kongs allowed)."""
        return all(m.concealed for m in self.melds)

    def _copies(self, melds: bool) -> list[int]:
        """Copies of each of the 34 kinds as a list: the concealed tiles and the winning
        tile, and with ``melds`` every meld tile too (a kong's four)."""
        c = [0] * N_KINDS
        for t in self.concealed:
            c[t] += 1
        if self.winning_tile is not None:
            c[self.winning_tile] += 1
        if melds:
            for m in self.melds:
                for t in m.tiles:
                    c[t] += 1
        return c

    def counts(self) -> np.ndarray:
        """(34,) uint8 counts of the concealed tiles, winning tile included."""
        return np.array(self._copies(False), dtype=np.uint8)

    def all_counts(self) -> np.ndarray:
        """(34,) counts of every tile the player has, melds (all 4 tiles of kongs) included."""
        return np.array(self._copies(True), dtype=np.int16)

    def describe(self) -> str:
        try:
            return _layer_function("format_hand")(self, "mcr")
        except (ValueError, IndexError, KeyError, TypeError):  # an invalid hand being built
            parts = [f"[{m.kind.name} {tile_name(m.tile)}]" for m in self.melds]
            parts += [tile_name(t) if 0 <= t < N_KINDS else str(t) for t in self.concealed]
            if self.winning_tile is not None:
                parts.append(f"+{self.winning_tile}")
            return " ".join(parts)

    def to_string(self, fmt: str = "mcr") -> str:
        """Print in ``mcr`` (calculator string), ``mpsz`` or ``botzone`` notation."""
        return _layer_function("format_hand")(self, fmt)

    def shanten(self, forms: bool = False):
        """Shanten of this hand (-1 complete, 0 ready); see :func:`mjfast.shanten`."""
        return _layer_function("shanten")(self, rules=self.rules, forms=forms)

    def waits(self, visible=None):
        """Effective tiles (the winning tiles of a ready hand) with live counts;
        see :func:`mjfast.waits`."""
        return _layer_function("waits")(self, rules=self.rules, visible=visible)

    def decompose(self):
        """Every division of this complete hand; see :func:`mjfast.decompose`."""
        return _layer_function("decompose")(self)

    def with_situation(self, **options) -> "Hand":
        return replace(self, situation=self.situation.with_options(**options))

    def __str__(self) -> str:
        return self.to_string("mcr")


@dataclass
class HandBatch:
    """N hands as arrays (the form every batch kernel takes).

    - ``counts`` (N, 34) uint8: concealed tiles, winning tile included
    - ``winning_tile`` (N,) int8: -1 when the hand is waiting (no winning tile)
    - ``melds`` (N, 5, 4) int8: per meld [kind (-1 none, 0 chow, 1 pung, 2 kong), tile,
      flags (MELD_CONCEALED | MELD_ADDED), claimed (from-offset for pung/kong, position for chow)]
    - ``n_melds`` (N,) uint8, ``flowers`` (N,) uint8 (flower count)
    - ``flags`` (N,) uint16 (SELF_DRAWN, FOURTH_TILE, ...), ``seat``, ``prevalent``,
      ``dealer``, ``discarder`` (N,) int8 (discarder -1 = none), ``streak`` (N,) int16,
      ``table_discards`` (N,) int16 (-1 = not given)
    """
    counts: np.ndarray
    winning_tile: np.ndarray
    melds: np.ndarray
    n_melds: np.ndarray
    flowers: np.ndarray
    flags: np.ndarray
    seat: np.ndarray
    prevalent: np.ndarray
    dealer: np.ndarray
    discarder: np.ndarray
    streak: np.ndarray
    table_discards: np.ndarray
    rules: str = "mcr"

    def __len__(self) -> int:
        return self.counts.shape[0]

    @classmethod
    def empty(cls, n: int, rules: str = "mcr") -> "HandBatch":
        melds = np.full((n, 5, 4), -1, dtype=np.int8)
        melds[:, :, 1:] = 0
        return cls(np.zeros((n, N_KINDS), np.uint8), np.full(n, -1, np.int8), melds,
                   np.zeros(n, np.uint8), np.zeros(n, np.uint8), np.zeros(n, np.uint16),
                   np.zeros(n, np.int8), np.zeros(n, np.int8), np.zeros(n, np.int8),
                   np.full(n, -1, np.int8), np.zeros(n, np.int16), np.full(n, -1, np.int16),
                   rules)

    @classmethod
    def from_hands(cls, hands: Sequence[Hand], rules: str | None = None) -> "HandBatch":
        """N hands as a batch: every field gathered in a Python list, then one array each
        (NumPy element writes one by one cost a one-hand ``score`` call more than its
        kernel)."""
        hands = list(hands)
        n = len(hands)
        counts: list[list[int]] = []
        melds = [-1, 0, 0, 0] * (n * 5)
        win, n_melds, flowers, flags, seat, prevalent, dealer, discarder, streak, seen = (
            [] for _ in range(10))
        for i, h in enumerate(hands):
            counts.append(h._copies(False))
            w = h.winning_tile
            k = i * 20
            for m in h.melds:
                melds[k:k + 4] = (int(m.kind), m.tile, m.flags, m.claimed_index
                                  if m.kind == MeldKind.CHOW else m.claimed_from)
                k += 4
            s = h.situation
            win.append(-1 if w is None else w)
            n_melds.append(len(h.melds))
            flowers.append(h.flower_count)
            flags.append(s.flags)
            seat.append(s.seat)
            prevalent.append(s.prevalent)
            dealer.append(s.dealer)
            discarder.append(-1 if s.discarder is None else s.discarder)
            streak.append(s.streak)
            seen.append(-1 if s.table_discards is None else s.table_discards)
        i8, u8, i16 = np.int8, np.uint8, np.int16
        return cls(np.array(counts, u8).reshape(n, N_KINDS), np.array(win, i8),
                   np.array(melds, i8).reshape(n, 5, 4), np.array(n_melds, u8),
                   np.array(flowers, u8), np.array(flags, np.uint16), np.array(seat, i8),
                   np.array(prevalent, i8), np.array(dealer, i8), np.array(discarder, i8),
                   np.array(streak, i16), np.array(seen, i16),
                   rules or (hands[0].rules if hands else "mcr"))

    def hand(self, i: int) -> Hand:
        """Row i back as a :class:`Hand`."""
        melds = []
        for j in range(int(self.n_melds[i])):
            kind, tile, fl, claimed = (int(x) for x in self.melds[i, j])
            if kind == MeldKind.CHOW:
                melds.append(Meld(MeldKind.CHOW, tile, claimed_index=claimed))
            else:
                melds.append(Meld(MeldKind(kind), tile, concealed=bool(fl & MELD_CONCEALED),
                                  added=bool(fl & MELD_ADDED), claimed_from=claimed))
        counts = self.counts[i].astype(np.int64)
        wt = int(self.winning_tile[i])
        if wt >= 0:
            counts[wt] -= 1
        concealed = tuple(int(t) for t in np.repeat(np.arange(N_KINDS), counts))
        fl = int(self.flags[i])
        sit = Situation(seat=int(self.seat[i]), prevalent=int(self.prevalent[i]),
                        dealer=int(self.dealer[i]),
                        discarder=None if self.discarder[i] < 0 else int(self.discarder[i]),
                        streak=int(self.streak[i]),
                        table_discards=None if self.table_discards[i] < 0 else int(self.table_discards[i]),
                        **{name: bool(fl & (1 << k)) for k, name in enumerate(FLAG_NAMES)})
        return Hand(concealed, tuple(melds), None if wt < 0 else wt, (), int(self.flowers[i]), sit, self.rules)

    def __iter__(self) -> Iterable[Hand]:
        return (self.hand(i) for i in range(len(self)))


from .errors import TileParseError  # noqa: E402  (used in validate)
