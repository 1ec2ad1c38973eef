"""The engine's state layout: one int32 array per deal, offsets as module constants.

Every compiled function reads and writes the state through these offsets; the layout is
documented in docs/engine.md (keep the two in step). Values that are "per player" have
four slots whatever the player count.
"""
from __future__ import annotations

from ..hand import MELD_ADDED, MELD_CONCEALED  # noqa: F401  (re-exported: the engine's meld flags)

# ---- rule-set codes -------------------------------------------------------------------
RULES_MCR = 0
RULES_TAIWAN = 1
RULES_TUIDAOHU = 2
RULES_TWO_PLAYER = 3
RULE_CODES = {"mcr": RULES_MCR, "taiwan": RULES_TAIWAN, "tuidaohu": RULES_TUIDAOHU,
              "two_player": RULES_TWO_PLAYER}
RULE_NAMES = {v: k for k, v in RULE_CODES.items()}

# ---- phases ---------------------------------------------------------------------------
PH_DEAL = 0          # dealing: DEAL rows, then FLOWER / replacement DRAW of dealt flowers
PH_DRAWN = 1         # H_TURN has drawn: discard, concealed / added kong, flower, self-draw win
PH_CLAIMED = 2       # H_TURN chowed or punged: discard only
PH_DISCARDED = 3     # a discard is on the table (H_LAST_TILE by H_LAST_PLAYER): claims or draw
PH_ROB = 4           # an added kong was declared: others may rob it, else the replacement draw
PH_REPLACE = 5       # after a kong (or a flower): H_TURN takes a replacement DRAW
PH_ENDED = 6         # won or drawn: only more wins (several rons), KONG_PAYMENT, DEALER_CHANGE
PHASE_NAMES = ("deal", "drawn", "claimed", "discarded", "rob", "replace", "ended")

# ---- wall modes -----------------------------------------------------------------------
WALL_STANDARD = 0    # one wall: draws from the front, replacements from the back
WALL_BOTZONE = 1     # a 34-tile segment per player, drawn from the back (Botzone judge)

# ---- header (scalars) -----------------------------------------------------------------
H_RULES = 0          # RULES_* code
H_PLAYERS = 1        # 4 or 2
H_HAND = 2           # 13 or 16 tiles held between turns
H_FLOWERS = 3        # 1 when flowers are in the tile set
H_DEAD = 4           # tiles never drawn at the end of a standard wall (Taiwan 16)
H_CHOW = 5           # 1 when chows may be claimed
H_WALL_MODE = 6      # WALL_STANDARD / WALL_BOTZONE
H_WALL_KNOWN = 7     # 1 when the wall's tile order is known (else draws take the logged tile)
H_MULTI_RON = 8      # 1: every claimant of a discard wins (Taiwan); 0: head-bump
H_MISSED_RULE = 9    # 1: Taiwan's missed-win rule
H_WALL_SIZE = 10     # tiles in the wall (144 / 136 / 64)
H_DEALER = 11        # the dealer (a player index)
H_PREVALENT = 12     # prevalent wind 0..3
H_STREAK = 13        # the dealer's previous consecutive wins (Taiwan bonus; others: repeats)
H_PHASE = 14         # PH_*
H_TURN = 15          # the player to act (drawn / claimed / replace) or the last discarder
H_LAST_TILE = 16     # the live discard, or the added-kong tile in PH_ROB (-1)
H_LAST_PLAYER = 17   # its discarder / the kong's owner (-1)
H_DRAWN = 18         # the tile H_TURN just drew (-1 after a claim)
H_KONG_FLAG = 19     # 1 while H_TURN's turn follows his own kong (replacement draw)
H_FRONT = 20         # standard wall: next draw index
H_BACK = 21          # standard wall: one past the next replacement index (draws from the back)
H_SEG = 22           # 4 slots: Botzone wall, tiles left in each player's segment
H_N_EVENTS = 26      # events applied
H_N_DISCARDS = 27    # discards made in the deal (Taiwan's table-discard count)
H_CALLS = 28         # claims and kongs made in the deal (a call ends every first turn)
H_N_WINS = 29        # wins recorded
H_ENDED = 30         # 0 playing, 1 won, 2 exhaustive draw
H_LAST_DRAW = 31     # 1 when H_TURN's current draw emptied the drawable wall (last tile)
H_SEATS = 32         # 4 slots: seat wind of each player
H_DEALT = 36         # 4 slots: tiles dealt to each player (DEAL rows)
H_NEXT_DEALER = 40   # set when the deal ends
H_NEXT_STREAK = 41
H_WIN_TILE = 42      # the tile won on (several rons check it)
H_WIN_FROM = 43      # discarder of the win(s) (-1 self-draw)
H_PENDING_FLOWER = 44  # -1, or the player who showed a flower and owes a replacement draw
H_FLOWER_ROB = 45    # Taiwan: the player who showed the 8th flower while another held 7 (-1)
H_N_KONGS = 46       # kongs made in the deal (order index for KONG_PAYMENT)
H_KONGS_PAID = 47
H_DRAWS = 48         # 4 slots: draws per player (replacements included)
H_NDISC = 52         # 4 slots: discards per player (= river length)
H_NFLOWERS = 56      # 4 slots: flowers shown
H_FLOWER_MASK = 60   # 4 slots: bit f = flower 34+f shown
H_NMELDS = 64        # 4 slots
H_SCORES = 68        # 4 slots: the deal's payments so far (wins and kong payments)
H_FIRST_DONE = 72    # 4 slots: 1 once the player's first turn is over (own discard or a call)
H_HELD_FL = 76       # 4 slots: bit f = flower 34+f held in hand, not yet shown
H_PENDING = 80       # 4 slots: flower replacements owed to each player
H_LAST_PAY = 84      # 4 slots: payments of the last WIN / KONG_PAYMENT applied
H_DEALER_DONE = 88   # 1 once DEALER_CHANGE was applied
H_LAST_FLAGS = 89    # EventFlag bits the engine computed for the last WIN (FALSE_WIN, ...)
H_RECEIVED = 90      # 4 slots: what each player received so far in the deal (before the fee)
H_PAID = 94          # 4 slots: what each player paid so far in the deal (the chip cap)
H_CAP_ON = 98        # 1: this deal's payments are capped by H_CAP (two-player chips)
H_CAP = 99           # 4 slots: the most each player may pay in this deal
HEADER = 104

# ---- per-player blocks -----------------------------------------------------------------
HAND = HEADER                      # 4 x 34 concealed counts (flowers never in hand)
MAX_MELDS = 5
MELD_FIELDS = 6                    # kind, tile, flags, claimed, from_player, order
M_KIND, M_TILE, M_FLAGS, M_CLAIMED, M_FROM, M_ORDER = range(6)
# meld flag bits: HandBatch's (mjfast.hand, the one definition) + an engine-only bit
MELD_PAID = 4                      # its KONG_PAYMENT row was applied
MELDS = HAND + 4 * 34
MAX_RIVER = 48
RIVER = MELDS + 4 * MAX_MELDS * MELD_FIELDS   # 4 x 48: tile | RIVER_CLAIMED
RIVER_CLAIMED = 64
VISIBLE = RIVER + 4 * MAX_RIVER    # 34: copies visible to all (unclaimed discards + exposed melds)
SEEN = VISIBLE + 34                # 42: copies dealt or drawn so far (fifth-copy check)
MISSED = SEEN + 42                 # 4 x 34: Taiwan missed-win locks (1 = locked)
WALL = MISSED + 4 * 34             # 144: the wall in draw order (-1 unknown)
MAX_WALL = 144
MAX_WINS = 3
MAX_FANS = 128
WIN_FIELDS = 12 + MAX_FANS         # player, tile, from, flags, total, legal, scores x4, pad x2, fans
W_PLAYER, W_TILE, W_FROM, W_FLAGS, W_TOTAL, W_LEGAL, W_SCORES = 0, 1, 2, 3, 4, 5, 6
W_FANS = 12
WINS = WALL + MAX_WALL
STATE_SIZE = WINS + MAX_WINS * WIN_FIELDS

# ---- legal-action rows -------------------------------------------------------------------
ACT_PASS = -1                       # kind column of "do nothing" (not an event kind)
ACT_FIELDS = 4                      # kind, tile, aux, target
MAX_ACTIONS = 64

# ---- error codes ---------------------------------------------------------------------------
OK = 0
E_PHASE = 1
E_PLAYER = 2
E_TILE = 3
E_NOT_HELD = 4
E_FIFTH = 5
E_NO_DISCARD = 6
E_CHOW_LEFT = 7
E_NO_CHOW = 8
E_BAD_MELD = 9
E_WALL = 10
E_DEAL = 11
E_NOT_COMPLETE = 12
E_MISSED_WIN = 13
E_NOT_EXHAUSTED = 14
E_ENDED = 15
E_TARGET = 16
E_HEAD_BUMP = 17
E_KONG = 18
E_FLOWER = 19
E_DEALER = 20
E_KIND = 21
E_KONG_PAYMENT = 22
E_MELDS = 23
E_RIVER = 24

ERROR_MESSAGES = {
    OK: "ok",
    E_PHASE: "event not allowed at this point of the deal",
    E_PLAYER: "wrong player (not this player's turn, or no such player)",
    E_TILE: "tile outside the rule set's tile set",
    E_NOT_HELD: "tile not held by the player",
    E_FIFTH: "a fifth copy of a tile (or a flower twice)",
    E_NO_DISCARD: "a claim with no discard before it",
    E_CHOW_LEFT: "a chow claimed from a player who is not on the left",
    E_NO_CHOW: "chows cannot be claimed in this rule set",
    E_BAD_MELD: "the claim does not fit the hand (tiles missing or a bad chow)",
    E_WALL: "the tile differs from the wall, or the wall has no tile to draw",
    E_DEAL: "deal rows out of order (too many tiles dealt, or play before the deal ended)",
    E_NOT_COMPLETE: "a win declared with a hand that is not complete",
    E_MISSED_WIN: "a win on a tile locked by the missed-win rule",
    E_NOT_EXHAUSTED: "an exhaustive draw while the wall still has tiles to draw",
    E_ENDED: "an event after the deal ended",
    E_TARGET: "wrong target player (the discarder / kong owner)",
    E_HEAD_BUMP: "a second win on one discard where head-bump applies",
    E_KONG: "kong not possible (no four held / no pung to add to / no replacement tile)",
    E_FLOWER: "flower not held, or flowers are not in this rule set",
    E_DEALER: "DEALER_CHANGE disagrees with the rules (next dealer or streak)",
    E_KIND: "unknown event kind",
    E_KONG_PAYMENT: "no unpaid kong of that tile for this player",
    E_MELDS: "too many melds",
    E_RIVER: "too many discards for one player",
}
