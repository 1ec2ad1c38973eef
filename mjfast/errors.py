"""Typed errors. Every error mjfast raises on bad input is a :class:`MjfastError`
(a ``ValueError``) that names the input and, where there is one, the position."""
from __future__ import annotations


class MjfastError(ValueError):
    """Base class of every input error mjfast raises."""


class InputError(MjfastError):
    """An input (string, array row, option) that mjfast cannot accept.

    ``text`` is the offending input (a string, or a description of an array row),
    ``position`` the 0-based character index (strings) or row index (arrays), or None.
    """

    def __init__(self, text, position: int | None, reason: str):
        self.text = text
        self.position = position
        self.reason = reason
        where = "" if position is None else f" at position {position}"
        shown = text if isinstance(text, str) else repr(text)
        if isinstance(shown, str) and len(shown) > 120:
            shown = shown[:117] + "..."
        super().__init__(f"{reason}{where} in {shown!r}")


class ArgumentError(InputError):
    """An argument of the wrong type, shape or range at the API edge: ``score(None)``,
    ``score_batch`` of an array, a table without the hand column, ``visible`` of the
    wrong length, a negative ``base``, ``threads=0``, a settlement parameter the rule set
    does not use (that one is a :class:`RuleSetError`)."""


class TileParseError(InputError):
    """Unknown tile character, bad notation, malformed string."""


class MeldError(InputError):
    """A malformed meld: not a chow/pung/kong, bad claim marker, honors in a chow..."""


class TileCountError(InputError):
    """Impossible counts: a fifth copy of a tile (melds included), a flower held twice."""


class HandSizeError(InputError):
    """Wrong number of tiles for the rule set (13/14, or 16/17 for Taiwan, kongs aside)."""


class RuleSetError(InputError):
    """A tile outside the rule set's tile set, an unknown rule set or variant."""


class WinningTileError(InputError):
    """A winning tile not in the hand, or none where one is needed."""


class SituationError(InputError):
    """Unknown or contradictory situation options (``self_drawn`` with ``discarder``...)."""


class IncompleteHandError(InputError):
    """A hand that is not a complete winning hand was given to a scorer."""


class InvalidCountsError(InputError):
    """An invalid row in a batch counts array (count above 4, wrong total, tile outside the set)."""


class LogParseError(InputError):
    """A corrupt line in a game log."""


__all__ = [name for name in dir() if name.endswith("Error")]
