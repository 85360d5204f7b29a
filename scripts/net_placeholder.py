#!/usr/bin/python3
"""net_placeholder.py: writes a network file (agents/net.h's format) of small pseudo-random
weights, the same on every machine, to stand for a trained network until one is made.

    scripts/net_placeholder.py [--holes 12] [--capture 4] [--buckets 16] [--hidden 64 16]
                               [--seed 44] > agents/net_default.net

Its values mean nothing: it exercises the format, the integers and the search's wiring.
The compiled-in network (agents/net_default.net, embedded by the build) was first written
by this script with its defaults, and is replaced by a trained network of the same format
(scripts/net_train.py, docs/learned.md). Only the standard library: Python's Mersenne
Twister gives the same numbers for a seed on every version and machine.
"""
import argparse
import random
import sys

NET_EXTRA = 6


def fnv1a64(data):
    """The checksum of the end line (agents/learned.c's learned_text_checksum)."""
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def numbers(rng, n, lo, hi):
    """n numbers uniform in [lo, hi], written with four decimals."""
    return " ".join("%.4f" % rng.uniform(lo, hi) for _ in range(n))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--holes", type=int, default=12)
    ap.add_argument("--capture", type=int, default=4)
    ap.add_argument("--buckets", type=int, default=16)
    ap.add_argument("--hidden", type=int, nargs=2, default=[64, 16], metavar=("H1", "H2"))
    ap.add_argument("--seed", type=int, default=44)
    a = ap.parse_args()
    h1, h2 = a.hidden
    rng = random.Random(a.seed)
    inputs = 2 * a.holes * a.buckets + NET_EXTRA
    lines = [
        "anywoli-net 1",
        "name placeholder",
        "about pseudo-random weights, not trained (scripts/net_placeholder.py --seed %d)"
        % a.seed,
        "holes %d" % a.holes,
        "capture %d" % a.capture,
        "buckets %d" % a.buckets,
        "hidden %d %d" % (h1, h2),
    ]
    lines += ["l1 %d %s" % (i, numbers(rng, h1, -0.15, 0.15)) for i in range(inputs)]
    lines.append("l1.bias " + numbers(rng, h1, 0.0, 0.3))
    lines += ["l2 %d %s" % (j, numbers(rng, 2 * h1, -0.2, 0.2)) for j in range(h2)]
    lines.append("l2.bias " + numbers(rng, h2, -0.1, 0.1))
    lines.append("out " + numbers(rng, h2, -1.0, 1.0))
    lines.append("out.bias 0")
    content = ("\n".join(lines) + "\n").encode()
    sys.stdout.buffer.write(content + b"end %016x\n" % fnv1a64(content))


if __name__ == "__main__":
    main()
