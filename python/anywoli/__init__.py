"""anywoli: read the Anywoli lab's results files (docs/results.md) into numpy and pandas.

    import anywoli
    r = anywoli.load("default.h5")
    r.config, r.seed, r.provenance      # the experiment
    r.jobs                              # a DataFrame, one row per job
    r.games("random-vs-random")         # a DataFrame, one row per game
    r.moves("random-vs-random", 0)      # a game's moves (jobs run with record_moves)

    g = anywoli.Game(variant="anywoli")   # a game stepped on the lab's engine
    g.legal_moves(), g.play(3), g.to_apn(), g.is_over(), g.result(), g.returns()
    e = anywoli.env(variant="anywoli")    # the same as a PettingZoo-style environment

docs/python.md has the whole reference and a worked example.
"""
from . import game
from .codes import CODED, OUTCOMES, SIDES
from .environment import AnywoliEnv, env
from .game import Event, Game, GameError, IllegalMove, Result
from .protocol import serve
from .results import Results, ResultsError, load, score_of_a

__all__ = ["load", "Results", "ResultsError", "score_of_a", "CODED", "OUTCOMES", "SIDES",
           "Game", "GameError", "IllegalMove", "Event", "Result", "AnywoliEnv", "env",
           "serve"]
