#!/usr/bin/env bash
# configs_report_test.sh: every shipped config in configs/, run at a small size, analysed,
# and its report page read back, as a researcher would meet them.
#
#   configs_report_test.sh PATH/TO/anywoli CONFIGS_DIR [PYTHON]
#
# Experiments run in place (`anywoli run CFG --games N -o ...`), so that a book path, which
# is relative to the config's folder, still resolves; tunings run from a copy in the temp
# folder with their sizes lowered by sed. From `analyze --json` and `--report DIR` (when
# gnuplot is there) it checks:
#   - a parameter that is only a per-job override is not a sweep (agent-ladder.cfg: `swept`
#     is [] and its page has no sweep plot);
#   - ratings, where given with agents, are finite (agent-ladder.cfg must have them), and
#     name the matches whose games follow few lines (the page warns of them);
#   - default.cfg, the main job, plays searching players from the book;
#   - a job with unfinished games has `length.censored` > 0 and `length.estimator`
#     "kaplan-meier", and the page says "Kaplan-Meier";
#   - every job's name is on the page in full, and each PNG the page embeds or links to is a
#     PNG (a file in DIR or a data: URI);
#   - JSON numbers are printed in their shortest form (no 0.94999999999999996).
set -u
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

bin=$1
configs=$2
python=${3:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
checks=0
have_gnuplot=false
command -v gnuplot >/dev/null && have_gnuplot=true

# Games per job for each experiment, so that the whole test stays near a minute on 2 cores:
# strong-play.cfg has 72 jobs up to alpha-beta depth 8 and MCTS (2 games a job: one pair,
# too few for any interval, so its skill plot's panels have no point to draw and say so,
# which once failed the report); agent-ladder.cfg's games against MCTS run to
# 100,000 plies. Even numbers, so that games come in pairs.
declare -A games=(
    [agent-ladder]=10 [board-sweep]=20 [conventions]=20 [default]=20
    [endgame-agreement]=4 [from-the-start]=8 [mcts-place]=2 [small-variants]=20 [strong-play]=2 [strong-play-root]=2 [strong-play-root-adaptive]=2
    [weights-verify]=4 [atlas]=2 [atlas-exact]=2 [net-ladder]=2 [net-scale]=2 [net-worth]=2
)
# Options that shrink an experiment beyond its games: the atlases on the boards of 4 holes
# (atlas.cfg on one board and its rating; atlas-exact.cfg on 4x1 to 4x4, an atlas with exact
# values), so that the evaluations fitted on first use are a dozen of seconds each at most.
declare -A shrink=(
    [atlas]="--holes 4 --seeds 2" [atlas-exact]="--holes 4"
)

# check_json_and_page NAME JSON [DIR]: the checks above on one analysis.
check_json_and_page() {
    checks=$((checks + 1))
    "$python" - "$@" <<'EOF_PY' || fail "$1: the analysis does not tell the truth (above)"
import base64, html, json, math, os, re, sys

name, path = sys.argv[1], sys.argv[2]
page_dir = sys.argv[3] if len(sys.argv) > 3 else None
text = open(path).read()
bad = []

# Numbers as printed: the shortest digits that read back the same (repr's), nothing longer.
def digits(tok):
    mant = re.split("[eE]", tok)[0].lstrip("-").replace(".", "").lstrip("0")
    return len(mant.rstrip("0")) or 1
noisy = []
def number(tok):
    if digits(tok) > digits(repr(float(tok))):
        noisy.append(tok)
    return float(tok)
doc = json.loads(text, parse_float=number)
if noisy:
    bad.append("JSON numbers longer than their shortest form: %s" % noisy[:5])

page = None
if page_dir:
    page = open(os.path.join(page_dir, "index.html")).read()

if doc.get("format") == "anywoli-tuning-analysis":
    jobs = []
else:
    jobs = doc["jobs"]
    # A per-job override is not a sweep.
    if name == "agent-ladder":
        swept = doc["between_jobs"].get("swept")
        if swept != []:
            bad.append("between_jobs.swept is %r, expected [] (max_plies is a per-job "
                       "override)" % (swept,))
        if page is not None and re.search(r'alt="sweep"|sweep\.png', page):
            bad.append("the page draws a sweep plot over a per-job override")
    # Ratings are finite where given.
    r = doc.get("ratings")
    agents = r.get("agents") if isinstance(r, dict) else None
    if name == "agent-ladder" and not agents:
        bad.append("no ratings.agents (%s)" % json.dumps(r)[:200])
    for a in agents or []:
        for k in ("rating", "se", "lo", "hi"):
            v = a.get(k)
            if not (isinstance(v, (int, float)) and math.isfinite(v)):
                bad.append("ratings: %s's %s is %r, not finite" % (a.get("agent"), k, v))
    # The main job shows the lab's practice: searching players from the book, not from the
    # start (where alpha-beta follows a line or two and the ratings describe those lines).
    if name == "default":
        for j in jobs:
            searching = "random" not in (j["agent_a"], j["agent_b"])
            if searching and not j["openings"].startswith("file:"):
                bad.append("default: job %s plays searching players from %s, not the book"
                           % (j["name"], j["openings"]))
    # Ratings from jobs whose games follow few lines say so, in the JSON and on the page.
    few = [j["name"] for j in jobs if j["two_agents"] and (j.get("distinct_lines") or {}).get("few")]
    if isinstance(r, dict) and agents and sorted(r.get("few_lines_jobs") or []) != sorted(few):
        bad.append("ratings.few_lines_jobs is %r, the few-line matches %r"
                   % (r.get("few_lines_jobs"), few))
    if few and page is not None and "follow few lines" not in page:
        bad.append("the page does not warn that %s follow few lines" % few)
    # Unfinished games are censored lengths.
    censored_jobs = []
    for j in jobs:
        if j["outcomes"]["unfinished"]["count"] > 0:
            censored_jobs.append(j["name"])
            length = j.get("length") or {}
            if not (length.get("censored", 0) > 0 and
                    length.get("estimator") == "kaplan-meier"):
                bad.append("job %s has %d unfinished games, yet length.censored = %r and "
                           "length.estimator = %r" % (j["name"],
                           j["outcomes"]["unfinished"]["count"], length.get("censored"),
                           length.get("estimator")))
    if censored_jobs and page is not None and "Kaplan-Meier" not in page:
        bad.append("the page does not say Kaplan-Meier, with unfinished games in %s"
                   % censored_jobs[:3])

if page is not None:
    # Every job's name in full.
    shown = html.unescape(re.sub(r"<[^>]*>", " ", page))
    for j in jobs:
        if j["name"] not in shown:
            bad.append("job name %s is not on the page in full" % j["name"])
    # Every caption whole: it ends its last sentence before the link to its PNG.
    for caption in re.findall(r"<figcaption>(.*?) \(also <a", page, flags=re.S):
        if not caption.endswith("."):
            bad.append("a caption is cut: ...%s" % caption[-60:])
    # Every PNG the page embeds or links to is one (and is there).
    srcs = re.findall(r'<img[^>]*\ssrc="([^"]*)"', page)
    if not srcs:
        bad.append("the page embeds no image")
    srcs += [h for h in re.findall(r'<a[^>]*\shref="([^"]*)"', page) if h.endswith(".png")]
    for src in srcs:
        if src.startswith("data:"):
            head, _, data = src.partition(",")
            if head == "data:image/svg+xml;base64":
                # A board (report_boards.c): a whole SVG drawing.
                svg = base64.b64decode(data)
                if not (svg.startswith(b'<svg xmlns="http://www.w3.org/2000/svg"')
                        and svg.endswith(b"</svg>\n")):
                    bad.append("an embedded board is not a whole SVG drawing")
                continue
            if head != "data:image/png;base64":
                bad.append("an image that is not a PNG: %s" % head)
                continue
            blob = base64.b64decode(data)
        else:
            file = os.path.join(page_dir, html.unescape(src))
            if not os.path.isfile(file):
                bad.append("the page embeds %s, which is not there" % src)
                continue
            blob = open(file, "rb").read(8)
        if not blob.startswith(b"\x89PNG\r\n\x1a\n"):
            bad.append("%s is not a PNG" % src[:60])
    # Every board the page links to is there, and its caption is whole.
    for svg in re.findall(r'<a[^>]*\shref="(board_[^"]*\.svg)"', page):
        if not os.path.isfile(os.path.join(page_dir, svg)):
            bad.append("the page links to %s, which is not there" % svg)
    for caption in re.findall(r"<figcaption>(.*?) \(<a href=\"board_", page, flags=re.S):
        if not caption.endswith("."):
            bad.append("a board's caption is cut: ...%s" % caption[-60:])

for b in bad:
    print("%s: %s" % (name, b), file=sys.stderr)
sys.exit(1 if bad else 0)
EOF_PY
}

# analyze_both NAME FILE: --json, then --report when gnuplot is there, and the checks.
analyze_both() {
    local name=$1 file=$2
    "$bin" analyze "$file" --json >"$tmp/$name.json" 2>"$tmp/$name.err" \
        || { fail "$name: analyze --json: status $? ($(head -c 300 "$tmp/$name.err"))"; return; }
    if $have_gnuplot; then
        "$bin" analyze "$file" --report "$tmp/$name.report" >/dev/null 2>"$tmp/$name.err" \
            || { fail "$name: analyze --report: status $? ($(head -c 300 "$tmp/$name.err"))"; return; }
        check_json_and_page "$name" "$tmp/$name.json" "$tmp/$name.report"
    else
        check_json_and_page "$name" "$tmp/$name.json"
    fi
}

seen=0
for cfg in "$configs"/*.cfg; do
    name=$(basename "$cfg" .cfg)
    seen=$((seen + 1))
    case $name in
    tune*)
        # A tuning has no size options: a copy with 4 iterations of 2 pairs (`pairs` at the
        # start of a line) and verification matches of 16 (its indented `pairs`).
        sed -e 's/^iterations = .*/iterations = 4;/' -e 's/^pairs = .*/pairs = 2;/' \
            -e 's/^\( \+pairs = \)[0-9]*;/\116;/' "$cfg" >"$tmp/$name.cfg"
        "$bin" tune "$tmp/$name.cfg" -o "$tmp/$name.h5" --quiet >"$tmp/$name.out" 2>"$tmp/$name.err" \
            || { fail "$name: tune: status $? ($(head -c 300 "$tmp/$name.err"))"; continue; }
        grep -q '(pentanomial, 16 pairs)' "$tmp/$name.out" \
            || fail "$name: the scaled-down tuning did not play 16 verification pairs"
        ;;
    *)
        n=${games[$name]:-}
        if [[ -z $n ]]; then
            fail "$name: a new config in configs/: give it a size in configs_report_test.sh"
            continue
        fi
        # shellcheck disable=SC2086  # the shrinking options are words
        "$bin" run "$cfg" --games "$n" ${shrink[$name]:-} -o "$tmp/$name.h5" --quiet \
            >"$tmp/$name.out" 2>"$tmp/$name.err" \
            || { fail "$name: run --games $n: status $? ($(head -c 300 "$tmp/$name.err"))"; continue; }
        ;;
    esac
    analyze_both "$name" "$tmp/$name.h5"
done
[[ $seen -ge 9 ]] || fail "only $seen configs found in $configs"

# The cluster configs (configs/cluster/) are too deep to play here: each must still load,
# its book found and every agent spec valid, and list its jobs.
for cfg in "$configs"/cluster/*.cfg; do
    checks=$((checks + 1))
    "$bin" run "$cfg" --dry-run >"$tmp/dry.out" 2>"$tmp/dry.err" \
        || fail "$(basename "$cfg"): run --dry-run: $(head -c 300 "$tmp/dry.err")"
    grep -q '^experiment: ' "$tmp/dry.out" || fail "$(basename "$cfg"): --dry-run listed no experiment"
done

if [[ $failures -ne 0 ]]; then
    echo "$failures checks failed" >&2
    exit 1
fi
echo "all $checks checks of $seen shipped configs passed"
