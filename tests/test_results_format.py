#!/usr/bin/env python3
"""test_results_format.py: results-file format 1 (docs/results.md), read by h5py, a reader the
project did not write.

    test_results_format.py PATH/TO/anywoli

Runs `anywoli run` into a temporary folder and checks every documented attribute, dataset and
field with its exact type; that every row of a 20,000-game run is consistent in itself (the
seeds add up to the total, the outcome agrees with the scores, the award went to the
convention's recipient); and, on the same 20,000 games under each of the three conventions,
that the conventions change nothing but the award. Exit status 77 (skipped) without h5py.
"""
import os
import re
import subprocess
import sys
import tempfile

try:
    import h5py
    import numpy as np
except ImportError as err:
    print(f"skipped: {err} (Debian: python3-h5py)")
    sys.exit(77)

GAMES = 20000
FIELDS = [("game", "<u8"), ("a_south", "u1"), ("outcome", "i1"), ("south", "<u2"),
          ("north", "<u2"), ("left", "<u2"), ("last_capturer", "i1"), ("first_final", "i1"),
          ("lottery", "i1"), ("plies", "<u4"), ("passes", "<u4"), ("mid_captures", "<u2"),
          ("final_captures", "<u2"), ("opening", "<i4"), ("moves_hash", "<u8"),
          ("line_hash", "<u8"), ("nodes_a", "<u8"), ("nodes_b", "<u8"), ("choices_a", "<u4"),
          ("choices_b", "<u4")]
OLD_FIELDS = FIELDS[:13]   # the columns of files written before openings
PRE_LINE_FIELDS = FIELDS[:15]   # the columns of files written before line_hash
PRE_NODES_FIELDS = FIELDS[:16]   # the columns of files written before nodes_a and nodes_b
PRE_CHOICES_FIELDS = FIELDS[:18]   # the columns of files written before choices_a, choices_b
LINE_PLIES = 10
ROOT_TEXT = ["format", "program_version", "git_commit", "config", "started", "finished", "host"]
ROOT_INT = ["format_version", "seed", "threads", "ranks"]
JOB_INT = ["holes", "seeds", "capture", "extra_turn", "skip_origin", "max_plies", "games"]
JOB_TEXT = ["final_four", "agent_a", "agent_b", "agent_a_played", "agent_b_played", "openings"]
SUMMARY_INT = ["south_wins", "north_wins", "draws", "endless", "unfinished", "a_wins", "b_wins",
               "longest"]
ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")

failures = []


def check(ok, what):
    """Record a failed check."""
    if not ok:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def attr_type(obj, name):
    """The HDF5 type of an attribute."""
    return obj.attrs.get_id(name).get_type()


def check_text_attr(obj, name):
    """A text attribute: a variable-length UTF-8 string."""
    if name not in obj.attrs:
        check(False, f"{obj.name}: attribute {name} missing")
        return
    t = attr_type(obj, name)
    check(isinstance(t, h5py.h5t.TypeStringID) and t.is_variable_str()
          and t.get_cset() == h5py.h5t.CSET_UTF8,
          f"{obj.name}: {name} is not a variable-length UTF-8 string")
    check(isinstance(obj.attrs[name], str), f"{obj.name}: {name} does not read as str")
    check(obj.attrs.get_id(name).shape == (), f"{obj.name}: {name} is not scalar")


def check_number_attr(obj, name, kind):
    """A number attribute: a 64-bit signed integer (kind 'i') or double (kind 'f')."""
    if name not in obj.attrs:
        check(False, f"{obj.name}: attribute {name} missing")
        return
    t = attr_type(obj, name)
    if kind == "i":
        ok = isinstance(t, h5py.h5t.TypeIntegerID) and t.get_size() == 8 and \
            t.get_sign() == h5py.h5t.SGN_2
    else:
        ok = isinstance(t, h5py.h5t.TypeFloatID) and t.get_size() == 8
    check(ok, f"{obj.name}: {name} is not a 64-bit {'integer' if kind == 'i' else 'double'}")
    check(obj.attrs.get_id(name).shape == (), f"{obj.name}: {name} is not scalar")


def check_root(f, seed):
    """Every root attribute, with its type and value."""
    for name in ROOT_TEXT:
        check_text_attr(f, name)
    for name in ROOT_INT:
        check_number_attr(f, name, "i")
    check(f.attrs["format"] == "anywoli-results", "format")
    check(f.attrs["format_version"] == 1, "format_version")
    check(f.attrs["seed"] == seed, "seed")
    check(f.attrs["ranks"] == 1, "ranks")
    check(f.attrs["threads"] >= 1, "threads")
    check(list(f.attrs["rank_threads"]) == [f.attrs["threads"]], "rank_threads: one rank's")
    check(re.match(r"^[0-9a-f]{7,40}$|^unknown$", f.attrs["git_commit"]) is not None, "git_commit")
    check(f.attrs["program_version"] != "", "program_version")
    check("jobs" in f.attrs["config"], "config holds the experiment's text")
    for name in ("started", "finished"):
        check(ISO.match(f.attrs[name]) is not None, f"{name} is ISO 8601: {f.attrs[name]}")
    check(f.attrs["started"] <= f.attrs["finished"], "started <= finished")


def check_layout(g):
    """The job's attributes, table and histogram with their exact types."""
    for name in JOB_INT + SUMMARY_INT:
        check_number_attr(g, name, "i")
    for name in JOB_TEXT:
        check_text_attr(g, name)
    check_number_attr(g, "mean_plies", "f")
    check(g.attrs["extra_turn"] in (0, 1) and g.attrs["skip_origin"] in (0, 1), "yes/no as 0/1")
    check(g.attrs["final_four"] in ("penultimate", "first-final", "lottery"), "final_four")
    t = g["games"]
    check([(n, t.dtype.fields[n][0].str) for n in t.dtype.names] ==
          [(n, np.dtype(s).str) for n, s in FIELDS], f"{g.name}/games fields: {t.dtype}")
    check(t.ndim == 1 and t.maxshape == (None,), f"{g.name}/games is not 1-D and extendible")
    check(t.chunks is not None and t.shuffle and t.compression == "gzip",
          f"{g.name}/games is not chunked with shuffle and deflate")
    o = g["openings"]
    check([(n, o.dtype.fields[n][0].str if n == "index" else h5py.check_string_dtype(
        o.dtype.fields[n][0]).encoding) for n in o.dtype.names] ==
          [("index", "<i8"), ("moves", "utf-8"), ("apn", "utf-8")],
          f"{g.name}/openings fields {o.dtype}")
    h = g["length_histogram"]
    check(h.ndim == 1 and h.dtype == np.dtype("<i8"), f"{g.name}/length_histogram type {h.dtype}")


def recipient(convention, rows):
    """Who receives the seeds left under a convention, from the three recorded recipients."""
    if convention == "penultimate":
        return rows["last_capturer"]
    if convention == "first-final":
        return np.where(rows["first_final"] >= 0, rows["first_final"], rows["last_capturer"])
    return rows["lottery"]


def check_rows(g):
    """Every row consistent in itself, and the histogram and summary agree with the table."""
    rows = g["games"][:]
    a = g.attrs
    n = len(rows)
    total = 2 * a["holes"] * a["seeds"]
    name = g.name
    check(n == a["games"], f"{name}: {n} rows, games = {a['games']}")
    check(np.array_equal(rows["game"], np.arange(n)), f"{name}: game is not 0..n-1")
    check(np.array_equal(rows["a_south"], (np.arange(n) % 2 == 0).astype(np.uint8)),
          f"{name}: a_south is not 1 in even games")
    out = rows["outcome"]
    check(np.all((out >= 0) & (out <= 4)), f"{name}: outcome out of 0..4")
    s, nn, left = rows["south"].astype(int), rows["north"].astype(int), rows["left"].astype(int)
    over = out <= 2
    check(np.all(s[over] + nn[over] == total), f"{name}: finished games' seeds do not add up")
    check(np.all(s[~over] + nn[~over] + left[~over] == total),
          f"{name}: endless or unfinished games' seeds do not add up")
    check(np.all(left[over] <= a["capture"]), f"{name}: more than capture seeds left")
    want = np.where(s > nn, 0, np.where(nn > s, 1, 2))
    check(np.array_equal(out[over], want[over]), f"{name}: outcome disagrees with the scores")
    check(np.all(np.isin(rows["last_capturer"], [-1, 0, 1])) and
          np.all(np.isin(rows["first_final"], [-1, 0, 1])) and
          np.all(np.isin(rows["lottery"], [0, 1])), f"{name}: recipients out of range")
    check(np.array_equal(rows["first_final"] == -1, rows["final_captures"] == 0),
          f"{name}: first_final is -1 exactly when no final-seed capture was made")
    captures = rows["mid_captures"].astype(int) + rows["final_captures"]
    check(np.all(captures * a["capture"] == total - left),
          f"{name}: the captures do not account for the seeds off the board")
    check(np.all(rows["final_captures"] <= rows["plies"]), f"{name}: final_captures > plies")
    # line_hash hashes the first LINE_PLIES plies: the whole game when it has no more, a
    # prefix (so not the whole game's hash, but for a collision) when it has more.
    whole = rows["plies"] <= LINE_PLIES
    check(np.array_equal(rows["line_hash"] == rows["moves_hash"], whole),
          f"{name}: line_hash equals moves_hash in other games than those of <= 10 plies")
    check(np.all((rows["last_capturer"] == -1) == (captures == 0)),
          f"{name}: last_capturer is -1 exactly when nothing was captured")
    check(np.all(rows["last_capturer"][over] >= 0), f"{name}: a finished game without a capture")
    r = recipient(a["final_four"], rows)
    got = np.where(r == 0, s, nn)
    check(np.all(got[over] >= left[over]), f"{name}: the recipient's score lacks the award")
    check(np.all(rows["plies"] >= 1) and np.all(rows["passes"] <= rows["plies"]),
          f"{name}: plies or passes")
    check(np.all(rows["plies"][out == 4] == a["max_plies"]), f"{name}: unfinished before max_plies")
    hist = g["length_histogram"][:]
    check(len(hist) == rows["plies"].max() + 1, f"{name}: histogram length")
    check(np.array_equal(hist, np.bincount(rows["plies"], minlength=len(hist))),
          f"{name}: histogram disagrees with the table")
    counts = [np.sum(out == k) for k in range(5)]
    for k, attr in enumerate(["south_wins", "north_wins", "draws", "endless", "unfinished"]):
        check(a[attr] == counts[k], f"{name}: {attr} {a[attr]} vs {counts[k]}")
    a_won = ((out == 0) & (rows["a_south"] == 1)) | ((out == 1) & (rows["a_south"] == 0))
    check(a["a_wins"] == np.sum(a_won), f"{name}: a_wins")
    check(a["a_wins"] + a["b_wins"] == counts[0] + counts[1], f"{name}: a_wins + b_wins")
    check(a["longest"] == rows["plies"].max(), f"{name}: longest")
    check(abs(a["mean_plies"] - rows["plies"].mean()) < 1e-6, f"{name}: mean_plies")
    return rows


def check_conventions(runs):
    """The same games under three conventions: equal in everything but the award."""
    base = runs["penultimate"]
    over = base["outcome"] <= 2
    before = {}
    for conv, rows in runs.items():
        for field in ("plies", "passes", "left", "last_capturer", "first_final", "lottery",
                      "mid_captures", "final_captures", "a_south"):
            check(np.array_equal(rows[field], base[field]), f"{conv}: {field} differs")
        r = recipient(conv, rows)
        left = rows["left"].astype(int)
        before[conv] = (rows["south"] - np.where(r == 0, left, 0),
                        rows["north"] - np.where(r == 1, left, 0))
    for conv in runs:
        for side in (0, 1):
            check(np.array_equal(before[conv][side][over], before["penultimate"][side][over]),
                  f"{conv}: the stores before the award differ from penultimate's")
    differ = np.sum(runs["lottery"]["outcome"] != base["outcome"])
    check(differ > 0, "the lottery never changed an outcome (the check would be blind)")


def check_openings(binary, tmp):
    """Random plies per pair: one openings row per pair, both games of a pair name it, its
    moves and APN as text; every game's moves_hash; replay of a game from its opening; a
    list's table (all:N) holds the lines its pairs played, at most the whole list."""
    run(binary, ["--games", "301", "--seed", "4", "--openings", "plies:3", "-o", "o.h5"], tmp)
    with h5py.File(os.path.join(tmp, "o.h5"), "r") as f:
        g = f["jobs/main"]
        check_layout(g)
        check(g.attrs["openings"] == "plies:3", "the openings attribute is the spec")
        rows = g["games"][:]
        table = g["openings"][:]
        check(len(table) == 151, f"plies:3: {len(table)} openings rows for 151 pairs")
        check(np.array_equal(table["index"], np.arange(151)), "openings rows are 0..pairs-1")
        check(np.array_equal(rows["opening"], np.arange(301) // 2), "opening is the pair")
        check(all(len(m.split()) == 3 for m in table["moves"]), "each opening has 3 moves")
        check(all(len(a.split()) == 5 for a in table["apn"]), "each opening has an APN")
        check(len(set(rows["moves_hash"])) == 301, "random games have distinct moves_hash")
    p = subprocess.run([binary, "replay", os.path.join(tmp, "o.h5"), "--job", "main", "--game",
                        "201"], capture_output=True, text=True)
    check(p.returncode == 0 and "check: the stored row matches" in p.stdout and
          "opening 100 of plies:3" in p.stdout, f"replay from an opening: {p.stderr.strip()}")
    # A list's table holds the lines the pairs played, up to the whole list: 7 games (4
    # pairs) of the 116 lines of all:2, then 30 games cycling through the 12 of all:1.
    for spec, games, want in (("all:2", 7, 4), ("all:1", 30, 12)):
        run(binary, ["--games", str(games), "--openings", spec, "-o", "l.h5", "--force"], tmp)
        with h5py.File(os.path.join(tmp, "l.h5"), "r") as f:
            table = f["jobs/main/openings"][:]
            check(np.array_equal(table["index"], np.arange(want)),
                  f"{spec}, {games} games: openings rows {list(table['index'])[:20]}, "
                  f"expected 0..{want - 1}")
    with h5py.File(os.path.join(tmp, "x.h5"), "r") as f:
        for job in ("small", "capped"):
            check(np.all(f["jobs"][job]["games"]["opening"] == -1), f"{job}: opening -1")
            check(len(f["jobs"][job]["openings"]) == 0, f"{job}: no openings rows from start")


def check_old_file(binary, tmp, fields=OLD_FIELDS):
    """A file written before openings (no opening or moves_hash column, no openings table or
    attribute), or before line_hash, still analyzes and replays."""
    with h5py.File(os.path.join(tmp, "x.h5"), "r") as src, \
            h5py.File(os.path.join(tmp, "old.h5"), "w") as dst:
        for k, v in src.attrs.items():
            dst.attrs[k] = v
        for job in src["jobs"]:
            s = src["jobs"][job]
            d = dst.create_group(f"jobs/{job}")
            for k, v in s.attrs.items():
                if k != "openings":
                    d.attrs[k] = v
            d["length_histogram"] = s["length_histogram"][:]
            old = np.dtype(fields)
            rows = s["games"][:]
            d.create_dataset("games", data=np.array([tuple(r[n] for n in old.names)
                                                     for r in rows], dtype=old),
                             maxshape=(None,), chunks=True)
    p = subprocess.run([binary, "analyze", os.path.join(tmp, "old.h5")], capture_output=True,
                       text=True)
    check(p.returncode == 0 and "job capped" in p.stdout,
          f"analyze of an older file: {p.returncode} {p.stderr.strip()}")
    p = subprocess.run([binary, "replay", os.path.join(tmp, "old.h5"), "--job", "capped",
                        "--game", "3", "--quiet"], capture_output=True, text=True)
    check(p.returncode == 0 and "check: the stored row matches" in p.stdout,
          f"replay of an older file: {p.returncode} {p.stderr.strip()}")


def check_replay(binary, tmp):
    """replay agrees with a stored row, and notices one that was changed."""
    path = os.path.join(tmp, "x.h5")
    args = [binary, "replay", path, "--job", "capped", "--game", "3", "--quiet"]
    p = subprocess.run(args, capture_output=True, text=True)
    check(p.returncode == 0 and "check: the stored row matches" in p.stdout,
          f"replay of a stored game: {p.returncode} {p.stderr.strip()}")
    with h5py.File(path, "r+") as f:
        row = f["jobs/capped/games"][3]
        check(row["passes"] < row["plies"], "game 3 of capped: room for one more pass")
        row["passes"] += 1
        row["line_hash"] ^= np.uint64(1)
        f["jobs/capped/games"][3] = row
    p = subprocess.run(args, capture_output=True, text=True)
    check(p.returncode == 1 and "passes: replayed" in p.stderr and "line_hash: replayed" in
          p.stderr and "(2 fields)" in p.stderr,
          f"replay of a changed row: {p.returncode} {p.stderr.strip()}")
    # A row the rules cannot produce, or a seed no config allows, is damage (exit 2, one
    # line), not a list of mismatches.
    with h5py.File(path, "r+") as f:
        row = f["jobs/capped/games"][3]
        row["plies"] = 301
        f["jobs/capped/games"][3] = row
    p = subprocess.run(args, capture_output=True, text=True)
    check(p.returncode == 2 and p.stderr.count("\n") == 1 and
          "job capped: game 3: damaged row (plies 301, expected 1 to max_plies 300)" in p.stderr,
          f"replay of an impossible row: {p.returncode} {p.stderr.strip()}")
    with h5py.File(path, "r+") as f:
        f.attrs["seed"] = np.int64(-1)
    p = subprocess.run(args, capture_output=True, text=True)
    check(p.returncode == 2 and p.stderr.count("\n") == 1 and
          "damaged results file (root attribute seed -1, expected 0 to" in p.stderr,
          f"replay with seed -1: {p.returncode} {p.stderr.strip()}")


def fnv_hashes(moves, index):
    """The 64-bit FNV-1a hash of each game's moves (docs/results.md), all games at once."""
    n = len(index) - 1
    lengths = np.diff(index)
    h = np.full(n, 0xcbf29ce484222325, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for ply in range(int(lengths.max(initial=0))):
            live = lengths > ply
            m = moves[index[:-1][live] + np.uint64(ply)].astype(np.uint64)
            h[live] = (h[live] ^ m) * np.uint64(0x100000001b3)
    return h


def check_moves(binary, tmp):
    """A job run with record_moves: its moves and moves_index, their types and layout, each
    game's moves (plies of them, holes of the board, the opening's first) hashing to its
    moves_hash, endless and unfinished games included; jobs without it have neither, and a
    file with moves still analyzes."""
    with open(os.path.join(tmp, "m.cfg"), "w") as cfg:
        cfg.write('seed = 4; output = "m.h5";\ndefaults = { record_moves = true; };\njobs = (\n'
                  '  { name = "small"; holes = 5; seeds = 4; games = 2000; },\n'
                  '  { name = "capped"; max_plies = 300; skip_origin = true; games = 400; '
                  'openings = "plies:5"; },\n'
                  '  { name = "plain"; games = 100; record_moves = false; }\n);\n')
    run(binary, ["m.cfg"], tmp)
    with h5py.File(os.path.join(tmp, "m.h5"), "r") as f:
        check("moves" not in f["jobs/plain"] and "moves_index" not in f["jobs/plain"],
              "plain: no move records without record_moves")
        for job in ("small", "capped"):
            g = f["jobs"][job]
            check_layout(g)
            mv, ix, rows = g["moves"], g["moves_index"], g["games"][:]
            check(mv.dtype == np.dtype("u1") and mv.ndim == 1 and mv.maxshape == (None,),
                  f"{job}/moves: {mv.dtype} {mv.shape}")
            check(mv.chunks is not None and mv.compression == "gzip",
                  f"{job}/moves is not chunked and deflated")
            check(ix.dtype == np.dtype("<u8") and ix.shape == (len(rows) + 1,),
                  f"{job}/moves_index: {ix.dtype} {ix.shape}, games {len(rows)}")
            check(ix.chunks is not None and ix.compression == "gzip",
                  f"{job}/moves_index is not chunked and deflated")
            index, moves = ix[:], mv[:]
            check(index[0] == 0 and index[-1] == len(moves), f"{job}: offsets 0 .. {len(moves)}")
            check(np.array_equal(np.diff(index), rows["plies"].astype(np.uint64)),
                  f"{job}: each game's moves are its plies")
            check(int(moves.max()) < 2 * int(g.attrs["holes"]), f"{job}: moves are holes")
            check(np.array_equal(fnv_hashes(moves, index), rows["moves_hash"]),
                  f"{job}: the stored moves hash to moves_hash")
            print(f"{job}: {mv.id.get_storage_size() / len(rows):.1f} bytes a game of moves "
                  f"stored ({len(moves) / len(rows):.1f} plies)")
        check(f["jobs/small"].attrs["endless"] > 0, "small board: endless games")
        check(f["jobs/capped"].attrs["unfinished"] > 0, "capped: unfinished games")
        openings = f["jobs/capped/openings"][:]
        g = f["jobs/capped"]
        rows, index, moves = g["games"][:], g["moves_index"][:], g["moves"][:]
        for game in (0, 1, 399):
            at = int(index[game])
            first = " ".join(str(m) for m in moves[at:at + 5])
            want = openings[rows["opening"][game]]["moves"].decode()
            check(first == want, f"capped game {game}: moves start {first}, opening {want}")
    p = subprocess.run([binary, "analyze", os.path.join(tmp, "m.h5")], capture_output=True,
                       text=True)
    check(p.returncode == 0 and "job capped" in p.stdout,
          f"analyze of a file with moves: {p.returncode} {p.stderr.strip()}")


def check_adjudicated(binary, tmp):
    """Jobs run with adjudicate: its attribute (1; absent without it), every row either a
    finished game or a win stopped where the winner's store held more than half the seeds
    (the stores as they stood, the seeds on the board in left), with its moves ending there;
    the same jobs without it are the games played on, their winners the same; analyze, the
    Python reader and replay take it."""
    for name, key in (("adj", "adjudicate = true; "), ("whole", "")):
        with open(os.path.join(tmp, f"{name}.cfg"), "w") as cfg:
            cfg.write(f'seed = 3; output = "{name}.h5";\ndefaults = {{ record_moves = true; '
                      f'{key}games = 60; }};\njobs = (\n'
                      '  { name = "greedy"; agent_a = "greedy"; },\n'
                      '  { name = "random"; }\n);\n')
        run(binary, [f"{name}.cfg"], tmp)
    with h5py.File(os.path.join(tmp, "adj.h5"), "r") as f, \
            h5py.File(os.path.join(tmp, "whole.h5"), "r") as w:
        for job in ("greedy", "random"):
            g = f["jobs"][job]
            check(g.attrs["adjudicate"] == 1, f"{job}: adjudicate = 1")
            check("adjudicate" not in w["jobs"][job].attrs, f"{job}: none without it")
            rows, total = g["games"][:], 2 * int(g.attrs["holes"]) * int(g.attrs["seeds"])
            cut = rows["left"] > int(g.attrs["capture"])
            winner = np.where(rows["outcome"] == 0, rows["south"], rows["north"])
            check(cut.sum() >= 10, f"{job}: {cut.sum()} of {len(rows)} adjudicated")
            check(np.all(rows["outcome"][cut] <= 1) and np.all(2 * winner[cut] > total) and
                  np.all(rows["south"][cut] + rows["north"][cut] + rows["left"][cut] == total),
                  f"{job}: an adjudicated row is a win by more than half the seeds in a store")
            whole = w["jobs"][job]["games"][:]
            check(np.all(rows["plies"] <= whole["plies"]), f"{job}: no game longer than whole")
            check(np.array_equal(rows["outcome"], whole["outcome"]),
                  f"{job}: each game's winner is the game played on's")
            index, moves = g["moves_index"][:], g["moves"][:]
            full_index, full = w["jobs"][job]["moves_index"][:], w["jobs"][job]["moves"][:]
            check(all(np.array_equal(moves[index[k]:index[k + 1]],
                                     full[full_index[k]:full_index[k] + rows["plies"][k]])
                      for k in range(len(rows))), f"{job}: each game's moves begin the whole's")
    p = subprocess.run([binary, "analyze", os.path.join(tmp, "adj.h5")], capture_output=True,
                       text=True)
    check(p.returncode == 0 and "adjudicated: " in p.stdout and
          "disagree" not in p.stdout, f"analyze of adjudicated games: {p.returncode} "
          f"{p.stderr.strip()}")
    p = subprocess.run([binary, "replay", os.path.join(tmp, "adj.h5"), "--job", "greedy",
                        "--game", "1"], capture_output=True, text=True)
    check(p.returncode == 0 and "adjudicated" in p.stdout,
          f"replay of an adjudicated game: {p.returncode} {p.stderr.strip()}")
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
    from anywoli.results import Results
    r, r0 = Results(os.path.join(tmp, "adj.h5")), Results(os.path.join(tmp, "whole.h5"))
    check(r.job("greedy")["adjudicate"] and not r0.job("greedy")["adjudicate"],
          "the Python reader: adjudicate")
    check(len(r.columns("greedy")["outcome"]) == 60, "the Python reader takes adjudicated rows")


def run(binary, args, cwd):
    """Run anywoli; fail the test on a nonzero exit."""
    p = subprocess.run([binary, "run", "--quiet"] + args, cwd=cwd, capture_output=True, text=True)
    check(p.returncode == 0, f"anywoli run {' '.join(args)}: {p.returncode} {p.stderr.strip()}")


def main():
    binary = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        runs = {}
        for conv in ("penultimate", "first-final", "lottery"):
            run(binary, ["--games", str(GAMES), "--seed", "7", "--final-four", conv,
                         "-o", f"{conv}.h5"], tmp)
            with h5py.File(os.path.join(tmp, f"{conv}.h5"), "r") as f:
                check_root(f, 7)
                check(list(f["jobs"].keys()) == ["main"], "one job, main")
                check_layout(f["jobs/main"])
                runs[conv] = check_rows(f["jobs/main"])
        check_conventions(runs)
        with open(os.path.join(tmp, "x.cfg"), "w") as cfg:
            cfg.write('seed = 9000000000L;\noutput = "x.h5";\njobs = (\n'
                      '  { name = "small"; holes = 5; seeds = 4; games = 20000; },\n'
                      '  { name = "capped"; max_plies = 300; skip_origin = true; games = 2000; '
                      'agent_a = "random:"; final_four = "first-final"; }\n);\n')
        run(binary, ["x.cfg"], tmp)
        with h5py.File(os.path.join(tmp, "x.h5"), "r") as f:
            check_root(f, 9000000000)
            for job in ("small", "capped"):
                check_layout(f["jobs"][job])
                check_rows(f["jobs"][job])
            check(f["jobs/small"].attrs["endless"] > 0, "small board: no endless games")
            check(f["jobs/capped"].attrs["unfinished"] > 0, "capped: no unfinished games")
            check(f["jobs/capped"].attrs["agent_a"] == "random:", "agent_a as written")
        check_openings(binary, tmp)
        check_old_file(binary, tmp)
        check_old_file(binary, tmp, PRE_LINE_FIELDS)
        check_old_file(binary, tmp, PRE_NODES_FIELDS)
        check_old_file(binary, tmp, PRE_CHOICES_FIELDS)
        check_replay(binary, tmp)
        check_moves(binary, tmp)
        check_adjudicated(binary, tmp)
    if failures:
        print(f"{len(failures)} checks failed", file=sys.stderr)
        sys.exit(1)
    print("all checks passed")


if __name__ == "__main__":
    main()
