"""External bots: a process per seat speaking the Botzone "simple interaction" protocol
(``/work/shared/data/mcr/README.md``), so that a Botzone MCR bot runs in the simulator.

Requests (one line each; ``<p>`` is a Botzone player id = the seat wind, the dealer 0)::

    0 <id> <quan>                  start: the bot's own id and the prevalent wind
    1 0 0 0 0 <13 tiles>           its deal (the zeros: flower counts; Botzone walls have none)
    2 <tile>                       its own draw             -> PLAY t | GANG t | BUGANG t | HU
    3 <p> DRAW                     p drew                   -> PASS
    3 <p> PLAY <tile>              p discarded              -> PASS | PENG t | CHI mid t | GANG | HU
    3 <p> PENG <tile>              p punged, then discarded <tile>
    3 <p> CHI <mid> <tile>         p chowed (middle tile), then discarded <tile>
    3 <p> GANG                     p made an exposed or concealed kong
    3 <p> BUGANG <tile>            p added to a pung        -> PASS | HU (robbing)

Every request goes to every bot, which answers each with one line. The first input of a
process is ``<turns>`` then the history (``2 * turns - 1`` lines: requests and its own
past responses), as Botzone sends it; a bot that prints
``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` after its answer stays alive and then receives one
request line per turn; one that exits is started again with the whole history next turn.
Lines a bot prints after its answer (debug, data, globaldata) are ignored.
"""
from __future__ import annotations

import queue
import shlex
import subprocess
import threading
from typing import Any

from ..datasets import EventKind as K
from ..errors import MjfastError
from ..notation.botzone import tile_code

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
_CODE = {tile_code(t): t for t in range(34)}


class ExternalBotError(MjfastError):
    """An external bot failed: it died, timed out or answered something that is not a
    legal move. ``text`` names the bot and the request."""

    def __init__(self, text: str, position: int | None, reason: str):
        self.text, self.position, self.reason = text, position, reason
        super().__init__(f"{reason} ({text})")


class _Process:
    """One bot process with a reader thread (so reads can time out)."""

    def __init__(self, argv: list[str], cwd: str | None):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1, cwd=cwd)
        self.q: queue.Queue = queue.Queue()
        self.t = threading.Thread(target=self._pump, daemon=True)
        self.t.start()

    def _pump(self):
        for line in self.p.stdout:
            self.q.put(line.rstrip("\r\n"))
        self.q.put(None)

    def send(self, text: str):
        self.p.stdin.write(text)
        self.p.stdin.flush()

    def read(self, timeout: float):
        return self.q.get(timeout=timeout)

    def close(self):
        try:
            if self.p.poll() is None:
                self.p.stdin.close()
                try:
                    self.p.wait(timeout=1)
                except subprocess.TimeoutExpired:
                    self.p.kill()
                    self.p.wait()
        except (BrokenPipeError, OSError):
            pass


class BotzoneBot:
    """A policy backed by an external process (see the module docstring).

    ``BotzoneBot("python3 my_bot.py")`` or ``BotzoneBot(["./bot"], timeout=5)``; one object
    per seat (each keeps its own process). Use as a seat's bot in
    :func:`mjfast.simulation.simulate` (``bots=[BotzoneBot(...), "efficiency", ...]``) or
    on the command line as ``cmd:<command line>``.
    """

    def __init__(self, command, name: str | None = None, timeout: float = 10.0,
                 cwd: str | None = None):
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        self.name = name or "cmd:" + " ".join(self.argv)
        self.timeout = timeout
        self.cwd = cwd
        self.proc: _Process | None = None
        self.requests: list[str] = []
        self.responses: list[str] = []
        self.last = ""

    # ---- the process -----------------------------------------------------------------
    def _ask(self, request: str) -> str:
        """Send one request, return the answer (starting the process when needed)."""
        self.requests.append(request)
        if self.proc is None:
            self.proc = _Process(self.argv, self.cwd)
            hist = [str(len(self.requests))]
            for i, req in enumerate(self.requests):
                hist.append(req)
                if i < len(self.responses):
                    hist.append(self.responses[i])
            text = "\n".join(hist) + "\n"
        else:
            text = request + "\n"
        try:
            self.proc.send(text)
            ans = None
            while ans is None or ans == "":
                ans = self.proc.read(self.timeout)
                if ans is None:
                    raise ExternalBotError(f"{self.name}: {request!r}", len(self.requests),
                                           "the bot exited without an answer")
            # then: the keep-running marker (stay) or the end of the process (restart)
            while True:
                line = self.proc.read(self.timeout)
                if line is None:
                    self.proc.close()
                    self.proc = None
                    break
                if line.strip() == KEEP_RUNNING:
                    break
        except queue.Empty:
            self.close()
            raise ExternalBotError(f"{self.name}: {request!r}", len(self.requests),
                                   f"no answer within {self.timeout} s") from None
        except (BrokenPipeError, OSError) as e:
            self.close()
            raise ExternalBotError(f"{self.name}: {request!r}", len(self.requests),
                                   f"the bot process failed: {e}") from None
        ans = ans.strip()
        self.responses.append(ans)
        self.last = ans
        return ans

    def close(self):
        if self.proc is not None:
            self.proc.close()
            self.proc = None

    def __del__(self):  # pragma: no cover - best effort
        try:
            self.close()
        except (OSError, ValueError):       # the process or its pipes already gone
            pass

    # ---- the policy interface ----------------------------------------------------------
    def start_deal(self, game, player: int) -> None:
        """A new deal: the process restarts its history (a Botzone match is one deal)."""
        self.close()
        self.requests, self.responses = [], []
        self.game, self.player = game, player
        self.pending = None   # (kind, player) of a pung / chow waiting for its discard
        self.dealt = False
        self.last = ""

    def _id(self, p: int) -> int:
        return int(self.game.S[self._seats + p])

    @property
    def _seats(self):
        from ..engine.layout import H_SEATS
        return H_SEATS

    def observe(self, kind: int, player: int, tile: int, aux: int, target: int) -> None:
        """Called after each event is applied: sends the matching request, if any."""
        me = self.player
        if kind == K.DEAL:
            return
        if kind == K.FLOWER:
            raise ExternalBotError(self.name, None, "Botzone bots play without flowers "
                                                    "(use the botzone wall)")
        if not self.dealt:
            from ..engine.layout import H_PREVALENT
            self.dealt = True
            self._ask(f"0 {self._id(me)} {int(self.game.S[H_PREVALENT])}")
            hand = self.game.hand(me)["concealed"]
            self._ask("1 0 0 0 0 " + " ".join(tile_code(t) for t in hand))
        pid = self._id(player) if player >= 0 else -1
        if kind == K.DRAW:
            self._ask(f"2 {tile_code(tile)}" if player == me else f"3 {pid} DRAW")
        elif kind in (K.PUNG, K.CHOW):
            self.pending = (kind, player, aux)
        elif kind == K.DISCARD:
            pend, self.pending = self.pending, None
            if pend is not None and pend[1] == player and pend[0] == K.PUNG:
                self._ask(f"3 {pid} PENG {tile_code(tile)}")
            elif pend is not None and pend[1] == player and pend[0] == K.CHOW:
                self._ask(f"3 {pid} CHI {tile_code(pend[2] + 1)} {tile_code(tile)}")
            else:
                self._ask(f"3 {pid} PLAY {tile_code(tile)}")
        elif kind in (K.KONG_EXPOSED, K.KONG_CONCEALED):
            self._ask(f"3 {pid} GANG")
        elif kind == K.KONG_ADDED:
            self._ask(f"3 {pid} BUGANG {tile_code(tile)}")

    def __call__(self, view, actions) -> int:
        """The legal action (index into ``actions``) the bot's last answer names."""
        words = self.last.split()
        verb = words[0].upper() if words else "PASS"
        want: tuple | None = None
        try:
            if verb == "PLAY":
                want = (K.DISCARD, _CODE[words[1]])
            elif verb == "HU":
                want = (K.WIN, None)
            elif verb == "GANG" and len(words) > 1:
                want = (K.KONG_CONCEALED, _CODE[words[1]])
            elif verb == "GANG":
                want = (K.KONG_EXPOSED, None)
            elif verb == "BUGANG":
                want = (K.KONG_ADDED, _CODE[words[1]])
            elif verb == "PENG":
                want = (K.PUNG, None)
                self.after_claim = _CODE[words[1]]
            elif verb == "CHI":
                mid = _CODE[words[1]]
                want = (K.CHOW, None, mid - 1)
                self.after_claim = _CODE[words[2]]
            elif verb == "PASS":
                want = None
            else:
                raise KeyError(verb)
        except (KeyError, IndexError):
            raise ExternalBotError(f"{self.name}: {self.last!r}", len(self.responses),
                                   "not a Botzone response") from None
        if view.phase == "claimed":      # the discard named in the claim's answer
            want = (K.DISCARD, getattr(self, "after_claim", -1))
        for i, a in enumerate(actions):
            if want is None:
                if a.kind < 0:
                    return i
                continue
            if a.kind == want[0] and (want[1] is None or a.tile == want[1]) \
                    and (len(want) < 3 or a.aux == want[2]):
                return i
        raise ExternalBotError(f"{self.name}: {self.last!r}", len(self.responses),
                               "the answer is not a legal move now")
