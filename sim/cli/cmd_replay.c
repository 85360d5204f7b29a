/* cmd_replay.c: `anywoli replay`, a game of a results file played again, move by move, from
 * what the file stores (the seed, the job's index, variant and agents), and checked against
 * its stored row. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "driver.h"
#include "results.h"

enum { OPT_JOB = OPT_FIRST_FREE, OPT_GAME, OPT_QUIET };

static const char replay_usage[] =
    "usage: anywoli replay FILE --job NAME --game N [--quiet]\n\n"
    "Play game N of a job of a results file again, from the file's seed, the job's index,\n"
    "variant and agent specs, and the game's opening (its row of the job's openings table:\n"
    "its moves are the game's first plies); print every move (hole index) with the position\n"
    "after it (APN) and its event; then check that the outcome, the scores, the moves' hash\n"
    "and every other field equal the stored row. Exit status 0 when they do, 1 when they do\n"
    "not, 2 on a bad input.\n\n"
    "  --job NAME   the job (a group under /jobs)\n"
    "  --game N     the game's index in the job, from 0\n"
    "  --quiet      only the result and the check, not every move\n"
    "  --help       this text\n";

static const char *const outcome_names[] = { "South won", "North won", "draw", "endless",
                                             "unfinished" };

/* A side's letter, or '-' for nobody. */
static char side_letter(int side)
{
    return side == SOUTH ? 'S' : side == NORTH ? 'N' : '-';
}

/* Print how the game ended, from its record. */
static void print_end(const Variant *v, const GameRecord *r)
{
    if (r->outcome != OUT_ENDLESS && r->outcome != OUT_UNFINISHED) {
        int to = award_recipient(v->final_four, r->last_capturer, r->first_final, r->lottery);
        printf("end: %s, South %u North %u (%u left to %c under %s)\n",
               outcome_names[r->outcome], r->south, r->north, r->left, side_letter(to),
               final_four_name(v->final_four));
    } else {
        printf("end: %s, stores South %u North %u, %u seeds on the board\n",
               outcome_names[r->outcome], r->south, r->north, r->left);
    }
}

/* Print one move of the game: its ply, the mover, the hole, the position after it, its event. */
static void print_move(void *ctx, const GameMove *m)
{
    const Variant *v = ctx;
    char apn[APN_MAX];
    apn_format(v, m->after, apn);
    printf("%" PRIu32 " %c %d %s %s\n", m->ply, side_letter(m->before->side), m->move, apn,
           move_event_name(m->ev));
}

/* Play the game again from the file, by the game loop `run` plays it with, from its opening
 * (index `opening` in the job's table, or NULL and -1 for the variant's start), printing each
 * move unless quiet. */
static void replay_game(const StoredJob *sj, uint64_t game, const Opening *op, int32_t opening,
                        Agent *a, Agent *b, bool quiet, GameRecord *r)
{
    const Variant *v = &sj->variant;
    Position start, end;
    char apn[APN_MAX];
    if (op && op->has_position)
        start = op->position;
    else
        pos_start(v, &start);
    apn_format(v, &start, apn);
    if (!quiet && op) {
        char moves[OPENING_MAX_PLIES * 4 + 1];
        opening_moves_text(op, moves, sizeof moves);
        printf("opening %" PRId32 " of %s: %s\n", opening, sj->openings,
               op->n_moves ? moves : "(a position)");
    }
    if (!quiet)
        printf("start %s\n", apn);
    GameOptions o = { .start = { .position = &start },
                      .observe = quiet ? NULL : print_move,
                      .observer_ctx = (void *)v };
    memset(r, 0, sizeof *r);
    if (game_play_indexed(v, (uint64_t)sj->seed, sj->index, game, op, opening, a, b, &o, r,
                          &end) != 0) {
        /* no stop is requested here: the search ran out of memory */
        const Agent *mover = (end.side == SOUTH) == (game % 2 == 0) ? a : b;
        fail("agent %s: out of memory for its search at ply %" PRIu32, mover->name,
             r->plies + 1);
    }
    print_end(v, r);
}

/* Compare the replayed record with the stored row field by field (the games table's columns
 * but `game`, which is the row asked for, and those an older file lacks); print the
 * differences. */
static int compare(const ResultsFile *f, const char *job, const GameRecord *got,
                   const GameRecord *want)
{
    int bad = 0;
    for (int i = 0; i < row_field_count(); i++) {
        int64_t g = row_field_value(got, i), w = row_field_value(want, i);
        if (strcmp(row_field_name(i), "game") != 0 && g != w &&
            rf_job_has_field(f, job, row_field_name(i))) {
            fprintf(stderr, "%s: %s: replayed %" PRId64 ", stored %" PRId64 "\n", cli_command,
                    row_field_name(i), g, w);
            bad++;
        }
    }
    return bad;
}

int cmd_replay(int argc, char **argv)
{
    static const struct option opts[] = {
        { "job", required_argument, NULL, OPT_JOB },
        { "game", required_argument, NULL, OPT_GAME },
        { "quiet", no_argument, NULL, OPT_QUIET },
        { "help", no_argument, NULL, OPT_HELP },
        { NULL, 0, NULL, 0 },
    };
    const char *job = NULL;
    long long game = -1;
    bool quiet = false;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case OPT_JOB: job = optarg; break;
        case OPT_GAME: game = cli_number("--game", optarg, 0, INT64_MAX); break;
        case OPT_QUIET: quiet = true; break;
        case OPT_HELP: printf("%s", replay_usage); return 0;
        default: die("unknown or incomplete option '%s' (see --help)", argv[optind - 1]);
        }
    }
    if (optind >= argc)
        die("missing the results FILE (see --help)");
    if (optind + 1 < argc)
        die("unexpected argument '%s' (see --help)", argv[optind + 1]);
    if (!job || game < 0)
        die("--job NAME and --game N are required (see --help)");
    const char *path = argv[optind];

    StoredJob sj;
    Error e;
    GameRecord stored, got;
    ResultsFile *f = rf_open(path, &e);
    if (!f || rf_read_job(f, job, &sj, &e) != 0)
        die("%s", e.msg);
    if ((uint64_t)game >= sj.rows)
        die("--game: %lld is beyond the %" PRIu64 " games stored for job %s", game, sj.rows, job);
    if (rf_read_rows(f, job, (uint64_t)game, 1, &stored, &e) != 0)
        die("%s", e.msg);
    Opening op;
    if (stored.opening >= 0 && rf_read_opening(f, job, &sj.variant, stored.opening, &op, &e) != 0)
        die("%s", e.msg);
    Agent a, b;
    if (agent_create(&a, sj.agent_a, &e) != 0)
        die("%s: job %s: agent_a: %s", path, job, e.msg);
    if (agent_create(&b, sj.agent_b, &e) != 0)
        die("%s: job %s: agent_b: %s", path, job, e.msg);
    char desc[256];
    variant_describe(&sj.variant, desc, sizeof desc);
    printf("replay %s job %s game %lld: %s; seed %" PRId64 ", job index %" PRIu64
           "; South %s (agent %c), North %s (agent %c)\n", path, job, game, desc, sj.seed,
           sj.index, game % 2 == 0 ? sj.agent_a : sj.agent_b, game % 2 == 0 ? 'A' : 'B',
           game % 2 == 0 ? sj.agent_b : sj.agent_a, game % 2 == 0 ? 'B' : 'A');
    replay_game(&sj, (uint64_t)game, stored.opening >= 0 ? &op : NULL, stored.opening, &a, &b,
                quiet, &got);
    int bad = compare(f, job, &got, &stored);
    rf_close(f);
    agent_free(&a);
    agent_free(&b);
    stored_job_free(&sj);
    if (bad) {
        fprintf(stderr, "%s: game %lld of job %s does not match its stored row (%d field%s)\n",
                cli_command, game, job, bad, bad == 1 ? "" : "s");
        return 1;
    }
    printf("check: the stored row matches (outcome, scores, recipients, plies, passes, "
           "captures, opening, moves_hash, line_hash, nodes_a, nodes_b)\n");
    return 0;
}
