#!/usr/bin/env python3
"""cpu-per-move.py: the CPU time agents spend per move on the same positions.

    scripts/cpu-per-move.py RESULTS SPEC [SPEC ...] [--job NAME] [--games N] [--repeats R]
                                               [--skip N]

The positions are those of recorded games (a job run with record_moves, e.g. a match of the
agents to be compared): each game is replayed, and every position where a side has two moves
or more goes, in game order, to `anywoli engine --agent SPEC` (docs/protocol.md) as that
side's turn, so an agent keeps its state (alpha-beta's table) across a side's moves as it does
in a match. Each spec's engine reads the same lines; its CPU time (user + system, from the
kernel's accounting of the finished child) over the positions is its time per move. The
specs take turns R times (the default 3) and the median is printed, with the median over
repeats of each spec's time over the first spec's, so a spell of load on a shared machine
falls on one repeat, not on one agent. Needs the built `anywoli` and
`libanywoli_game.so` (ANYWOLI_BIN, ANYWOLI_LIB; default build/).
"""
import argparse
import csv
import io
import os
import resource
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("ANYWOLI_BIN", os.path.join(ROOT, "build", "anywoli"))
os.environ.setdefault("ANYWOLI_LIB", os.path.join(ROOT, "build", "libanywoli_game.so"))
sys.path.insert(0, os.path.join(ROOT, "python"))
import anywoli  # noqa: E402  (after the path is set)

VARIANT_KEYS = ("holes", "seeds", "capture", "final_four", "extra_turn", "skip_origin",
                "max_plies")


def games_of(results, job, limit):
    """The recorded games: (variant parameters, moves) each, in file order."""
    cmd = [BIN, "export", results, "--moves"] + (["--job", job] if job else [])
    rows = list(csv.DictReader(io.StringIO(subprocess.run(
        cmd, check=True, capture_output=True, text=True).stdout)))
    return [({k: r[k] for k in VARIANT_KEYS}, [int(m) for m in r["moves"].split()])
            for r in rows[:limit]]


def transcript(games, skip):
    """The protocol lines an engine reads for every turn of both sides of every game from
    ply `skip` on (a book's plies were not the agents' choice), and the number of positions
    it is asked."""
    out = ["anywoli protocol 1"]
    asked = 0
    for g, (var, moves) in enumerate(games):
        params = {"holes": int(var["holes"]), "seeds": int(var["seeds"]),
                  "capture": int(var["capture"]), "final_four": var["final_four"],
                  "extra_turn": var["extra_turn"] == "yes",
                  "skip_origin": var["skip_origin"] == "yes",
                  "max_plies": int(var["max_plies"])}
        game = anywoli.Game(**params)
        start = game.to_apn()
        head = " ".join(f"{k} {var[k]}" for k in VARIANT_KEYS)
        lines = {0: [f"game seed {1000 + 2 * g} side S {head} start {start}"],
                 1: [f"game seed {1001 + 2 * g} side N {head} start {start}"]}
        for ply, m in enumerate(moves):
            legal = game.legal_moves()
            if ply >= skip and len(legal) > 1:
                side = game.side_to_move
                lines[side].append(f"position {game.to_apn()} moves "
                                   f"{' '.join(map(str, legal))} history")
                asked += 1
            game.play(m)
        for side in (0, 1):
            if len(lines[side]) > 1:
                out += lines[side] + ["end draw 0 0"]
    out.append("quit")
    return "\n".join(out) + "\n", asked


def cpu_seconds(spec, text):
    """The CPU seconds (user + system) of one engine of spec answering text."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([BIN, "engine", "--agent", spec], input=text, text=True, check=True,
                   stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results")
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--job")
    ap.add_argument("--games", type=int, default=1 << 30)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--skip", type=int, default=0,
                    help="leave out each game's first plies (an opening book's)")
    a = ap.parse_args()
    text, asked = transcript(games_of(a.results, a.job, a.games), a.skip)
    times = {s: [] for s in a.specs}
    for _ in range(a.repeats):
        for s in a.specs:
            times[s].append(cpu_seconds(s, text))
    print(f"positions {asked}")
    first = a.specs[0]
    for s in a.specs:
        med = statistics.median(times[s])
        # Each repeat's time over the first spec's in the same repeat: the two ran minutes
        # apart at most, so a spell of load on the machine cancels in the ratio.
        ratio = statistics.median(x / y for x, y in zip(times[s], times[first]))
        print(f"{s}\tmedian {med:.3f} s\t{1000 * med / asked:.3f} ms/move\t"
              f"x{ratio:.3f} of the first\truns " + " ".join(f"{t:.3f}" for t in times[s]))


if __name__ == "__main__":
    main()
