#!/usr/bin/env python3
"""report_boards_test.py: the boards of `analyze --report` (analysis/analyze/report_boards.c).

    report_boards_test.py PATH/TO/anywoli

A root design (self-play from every line of 2 plies, all:2) on a small board, analysed with
--report: the report folder must hold the start's board and one board per line (as analyze's
JSON lists the lines), each the position `anywoli move` gives after the line's moves (every
hole's count, the stores, the turn), titled with the line's holes' names (S1 N3), the last
move's hole marked as emptied; the page must embed each file byte for byte. A file without a
root design gets its start's board and no line's. The report needs gnuplot (scripts/setup.sh
installs gnuplot-nox): without it the test fails.
"""
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

BINARY = os.path.abspath(sys.argv[1])
SVG = "{http://www.w3.org/2000/svg}"
failures = []
checks = 0


def check(ok, what):
    global checks
    checks += 1
    if not ok:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)
    return ok


def anywoli(*args, cwd):
    p = subprocess.run([BINARY, *args], cwd=cwd, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        sys.exit(f"FAIL: anywoli {' '.join(args)}: status {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def hole_name(i, holes):
    return f"S{i + 1}" if i < holes else f"N{i - holes + 1}"


def board(path):
    """A board's file: its caption, holes {index: (name, count, marks)}, stores, turn."""
    root = ET.parse(path).getroot()
    holes, stores, caption, turn = {}, {}, None, None
    for el in root.iter():
        if "data-hole" in el.attrib:
            holes[int(el.get("data-hole"))] = (el.get("data-name"), int(el.get("data-count")),
                                               set(el.get("data-marks").split()))
        elif "data-store" in el.attrib:
            stores[el.get("data-store")] = int(el.get("data-count"))
        elif el.get("class") == "caption":
            caption = el.text
        elif el.get("class") == "turn":
            turn = el.get("data-side")
    return caption, holes, stores, turn


def check_board(path, apn, caption, last_move, what):
    got_caption, holes, stores, turn = board(path)
    fields = apn.split()
    south, north = fields[0].split("/")
    pits = [int(x) for x in south.split(",") + north.split(",")]
    h = len(pits) // 2
    check(got_caption == caption, f"{what}: caption {got_caption!r}, expected {caption!r}")
    check({i: (n, c) for i, (n, c, _) in holes.items()} ==
          {i: (hole_name(i, h), pits[i]) for i in range(2 * h)},
          f"{what}: holes {holes}, expected the APN {apn}")
    s, n = (int(x) for x in fields[1].split("/"))
    check(stores == {"S": s, "N": n}, f"{what}: stores {stores}, APN {fields[1]}")
    check(turn == fields[2], f"{what}: turn {turn}, APN {fields[2]}")
    marked = {i for i, (_, _, m) in holes.items() if "origin" in m}
    check(marked == ({last_move} if last_move is not None else set()),
          f"{what}: holes marked emptied {marked}, the last move {last_move}")


def embedded(page, name, path):
    """Whether the page embeds the file at path, byte for byte, as name's image."""
    m = re.search(r'alt="' + re.escape(name) + r'"[^>]*src="data:image/svg\+xml;base64,([^"]*)"',
                  page)
    with open(path, "rb") as f:
        return m is not None and base64.b64decode(m.group(1)) == f.read()


def main():
    if not check(shutil.which("gnuplot") is not None,
                 "gnuplot is not installed (scripts/setup.sh installs gnuplot-nox): no report"):
        sys.exit(1)
    with tempfile.TemporaryDirectory() as d:
        anywoli("run", "--holes", "4", "--agent-a", "random", "--agent-b", "random",
                "--openings", "all:2", "--games", "64", "--seed", "3", "--quiet", "-o",
                "root.h5", cwd=d)
        anywoli("analyze", "root.h5", "--report", "rep", cwd=d)
        analysis = json.loads(anywoli("analyze", "root.h5", "--json", cwd=d))
        lines = analysis["jobs"][0]["root"]["lines"]
        rep = os.path.join(d, "rep")
        with open(os.path.join(rep, "index.html")) as f:
            page = f.read()
        start = "4,4,4,4/4,4,4,4 0/0 S - -"
        check_board(os.path.join(rep, "board_start_j0.svg"), start,
                    "the start: 4 holes a row, 4 seeds a hole", None, "the start")
        check(embedded(page, "board_start_j0", os.path.join(rep, "board_start_j0.svg")),
              "the page does not embed board_start_j0.svg")
        check(len(lines) >= 8 and all(len(l["moves"]) >= 1 for l in lines),
              f"{len(lines)} lines: too few to show a root design")
        for k, line in enumerate(lines):
            name = f"board_j0_line{k}"
            path = os.path.join(rep, name + ".svg")
            if not check(os.path.exists(path), f"{name}.svg is missing"):
                continue
            moves = line["moves"]
            apn = anywoli("move", "--holes", "4", *[str(m) for m in moves],
                          cwd=d).splitlines()[-1]
            check_board(path, apn, " ".join(hole_name(m, 4) for m in moves), moves[-1],
                        f"line {k} {moves}")
            check(embedded(page, name, path), f"the page does not embed {name}.svg")
        drawn = sorted(n for n in os.listdir(rep) if n.startswith("board_"))
        check(len(drawn) == len(lines) + 1, f"the report's boards {drawn}, {len(lines)} lines")

        # No root design: the start alone.
        anywoli("run", "--holes", "5", "--agent-a", "random", "--agent-b", "greedy", "--games",
                "4", "--seed", "3", "--quiet", "-o", "plain.h5", cwd=d)
        anywoli("analyze", "plain.h5", "--report", "plain", cwd=d)
        drawn = sorted(n for n in os.listdir(os.path.join(d, "plain")) if n.startswith("board_"))
        check(drawn == ["board_start_j0.svg"], f"a file without a root design: boards {drawn}")
        check_board(os.path.join(d, "plain", "board_start_j0.svg"), "4,4,4,4,4/4,4,4,4,4 0/0 S - -",
                    "the start: 5 holes a row, 4 seeds a hole", None, "a plain file's start")
    print(f"{checks - len(failures)} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
