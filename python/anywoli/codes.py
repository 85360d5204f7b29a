"""codes.py: the one table of the results file's integer codes and the words for them
(docs/results.md, format 1), and the values a file written before a column existed reads as.
"""

# outcome: under the job's final_four convention.
OUTCOMES = ("south", "north", "draw", "endless", "unfinished")

# last_capturer, first_final, lottery: a side, or nobody.
SIDES = {0: "south", 1: "north", -1: "none"}

# Each coded column of the games table: its words in code order (the categories).
CODED = {
    "outcome": dict(enumerate(OUTCOMES)),
    "last_capturer": SIDES,
    "first_final": SIDES,
    "lottery": {0: "south", 1: "north"},
}

# Columns added to the games table after the first files were written, with the value a row
# of an older file has (docs/results.md, "Beyond the core"). nodes_a, nodes_b, choices_a
# and choices_b have no such value: a file without them has no such columns.
LATER_COLUMNS = {"opening": -1, "moves_hash": 0, "line_hash": 0}

# The variant parameters, as the job's attributes name them; yes/no ones are 0 or 1.
VARIANT = ("holes", "seeds", "capture", "final_four", "extra_turn", "skip_origin", "max_plies")
YES_NO = ("extra_turn", "skip_origin")

# The root attributes that say which program wrote the file, and when and where.
PROVENANCE = ("program_version", "git_commit", "started", "finished", "host", "threads",
              "ranks")

FORMAT = "anywoli-results"
FORMAT_VERSION = 1
