#!/usr/bin/env python3
"""board_page_test.py: `replay --html`'s page, read in headless Chromium step by step.

    board_page_test.py PATH/TO/anywoli

Makes a small results file with its moves, prints a game with `anywoli replay` (the start's
APN and each ply's), writes the same game's page with `replay --html`, and opens the page
in Chromium (`--dump-dom`). The page, opened at `#press=KEYS`, presses its own buttons (and
arrow keys) through the handlers a click uses and keeps a copy of what it shows after each
press; each copy's board (every hole's count, the stores, the turn), ply, mover, move and
event must be those of the position `replay` printed for that step, the holes named S1..
and N1.., and the move's marks consistent with the positions: the origin is the move's hole,
relayed and captured holes were sown into, the stores grew by `capture` for each capture.
Previous, First, Last and the arrow keys must step as they say, and the outcome shows at the
last step only. `search --html`'s page, of the principal variation, is read the same way
against the positions `anywoli move` gives for its moves. Chromium is a test dependency
(scripts/setup.sh installs it): without it the test fails.
"""
import html.parser
import json
import os
import shutil
import subprocess
import sys
import tempfile

BINARY = os.path.abspath(sys.argv[1])
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
    p = subprocess.run([BINARY, *args], cwd=cwd, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        sys.exit(f"FAIL: anywoli {' '.join(args)}: status {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def parse_apn(apn):
    """An APN (docs/rules.md) as (pits, stores, side to move)."""
    board, stores, side = apn.split()[:3]
    south, north = board.split("/")
    pits = [int(x) for x in south.split(",")] + [int(x) for x in north.split(",")]
    return pits, [int(x) for x in stores.split("/")], side


def hole_index(name, holes):
    """A hole's index from its name as `replay` prints it (S4, N4), with holes a row."""
    return int(name[1:]) - 1 + (holes if name[0] == "N" else 0)


def replay_steps(text, holes):
    """`replay`'s printed game (holes a row): a list of steps, each a dict of ply, mover,
    hole, event, APN (the start first), and the end line."""
    steps, end = [], None
    for line in text.splitlines():
        words = line.split()
        if words[0] == "start":
            steps.append({"ply": 0, "mover": None, "hole": None, "event": "start",
                          "apn": " ".join(words[1:6])})
        elif words[0].isdigit():
            steps.append({"ply": int(words[0]), "mover": words[1],
                          "hole": hole_index(words[2], holes),
                          "apn": " ".join(words[3:8]), "event": words[8]})
        elif words[0] == "end:":
            end = line
    return steps, end


class Views(html.parser.HTMLParser):
    """The copies of the view (`#trail > [data-step]`), or the page's own view: each as a
    dict of holes {index: (name, count, marks, shown count)}, stores {S/N: (count, shown)},
    turn side, the table's cells by id, and whether the outcome shows (with its text)."""

    def __init__(self, copies):
        super().__init__()
        self.copies, self.views, self.stack, self.view = copies, [], [], None
        self.group = self.cell = None
        self.text_to = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.stack.append(tag)
        opens_view = ("data-step" in a) if self.copies else (a.get("id") == "view")
        if opens_view and self.view is None:
            self.view = {"depth": len(self.stack), "holes": {}, "stores": {}, "cells": {},
                         "turn": None, "outcome": None, "step": a.get("data-step")}
            return
        if self.view is None:
            return
        if "data-hole" in a:
            self.group = ("hole", int(a["data-hole"]))
            self.view["holes"][int(a["data-hole"])] = [a.get("data-name"), int(a["data-count"]),
                                                       set(a.get("data-marks", "").split()), None]
        elif "data-store" in a:
            self.group = ("store", a["data-store"])
            self.view["stores"][a["data-store"]] = [int(a["data-count"]), None]
        elif tag == "text" and a.get("class") == "count" and self.group:
            self.text_to = ("count", self.group)
        elif tag == "text" and a.get("class") == "turn":
            self.view["turn"] = a.get("data-side")
        elif tag == "td" and a.get("id"):
            self.text_to = ("cell", a["id"])
            self.view["cells"][a["id"]] = ""
        elif tag == "p" and a.get("id") == "outcome":
            self.view["outcome"] = "hidden" not in a
            self.text_to = ("cell", "outcome")
            self.view["cells"]["outcome"] = ""

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop() != tag:
            pass
        self.text_to = None
        if tag == "g":
            self.group = None
        if self.view is not None and len(self.stack) < self.view["depth"]:
            self.views.append(self.view)
            self.view = None

    def handle_data(self, data):
        if self.view is None or self.text_to is None:
            return
        kind, key = self.text_to
        if kind == "cell":
            self.view["cells"][key] += data
        elif key[0] == "hole":
            self.view["holes"][key[1]][3] = int(data)
        else:
            self.view["stores"][key[1]][1] = int(data)


def chromium_dom(page, fragment):
    p = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                        "--dump-dom", f"file://{page}#{fragment}"],
                       capture_output=True, text=True, timeout=120)
    if p.returncode != 0 or "<html" not in p.stdout:
        sys.exit(f"FAIL: chromium --dump-dom {page}#{fragment}: status {p.returncode}: "
                 f"{p.stderr.strip()[-300:]}")
    return p.stdout


def hole_name(i, holes):
    return f"S{i + 1}" if i < holes else f"N{i - holes + 1}"


def check_view(view, steps, k, capture, end, what):
    """The view shows step k of the game as `replay` printed it."""
    s = steps[k]
    pits, stores, side = parse_apn(s["apn"])
    holes = len(pits) // 2
    check(sorted(view["holes"]) == list(range(2 * holes)),
          f"{what}: holes {sorted(view['holes'])}, expected 0 to {2 * holes - 1}")
    for i, (name, count, marks, shown) in view["holes"].items():
        check(name == hole_name(i, holes), f"{what}: hole {i} named {name}")
        check(count == pits[i] and shown == pits[i],
              f"{what}: hole {name}: data-count {count}, shown {shown}, replay's APN {pits[i]}")
    got = [view["stores"].get("S"), view["stores"].get("N")]
    check(got == [[stores[0], stores[0]], [stores[1], stores[1]]],
          f"{what}: stores {got}, replay's APN {stores}")
    over = s["event"] == "over"
    check(view["turn"] == ("-" if over else side),
          f"{what}: turn {view['turn']}, replay's APN {side} (event {s['event']})")
    cells = view["cells"]
    check(cells.get("ply") == str(s["ply"]), f"{what}: ply {cells.get('ply')}, expected {s['ply']}")
    check(cells.get("apn") == s["apn"], f"{what}: APN {cells.get('apn')!r}, replay {s['apn']!r}")
    check(cells.get("event") == s["event"],
          f"{what}: event {cells.get('event')}, replay {s['event']}")
    if k == 0:
        check(all(not m for _, _, m, _ in view["holes"].values()),
              f"{what}: the start has marks")
    else:
        check(cells.get("move") == hole_name(s["hole"], holes),
              f"{what}: move {cells.get('move')}, replay's hole {s['hole']}")
        check(cells.get("mover") == {"S": "South", "N": "North"}[s["mover"]],
              f"{what}: mover {cells.get('mover')}, replay {s['mover']}")
        marked = {m: {i for i, h in view["holes"].items() if m in h[2]}
                  for m in ("origin", "sown", "relay", "captured")}
        before_pits, before_stores, _ = parse_apn(steps[k - 1]["apn"])
        check(marked["origin"] == {s["hole"]} and before_pits[s["hole"]] > 0,
              f"{what}: origin marks {marked['origin']}, the move's hole {s['hole']}")
        check(marked["sown"] and marked["relay"] <= marked["sown"]
              and marked["captured"] <= marked["sown"],
              f"{what}: sown {marked['sown']}, relayed {marked['relay']}, captured "
              f"{marked['captured']}: relays and captures must have been sown into")
        gained = sum(stores) - sum(before_stores)
        check(gained % capture == 0 and gained >= capture * len(marked["captured"])
              and (gained > 0) == bool(marked["captured"]),
              f"{what}: the stores gained {gained}, captured holes {marked['captured']}")
        # Unchanged holes that were not sown into: a hole the move did not reach keeps its
        # seeds (the origin excepted).
        for i in range(2 * holes):
            if i not in marked["sown"] and i != s["hole"]:
                check(pits[i] == before_pits[i],
                      f"{what}: hole {hole_name(i, holes)} not marked sown changed "
                      f"{before_pits[i]} -> {pits[i]}")
        if s["event"] == "extra":
            check(marked["captured"], f"{what}: an extra move without a captured hole")
    last = k == len(steps) - 1
    check(view["outcome"] == last and (not last or cells.get("outcome") == end),
          f"{what}: outcome shown {view['outcome']} ({cells.get('outcome')!r}), last step {last}")


def expected_steps(keys, n):
    """The step shown after each key, from step 0, with n steps after the start."""
    at, out = 0, []
    for c in keys:
        at = {"n": at + 1, ">": at + 1, "p": at - 1, "<": at - 1, "f": 0, "l": n}[c]
        at = max(0, min(n, at))
        out.append(at)
    return out


def check_search_page(d):
    """`search --html`: the start, then each move of the principal variation, as `anywoli
    move` plays them, by the same page."""
    out = anywoli("search", "--holes", "6", "--depth", "6", "--json", "--html", "pv.html", cwd=d)
    pv = json.loads(out.splitlines()[-1])["pv"]
    played = anywoli("move", "--holes", "6", *[str(m) for m in pv], cwd=d).splitlines()
    steps = [{"ply": 0, "mover": None, "hole": None, "event": "start",
              "apn": "4,4,4,4,4,4/4,4,4,4,4,4 0/0 S - -"}]
    for i, (m, line) in enumerate(zip(pv, played)):
        words = line.split()
        steps.append({"ply": i + 1, "mover": steps[-1]["apn"].split()[2], "hole": m,
                      "apn": " ".join(words[:5]), "event": words[5]})
    end = f"the end of the principal variation ({len(pv)} plies): {steps[-1]['apn']}"
    keys = "n" * len(pv) + "f"
    views = Views(True)
    views.feed(chromium_dom(os.path.join(d, "pv.html"), "press=" + keys))
    check(len(pv) >= 4 and len(views.views) == len(keys),
          f"search's page: {len(views.views)} copies for {len(keys)} keys, pv {pv}")
    for i, (view, k) in enumerate(zip(views.views, expected_steps(keys, len(pv)))):
        check_view(view, steps, k, 4, end, f"search's page: key {i + 1}, step {k}")


def main():
    if not check(shutil.which("chromium") is not None,
                 "chromium is not installed (scripts/setup.sh installs Debian's package "
                 "`chromium`): the page cannot be read"):
        sys.exit(1)
    with tempfile.TemporaryDirectory() as d:
        anywoli("run", "--holes", "6", "--agent-a", "random", "--agent-b", "greedy", "--seed",
                "5", "--record-moves", "--games", "4", "--quiet", "-o", "r.h5", cwd=d)
        for game in ("1", "2"):
            text = anywoli("replay", "r.h5", "--job", "main", "--game", game, cwd=d)
            steps, end = replay_steps(text, 6)
            n = len(steps) - 1
            check(n >= 10 and any(s["event"] == "extra" for s in steps),
                  f"game {game}: {n} plies: too short to show captures")
            page = os.path.join(d, f"game{game}.html")
            anywoli("replay", "r.h5", "--job", "main", "--game", game, "--quiet", "--html",
                    page, cwd=d)
            # Every step forwards, back three, the arrow keys, Last, First, Last again.
            keys = "n" * n + "ppp" + ">" + "<<" + "lf" + ">" + "l"
            views = Views(True)
            views.feed(chromium_dom(page, "press=" + keys))
            want = expected_steps(keys, n)
            check(len(views.views) == len(keys),
                  f"game {game}: {len(views.views)} copies of the view for {len(keys)} keys")
            for i, (view, k) in enumerate(zip(views.views, want)):
                check(view["step"] == str(k), f"game {game}: key {i + 1} ({keys[i]}): step "
                                              f"{view['step']}, expected {k}")
                check_view(view, steps, k, 4, end, f"game {game}: key {i + 1} ({keys[i]}), "
                                                   f"step {k}")
            # A link to a ply: #ply=K presses Next K times as the page loads.
            k = n // 2
            own = Views(False)
            own.feed(chromium_dom(page, f"ply={k}"))
            if check(len(own.views) == 1, f"game {game}: #ply={k}: no view"):
                check_view(own.views[0], steps, k, 4, end, f"game {game}: #ply={k}")
        check_search_page(d)
    print(f"{checks - len(failures)} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
