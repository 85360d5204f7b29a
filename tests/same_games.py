#!/usr/bin/python3
"""same_games.py A.h5 B.h5: whether two results files hold the same games, game for game, as
an uninterrupted run and a grown or merged one must (tests/grow_test.sh): the same jobs, and
for each job every row of its games table, its moves and moves_index, its openings table, its
length histogram and every other attribute of its group (the variant, agents, games,
first_game, the summary counts). Provenance (the root's times, host, threads, config text) is
not compared. Exit status 0 when the same, 1 with the first difference on stderr."""
import sys

import h5py
import numpy as np


def differences(a, b):
    """The first difference between two open files, or None."""
    ja, jb = sorted(a["jobs"]), sorted(b["jobs"])
    if ja != jb:
        return f"jobs {ja} and {jb}"
    if a.attrs["seed"] != b.attrs["seed"]:
        return "seed"
    for name in ja:
        ga, gb = a["jobs"][name], b["jobs"][name]
        if sorted(ga.attrs) != sorted(gb.attrs):
            return f"job {name}: attributes {sorted(ga.attrs)} and {sorted(gb.attrs)}"
        for k in ga.attrs:
            if not np.array_equal(np.asarray(ga.attrs[k]), np.asarray(gb.attrs[k])):
                return f"job {name}: attribute {k}: {ga.attrs[k]!r} and {gb.attrs[k]!r}"
        if sorted(ga) != sorted(gb):
            return f"job {name}: datasets {sorted(ga)} and {sorted(gb)}"
        for d in ga:
            x, y = ga[d][()], gb[d][()]
            if x.shape != y.shape:
                return f"job {name}: {d}: {x.shape[0]} and {y.shape[0]} rows"
            if not np.array_equal(x, y):
                row = int(np.argmax(x != y)) if x.dtype.names is None else next(
                    i for i in range(len(x)) if x[i] != y[i])
                return f"job {name}: {d}: row {row}: {x[row]} and {y[row]}"
    return None


def main():
    with h5py.File(sys.argv[1], "r") as a, h5py.File(sys.argv[2], "r") as b:
        why = differences(a, b)
    if why:
        print(f"{sys.argv[1]} and {sys.argv[2]} differ: {why}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
