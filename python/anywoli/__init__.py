"""anywoli: read the Anywoli lab's results files (docs/results.md) into numpy and pandas.

    import anywoli
    r = anywoli.load("default.h5")
    r.config, r.seed, r.provenance      # the experiment
    r.jobs                              # a DataFrame, one row per job
    r.games("random-vs-random")         # a DataFrame, one row per game
    r.moves("random-vs-random", 0)      # a game's moves (jobs run with record_moves)

docs/python.md has the whole reference and a worked example.
"""
from .codes import CODED, OUTCOMES, SIDES
from .protocol import serve
from .results import Results, ResultsError, load, score_of_a

__all__ = ["load", "Results", "ResultsError", "score_of_a", "CODED", "OUTCOMES", "SIDES",
           "serve"]
