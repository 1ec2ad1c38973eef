"""A tiny Botzone "simple interaction" MCR bot for the simulator's tests.

Keeps its hand; discards the tile it drew; pungs a discard it holds two of (then discards
its highest tile); answers PASS to everything else. Keep-running mode: after each answer it
prints the marker. With the argument ``--restart`` it exits after each answer instead (the
simulator then starts it again with the whole history, as Botzone does).
"""
import sys

KEEP = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
restart = "--restart" in sys.argv


def answer(hand, req, me):
    w = req.split()
    if w[0] == "0":
        me[0] = int(w[1])
        return "PASS"
    if w[0] == "1":
        hand[:] = w[5:]
        return "PASS"
    if w[0] == "2":
        return f"PLAY {w[1]}"           # hand unchanged: the drawn tile goes out
    p = int(w[1])
    if w[2] == "PLAY":
        last[0] = w[3]
    if w[2] == "PLAY" and p != me[0] and hand.count(w[3]) >= 2:
        rest = list(hand)
        rest.remove(w[3]); rest.remove(w[3])
        return f"PENG {w[3]} {max(rest)}"
    if p == me[0] and w[2] == "PENG":
        hand.remove(last[0]); hand.remove(last[0]); hand.remove(w[3])
    return "PASS"


hand, me, last = [], [0], [None]


def replay_history(lines):
    """Rebuild the state from a full history (restart mode): requests and our answers."""
    n = int(lines[0])
    reqs = lines[1::2][:n]
    for i, req in enumerate(reqs):
        out = answer(hand, req, me)
    return out


if restart:
    # as Botzone bots read: the turn count, then 2 * turns - 1 lines
    n = int(sys.stdin.readline())
    data = [str(n)] + [sys.stdin.readline().strip() for _ in range(2 * n - 1)]
    print(replay_history(data))
    sys.stdout.flush()
    sys.exit(0)

first = True
for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    if first:
        first = False
        continue            # the turn count before the first request
    print(answer(hand, line, me))
    print(KEEP)
    sys.stdout.flush()
