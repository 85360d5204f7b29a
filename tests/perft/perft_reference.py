#!/usr/bin/env python3
"""perft_reference.py: a slow, plain reference of the Anywoli rules (docs/rules.md).

It shares no code with the C engine and is written for clarity, not speed: every move is sown
seed by seed, and an endless move is detected only by the bound of docs/rules.md rule 6 (a move
that sows more than 1,000,000 seeds is endless). It computes the expected counts stored in
tests/perft/*.txt and checks the single-move results used by tests/test_rules.c.

    perft_reference.py perft [variant options] [--position APN] DEPTH
        prints `perft d n` for d = 1 .. DEPTH (the format of `anywoli perft`)
    perft_reference.py move [variant options] [--position APN] MOVE...
        prints `APN event laps=L sown=N mid=M final=F passed=P` after each move
    perft_reference.py epd [variant options] DEPTH APN...
        prints `APN ;D1 n ;D2 n ...` lines for tests/perft/*.txt (APN `start`: the start)
    perft_reference.py table [DEPTH]
        checks the docs/rules.md perft table from the start up to DEPTH (default 4)

Variant options: --variant anywoli|yit-nuri|yit-jani, --holes N, --seeds N, --capture N,
--extra-turn yes|no, --skip-origin yes|no, --bound N (seeds sown before a move counts as
endless, default 1,000,000).
"""

import argparse
import sys

SOUTH, NORTH, NOBODY = 0, 1, -1
PRESETS = {"anywoli": (12, 4), "yit-nuri": (7, 4), "yit-jani": (13, 2)}
RULES_TABLE = {
    "anywoli": [12, 116, 1214, 12377, 120458, 1128900, 10310098],
    "yit-nuri": [7, 40, 250, 1397, 7476, 38914],
    "yit-jani": [13, 113, 785, 5268, 39125, 260760],
}
LETTER = {SOUTH: "S", NORTH: "N", NOBODY: "-"}


class Rules:
    """The variant parameters that matter to single moves (docs/rules.md, Variant parameters)."""

    def __init__(self, holes=12, seeds=4, capture=4, extra_turn=True, skip_origin=False,
                 bound=1_000_000):
        self.holes = holes
        self.seeds = seeds
        self.capture = capture
        self.extra_turn = extra_turn
        self.skip_origin = skip_origin
        self.bound = bound

    def owner(self, hole):
        """South owns holes 0 .. H-1, North H .. 2H-1."""
        return SOUTH if hole < self.holes else NORTH


class Pos:
    """A position: holes in sowing order, stores, side to move, last and first-final capturer."""

    def __init__(self, holes, stores, side, last, first):
        self.holes = list(holes)
        self.stores = list(stores)
        self.side = side
        self.last = last
        self.first = first

    def copy(self):
        return Pos(self.holes, self.stores, self.side, self.last, self.first)

    def apn(self, rules):
        h = rules.holes
        south = ",".join(str(x) for x in self.holes[:h])
        north = ",".join(str(x) for x in self.holes[h:])
        return "%s/%s %d/%d %s %s %s" % (south, north, self.stores[0], self.stores[1],
                                         LETTER[self.side], LETTER[self.last],
                                         LETTER[self.first])


def start(rules):
    """Every hole holds `seeds`; South moves first."""
    return Pos([rules.seeds] * (2 * rules.holes), [0, 0], SOUTH, NOBODY, NOBODY)


def parse_apn(text, rules, seeds_given):
    """Read an APN; holes come from the row length, seeds from the total unless given."""
    fields = text.split(" ")
    if len(fields) != 5:
        raise ValueError("expected 5 fields")
    rows = fields[0].split("/")
    south = [int(x) for x in rows[0].split(",")]
    north = [int(x) for x in rows[1].split(",")]
    if len(south) != len(north):
        raise ValueError("rows of unequal length")
    stores = [int(x) for x in fields[1].split("/")]
    side = {"S": SOUTH, "N": NORTH}[fields[2]]
    last = {"S": SOUTH, "N": NORTH, "-": NOBODY}[fields[3]]
    first = {"S": SOUTH, "N": NORTH, "-": NOBODY}[fields[4]]
    rules.holes = len(south)
    total = sum(south) + sum(north) + sum(stores)
    if seeds_given:
        if total != 2 * rules.holes * rules.seeds:
            raise ValueError("seeds do not add up")
    else:
        if total % (2 * rules.holes):
            raise ValueError("total not divisible")
        rules.seeds = total // (2 * rules.holes)
    return Pos(south + north, stores, side, last, first)


def over(rules, pos):
    """The game is over when `capture` or fewer seeds are still on the board."""
    return sum(pos.holes) <= rules.capture


def legal_moves(rules, pos):
    """The side to move's non-empty holes, in ascending order; none once the game is over."""
    if over(rules, pos):
        return []
    h = rules.holes
    first = 0 if pos.side == SOUTH else h
    return [i for i in range(first, first + h) if pos.holes[i] > 0]


def play(rules, pos, move):
    """Play one move seed by seed. Returns (event, position after, details); for an endless
    move the position is the one before it."""
    if move not in legal_moves(rules, pos):
        raise ValueError("move %d is not legal in %s" % (move, pos.apn(rules)))
    p = pos.copy()
    mover = p.side
    n_pits = 2 * rules.holes
    laps = sown = mid = 0
    final = False
    origin = move
    while True:
        # Rule 1/5: pick up every seed of the hole the lap starts from.
        laps += 1
        seeds = p.holes[origin]
        p.holes[origin] = 0
        hole = origin
        ended = False
        while seeds > 0:
            # Rule 2: the next hole; with skip_origin, never the hole this lap started from.
            hole = (hole + 1) % n_pits
            if rules.skip_origin and hole == origin:
                hole = (hole + 1) % n_pits
            p.holes[hole] += 1
            seeds -= 1
            sown += 1
            if sown > rules.bound:
                # Rule 6: the bound on seeds sown in one move.
                return "endless", pos.copy(), dict(laps=laps, sown=sown, mid=0, final=0,
                                                   passed=0)
            if p.holes[hole] == rules.capture:
                if seeds > 0:
                    # Rule 3, first case: the hole's owner captures at once; sowing goes on.
                    who = rules.owner(hole)
                    p.stores[who] += rules.capture
                    p.holes[hole] = 0
                    p.last = who
                    mid += 1
                else:
                    # Rule 3, second case: the mover captures and the move ends.
                    p.stores[mover] += rules.capture
                    p.holes[hole] = 0
                    p.last = mover
                    if p.first == NOBODY:
                        p.first = mover
                    final = True
                    ended = True
        if ended:
            break
        if p.holes[hole] == 1:
            # Rule 4: the last seed fell into an empty hole.
            break
        # Rule 5: a relay lap from the hole the last seed fell into.
        origin = hole
    passed = 0
    if over(rules, p):
        event = "over"
    else:
        nxt = mover if (final and rules.extra_turn) else 1 - mover
        event = "extra" if (final and rules.extra_turn) else "next"
        first = 0 if nxt == SOUTH else rules.holes
        if sum(p.holes[first:first + rules.holes]) == 0:
            nxt = 1 - nxt
            passed = 1
        p.side = nxt
    return event, p, dict(laps=laps, sown=sown, mid=mid, final=int(final), passed=passed)


def perft(rules, pos, depth):
    """Move sequences of exactly `depth` plies; an ended game adds nothing deeper, an endless
    move is not a path."""
    if depth == 0:
        return 1
    count = 0
    for m in legal_moves(rules, pos):
        event, child, _ = play(rules, pos, m)
        if event == "endless":
            continue
        if depth == 1:
            count += 1
        elif event != "over":
            count += perft(rules, child, depth - 1)
    return count


def perft_all(rules, pos, depth):
    """perft for every depth 1 .. depth in one walk: counts[d-1] is perft(d)."""
    counts = [0] * depth

    def walk(p, d):
        for m in legal_moves(rules, p):
            event, child, _ = play(rules, p, m)
            if event == "endless":
                continue
            counts[d] += 1
            if event != "over" and d + 1 < depth:
                walk(child, d + 1)

    walk(pos, 0)
    return counts


def rules_from_args(args):
    """The variant: the preset or the standard board, then the explicit options."""
    rules = Rules()
    if args.variant:
        rules.holes, rules.seeds = PRESETS[args.variant]
    for name in ("holes", "seeds", "capture", "bound"):
        if getattr(args, name) is not None:
            setattr(rules, name, getattr(args, name))
    if args.extra_turn is not None:
        rules.extra_turn = args.extra_turn == "yes"
    if args.skip_origin is not None:
        rules.skip_origin = args.skip_origin == "yes"
    return rules


def position_from_args(args, rules, apn):
    """The start of the variant, or the APN (holes from the row, seeds as docs/rules.md says)."""
    if apn is None or apn == "start":
        return start(rules)
    if args.holes is not None or args.variant:
        want = rules.holes
        pos = parse_apn(apn, rules, seeds_given=bool(args.variant or args.seeds))
        if rules.holes != want:
            raise ValueError("row length differs from the holes given")
        return pos
    return parse_apn(apn, rules, seeds_given=bool(args.seeds))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("command", choices=["perft", "move", "epd", "table"])
    ap.add_argument("args", nargs="*")
    ap.add_argument("--variant", choices=sorted(PRESETS))
    ap.add_argument("--holes", type=int)
    ap.add_argument("--seeds", type=int)
    ap.add_argument("--capture", type=int)
    ap.add_argument("--extra-turn", choices=["yes", "no"])
    ap.add_argument("--skip-origin", choices=["yes", "no"])
    ap.add_argument("--bound", type=int)
    ap.add_argument("--position")
    args = ap.parse_intermixed_args()

    if args.command == "table":
        depth = int(args.args[0]) if args.args else 4
        ok = True
        for name, want in RULES_TABLE.items():
            rules = Rules(*PRESETS[name])
            got = perft_all(rules, start(rules), min(depth, len(want)))
            good = got == want[:len(got)]
            ok &= good
            print("%-8s %s %s" % (name, " ".join(map(str, got)), "ok" if good else "MISMATCH"))
        sys.exit(0 if ok else 1)

    if args.command == "perft":
        rules = rules_from_args(args)
        pos = position_from_args(args, rules, args.position)
        for d, n in enumerate(perft_all(rules, pos, int(args.args[0])), 1):
            print("perft %d %d" % (d, n))
    elif args.command == "epd":
        depth = int(args.args[0])
        for apn in args.args[1:]:
            rules = rules_from_args(args)
            pos = position_from_args(args, rules, apn)
            counts = perft_all(rules, pos, depth)
            print(apn + "".join(" ;D%d %d" % (d, n) for d, n in enumerate(counts, 1)))
    else:
        rules = rules_from_args(args)
        pos = position_from_args(args, rules, args.position)
        for m in args.args:
            try:
                event, after, info = play(rules, pos, int(m))
            except ValueError as err:
                sys.exit("perft_reference.py move: %s" % err)
            print("%s %s laps=%d sown=%d mid=%d final=%d passed=%d"
                  % (after.apn(rules), event, info["laps"], info["sown"], info["mid"],
                     info["final"], info["passed"]))
            if event in ("endless", "over"):
                break
            pos = after


if __name__ == "__main__":
    main()
