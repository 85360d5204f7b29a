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

# The variant parameters, as the job's attributes name them, in the order and with the kinds
# and ranges of the C table (variant_params, variants/variant.c; tests/variant_params_test.py
# holds the two equal): "int" and "int64" are whole numbers from low to high, "bool" yes or
# no (stored 0 or 1), "convention" a name of CONVENTIONS.
VARIANT_PARAMS = (
    ("holes", "int", 2, 32),
    ("seeds", "int", 1, 64),
    ("capture", "int", 2, 64),
    ("final_four", "convention", 0, 2),
    ("extra_turn", "bool", 0, 1),
    ("skip_origin", "bool", 0, 1),
    ("max_plies", "int64", 1, 10_000_000),
)
VARIANT = tuple(name for name, _, _, _ in VARIANT_PARAMS)
YES_NO = tuple(name for name, kind, _, _ in VARIANT_PARAMS if kind == "bool")
CONVENTION_PARAMS = tuple(name for name, kind, _, _ in VARIANT_PARAMS if kind == "convention")
CONVENTIONS = ("penultimate", "first-final", "lottery")

# The root attributes that say which program wrote the file, and when and where.
PROVENANCE = ("program_version", "git_commit", "started", "finished", "host", "threads",
              "ranks")

FORMAT = "anywoli-results"
FORMAT_VERSION = 1
