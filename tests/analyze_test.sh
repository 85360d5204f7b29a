#!/usr/bin/env bash
# analyze_test.sh: `anywoli analyze` end to end.
#
#   analyze_test.sh PATH/TO/anywoli TESTS_DIR [PYTHON]
#
# Runs a small experiment (a convention sweep of random players and a random-greedy match),
# analyses it as tables, JSON and an HTML report, and checks with analyze_check.py that the
# tables and the JSON agree and that the report's images are PNG files. Then the bad inputs:
# not a results file, another format_version, a damaged file, an unknown job, a bad --sprt,
# and --report without gnuplot: one stderr line each, exit status 2 (1 for gnuplot).
set -u

bin=$1
tests=$2
python=${3:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
checks=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# expect_status WANT SUBSTRING ARGS...: exit status WANT and one stderr line with SUBSTRING.
expect_status() {
    local want=$1 sub=$2
    shift 2
    "$bin" analyze "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$? lines
    lines=$(wc -l <"$tmp/err")
    checks=$((checks + 1))
    [[ $rc -eq $want && $lines -eq 1 ]] && grep -q -- "$sub" "$tmp/err" \
        || fail "analyze $*: status $rc (want $want), stderr: $(head -c 300 "$tmp/err")"
}

cat >"$tmp/e2e.cfg" <<'CFG'
seed = 7L;
output = "e2e.h5";
defaults = { variant = "anywoli"; };
jobs = (
  { name = "rr"; agent_a = "random"; agent_b = "random"; games = 600L;
    final_four = ["penultimate", "lottery"]; },
  { name = "rg"; agent_a = "random"; agent_b = "greedy"; games = 200L; }
);
CFG
"$bin" run "$tmp/e2e.cfg" -o "$tmp/e2e.h5" --quiet --threads 2 >/dev/null \
    || { echo "FAIL: anywoli run" >&2; exit 1; }
f=$tmp/e2e.h5

# The three forms of output, and their agreement.
"$bin" analyze "$f" >"$tmp/tables.txt" 2>"$tmp/err" || fail "analyze (tables): $(cat "$tmp/err")"
"$bin" analyze "$f" --json >"$tmp/doc.json" 2>"$tmp/err" || fail "analyze --json: $(cat "$tmp/err")"
if command -v gnuplot >/dev/null; then
    "$bin" analyze "$f" --report "$tmp/report" >"$tmp/tables2.txt" 2>"$tmp/err" \
        || fail "analyze --report: $(cat "$tmp/err")"
    cmp -s "$tmp/tables.txt" "$tmp/tables2.txt" || fail "--report changed the tables"
    "$python" "$tests/analyze_check.py" "$tmp/tables.txt" "$tmp/doc.json" "$tmp/report" \
        || fail "tables, JSON and report disagree"
    checks=$((checks + 1))
else
    echo "analyze_test: gnuplot missing: the report is not checked" >&2
fi
for want in "== job rr-final_four=penultimate" "== job rg" "== between jobs" \
            "Here both agents are convention-blind" "Here B looks at the convention" \
            "colour-balanced" "McNemar exact tests" "Metrics (Ludii style)"; do
    checks=$((checks + 1))
    grep -qF -- "$want" "$tmp/tables.txt" || fail "tables lack '$want'"
done
# Two agents that see the convention: the sentence agrees with its plural subject.
"$bin" run --agent-a greedy --agent-b greedy --games 20 --seed 3 -o "$tmp/gg.h5" --quiet \
    >/dev/null || fail "anywoli run (greedy pair)"
"$bin" analyze "$tmp/gg.h5" >"$tmp/gg.txt" 2>"$tmp/err" || fail "analyze gg: $(cat "$tmp/err")"
checks=$((checks + 1))
grep -qF "Here A and B look at the convention:" "$tmp/gg.txt" \
    || fail "greedy pair: $(grep -F 'Here ' "$tmp/gg.txt")"

# Ludii's "advantage" (South's wins over finished games) is named apart from the first-player
# advantage (South minus North), in the text and the JSON.
checks=$((checks + 1))
grep -q "^  south win rate .*South wins / finished games (Ludii's \"advantage\")" "$tmp/tables.txt" \
    || fail "metrics: no south win rate row"
"$python" - "$tmp/doc.json" <<'PY' || fail "metrics: south_win_rate"
import json, sys
for job in json.load(open(sys.argv[1]))["jobs"]:
    m = job["metrics"]
    assert "advantage" not in m and set(m["south_win_rate"]) == {"value", "lo", "hi"}, m
    assert abs(m["south_win_rate"]["value"] - job["outcomes"]["south"]["rate"]) < 1e-12, m
PY
checks=$((checks + 1))

# --job and --sprt.
"$bin" analyze "$f" --job rg --sprt -10,10,0.05,0.1 --json >"$tmp/one.json" \
    || fail "analyze --job rg --sprt"
"$python" - "$tmp/one.json" <<'PY' || fail "--job/--sprt JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert [j["name"] for j in d["jobs"]] == ["rg"], d["jobs"]
s = d["jobs"][0]["agents"]["sprt"]
assert s["decision"] == "accept_h0" and s["beta"] == 0.1 and s["llr"] < s["lower"], s
assert d["between_jobs"] is None
PY
checks=$((checks + 1))

# The advantage against skill and the opening as unit (tests/data/skill/skill.cfg): two
# self-play designs (a book of three openings, and the start), pairs that repeat openings,
# a plies:2 job whose pairs do not, a match from the book. analyze_check.py recomputes every
# pair statistic and every skill cell from the file with h5py and numpy/scipy.
mkdir "$tmp/skill" && cp "$tests"/data/skill/* "$tmp/skill/"
(cd "$tmp/skill" && "$bin" run skill.cfg -o skill.h5 --quiet --threads 2 >/dev/null) \
    || fail "anywoli run (skill)"
s=$tmp/skill/skill.h5
"$bin" analyze "$s" --sprt 0,10 >"$tmp/skill.txt" 2>"$tmp/err" \
    || fail "analyze (skill): $(cat "$tmp/err")"
"$bin" analyze "$s" --sprt 0,10 --json >"$tmp/skill.json" 2>"$tmp/err" \
    || fail "analyze --json (skill): $(cat "$tmp/err")"
if command -v gnuplot >/dev/null; then
    "$bin" analyze "$s" --sprt 0,10 --report "$tmp/skill-report" >/dev/null 2>"$tmp/err" \
        || fail "analyze --report (skill): $(cat "$tmp/err")"
    "$python" "$tests/analyze_check.py" "$tmp/skill.txt" "$tmp/skill.json" \
        "$tmp/skill-report" "$s" || fail "skill: tables, JSON, report and the file disagree"
    checks=$((checks + 1))
fi
# The root design (tests/data/root/root.cfg): self-play from every first move and every
# two-ply line; root_check.py recomputes each line, the minimax, the held-out estimate and
# the simultaneous bounds from the file, and who plays each second ply with `anywoli move`.
mkdir "$tmp/root" && cp "$tests"/data/root/root.cfg "$tmp/root/"
(cd "$tmp/root" && "$bin" run root.cfg -o root.h5 --quiet --threads 2 >/dev/null) \
    || fail "anywoli run (root)"
"$bin" analyze "$tmp/root/root.h5" --json >"$tmp/root.json" 2>"$tmp/err" \
    || fail "analyze --json (root): $(cat "$tmp/err")"
"$bin" analyze "$tmp/root/root.h5" >"$tmp/root.txt" 2>"$tmp/err" \
    || fail "analyze (root): $(cat "$tmp/err")"
grep -q "best line, held out (two halves)" "$tmp/root.txt" \
    && grep -q "best line's true value, simultaneous" "$tmp/root.txt" \
    && grep -q "best line (held out)" "$tmp/root.txt" \
    && grep -q "  simultaneous bounds  " "$tmp/root.txt" \
    || fail "analyze (root): no root section, no held-out or simultaneous row, or none in the skill table"
"$python" "$tests/root_check.py" "$bin" "$tmp/root/root.h5" "$tmp/root.json" \
    || fail "root: the JSON's root design and the file disagree"
checks=$((checks + 1))
# People read the lines by the holes' names (S5 N5), programs by indices from 0 (`moves`).
"$python" - "$tmp/root.json" "$tmp/root.txt" <<'PY' || fail "root: lines named by their holes"
import json, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
for job in d["jobs"]:
    r, h = job["root"], job["variant"]["holes"]
    if r is None:
        continue
    for line in r["lines"]:
        want = ["S%d" % (m + 1) if m < h else "N%d" % (m - h + 1) for m in line["moves"]]
        assert line["names"] == want, (line, want)
    naive = r["lines"][r["naive"]["line"]]["names"]
    rows = [l for l in text.splitlines() if l.startswith("  best line, naive")]
    assert any(l.rstrip().endswith(" ".join(naive)) or (" ".join(naive) + " ") in l
               for l in rows), (rows, naive)
PY
checks=$((checks + 1))
# Its figures with the unit an all:N design calls for (the opening: each line is played by
# several pairs), recomputed from the file as for the designs above.
if command -v gnuplot >/dev/null; then
    "$bin" analyze "$tmp/root/root.h5" --report "$tmp/root-report" >/dev/null 2>"$tmp/err" \
        || fail "analyze --report (root): $(cat "$tmp/err")"
    "$python" "$tests/analyze_check.py" "$tmp/root.txt" "$tmp/root.json" "$tmp/root-report" \
        "$tmp/root/root.h5" || fail "root: tables, JSON, report and the file disagree"
    checks=$((checks + 1))
fi

# Each job stores the full spec its agents played beside the spec as given, as `anywoli
# agents SPEC` prints it; analyze shows it and labels players by it. A file written before
# the attribute says that the played spec is not known.
"$python" - "$bin" "$s" "$tmp/skill.json" "$tmp/skill.txt" "$tmp/old.h5" <<'PY' \
    || fail "played specs"
import json, shutil, subprocess, sys
import h5py
bin_, path, doc_path, text_path, old = sys.argv[1:6]
doc = json.load(open(doc_path))
text = open(text_path).read()
for job in doc["jobs"]:
    for side in "ab":
        full = subprocess.run([bin_, "agents", job["agent_" + side]], check=True,
                              capture_output=True, text=True).stdout.strip()
        assert job["agent_%s_played" % side] == full, (job["name"], full)
        with h5py.File(path, "r") as f:
            stored = f["jobs"][job["name"]].attrs["agent_%s_played" % side]
        assert (stored.decode() if isinstance(stored, bytes) else stored) == full
    assert "played: A %s\n" % job["agent_a_played"] in text, job["name"]
ab = [j for j in doc["jobs"] if j["agent_a"].startswith("alphabeta:depth=1,ties=first")][0]
assert ab["agent_a_label"] == ab["agent_a"] + " [plain weights]", ab["agent_a_label"]
shutil.copy(path, old)
with h5py.File(old, "r+") as f:
    for g in f["jobs"].values():
        del g.attrs["agent_a_played"]
        del g.attrs["agent_b_played"]
out = subprocess.run([bin_, "analyze", old, "--json"], check=True, capture_output=True,
                     text=True).stdout
for job in json.loads(out)["jobs"]:
    assert job["agent_a_played"] is None and job["agent_b_played"] is None, job["name"]
    assert job["agent_a_label"] == job["agent_a"] + " [played spec unknown]"
out = subprocess.run([bin_, "analyze", old], check=True, capture_output=True, text=True).stdout
assert "played: not known (the file has no agent_a_played attribute" in out
PY
checks=$((checks + 1))
# Every comparison with the unit its design calls for (docs/analyze.md, "The unit of every
# comparison"): the book's pairs repeat openings, so the between-jobs table gives those jobs
# the opening as unit, the tests that count games (chi-square, the length tests, binomial,
# McNemar) are not made for them, and two jobs' advantages are compared with Welch's t, each
# with its own unit; random players from the start keep their game tests.
"$python" - "$tmp/skill.json" "$tmp/skill.txt" <<'PY' || fail "units between jobs"
import json, math, sys
from scipy import stats
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
jobs = {j["name"]: j for j in d["jobs"]}
assert jobs["start-random-final_four=penultimate"]["games_independent"] is True
for name in ("book-ab1-final_four=penultimate", "book-random-final_four=lottery", "plies-ab1"):
    assert jobs[name]["games_independent"] is False, name
    conv = jobs[name]["conventions"]
    assert "p_binomial" not in conv["penultimate"] and "p_t" in conv["penultimate"] and conv["mcnemar"][0]["south_won"]["p"] is None
table = text.split("== between jobs", 1)[1]
row = [l for l in table.splitlines() if l.startswith("book-ab1-final_four=penultimate ")][0]
adv = jobs["book-ab1-final_four=penultimate"]["pairs"]["advantage"]
assert "3 openings" in row and "%.4f [%.4f, %.4f]" % (adv["value"], adv["lo"], adv["hi"]) in row, row
assert d["between_jobs"]["chi_square_outcomes"] is None
assert "chi-square of the outcome counts over all jobs: not made" in table
welch = 0
for q in d["between_jobs"]["pairs"]:
    x, y = jobs[q["first"]], jobs[q["second"]]
    both = x["games_independent"] and y["games_independent"]
    assert q["game_tests"] == both and (q["chi_square_outcomes"] is None) == (not both), q
    ax, ay = x["pairs"]["advantage"], y["pairs"]["advantage"]
    diff = q["advantage_difference"]
    assert abs(diff["value"] - (ax["value"] - ay["value"])) < 1e-12, q
    if ax["degenerate"] or ay["degenerate"]:
        assert diff["p"] is None, q
        continue
    if ax["unit"] == ay["unit"] == "pair":
        vx, vy = ax["sd"] ** 2 / ax["pairs"], ay["sd"] ** 2 / ay["pairs"]
        df = (vx + vy) ** 2 / (vx ** 2 / (ax["pairs"] - 1) + vy ** 2 / (ay["pairs"] - 1))
        p = 2 * stats.t.sf(abs(diff["value"]) / math.sqrt(vx + vy), df)
        assert abs(diff["p"] - p) < 1e-9 and abs(diff["df"] - df) < 1e-9, (q, p, df)
        welch += 1
assert welch >= 1, "no pair-unit comparison recomputed"
PY
checks=$((checks + 1))

# One player under three conventions is a design of the advantage against skill (its sweep
# over holes is checked with the plots below).
cat >"$tmp/conv3.cfg" <<'CFG'
seed = 5L;
output = "conv3.h5";
defaults = { variant = "anywoli"; games = 24L; };
jobs = (
  { name = "r"; agent_a = "random"; agent_b = "random"; holes = [6, 8];
    final_four = ["penultimate", "first-final", "lottery"]; }
);
CFG
"$bin" run "$tmp/conv3.cfg" -o "$tmp/conv3.h5" --quiet --threads 2 >/dev/null \
    || fail "anywoli run (conv3)"
"$bin" analyze "$tmp/conv3.h5" --json >"$tmp/conv3.json" || fail "analyze (conv3)"
"$python" - "$tmp/conv3.json" <<'PY' || fail "one rung under three conventions"
import json, sys
d = json.load(open(sys.argv[1]))
assert [x["rungs"] for x in d["skill"]] == [["random"], ["random"]], d["skill"]
assert all(x["conventions"] == ["penultimate", "first-final", "lottery"] for x in d["skill"])
PY
checks=$((checks + 1))

# Ratings from matches whose games follow few lines (deterministic alpha-beta from the start)
# carry the warning in the text, the JSON and every caption of the report; from a book whose
# lines repeat, their intervals are widened by the largest design effect.
cat >"$tmp/fewlines.cfg" <<'CFG'
seed = 3L;
output = "ladder.h5";
defaults = { variant = "anywoli"; games = 40L; };
jobs = (
  { name = "ab2-ab1"; agent_a = "alphabeta:depth=2,ties=first"; agent_b = "alphabeta:depth=1,ties=first"; },
  { name = "ab1-g"; agent_a = "alphabeta:depth=1,ties=first"; agent_b = "greedy"; },
  { name = "ab2-g"; agent_a = "alphabeta:depth=2,ties=first"; agent_b = "greedy"; }
);
CFG
"$bin" run "$tmp/fewlines.cfg" -o "$tmp/fewlines.h5" --quiet --threads 2 >/dev/null \
    || fail "anywoli run (ladder)"
"$bin" run "$tmp/fewlines.cfg" --openings "file:$tmp/skill/book.txt" -o "$tmp/fewlines-book.h5" \
    --quiet --threads 2 >/dev/null || fail "anywoli run (ladder from the book)"
"$bin" analyze "$tmp/fewlines.h5" >"$tmp/fewlines.txt" || fail "analyze (ladder)"
"$bin" analyze "$tmp/fewlines.h5" --json >"$tmp/fewlines.json" || fail "analyze --json (ladder)"
"$bin" analyze "$tmp/fewlines-book.h5" --json >"$tmp/fewlines-book.json" || fail "analyze (book ladder)"
checks=$((checks + 1))
grep -q "^warning: the games of rated jobs follow few lines, so these ratings describe those lines" \
    "$tmp/fewlines.txt" || fail "ladder: no few-lines warning above the ratings"
"$python" - "$tmp/fewlines.json" "$tmp/fewlines-book.json" <<'PY' || fail "ratings' unit"
import json, sys
few, book = (json.load(open(p))["ratings"] for p in sys.argv[1:3])
assert few["few_lines_jobs"], few
assert book["few_lines_jobs"] == [] and book["design_effect"] > 1, book
assert book["design_effect_job"] is not None, book
PY
checks=$((checks + 1))
if command -v gnuplot >/dev/null; then
    "$bin" analyze "$tmp/fewlines.h5" --report "$tmp/fewlines-report" >/dev/null \
        || fail "analyze --report (ladder)"
    checks=$((checks + 1))
    [[ $(grep -c "Warning: the games of .* follow few lines" "$tmp/fewlines-report/index.html") -ge 4 ]] \
        || fail "ladder report: the captions lack the few-lines warning"
fi

for want in "opening as unit: 3 openings, 8 pairs each" "  opening unit " \
            "First-player advantage against skill" "design 2: openings start;" \
            "the SPRT assumes independent pairs, but here pairs repeat openings"; do
    checks=$((checks + 1))
    grep -qF -- "$want" "$tmp/skill.txt" || fail "skill tables lack '$want'"
done
# A rung label longer than the column is a line of its own, its cells on the next line.
checks=$((checks + 1))
grep -qx "  alphabeta:depth=1,margin=2,choice_moves=20,w.store=1,w.seeds=0.1,w.threes=0,w.opp_threes=0,w.empty=0,w.opp_empty=0,w.final=0,fade=0 \[plain weights\]" "$tmp/skill.txt" \
    || fail "skill tables: the long rung label is not on a line of its own"

"$python" - "$tmp/skill.json" "$(dirname "$0")" <<'PY' || fail "skill JSON"
import json, sys
d = json.load(open(sys.argv[1]))
jobs = {j["name"]: j for j in d["jobs"]}
for name, unit, units in (("book-ab1-final_four=penultimate", "opening", 3),
                          ("book-match", "opening", 3), ("plies-ab1", "pair", 24),
                          ("start-random-final_four=penultimate", "pair", 24)):
    for key in ("advantage", "score"):
        got = jobs[name]["pairs"][key]
        assert (got["unit"], got["units"]) == (unit, units), (name, key, got)
ab = jobs["book-ab1-final_four=penultimate"]
# Deterministic agents from three openings: three games, and an interval far wider than the
# game-unit one.
assert ab["distinct_games"]["distinct"] == 3, ab["distinct_games"]
adv = ab["pairs"]["advantage"]
sys.path.insert(0, sys.argv[2])
import stats_reference as ref
o = ab["outcomes"]
n = o["south"]["count"] + o["north"]["count"] + o["draw"]["count"]
glo, ghi = ref.tango(o["south"]["count"], o["north"]["count"], n, 0.95)[1:]
assert adv["hi"] - adv["lo"] > 2 * (ghi - glo), (adv, glo, ghi)
# and the job's advantage is given with that unit only
assert (ab["advantage"]["lo"], ab["advantage"]["hi"]) == (adv["lo"], adv["hi"]), ab["advantage"]
assert jobs["book-match"]["pairs"]["sprt"]["pairs_repeat_openings"] is True
assert jobs["plies-ab1"]["pairs"]["sprt"]["pairs_repeat_openings"] is False
sk = d["skill"]
assert [x["openings"] for x in sk] == ["file:book.txt", "start"], sk
assert sk[0]["conventions"] == ["penultimate", "first-final", "lottery"], sk[0]
assert sk[0]["rungs"] == ["random", "alphabeta:depth=1,ties=first,w.seeds=0.1,w.threes=0,w.opp_threes=0,w.empty=0,w.opp_empty=0,w.final=0,fade=0"], sk[0]["rungs"]
assert sk[0]["cells"][1][2] is None, sk[0]["cells"]
assert sk[0]["cells"][0][2]["job"] == "book-random-final_four=lottery", sk[0]["cells"]
assert sk[1]["conventions"] == ["penultimate", "first-final"], sk[1]
# A book job and a start job of the same agents are not one parameter apart.
for p in d["between_jobs"]["pairs"]:
    assert p["first"].split("-")[0] == p["second"].split("-")[0], p
PY
checks=$((checks + 1))

# Work per move: each agent's nodes (playouts) over the moves it chose, from the file's columns
# with h5py; the moves chosen are every ply after the opening's.
"$python" - "$tmp/skill.json" "$s" "$tmp/skill.txt" <<'PY' || fail "work per move"
import json, sys, h5py, numpy as np
d = json.load(open(sys.argv[1]))
text = open(sys.argv[3]).read()
with h5py.File(sys.argv[2], "r") as h:
    for job in d["jobs"]:
        g = h["jobs"][job["name"]]["games"][:]
        ops = h["jobs"][job["name"]]["openings"]
        given = {int(r["index"]): len(r["moves"].split()) for r in ops[:]}
        opening_plies = np.array([given.get(int(o), 0) for o in g["opening"]])
        chosen = g["choices_a"].astype(np.int64) + g["choices_b"]
        assert np.array_equal(chosen, g["plies"].astype(np.int64) - opening_plies), job["name"]
        for side in ("a", "b"):
            w = job["work"][side]
            nodes, moves = int(g["nodes_" + side].sum()), int(g["choices_" + side].sum())
            assert (w["work"], w["moves"]) == (nodes, moves), (job["name"], side, w)
            assert w["per_move"] == (nodes / moves if moves else None), (job["name"], w)
        a = job["work"]["a"]
        want = "  A %s: %.1f %s a move (%d moves)" % (
            job["agent_a"], a["per_move"],
            "playouts" if job["agent_a"].startswith("mcts") else "nodes", a["moves"])
        assert want in text, want
PY
checks=$((checks + 1))

# Bad inputs.
printf 'plain text\n' >"$tmp/text.h5"
expect_status 2 "not an anywoli results file" "$tmp/text.h5"
expect_status 2 "missing.h5: cannot open: No such file" "$tmp/missing.h5"
head -c 3000 "$f" >"$tmp/truncated.h5"
expect_status 2 "anywoli analyze: " "$tmp/truncated.h5"
expect_status 2 "no job 'nope'" "$f" --job nope
# Not a regular file: refused at once (HDF5 would block in open() on a FIFO).
mkfifo "$tmp/fifo.h5"
expect_status 2 "fifo.h5: not a regular file (a FIFO)" "$tmp/fifo.h5"
expect_status 2 "$tmp: not a regular file (a folder)" "$tmp"
expect_status 2 "--sprt" "$f" --sprt 1
# Numbers strtod takes but the test cannot use: nan and inf (nan,nan printed 'LLR -nan ...
# continue'; 0,inf accepted H0), and Elo beyond the bound.
for bad in nan,nan 0,nan 0,inf -inf,0 0,10,nan,0.05 0,10,0.05,inf 1e300,1e301; do
    expect_status 2 "anywoli analyze: --sprt: '$bad' is not ELO0,ELO1" "$f" --sprt "$bad"
done
if "$python" -c "import h5py" 2>/dev/null; then
    cp "$f" "$tmp/v2.h5" && cp "$f" "$tmp/hist.h5" && cp "$f" "$tmp/nojobs.h5"
    "$python" - "$tmp" <<'PY'
import sys, h5py, numpy as np
t = sys.argv[1]
with h5py.File(t + "/v2.h5", "r+") as h:
    h.attrs["format_version"] = np.int64(2)
with h5py.File(t + "/hist.h5", "r+") as h:
    d = h["jobs/rg/length_histogram"]
    d[0] = d[0] + 5
with h5py.File(t + "/nojobs.h5", "r+") as h:
    del h["jobs/rg/games"]
PY
    expect_status 2 "format_version 2" "$tmp/v2.h5"
    expect_status 2 "length_histogram disagrees" "$tmp/hist.h5"
    expect_status 2 "table missing" "$tmp/nojobs.h5"
    # Untrusted values: each a one-line error naming file, job, game and field, exit 2, and
    # memory bounded by what the job's variant allows (rg: the standard board, 96 seeds,
    # max_plies 100000), never by one value of the file.
    "$python" - "$f" "$tmp" <<'PY'
import shutil, sys, h5py, numpy as np
src, t = sys.argv[1], sys.argv[2]
def forged(name, field, value, row=5):
    shutil.copy(src, f"{t}/{name}.h5")
    with h5py.File(f"{t}/{name}.h5", "r+") as h:
        d = h["jobs/rg/games"]
        r = d[row]
        r[field] = value
        d[row] = r
forged("outcome", "outcome", 99)
forged("south", "south", 65535)
forged("plies3e8", "plies", 300000000)
forged("plies4e9", "plies", 4000000000)
forged("index", "game", 7)
forged("lottery", "lottery", 5)
shutil.copy(src, f"{t}/bighist.h5")
with h5py.File(f"{t}/bighist.h5", "r+") as h:
    del h["jobs/rg/length_histogram"]
    h["jobs/rg"].create_dataset("length_histogram", shape=(2**40,), dtype="<i8",
                                chunks=(4096,))
# A job that claims a cap past what a config may set, with a game of that length: the cap
# bounds the histogram's memory only if it is held to the config's range.
shutil.copy(src, f"{t}/cap.h5")
with h5py.File(f"{t}/cap.h5", "r+") as h:
    h["jobs/rg"].attrs["max_plies"] = np.int64(4000000000)
    d = h["jobs/rg/games"]
    r = d[5]
    r["plies"] = 4000000000
    d[5] = r
shutil.copy(src, f"{t}/seed.h5")
with h5py.File(f"{t}/seed.h5", "r+") as h:
    h.attrs["seed"] = np.int64(-1)
PY
    expect_status 2 "outcome.h5: job rg: game 5: damaged row (outcome 99, expected 0 to 4)" \
        "$tmp/outcome.h5"
    expect_status 2 "job rg: game 5: damaged row (south 65535 + north" "$tmp/south.h5"
    expect_status 2 "game 5: damaged row (plies 300000000, expected 1 to max_plies 100000)" \
        "$tmp/plies3e8.h5"
    expect_status 2 "game 5: damaged row (plies 4000000000, expected 1 to max_plies 100000)" \
        "$tmp/plies4e9.h5"
    expect_status 2 "game 5: damaged row (game 7 in row 5)" "$tmp/index.h5"
    expect_status 2 "game 5: damaged row (lottery 5, expected 0 or 1)" "$tmp/lottery.h5"
    expect_status 2 "job rg: damaged results file (length_histogram of 1099511627776 bins" \
        "$tmp/bighist.h5"
    expect_status 2 "max_plies: 4000000000 is out of range (at most 10000000)" "$tmp/cap.h5"
    expect_status 2 "seed.h5: damaged results file (root attribute seed -1, expected 0 to" \
        "$tmp/seed.h5"
else
    echo "analyze_test: h5py missing: other-version and damaged files are not checked" >&2
fi
# A round robin of four agents on a small board: a Bradley-Terry-Davidson fit with a rating
# for every agent (random anchored at 0) that orders them as their results do.
cat >"$tmp/ladder.cfg" <<'CFG'
seed = 5L;
output = "ladder.h5";
defaults = { holes = 6; games = 400L; max_plies = 20000; };
jobs = (
  { name = "random-greedy"; agent_a = "random"; agent_b = "greedy"; },
  { name = "random-ab2"; agent_a = "random"; agent_b = "alphabeta:depth=2"; },
  { name = "greedy-ab2"; agent_a = "greedy"; agent_b = "alphabeta:depth=2"; },
  { name = "greedy-mcts"; agent_a = "greedy"; agent_b = "mcts:playouts=100"; },
  { name = "ab2-mcts"; agent_a = "alphabeta:depth=2"; agent_b = "mcts:playouts=100"; },
  { name = "random-mcts"; agent_a = "random"; agent_b = "mcts:playouts=100"; }
);
CFG
"$bin" run "$tmp/ladder.cfg" -o "$tmp/ladder.h5" --quiet --threads 2 >/dev/null \
    || fail "anywoli run (ladder)"
"$bin" analyze "$tmp/ladder.h5" --json >"$tmp/ladder.json" 2>"$tmp/err" \
    || fail "analyze --json (ladder): $(cat "$tmp/err")"
checks=$((checks + 1))
"$python" - "$tmp/ladder.json" <<'PY' || fail "ladder ratings"
import json, sys
r = json.load(open(sys.argv[1]))["ratings"]
assert r["status"] == 0, r
got = {a["agent"]: a for a in r["agents"]}
assert set(got) == {"random", "greedy", "alphabeta:depth=2", "mcts:playouts=100"}, got
assert got["random"]["rating"] == 0
assert got["greedy"]["lo"] > 0, got["greedy"]
assert got["alphabeta:depth=2"]["lo"] > got["greedy"]["hi"], got
for a in got.values():
    assert a["lo"] <= a["rating"] <= a["hi"], a
assert r["prior"]["sd"] == 400 and r["prior"]["kind"].startswith("gaussian"), r["prior"]
PY
# The crosstable: one entry per pair of agents that met, the first of each in rating order,
# with A's points (W + D/2) over the finished games of the pair's jobs, as the jobs count them.
checks=$((checks + 1))
"$python" - "$tmp/ladder.json" <<'PY' || fail "ladder crosstable"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["ratings"]
rating = {a["agent"]: a["rating"] for a in r["agents"]}
want = {}
for j in d["jobs"]:
    m = j["agents"]
    key = frozenset((j["agent_a"], j["agent_b"]))
    g, pts = want.get(key, (0, {}))
    pts = dict(pts)
    pts[j["agent_a"]] = pts.get(j["agent_a"], 0) + m["a_wins"] + m["draws"] / 2
    pts[j["agent_b"]] = pts.get(j["agent_b"], 0) + m["a_losses"] + m["draws"] / 2
    want[key] = (g + m["a_wins"] + m["draws"] + m["a_losses"], pts)
cross = r["crosstable"]
assert len(cross) == len(want) == 6, cross
for c in cross:
    g, pts = want[frozenset((c["a"], c["b"]))]
    assert rating[c["a"]] >= rating[c["b"]], c
    assert c["games"] == g and c["points_a"] == pts[c["a"]], (c, g, pts)
    assert abs(c["score_a"] - pts[c["a"]] / g) < 1e-15, c
PY
"$bin" analyze "$tmp/ladder.h5" >"$tmp/ladder.txt" || fail "analyze (ladder)"
checks=$((checks + 1))
grep -q '^Crosstable (points of the row agent' "$tmp/ladder.txt" || fail "ladder crosstable text"
grep -q 'maximum a posteriori with a Gaussian prior of sd 400 Elo' "$tmp/ladder.txt" \
    || fail "ladder ratings header names the prior"

# A lopsided ladder (20 games a pair on the standard board; random never wins or draws):
# without the prior the ratings are infinite ("no fit"); with it they are finite, ordered as
# the results, and the text says the prior keeps them finite.
cat >"$tmp/lopsided.cfg" <<'CFG'
seed = 5L;
output = "lopsided.h5";
defaults = { games = 20L; };
jobs = (
  { name = "random-greedy"; agent_a = "random"; agent_b = "greedy"; },
  { name = "random-ab2"; agent_a = "random"; agent_b = "alphabeta:depth=2"; },
  { name = "greedy-ab2"; agent_a = "greedy"; agent_b = "alphabeta:depth=2"; }
);
CFG
"$bin" run "$tmp/lopsided.cfg" -o "$tmp/lopsided.h5" --quiet --threads 2 >/dev/null \
    || fail "anywoli run (lopsided)"
"$bin" analyze "$tmp/lopsided.h5" --json >"$tmp/lopsided.json" || fail "analyze --json (lopsided)"
"$bin" analyze "$tmp/lopsided.h5" >"$tmp/lopsided.txt" || fail "analyze (lopsided)"
checks=$((checks + 1))
"$python" - "$tmp/lopsided.json" <<'PY' || fail "lopsided ladder: finite ratings with the prior"
import json, math, sys
r = json.load(open(sys.argv[1]))["ratings"]
assert r["status"] == 0 and r["data_finite"] is False, r
got = {a["agent"]: a for a in r["agents"]}
for a in got.values():
    assert all(math.isfinite(a[k]) for k in ("rating", "se", "lo", "hi")), a
assert got["alphabeta:depth=2"]["rating"] > got["greedy"]["rating"] > got["random"]["rating"]
assert got["greedy"]["se"] > 100, got   # wide: the prior, not the data, bounds it
PY
checks=$((checks + 1))
grep -q 'without the prior their ratings would be infinite' "$tmp/lopsided.txt" \
    || fail "lopsided ladder: the text says the prior keeps the ratings finite"
! grep -q '^no fit' "$tmp/lopsided.txt" || fail "lopsided ladder: no fit"

# Censored lengths: games stopped at max_plies are right-censored. A job with a tiny cap
# has its lengths by the Kaplan-Meier estimate (quantiles not reached are null, the mean is
# restricted to the cap), the text says so, and the jobs' lengths are compared by the
# log-rank test instead of Mann-Whitney; a job without any censored game keeps the empirical
# figures. Recomputed from the games table with h5py and numpy.
cat >"$tmp/censored.cfg" <<'CFG'
seed = 3L;
output = "censored.h5";
defaults = { holes = 6; games = 120L; agent_a = "random"; agent_b = "random"; };
jobs = (
  { name = "cap30"; max_plies = 30; },
  { name = "cap1000"; max_plies = 1000; }
);
CFG
"$bin" run "$tmp/censored.cfg" -o "$tmp/censored.h5" --quiet --threads 2 >/dev/null \
    || fail "anywoli run (censored)"
"$bin" analyze "$tmp/censored.h5" --json >"$tmp/censored.json" || fail "analyze --json (censored)"
"$bin" analyze "$tmp/censored.h5" >"$tmp/censored.txt" || fail "analyze (censored)"
checks=$((checks + 1))
grep -Eq '^  censored: [0-9]+ of 120 games stopped at max_plies \([0-9.]+%\): lengths by the Kaplan-Meier estimate' \
    "$tmp/censored.txt" || fail "censored: the text names the censored games and the estimator"
checks=$((checks + 1))
[ "$(grep -c '^  censored: ' "$tmp/censored.txt")" = 1 ] \
    || fail "censored: only the job with censored games has the censored line"
checks=$((checks + 1))
[ "$(grep -c '^  duration .*(the restricted mean up to max_plies: some games were stopped there)$' \
    "$tmp/censored.txt")" = 1 ] || fail "censored: the duration is named the restricted mean"
checks=$((checks + 1))
grep -Eq '^cap30 vs cap1000 .* LR$' "$tmp/censored.txt" \
    || fail "censored: the lengths test is the log-rank test, marked LR"
if "$python" -c "import h5py, numpy" 2>/dev/null; then
    checks=$((checks + 1))
    "$python" - "$tmp/censored.h5" "$tmp/censored.json" <<'PY' || fail "censored lengths against h5py and numpy"
import json, math, sys, h5py, numpy as np
d = json.load(open(sys.argv[2]))
doc = {j["name"]: j for j in d["jobs"]}
with h5py.File(sys.argv[1], "r") as h:
    for name, cap in (("cap30", 30), ("cap1000", 1000)):
        g = h["jobs/" + name + "/games"][...]
        plies, stopped = g["plies"].astype(int), g["outcome"] == 4
        L = doc[name]["length"]
        assert L["censored"] == int(stopped.sum()), (name, L)
        if not stopped.any():
            assert L["estimator"] == "empirical" and L["median"] == float(np.median(plies)), L
            continue
        assert L["estimator"] == "kaplan-meier" and 0 < L["censored"] < len(g), (name, L)
        # The product-limit estimate over the event times, by hand.
        s, surv = 1.0, {}
        for t in range(cap + 1):
            ended = int(np.sum((plies == t) & ~stopped))
            if ended:
                s *= 1 - ended / int(np.sum(plies >= t))
            surv[t] = s
        for key, q in (("p25", .25), ("median", .5), ("p75", .75), ("p95", .95)):
            hit = [t for t in range(cap + 1) if surv[t] <= 1 - q + 1e-12]
            want = float(hit[0]) if hit else None
            assert L[key] == want, (name, key, L[key], want)
        assert L["p99"] is None, L    # more than 1% of the games were still going at the cap
        assert math.isclose(L["mean"], sum(surv[t] for t in range(cap)), rel_tol=1e-12), L
        assert math.isclose(L["mean"], float(np.minimum(plies, cap).mean()), rel_tol=1e-12)
pair = d["between_jobs"]["pairs"][0]
assert pair["mann_whitney_lengths"] is None, pair
lr = pair["log_rank_lengths"]
assert lr["test"] == "log-rank" and lr["df"] == 1 and 0 <= lr["p"] <= 1, lr
PY
fi

# The report's length plot draws the Kaplan-Meier curve for the censored job and says so in
# its title and key, and gives each job its own colour and dash. A gnuplot on PATH that
# records its script before passing it to the real one shows what was drawn.
if command -v gnuplot >/dev/null; then
    mkdir -p "$tmp/gpbin"
    printf '#!/bin/sh\ntee -a "%s" | "%s" "$@"\n' "$tmp/gp.log" "$(command -v gnuplot)" \
        >"$tmp/gpbin/gnuplot"
    chmod +x "$tmp/gpbin/gnuplot"
    PATH="$tmp/gpbin:$PATH" "$bin" analyze "$tmp/censored.h5" --report "$tmp/censored-report" \
        >/dev/null 2>"$tmp/err" || fail "analyze --report (censored): $(cat "$tmp/err")"
    checks=$((checks + 1))
    grep -q "^set title \"Game length: .*Kaplan-Meier for jobs with games stopped at max_plies" \
        "$tmp/gp.log" || fail "censored: the length plot's title names Kaplan-Meier"
    checks=$((checks + 1))
    lengths_plot=$(sed -n '/lengths.png/,/^plot /p' "$tmp/gp.log" | grep '^plot ')
    grep -q "title 'cap30 (KM, [0-9.]*% stopped)'" <<<"$lengths_plot" \
        && grep -q "title 'cap1000'" <<<"$lengths_plot" \
        || fail "censored: the length plot's key marks the Kaplan-Meier job: $lengths_plot"
    checks=$((checks + 1))
    styles=$(grep -o "lc rgb '[^']*' dt [0-9]*" <<<"$lengths_plot" | sort -u | wc -l)
    [ "$styles" = 2 ] || fail "censored: each job of the length plot has its own colour and dash"
    checks=$((checks + 1))
    grep -q "KM: the Kaplan-Meier estimate, for jobs with games stopped at max_plies .*: cap30 [0-9.]*% at 30 plies\." \
        "$tmp/censored-report/index.html" \
        || fail "censored: the length plot's caption names the job stopped at max_plies"
fi

# A job whose every game stopped at max_plies has no finished game and no margin: its
# margin panel says so, and gnuplot draws the report (it refused a plot of empty series).
if command -v gnuplot >/dev/null; then
    cat >"$tmp/cap1.cfg" <<'CFG'
seed = 3L;
output = "cap1.h5";
jobs = ( { name = "cap1"; holes = 3; seeds = 2; max_plies = 1; agent_a = "random";
           agent_b = "random"; games = 6L; } );
CFG
    "$bin" run "$tmp/cap1.cfg" -o "$tmp/cap1.h5" --quiet >/dev/null 2>"$tmp/err" \
        || fail "anywoli run (cap1.cfg): $(cat "$tmp/err")"
    "$bin" analyze "$tmp/cap1.h5" --report "$tmp/cap1-report" >/dev/null 2>"$tmp/err" \
        || fail "analyze --report, no finished game: $(cat "$tmp/err")"
    checks=$((checks + 1))
fi

# Games as pairs, recomputed from the games table with h5py and scipy: the pentanomial
# counts, the pairs left out (an unfinished game; the last game of an odd table), A's pair
# score and the pair-unit advantage with its t interval. A short ply cap makes unfinished
# games.
cat >"$tmp/pairs.cfg" <<'CFG'
seed = 11L;
output = "pairs.h5";
defaults = { holes = 6; max_plies = 40; };
jobs = (
  { name = "short"; agent_a = "random"; agent_b = "greedy"; games = 81L; },
  { name = "self"; agent_a = "greedy"; agent_b = "greedy"; games = 40L; }
);
CFG
"$bin" run "$tmp/pairs.cfg" -o "$tmp/pairs.h5" --quiet --threads 2 >/dev/null \
    || fail "anywoli run (pairs)"
"$bin" analyze "$tmp/pairs.h5" --json --sprt 0,10 >"$tmp/pairs.json" 2>"$tmp/err" \
    || fail "analyze --json (pairs): $(cat "$tmp/err")"
"$bin" analyze "$tmp/pairs.h5" --sprt 0,10 >"$tmp/pairs.txt" 2>"$tmp/err" \
    || fail "analyze (pairs): $(cat "$tmp/err")"
checks=$((checks + 2))
if "$python" -c "import h5py, scipy" 2>/dev/null; then
    "$python" - "$tmp/pairs.h5" "$tmp/pairs.json" <<'PY' || fail "pairs against h5py and scipy"
import json, math, sys, h5py, numpy as np
from scipy import stats
doc = {j["name"]: j for j in json.load(open(sys.argv[2]))["jobs"]}
def half_points(r):
    """A's half-points in a game: 2 a win, 0 a loss, 1 a draw or an endless game."""
    if r["outcome"] > 1:
        return 1
    return 2 if (r["outcome"] == 0) == bool(r["a_south"]) else 0
with h5py.File(sys.argv[1], "r") as h:
    for name, job in doc.items():
        g = h["jobs/" + name + "/games"][...]
        penta, diffs, unfinished = [0] * 5, [], 0
        for k in range(len(g) // 2):
            pair = g[2 * k: 2 * k + 2]
            if any(r["outcome"] == 4 for r in pair):
                unfinished += 1
                continue
            a = sum(half_points(r) for r in pair)
            penta[a] += 1
            diffs.append(sum({0: 1, 1: -1}.get(int(r["outcome"]), 0) for r in pair) / 2)
        p = job["pairs"]
        assert p["pentanomial"] == penta, (name, p["pentanomial"], penta)
        assert p["left_out_unfinished"] == unfinished and unfinished > 0, (name, p)
        assert p["unpaired_game"] == (len(g) % 2 == 1), (name, p)
        x = np.repeat([0, .25, .5, .75, 1], penta)
        assert math.isclose(p["score"]["value"], x.mean(), rel_tol=1e-12), (name, p)
        assert math.isclose(p["score"]["se"], x.std() / math.sqrt(len(x)), rel_tol=1e-12)
        assert p["score"]["lo"] < p["score"]["value"] < p["score"]["hi"], p
        d = np.array(diffs)
        lo, hi = stats.t.interval(0.95, len(d) - 1, loc=d.mean(), scale=stats.sem(d))
        adv = p["advantage"]
        assert adv["pairs"] == len(d) and math.isclose(adv["value"], d.mean(), abs_tol=1e-12)
        assert math.isclose(adv["lo"], max(-1, lo), rel_tol=1e-9), (adv, lo)
        assert math.isclose(adv["hi"], min(1, hi), rel_tol=1e-9), (adv, hi)
        assert p["sprt"]["model"] == "pentanomial" and p["sprt"]["elo1"] == 10, p["sprt"]
        # The run stores moves_hash and opening (-1: from the start) for every game.
        dg = job["distinct_games"]
        assert dg["games"] == len(g) and dg["distinct"] == len(np.unique(g["moves_hash"])), dg
        assert job["distinct_openings"] == {"games_with_opening": 0, "distinct": 0}, job
PY
    checks=$((checks + 1))
fi
for want in "Pairs (games 2k and 2k+1, colours swapped)" "left out: " \
            "the last game has no partner" "A's points per pair" "SPRT on pairs (pentanomial)" \
            "pair unit" "distinct games: "; do
    checks=$((checks + 1))
    grep -qF -- "$want" "$tmp/pairs.txt" || fail "pair tables lack '$want'"
done

# Every pair alike: alpha-beta beats random with both colours, so every pair splits 1-1 and
# each pair's first-player advantage is 0. A t interval would be 0 [0, 0]; the interval
# bounds the share of pairs that could differ instead (scipy's Clopper-Pearson limit at 0 of
# 10, the Beta(1, 10) quantile), and the text and the JSON say so. The match is 0 of 20: its
# Elo is -inf with a lower end of -inf (a score end of 0), printed and written alike, and
# the SPRTs on it stay finite. The random self-play job keeps its t interval.
cat >"$tmp/alike.cfg" <<'CFG'
seed = 3L;
output = "alike.h5";
defaults = { games = 20L; holes = 6; };
jobs = (
  { name = "strong"; agent_a = "random"; agent_b = "alphabeta:depth=4"; },
  { name = "even"; agent_a = "random"; agent_b = "random"; }
);
CFG
"$bin" run "$tmp/alike.cfg" -o "$tmp/alike.h5" --quiet --threads 2 >/dev/null \
    || fail "anywoli run (alike)"
"$bin" analyze "$tmp/alike.h5" --json --sprt 0,20 >"$tmp/alike.json" 2>"$tmp/err" \
    || fail "analyze --json (alike): $(cat "$tmp/err")"
"$bin" analyze "$tmp/alike.h5" --sprt 0,20 >"$tmp/alike.txt" 2>"$tmp/err" \
    || fail "analyze (alike): $(cat "$tmp/err")"
checks=$((checks + 1))
"$python" - "$tmp/alike.json" <<'PY' || fail "alike pairs: the all-alike bound in the JSON"
import json, math, sys
from scipy import stats
jobs = {j["name"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
s = jobs["strong"]
adv = s["pairs"]["advantage"]
assert s["pairs"]["pentanomial"] == [10, 0, 0, 0, 0], s["pairs"]
p = stats.beta.ppf(0.975, 1, 10)
assert adv["degenerate"] is True and adv["value"] == 0 and adv["sd"] == 0, adv
assert math.isclose(adv["lo"], -p, rel_tol=1e-12) and math.isclose(adv["hi"], p, rel_tol=1e-12)
assert jobs["even"]["pairs"]["advantage"]["degenerate"] is False
assert jobs["even"]["pairs"]["advantage"]["lo"] < jobs["even"]["pairs"]["advantage"]["hi"]
for e in (s["agents"]["elo"], s["pairs"]["elo"]):
    assert e == {"value": None, "lo": None, "hi": e["hi"]} and e["hi"] < -200, e
for t in (s["agents"]["sprt"], s["pairs"]["sprt"]):
    assert math.isfinite(t["llr"]) and t["decision"] == "accept_h0", t
PY
for want in "pair unit                      0.0000 [-0.3085, 0.3085]       pairs, exact bound" \
            "(every pair gave the same result: the interval bounds the share of pairs that could differ)" \
            "-inf [-inf, -286.6]"; do
    checks=$((checks + 1))
    grep -qF -- "$want" "$tmp/alike.txt" || fail "alike pairs: the text lacks '$want'"
done
checks=$((checks + 1))
! grep -qwi "nan" "$tmp/alike.txt" || fail "alike pairs: NaN in the text"

# Distinct games and openings, where the table has moves_hash and opening columns (added
# here with h5py as the run will write them): 27 distinct of 81 in "short" (each played 3
# times) is a warning that the intervals are sqrt(3) times too narrow; 40 of 40 in "self" is
# none. A moves_hash that is not an 8-byte unsigned integer, or an opening below -1, is
# damage.
if "$python" -c "import h5py" 2>/dev/null; then
    "$python" - "$tmp/pairs.h5" "$tmp" <<'PY'
import shutil, sys, h5py, numpy as np
src, t = sys.argv[1], sys.argv[2]
def with_columns(name, hash_of, opening_of, hash_type="<u8"):
    shutil.copy(src, f"{t}/{name}.h5")
    with h5py.File(f"{t}/{name}.h5", "r+") as h:
        for job in ("short", "self"):
            grp = h["jobs/" + job]
            a = grp["games"][...]
            # line_hash (added after the two) goes too: these files predate it.
            kept = [d for d in a.dtype.descr
                    if d[0] not in ("opening", "moves_hash", "line_hash")]
            added = [] if hash_of is None else [("opening", "<i4"), ("moves_hash", hash_type)]
            b = np.zeros(a.shape, np.dtype(kept + added))
            for f, _ in kept:
                b[f] = a[f]
            if hash_of is not None:
                b["moves_hash"] = [hash_of(job, int(i)) for i in a["game"]]
                b["opening"] = [opening_of(job, int(i)) for i in a["game"]]
            del grp["games"]
            grp.create_dataset("games", data=b, chunks=True, compression="gzip")
            for k in ("games_checksum", "openings_checksum"):   # nor these, written later
                if k in grp.attrs:
                    del grp.attrs[k]
            # the openings the rows name: a game's opening is a row of its job's table (a
            # job from the start has an empty one)
            if job == "short" and hash_of is not None:
                del grp["openings"]
                text = h5py.string_dtype()
                grp["openings"] = np.array([(k, "", "") for k in range(5)], dtype=[
                    ("index", "<i8"), ("moves", text), ("apn", text)])
# "short": pairs cycle through 5 openings; "self": from the start (-1).
def opening(job, i):
    return (i // 2) % 5 if job == "short" else -1
with_columns("hashed", lambda job, i: (i // 3 if job == "short" else i) * 0x9E3779B97F4A7C15
             % 2**64, opening)
with_columns("nohash", None, None)   # as a file written before the two columns existed
with_columns("badhash", lambda job, i: i * 0.5, opening, "<f8")
with_columns("badopening", lambda job, i: i, lambda job, i: -5 if i == 7 else -1)
PY
    "$bin" analyze "$tmp/hashed.h5" >"$tmp/hashed.txt" 2>"$tmp/err" \
        || fail "analyze (moves_hash): $(cat "$tmp/err")"
    "$bin" analyze "$tmp/hashed.h5" --json >"$tmp/hashed.json" 2>"$tmp/err" \
        || fail "analyze --json (moves_hash): $(cat "$tmp/err")"
    checks=$((checks + 2))
    for want in "distinct games: 27 of 81 (33.3%; the most common is played 3 times)" \
                "warning: fewer than 95% of the games are distinct: the games are not independent, and every interval below is too narrow, by a factor of at least 1.73 (the 81 games are worth at most 27 independent ones)" \
                "distinct games: 40 of 40 (100.0%)" \
                "distinct openings: 5 (over the 81 games with an opening; 0 from the start)" \
                "distinct openings: 0 (over the 0 games with an opening; 40 from the start)"; do
        checks=$((checks + 1))
        grep -qF -- "$want" "$tmp/hashed.txt" || fail "tables lack '$want'"
    done
    checks=$((checks + 1))
    [[ $(grep -c "^warning: fewer than 95%" "$tmp/hashed.txt") -eq 1 ]] \
        || fail "the distinct-games warning is not given once"
    "$python" - "$tmp/hashed.json" <<'PY' || fail "distinct_games JSON"
import json, math, sys
jobs = {j["name"]: j["distinct_games"] for j in json.load(open(sys.argv[1]))["jobs"]}
s, n = jobs["short"], jobs["self"]
assert (s["games"], s["distinct"], s["most_repeated"], s["independent"]) == (81, 27, 3, False), s
assert math.isclose(s["effective_games"], 27) and math.isclose(s["too_narrow_by"], math.sqrt(3))
assert (n["distinct"], n["independent"], n["too_narrow_by"]) == (40, True, 1), n
o = {j["name"]: j["distinct_openings"] for j in json.load(open(sys.argv[1]))["jobs"]}
assert o == {"short": {"games_with_opening": 81, "distinct": 5},
             "self": {"games_with_opening": 0, "distinct": 0}}, o
PY
    checks=$((checks + 1))
    checks=$((checks + 1))
    "$bin" analyze "$tmp/nohash.h5" 2>"$tmp/err" | grep -qF "distinct games: not known (the file has no moves_hash column)" \
        || fail "a file without moves_hash: distinct games not said to be unknown $(cat "$tmp/err")"
    checks=$((checks + 1))
    grep -qF "distinct 10-ply lines: not known (the file has no line_hash column)" "$tmp/hashed.txt" \
        || fail "a file without line_hash: distinct lines not said to be unknown"
    checks=$((checks + 1))
    "$python" -c 'import json, sys; assert all(j["distinct_lines"] is None for j in json.load(open(sys.argv[1]))["jobs"])' "$tmp/hashed.json" \
        || fail "a file without line_hash: distinct_lines is not null"
    expect_status 2 "badhash.h5: job short: damaged results file (games column moves_hash: expected an integer)" "$tmp/badhash.h5"
    expect_status 2 "badopening.h5: job short: game 7: damaged row (opening -5, expected -1 or more)" "$tmp/badopening.h5"
fi

# Distinct lines (line_hash: the first 10 plies). Deterministic alpha-beta self-play from the
# start plays one line, however its late tie-breaks make the games differ: the line count
# and the warning say so, where the distinct games cannot; random players follow no common
# line and get no warning. The counts are checked against h5py/numpy. The alpha-beta players
# keep the weights (and no fade) that were the defaults before the tuned ones, whose games these checks describe.
cat >"$tmp/lines.cfg" <<'CFG'
seed = 3L;
output = "lines.h5";
defaults = { variant = "anywoli"; games = 300L; };
jobs = (
  { name = "ab2"; agent_a = "alphabeta:depth=2,w.seeds=0.1,w.threes=0,w.opp_threes=0,w.empty=0,w.opp_empty=0,w.final=0,fade=0"; agent_b = "alphabeta:depth=2,w.seeds=0.1,w.threes=0,w.opp_threes=0,w.empty=0,w.opp_empty=0,w.final=0,fade=0"; },
  { name = "rand"; agent_a = "random"; agent_b = "random"; },
  { name = "match"; agent_a = "alphabeta:depth=6,w.seeds=0.1,w.threes=0,w.opp_threes=0,w.empty=0,w.opp_empty=0,w.final=0,fade=0"; agent_b = "alphabeta:depth=4,w.seeds=0.1,w.threes=0,w.opp_threes=0,w.empty=0,w.opp_empty=0,w.final=0,fade=0"; games = 200L; }
);
CFG
"$bin" run "$tmp/lines.cfg" -o "$tmp/lines.h5" --quiet --threads 2 >/dev/null \
    || fail "anywoli run (lines)"
"$bin" analyze "$tmp/lines.h5" >"$tmp/lines.txt" 2>"$tmp/err" \
    || fail "analyze (lines): $(cat "$tmp/err")"
"$bin" analyze "$tmp/lines.h5" --json >"$tmp/lines.json" 2>"$tmp/err" \
    || fail "analyze --json (lines): $(cat "$tmp/err")"
checks=$((checks + 1))
"$python" - "$tmp/lines.txt" <<'PY' || fail "distinct lines: tables"
import re, sys
text = open(sys.argv[1]).read()
blocks = {b.split(":", 1)[0]: b for b in re.split(r"^== job ", text, flags=re.M)[1:]}
warning = "warning: the games follow few lines, so the job's figures describe those lines"
ab, rand = blocks["ab2"], blocks["rand"]
assert "distinct 10-ply lines: 1 of 300 games; the most common is followed by 100.0% of them" \
    in ab, ab
assert ab.count(warning) == 1 and "openings (a book, plies:N) or diverse play" in ab, ab
assert re.search(r"distinct games: (29\d|300) of 300", ab), ab   # yet the games differ
assert warning not in rand and "distinct 10-ply lines: 300 of 300 games" in rand, rand
PY
if "$python" -c "import h5py" 2>/dev/null; then
    checks=$((checks + 1))
    "$python" - "$tmp/lines.json" "$tmp/lines.h5" <<'PY' || fail "distinct lines: JSON and the file"
import json, sys, h5py, numpy as np
doc = {j["name"]: j["distinct_lines"] for j in json.load(open(sys.argv[1]))["jobs"]}
with h5py.File(sys.argv[2], "r") as f:
    for name, d in doc.items():
        g = f["jobs"][name]["games"][:]
        h = g["line_hash"]
        _, counts = np.unique(h, return_counts=True)
        colour = max(np.unique(h[g["a_south"] == c], return_counts=True)[1].max() /
                     (g["a_south"] == c).sum() for c in (0, 1))
        want = {"plies": 10, "games": len(h), "distinct": len(counts),
                "top_share": counts.max() / len(h), "top_share_in_colour": colour,
                "few": bool(counts.max() >= len(h) / 2 or colour >= 0.5)}
        assert d == want, (name, d, want)
assert doc["ab2"]["few"] and not doc["rand"]["few"], doc
# A match of two deterministic agents: each colour assignment plays its own lines, so the
# most common line has under half the games, yet most of one colour's: the warning fires.
assert doc["match"]["top_share"] < 0.5 <= doc["match"]["top_share_in_colour"], doc["match"]
assert doc["match"]["few"], doc["match"]
PY
fi

# What the report's plots draw, read from the scripts sent to gnuplot: a stand-in gnuplot
# keeps each script as NAME.gp and draws a 1x1 PNG. plotsweep.cfg has a sweep of holes by seeds
# in two series of random self-play (one per convention) and one of greedy self-play, and a
# random-greedy match with a max_plies of its own (an override, not a sweep); plotladder.cfg is
# agent-ladder.cfg in small: matches of different agents, some with their own max_plies.
mkdir -p "$tmp/gpbin"
cat >"$tmp/gpbin/gnuplot" <<'SH'
#!/usr/bin/env bash
script=$(cat)
out=$(sed -n "s/^set output '\(.*\)'$/\1/p" <<<"$script" | head -n 1)
# The plot is drawn in a private folder inside the report's: the script goes beside the page.
stage=$(dirname "$out")
name=$(basename "$out")
printf '%s\n' "$script" >"$(dirname "$stage")/${name%.png}.gp"
base64 -d >"$out" <<<'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
SH
chmod +x "$tmp/gpbin/gnuplot"
cat >"$tmp/plotsweep.cfg" <<'CFG'
seed = 9L;
output = "plotsweep.h5";
jobs = (
  { name = "rs"; holes = [3, 4]; seeds = [1, 2]; final_four = ["penultimate", "lottery"];
    agent_a = "random"; agent_b = "random"; games = 8L; },
  { name = "gs"; holes = [3, 4]; seeds = [1, 2]; agent_a = "greedy"; agent_b = "greedy";
    games = 8L; },
  { name = "rg"; holes = 3; seeds = 2; max_plies = 2; agent_a = "random"; agent_b = "greedy";
    games = 8L; }
);
CFG
# plotconv.cfg: nine series over final_four (greedy and alpha-beta at eight depths, each
# self-play), none playing lottery: the line sweep in panels, no slot without a point.
{
    printf 'seed = 5L;\noutput = "plotconv.h5";\n'
    printf 'defaults = { holes = 3; seeds = 2; games = 4L; final_four = ["penultimate", "first-final"]; };\njobs = (\n'
    printf '  { name = "g"; agent_a = "greedy"; agent_b = "greedy"; }'
    for d in 1 2 3 4 5 6 7 8; do
        printf ',\n  { name = "ab%d"; agent_a = "alphabeta:depth=%d"; agent_b = "alphabeta:depth=%d"; }' \
            "$d" "$d" "$d"
    done
    printf '\n);\n'
} >"$tmp/plotconv.cfg"
cat >"$tmp/plotladder.cfg" <<'CFG'
seed = 4L;
output = "plotladder.h5";
defaults = { holes = 4; seeds = 2; max_plies = 5000; games = 8L; };
jobs = (
  { name = "random-greedy"; agent_a = "random"; agent_b = "greedy"; max_plies = 100000; },
  { name = "random-ab1"; agent_a = "random"; agent_b = "alphabeta:depth=1"; max_plies = 100000; },
  { name = "greedy-ab1"; agent_a = "greedy"; agent_b = "alphabeta:depth=1"; }
);
CFG
for c in plotsweep plotladder plotconv; do
    "$bin" run "$tmp/$c.cfg" -o "$tmp/$c.h5" --quiet --threads 2 >/dev/null 2>"$tmp/err" \
        || fail "anywoli run ($c.cfg): $(cat "$tmp/err")"
    "$bin" analyze "$tmp/$c.h5" --json >"$tmp/$c.json" 2>"$tmp/err" \
        || fail "analyze --json ($c.cfg): $(cat "$tmp/err")"
    PATH="$tmp/gpbin:$PATH" "$bin" analyze "$tmp/$c.h5" --report "$tmp/$c-plots" >/dev/null \
        2>"$tmp/err" || fail "analyze --report ($c.cfg): $(cat "$tmp/err")"
    "$python" "$tests/analyze_check.py" --scripts "$tmp/$c.json" "$tmp/$c-plots" \
        || fail "$c.cfg: the plots draw what is not valid"
    checks=$((checks + 1))
done
# The sweep over holes of conv3.cfg (above): its x range padded.
PATH="$tmp/gpbin:$PATH" "$bin" analyze "$tmp/conv3.h5" --report "$tmp/conv3-plots" >/dev/null \
    || fail "analyze --report (conv3)"
checks=$((checks + 1))
grep -qx "set xrange \[5.9:8.1\]" "$tmp/conv3-plots/sweep.gp" \
    || fail "sweep over holes: x range not padded: $(grep xrange "$tmp/conv3-plots/sweep.gp")"
# Over holes, an ordered axis, the series are lines (analyze_check.py: over a convention, not).
"$python" "$tests/analyze_check.py" --scripts "$tmp/conv3.json" "$tmp/conv3-plots" \
    || fail "conv3.cfg: the plots draw what is not valid"
checks=$((checks + 1))

# A round robin (`anywoli run --round-robin`): its report draws the agents' ratings as the
# JSON gives them (ratings.gp: highest at the top, each named by its label, with its
# interval) and a crosstable whose cells are the JSON's; its jobs' labels name their players
# ("rr-1-2: random vs greedy"); with no self-play job, there is no first-player advantage plot
# (a match's South minus North is a skill comparison), and the page says why.
"$bin" run --round-robin random --round-robin greedy --round-robin alphabeta:depth=1 \
    --games 8 --holes 4 --seeds 2 --seed 3 -o "$tmp/rrobin.h5" --quiet --threads 2 >/dev/null \
    2>"$tmp/err" || fail "anywoli run --round-robin: $(cat "$tmp/err")"
"$bin" analyze "$tmp/rrobin.h5" --json >"$tmp/rrobin.json" 2>"$tmp/err" \
    || fail "analyze --json (round robin): $(cat "$tmp/err")"
PATH="$tmp/gpbin:$PATH" "$bin" analyze "$tmp/rrobin.h5" --report "$tmp/rrobin-plots" >/dev/null \
    2>"$tmp/err" || fail "analyze --report (round robin): $(cat "$tmp/err")"
"$python" "$tests/analyze_check.py" --scripts "$tmp/rrobin.json" "$tmp/rrobin-plots" \
    || fail "round robin: the plots draw what is not valid"
checks=$((checks + 1))
"$python" - "$tmp/rrobin.json" "$tmp/rrobin-plots" <<'PY' || fail "round robin: ratings, crosstable, labels"
import html, json, os, re, sys
doc = json.load(open(sys.argv[1]))
folder = sys.argv[2]
r = doc["ratings"]
assert r["status"] == 0, r
gp = open(os.path.join(folder, "ratings.gp")).read()
body = re.search(r"^\$RATINGS << EOD\n(.*?)^EOD$", gp, flags=re.M | re.S).group(1)
rows = [line.split() for line in body.splitlines() if line.strip()]
agents = sorted(r["agents"], key=lambda a: -a["rating"])
assert len(rows) == len(agents) == 3, (rows, agents)
ytics = re.search(r"^set ytics \((.*)\)$", gp, flags=re.M).group(1)
names = {float(at): label.replace("''", "'")
         for label, at in re.findall(r"'((?:[^']|'')*)' (-?[\d.]+)", ytics)}
for k, a in enumerate(agents):
    y, rating, lo, hi = (float(x) for x in rows[k])
    assert y == len(agents) - 1 - k and names[y] == a["label"], (k, rows[k], names, a)
    for got, want in ((rating, a["rating"]), (lo, a["lo"]), (hi, a["hi"])):
        assert abs(got - want) <= 1e-3 + 1e-5 * abs(want), (a, rows[k])
page = open(os.path.join(folder, "index.html")).read()
assert "Ratings of the 3 agents of the matches of two different agents" in page
table = re.search(r'<table class="crosstable".*?</table>', page, flags=re.S).group(0)
label = {a["agent"]: a["label"] for a in r["agents"]}
heads = [html.unescape(h) for h in re.findall(r"<tr><th></th>(.*?)</tr>", table)[0]
         .replace("<th>", "").split("</th>")[:-1]]
assert heads == [a["label"] for a in agents], heads
cells = {}
for name, tds in re.findall(r"<tr><th>(.+?)</th>(.*?)</tr>", table):
    for col, cell in zip(heads, re.findall(r"<td>(.*?)</td>", tds)):
        cells[html.unescape(name), col] = cell
assert len(cells) == 9, cells
def points(x):
    return "%d" % x if x == int(x) else "%d.5" % int(x)
for c in r["crosstable"]:
    a, b, g = label[c["a"]], label[c["b"]], c["games"]
    assert cells[a, b].startswith("%s/%d (" % (points(c["points_a"]), g)), (c, cells[a, b])
    assert cells[b, a].startswith("%s/%d (" % (points(g - c["points_a"]), g)), (c, cells[b, a])
    assert cells[a, a] == "-", cells
# The jobs' labels name their players, in the plots' axes and keys.
want = ["%s: %s vs %s" % (j["name"], j["agent_a_label"], j["agent_b_label"]) for j in doc["jobs"]]
assert [j["name"] for j in doc["jobs"]] == ["rr-1-2", "rr-1-3", "rr-2-3"], doc["jobs"]
conv = open(os.path.join(folder, "conventions.gp")).read()
tics = re.search(r"^set xtics .*? left \((.*)\)$", conv, flags=re.M).group(1)
assert re.findall(r"'((?:[^']|'')*)' ", tics) == want, tics
for name in ("lengths", "margins"):
    script = open(os.path.join(folder, name + ".gp")).read()
    for w in want:
        assert "title '%s" % w in script, (name, w)
assert not os.path.exists(os.path.join(folder, "advantage.gp"))
assert "advantage.png" not in page and "No first-player advantage plot: every job is a match" in page
PY
checks=$((checks + 1))
"$python" - "$tmp/plotsweep.json" "$tmp/plotladder.json" "$tmp/plotsweep-plots" \
    "$tmp/plotladder-plots" "$tmp/plotconv-plots" <<'PY' \
    || fail "the sweep plots"
import json, os, re, sys
sweep, ladder = (json.load(open(p)) for p in sys.argv[1:3])
# The 13th job, beyond one panel of 12, has games stopped at max_plies: it is drawn (the
# script checks), with its Kaplan-Meier mark.
rg = [j for j in sweep["jobs"] if j["name"] == "rg"][0]
assert rg["outcomes"]["unfinished"]["count"] > 0, rg["outcomes"]
lengths = open(os.path.join(sys.argv[3], "lengths.gp")).read()
assert re.search(r"\$L12 using .* title 'rg \(KM, [0-9.]+% stopped\)'", lengths), lengths[-600:]
# Nine series over final_four: two panels, the caption naming every series whole.
conv = open(os.path.join(sys.argv[5], "sweep.gp")).read()
assert conv.count("\nplot ") == 2 and "panel 2 of 2: series 9 to 9 of 9" in conv, conv[-800:]
assert "'lottery'" not in re.search(r"^set xtics .*$", conv, flags=re.M).group(0)
page = open(os.path.join(sys.argv[5], "index.html")).read()
assert "alphabeta:depth=8 [tuned weights] vs alphabeta:depth=8 [tuned weights]. In 2 panels of at most 8 series." in page
# A parameter is swept when two jobs of the same agents differ in it alone.
assert sweep["between_jobs"]["swept"] == ["holes", "seeds", "final_four"], sweep["between_jobs"]
assert ladder["between_jobs"]["swept"] == [], ladder["between_jobs"]
assert not os.path.exists(os.path.join(sys.argv[4], "sweep.png"))
assert "first-player advantage over" not in open(os.path.join(sys.argv[4], "index.html")).read()
# Holes by seeds: one heat map per series, each titled with it.
gp = open(os.path.join(sys.argv[3], "sweep.gp")).read()
titles = re.findall(r"^set title '(.*)'$", gp, flags=re.M)
assert titles == ["random vs random, final_four=penultimate",
                  "random vs random, final_four=lottery", "greedy vs greedy"], titles
assert "set multiplot layout 1,3" in gp, gp[:400]
page = open(os.path.join(sys.argv[3], "index.html")).read()
assert "one heat map per series: random vs random, final_four=penultimate; random vs random, " \
       "final_four=lottery; greedy vs greedy." in page
assert "re-scorings of 5 job(s) where an agent looks at the convention" in page
# Every job's name fits the canvas under its tic (10-point text: 7 pixels a character, 15 a
# line; the plot from 80 pixels to 20 characters before the right edge), slanted by 30
# degrees or upright.
for name in ("advantage", "conventions"):
    gp = open(os.path.join(sys.argv[3], name + ".gp")).read()
    width = int(re.search(r"size (\d+),", gp).group(1))
    margin = int(re.search(r"^set bmargin (\d+)$", gp, flags=re.M).group(1))
    names = [j["name"] for j in sweep["jobs"]]
    step = (width - 80 - 140) / len(names)
    for i, n in enumerate(names):
        if "rotate by -30" in gp:
            assert 80 + (i + 0.5) * step + 0.87 * 7 * len(n) <= width, (name, n)
            assert 0.5 * 7 * len(n) <= (margin - 2) * 15, (name, n, margin)
        else:
            assert "rotate by -90" in gp and 7 * len(n) <= (margin - 2) * 15, (name, n, margin)
PY
checks=$((checks + 1))

# The report's folder: an index.html there is kept unless --force; a folder that cannot be
# written in is a one-line error before any drawing (gnuplot's own six lines, exit 1, before).
if command -v gnuplot >/dev/null; then
    mkdir -p "$tmp/old" && echo precious >"$tmp/old/index.html"
    expect_status 2 "old/index.html already exists (--force replaces it)" "$f" --report "$tmp/old"
    checks=$((checks + 1))
    [[ $(cat "$tmp/old/index.html") == precious ]] || fail "--report replaced index.html"
    "$bin" analyze "$f" --report "$tmp/old" --force >/dev/null 2>"$tmp/err" \
        || fail "--report --force: $(cat "$tmp/err")"
    checks=$((checks + 1))
    grep -q '<!DOCTYPE html>' "$tmp/old/index.html" || fail "--force did not replace the page"
    # Where the page went, one line on stderr as a writer says it (it used to say nothing),
    # with the folder's trailing slashes dropped (`rep/` used to make rep//index.html).
    checks=$((checks + 1))
    [[ "$(cat "$tmp/err")" == "anywoli analyze: report written to $tmp/old/index.html" ]] \
        || fail "--report: not the written-to line: $(cat "$tmp/err")"
    expect_status 2 "$tmp/old/index.html already exists" "$f" --report "$tmp/old//"
    "$bin" analyze "$f" --json --report "$tmp/old/" --force >"$tmp/out" 2>"$tmp/err" \
        || fail "--report DIR/ --force: $(cat "$tmp/err")"
    checks=$((checks + 1))
    [[ "$(cat "$tmp/err")" == "anywoli analyze: report written to $tmp/old/index.html" ]] &&
        /usr/bin/python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/out" \
        || fail "--report DIR/ with --json: stderr $(cat "$tmp/err"), or stdout not JSON alone"
    [[ -z $(find "$tmp/old" -name '.*' -type f) ]] || fail "--report left temporary files"
    expect_status 2 "--report: /proc: cannot write in the folder" "$f" --report /proc
    if [[ $(id -u) -ne 0 ]]; then
        mkdir -p "$tmp/ro" && chmod 555 "$tmp/ro"
        expect_status 2 "ro: cannot write in the folder" "$f" --report "$tmp/ro"
    fi
fi
expect_status 2 "--force applies to --report" "$f" --force
# gnuplot failing: one line saying what it said, exit 1, and a good page left in place.
mkdir -p "$tmp/fakebin" "$tmp/kept"
printf '#!/bin/sh\ncat >/dev/null\necho "gnuplot> plot x" >&2\necho "   ^" >&2\n'`
      `'echo "   line 1:    undefined variable: x" >&2\necho "more" >&2\nexit 1\n' \
    >"$tmp/fakebin/gnuplot"
chmod +x "$tmp/fakebin/gnuplot"
echo precious >"$tmp/kept/index.html"
PATH="$tmp/fakebin:$PATH" expect_status 1 \
    "gnuplot failed drawing .*kept/lengths.png (exit status 1): line 1: undefined variable: x" \
    "$f" --report "$tmp/kept" --force
checks=$((checks + 1))
[[ $(cat "$tmp/kept/index.html") == precious ]] || fail "a failed report replaced index.html"

# Without gnuplot on PATH: a clear error before any work.
PATH=/nonexistent "$bin" analyze "$f" --report "$tmp/r2" >"$tmp/out" 2>"$tmp/err"
rc=$?
checks=$((checks + 1))
[[ $rc -eq 1 && $(wc -l <"$tmp/err") -eq 1 && ! -s "$tmp/out" && ! -e "$tmp/r2" ]] &&
    grep -q "needs gnuplot" "$tmp/err" || fail "--report without gnuplot: status $rc"

if [[ $failures -ne 0 ]]; then
    echo "$failures of $checks checks failed" >&2
    exit 1
fi
echo "all $checks checks passed"
