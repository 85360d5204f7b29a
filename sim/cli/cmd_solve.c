/* cmd_solve.c: `anywoli solve`, the exact value of a position and of each of its moves. */
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "cli.h"
#include "commands.h"
#include "prover.h"
#include "solver.h"
#include "tables.h"

enum { OPT_START = OPT_FIRST_FREE, OPT_MAX_STATES, OPT_TABLES, OPT_TABLE_SEEDS };

static const char solve_usage[] =
    "usage: anywoli solve [variant options] [--max-states N]\n"
    "                     [--tables FILE | --tables auto [--table-seeds K]]\n"
    "                     [--start | APN]\n\n"
    "Solve a position exactly (the variant's start with --start or no APN) and print\n"
    "`value V`, then `move M V EVENT` for every legal move, best first (M the hole's\n"
    "name: S1..SH for South's, N1..NH for North's, from each owner's left), then\n"
    "`states S components C largest L`, and last `cost seconds T peak_mib M`: the\n"
    "wall time of the whole command and its peak resident memory (MiB). V is the best\n"
    "final margin (own seeds minus the opponent's, stores included) the side to move\n"
    "can force; the lottery counts at its expectation, and play that never ends (or\n"
    "an endless move) counts the store difference.\n\n"
    "  --start          solve the variant's start position\n"
    "  --max-states N   give up beyond N states (default 5000000): exit status 1\n"
    "  --tables FILE    endgame tables of the same variant (anywoli tables build):\n"
    "                   positions with at most their K seeds take their value from\n"
    "                   FILE (a position that reaches a level FILE does not hold is\n"
    "                   refused: build FILE with --all-levels). A search comes\n"
    "                   first (null-window alpha-beta with a transposition table,\n"
    "                   exact with cycles; its line is\n"
    "                   `states S nodes N`: positions kept in its table, positions\n"
    "                   searched, at most --max-states), then, if it runs out, the\n"
    "                   graph above the tables as without them\n"
    "  --tables auto    the same with tables of the position's board from the cache\n"
    "                   folder ($ANYWOLI_CACHE, else $XDG_CACHE_HOME/anywoli, else\n"
    "                   ~/.cache/anywoli), built there first when missing (the three\n"
    "                   conventions together, a file each; threads: OMP_NUM_THREADS).\n"
    "                   K grows level by level (those the position's play reaches):\n"
    "                   the search above tables to K, and when it passes\n"
    "                   --max-states, the next K, up to the largest at most the\n"
    "                   position's seeds whose top level has at most 4 x 10^8\n"
    "                   placements and whose build fits in half the memory available\n"
    "                   now (MemAvailable), where the graph above the tables follows.\n"
    "                   A line `tables max_seeds K built T` (the builds' seconds) or\n"
    "                   `tables max_seeds K cached` comes before `cost`\n"
    "  --table-seeds K  with --tables auto: tables to K seeds alone (the largest\n"
    "                   level the play reaches at most K and the position's seeds;\n"
    "                   capture + 1 to 127), the search then the graph above them\n\n";

/* Print the solution: the value, the moves best first by their holes' names, the size of the
 * graph (or of the search, `searched`). */
static void print_result(const Variant *v, const SolveResult *r, bool searched)
{
    printf("value %d\n", r->value);
    for (int i = 0; i < r->n_moves; i++) {
        char name[HOLE_NAME_MAX];
        hole_name(v, r->moves[i].move, name);
        printf("move %s %d %s\n", name, r->moves[i].value, move_event_name(r->moves[i].event));
    }
    if (searched)
        printf("states %llu nodes %llu\n", (unsigned long long)r->states,
               (unsigned long long)r->edges);
    else
        printf("states %llu components %llu largest %llu\n", (unsigned long long)r->states,
               (unsigned long long)r->components, (unsigned long long)r->largest_component);
}

/* A position whose play reaches a level the tables do not hold (a composed one, with tables
 * of the reachable levels only) is refused: the search would miss the values it needs. */
static void check_levels_held(const Tables *t, const char *path, const Variant *v,
                              const Position *p)
{
    int missing = pos_over(v, p) ? 0 : tables_missing_level(t, p);
    if (missing == 0)
        return;
    char levels[512];
    tables_describe_levels(t, levels, sizeof levels);
    die("--tables %s: the position (%d seeds on the board) reaches level %d, which the file "
        "does not hold (it holds levels %s; `tables build --all-levels` holds every level)",
        path, p->left, missing, levels);
}

/* Print a level of the tables built for `--tables auto` on standard error: a big one takes
 * minutes. */
static void tables_progress(const TablesLevelReport *r, void *ctx)
{
    (void)ctx;
    fprintf(stderr, "anywoli solve: tables level %d: %llu placements, %d rounds, %.2f s, "
            "peak RSS %llu MiB\n", r->level, (unsigned long long)r->placements, r->rounds,
            r->seconds, (unsigned long long)(r->peak_rss >> 20));
}

/* The levels of `--tables auto` for p: those of a game from the start when p is on one of
 * them, else every level (a composed position). */
static TablesLevels auto_levels(const Variant *v, const Position *p)
{
    return tables_level_reachable(v, p->left) ? TABLES_REACHABLE_LEVELS : TABLES_ALL_LEVELS;
}

/* --table-seeds' K for p: the largest level held at most `fixed` and p's seeds; refused when
 * there is none. */
static int fixed_seeds(const Variant *v, const Position *p, int fixed)
{
    TablesLevels which = auto_levels(v, p);
    int most = fixed < p->left ? fixed : p->left;
    for (int k = most; k > v->capture; k--)
        if (which == TABLES_ALL_LEVELS || tables_level_reachable(v, k))
            return k;
    die("--table-seeds %d: no level from %d to %d occurs in play from this position (%d seeds "
        "on the board; the levels differ by multiples of %d)", fixed, v->capture + 1, most,
        p->left, v->capture);
}

/* The Ks `--tables auto` tries for p, smallest first, into ks; their number. --table-seeds
 * (fixed > 0) gives one; else every level held from the first to the largest that
 * tables_solve_seeds allows (sized from the memory available), none when none fits. */
static int auto_ladder(const Variant *v, const Position *p, int fixed, int *ks)
{
    if (fixed) {
        ks[0] = fixed_seeds(v, p, fixed);
        return 1;
    }
    TablesLevels which = auto_levels(v, p);
    int top = tables_solve_seeds(v, p->left, which, tables_memory_available()), n = 0;
    for (int k = v->capture + 1; k <= top; k++)
        if (which == TABLES_ALL_LEVELS || tables_level_reachable(v, k))
            ks[n++] = k;
    return n;
}

/* Solve p with `--tables auto`: for each K of the ladder in turn, the tables to K from the
 * cache (built there when missing), then the search above them within max_states; a search
 * that runs out goes on with the next K, and the last K's with the graph above its tables.
 * Small tables often suffice (a search whose lines capture soon), so the smallest K that
 * does is found before the large ones are built. *line receives the tables' line. */
static SolveStatus solve_auto(const Variant *v, const Position *p, int fixed,
                              uint64_t max_states, SolveResult *r, bool *searched, char *line,
                              size_t size)
{
    int ks[TABLES_MAX_SEEDS + 1];
    int n = auto_ladder(v, p, fixed, ks);
    *searched = false;
    if (n == 0) {
        snprintf(line, size, "tables max_seeds 0 none");
        return solver_solve_tables(v, p, max_states, NULL, r);
    }
    double build_seconds = 0;
    bool any_built = false;
    SolveStatus st = SOLVE_TOO_LARGE;
    for (int i = 0; i < n && st == SOLVE_TOO_LARGE; i++) {
        double t0 = omp_get_wtime();
        const Tables *t;
        bool built;
        Error e;
        if (tables_acquire_solve(v, ks[i], auto_levels(v, p), tables_progress, NULL, &t,
                                 &built, &e) != 0)
            fail("--tables auto: %s", e.msg);
        if (built) {
            build_seconds += omp_get_wtime() - t0;
            any_built = true;
        }
        *searched = true;
        st = prover_solve(v, p, max_states, t, r);
        if (st == SOLVE_TOO_LARGE && i == n - 1) {
            *searched = false;
            st = solver_solve_tables(v, p, max_states, t, r);
        }
        tables_release(t);
        if (any_built)
            snprintf(line, size, "tables max_seeds %d built %.2f", ks[i], build_seconds);
        else
            snprintf(line, size, "tables max_seeds %d cached", ks[i]);
        if (st == SOLVE_TOO_LARGE && i < n - 1)
            fprintf(stderr, "anywoli solve: the search above tables to %d seeds passed "
                    "--max-states; tables to %d\n", ks[i], ks[i + 1]);
    }
    return st;
}

/* The last line: the command's wall time and peak resident memory. */
static void print_cost(double t0)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("cost seconds %.2f peak_mib %.1f\n", omp_get_wtime() - t0,
           (double)ru.ru_maxrss / 1024.0);   /* kilobytes on Linux */
}

int cmd_solve(int argc, char **argv)
{
    static const struct option own[] = {
        { "start", no_argument, NULL, OPT_START },
        { "max-states", required_argument, NULL, OPT_MAX_STATES },
        { "tables", required_argument, NULL, OPT_TABLES },
        { "table-seeds", required_argument, NULL, OPT_TABLE_SEEDS },
        { NULL, 0, NULL, 0 },
    };
    double t0 = omp_get_wtime();
    VariantText vo = { 0 };
    bool start = false;
    const char *tables_path = NULL;
    long long max_states = SOLVER_MAX_STATES_DEFAULT;
    int table_seeds = 0;
    int c;

    while ((c = cli_next_option(argc, argv, "", own, &vo)) != -1) {
        switch (c) {
        case OPT_START: start = true; break;
        case OPT_MAX_STATES:
            max_states = cli_number("--max-states", optarg, 1, 2000000000);
            break;
        case OPT_TABLES: tables_path = optarg; break;
        case OPT_TABLE_SEEDS:
            table_seeds = (int)cli_number("--table-seeds", optarg, 1, TABLES_MAX_SEEDS);
            break;
        case OPT_HELP: printf("%s%s", solve_usage, cli_variant_help()); return 0;
        }
    }
    if (argc - optind > 1)
        die("unexpected argument '%s' (one APN at most)", argv[optind + 1]);
    if (start && optind < argc)
        die("give either --start or an APN, not both");
    bool automatic = tables_path && strcmp(tables_path, "auto") == 0;
    if (table_seeds && !automatic)
        die("--table-seeds %d: only with --tables auto", table_seeds);
    Variant v;
    Position p;
    cli_variant_position(&vo, optind < argc ? argv[optind] : NULL, &v, &p);
    if (table_seeds && table_seeds <= v.capture)
        die("--table-seeds %d is out of range (%d to %d)", table_seeds, v.capture + 1,
            TABLES_MAX_SEEDS);
    Tables *t = NULL;
    char tables_line[128] = "";
    Error e;
    if (tables_path && !automatic) {
        if (tables_open(tables_path, &t, &e) != 0
            || tables_check_variant(t, &v, tables_path, &e) != 0)
            die("--tables %s", e.msg);
        check_levels_held(t, tables_path, &v, &p);
    }
    SolveResult r;
    bool searched = t != NULL;
    SolveStatus st;
    if (automatic && !pos_over(&v, &p)) {
        st = solve_auto(&v, &p, table_seeds, (uint64_t)max_states, &r, &searched, tables_line,
                        sizeof tables_line);
    } else {
        /* With tables: the search first (quick when the lines that decide are short), then
         * the whole graph above the tables (quick when the positions reachable above them
         * are few). */
        st = t ? prover_solve(&v, &p, (uint64_t)max_states, t, &r) : SOLVE_TOO_LARGE;
        if (st == SOLVE_TOO_LARGE) {
            searched = false;
            st = solver_solve_tables(&v, &p, (uint64_t)max_states, t, &r);
        }
    }
    tables_free(t);
    if (st == SOLVE_TOO_LARGE)
        fail("the position is too large: more than %lld states (see --max-states)", max_states);
    if (st == SOLVE_NO_MEMORY)
        fail("out of memory");
    print_result(&v, &r, searched);
    if (tables_line[0])
        printf("%s\n", tables_line);
    print_cost(t0);
    return 0;
}
