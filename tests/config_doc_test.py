"""Fails when docs/config.md and the config loaders' key tables disagree.

Usage: config_doc_test.py DUMP_PROGRAM DOC. The program prints `PLACE KEY` lines; in the doc,
a line `<!-- keys: PLACE -->` opens a key table whose rows start with `` | `key` | ``.
"""
import re
import subprocess
import sys


# The (place, key) pairs the doc's marked tables list.
def doc_keys(path):
    keys, place = set(), None
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"<!-- keys: (\S+) -->", line)
            if m:
                place = m.group(1)
                continue
            row = re.match(r"\| `([^`]+)` \|", line)
            if place and row:
                keys.add((place, row.group(1)))
            elif place and line.strip() and not line.startswith("|"):
                place = None
    return keys


def main():
    out = subprocess.run([sys.argv[1]], check=True, capture_output=True, text=True).stdout
    table = {tuple(line.split(" ", 1)) for line in out.splitlines()}
    doc = doc_keys(sys.argv[2])
    bad = 0
    for place, key in sorted(table - doc):
        print(f"{sys.argv[2]}: {place}: `{key}` is a key of the loader but not documented")
        bad = 1
    for place, key in sorted(doc - table):
        print(f"{sys.argv[2]}: {place}: `{key}` is documented but the loader has no such key")
        bad = 1
    if not bad:
        print(f"{len(table)} keys documented, none extra")
    return bad


if __name__ == "__main__":
    sys.exit(main())
