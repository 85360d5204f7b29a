/* cmd_play.c: `anywoli play`, a game in the terminal: a person against an agent, two agents,
 * or two people. Reads moves from standard input one per line, so it can be driven by a
 * pipe as well as typed. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "cli.h"
#include "commands.h"
#include "game.h"

enum { OPT_SOUTH = OPT_FIRST_FREE, OPT_NORTH, OPT_SEED, OPT_POSITION, OPT_QUIET };

static const char play_usage[] =
    "usage: anywoli play [variant options] [--south WHO] [--north WHO] [--seed N]\n"
    "                    [--position APN] [--quiet]\n\n"
    "Play a game in the terminal. WHO is `human` or an agent spec (see\n"
    "`anywoli agents`). The board is shown from South's side: North's row on top,\n"
    "each store at its owner's right-hand end. Holes are labelled 1 to H from each\n"
    "player's own left (S1..SH, N1..NH); a person moves by typing the label of one of\n"
    "their holes (`3` or `S3`), one per line, or `quit`. After each move: the laps\n"
    "sown and every capture (where, to whom, mid-sow or final, in which lap).\n\n"
    "  --south WHO      South's player (default human)\n"
    "  --north WHO      North's player (default alphabeta)\n"
    "  --seed N         the game's random stream: the agents' draws and the lottery\n"
    "                   coin (default 1)\n"
    "  --position APN   start from this position (default: the variant's start)\n"
    "  --quiet          no boards: only the moves and the result\n\n";

static const char *const side_name[2] = { "South", "North" };

/* What a person's "agent" returns when they quit: not a move, and none of the agents' own
 * codes (AGENT_STOPPED, AGENT_NO_MEMORY), so the game loop abandons the game with it. */
#define HUMAN_QUITS (-16)

/* One side: a person at the keyboard (an agent that asks) or an agent. */
typedef struct Player {
    const char *who;          /* as given: "human" or a spec */
    bool human;
    Agent agent;
} Player;

/* The whole game as `play` runs it. */
typedef struct Game {
    Variant v;
    Position p;               /* as the game stands: the start, then after each move */
    Rng stream;               /* the game's stream (agents' sub-streams, the coin) */
    Player player[2];
    uint64_t plies;
    bool quiet;
    bool tty;                 /* standard input is a terminal (which echoes what is typed) */
} Game;

/* The board from South's side: North's row right to left on top with North's store at its
 * left end (North's right), South's row below with South's store at its right end. */
static void show_board(const Variant *v, const Position *p)
{
    char label[HOLE_NAME_MAX];
    const int h = v->holes;
    printf("\n         ");
    for (int i = 2 * h - 1; i >= h; i--) {
        hole_name(v, i, label);
        printf("%4s", label);
    }
    printf("\n North %2d", p->store[NORTH]);
    for (int i = 2 * h - 1; i >= h; i--)
        printf("%4d", p->pit[i]);
    printf("\n        ");
    for (int i = 0; i < h; i++)
        printf("%4d", p->pit[i]);
    printf("  %2d South\n        ", p->store[SOUTH]);
    for (int i = 0; i < h; i++) {
        hole_name(v, i, label);
        printf("%4s", label);
    }
    printf("\n\n");
}

/* A person's answer as a hole of `side`: a hole's name (S3, n3: hole_from_name) or its
 * number 1..H in the mover's row alone (3); or -1 with the reason in why. */
static int parse_label(const Variant *v, const Position *p, const char *text, char *why,
                       size_t len)
{
    const char letter = p->side == SOUTH ? 'S' : 'N';
    int hole = hole_from_name(v, text);
    if (hole >= 0 && variant_owner(v, hole) != p->side) {
        snprintf(why, len, "'%s' is not one of %s's holes", text, side_name[p->side]);
        return -1;
    }
    if (hole < 0) {
        char *end;
        long k = strtol(text, &end, 10);
        if (end == text || *end || !isdigit((unsigned char)*text) || k < 1 || k > v->holes) {
            snprintf(why, len, "'%s': type a hole of %s's, %c1 to %c%d", text,
                     side_name[p->side], letter, letter, v->holes);
            return -1;
        }
        hole = (int)(k - 1) + p->side * v->holes;
    }
    if (p->pit[hole] == 0) {
        char name[HOLE_NAME_MAX];
        hole_name(v, hole, name);
        snprintf(why, len, "%s is empty", name);
        return -1;
    }
    return hole;
}

/* Ask the person to move in p until a legal hole comes; HUMAN_QUITS if they quit. Dies at the
 * end of input. */
static int ask_move(const Game *g, const Position *p)
{
    char *line = NULL, why[160];
    size_t cap = 0;
    for (;;) {
        printf("%s to move (%c1-%c%d, or quit): ", side_name[p->side],
               p->side == SOUTH ? 'S' : 'N', p->side == SOUTH ? 'S' : 'N', g->v.holes);
        cli_flush_stdout();   /* a long game: the board lost is said now, not at the end */
        ssize_t n = getline(&line, &cap, stdin);
        if (n < 0) {
            free(line);
            printf("\n");
            die("the input ended before the game did");
        }
        char *s = line, *e = line + n;
        while (e > s && isspace((unsigned char)e[-1]))
            *--e = '\0';
        while (isspace((unsigned char)*s))
            s++;
        if (!g->tty)
            printf("%s\n", s);   /* piped input: show it, as a terminal would have */
        if (!*s)
            continue;
        if (strcmp(s, "quit") == 0 || strcmp(s, "q") == 0) {
            free(line);
            return HUMAN_QUITS;
        }
        int hole = parse_label(&g->v, p, s, why, sizeof why);
        if (hole >= 0) {
            free(line);
            return hole;
        }
        fprintf(stderr, "%s\n", why);
    }
}

/* Say what a move did: laps, every capture in order, and who moves next. */
static void report_move(const Game *g, const Position *before, int hole, const char *note,
                        MoveEvent ev, const MoveInfo *info, const MoveTrace *t)
{
    char label[HOLE_NAME_MAX];
    hole_name(&g->v, hole, label);
    printf("%s plays %s%s: %" PRIu64 " lap%s", side_name[before->side], label, note, info->laps,
           info->laps == 1 ? "" : "s");
    if (ev == EV_ENDLESS) {
        printf("; the move never ends.\n");
        return;
    }
    for (int i = 0; i < t->n; i++) {
        hole_name(&g->v, t->cap[i].hole, label);
        printf("%s%s to %s (%s, lap %u)", i == 0 ? "; captures: " : ", ", label,
               side_name[t->cap[i].by], t->cap[i].final ? "final" : "mid-sow",
               (unsigned)t->cap[i].lap);
    }
    if (t->n == 0)
        printf("; no capture");
    if (ev == EV_OVER) {
        printf(".\n");
        return;
    }
    const char *mover = side_name[before->side], *next = side_name[g->p.side];
    if (ev == EV_EXTRA && !info->passed)
        printf("; a final-seed capture: %s moves again.\n", mover);
    else if (ev == EV_EXTRA)
        printf("; a final-seed capture, but %s has no seeds: %s to move.\n", mover, next);
    else if (info->passed)
        printf("; %s has no seeds and passes: %s to move.\n", side_name[!g->p.side], next);
    else
        printf(". %s to move.\n", next);
}

/* The end: the award of the seeds left and the result, or why the game stopped. */
static void report_end(const Game *g, bool endless)
{
    if (endless || !pos_over(&g->v, &g->p)) {
        printf("The game stops %s after %" PRIu64 " plies, with no award: South %d, North %d.\n",
               outcome_name(endless ? OUT_ENDLESS : OUT_UNFINISHED), g->plies,
               g->p.store[SOUTH], g->p.store[NORTH]);
        return;
    }
    static const char *const why[FF_NB] = { "the last capturer", "the first to make a final-seed capture",
                                            "the lottery coin" };
    Award a;
    pos_award(&g->v, &g->p, &g->stream, &a);
    printf("Game over after %" PRIu64 " plies.", g->plies);
    if (a.left)
        printf(" The %u seed%s left go%s to %s (%s).", a.left, a.left == 1 ? "" : "s",
               a.left == 1 ? "es" : "", side_name[a.recipient], why[g->v.final_four]);
    printf(" South %u, North %u: %s.\n", a.score[SOUTH], a.score[NORTH],
           a.score[SOUTH] > a.score[NORTH]   ? "South wins"
           : a.score[NORTH] > a.score[SOUTH] ? "North wins"
                                             : "a draw");
}

/* A person's move, asked for at the keyboard (the `choose` of a human player). */
static int human_choose(Agent *a, const Variant *v, const Position *p, Rng *rng, AgentStats *st)
{
    (void)v;
    (void)rng;
    (void)st;
    return ask_move(a->data, p);
}

/* After each move of the game loop: keep the game as it stands, say what the move did and
 * show the board. */
static void show_move(void *ctx, const GameMove *m)
{
    Game *g = ctx;
    const Player *pl = &g->player[m->before->side];
    g->p = *m->after;
    g->plies = m->ply;
    char note[160] = "";
    const AgentStats *st = m->stats;
    if (!pl->human && st && st->playouts)
        snprintf(note, sizeof note, " (%s: reward %.3f, %" PRIu64 " playouts)", pl->agent.name,
                 st->value, st->playouts);
    else if (!pl->human && st && st->nodes)
        snprintf(note, sizeof note, " (%s: %+.2f seeds, %" PRIu64 " nodes, depth %d)",
                 pl->agent.name, st->value, st->nodes, st->depth);
    report_move(g, m->before, m->move, note, m->ev, m->info, m->trace);
    if (!g->quiet && m->ev != EV_ENDLESS)
        show_board(&g->v, &g->p);
}

/* Set up one side from WHO: a person or an agent. */
static void setup_player(Game *g, int side, const char *who)
{
    Player *pl = &g->player[side];
    Error e;
    pl->who = who;
    pl->human = strcmp(who, "human") == 0;
    if (pl->human) {
        pl->agent = (Agent){ .name = "human", .choose = human_choose, .data = g };
        return;
    }
    if (agent_create(&pl->agent, who, &e) != 0 || agent_check_variant(&pl->agent, &g->v, &e) != 0)
        die("--%s: %s", side == SOUTH ? "south" : "north", e.msg);
    char note[512];
    if (agent_note_position(&pl->agent, &g->v, &g->p, note, sizeof note))
        fprintf(stderr, "anywoli play: --%s: note: %s\n", side == SOUTH ? "south" : "north",
                note);
}

/* Print who plays which side, in full. */
static void show_players(const Game *g)
{
    for (int side = 0; side < 2; side++) {
        char full[1024];
        if (g->player[side].human)
            snprintf(full, sizeof full, "human");
        else
            agent_describe(&g->player[side].agent, full, sizeof full);
        printf("%s: %s\n", side_name[side], full);
    }
}

/* Parse the command line into g (players not yet set up). */
static void parse_play_options(int argc, char **argv, Game *g, const char **who)
{
    static const struct option own[] = {
        { "south", required_argument, NULL, OPT_SOUTH },
        { "north", required_argument, NULL, OPT_NORTH },
        { "seed", required_argument, NULL, OPT_SEED },
        { "position", required_argument, NULL, OPT_POSITION },
        { "quiet", no_argument, NULL, OPT_QUIET },
        { NULL, 0, NULL, 0 },
    };
    VariantText vo = { 0 };
    const char *apn = NULL;
    uint64_t seed = 1;
    int c;
    while ((c = cli_next_option(argc, argv, "", own, &vo)) != -1) {
        switch (c) {
        case OPT_SOUTH: who[SOUTH] = optarg; break;
        case OPT_NORTH: who[NORTH] = optarg; break;
        case OPT_SEED: seed = (uint64_t)cli_number("--seed", optarg, 0, INT64_MAX); break;
        case OPT_POSITION: apn = optarg; break;
        case OPT_QUIET: g->quiet = true; break;
        case OPT_HELP: printf("%s%s", play_usage, cli_variant_help()); exit(0);
        }
    }
    if (optind != argc)
        die("unexpected argument '%s' (see --help)", argv[optind]);
    cli_variant_position(&vo, apn, &g->v, &g->p);
    rng_seed(&g->stream, seed, 0, 0);
}

int cmd_play(int argc, char **argv)
{
    static Game g;
    const char *who[2] = { "human", "alphabeta" };
    parse_play_options(argc, argv, &g, who);
    g.tty = isatty(STDIN_FILENO);
    setup_player(&g, SOUTH, who[SOUTH]);
    setup_player(&g, NORTH, who[NORTH]);
    show_players(&g);
    if (!g.quiet)
        show_board(&g.v, &g.p);
    /* The start is copied: the observer keeps g.p as the game stands. */
    Position start = g.p;
    GameOptions o = { .start = { .position = &start }, .observe = show_move, .observer_ctx = &g };
    GameRecord r;
    int rc = game_play_from(&g.v, &g.player[SOUTH].agent, &g.player[NORTH].agent, &g.stream, &o,
                            &r, &g.p);
    if (rc == HUMAN_QUITS)
        printf("%s quits after %" PRIu64 " plies.\n", side_name[g.p.side], g.plies);
    else if (rc == AGENT_FAULT)   /* the game cannot go on as its rules say: no result */
        fail("%s", agent_fault(&g.player[g.p.side].agent));
    else if (rc < 0)   /* no stop is requested here: out of memory */
        fail("agent %s: out of memory for its search", g.player[g.p.side].agent.name);
    else
        report_end(&g, r.outcome == OUT_ENDLESS);
    for (int side = 0; side < 2; side++)
        if (!g.player[side].human)
            agent_free(&g.player[side].agent);
    return 0;
}
