"""helpers.py: what the package's tests share: the anywoli binary (ANYWOLI_BIN), fresh
results files made with it in a temporary folder, and a file made old by h5py."""
import os
import subprocess
import tempfile
import unittest

import h5py
import numpy as np

BIN = os.environ.get("ANYWOLI_BIN", "anywoli")


# Two jobs: a match of two agents on the standard board with its moves recorded, and random
# players from 2-ply openings on a small board under the lottery convention.
CONFIG = """seed = 23L;
output = "r.h5";
jobs = (
  { name = "match"; agent_a = "random"; agent_b = "alphabeta:depth=1"; games = 24L;
    record_moves = true; },
  { name = "small,x=1"; holes = 6; final_four = "lottery"; agent_a = "random";
    agent_b = "random"; games = 61L; openings = "plies:2"; }
);
"""


def run(*args, cwd=None):
    """Run the anywoli binary; its stdout (an exception on a non-zero status)."""
    return subprocess.run([BIN, *args], cwd=cwd, check=True, capture_output=True,
                          text=True).stdout


def fresh_file(folder):
    """A fresh results file of CONFIG in folder: its path."""
    with open(os.path.join(folder, "r.cfg"), "w") as f:
        f.write(CONFIG)
    run("run", "r.cfg", cwd=folder)
    return os.path.join(folder, "r.h5")


def make_old(src, dst, jobs=None):
    """A copy of src as a file written before the moves, the nodes and the openings columns
    and the played specs and the tables' checksums:
    games tables without opening, moves_hash, line_hash, nodes_a, nodes_b, choices_a,
    choices_b, and no moves (for the jobs named in `jobs`, or every job; the others copied as
    they are)."""
    later = {"opening", "moves_hash", "line_hash", "nodes_a", "nodes_b", "choices_a",
             "choices_b"}
    with h5py.File(src, "r") as s, h5py.File(dst, "w") as d:
        for k, v in s["/"].attrs.items():
            d["/"].attrs[k] = v
        d.create_group("jobs")
        for name, job in s["jobs"].items():
            if jobs is not None and name not in jobs:
                s.copy(job, d["jobs"], name=name)
                continue
            g = d.create_group(f"jobs/{name}")
            for k, v in job.attrs.items():
                if k not in ("openings", "agent_a_played", "agent_b_played", "games_checksum",
                             "openings_checksum"):
                    g.attrs[k] = v
            table = job["games"][:]
            keep = [f for f in table.dtype.names if f not in later]
            old = np.zeros(len(table), dtype=[(f, table.dtype[f]) for f in keep])
            for f in keep:
                old[f] = table[f]
            g.create_dataset("games", data=old)
            if "length_histogram" in job:
                g.create_dataset("length_histogram", data=job["length_histogram"][:])


class FreshFile(unittest.TestCase):
    """A test case with one fresh results file, made once for the class."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.path = fresh_file(cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()


if __name__ == "__main__":
    # helpers.py make-old SRC DST [JOB...]: for the end-to-end scripts (tests/export_test.sh).
    import sys
    if len(sys.argv) < 4 or sys.argv[1] != "make-old":
        sys.exit("usage: helpers.py make-old SRC DST [JOB...]")
    make_old(sys.argv[2], sys.argv[3], sys.argv[4:] or None)
