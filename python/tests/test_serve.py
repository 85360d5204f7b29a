"""test_serve.py: anywoli.serve, a Python function as a program of the lab's line protocol
(docs/protocol.md, "From Python"): what the user's code raises reaches the lab as one line
naming the exception and the user's file:line; an answer that is not a legal hole is refused
by name; the work a move cost rides on its `move` line; the game's start and end reach the
hooks; and a stray print() cannot break the protocol, in a pipe and in a match of the lab."""
import contextlib
import io
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import unittest

import numpy as np

import anywoli
from helpers import run

GAME = ("game seed 7 side S holes 5 seeds 2 capture 4 final_four penultimate extra_turn yes "
        "skip_origin no max_plies 100000 start 2,2,2,2,2/2,2,2,2,2 0/0 S - -")
POSITION = "position 2,2,2,2,2/2,2,2,2,2 0/0 S - - moves 0 1 2 3 4 history"
END = "end south 20 0"
DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python.md")


def transcript(player, lines, **kwargs):
    """serve's answers to lines (the hello first), and what it wrote to standard error."""
    out, err = io.StringIO(), io.StringIO()
    stdin = io.StringIO("\n".join(["anywoli protocol 1", *lines, "quit"]) + "\n")
    with contextlib.redirect_stderr(err):
        anywoli.serve(player, name="t", stdin=stdin, stdout=out, **kwargs)
    answers = out.getvalue().splitlines()
    assert answers[:2] == ["name t", "protocol 1"], answers
    return answers[2:], err.getvalue()


def answer(choose):
    """The one line serve sends for the first position of a game."""
    lines, _ = transcript(choose, [GAME, POSITION])
    return lines


def line_of(text):
    """The line number in this file of the line holding text."""
    with open(__file__) as f:
        return next(i for i, line in enumerate(f, 1) if text in line and "line_of" not in line)


def deep_helper():
    raise ValueError("no legal idea")      # raised here


class TestFailures(unittest.TestCase):
    def test_exception_names_type_message_and_the_users_line(self):
        def choose(position, legal_moves, game):
            return deep_helper()

        lines, err = transcript(choose, [GAME, POSITION])
        where = "%s:%d" % (__file__, line_of("# raised here"))
        self.assertEqual(lines, ["error choose raised ValueError: no legal idea (%s)" % where])
        self.assertIn("Traceback (most recent call last)", err)   # the whole of it
        self.assertIn("deep_helper", err)

    def test_exception_in_a_library_points_at_the_users_call(self):
        """A Game refusing a move, random.choice of nothing: the line to look at is the
        user's call, not the library's raise."""
        def play_a_bad_move(position, legal_moves, game):
            anywoli.Game.from_apn(position).play(9)                # the bad call
            return legal_moves[0]

        def choose_from_nothing(position, legal_moves, game):
            return game.random.choice([])                          # the empty choice

        for choose, mark, kind in ((play_a_bad_move, "# the bad call", "IllegalMove"),
                                   (choose_from_nothing, "# the empty choice", "IndexError")):
            lines, _ = transcript(choose, [GAME, POSITION])
            self.assertEqual(len(lines), 1)
            self.assertTrue(lines[0].startswith("error choose raised %s: " % kind), lines)
            self.assertTrue(lines[0].endswith("(%s:%d)" % (__file__, line_of(mark))), lines)

    def test_an_option_that_is_not_one_word_is_refused_before_the_hello(self):
        for options in ({"depth": "two words"}, {"my depth": 3}, {"depth": ""}):
            with self.assertRaises(ValueError):
                transcript(lambda p, m, g: m[0], [], options=options)

    def test_a_multiline_message_stays_one_line(self):
        def choose(position, legal_moves, game):
            raise RuntimeError("first\nsecond\n" + "x" * 5000)

        lines, _ = transcript(choose, [GAME, POSITION])
        self.assertEqual(len(lines), 1)
        self.assertIn("RuntimeError: first second x", lines[0])
        self.assertLess(len(lines[0]), 4096)       # the lab's longest line

    def test_answers_that_are_not_legal_holes(self):
        for returned, text in (
                (3.7, "error choose returned 3.7 (float); expected a legal hole number"),
                (3.0, "error choose returned 3.0 (float); expected a legal hole number"),
                (True, "error choose returned True (bool); expected a legal hole number"),
                ("3", "error choose returned '3' (str); expected a legal hole number"),
                (None, "error choose returned None; expected a legal hole number"),
                (2**32 + 3, "error choose returned 4294967299 (int); expected a legal hole "
                            "number"),
                (7, "error choose returned 7, which is not a legal hole (legal: 0 1 2 3 4)")):
            with self.subTest(returned=returned):
                self.assertEqual(answer(lambda p, m, g: returned), [text])
        self.assertEqual(answer(lambda p, m, g: np.int64(3)), ["move 3"])

    def test_hook_exceptions_are_reported(self):
        def start(game):
            raise KeyError("book")

        lines, _ = transcript(lambda p, m, g: 0, [GAME], on_game_start=start)
        self.assertEqual(len(lines), 1)
        self.assertTrue(lines[0].startswith("error on_game_start raised KeyError: 'book' ("))


class TestWork(unittest.TestCase):
    def test_counts_ride_on_the_move_line(self):
        for returned, text in (((3, {"nodes": 12, "playouts": 5}),
                                "move 3 nodes 12 playouts 5"),
                               ((3, {"playouts": 5}), "move 3 playouts 5"),
                               ((3, {"nodes": np.uint64(2**64 - 1)}),
                                "move 3 nodes 18446744073709551615"),
                               ((3, {}), "move 3")):
            with self.subTest(returned=returned):
                self.assertEqual(answer(lambda p, m, g: returned), [text])

    def test_bad_counts_are_refused(self):
        for work, words in (({"nodes": -1}, "choose's nodes: -1 is out of range"),
                            ({"nodes": 1.5}, "choose's nodes: expected an int, got float"),
                            ({"playouts": True}, "expected an int, got bool"),
                            ({"visits": 3}, "a dict of 'nodes' and 'playouts'"),
                            ([3], "a dict of 'nodes' and 'playouts'")):
            with self.subTest(work=work):
                lines = answer(lambda p, m, g: (3, work))
                self.assertEqual(len(lines), 1)
                self.assertTrue(lines[0].startswith("error "), lines)
                self.assertIn(words, lines[0])


class TestHooks(unittest.TestCase):
    LINES = [GAME, POSITION, "position 1,0,0,3,3/0,3,3,0,3 4/0 S S S moves 0 3 4 history 0 8",
             END, GAME, POSITION]     # the second game abandoned: no end

    def test_keyword_hooks_hear_each_start_and_end(self):
        heard = []

        def choose(position, legal_moves, game):
            heard.append(("choose", legal_moves[0]))
            return legal_moves[0]

        lines, _ = transcript(
            choose, self.LINES,
            on_game_start=lambda game: heard.append(("start", game.seed, game.side)),
            on_game_end=lambda game, result: heard.append(("end", result, game.history)))
        self.assertEqual(lines, ["move 0", "move 0", "move 0"])
        self.assertEqual(heard, [("start", 7, "S"), ("choose", 0), ("choose", 0),
                                 ("end", ("south", 20, 0), [0, 8]),
                                 ("start", 7, "S"), ("choose", 0)])

    def test_an_objects_methods_and_keywords_over_them(self):
        class Player:
            def __init__(self):
                self.heard = []

            def choose(self, position, legal_moves, game):
                self.heard.append("choose")
                return legal_moves[-1], {"nodes": 1}

            def on_game_start(self, game):
                self.heard.append("start")

            def on_game_end(self, game, result):
                self.heard.append(result.outcome)

        player = Player()
        lines, _ = transcript(player, self.LINES)
        self.assertEqual(lines, ["move 4 nodes 1", "move 4 nodes 1", "move 4 nodes 1"])
        self.assertEqual(player.heard, ["start", "choose", "choose", "south", "start",
                                        "choose"])
        other = Player()
        ends = []
        transcript(other, self.LINES, on_game_end=lambda game, result: ends.append(result))
        self.assertEqual(ends, [("south", 20, 0)])
        self.assertNotIn("south", other.heard)

    def test_the_pages_player_runs_as_written(self):
        """docs/python.md's Player, run as a program: its move and work on the protocol, its
        hook's print on standard error."""
        with open(DOC) as f:
            text = f.read()
        section = text[text.index("**A game's start and end.**"):]
        block = re.search(r"\n\n((?:    .*\n|\n)+)", section).group(1)
        code = "import anywoli\n\n" + textwrap.dedent(block)
        self.assertIn("anywoli.serve(Player())", code)
        lines = ["anywoli protocol 1", GAME, POSITION, END, "quit"]
        done = subprocess.run([sys.executable, "-c", code], input="\n".join(lines) + "\n",
                              capture_output=True, text=True, check=True)
        self.assertEqual(done.stdout.splitlines(), ["name Player", "protocol 1",
                                                    "move 0 nodes 1"])
        self.assertEqual(done.stderr, "7 south\n")

    def test_not_a_player(self):
        with self.assertRaises(TypeError):
            anywoli.serve(3, stdin=io.StringIO(""), stdout=io.StringIO())


# A program that prints everywhere it can: print() in choose and in the hooks, a write to
# file descriptor 1 as a C library would, and a child process. It reports one node a move.
NOISY = """\
import os, subprocess, sys
import anywoli

chosen = 0

def choose(position, legal_moves, game):
    global chosen
    chosen += 1
    print("thinking about", position)
    os.write(1, b"raw write\\n")
    return legal_moves[0], {"nodes": 1}

def start(game):
    global chosen
    chosen = 0
    print("game starts")
    subprocess.run(["echo", "child says"])

def end(game, result):
    print("game ends", *result)
    with open(sys.argv[1], "a") as log:
        log.write("%s %d\\n" % (result.outcome, chosen))

anywoli.serve(choose, name="noisy", on_game_start=start, on_game_end=end)
print("after serve")
"""


class TestPrivateStdout(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.program = os.path.join(self.tmp.name, "noisy.py")
        self.log = os.path.join(self.tmp.name, "ends.txt")
        with open(self.program, "w") as f:
            f.write(NOISY)

    def tearDown(self):
        self.tmp.cleanup()

    def test_prints_go_to_stderr_and_the_protocol_keeps_stdout(self):
        lines = ["anywoli protocol 1", GAME, POSITION, END, "quit"]
        done = subprocess.run([sys.executable, self.program, self.log],
                              input="\n".join(lines) + "\n", capture_output=True, text=True,
                              check=True)
        self.assertEqual(done.stdout.splitlines(),
                         ["name noisy", "protocol 1", "move 0 nodes 1", "after serve"])
        for text in ("thinking about", "raw write", "game starts", "child says",
                     "game ends south 20 0"):
            self.assertIn(text, done.stderr)

    def test_a_noisy_program_plays_a_match(self):
        """In the lab: the run ends well, every game's end reached the hook, and the nodes
        the program reported are stored as agent A's, one a move."""
        out = os.path.join(self.tmp.name, "n.h5")
        run("run", "--holes", "5", "--seeds", "2", "--agent-a",
            f"external:cmd={sys.executable},arg={self.program},arg={self.log}",
            "--agent-b", "random", "--games", "6", "--seed", "3", "--threads", "1",
            "--record-moves", "-o", out, "--quiet")
        results = anywoli.load(out)
        games = results.games("main")
        with open(self.log) as f:
            ends = [line.split() for line in f]
        self.assertEqual([outcome for outcome, _ in ends], list(games.outcome))
        for g, (_, chosen) in enumerate(ends):
            moves = results.moves("main", g)
            a_moves = sum(1 for m in moves if (m < 5) == bool(games.a_south[g]))
            self.assertEqual((int(chosen), games.nodes_a[g]), (a_moves, a_moves))


if __name__ == "__main__":
    unittest.main()
