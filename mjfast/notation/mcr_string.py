"""The MCR calculators' hand string (ChineseOfficialMahjongHelper, GB-Mahjong)::

    [EEE,2][SSSS,1]WWWNN55pN|EE1000|3

- melds first, in brackets, then an optional claim marker written ``,K`` or as a bare
  digit (``[345m3]``, ``[2222m1]``).  Pung / exposed kong: K = whom it was claimed from
  (1 left / previous, 2 across, 3 right / next; a pung without K: 1).  Chow: K = position
  1..3 of the claimed tile inside the chow (default 1).  A kong without K (``[CCCC]``, also
  ``,0``) is concealed; K = 5, 6, 7 is an added kong made from a pung claimed from 1, 2, 3.
- the concealed tiles in mpsz digits, honors as letters ``E S W N C F P`` (or ``1z..7z``
  in the same order: **5z is the RED dragon**); the last one is the winning tile.
- ``|`` prevalent wind, seat wind, then four 0/1 flags: self-drawn, fourth tile (和绝张),
  last tile of the wall, kong-related (-> ``kong_replacement`` on a self-draw,
  ``robbing_kong`` on a discard).  Missing = ``EE0000``.
- ``|`` the flowers: a count ``0``..``8`` or letters ``a``..``h`` (``|c`` = one flower).
- ``|`` an mjfast extension, printed only when a hand needs it so that every
  :class:`~mjfast.Hand` round-trips: ``dealer=S,discarder=W,streak=2,table_discards=12,
  original_ready,first_turn``.

The grammar is shared with the ``mpsz`` format (:mod:`mjfast.notation.mpsz`); only the
printing differs: ``mcr`` always prints the situation section and honors as letters.
"""
from __future__ import annotations

from .mpsz import format_family


def format_mcr(p) -> str:
    """The calculators' string ``[EEE,2][SSSS,1]55pWWWNNN|EE1000|3`` from printer
    :class:`~mjfast.notation.mpsz.Parts` (use :func:`mjfast.notation.format_hand`)."""
    return format_family(p, letters=True)


