/* cmd_solve.c: `anywoli solve`, the exact value of a position and of each of its moves. */
#include <stdio.h>

#include "cli.h"
#include "commands.h"
#include "prover.h"
#include "solver.h"
#include "tables.h"

enum { OPT_START = OPT_FIRST_FREE, OPT_MAX_STATES, OPT_TABLES };

static const char solve_usage[] =
    "usage: anywoli solve [variant options] [--max-states N] [--tables FILE]\n"
    "                     [--start | APN]\n\n"
    "Solve a position exactly (the variant's start with --start or no APN) and print\n"
    "`value V`, then `move M V EVENT` for every legal move, best first (M the hole's\n"
    "name: S1..SH for South's, N1..NH for North's, from each owner's left), then\n"
    "`states S components C largest L`. V is the best final margin (own seeds minus\n"
    "the opponent's, stores included) the side to move can force; the lottery counts\n"
    "at its expectation, and play that never ends (or an endless move) counts the\n"
    "store difference.\n\n"
    "  --start          solve the variant's start position\n"
    "  --max-states N   give up beyond N states (default 5000000): exit status 1\n"
    "  --tables FILE    endgame tables of the same variant (anywoli tables build):\n"
    "                   positions with at most their K seeds take their value from\n"
    "                   FILE (a position that reaches a level FILE does not hold is\n"
    "                   refused: build FILE with --all-levels). A search comes\n"
    "                   first (null-window alpha-beta with a transposition table,\n"
    "                   exact with cycles; last line\n"
    "                   `states S nodes N`: positions kept in its table, positions\n"
    "                   searched, at most --max-states), then, if it runs out, the\n"
    "                   graph above the tables as without them\n\n";

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

int cmd_solve(int argc, char **argv)
{
    static const struct option own[] = {
        { "start", no_argument, NULL, OPT_START },
        { "max-states", required_argument, NULL, OPT_MAX_STATES },
        { "tables", required_argument, NULL, OPT_TABLES },
        { NULL, 0, NULL, 0 },
    };
    VariantText vo = { 0 };
    bool start = false;
    const char *tables_path = NULL;
    long long max_states = SOLVER_MAX_STATES_DEFAULT;
    int c;

    while ((c = cli_next_option(argc, argv, "", own, &vo)) != -1) {
        switch (c) {
        case OPT_START: start = true; break;
        case OPT_MAX_STATES:
            max_states = cli_number("--max-states", optarg, 1, 2000000000);
            break;
        case OPT_TABLES: tables_path = optarg; break;
        case OPT_HELP: printf("%s%s", solve_usage, cli_variant_help()); return 0;
        }
    }
    if (argc - optind > 1)
        die("unexpected argument '%s' (one APN at most)", argv[optind + 1]);
    if (start && optind < argc)
        die("give either --start or an APN, not both");
    Variant v;
    Position p;
    cli_variant_position(&vo, optind < argc ? argv[optind] : NULL, &v, &p);
    Tables *t = NULL;
    Error e;
    if (tables_path && (tables_open(tables_path, &t, &e) != 0
                        || tables_check_variant(t, &v, tables_path, &e) != 0))
        die("--tables %s", e.msg);
    if (t)
        check_levels_held(t, tables_path, &v, &p);
    SolveResult r;
    /* With tables: the search first (quick when the lines that decide are short), then the
     * whole graph above the tables (quick when the positions reachable above them are few). */
    bool searched = t != NULL;
    SolveStatus st = t ? prover_solve(&v, &p, (uint64_t)max_states, t, &r) : SOLVE_TOO_LARGE;
    if (st == SOLVE_TOO_LARGE) {
        searched = false;
        st = solver_solve_tables(&v, &p, (uint64_t)max_states, t, &r);
    }
    tables_free(t);
    if (st == SOLVE_TOO_LARGE)
        fail("the position is too large: more than %lld states (see --max-states)", max_states);
    if (st == SOLVE_NO_MEMORY)
        fail("out of memory");
    print_result(&v, &r, searched);
    return 0;
}
