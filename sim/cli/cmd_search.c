/* cmd_search.c: `anywoli search`, a position's alpha-beta value depth by depth (iterative
 * deepening), with the principal variation and, if asked, the best root moves' values. The
 * search itself is the alphabeta agent's (agents/alphabeta.c, through alphabeta.h). */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "alphabeta.h"
#include "board_page.h"
#include "board_svg.h"
#include "cli.h"
#include "commands.h"
#include "eval.h"

enum { OPT_DEPTH = OPT_FIRST_FREE, OPT_NODES, OPT_AGENT, OPT_MULTIPV, OPT_ALL_MOVES,
       OPT_JSON, OPT_HTML, OPT_FORCE };

/* The depth searched when neither --depth nor --nodes is given. */
#define DEFAULT_DEPTH 12

static const char search_usage[] =
    "usage: anywoli search [variant options] [--depth D | --nodes K] [--agent SPEC]\n"
    "                      [--multipv K | --all-moves] [--json]\n"
    "                      [--html OUT.html [--force]] [APN]\n\n"
    "Search a position (the variant's start, or APN) by iterative deepening, one ply at\n"
    "a time from depth 1, and print one line per completed depth:\n\n"
    "  depth D value V south S nodes N time T [moves M=V,...] pv M M ...\n\n"
    "V is the depth-limited minimax value in seeds (two decimals) for the side to move\n"
    "at the position, S the same for South (the first player: V, or -V when North is to\n"
    "move). N counts the positions generated (moves played) from depth 1 to D, cumulative.\n"
    "T is the wall time in seconds since the search began (informational: every other\n"
    "field is the same on every run). The principal variation (pv) lists moves by the\n"
    "holes' names, S1..SH for South's and N1..NH for North's (as `anywoli play` shows\n"
    "them and `anywoli move` takes them), each played by whoever is on move\n"
    "(a final-seed capture keeps the mover on move; a side without seeds passes); it\n"
    "follows the transposition table and stops at a position it has no exact entry of\n"
    "that depth for, a repetition, a position the endgame tables cover, or the game's\n"
    "end, and is never longer than D.\n\n"
    "  --depth D        search depths 1 to D (1 to 64; default 12)\n"
    "  --nodes K        instead of a depth: deepen while the cumulative node count stays\n"
    "                   within K, printing each depth that completes with at most K\n"
    "                   nodes in all; depth 1 is always searched and printed, even\n"
    "                   when it alone needs more (a search always answers with a\n"
    "                   move); at most depth 64\n"
    "  --agent SPEC     the alphabeta spec whose evaluation and search options are used:\n"
    "                   weights=plain|tuned|auto|learned|net, learned=FILE,\n"
    "                   net=FILE, w.<term>=X, fade, quiesce, tt, tables=FILE (default\n"
    "                   alphabeta:weights=plain). Its depth and\n"
    "                   nodes are ignored (--depth, --nodes decide), ties is first\n"
    "                   (the root moves in ascending order), margin, temperature and\n"
    "                   choice_moves play no part; weights=auto resolves by the spec's\n"
    "                   depth (6 unless given). A strong spec searches as the strong\n"
    "                   player does (its table's deeper results, its reductions and\n"
    "                   cut-offs, weights=learned): its values are its own, not the\n"
    "                   exact depth-limited ones, and its principal variation may stop\n"
    "                   sooner\n"
    "  --multipv K      also print the exact values of the K best root moves, best\n"
    "                   first, equal values in hole order: `moves M=V,...` (V for the\n"
    "                   side to move); the pv starts with the first of them\n"
    "  --all-moves      the same for every root move (a full window for each)\n"
    "  --json           print each depth as one JSON object a line (JSON lines):\n"
    "                   {\"depth\": D, \"value\": V, \"south\": S, \"nodes\": N, \"time\": T,\n"
    "                   \"moves\": [{\"move\": M, \"name\": \"S4\", \"value\": V}, ...],\n"
    "                   \"pv\": [M, ...], \"pv_names\": [\"S4\", ...]}; \"moves\" only with\n"
    "                   --multipv or --all-moves. For programs: \"move\" and \"pv\" are\n"
    "                   hole indices from 0 (0 .. 2H-1, S1 is 0, N1 is H), \"name\"\n"
    "                   and \"pv_names\" the same holes by name\n"
    "  --html OUT.html  also write the deepest completed depth's principal variation\n"
    "                   as a page that steps through it (as replay --html): the board\n"
    "                   at the position, then after each of its moves\n"
    "  --force          replace an existing OUT.html\n\n";

/* What the command was asked. */
typedef struct SearchOptions {
    int depth;              /* deepest depth */
    long long nodes;        /* cumulative node budget; 0: none */
    const char *spec;       /* the agent */
    int exact;              /* root moves to value exactly (1: the best alone) */
    bool json;
} SearchOptions;

/* The root moves valued exactly, best first and equal values in hole order, at most `max`:
 * their holes into moves[], their count returned. */
static int ranked_moves(const AlphabetaIteration *it, int max, int *moves)
{
    int n = 0;
    for (int m = 0; m < MAX_PITS; m++) {
        if (it->move_value[m] == ALPHABETA_NOT_EXACT)
            continue;
        int j = n++;
        for (; j > 0 && it->move_value[moves[j - 1]] < it->move_value[m]; j--)
            moves[j] = moves[j - 1];
        moves[j] = m;
    }
    return n < max ? n : max;
}

/* A value in seeds: EVAL_SCALE units with two decimals (exact, as EVAL_SCALE is 100), with
 * its sign always (text) or only when negative (JSON). */
static void put_seeds(int32_t x, bool plus)
{
    _Static_assert(EVAL_SCALE == 100, "two decimals show a value exactly");
    printf(plus ? "%+.2f" : "%.2f", (double)x / EVAL_SCALE);
}

/* One completed depth as a text line, its holes by name (S4, N4). */
static void print_text(const Variant *v, const AlphabetaIteration *it, int32_t south,
                       double time, const int *moves, int n_moves)
{
    char name[HOLE_NAME_MAX];
    printf("depth %d value ", it->depth);
    put_seeds(it->value, true);
    printf(" south ");
    put_seeds(south, true);
    printf(" nodes %llu time %.2f", (unsigned long long)it->nodes, time);
    for (int i = 0; i < n_moves; i++) {
        hole_name(v, moves[i], name);
        printf("%s%s=", i ? "," : " moves ", name);
        put_seeds(it->move_value[moves[i]], true);
    }
    char pv[ALPHABETA_MAX_DEPTH * HOLE_NAME_MAX];
    printf(" pv%s%s\n", it->pv_len ? " " : "", hole_names(v, it->pv, it->pv_len, pv, sizeof pv));
}

/* One completed depth as a JSON object on one line: holes as indices from 0 ("move", "pv"),
 * as programs read them, with their names beside ("name", "pv_names"). */
static void print_json(const Variant *v, const AlphabetaIteration *it, int32_t south,
                       double time, const int *moves, int n_moves, bool with_moves)
{
    char name[HOLE_NAME_MAX];
    printf("{\"depth\": %d, \"value\": ", it->depth);
    put_seeds(it->value, false);
    printf(", \"south\": ");
    put_seeds(south, false);
    printf(", \"nodes\": %llu, \"time\": %.3f", (unsigned long long)it->nodes, time);
    if (with_moves) {
        printf(", \"moves\": [");
        for (int i = 0; i < n_moves; i++) {
            hole_name(v, moves[i], name);
            printf("%s{\"move\": %d, \"name\": \"%s\", \"value\": ", i ? ", " : "", moves[i],
                   name);
            put_seeds(it->move_value[moves[i]], false);
            printf("}");
        }
        printf("]");
    }
    printf(", \"pv\": [");
    for (int i = 0; i < it->pv_len; i++)
        printf("%s%d", i ? ", " : "", it->pv[i]);
    printf("], \"pv_names\": [");
    for (int i = 0; i < it->pv_len; i++) {
        hole_name(v, it->pv[i], name);
        printf("%s\"%s\"", i ? ", " : "", name);
    }
    printf("]}\n");
}

/* log2 of the table's entries where --agent does not set tt. */
#define SEARCH_TT 22

/* Whether spec names the agent `kind` (alone or with options). */
static bool spec_is(const char *spec, const char *kind)
{
    size_t n = strlen(kind);
    return strncmp(spec, kind, n) == 0 && (spec[n] == '\0' || spec[n] == ':');
}

/* The agent of --agent: built, an alphabeta or strong one, able to play v from p (its tables
 * are v's); a note on stderr when its tables lack a level p's play reaches. Dies otherwise. */
static void make_agent(Agent *a, const char *spec, const Variant *v, const Position *p)
{
    Error e;
    if (!spec_is(spec, "alphabeta") && !spec_is(spec, "strong"))
        die("--agent %s: only an alphabeta or strong spec can be searched "
            "(alphabeta:key=value,...)", spec);
    /* A search for analysis keeps a larger table than a player's (2^SEARCH_TT entries,
     * 64 MiB, unless the spec sets tt): the principal variation is read back from it, and
     * with the player's 2^16 entries deep searches overwrite it after a few plies. */
    char with_tt[AGENT_FULL_SPEC_MAX];
    if (!strstr(spec, "tt=")) {
        snprintf(with_tt, sizeof with_tt, "%s%ctt=%d", spec, strchr(spec, ':') ? ',' : ':',
                 SEARCH_TT);
        spec = with_tt;
    }
    if (agent_create(a, spec, &e) != 0 || agent_check_variant(a, v, &e) != 0)
        die("--agent: %s", e.msg);
    char note[512];
    if (agent_note_position(a, v, p, note, sizeof note))
        fprintf(stderr, "%s: --agent: note: %s\n", cli_command, note);
}

/* Iterative deepening from depth 1 to o->depth, or while the node budget lasts (depth 1
 * always), printing each depth completed; the node counts printed are cumulative. The
 * deepest completed iteration goes to last. */
static void deepen(Agent *a, const Variant *v, const Position *p, const SearchOptions *o,
                   AlphabetaIteration *last)
{
    last->depth = 0;
    Error e;
    if (alphabeta_analysis_begin(a, v, p, &e) != 0)
        die("%s", e.msg);
    const double start = omp_get_wtime();
    uint64_t total = 0;
    for (int d = 1; d <= o->depth; d++) {
        AlphabetaIteration it;
        /* Depth 1 is searched whatever the budget, as a search always answers with a move;
         * the deeper ones only while the cumulative count stays within it. */
        uint64_t budget = d == 1 ? 0 : (uint64_t)o->nodes;
        if (!alphabeta_analysis_depth(a, p, d, o->exact, budget, &it))
            break;
        total += it.nodes;
        it.nodes = total;
        const int32_t south = p->side == SOUTH ? it.value : -it.value;
        int moves[MAX_PITS];
        int n_moves = o->exact > 1 ? ranked_moves(&it, o->exact, moves) : 0;
        double time = omp_get_wtime() - start;
        if (o->json)
            print_json(v, &it, south, time, moves, n_moves, o->exact > 1);
        else
            print_text(v, &it, south, time, moves, n_moves);
        cli_flush_stdout();   /* each depth as it completes: a long search shows progress */
        *last = it;
    }
}

/* The principal variation of `it` as a page (--html, claimed as o): p, then each move played
 * by the rules (pos_play, its trace for the marks); dies on a failed write. */
static void write_pv_page(Output *o, const Variant *v, const Position *p,
                          const AlphabetaIteration *it)
{
    Error e;
    FILE *out = output_stream_open(o, &e);
    if (!out) {
        output_release(o);
        fail("%s", e.msg);
    }
    char apn[APN_MAX], about[APN_MAX + 1024], end[APN_MAX + 256];
    apn_format(v, p, apn);
    int n = snprintf(about, sizeof about, "the principal variation of a search of %s to depth "
                     "%d: value %+.2f seeds for the side to move; pv", apn, it->depth,
                     (double)it->value / EVAL_SCALE);
    if (n > 0 && (size_t)n + 1 < sizeof about) {
        about[n++] = ' ';
        hole_names(v, it->pv, it->pv_len, about + n, sizeof about - (size_t)n);
    }
    BoardPage page;
    board_page_begin(&page, out, v, "anywoli search", about);
    board_page_start(&page, p);
    Position at = *p, next;
    for (int i = 0; i < it->pv_len; i++) {
        MoveInfo info;
        MoveTrace trace;
        MoveEvent ev = pos_play(v, &at, it->pv[i], &next, &info, &trace);
        board_page_move(&page, (uint32_t)i + 1, it->pv[i], &at, &next, ev, &trace);
        at = next;
    }
    apn_format(v, &at, apn);
    snprintf(end, sizeof end, "the end of the principal variation (%d plies): %s", it->pv_len,
             apn);
    board_page_end(&page, end);
    int rc = output_stream_close(o, out, 0, &e);
    output_release(o);
    if (rc != 0)
        fail("%s", e.msg);
}

int cmd_search(int argc, char **argv)
{
    static const struct option own[] = {
        { "depth", required_argument, NULL, OPT_DEPTH },
        { "nodes", required_argument, NULL, OPT_NODES },
        { "agent", required_argument, NULL, OPT_AGENT },
        { "multipv", required_argument, NULL, OPT_MULTIPV },
        { "all-moves", no_argument, NULL, OPT_ALL_MOVES },
        { "json", no_argument, NULL, OPT_JSON },
        { "html", required_argument, NULL, OPT_HTML },
        { "force", no_argument, NULL, OPT_FORCE },
        { NULL, 0, NULL, 0 },
    };
    VariantText vo = { 0 };
    SearchOptions o = { 0, 0, "alphabeta:weights=plain", 1, false };
    bool multipv = false, all_moves = false, force = false;
    const char *html = NULL;
    int c;
    while ((c = cli_next_option(argc, argv, "", own, &vo)) != -1) {
        switch (c) {
        case OPT_DEPTH:
            o.depth = (int)cli_number("--depth", optarg, 1, ALPHABETA_MAX_DEPTH);
            break;
        case OPT_NODES: o.nodes = cli_number("--nodes", optarg, 1, 1000000000000000LL); break;
        case OPT_AGENT: o.spec = optarg; break;
        case OPT_MULTIPV:
            o.exact = (int)cli_number("--multipv", optarg, 1, MAX_PITS);
            multipv = true;
            break;
        case OPT_ALL_MOVES: all_moves = true; break;
        case OPT_JSON: o.json = true; break;
        case OPT_HTML: html = optarg; break;
        case OPT_FORCE: force = true; break;
        case OPT_HELP: printf("%s%s", search_usage, cli_variant_help()); return 0;
        }
    }
    if (argc - optind > 1)
        die("unexpected argument '%s' (one APN at most)", argv[optind + 1]);
    if (o.depth && o.nodes)
        die("--depth and --nodes: give one of them, not both");
    if (multipv && all_moves)
        die("--multipv and --all-moves: give one of them, not both");
    if (force && !html)
        die("--force: only with --html OUT.html");
    if (all_moves)
        o.exact = MAX_PITS;
    if (o.nodes)
        o.depth = ALPHABETA_MAX_DEPTH;
    else if (!o.depth)
        o.depth = DEFAULT_DEPTH;
    Variant v;
    Position p;
    cli_variant_position(&vo, optind < argc ? argv[optind] : NULL, &v, &p);
    if (pos_over(&v, &p))
        die("the game is over at this position: there is nothing to search");
    Output page_file;
    if (html)
        cli_claim_output(&page_file, html, force, "search");
    Agent a;
    make_agent(&a, o.spec, &v, &p);
    AlphabetaIteration last;
    deepen(&a, &v, &p, &o, &last);
    agent_free(&a);
    if (html)   /* depth 1 at least: deepen always searches it */
        write_pv_page(&page_file, &v, &p, &last);
    return 0;
}
