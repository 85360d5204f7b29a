"""test_reader.py: anywoli.load against h5py's own reading of a fresh file (every column,
the root and the jobs), score_a against the outcomes and the job's counts, moves against
`anywoli replay`, and files written before the later columns and the moves."""
import os
import re
import subprocess
import unittest

import h5py
import numpy as np

import anywoli
from helpers import BIN, FreshFile, make_old, run

# The words of docs/results.md, written out here rather than taken from the package.
WORDS = {
    "outcome": {0: "south", 1: "north", 2: "draw", 3: "endless", 4: "unfinished"},
    "last_capturer": {0: "south", 1: "north", -1: "none"},
    "first_final": {0: "south", 1: "north", -1: "none"},
    "lottery": {0: "south", 1: "north"},
}


def stored(path, job):
    with h5py.File(path, "r") as f:
        return f["jobs"][job]["games"][:]


class TestFresh(FreshFile):
    def test_root(self):
        r = anywoli.load(self.path)
        with h5py.File(self.path, "r") as f:
            a = f["/"].attrs
            self.assertEqual(r.config, a["config"])
            self.assertEqual(r.seed, 23)
            for k in ("program_version", "git_commit", "started", "finished", "host"):
                self.assertEqual(r.provenance[k], a[k])
            self.assertEqual(r.provenance["threads"], int(a["threads"]))
        self.assertEqual(r.job_names, ["match", "small,x=1"])

    def test_every_column_equals_h5py(self):
        r = anywoli.load(self.path)
        for job in r.job_names:
            table = stored(self.path, job)
            cols = r.columns(job)
            self.assertEqual(list(cols)[:len(table.dtype.names)], list(table.dtype.names))
            for field in table.dtype.names:
                want = table[field]
                if field in WORDS:
                    want = [WORDS[field][int(c)] for c in want]
                np.testing.assert_array_equal(cols[field], want, err_msg=f"{job} {field}")

    def test_score_a_against_outcomes_and_counts(self):
        r = anywoli.load(self.path)
        for job in r.job_names:
            table = stored(self.path, job)
            score = r.columns(job)["score_a"]
            for row, s in zip(table, score):
                a_side = 0 if row["a_south"] else 1
                o = int(row["outcome"])
                want = 1.0 if o == a_side else 0.0 if o in (0, 1) else 0.5 if o == 2 else None
                if want is None:
                    self.assertTrue(np.isnan(s))
                else:
                    self.assertEqual(s, want)
            with h5py.File(self.path, "r") as f:
                a = f["jobs"][job].attrs
                self.assertEqual(int((score == 1).sum()), int(a["a_wins"]))
                self.assertEqual(int((score == 0).sum()), int(a["b_wins"]))
                self.assertEqual(int((score == 0.5).sum()), int(a["draws"]))

    def test_nodes_when_stored(self):
        r = anywoli.load(self.path)
        table = stored(self.path, "match")
        cols = r.columns("match")
        np.testing.assert_array_equal(cols["nodes_a"], table["nodes_a"])
        np.testing.assert_array_equal(cols["nodes_b"], table["nodes_b"])
        self.assertTrue((table["nodes_b"] > 0).all())   # alpha-beta searched in every game

    def test_moves_against_replay(self):
        # replay plays each game again from its seed, prints each ply as "PLY SIDE HOLE APN
        # EVENT", the hole by name (S1..SH, N1..NH), and exits 0 when the row and the stored
        # moves match what it played; moves() gives hole indices from 0
        r = anywoli.load(self.path)
        self.assertTrue(r.job("match")["has_moves"])
        holes = int(r.job("match")["holes"])

        def index(name):
            return int(name[1:]) - 1 + (holes if name[0] == "N" else 0)
        for game in range(r.job("match")["rows"]):
            done = subprocess.run([BIN, "replay", self.path, "--job", "match", "--game",
                                   str(game)], capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr)
            text = done.stdout
            replayed = [index(m.group(1)) for m in
                        re.finditer(r"^\d+ [SN] ([SN]\d+) ", text, re.MULTILINE)]
            self.assertTrue(replayed)
            self.assertEqual(r.moves("match", game), replayed, f"game {game}")

    def test_moves_against_the_rows(self):
        # every game's moves: as many as its plies, and their FNV-1a hash its moves_hash
        r = anywoli.load(self.path)
        table = stored(self.path, "match")
        for game, row in enumerate(table):
            moves = r.moves("match", game)
            self.assertEqual(len(moves), int(row["plies"]))
            h = 0xcbf29ce484222325
            for m in moves:
                h = ((h ^ m) * 0x100000001b3) % 2**64
            self.assertEqual(h, int(row["moves_hash"]), f"game {game}")

    def test_damaged_moves_index(self):
        damaged = os.path.join(self.tmp.name, "damaged.h5")
        with open(self.path, "rb") as src, open(damaged, "wb") as dst:
            dst.write(src.read())
        with h5py.File(damaged, "r+") as f:
            f["jobs/match/moves_index"][3] = 10**9
        with self.assertRaisesRegex(anywoli.ResultsError,
                                    r"job match: game 2: damaged moves \(moves_index gives"):
            anywoli.load(damaged).moves("match", 2)

    def test_moves_not_the_rows_plies(self):
        """Offsets that stay in order but give a game one move fewer than its plies."""
        damaged = os.path.join(self.tmp.name, "short.h5")
        with open(self.path, "rb") as src, open(damaged, "wb") as dst:
            dst.write(src.read())
        with h5py.File(damaged, "r+") as f:
            index = f["jobs/match/moves_index"]
            index[3] = index[3] - 1
        with self.assertRaisesRegex(anywoli.ResultsError,
                                    r"job match: game 2: damaged moves \(\d+ stored, the row "
                                    r"has \d+ plies\)"):
            anywoli.load(damaged).moves("match", 2)

    def test_moves_of_a_job_without_them(self):
        r = anywoli.load(self.path)
        with self.assertRaisesRegex(anywoli.ResultsError, r"job small,x=1 has no stored moves"):
            r.moves("small,x=1", 0)

    def test_unknown_job_and_not_a_results_file(self):
        r = anywoli.load(self.path)
        with self.assertRaisesRegex(anywoli.ResultsError, r"no job 'nope' \(its jobs: match, "):
            r.columns("nope")
        cfg = os.path.join(self.tmp.name, "r.cfg")
        with self.assertRaisesRegex(anywoli.ResultsError, r"r.cfg: not a readable HDF5 file"):
            anywoli.load(cfg)
        with h5py.File(os.path.join(self.tmp.name, "other.h5"), "w") as f:
            f["/"].attrs["format"] = "something-else"
        with self.assertRaisesRegex(anywoli.ResultsError, r"not an anywoli results file"):
            anywoli.load(os.path.join(self.tmp.name, "other.h5"))

    def test_old_file_still_reads(self):
        old = os.path.join(self.tmp.name, "old.h5")
        make_old(self.path, old)
        r = anywoli.load(old)
        self.assertEqual(r.job("small,x=1")["openings"], "start")
        self.assertFalse(r.job("match")["has_moves"])
        self.assertIsNone(r.job("match")["agent_b_played"])   # not known
        for job in r.job_names:
            cols = r.columns(job)
            self.assertNotIn("nodes_a", cols)
            self.assertTrue((cols["opening"] == -1).all())
            self.assertTrue((cols["moves_hash"] == 0).all())
            np.testing.assert_array_equal(cols["outcome"], r.columns(job)["outcome"])
            np.testing.assert_array_equal(
                cols["plies"], anywoli.load(self.path).columns(job)["plies"])
        with self.assertRaisesRegex(anywoli.ResultsError, "has no stored moves"):
            r.moves("match", 0)
    def test_sequential_test(self):
        """A job that stopped on its SPRT: the test as the file says, and None without one."""
        folder = os.path.dirname(self.path)
        path = os.path.join(folder, "stopped.h5")
        run("run", "--agent-a", "alphabeta:depth=2", "--agent-b", "alphabeta:depth=1",
            "--openings", "plies:2", "--games", "2000", "--seed", "5", "--sprt", "0,10",
            "--quiet", "-o", path)
        job = anywoli.load(path).job("main")
        test = job["sequential_test"]
        self.assertEqual((test["elo0"], test["elo1"], test["alpha"]), (0, 10, 0.05))
        self.assertTrue(test["stopped"])
        self.assertEqual(test["decision"], "accept_h1")
        self.assertEqual(job["rows"], 2 * (test["stop_pair"] + 1))
        self.assertGreater(test["llr"], test["upper"])
        self.assertIsNone(anywoli.load(self.path).job("match")["sequential_test"])
        with h5py.File(path, "r+") as f:
            f["jobs/main"].attrs["stop_pair"] = np.int64(test["stop_pair"] - 1)
        with self.assertRaises(anywoli.ResultsError):
            anywoli.load(path)

    def test_jobs_frame(self):
        r = anywoli.load(self.path)
        jobs = r.jobs
        self.assertEqual(list(jobs["name"]), ["match", "small,x=1"])
        with h5py.File(self.path, "r") as f:
            for _, row in jobs.iterrows():
                a = f["jobs"][row["name"]].attrs
                for k in ("holes", "seeds", "capture", "max_plies", "games"):
                    self.assertEqual(row[k], int(a[k]))
                for k in ("final_four", "agent_a", "agent_b"):
                    self.assertEqual(row[k], a[k])
                self.assertEqual(row["extra_turn"], bool(a["extra_turn"]))
                # The full spec played, as `anywoli agents` prints it.
                for side in ("a", "b"):
                    full = subprocess.run([BIN, "agents", row["agent_" + side]], check=True,
                                          capture_output=True, text=True).stdout.strip()
                    self.assertEqual(row["agent_%s_played" % side], full)
    def test_games_frame(self):
        import pandas as pd
        r = anywoli.load(self.path)
        for job in r.job_names:
            g = r.games(job)
            table = stored(self.path, job)
            self.assertEqual(len(g), len(table))
            for field, words in WORDS.items():
                self.assertIsInstance(g[field].dtype, pd.CategoricalDtype)
                self.assertEqual(list(g[field].cat.categories), list(words.values()))
                self.assertEqual(list(g[field]), [words[int(c)] for c in table[field]])
            self.assertEqual(list(g["a_south"]), [bool(x) for x in table["a_south"]])
            np.testing.assert_array_equal(g["plies"].to_numpy(), table["plies"])


if __name__ == "__main__":
    unittest.main()
