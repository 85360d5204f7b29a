"""test_example.py: docs/python.md's example, run as it is written on the file it names,
gives the numbers of `anywoli analyze --json` and the output the page shows."""
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

from helpers import run

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python.md")


def example():
    """The page's Python block, and the output line it shows after it."""
    with open(DOC) as f:
        text = f.read()
    code = re.search(r"```python\n(.*?)```", text, re.DOTALL).group(1)
    shown = re.search(r"^    (main: South won .*)$", text, re.MULTILINE).group(1)
    return code, shown


class TestExample(unittest.TestCase):
    def test_example_equals_analyze(self):
        code, shown = example()
        with tempfile.TemporaryDirectory() as tmp:
            run("run", "--games", "2000", "-o", "quick.h5", cwd=tmp)
            path = os.path.join(tmp, "quick.h5")
            scope = {"path": path, "job": "main"}
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(code, scope)
            report = json.loads(run("analyze", path, "--json"))
        self.assertEqual(report["confidence"], 0.95)
        job = report["jobs"][0]
        south = job["outcomes"]["south"]
        self.assertAlmostEqual(scope["p"], south["rate"], places=12)
        self.assertAlmostEqual(scope["lo"], south["lo"], places=12)
        self.assertAlmostEqual(scope["hi"], south["hi"], places=12)
        self.assertAlmostEqual(scope["advantage"], job["advantage"]["value"], places=12)
        self.assertEqual(scope["n"], job["outcomes"]["finished"])
        self.assertEqual(out.getvalue().strip(), shown)

    def test_example_is_on_the_page(self):
        code, shown = example()
        self.assertIn("anywoli.load(path)", code)
        self.assertTrue(shown.startswith("main: South won"))


def named_block(first_line):
    """The page's Python block that starts with `first_line`."""
    with open(DOC) as f:
        text = f.read()
    for code in re.findall(r"```python\n(.*?)```", text, re.DOTALL):
        if code.startswith(first_line):
            return code
    raise AssertionError(f"docs/python.md has no block starting {first_line!r}")


class TestAgentExample(unittest.TestCase):
    """The page's complete example: the Python agent in a match against alphabeta:depth=4
    from the book, through the protocol, and its score read back, as the page shows."""

    def test_agent_in_a_match(self):
        with open(DOC) as f:
            text = f.read()
        shown = re.search(r"^    (pairs by A's half-points .*\n    A's score .*)$", text,
                          re.MULTILINE).group(1).replace("\n    ", "\n")
        root = os.path.join(os.path.dirname(__file__), "..", "..")
        book = os.path.abspath(os.path.join(root, "configs", "strong-play-book.txt"))
        # The file the page's match writes, which its readback reads and analyze is given.
        output = re.search(r"build/anywoli run --agent-a external:.*\n.* -o (\S+)\n",
                           text).group(1)
        with tempfile.TemporaryDirectory() as tmp:
            for name in ("my_agent.py", "readback.py"):
                with open(os.path.join(tmp, name), "w") as f:
                    f.write(named_block("# " + name))
            # python3 as the page has it is this interpreter here, which sees the package.
            run("run", "--agent-a", f"external:cmd={sys.executable},arg=my_agent.py",
                "--agent-b", "alphabeta:depth=4", "--openings", f"file:{book}", "--games",
                "200", "--seed", "1", "-o", output, "--quiet", cwd=tmp)
            out = subprocess.run([sys.executable, "readback.py"], cwd=tmp, check=True,
                                 capture_output=True, text=True).stdout
            report = json.loads(run("analyze", os.path.join(tmp, output), "--json"))
        self.assertEqual(out.strip(), shown)
        pairs = report["jobs"][0]["pairs"]
        counts = re.search(r"\[(.*)\]", out).group(1)
        self.assertEqual([int(c) for c in counts.split(",")], pairs["pentanomial"])
        score = float(re.search(r"A's score ([0-9.]+)", out).group(1))
        self.assertLessEqual(abs(score - pairs["score"]["value"]), 0.0005 + 1e-12)   # as rounded


    def test_match_has_its_own_file_and_environment(self):
        """The match writes a file of its own (the README's first experiment writes mine.h5,
        which run would refuse to replace), its readback and analyze read that one, and the
        page activates the virtual environment its `python3` needs before the match."""
        with open(DOC) as f:
            text = f.read()
        match = re.search(r"^(.*\n)*?    build/anywoli run --agent-a external:.*\n.* -o (\S+)\n",
                          text, re.MULTILINE)
        output = match.group(2)
        self.assertNotEqual(output, "mine.h5")
        self.assertIn(f'anywoli.load("{output}")', named_block("# readback.py"))
        self.assertIn(f"anywoli analyze {output}", text)
        before = text[:match.end()]
        self.assertIn("    source .venv/bin/activate\n",
                      before[before.rindex("## A complete example"):])


if __name__ == "__main__":
    unittest.main()
