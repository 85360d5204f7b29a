#!/usr/bin/env python3
"""docs_links.py SOURCE_DIR: every relative link of README.md and docs/*.md names a file that
exists and, where it names a section (#anchor), a heading of that page, so that moving text
between pages cannot leave a reader at a dead end. Anchors are made as the common Markdown
renderers make them: the heading's text in lower case, punctuation dropped, spaces as '-'.
Every page of docs/ is also listed in the README's table of the documentation."""
import os
import re
import sys


def anchors(path):
    """The anchors of a page's headings, outside fenced code."""
    found, fence = set(), False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                fence = not fence
            elif not fence and re.match(r"#{1,6} ", line):
                text = line.strip().lstrip("#").strip().lower()
                found.add(re.sub(r"[^\w\- ]", "", text).replace(" ", "-"))
    return found


def main():
    root = sys.argv[1]
    pages = ["README.md"] + sorted("docs/" + p for p in os.listdir(os.path.join(root, "docs"))
                                   if p.endswith(".md"))
    checked = failed = 0
    for page in pages:
        with open(os.path.join(root, page), encoding="utf-8") as f:
            text = f.read()
        for m in re.finditer(r"\]\(([^)\s]+)\)", text):
            target = m.group(1)
            if re.match(r"[a-z]+:", target):
                continue  # a web address: not checked offline
            checked += 1
            path, _, frag = target.partition("#")
            file = os.path.normpath(os.path.join(root, os.path.dirname(page), path)) if path \
                else os.path.join(root, page)
            if not os.path.exists(file):
                print(f"FAIL: {page}: link to {target}: no such file")
                failed += 1
            elif frag and file.endswith(".md") and frag not in anchors(file):
                print(f"FAIL: {page}: link to {target}: no such section")
                failed += 1
    # Every page of docs/ is in the README's table of the documentation.
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    table = readme.split("## The documentation", 1)[-1].split("\n## ", 1)[0]
    for page in pages[1:]:
        checked += 1
        if f"| [{page}]({page}) |" not in table:
            print(f"FAIL: README.md: the table of the documentation lacks {page}")
            failed += 1
    print(f"docs_links: {checked - failed} passed, {failed} failed")
    return 1 if failed or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
