#!/usr/bin/env python3
"""biggest.py: a program that plays Anywoli over the lab's line protocol (docs/protocol.md),
with nothing but Python's standard library: it picks up the legal hole holding the most
seeds, ties broken by a random.Random seeded with the game's seed, so that the lab's same
game is the same game again.

    anywoli run --agent-a external:cmd=python3,arg=examples/agents/biggest.py --agent-b greedy

It mirrors what the package's helper does (anywoli.serve, python/anywoli/protocol.py) in a
few lines, so that it runs where the package is not installed.
"""
import random
import sys


def choose(apn, legal, rng):
    """The legal hole with the most seeds (the APN's first field: South's row / North's)."""
    holes = [int(n) for n in apn.split()[0].replace("/", ",").split(",")]
    most = max(holes[m] for m in legal)
    return rng.choice([m for m in legal if holes[m] == most])


def main():
    rng = random.Random(0)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "anywoli":
            print("name biggest.py\nprotocol 1", flush=True)
        elif words[0] == "game":
            rng = random.Random(int(words[words.index("seed") + 1]))
        elif words[0] == "position":
            apn = " ".join(words[1:6])
            legal = [int(w) for w in words[words.index("moves") + 1:words.index("history")]]
            print("move %d" % choose(apn, legal, rng), flush=True)
        elif words[0] == "quit":
            return


if __name__ == "__main__":
    main()
