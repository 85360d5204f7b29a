"""results.py: a results file of `anywoli run` (docs/results.md) read with h5py, its codes
written as words (codes.py), its tables as numpy arrays or pandas DataFrames.

The file is opened for each read and closed again, so a Results object holds no open handle.
pandas is imported only by the methods that return DataFrames.
"""
import functools

import h5py
import numpy as np

from . import codes


class ResultsError(ValueError):
    """A file that is not a results file of format 1, or is damaged; an unknown job; a job
    without moves."""


def _text(value):
    """An attribute as text (h5py gives variable-length strings as str, fixed ones as bytes)."""
    return value.decode() if isinstance(value, bytes) else str(value)


# What h5py, numpy and HDF5 raise on a file that is not what docs/results.md says (a missing
# object, a wrong type or shape, a damaged or truncated file, a table too large to hold):
# the public methods turn them into ResultsError, so that a caller meets nothing else.
_DAMAGE = (KeyError, ValueError, TypeError, IndexError, AttributeError, OSError, RuntimeError,
           MemoryError, OverflowError, UnicodeError)


def _guarded(method):
    """The method, with what a damaged file makes h5py or numpy raise as ResultsError naming
    the file (a ResultsError of the method's own passes as it is)."""
    @functools.wraps(method)
    def guarded(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except ResultsError:
            raise
        except _DAMAGE as e:
            what = str(e).splitlines()[0] if str(e) else ""
            raise ResultsError(f"{self.path}: damaged results file ({type(e).__name__}"
                               f"{': ' + what if what else ''})") from None
    return guarded


def _where(path, job):
    """The start of a message about the root (job None) or a job."""
    return f"{path}: damaged results file" if job is None else \
        f"{path}: job {job}: damaged results file"


def _attr(obj, name, kind, path, job, default=None):
    """Attribute name of obj (the root when job is None, else the job's group), holding one
    value (a scalar or a one-element array) of kind "int" (a 64-bit integer at most),
    "float" or "text" (variable-length), as the C reader holds them: the value, `default`
    when absent and a default is given, ResultsError naming the file, the job and the
    attribute otherwise."""
    place = "root attribute" if job is None else "attribute"
    if name not in obj.attrs:
        if default is not None:
            return default
        raise ResultsError(f"{_where(path, job)} ({place} {name}: missing)")
    aid = obj.attrs.get_id(name)
    t = aid.get_type()
    words = {"int": "an integer", "float": "a float", "text": "text"}
    found = {h5py.h5t.INTEGER: "int", h5py.h5t.FLOAT: "float",
             h5py.h5t.STRING: "text"}.get(t.get_class(), "other")
    size = int(np.prod(aid.shape)) if aid.shape is not None else 0
    why = None
    if found != kind:
        why = f"{words.get(found, 'of another type')}, expected {words[kind]}"
    elif size != 1:
        why = f"{size} values, expected one"
    elif kind == "text" and not t.is_variable_str():
        why = "fixed-length text, expected variable-length text"
    elif kind == "int" and t.get_size() > 8:
        why = f"a {t.get_size()}-byte integer, expected at most 8 bytes"
    if why:
        raise ResultsError(f"{_where(path, job)} ({place} {name}: {why})")
    value = np.asarray(obj.attrs[name]).reshape(-1)[0]
    if kind == "text":
        return _text(value)
    if kind == "float":
        return float(value)
    value = int(value)
    if value > 2**63 - 1:
        raise ResultsError(f"{_where(path, job)} ({place} {name}: {value}, expected at most "
                           f"{2**63 - 1})")
    return value


_SPRT_DECISIONS = ("accept_h0", "continue", "accept_h1")


def _read_sequential_test(group, path, name, rows):
    """A job's sequential test (a run with `sprt`) as the C reader checks it, or None: its
    bounds, its state at the end (llr, lower, upper, decision; None before the job ended),
    whether it stopped the job and at which pair (the table's last)."""
    if "sprt_elo0" not in group.attrs:
        return None
    test = {k: _attr(group, "sprt_" + k, "float", path, name)
            for k in ("elo0", "elo1", "alpha", "beta")}
    ended = "sprt_llr" in group.attrs
    for k in ("llr", "lower", "upper"):
        test[k] = _attr(group, "sprt_" + k, "float", path, name) if ended else None
    test["decision"] = _attr(group, "sprt_decision", "text", path, name) if ended else None
    if ended and test["decision"] not in _SPRT_DECISIONS:
        raise ResultsError(f"{_where(path, name)} (attribute sprt_decision: expected "
                           f"accept_h0, continue or accept_h1)")
    stopped = _attr(group, "stopped", "text", path, name) if "stopped" in group.attrs else None
    if stopped not in (None, "sprt"):
        raise ResultsError(f"{_where(path, name)} (attribute stopped: expected \"sprt\")")
    test["stopped"] = stopped == "sprt"
    test["stop_pair"] = _attr(group, "stop_pair", "int", path, name) if test["stopped"] else None
    if test["stopped"] and (rows % 2 or test["stop_pair"] != (rows - 1) // 2):
        raise ResultsError(f"{_where(path, name)} (attribute stop_pair: not the last pair of "
                           f"the games table)")
    return test


def _read_root_design(group, path, name, rows):
    """A job's adaptive root design (a run with `root_design`) as the C reader checks it, or
    None: its rule (round_pairs, halfwidth, confidence), its rounds once the job ended (a
    list of (first pair, lines in); empty before), whether its half-width stopped the job
    and at which pair (the table's last). A pair's line is its games' `opening`."""
    if "root_design" not in group.attrs:
        return None
    rule = _attr(group, "root_design", "text", path, name)
    try:
        parts = [float(x) for x in rule.split(",")]
        ok = len(parts) in (2, 3) and parts[0] == int(parts[0]) and parts[0] >= 2
    except ValueError:
        ok = False
    if not ok:
        raise ResultsError(f"{_where(path, name)} (attribute root_design: expected "
                           f"ROUND_PAIRS,HALFWIDTH[,CONFIDENCE])")
    design = {"round_pairs": int(parts[0]), "halfwidth": parts[1],
              "confidence": parts[2] if len(parts) == 3 else 0.95, "rounds": []}
    if "root_round_first" in group.attrs:
        first = np.asarray(group.attrs["root_round_first"]).reshape(-1)
        lines = np.asarray(group.attrs.get("root_round_lines", [])).reshape(-1)
        if len(first) != len(lines):
            raise ResultsError(f"{_where(path, name)} (attribute root_round_lines: not one for "
                               f"each round of root_round_first)")
        design["rounds"] = [(int(f), int(n)) for f, n in zip(first, lines)]
    stopped = _attr(group, "stopped", "text", path, name) if "stopped" in group.attrs else None
    if stopped not in (None, "root_halfwidth"):
        raise ResultsError(f"{_where(path, name)} (attribute stopped: expected "
                           f"\"root_halfwidth\")")
    design["stopped"] = stopped == "root_halfwidth"
    design["stop_pair"] = _attr(group, "stop_pair", "int", path, name) \
        if design["stopped"] else None
    if design["stopped"] and (rows % 2 or design["stop_pair"] != (rows - 1) // 2):
        raise ResultsError(f"{_where(path, name)} (attribute stop_pair: not the last pair of "
                           f"the games table)")
    return design


def _table(group, name, path, job):
    """The 1-D dataset `name` of a job's group, every row of it stored (a table resized beyond
    what was written is refused before its length sizes anything)."""
    d = group.get(name)
    if not isinstance(d, h5py.Dataset) or d.ndim != 1:
        raise ResultsError(f"{_where(path, job)} ({name} table missing or not of one "
                           f"dimension)")
    stored = len(d) == 0 or (d.id.get_num_chunks() == -(-len(d) // d.chunks[0]) if d.chunks
                             else d.id.get_space_status() == h5py.h5d.SPACE_STATUS_ALLOCATED
                             or d.id.get_create_plist().get_layout() == h5py.h5d.COMPACT)
    if not stored:
        raise ResultsError(f"{_where(path, job)} ({name} table of {len(d)} rows, not all of "
                           f"them stored)")
    return d


def _words(field, values, path, job):
    """A coded column as an array of its words (codes.CODED); ResultsError on a code the
    table does not know (a damaged file)."""
    words = codes.CODED[field]
    low = min(words)
    lookup = np.array([words.get(c, None) for c in range(low, max(words) + 1)], dtype=object)
    values = np.asarray(values, dtype=np.int64)
    bad = (values < low) | (values > max(words))
    if bad.any():
        row = int(np.argmax(bad))
        raise ResultsError(f"{path}: job {job}: game {row}: damaged row ({field} "
                           f"{int(values[row])})")
    return lookup[values - low]


class Results:
    """One results file: the experiment (config, seed, provenance) and its jobs."""

    def __init__(self, path):
        self.path = str(path)
        try:
            f = h5py.File(self.path, "r")
        except OSError as e:
            raise ResultsError(f"{self.path}: not a readable HDF5 file ({e})") from None
        with f:
            self._read_root(f)

    @_guarded
    def _read_root(self, f):
        fmt = _attr(f, "format", "text", self.path, None, default="")
        if fmt != codes.FORMAT:
            raise ResultsError(f"{self.path}: not an anywoli results file of format "
                               f"{codes.FORMAT_VERSION} (format {fmt!r})")
        version = _attr(f, "format_version", "int", self.path, None)
        if version != codes.FORMAT_VERSION:
            raise ResultsError(f"{self.path}: not an anywoli results file of format "
                               f"{codes.FORMAT_VERSION} (format {fmt!r}, version {version})")
        if not isinstance(f.get("jobs"), h5py.Group):
            raise ResultsError(f"{self.path}: damaged results file (no /jobs group)")
        self.config = _attr(f, "config", "text", self.path, None)
        self.seed = _attr(f, "seed", "int", self.path, None)
        if self.seed < 0:
            raise ResultsError(f"{self.path}: damaged results file (root attribute seed "
                               f"{self.seed}, expected 0 to {2**63 - 1})")
        self.provenance = {k: _attr(f, k, "int" if k in ("threads", "ranks") else "text",
                                    self.path, None) for k in codes.PROVENANCE
                           if k in f["/"].attrs}
        jobs = f["jobs"]
        self._jobs = {}
        for n in jobs:
            if not isinstance(jobs.get(n), h5py.Group):
                raise ResultsError(f"{self.path}: damaged results file (/jobs/{n} is not a "
                                   f"group)")
            self._jobs[n] = self._read_job(jobs[n], n)
        # ordered as the jobs were run: by their `index` (files without it: by name)
        self.job_names = sorted(self._jobs, key=lambda n: (self._jobs[n]["index"], n))

    def _read_job(self, group, name):
        """A job's attributes, as the C reader checks them: name, index, the variant, agents,
        openings, games (no fewer than the rows), rows, has_moves."""
        path = self.path
        job = {"name": name, "index": _attr(group, "index", "int", path, name, default=0)}
        if job["index"] < 0:
            raise ResultsError(f"{_where(path, name)} (attribute index {job['index']}, "
                               f"expected 0 or more)")
        for k in codes.VARIANT:
            job[k] = _attr(group, k, "text" if k in codes.CONVENTION_PARAMS else "int", path,
                           name)
        _check_variant(job, path)
        for k in codes.YES_NO:
            job[k] = bool(job[k])
        job["agent_a"] = _attr(group, "agent_a", "text", path, name)
        job["agent_b"] = _attr(group, "agent_b", "text", path, name)
        # The full specs played; None in files written before they were stored (not known).
        for side in ("a", "b"):
            key = "agent_%s_played" % side
            job[key] = (_attr(group, key, "text", path, name) if key in group.attrs
                        else None)
        job["openings"] = _attr(group, "openings", "text", path, name, default="start")
        job["games"] = _attr(group, "games", "int", path, name)
        # A slice of a larger run starts at its first_game (even); row r is game first_game + r.
        job["first_game"] = _attr(group, "first_game", "int", path, name, default=0)
        if job["first_game"] < 0 or job["first_game"] % 2:
            raise ResultsError(f"{_where(path, name)} (attribute first_game "
                               f"{job['first_game']}, expected an even number, 0 or more)")
        # Only a job that adjudicates decided games carries it (1); absent: it does not.
        job["adjudicate"] = _attr(group, "adjudicate", "int", path, name, default=0)
        if job["adjudicate"] not in (0, 1):
            raise ResultsError(f"{_where(path, name)} (attribute adjudicate "
                               f"{job['adjudicate']}, expected 0 or 1)")
        job["adjudicate"] = bool(job["adjudicate"])
        job["rows"] = len(_table(group, "games", path, name))
        if job["games"] < job["rows"]:
            raise ResultsError(f"{_where(path, name)} (attribute games {job['games']} for "
                               f"{job['rows']} rows stored)")
        job["has_moves"] = "moves" in group and "moves_index" in group
        job["sequential_test"] = _read_sequential_test(group, path, name, job["rows"])
        job["root_design"] = _read_root_design(group, path, name, job["rows"])
        return job

    def _job(self, name):
        if name not in self._jobs:
            raise ResultsError(f"{self.path}: no job {name!r} (its jobs: "
                               f"{', '.join(self.job_names) or 'none'})")
        return self._jobs[name]

    def job(self, name):
        """Job `name`'s attributes as a dict (a copy)."""
        return dict(self._job(name))

    @property
    def jobs(self):
        """A DataFrame, one row per job in run order: name, index, the variant parameters,
        agent_a, agent_b, agent_a_played and agent_b_played (the full specs played, None when
        the file predates them), openings, games (planned), first_game, rows (stored),
        has_moves, adjudicate (whether its games ended once decided: docs/results.md),
        sequential_test (None, or the test a run with `sprt` stopped on: a dict),
        root_design (None, or a run with `root_design`: its rule, rounds and stop, a dict)."""
        import pandas as pd
        return pd.DataFrame([self._jobs[n] for n in self.job_names])

    @_guarded
    def columns(self, name):
        """Job `name`'s games table as a dict of numpy arrays, one per stored column, in the
        table's order: the coded columns (codes.CODED) as arrays of their words; a column an
        older file lacks (codes.LATER_COLUMNS) filled with its documented value; then
        `score_a`, agent A's score in each game (1 won, 0.5 draw, 0 lost; NaN for endless and
        unfinished games)."""
        self._job(name)
        with h5py.File(self.path, "r") as f:
            group = f["jobs"][name]
            games = _table(group, "games", self.path, name)
            table = games[:]
            openings = len(_table(group, "openings", self.path, name)) \
                if "openings" in group else 0
            checksum = _attr(group, "games_checksum", "text", self.path, name) \
                if "games_checksum" in group.attrs else None
        _check_table(table, self._jobs[name], openings, self.path)
        _check_checksum(table, checksum, self.path, name)
        out = {}
        for field in table.dtype.names:
            values = table[field]
            if field in codes.CODED:
                out[field] = _words(field, values, self.path, name)
            else:
                out[field] = values
        for field, value in codes.LATER_COLUMNS.items():
            if field not in out:
                out[field] = np.full(len(table), value, dtype=np.int64)
        out["score_a"] = score_of_a(table["outcome"], table["a_south"])
        return out

    @_guarded
    def games(self, name):
        """Job `name`'s games as a DataFrame: the columns of `columns`, the coded ones as
        pandas Categoricals of their words (every word of the code a category, in the order
        of codes.CODED), `a_south` as bool."""
        import pandas as pd
        cols = self.columns(name)
        for field, words in codes.CODED.items():
            cols[field] = pd.Categorical(cols[field], categories=list(words.values()))
        cols["a_south"] = cols["a_south"].astype(bool)
        return pd.DataFrame(cols)

    @_guarded
    def moves(self, name, game):
        """Game `game` of job `name`: its moves (opening included) as hole numbers, a list of
        ints. ResultsError when the job was run without record_moves, or its moves are
        damaged (checked as the C reader checks their form: integers, each a hole, one a ply
        of the game's row; not whether the rules allow them, which `anywoli export --moves`
        checks)."""
        job = self._job(name)
        if not job["has_moves"]:
            raise ResultsError(f"{self.path}: job {name} has no stored moves (run it with "
                               f"record_moves = true, or --record-moves)")
        first_game = job["first_game"]
        if not first_game <= game < first_game + job["rows"]:
            raise ResultsError(f"{self.path}: job {name}: no game {game} "
                               f"({job['rows']} stored)")
        row = game - first_game
        with h5py.File(self.path, "r") as f:
            group = f["jobs"][name]
            where = f"{self.path}: job {name}: game {game}: damaged moves"
            index = _table(group, "moves_index", self.path, name)
            stored = _table(group, "moves", self.path, name)
            if index.dtype.kind not in "iu" or stored.dtype.kind not in "iu":
                raise ResultsError(f"{self.path}: job {name}: damaged moves (moves and "
                                   f"moves_index must be integers of one dimension)")
            if len(index) < 1 or int(index[0]) != 0:
                raise ResultsError(f"{self.path}: job {name}: damaged moves (moves_index of "
                                   f"{len(index)} entries, expected 0 first)")
            offsets = index[row:row + 2]
            if len(offsets) != 2:
                raise ResultsError(f"{where} (moves_index has {len(index)} entries, not the "
                                   f"game's end)")
            first, end = int(offsets[0]), int(offsets[1])
            max_plies = int(job["max_plies"])
            if not 0 <= first <= end <= len(stored) or end - first > max_plies:
                raise ResultsError(f"{where} (moves_index gives moves {first}..{end} of "
                                   f"{len(stored)} (expected increasing offsets from 0, at "
                                   f"most max_plies {max_plies} apart))")
            # as the C reader checks: one move a ply of the game's row, each a hole
            plies = int(group["games"][row]["plies"])
            if end - first != plies:
                raise ResultsError(f"{where} ({end - first} stored, the row has {plies} "
                                   f"plies)")
            moves = [int(m) for m in stored[first:end]]
            holes = 2 * int(job["holes"])
            bad = [(i, m) for i, m in enumerate(moves) if not 0 <= m < holes]
            if bad:
                raise ResultsError(f"{where} (ply {bad[0][0] + 1}: move {bad[0][1]} is not a "
                                   f"hole (0 to {holes - 1}))")
            return moves


def _param_fault(k, kind, low, high, x):
    """What is wrong with value x of variant parameter k, in the C reader's words, or None."""
    if kind == "convention":
        if x in codes.CONVENTIONS:
            return None
        names = ", ".join(codes.CONVENTIONS[:-1]) + " or " + codes.CONVENTIONS[-1]
        return f"{k}: '{x}' is not a convention (expected {names})"
    if kind == "bool":
        return None if x in (0, 1) else f"{k}: '{x}' is not yes or no"
    if kind == "int64":
        return None if low <= x <= high else f"{k}: {x} is out of range " + \
            (f"(at least {low})" if x < low else f"(at most {high})")
    if low <= x <= high:
        return None
    return f"{k}: {x} is out of range" + (f" ({low} to {high})" if -2**31 <= x < 2**31 else "")


def _check_variant(job, path):
    """A job's variant held to the ranges a config is (variants/variant.c); ResultsError in
    its words otherwise."""
    v = job
    bad = None
    for k, kind, low, high in codes.VARIANT_PARAMS:
        if bad is None:
            bad = _param_fault(k, kind, low, high, v[k])
    if bad is None and 2 * v["holes"] * v["seeds"] <= v["capture"]:
        bad = (f"capture: {v['capture']} must be below the {2 * v['holes'] * v['seeds']} "
               f"seeds in play (2 x holes x seeds)")
    if bad:
        raise ResultsError(f"{path}: job {job['name']}: {bad}")


# The columns every games table has (docs/results.md: the core, before "Beyond the core").
CORE = ("game", "a_south", "outcome", "south", "north", "left", "last_capturer", "first_final",
        "lottery", "plies", "passes", "mid_captures", "final_captures")


def _games_checksum(table):
    """The checksum of a games table as the C writer stores it (`games_checksum`,
    row_checksum in sim/record_row.c): each row's columns in the table's order, each value
    widened to 64 bits and mixed into a 64-bit hash; the rows' hashes summed mod 2^64."""
    h = np.full(len(table), 0x243f6a8885a308d3, dtype=np.uint64)
    mult, shift = np.uint64(0x9e3779b97f4a7c15), np.uint64(29)
    with np.errstate(over="ignore"):
        for field in table.dtype.names:
            col = table[field]
            value = col.astype(np.uint64) if col.dtype.kind == "u" \
                else col.astype(np.int64).view(np.uint64)
            h = (h ^ value) * mult
            h ^= h >> shift
        return int(np.add.reduce(h, dtype=np.uint64)) if len(h) else 0


def _check_checksum(table, stored, path, name):
    """A job's games table against its `games_checksum` (absent in older and unfinished
    files: nothing to check). ResultsError naming the file and the job when they differ."""
    if stored is None:
        return
    if len(stored) != 16 or any(c not in "0123456789abcdef" for c in stored):
        raise ResultsError(f"{_where(path, name)} (attribute games_checksum: expected 16 hex "
                           f"digits)")
    actual = _games_checksum(table)
    if actual != int(stored, 16):
        raise ResultsError(f"{_where(path, name)} (its games table's checksum is "
                           f"{actual:016x}, its games_checksum attribute {stored}: a row "
                           f"changed since the file was written)")


def _check_table(table, job, openings, path):
    """A games table held to what the C reader holds every row to (docs/results.md, "What
    readers check"): a compound of integer columns with the core ones, and each row a game
    the job's variant allows, its opening a row of the job's openings table. ResultsError
    naming the file, the job, the first damaged game and its first faulty field."""
    name = job["name"]
    names = table.dtype.names or ()
    if any(field not in names for field in CORE):
        raise ResultsError(f"{_where(path, name)} (games is not a table of format 1)")
    for field in names:
        if table.dtype[field].kind not in "iu":
            raise ResultsError(f"{_where(path, name)} (games column {field}: expected an "
                               f"integer)")
    faults = _row_faults(table, job, openings)
    bad = np.zeros(len(table), dtype=bool)
    for mask, _ in faults:
        bad |= mask
    if bad.any():
        row = int(np.argmax(bad))
        why = next(say(row) for mask, say in faults if mask[row])
        raise ResultsError(f"{path}: job {name}: game {row + job.get('first_game', 0)}: "
                           f"damaged row ({why})")


def _row_faults(table, job, openings):
    """The C reader's row checks (rf_row_fault, in its order) as (mask of the rows failing
    it, what to say of row r) pairs."""
    c = {f: table[f].astype(np.int64) for f in table.dtype.names}
    c.setdefault("opening", np.full(len(table), -1, dtype=np.int64))
    index = np.arange(len(table), dtype=np.int64) + int(job.get("first_game", 0))
    holes, capture, max_plies = int(job["holes"]), int(job["capture"]), int(job["max_plies"])
    total = 2 * holes * int(job["seeds"])
    fixed = not str(job["openings"]).startswith("file:")   # no book: every seed accounted
    taken = (c["mid_captures"] + c["final_captures"]) * capture
    off = total - c["left"]
    to = {"first-final": np.where(c["first_final"] != -1, c["first_final"],
                                  c["last_capturer"]),
          "lottery": c["lottery"]}.get(job["final_four"], c["last_capturer"])
    score_to = np.where(to == 0, c["south"], c["north"])
    outcome = np.where(c["south"] > c["north"], 0, np.where(c["north"] > c["south"], 1, 2))
    # A job that adjudicates: a win may stop where the winner's store first held more than
    # half the seeds, the stores as they stood (more seeds left than a finished game leaves).
    adjudicated = (bool(job.get("adjudicate", False)) & (c["outcome"] <= 1) &
                   (c["left"] > capture))
    winner = np.where(c["outcome"] == 0, c["south"], c["north"])
    done, v = (c["outcome"] <= 2) & ~adjudicated, c
    return [
        (c["game"] != index, lambda r: f"game {v['game'][r]} in row {r}"),
        (c["a_south"] != (index % 2 == 0), lambda r: f"a_south {v['a_south'][r]}, expected "
         f"{int(index[r] % 2 == 0)} (colours alternate)"),
        ((c["outcome"] < 0) | (c["outcome"] > 4),
         lambda r: f"outcome {v['outcome'][r]}, expected 0 to 4"),
        ((c["last_capturer"] < -1) | (c["last_capturer"] > 1),
         lambda r: f"last_capturer {v['last_capturer'][r]}, expected -1 to 1"),
        ((c["first_final"] < -1) | (c["first_final"] > 1),
         lambda r: f"first_final {v['first_final'][r]}, expected -1 to 1"),
        ((c["lottery"] != 0) & (c["lottery"] != 1),
         lambda r: f"lottery {v['lottery'][r]}, expected 0 or 1"),
        (c["opening"] < -1, lambda r: f"opening {v['opening'][r]}, expected -1 or more"),
        ((c["plies"] < 1) | (c["plies"] > max_plies),
         lambda r: f"plies {v['plies'][r]}, expected 1 to max_plies {max_plies}"),
        ((c["passes"] > c["plies"]) | (c["final_captures"] > c["plies"]),
         lambda r: f"passes {v['passes'][r]} or final_captures {v['final_captures'][r]} "
         f"above plies {v['plies'][r]}"),
        ((c["left"] > total) | (taken > off) | (fixed & (taken != off)),
         lambda r: f"mid_captures {v['mid_captures'][r]} + final_captures "
         f"{v['final_captures'][r]} of {capture} seeds each with left {v['left'][r]} is "
         f"not the variant's {total} seeds"),
        (np.where(c["last_capturer"] == -1, taken != 0, fixed & (taken == 0)),
         lambda r: f"last_capturer {v['last_capturer'][r]} with "
         f"{v['mid_captures'][r] + v['final_captures'][r]} captures"),
        (np.where(c["first_final"] == -1, c["final_captures"] != 0,
                  fixed & (c["final_captures"] == 0)),
         lambda r: f"first_final {v['first_final'][r]} with {v['final_captures'][r]} final "
         f"captures"),
        (done & (c["left"] > capture),
         lambda r: f"left {v['left'][r]} in a finished game, expected at most capture "
         f"{capture}"),
        (done & (c["south"] + c["north"] != total),
         lambda r: f"south {v['south'][r]} + north {v['north'][r]} is not the variant's "
         f"{total} seeds"),
        (done & ((to == -1) | (score_to < c["left"])),
         lambda r: f"the {v['left'][r]} seeds left cannot have gone to the "
         f"{job['final_four']} recipient"),
        (done & (c["outcome"] != outcome),
         lambda r: f"outcome {v['outcome'][r]} disagrees with south {v['south'][r]}, north "
         f"{v['north'][r]}"),
        (adjudicated & (c["south"] + c["north"] + c["left"] != total),
         lambda r: f"south {v['south'][r]} + north {v['north'][r]} + left {v['left'][r]} "
         f"is not the variant's {total} seeds"),
        (adjudicated & (2 * winner <= total),
         lambda r: f"an adjudicated {'south' if v['outcome'][r] == 0 else 'north'} win with "
         f"{winner[r]} of {total} seeds, expected more than half"),
        (~done & ~adjudicated & (c["left"] <= capture),
         lambda r: f"left {v['left'][r]} in an "
         f"{'endless' if v['outcome'][r] == 3 else 'unfinished'} game, expected more than "
         f"capture {capture}"),
        (~done & ~adjudicated & (c["south"] + c["north"] + c["left"] != total),
         lambda r: f"south {v['south'][r]} + north {v['north'][r]} + left {v['left'][r]} "
         f"is not the variant's {total} seeds"),
        ((c["outcome"] == 4) & (c["plies"] != max_plies),
         lambda r: f"plies {v['plies'][r]} in an unfinished game, expected max_plies "
         f"{max_plies}"),
        (c["opening"] >= openings,
         lambda r: f"opening {v['opening'][r]}, expected -1 (the job has no openings table)"
         if openings == 0 else f"opening {v['opening'][r]}, expected -1 to {openings - 1} "
         f"(its openings table's rows)"),
    ]


def score_of_a(outcome, a_south):
    """Agent A's score in each game from the stored codes: 1 won, 0.5 draw, 0 lost, NaN for
    an endless or unfinished game (no result)."""
    outcome = np.asarray(outcome)
    a_south = np.asarray(a_south).astype(bool)
    south = np.where(outcome == 0, 1.0, np.where(outcome == 1, 0.0, 0.5))
    score = np.where(a_south, south, 1.0 - south)
    return np.where(outcome <= 2, score, np.nan)


def load(path):
    """Open a results file: a Results with config, seed, provenance, jobs, games(job) and
    moves(job, game)."""
    return Results(path)
