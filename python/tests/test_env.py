"""test_env.py: anywoli.env, the PettingZoo-style environment: a random loop runs to the end
with the rewards of the game's result, observations are each side's view of the board, an
illegal action is refused and changes nothing, max_plies truncates."""
import contextlib
import io
import os
import re
import unittest

import numpy as np

import anywoli


def random_episode(env, seed, rng):
    """One episode of random legal actions: the steps taken and each agent's rewards seen."""
    env.reset(seed=seed)
    steps, seen = 0, {"south": 0, "north": 0}
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        seen[agent] += reward
        if termination or truncation:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            steps += 1
        env.step(action)
    return steps, seen, info


class TestEnv(unittest.TestCase):
    def test_random_loop_ends_with_the_results_rewards(self):
        env = anywoli.env(variant="yit-nuri")
        rng = np.random.default_rng(1)
        outcomes = set()
        for seed in range(30):
            steps, seen, info = random_episode(env, seed, rng)
            want = {"south": (1, -1), "north": (-1, 1)}.get(info["outcome"], (0, 0))
            self.assertEqual((seen["south"], seen["north"]), want)
            self.assertEqual(info["plies"], steps)
            self.assertEqual(env.agents, [])
            outcomes.add(info["outcome"])
        self.assertTrue({"south", "north"} <= outcomes)

    def test_observation_is_the_board_from_the_agents_side(self):
        env = anywoli.env(variant="yit-nuri")
        env.reset(seed=0)
        env.step(3)                                    # South's hole 3
        self.assertEqual(env.agent_selection, "north")
        board = env.game.board()
        south, north = env.observe("south"), env.observe("north")
        self.assertEqual(south["observation"].dtype, np.int32)
        self.assertEqual(south["observation"].shape, env.observation_shape)
        self.assertEqual(list(south["observation"]), board)
        self.assertEqual(list(north["observation"]), board[7:14] + board[:7] + board[15:13:-1])
        self.assertEqual(list(south["action_mask"]), [0] * 7)   # not South's turn
        legal = [m - 7 for m in env.game.legal_moves()]
        self.assertEqual(list(np.flatnonzero(north["action_mask"])), legal)
        self.assertEqual(list(env.action_mask()), list(north["action_mask"]))

    def test_illegal_actions_are_refused(self):
        env = anywoli.env(variant="anywoli")
        env.reset()
        env.step(0)
        env.step(0)                                    # North's hole 12
        apn = env.render()
        empty = [a for a in range(12) if env.action_mask()[a] == 0]
        legal = int(np.flatnonzero(env.action_mask())[0])
        for action, error, words in (
                (12, anywoli.IllegalMove, "action: 12 is out of range (0 to 11)"),
                (-1, anywoli.IllegalMove, "out of range"),
                (2**64 + 3, anywoli.IllegalMove, "out of range"),   # not hole 3
                (None, anywoli.IllegalMove, "not over"),
                (empty[0], anywoli.IllegalMove, "not legal"),
                # Game.play's rule: bool and float are not ints, even True or 6.0.
                ("a", TypeError, "expected an int, got str"),
                (0.5, TypeError, "expected an int, got float"),
                (float(legal), TypeError, "expected an int, got float"),
                (True, TypeError, "expected an int, got bool"),
                (np.float32(1), TypeError, "expected an int")):
            with self.assertRaises(error) as cm:
                env.step(action)
            self.assertIs(type(cm.exception), error)
            self.assertIn(words, str(cm.exception))
            self.assertIn(env.agent_selection, str(cm.exception))
        self.assertEqual(env.render(), apn)
        with self.assertRaises(anywoli.IllegalMove):
            env.observe("east")
        env.step(np.int64(legal))                      # numpy's integers are ints
        self.assertNotEqual(env.render(), apn)

    def test_seeds_and_parameters_follow_games_rule(self):
        env = anywoli.env(variant="anywoli")
        for seed, error in ((2**64 + 7, ValueError), (-1, ValueError), (1.0, TypeError),
                            (True, TypeError)):
            with self.assertRaises(error) as cm:
                env.reset(seed=seed)
            self.assertIn("seed: ", str(cm.exception))
        env.reset(seed=np.uint64(2**64 - 1))
        self.assertEqual(env.game.seed, 2**64 - 1)
        for kwargs, error in (({"max_plies": 10.0}, TypeError),
                              ({"max_plies": True}, TypeError),
                              ({"holes": 2**64 + 6}, ValueError)):
            with self.assertRaises(error):
                anywoli.env(variant="anywoli", **kwargs)

    def test_max_plies_truncates(self):
        env = anywoli.env(variant="anywoli", max_plies=6)
        steps, seen, info = random_episode(env, 0, np.random.default_rng(2))
        self.assertEqual((steps, seen, info["outcome"]), (6, {"south": 0, "north": 0},
                                                          "unfinished"))
        env.reset()
        for _ in range(6):
            env.step(int(np.flatnonzero(env.action_mask())[0]))
        self.assertTrue(all(env.truncations.values()))
        self.assertFalse(any(env.terminations.values()))
        with self.assertRaises(anywoli.IllegalMove):   # a stopped agent's step takes None
            env.step(0)

    def test_bad_variant_fails_at_construction(self):
        with self.assertRaises(anywoli.GameError) as cm:
            anywoli.env(variant="anywoli", holes=40)
        self.assertIn("holes: 40 is out of range", str(cm.exception))


DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python.md")


class TestExample(unittest.TestCase):
    def test_the_pages_loop_prints_what_it_shows(self):
        """docs/python.md's random RL-style loop, run as it is written, prints the lines the
        page shows after it."""
        with open(DOC) as f:
            text = f.read()
        section = text[text.index("### Example: a random RL-style loop"):]
        code = re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)
        shown = re.search(r"It prints.*?\n\n((?:    .*\n)+)", section).group(1)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(code, {})
        self.assertEqual(out.getvalue().splitlines(),
                         [line[4:] for line in shown.splitlines()])


if __name__ == "__main__":
    unittest.main()
