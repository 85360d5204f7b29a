"""test_example.py: docs/python.md's example, run as it is written on the file it names,
gives the numbers of `anywoli analyze --json` and the output the page shows."""
import contextlib
import io
import json
import os
import re
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


if __name__ == "__main__":
    unittest.main()
