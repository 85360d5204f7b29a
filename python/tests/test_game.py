"""test_game.py: anywoli.Game against the C engine: every rule vector (single moves, endless
moves, whole games with their awards) played through it gives the recorded results, random
games played in Python and by `anywoli move` agree move by move, and the state's methods
(clone, errors, results under each convention, returns) do what docs/python.md says."""
import os
import random
import tempfile
import unittest

import numpy as np

import anywoli
from anywoli.game import GameError, IllegalMove
from helpers import run

# The vectors the C tests read (tests/CMakeLists.txt's ANYWOLI_TEST_DATA), passed by
# tests/python.cmake; the checkout's copy when run by hand.
VECTORS = os.environ.get("ANYWOLI_VECTORS") or os.path.join(
    os.path.dirname(__file__), "..", "..", "tests", "data", "vectors")
PRESETS = ("anywoli", "yit-nuri", "yit-jani")


def lines(name):
    with open(os.path.join(VECTORS, name)) as f:
        return [line.rstrip("\n") for line in f if line.strip()]


class TestVectors(unittest.TestCase):
    def test_single_moves(self):
        for preset in PRESETS:
            seen = set()
            for i, line in enumerate(lines(f"moves-{preset}.txt"), 1):
                before, move, after, event = line.split("|")
                g = anywoli.Game.from_apn(before, variant=preset)
                self.assertEqual(g.to_apn(), before)
                ev = g.play(int(move))
                self.assertEqual((g.to_apn(), ev.event), (after, event),
                                 f"moves-{preset}.txt:{i}")
                self.assertEqual(g.is_over(), event == "over")
                self.assertEqual(ev.extra, event == "extra")
                seen.add(event)
            self.assertEqual(seen, {"next", "extra", "over"})

    def test_endless_moves(self):
        for i, line in enumerate(lines("endless.txt"), 1):
            apn, move = line.split("|")
            g = anywoli.Game.from_apn(apn)
            self.assertEqual(g.holes, 6)
            ev = g.play(int(move))
            self.assertEqual(ev.event, "endless", f"endless.txt:{i}")
            self.assertEqual(g.to_apn(), apn)           # the position as it stood
            self.assertEqual((g.status, g.legal_moves()), ("endless", []))
            self.assertEqual(g.result().outcome, "endless")
            self.assertEqual(g.returns(), [0.0, 0.0])

    def test_whole_games(self):
        for name in [f"games-{p}.txt" for p in PRESETS] + ["games-all-captured.txt"]:
            for i, line in enumerate(lines(name), 1):
                with self.subTest(file=name, line=i):
                    self.check_game(line, name == "games-all-captured.txt")

    def check_game(self, line, all_captured):
        board, moves, final, result = line.split("|")
        holes, seeds = map(int, board.split())
        over, plies, passes, pen, ff = result.split()
        g = anywoli.Game(holes=holes, seeds=seeds)
        moves = [int(m) for m in moves.split()]
        passed = 0
        for k, m in enumerate(moves):
            self.assertFalse(g.is_over())
            self.assertIn(m, g.legal_moves())
            ev = g.play(m)
            passed += ev.passed
            self.assertEqual(ev.event == "over", k == len(moves) - 1)
        self.assertEqual(g.to_apn(), final)
        self.assertEqual(over, "over")
        self.assertEqual(g.plies, int(plies.split("=")[1]))
        self.assertEqual(passed, int(passes.split("=")[1]))
        if all_captured:
            self.assertEqual(sum(g.board()[:2 * holes]), 0)
        for convention, field in (("penultimate", pen), ("first-final", ff)):
            want = tuple(map(int, field.split("=")[1].split("/")))
            r = g.result(convention)
            self.assertEqual((r.south, r.north), want, convention)
            self.assertEqual(r.outcome, "south" if want[0] > want[1]
                             else "north" if want[1] > want[0] else "draw")


# Variants the random games are played in: the presets and every rule parameter away from
# its standard value.
VARIANTS = [
    {"variant": "anywoli"}, {"variant": "yit-nuri"}, {"variant": "yit-jani"},
    {"holes": 5, "seeds": 3}, {"holes": 6, "capture": 3}, {"holes": 7, "extra_turn": False},
    {"holes": 6, "skip_origin": True}, {"holes": 4, "seeds": 5, "final_four": "first-final"},
]


def options(params):
    """The variant as `anywoli move` options."""
    out = []
    for k, v in params.items():
        v = ("yes" if v else "no") if isinstance(v, bool) else v
        out += [f"--{k.replace('_', '-')}", str(v)]
    return out


class TestAgainstBinary(unittest.TestCase):
    def test_random_games_move_by_move(self):
        """A random game of each variant played in Python, and its moves given to `anywoli
        move` at once: every APN and event alike."""
        rng = random.Random(7)
        for params in VARIANTS:
            for _ in range(3):
                g = anywoli.Game(**params)
                start, played, seen = g.to_apn(), [], []
                while not g.is_over() and len(played) < 400:
                    m = rng.choice(g.legal_moves())
                    ev = g.play(m)
                    played.append(m)
                    seen.append(f"{g.to_apn()} {ev.event}")
                out = run("move", *options(params), "--position", start,
                          *map(str, played)).splitlines()
                self.assertEqual(out, seen, params)

    def test_sampled_steps(self):
        """Steps sampled along random games, each from its APN: one `anywoli move
        --position APN M` a step."""
        rng = random.Random(11)
        for params in VARIANTS[:4]:
            g = anywoli.Game(**params)
            while not g.is_over():
                m = rng.choice(g.legal_moves())
                before = g.to_apn()
                ev = g.play(m)
                if rng.random() < 0.02 or g.is_over():
                    out = run("move", *options(params), "--position", before, str(m)).split()
                    self.assertEqual(out, [*g.to_apn().split(), ev.event], (before, m))


class TestSeededGames(unittest.TestCase):
    def test_random_playout_is_the_runs_game(self):
        """Game(seed=S).random_playout(S) from the start is game 0 of `anywoli run --seed S`
        between random agents: the same plies, final seeds, outcome and lottery coin."""
        coins = set()
        with tempfile.TemporaryDirectory() as tmp:
            for k, params in enumerate(VARIANTS + [{"holes": 5, "final_four": "lottery"}]):
                seed = 100 + k
                path = os.path.join(tmp, f"r{k}.h5")
                run("run", "--games", "1", "--seed", str(seed), "--threads", "1", "--quiet",
                    "-o", path, *options(params))
                row = anywoli.load(path).games("main").iloc[0]
                g = anywoli.Game(**params, seed=seed)
                g.random_playout(seed)
                r = g.result()
                self.assertEqual((g.plies, r.south, r.north, r.outcome),
                                 (row.plies, row.south, row.north, row.outcome), params)
                lottery, left = g.result("lottery"), row.left
                if left:   # the seeds left went to the coin's side
                    won = "south" if lottery.south > g.stores[0] else "north"
                    self.assertEqual(won, row.lottery, params)
                    coins.add(won)
            self.assertEqual(coins, {"south", "north"})


class TestGame(unittest.TestCase):
    def test_start(self):
        g = anywoli.Game(variant="yit-nuri")
        self.assertEqual(g.to_apn(), "4,4,4,4,4,4,4/4,4,4,4,4,4,4 0/0 S - -")
        self.assertEqual(g.legal_moves(), list(range(7)))
        self.assertEqual((g.side_to_move, g.stores, g.plies, g.holes), (0, (0, 0), 0, 7))
        self.assertEqual((g.is_over(), g.status), (False, "playing"))
        self.assertIn("holes=7", g.variant)
        self.assertEqual(anywoli.Game().to_apn(), anywoli.Game("anywoli").to_apn())

    def test_clone_is_independent(self):
        g = anywoli.Game(holes=6)
        g.play(2)
        c = g.clone()
        c.play(c.legal_moves()[0])
        self.assertNotEqual(c.to_apn(), g.to_apn())
        self.assertEqual((g.plies, c.plies), (1, 2))
        self.assertEqual(g.clone().to_apn(), g.to_apn())

    def test_illegal_moves_leave_the_game(self):
        g = anywoli.Game()
        g.play(3)
        apn = g.to_apn()
        for bad, words in ((3, "South's"), (24, "hole"), (-1, "hole"),
                           (2**64 + 3, "out of range"), (2**32 + 1, "out of range")):
            with self.assertRaises(IllegalMove) as cm:
                g.play(bad)
            self.assertIn(words, str(cm.exception))
            self.assertNotIn("\n", str(cm.exception))
        self.assertEqual((g.to_apn(), g.plies), (apn, 1))

    def test_bad_variants_and_positions(self):
        for kwargs, words in (({"holes": 99}, "holes: 99 is out of range (2 to 32)"),
                              ({"colour": 1}, "unknown variant parameter 'colour'"),
                              ({"final_four": "lotto"}, "'lotto' is not a convention"),
                              ({"variant": "anywolli"}, "did you mean 'anywoli'"),
                              ({"extra_turn": "maybe"}, "'maybe' is not yes or no")):
            with self.assertRaises(GameError) as cm:
                anywoli.Game(**kwargs)
            self.assertIn(words, str(cm.exception))
        with self.assertRaises(GameError) as cm:
            anywoli.Game.from_apn("4,4/4,4 0/0 X - -")
        self.assertIn("APN", str(cm.exception))
        with self.assertRaises(GameError):   # 7 holes are not the 12 of the preset
            anywoli.Game.from_apn("4,4,4,4,4,4,4/4,4,4,4,4,4,4 0/0 S - -", variant="anywoli")

    def test_stopped_game(self):
        g = anywoli.Game.from_apn("1,1,0,0,0,0/0,0,0,0,1,1 22/22 S S N")
        self.assertEqual((g.is_over(), g.legal_moves()), (True, []))
        with self.assertRaises(GameError) as cm:
            g.play(0)
        self.assertEqual(str(cm.exception), "the game is over")
        self.assertEqual(g.result("penultimate"), ("south", 26, 22))
        self.assertEqual(g.result("first-final"), ("north", 22, 26))
        with self.assertRaises(GameError):
            anywoli.Game().result()
        self.assertEqual(anywoli.Game().returns(), [0.0, 0.0])

    def test_results_and_returns(self):
        g = anywoli.Game(variant="yit-nuri")
        g.random_playout(3)
        self.assertTrue(g.is_over())
        total = 2 * 7 * 4
        for convention in ("penultimate", "first-final", "lottery"):
            r = g.result(convention)
            self.assertEqual(r.south + r.north, total)
        r = g.result()
        self.assertEqual(r, g.result("penultimate"))
        want = {"south": [1.0, -1.0], "north": [-1.0, 1.0], "draw": [0.0, 0.0]}[r.outcome]
        self.assertEqual(g.returns(), want)

    def test_lottery_coin_follows_the_seed(self):
        """Over seeds, the coin falls both ways, and the same seed gives the same coin."""
        g = anywoli.Game.from_apn("1,1,0,0,0,0/0,0,0,0,1,1 22/22 S S N", final_four="lottery")
        coins = set()
        for seed in range(20):
            g.seed = seed
            coins.add(g.result())
            c = g.clone()
            self.assertEqual(c.result(), g.result())
        self.assertEqual(coins, {("south", 26, 22), ("north", 22, 26)})

    def test_max_plies_stops_unfinished(self):
        g = anywoli.Game(max_plies=5)
        for _ in range(5):
            g.play(g.legal_moves()[0])
        self.assertEqual((g.status, g.is_over(), g.legal_moves()), ("unfinished", True, []))
        r = g.result()
        self.assertEqual((r.outcome, (r.south, r.north)), ("unfinished", g.stores))
        self.assertEqual(g.returns(), [0.0, 0.0])
        with self.assertRaises(GameError) as cm:
            g.play(0)
        self.assertIn("max_plies", str(cm.exception))

    def test_random_playout_goes_on_from_the_state(self):
        g = anywoli.Game(holes=6, max_plies=10_000)
        g.play(0)
        c = g.clone()
        n = g.random_playout(9)
        self.assertEqual(g.plies, n + 1)
        c.random_playout(9)
        self.assertEqual(c.to_apn(), g.to_apn())   # a pure function of the state and seed
        with self.assertRaises(GameError):
            g.random_playout(9)


class TestArguments(unittest.TestCase):
    """Every integer and string that crosses into C is checked into its C type (ctypes would
    wrap 2**64 + 3 to 3 and cut a string at a NUL): TypeError for a value of the wrong type
    (bool and float included), ValueError for one out of range; numpy integers are ints."""

    def assert_refused(self, error, call, words):
        with self.assertRaises(error) as cm:
            call()
        self.assertIs(type(cm.exception), error)
        self.assertIn(words, str(cm.exception))
        self.assertNotIn("\n", str(cm.exception))

    def test_moves(self):
        g = anywoli.Game()
        g.play(3)
        apn = g.to_apn()
        for bad in (2**64 + 15, 2**32 + 13, -2**31 - 1):   # ctypes: 15 and 13, legal holes
            self.assert_refused(IllegalMove, lambda: g.play(bad),
                                f"move: {bad} is out of range")
        for bad, name in ((13.0, "float"), (True, "bool"), ("13", "str"), (None, "NoneType"),
                          (np.float64(13), "float64"), (np.bool_(True), "bool_")):
            self.assert_refused(TypeError, lambda: g.play(bad),
                                f"move: expected an int, got {name}")
        self.assertEqual((g.to_apn(), g.plies), (apn, 1))
        for numpy_int in (np.int64(13), np.int32(13), np.uint8(13)):
            c = g.clone()
            c.play(numpy_int)
            self.assertEqual(c.plies, 2)

    def test_seeds(self):
        g = anywoli.Game.from_apn("1,1,0,0,0,0/0,0,0,0,1,1 22/22 S S N", final_four="lottery")
        for setter in (lambda s: anywoli.Game(seed=s), lambda s: setattr(g, "seed", s),
                       lambda s: anywoli.Game(holes=6).random_playout(s),
                       lambda s: anywoli.Game.from_apn(g.to_apn(), seed=s)):
            for bad in (2**64 + 7, -1):
                self.assert_refused(ValueError, lambda: setter(bad),
                                    f"seed: {bad} is out of range (0 to {2**64 - 1})")
            for bad in (7.0, True, "7", None):
                self.assert_refused(TypeError, lambda: setter(bad), "seed: expected an int")
        g.seed = np.uint64(2**64 - 1)
        self.assertEqual(g.seed, 2**64 - 1)
        self.assertIs(type(g.seed), int)
        coins = set()
        for seed in range(20):
            g.seed = seed
            wrapped = g.result()
            g.seed = np.int64(seed)
            self.assertEqual(g.result(), wrapped)
            coins.add(wrapped)
        self.assertEqual(len(coins), 2)

    def test_variant_parameters(self):
        for kwargs, error, words in (
                ({"holes": True}, TypeError, "holes: expected an int, got bool"),
                ({"holes": 6.0}, TypeError, "holes: expected an int, got float"),
                ({"holes": "6"}, TypeError, "holes: expected an int, got str"),
                ({"seeds": None}, TypeError, "seeds: expected an int"),
                ({"max_plies": 2**64 + 5}, ValueError, "max_plies: 18446744073709551621 is "
                                                        "out of range"),
                ({"capture": -2**63 - 1}, ValueError, "capture: "),
                ({"extra_turn": 1}, TypeError, "extra_turn: expected a str"),
                ({"final_four": None}, TypeError, "final_four: expected a str"),
                ({"final_four": "lottery\0x"}, ValueError, "holds a NUL"),
                ({"variant": "yit-nuri\0"}, ValueError, "variant: "),
                ({"variant": 3}, TypeError, "variant: expected a str")):
            with self.subTest(**{k: repr(v) for k, v in kwargs.items()}):
                self.assert_refused(error, lambda: anywoli.Game(**kwargs), words)
        self.assertIn("holes=6", anywoli.Game(holes=np.int16(6)).variant)
        self.assertIn("extra_turn=no", anywoli.Game(extra_turn=False).variant)
        self.assertIn("extra_turn=no", anywoli.Game(extra_turn="no").variant)

    def test_positions_and_conventions(self):
        start = anywoli.Game(holes=6).to_apn()
        self.assert_refused(TypeError, lambda: anywoli.Game.from_apn(None),
                            "APN: expected a str, got NoneType")
        self.assert_refused(TypeError, lambda: anywoli.Game.from_apn(start.encode()),
                            "APN: expected a str, got bytes")
        self.assert_refused(ValueError, lambda: anywoli.Game.from_apn(start + "\0junk"),
                            "APN: ")
        g = anywoli.Game.from_apn("1,1,0,0,0,0/0,0,0,0,1,1 22/22 S S N")
        self.assert_refused(ValueError, lambda: g.result("first-final\0"), "holds a NUL")
        self.assert_refused(TypeError, lambda: g.result(1), "convention: expected a str")


class TestLibraryPath(unittest.TestCase):
    """Where the package looks for libanywoli_game.so: ANYWOLI_LIB, else beside the anywoli
    binary, else the checkout's build/, else the package's folder."""

    def setUp(self):
        self.saved = dict(os.environ)
        self.lib = anywoli.game.library_path()

    def tearDown(self):
        os.environ.clear()
        os.environ.update(self.saved)

    def test_anywoli_lib_first_and_alone(self):
        os.environ["ANYWOLI_LIB"] = "/nowhere/libanywoli_game.so"
        with self.assertRaises(GameError) as cm:
            anywoli.game.library_path()
        self.assertIn("/nowhere/libanywoli_game.so", str(cm.exception))
        self.assertIn("ANYWOLI_LIB", str(cm.exception))

    def test_beside_the_binary(self):
        with tempfile.TemporaryDirectory() as tmp:
            os.symlink(self.lib, os.path.join(tmp, anywoli.game.LIBRARY))
            binary = os.path.join(tmp, "anywoli")
            open(binary, "w").close()
            os.environ.pop("ANYWOLI_LIB", None)
            os.environ["ANYWOLI_BIN"] = binary
            self.assertEqual(anywoli.game.library_path(),
                             os.path.join(tmp, anywoli.game.LIBRARY))

    def test_then_the_build_folder_and_the_package(self):
        os.environ.pop("ANYWOLI_LIB", None)
        os.environ["ANYWOLI_BIN"] = "/nowhere/anywoli"
        os.environ["PATH"] = "/nowhere"
        package = os.path.dirname(os.path.abspath(anywoli.game.__file__))
        self.assertEqual([os.path.normpath(p) for p in anywoli.game._candidates()],
                         [os.path.normpath(os.path.join(package, "..", "..", "build",
                                                        anywoli.game.LIBRARY)),
                          os.path.join(package, anywoli.game.LIBRARY)])


if __name__ == "__main__":
    unittest.main()
