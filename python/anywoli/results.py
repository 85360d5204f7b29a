"""results.py: a results file of `anywoli run` (docs/results.md) read with h5py, its codes
written as words (codes.py), its tables as numpy arrays or pandas DataFrames.

The file is opened for each read and closed again, so a Results object holds no open handle.
pandas is imported only by the methods that return DataFrames.
"""
import h5py
import numpy as np

from . import codes


class ResultsError(ValueError):
    """A file that is not a results file of format 1, an unknown job, a job without moves."""


def _text(value):
    """An attribute as text (h5py gives variable-length strings as str, fixed ones as bytes)."""
    return value.decode() if isinstance(value, bytes) else str(value)


def _plain(value):
    """An attribute as a Python value: text, int or float."""
    if isinstance(value, (bytes, str)):
        return _text(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


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
            with h5py.File(self.path, "r") as f:
                self._read_root(f)
        except OSError as e:
            raise ResultsError(f"{self.path}: not a readable HDF5 file ({e})") from None

    def _read_root(self, f):
        attrs = f["/"].attrs
        fmt = _text(attrs.get("format", ""))
        version = attrs.get("format_version")
        if fmt != codes.FORMAT or version is None or int(version) != codes.FORMAT_VERSION:
            raise ResultsError(f"{self.path}: not an anywoli results file of format "
                               f"{codes.FORMAT_VERSION} (format {fmt!r}, version {version})")
        if "jobs" not in f:
            raise ResultsError(f"{self.path}: damaged results file (no /jobs group)")
        self.config = _text(attrs["config"])
        self.seed = int(attrs["seed"])
        self.provenance = {k: _plain(attrs[k]) for k in codes.PROVENANCE if k in attrs}
        jobs = f["jobs"]
        # ordered as the jobs were run: by their `index` (files without it: by name)
        self.job_names = sorted(jobs, key=lambda n: (int(jobs[n].attrs.get("index", 0)), n))
        self._jobs = {n: self._read_job(jobs[n]) for n in self.job_names}

    @staticmethod
    def _read_job(group):
        """A job's attributes: name, index, the variant, agents, openings, games, rows."""
        a = group.attrs
        job = {"name": group.name.rsplit("/", 1)[-1], "index": int(a.get("index", 0))}
        for k in codes.VARIANT:
            job[k] = bool(a[k]) if k in codes.YES_NO else _plain(a[k])
        job["agent_a"], job["agent_b"] = _text(a["agent_a"]), _text(a["agent_b"])
        # The full specs played; None in files written before they were stored (not known).
        for side in ("a", "b"):
            played = a.get("agent_%s_played" % side)
            job["agent_%s_played" % side] = None if played is None else _text(played)
        job["openings"] = _text(a.get("openings", "start"))
        job["games"] = int(a["games"])
        job["rows"] = len(group["games"]) if "games" in group else 0
        job["has_moves"] = "moves" in group and "moves_index" in group
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
        the file predates them), openings, games (planned), rows (stored), has_moves."""
        import pandas as pd
        return pd.DataFrame([self._jobs[n] for n in self.job_names])

    def columns(self, name):
        """Job `name`'s games table as a dict of numpy arrays, one per stored column, in the
        table's order: the coded columns (codes.CODED) as arrays of their words; a column an
        older file lacks (codes.LATER_COLUMNS) filled with its documented value; then
        `score_a`, agent A's score in each game (1 won, 0.5 draw, 0 lost; NaN for endless and
        unfinished games)."""
        self._job(name)
        with h5py.File(self.path, "r") as f:
            table = f["jobs"][name]["games"][:]
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

    def moves(self, name, game):
        """Game `game` of job `name`: its moves (opening included) as hole numbers, a list of
        ints. ResultsError when the job was run without record_moves."""
        job = self._job(name)
        if not job["has_moves"]:
            raise ResultsError(f"{self.path}: job {name} has no stored moves (run it with "
                               f"record_moves = true, or --record-moves)")
        if not 0 <= game < job["rows"]:
            raise ResultsError(f"{self.path}: job {name}: no game {game} "
                               f"({job['rows']} stored)")
        with h5py.File(self.path, "r") as f:
            group = f["jobs"][name]
            where = f"{self.path}: job {name}: game {game}: damaged moves"
            offsets = group["moves_index"][game:game + 2]
            if len(offsets) != 2:
                raise ResultsError(f"{where} (moves_index has {len(group['moves_index'])} "
                                   f"entries, not the game's end)")
            first, end = int(offsets[0]), int(offsets[1])
            if not 0 <= first <= end <= len(group["moves"]):
                raise ResultsError(f"{where} (moves_index gives moves {first}..{end} of "
                                   f"{len(group['moves'])})")
            # as the C reader checks: one move a ply of the game's row, each a hole
            plies = int(group["games"][game]["plies"])
            if end - first != plies:
                raise ResultsError(f"{where} ({end - first} stored, the row has {plies} "
                                   f"plies)")
            moves = [int(m) for m in group["moves"][first:end]]
            holes = 2 * int(job["holes"])
            bad = [m for m in moves if m >= holes]
            if bad:
                raise ResultsError(f"{where} (move {bad[0]} is not a hole, 0 to {holes - 1})")
            return moves


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
