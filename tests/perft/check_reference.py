#!/usr/bin/env python3
"""check_reference.py: the Python reference (perft_reference.py) against the test data.

    check_reference.py PERFT_DIR TEST_RULES_C [DEPTH]

1. It reproduces the perft table of docs/rules.md from the start positions up to DEPTH (default 4).
2. It agrees with every line of PERFT_DIR/*.txt up to DEPTH (the files were made with it to
   their full depth; this catches an edited count or a changed reference).
3. It gives the expected result of every case of the `rule_cases` table of test_rules.c.
Exit status 0 when all agree, 1 otherwise.
"""

import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import perft_reference as ref  # noqa: E402


def rules_for(opts):
    """A Rules from `name=value` options (variant=NAME first); says if seeds were given."""
    rules = ref.Rules()
    seeds_given = False
    for tok in opts.split():
        name, value = tok.split("=")
        if name == "variant":
            rules.holes, rules.seeds = ref.PRESETS[value]
            seeds_given = True
    for tok in opts.split():
        name, value = tok.split("=")
        if name in ("holes", "seeds", "capture"):
            setattr(rules, name, int(value))
            seeds_given |= name == "seeds"
        elif name in ("extra_turn", "skip_origin"):
            setattr(rules, name, value == "yes")
    return rules, seeds_given


def position(opts, apn):
    rules, seeds_given = rules_for(opts)
    if apn == "start":
        return rules, ref.start(rules)
    return rules, ref.parse_apn(apn, rules, seeds_given)


def check_perft_files(perft_dir, depth):
    bad = 0
    for name in sorted(os.listdir(perft_dir)):
        if not name.endswith(".txt"):
            continue
        preset = name[:-4]
        for num, line in enumerate(open(os.path.join(perft_dir, name)), 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            if preset in ref.PRESETS:
                opts, rest = "variant=" + preset, line
            else:
                opts, rest = line.split("|", 1)
            apn, counts = rest.split(" ;", 1)
            want = [int(f.split()[1]) for f in counts.split(" ;")]
            rules, pos = position(opts, apn)
            got = ref.perft_all(rules, pos, min(depth, len(want)))
            if got != want[:len(got)]:
                print("%s:%d: reference %s, file %s" % (name, num, got, want[:len(got)]))
                bad += 1
    return bad


CASE = re.compile(r'\{\s*"([^"]*)",\s*"([^"]*)",\s*(\d+),\s*"([^"]*)",\s*"([^"]*)",'
                  r'\s*(-?\d+),\s*(-?\d+),\s*(-?\d+),\s*(-?\d+)\s*\}')


def check_rule_cases(path):
    text = open(path).read()
    start = text.index("rule_cases[] = {")
    table = text[start:text.index("};", start)]
    cases = CASE.findall(table)
    if not cases:
        print("no rule cases found in %s" % path)
        return 1
    bad = 0
    for opts, before, move, after, event, laps, mid, final, passed in cases:
        rules, pos = position(opts, before)
        got_event, got, info = ref.play(rules, pos, int(move))
        want = {"laps": int(laps), "mid": int(mid), "final": int(final), "passed": int(passed)}
        if got_event == "endless":
            want["laps"] = -1   # the bound's lap count is not the engine's
        ok = got.apn(rules) == after and got_event == event
        ok &= all(w < 0 or info[k] == w for k, w in want.items())
        if not ok:
            print("rule case [%s] %s move %s: reference '%s %s' %s, table '%s %s' %s"
                  % (opts, before, move, got.apn(rules), got_event, info, after, event, want))
            bad += 1
    print("%d rule cases checked" % len(cases))
    return bad


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    depth = int(sys.argv[3]) if len(sys.argv) == 4 else 4
    bad = 0
    for name, want in ref.RULES_TABLE.items():
        rules = ref.Rules(*ref.PRESETS[name])
        got = ref.perft_all(rules, ref.start(rules), depth)
        if got != want[:depth]:
            print("docs/rules.md table, %s: reference %s, table %s" % (name, got, want[:depth]))
            bad += 1
    bad += check_perft_files(sys.argv[1], depth)
    bad += check_rule_cases(sys.argv[2])
    print("ok" if not bad else "%d disagreements" % bad)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
