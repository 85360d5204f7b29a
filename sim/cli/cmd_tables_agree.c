/* cmd_tables_agree.c: `anywoli tables agree`, how often agents play a table-best move in the
 * endgames of stored games. The positions are those the games of a results file reached (their
 * stored moves replayed), with at most the tables' K seeds on the board; each agent chooses a
 * move in each, afresh, and the tables say what that move is worth against the best. */
#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "results_read.h"
#include "rng.h"
#include "stats.h"
#include "stored_games.h"
#include "tables.h"

enum { OPT_AGENT = OPT_FIRST_FREE, OPT_JOB, OPT_FIRST, OPT_THREADS, OPT_SEED, OPT_SHOW,
       OPT_MIN_SEEDS };

#define AGREE_MAX_AGENTS 32
#define AGREE_MAX_JOBS 64

static const char agree_usage[] =
    "usage: anywoli tables agree TABLES RESULTS --agent SPEC [--agent SPEC ...]\n"
    "                            [--job NAME ...] [--first] [--threads N] [--seed S]\n"
    "                            [--min-seeds L] [--show N]\n\n"
    "How often each agent plays a move the tables call best, in the endgames of the\n"
    "games of RESULTS (jobs run with record_moves: their stored moves are replayed).\n"
    "The positions: every position of those games, before a move, with at most the\n"
    "tables' K seeds on the board and two legal moves or more (a forced move tells\n"
    "nothing); with --first, only the first such position of each game. Each agent\n"
    "chooses in each position as at a game's start (new_game first; its random\n"
    "numbers from S, its spec and the position's number), so an agent's figures are\n"
    "the same for any --threads and whatever other agents are measured. A move is\n"
    "best when its exact value equals the position's; its loss is the difference,\n"
    "in seeds. A position is critical when some legal move is not best. Positions\n"
    "on levels TABLES does not hold (built without --all-levels, they arise only\n"
    "from composed openings) are counted in a line `not measured` and left out.\n"
    "A line per agent: positions, the share of best moves with its 95% Wilson\n"
    "interval, the mean loss with a 95% normal interval, the critical positions and\n"
    "the share of best moves in them (Wilson), the mean nodes (or playouts) per move.\n\n"
    "  --agent SPEC   an agent to measure (repeat for more, up to 32), e.g.\n"
    "                 alphabeta:depth=6, mcts:playouts=400\n"
    "  --job NAME     a job of RESULTS (repeat for more; default: every job with\n"
    "                 stored moves and the tables' variant)\n"
    "  --first        only the first position of each game within the tables\n"
    "  --min-seeds L  only positions with at least L seeds on the board (those the\n"
    "                 agents' own smaller tables do not reach, for instance)\n"
    "  --threads N    OpenMP threads (default: all); the figures are the same for any\n"
    "  --seed S       the agents' random numbers (default 1), 0 to 2^63-1\n"
    "  --show N       after each agent's line, its first N positions (in the games'\n"
    "                 order) whose move is not best: the APN, the move played and\n"
    "                 its value, the best moves and theirs (holes by name, S1, N1)\n\n"
    "Exit status 0, 2 on a bad input (a file, a job, a spec, a variant other than the\n"
    "tables', a damaged move), 1 when the machine fails.\n";

/* The positions gathered from the games. */
typedef struct Sample {
    Position *pos;
    size_t n, cap;
    uint64_t games;     /* games replayed */
    uint64_t unheld;    /* positions left out: their level is not in the tables */
} Sample;

/* What one agent did over the positions: integers, so any sum order gives the same. */
typedef struct Agreement {
    uint64_t positions, best, critical, critical_best, nodes;
    int64_t loss, loss_sq;   /* seeds, summed over positions */
} Agreement;

/* Add a copy of p to the sample (grown by doubling). */
static void sample_add(Sample *s, const Position *p)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 4096;
        Position *grown = realloc(s->pos, cap * sizeof *grown);
        if (!grown)
            fail("out of memory for %zu positions", cap);
        s->pos = grown;
        s->cap = cap;
    }
    s->pos[s->n++] = *p;
}

/* Which positions of the games are measured. */
typedef struct Selection {
    bool first;      /* only the first of each game */
    int min_seeds;   /* at least this many seeds on the board */
} Selection;

/* Whether a position before a move is one to measure: in the tables, with a choice. */
static bool worth_measuring(const Tables *t, const Variant *v, const Selection *sel,
                            const Position *p)
{
    uint64_t legal = pos_legal_mask(v, p);
    return !pos_over(v, p) && tables_covers(t, p) && p->left >= sel->min_seeds
           && (legal & (legal - 1)) != 0;
}

/* What replaying a game needs: the tables (of variant v), the selection, the sample. */
typedef struct Replay {
    const Tables *t;
    const Variant *v;
    const char *tables_path;
    const Selection *sel;
    Sample *s;
} Replay;

/* A game's row: every game is replayed. */
static bool sample_game(void *ctx, const GameRecord *r)
{
    (void)r;
    ((Replay *)ctx)->s->games++;
    return true;
}

/* A position of a stored game: kept when worth measuring (the game left after the first,
 * with sel->first); those on levels the tables do not hold are counted. */
static bool sample_position(void *ctx, const GameRecord *r, const Position *p, uint32_t ply,
                            bool last)
{
    (void)r;
    (void)ply;
    const Replay *rp = ctx;
    if (last)
        return true;
    rp->s->unheld += p->left <= tables_max_seeds(rp->t) && !tables_covers(rp->t, p);
    if (!worth_measuring(rp->t, rp->v, rp->sel, p))
        return true;
    sample_add(rp->s, p);
    return !rp->sel->first;
}

/* A job fits when its variant is the tables'. */
static int job_fits(const char *name, const Variant *v, void *ctx, Error *e)
{
    (void)name;
    const Replay *rp = ctx;
    return tables_check_variant(rp->t, v, rp->tables_path, e);
}

/* The jobs asked for (each must have moves and the tables' variant), or every job that has
 * both; dies when there is none. Their positions go to s. */
static void sample_results(const ResultsFile *f, const char *const *jobs, int n_jobs,
                           const Tables *t, const char *tables_path, const Selection *sel,
                           Sample *s, int *used)
{
    Replay rp = { t, tables_variant(t), tables_path, sel, s };
    GameWalk w = { sample_game, sample_position, &rp };
    char desc[256];
    variant_describe(tables_variant(t), desc, sizeof desc);
    *used = stored_games_each(f, jobs, n_jobs, job_fits, &w, desc);
}

/* One position: the agent's move (legal: checked) against the tables; returns the move. */
static int measure_one(const Tables *t, const Variant *v, Agent *a, const Position *p,
                        Rng *rng, Agreement *g)
{
    AgentStats st = { 0 };
    agent_new_game(a);
    int m = a->choose(a, v, p, rng, &st);
    if (m < 0 || !(pos_legal_mask(v, p) >> m & 1))
        fail("agent %s: no legal move in a position of the sample (out of memory?)", a->name);
    int value = tables_value(t, p), worst = value;
    for (uint64_t k = pos_legal_mask(v, p); k; k &= k - 1) {
        int x = tables_move_value(t, p, __builtin_ctzll(k));
        worst = x < worst ? x : worst;
    }
    int loss = value - tables_move_value(t, p, m);
    g->positions++;
    g->best += loss == 0;
    g->critical += worst < value;
    g->critical_best += worst < value && loss == 0;
    g->loss += loss;
    g->loss_sq += (int64_t)loss * loss;
    g->nodes += st.nodes;
    return m;
}

/* FNV-1a of an agent's spec: its random numbers' stream, so that they do not depend on the
 * other agents measured with it. */
static uint64_t spec_stream(const char *spec)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (const unsigned char *c = (const unsigned char *)spec; *c; c++)
        h = (h ^ *c) * 0x100000001b3u;
    return h;
}

/* Agent `spec` over every position of s, one agent per thread; the move played in position
 * i goes to played[i] unless played is NULL. */
static Agreement measure_agent(const Tables *t, const char *spec, const Sample *s,
                               uint64_t seed, uint8_t *played)
{
    const Variant *v = tables_variant(t);
    Agreement total = { 0 };
    bool bad = false;
    char msg[sizeof(Error){ 0 }.msg] = "";
#pragma omp parallel
    {
        Agent a;
        Error e;
        Agreement g = { 0 };
        bool ok = agent_create(&a, spec, &e) == 0;
        if (ok && agent_check_variant(&a, v, &e) != 0) {
            agent_free(&a);
            ok = false;
        }
        if (!ok) {
#pragma omp critical(agree_error)
            {
                bad = true;
                snprintf(msg, sizeof msg, "%s", e.msg);
            }
        }
#pragma omp for schedule(dynamic, 16)
        for (size_t i = 0; i < s->n; i++) {
            if (!ok)
                continue;
            Rng rng;
            rng_seed(&rng, seed, spec_stream(spec), i);
            int m = measure_one(t, v, &a, &s->pos[i], &rng, &g);
            if (played)
                played[i] = (uint8_t)m;
        }
        if (ok)
            agent_free(&a);
#pragma omp critical(agree_sum)
        {
            total.positions += g.positions;
            total.best += g.best;
            total.critical += g.critical;
            total.critical_best += g.critical_best;
            total.nodes += g.nodes;
            total.loss += g.loss;
            total.loss_sq += g.loss_sq;
        }
    }
    if (bad)
        die("--agent %s: %s", spec, msg);
    return total;
}

/* One agent's line. */
static void print_agreement(const Agreement *g, const char *spec)
{
    double n = g->positions ? (double)g->positions : 1;
    double mean = (double)g->loss / n;
    double var = g->positions > 1 ? ((double)g->loss_sq - n * mean * mean) / (n - 1) : 0;
    double half = 1.959964 * sqrt(var > 0 ? var / n : 0);   /* the sample variance's */
    Interval b = wilson_interval(g->best, g->positions, 0.95);
    Interval c = wilson_interval(g->critical_best, g->critical, 0.95);
    printf("%9" PRIu64 " %6.4f %6.4f-%6.4f %6.4f %6.4f-%6.4f %8" PRIu64
           " %6.4f %6.4f-%6.4f %9.0f  %s\n",
           g->positions, (double)g->best / n, b.lo, b.hi, mean, mean - half < 0 ? 0 : mean - half,
           mean + half, g->critical,
           g->critical ? (double)g->critical_best / (double)g->critical : 0.0, c.lo, c.hi,
           (double)g->nodes / n, spec);
}

/* The first `show` positions whose move played is not best, one line each, the holes by
 * name (S1, N1). */
static void print_misses(const Tables *t, const Sample *s, const uint8_t *played, long show)
{
    const Variant *v = tables_variant(t);
    for (size_t i = 0; i < s->n && show > 0; i++) {
        const Position *p = &s->pos[i];
        int value = tables_value(t, p);
        if (tables_move_value(t, p, played[i]) == value)
            continue;
        char apn[APN_MAX], best[MAX_PITS * HOLE_NAME_MAX + 1] = "", name[HOLE_NAME_MAX];
        size_t at = 0;
        for (uint64_t k = pos_legal_mask(v, p); k; k &= k - 1)
            if (tables_move_value(t, p, __builtin_ctzll(k)) == value) {
                hole_name(v, __builtin_ctzll(k), name);
                at += (size_t)snprintf(best + at, sizeof best - at, " %s", name);
            }
        apn_format(v, p, apn);
        hole_name(v, played[i], name);
        printf("  miss %s: played %s (%+d), best%s (%+d)\n", apn, name,
               tables_move_value(t, p, played[i]), best, value);
        show--;
    }
}

int cmd_tables_agree(int argc, char **argv)
{
    static const struct option opts[] = {
        { "agent", required_argument, NULL, OPT_AGENT },
        { "job", required_argument, NULL, OPT_JOB },
        { "first", no_argument, NULL, OPT_FIRST },
        { "threads", required_argument, NULL, OPT_THREADS },
        { "seed", required_argument, NULL, OPT_SEED },
        { "show", required_argument, NULL, OPT_SHOW },
        { "min-seeds", required_argument, NULL, OPT_MIN_SEEDS },
        { "help", no_argument, NULL, OPT_HELP },
        { NULL, 0, NULL, 0 },
    };
    const char *agents[AGREE_MAX_AGENTS], *jobs[AGREE_MAX_JOBS];
    int n_agents = 0, n_jobs = 0;
    Selection sel = { .first = false, .min_seeds = 0 };
    long long threads = 0, seed = 1, show = 0;
    int c;
    while ((c = cli_getopt(argc, argv, "", opts)) != -1) {
        switch (c) {
        case OPT_AGENT:
            if (n_agents == AGREE_MAX_AGENTS)
                die("--agent: at most %d agents", AGREE_MAX_AGENTS);
            agents[n_agents++] = optarg;
            break;
        case OPT_JOB:
            if (n_jobs == AGREE_MAX_JOBS)
                die("--job: at most %d jobs", AGREE_MAX_JOBS);
            jobs[n_jobs++] = optarg;
            break;
        case OPT_FIRST: sel.first = true; break;
        case OPT_MIN_SEEDS:
            sel.min_seeds = (int)cli_number("--min-seeds", optarg, 0, TABLES_MAX_SEEDS);
            break;
        case OPT_THREADS: threads = cli_number("--threads", optarg, 1, 1024); break;
        case OPT_SEED: seed = cli_number("--seed", optarg, 0, INT64_MAX); break;
        case OPT_SHOW: show = cli_number("--show", optarg, 0, INT64_MAX); break;
        case OPT_HELP: printf("%s", agree_usage); return 0;
        }
    }
    if (argc - optind < 2)
        die("expected TABLES and RESULTS (see --help)");
    if (argc - optind > 2)
        die("unexpected argument '%s' (see --help)", argv[optind + 2]);
    if (n_agents == 0)
        die("--agent SPEC is required (see --help)");
    const char *tables_path = argv[optind], *results_path = argv[optind + 1];
    Error e;
    Tables *t;
    if (tables_open(tables_path, &t, &e) != 0)
        die("%s", e.msg);
    Agent probe;
    for (int i = 0; i < n_agents; i++) {   /* every spec checked before any work */
        if (agent_create(&probe, agents[i], &e) != 0)
            die("--agent %s: %s", agents[i], e.msg);
        int ok = agent_check_variant(&probe, tables_variant(t), &e);
        agent_free(&probe);
        if (ok != 0)
            die("--agent %s: %s", agents[i], e.msg);
    }
    ResultsFile *f = rf_open(results_path, &e);
    if (!f)
        die("%s", e.msg);
    if (threads)
        omp_set_num_threads((int)threads);

    Sample s = { 0 };
    int used;
    sample_results(f, jobs, n_jobs, t, tables_path, &sel, &s, &used);
    printf("tables %s: max_seeds %d; results %s: %d job%s, %" PRIu64 " games\n", tables_path,
           tables_max_seeds(t), results_path, used, used == 1 ? "" : "s", s.games);
    printf("positions %zu: %s with %d to %d seeds on the board and two moves or more\n",
           s.n, sel.first ? "the first of each game" : "every position",
           sel.min_seeds > tables_first_level(t) ? sel.min_seeds : tables_first_level(t),
           tables_max_seeds(t));
    if (s.unheld) {
        char levels[512];
        tables_describe_levels(t, levels, sizeof levels);
        printf("not measured: %" PRIu64 " positions on levels the tables do not hold (they "
               "hold %s; `tables build --all-levels` holds every level)\n", s.unheld, levels);
    }
    printf("%9s %6s %13s %6s %13s %8s %6s %13s %9s  %s\n", "positions", "best", "95% CI",
           "loss", "95% CI", "critical", "best", "95% CI", "nodes", "agent");
    uint8_t *played = show ? malloc(s.n ? s.n : 1) : NULL;
    if (show && !played)
        fail("out of memory for %zu moves", s.n);
    for (int i = 0; i < n_agents; i++) {
        Agreement g = measure_agent(t, agents[i], &s, (uint64_t)seed, played);
        print_agreement(&g, agents[i]);
        if (show)
            print_misses(t, &s, played, (long)show);
        fflush(stdout);
    }
    free(played);
    free(s.pos);
    rf_close(f);
    tables_free(t);
    return 0;
}
