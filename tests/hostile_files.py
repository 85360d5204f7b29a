#!/usr/bin/env python3
"""hostile_files.py: damaged and hostile results files, each made from a good one by h5py, for
the readers' tests (tests/hostile_test.py).

    hostile_files.py SRC DIR     writes DIR/NAME.h5 for every variant, and lists the names

SRC is a file of `anywoli run` with a job "j" run with openings (plies:2) and record_moves,
of at least GAME + 1 games. Each variant changes one thing: an attribute missing, of another
type, an array or out of range; a dataset missing, of another type or shape, resized beyond
what was written; a row, a move or an opening damaged; the file truncated or not HDF5 at all.
VARIANTS lists them with the readers that must refuse them: "a" analyze, "e" export --moves
--job j (and fit --job j), "r" replay --job j --game GAME, "p" the Python reader (load, then columns and
games of every job, then the moves of game GAME of j). Every reader must refuse the others
cleanly too, or read them: never crash, never raise anything but ResultsError.
"""
import os
import shutil
import sys

import h5py
import numpy as np

GAME = 3                     # the game replayed, and whose row and moves are damaged
JOB = "jobs/j"
ALL = "aerp"                 # every reader


def root(name, value):
    """Set root attribute name (None: delete it)."""
    def change(f):
        if value is None:
            del f.attrs[name]
        else:
            f.attrs[name] = value
    return change


def job_attr(name, value):
    """Set job j's attribute name (None: delete it)."""
    def change(f):
        if value is None:
            del f[JOB].attrs[name]
        else:
            f[JOB].attrs[name] = value
    return change


def replace(name, make):
    """Replace job j's dataset name by make(its data) (None: delete it)."""
    def change(f):
        data = f[JOB][name][()]
        del f[JOB][name]
        new = make(data)
        if new is not None:
            f[JOB][name] = new
    return change


def row_field(field, value, game=GAME):
    """Set one field of one row of job j's games table."""
    def change(f):
        table = f[JOB]["games"]
        row = table[game]
        row[field] = value
        table[game] = row
    return change


def resize(name, rows, games_attr=False):
    """Resize job j's chunked dataset name to rows (its games attribute too, if asked)."""
    def change(f):
        f[JOB][name].resize((rows,))
        if games_attr:
            f[JOB].attrs["games"] = rows
    return change


def cast_field(field, dtype):
    """Job j's games table with one column of another type."""
    def make(table):
        new = [(n, dtype if n == field else table.dtype[n]) for n in table.dtype.names]
        out = np.zeros(len(table), dtype=new)
        for n in table.dtype.names:
            out[n] = table[n]
        return out
    return replace("games", make)


def drop_field(field):
    """Job j's games table without one column."""
    def make(table):
        keep = [n for n in table.dtype.names if n != field]
        out = np.zeros(len(table), dtype=[(n, table.dtype[n]) for n in keep])
        for n in keep:
            out[n] = table[n]
        return out
    return replace("games", make)


def move_at(ply, value, dtype=None):
    """Game GAME's move at ply (from 1) set to value (the dataset cast to dtype first)."""
    def change(f):
        at = int(f[JOB]["moves_index"][GAME]) + ply - 1
        if dtype is None:
            f[JOB]["moves"][at] = value
            return
        moves = f[JOB]["moves"][()].astype(dtype)
        moves[at] = value
        del f[JOB]["moves"]
        f[JOB]["moves"] = moves
    return change


def illegal_move(f):
    """Game GAME's third move made one of the other side's holes (the holes alternate with
    the mover, so the second move's side is not the third's... unless an extra turn came
    between: then the hole of the other row)."""
    holes = int(f[JOB].attrs["holes"])
    at = int(f[JOB]["moves_index"][GAME]) + 2
    moves = f[JOB]["moves"]
    moves[at] = (int(moves[at]) + holes) % (2 * holes)


def histogram_resized(f):
    """length_histogram made extendible and resized to 2^40 bins (never written)."""
    data = f[JOB]["length_histogram"][()]
    del f[JOB]["length_histogram"]
    f[JOB].create_dataset("length_histogram", data=data, maxshape=(None,), chunks=(64,))
    f[JOB]["length_histogram"].resize((2**40,))


def index_entry(i, value):
    """moves_index[i] set to value."""
    def change(f):
        f[JOB]["moves_index"][i] = value
    return change


def extra_move(f):
    """Game GAME's moves one longer than its plies (the next game's first move taken)."""
    f[JOB]["moves_index"][GAME + 1] = int(f[JOB]["moves_index"][GAME + 1]) + 1


def no_jobs(f):
    del f["jobs"]


def jobs_dataset(f):
    del f["jobs"]
    f["jobs"] = np.arange(3)


def job_dataset(f):
    f["jobs/x"] = np.arange(3)


def both(*changes):
    """Every change, in order."""
    def change(f):
        for c in changes:
            c(f)
    return change


def swap_sides(f):
    """Every game's scores swapped and its winner with them, consistently: each row still a
    game the rules allow, only the checksum tells."""
    table = f[JOB]["games"][()]
    south, north = table["south"].copy(), table["north"].copy()
    table["south"], table["north"] = north, south
    outcome = table["outcome"].copy()
    table["outcome"][outcome == 0] = 1
    table["outcome"][outcome == 1] = 0
    f[JOB]["games"][...] = table


def swap_openings(f):
    """Openings rows 0 and 1 swapped but for their index: each still an opening the rules
    allow, only the checksum tells."""
    table = f[JOB]["openings"][()]
    a, b = table[0].copy(), table[1].copy()
    a["index"], b["index"] = 1, 0
    table[0], table[1] = b, a
    f[JOB]["openings"][...] = table


def openings_ints(f):
    n = len(f[JOB]["openings"])
    del f[JOB]["openings"]
    f[JOB]["openings"] = np.arange(n)


# (name, change, the readers that must refuse it); "bytes" changes write the file's bytes.
VARIANTS = [
    # the file itself
    ("not_hdf5", ("bytes", lambda b: b"seed = 1;\n" * 100), ALL),
    ("empty", ("bytes", lambda b: b""), ALL),
    ("truncated", ("bytes", lambda b: b[:len(b) // 2]), ALL),
    ("truncated_header", ("bytes", lambda b: b[:600]), ALL),
    # the root's attributes
    ("format_missing", root("format", None), ALL),
    ("format_int", root("format", 1), ALL),
    ("format_array", root("format", ["anywoli-results", "anywoli-results"]), ALL),
    ("format_fixed", root("format", np.bytes_("anywoli-results")), ALL),
    ("format_version_missing", root("format_version", None), ALL),
    ("format_version_array", root("format_version", np.array([1, 1])), ALL),
    ("format_version_float", root("format_version", 1.0), ALL),
    ("format_version_text", root("format_version", "1"), ALL),
    ("format_version_2", root("format_version", 2), ALL),
    ("seed_missing", root("seed", None), ALL),
    ("seed_array", root("seed", np.arange(2, dtype="i8")), ALL),
    ("seed_empty_array", root("seed", np.zeros(0, dtype="i8")), ALL),
    ("seed_float", root("seed", 1.5), ALL),
    ("seed_negative", root("seed", -1), ALL),
    ("seed_beyond_int64", root("seed", np.uint64(2**63)), ALL),
    ("host_array", root("host", np.array([1, 2])), ALL),
    ("threads_text", root("threads", "two"), ALL),
    ("config_array", root("config", ["a", "b"]), ALL),
    ("no_jobs", no_jobs, ALL),
    ("jobs_a_dataset", jobs_dataset, ALL),
    ("job_a_dataset", job_dataset, ALL),
    # a job's attributes
    ("holes_array", job_attr("holes", np.array([6, 6])), ALL),
    ("holes_missing", job_attr("holes", None), ALL),
    ("holes_float", job_attr("holes", 6.0), ALL),
    ("holes_zero", job_attr("holes", 0), "aer"),
    ("holes_huge", job_attr("holes", 2**62), "aer"),
    ("final_four_int", job_attr("final_four", 1), ALL),
    ("final_four_array", job_attr("final_four", ["lottery", "lottery"]), ALL),
    ("final_four_unknown", job_attr("final_four", "nobody"), "aer"),
    ("agent_a_missing", job_attr("agent_a", None), ALL),
    ("agent_a_array", job_attr("agent_a", ["random", "random"]), ALL),
    ("openings_int", job_attr("openings", 7), ALL),
    ("games_attr_array", job_attr("games", np.array([16, 16])), ALL),
    ("games_attr_below_rows", job_attr("games", 2), ALL),
    ("index_array", job_attr("index", np.array([0, 1])), ALL),
    ("index_negative", job_attr("index", -4), ALL),
    ("index_beyond_int64", job_attr("index", np.uint64(2**64 - 1)), ALL),
    # the games table
    ("games_missing", replace("games", lambda t: None), ALL),
    ("games_2d", replace("games", lambda t: t.reshape(-1, 1)), ALL),
    ("games_ints", replace("games", lambda t: np.arange(len(t))), ALL),
    ("games_resized", resize("games", 2**40, games_attr=True), ALL),
    ("games_column_float", cast_field("opening", "f8"), ALL),
    ("games_column_missing", drop_field("outcome"), ALL),
    ("row_game_wrong", row_field("game", 99), ALL),
    ("row_outcome_99", row_field("outcome", 99), ALL),
    ("row_a_south_wrong", row_field("a_south", 1), ALL),
    ("row_lottery_5", row_field("lottery", 5), ALL),
    ("row_plies_zero", row_field("plies", 0), ALL),
    ("row_passes_above_plies", row_field("passes", 2**31), ALL),
    ("row_south_65535", row_field("south", 65535), ALL),
    ("row_left_all", row_field("left", 48), ALL),
    ("row_captures_huge", row_field("mid_captures", 65535), ALL),
    ("opening_beyond_table", row_field("opening", 999999), ALL),
    ("scores_swapped_consistently", swap_sides, ALL),
    ("games_checksum_int", job_attr("games_checksum", 7), ALL),
    ("games_checksum_short", job_attr("games_checksum", "12ab"), ALL),
    ("openings_swapped_consistently", swap_openings, "aer"),
    ("openings_checksum_short", job_attr("openings_checksum", "12ab"), "aer"),
    ("opening_below_minus_one", row_field("opening", -5), ALL),
    ("openings_table_ints", openings_ints, "er"),
    ("openings_table_2d", replace("openings", lambda t: t.reshape(-1, 1)), ALL),
    ("openings_resized_opening_1000",
     both(resize("openings", 2**40), row_field("opening", 1000)), ALL),
    # the moves
    ("move_negative", move_at(5, -3, "i1"), "erp"),
    ("move_not_a_hole", move_at(5, 200), "erp"),
    ("move_illegal", illegal_move, "er"),
    ("moves_float", replace("moves", lambda m: m.astype("f8")), "erp"),
    ("moves_2d", replace("moves", lambda m: m.reshape(-1, 1)), "erp"),
    ("moves_index_huge", index_entry(GAME + 1, 2**62), "erp"),
    ("moves_index_not_from_0", index_entry(0, 1), "erp"),
    ("moves_index_2d", replace("moves_index", lambda m: m.reshape(-1, 1)), "erp"),
    ("moves_one_too_many", extra_move, "erp"),
    ("moves_resized", resize("moves", 2**40), "erp"),
    # the length histogram
    ("histogram_resized", histogram_resized, "a"),
    ("histogram_float", replace("length_histogram", lambda h: h.astype("f8")), "a"),
]


def make(src, folder, name, change):
    """Write variant `name` of src into folder: its path."""
    path = os.path.join(folder, name + ".h5")
    if isinstance(change, tuple):
        with open(src, "rb") as f:
            data = change[1](f.read())
        with open(path, "wb") as f:
            f.write(data)
        return path
    shutil.copyfile(src, path)
    with h5py.File(path, "r+") as f:
        change(f)
    return path


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: hostile_files.py SRC DIR")
    for name, change, _ in VARIANTS:
        make(sys.argv[1], sys.argv[2], name, change)
        print(name)


if __name__ == "__main__":
    main()
