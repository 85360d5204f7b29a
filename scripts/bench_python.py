#!/usr/bin/python3
"""bench_python.py: steps a second of anywoli.Game from Python, on random games.

    PYTHONPATH=python scripts/bench_python.py [--steps N] [--runs R] [--variant NAME]

A step is what an RL loop does each ply: legal_moves(), a random choice among them, play()
and is_over(); a game that stops starts again from the variant's start. Each run plays N
steps; the figure is the median of R runs (the machine may be shared). Then the same for
anywoli.env's steps (observations and masks included), and the plies a second of the
engine's own random playout called from Python (Game.random_playout, a whole game a call,
for rollouts). Not a test: a measurement (docs/python.md, "Speed").
"""
import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import anywoli  # noqa: E402


def stepping(variant, steps, seed):
    """Steps a second of legal_moves + choice + play + is_over for `steps` steps."""
    rng = random.Random(seed)
    choice = rng.choice
    g = anywoli.Game(variant)
    start = time.perf_counter()
    for _ in range(steps):
        g.play(choice(g.legal_moves()))
        if g.is_over():
            g = anywoli.Game(variant)
    return steps / (time.perf_counter() - start)


def env_stepping(variant, steps, seed):
    """Steps a second of the environment: last() (observation and mask), a random legal
    action, step(); the dead steps at each game's end are not counted."""
    rng = random.Random(seed)
    env = anywoli.env(variant=variant)
    env.reset(seed=seed)
    done = 0
    start = time.perf_counter()
    while done < steps:
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.reset(seed=seed + done)
            continue
        mask = obs["action_mask"]
        env.step(rng.choice([a for a in range(len(mask)) if mask[a]]))
        done += 1
    return steps / (time.perf_counter() - start)


def playouts(variant, games, seed):
    """Plies a second of whole random games played by one call each."""
    start_game = anywoli.Game(variant)
    plies = 0
    start = time.perf_counter()
    for i in range(games):
        plies += start_game.clone().random_playout(seed + i)
    return plies / (time.perf_counter() - start)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=1_000_000)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--variant", default="anywoli")
    a = ap.parse_args()
    print(f"library: {anywoli.game.library_path()}")
    rates = [stepping(a.variant, a.steps, run) for run in range(a.runs)]
    print(f"stepping: {statistics.median(rates):,.0f} steps/s (median of {a.runs} runs of "
          f"{a.steps:,} steps; runs: {', '.join(f'{r:,.0f}' for r in rates)})")
    rates = [env_stepping(a.variant, a.steps // 10, run) for run in range(a.runs)]
    print(f"env: {statistics.median(rates):,.0f} steps/s (median of {a.runs} runs of "
          f"{a.steps // 10:,} steps)")
    rates = [playouts(a.variant, a.games, 1000 * run) for run in range(a.runs)]
    print(f"random_playout: {statistics.median(rates):,.0f} plies/s (median of {a.runs} runs "
          f"of {a.games:,} games)")


if __name__ == "__main__":
    main()
