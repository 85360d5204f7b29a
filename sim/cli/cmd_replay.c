/* cmd_replay.c: `anywoli replay`, a game of a results file played again, move by move, from
 * what the file stores (the seed, the job's index, variant and agents), and checked against
 * its stored row. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board_page.h"
#include "cli.h"
#include "commands.h"
#include "driver.h"
#include "results.h"

enum { OPT_JOB = OPT_FIRST_FREE, OPT_GAME, OPT_QUIET, OPT_HTML, OPT_FORCE };

static const char replay_usage[] =
    "usage: anywoli replay FILE --job NAME --game N [--quiet]\n"
    "                      [--html OUT.html [--force]]\n\n"
    "Play game N of a job of a results file again, from the file's seed, the job's\n"
    "index, variant and agent specs, and the game's opening (its row of the job's\n"
    "openings table: its moves are the game's first plies); print every move as\n"
    "`PLY SIDE HOLE APN EVENT`, the hole by its name (S1..SH for South's, N1..NH for\n"
    "North's, from each owner's left, as `anywoli play` shows them), with the\n"
    "position after it (APN) and its event; then check that the\n"
    "outcome, the scores, the moves' hash and every other field equal the stored row.\n"
    "When the job stored its moves (record_moves), they are checked ply by ply\n"
    "against the game played again, and the moves shown are the stored ones.\n"
    "Exit status 0 when they all match, 1 when they do not, 2 on a bad input.\n\n"
    "  --job NAME   the job (a group under /jobs)\n"
    "  --game N     the game's index in the job, from 0\n"
    "  --quiet      only the result and the check, not every move\n"
    "  --html OUT.html  also write the game as a page that steps through it, one\n"
    "               self-contained file: the board after each ply (holes S1.. and\n"
    "               N1..), the move's mover, hole and event, the holes it sowed and\n"
    "               captured, the stores, the outcome (written only when the check\n"
    "               passes)\n"
    "  --force      replace an existing OUT.html\n"
    "  --help       this text\n";

/* A side's letter, or '-' for nobody. */
static char side_letter(int side)
{
    return side == SOUTH ? 'S' : side == NORTH ? 'N' : '-';
}

/* How the game ended, from its record, as one line into buf (without its newline). */
static void end_text(const Variant *v, const GameRecord *r, char *buf, size_t len)
{
    if (record_adjudicated(v, r)) {
        snprintf(buf, len, "end: %s, adjudicated: stores South %u North %u, %u seeds on the "
                 "board", outcome_phrase(r->outcome), r->south, r->north, r->left);
    } else if (r->outcome != OUT_ENDLESS && r->outcome != OUT_UNFINISHED) {
        int to = award_recipient(v->final_four, r->last_capturer, r->first_final, r->lottery);
        snprintf(buf, len, "end: %s, South %u North %u (%u left to %c under %s)",
                 outcome_phrase(r->outcome), r->south, r->north, r->left, side_letter(to),
                 final_four_name(v->final_four));
    } else {
        snprintf(buf, len, "end: %s, stores South %u North %u, %u seeds on the board",
                 outcome_phrase(r->outcome), r->south, r->north, r->left);
    }
}

/* Where the moves of the game shown go: printed, and as steps of the page (NULL: none). */
typedef struct ReplayView {
    const Variant *v;
    bool print;
    BoardPage *page;
} ReplayView;

/* Show one move of the game: print its ply, the mover, the hole's name, the position after
 * it and its event, and add it to the page. */
static void show_move(void *ctx, const GameMove *m)
{
    const ReplayView *view = ctx;
    if (view->page)
        board_page_move(view->page, m->ply, m->move, m->before, m->after, m->ev, m->trace);
    if (!view->print)
        return;
    char apn[APN_MAX], name[HOLE_NAME_MAX];
    apn_format(view->v, m->after, apn);
    hole_name(view->v, m->move, name);
    printf("%" PRIu32 " %c %s %s %s\n", m->ply, side_letter(m->before->side), name, apn,
           move_event_name(m->ev));
}

/* Play the game again from the file, by the game loop `run` plays it with, from its opening
 * (index `opening` in the job's table, or NULL and -1 for the variant's start), showing its
 * start and each move as `view` says (NULL: nothing); its moves go to `made` unless that is
 * NULL. With `given` (the job's
 * stored moves), the game loop plays those moves instead of asking the agents. */
static void replay_game(const StoredJob *sj, uint64_t game, const Opening *op, int32_t opening,
                        Agent *a, Agent *b, const ReplayView *view, const MoveList *given,
                        MoveList *made,
                        GameRecord *r)
{
    const Variant *v = &sj->variant;
    Position start, end;
    char apn[APN_MAX];
    if (op && op->has_position)
        start = op->position;
    else
        pos_start(v, &start);
    apn_format(v, &start, apn);
    bool quiet = !view || !view->print;
    if (!quiet && op) {
        char moves[OPENING_MAX_PLIES * HOLE_NAME_MAX + 1];
        hole_names(v, op->moves, op->n_moves, moves, sizeof moves);
        printf("opening %" PRId32 " of %s: %s\n", opening, sj->openings,
               op->n_moves ? moves : "(a position)");
    }
    if (!quiet)
        printf("start %s\n", apn);
    if (view && view->page)
        board_page_start(view->page, &start);
    GameOptions o = { .start = { .position = &start },
                      .observe = view ? show_move : NULL,
                      .observer_ctx = (void *)view,
                      .moves = made,
                      .adjudicate = sj->adjudicate };
    int *stored = NULL;
    if (given) {
        /* The stored moves from the opening's position, as the game's given moves (checked
         * equal to the replay's first, so every one is legal). */
        if (!(stored = malloc((given->n ? given->n : 1) * sizeof *stored)))
            fail("out of memory for %" PRIu32 " moves", given->n);
        for (uint32_t i = 0; i < given->n; i++)
            stored[i] = given->move[i];
        o.start = (GameStart){ &start, stored, given->n };
        op = NULL;   /* its moves are the first of the stored ones */
    }
    memset(r, 0, sizeof *r);
    int rc = game_play_indexed(v, (uint64_t)sj->seed, sj->index, game, op, opening, a, b, &o, r,
                               &end);
    free(stored);
    if (rc != 0) {
        /* no stop is requested here: the search ran out of memory */
        const Agent *mover = (end.side == SOUTH) == (game % 2 == 0) ? a : b;
        fail("agent %s: out of memory for its search at ply %" PRIu32, mover->name,
             r->plies + 1);
    }
}

/* Compare the stored moves with the replay's, ply by ply; print the first difference (naming
 * the job, the game, the ply and the holes by name) and return 1, or 0 when they are the
 * same. */
static int compare_moves(const Variant *v, const char *path, const char *job, uint64_t game,
                         const MoveList *stored, const MoveList *replayed)
{
    char a[HOLE_NAME_MAX], b[HOLE_NAME_MAX];
    uint32_t n = stored->n < replayed->n ? stored->n : replayed->n, ply = 0;
    while (ply < n && stored->move[ply] == replayed->move[ply])
        ply++;
    if (ply == stored->n && ply == replayed->n)
        return 0;
    fprintf(stderr, "%s: %s: job %s: game %" PRIu64 ": ply %" PRIu32 ": ", cli_command, path,
            job, game, ply + 1);
    if (ply < stored->n)
        hole_name(v, stored->move[ply], a);
    if (ply < replayed->n)
        hole_name(v, replayed->move[ply], b);
    if (ply == stored->n)
        fprintf(stderr, "the stored moves end, the replay moves %s\n", b);
    else if (ply == replayed->n)
        fprintf(stderr, "stored move %s, but the replay's game has ended\n", a);
    else
        fprintf(stderr, "stored move %s, the replay moves %s\n", a, b);
    return 1;
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

/* The page of --html (claimed as o): OUT.partial made and the page begun on it; dies on a
 * failure to make it. */
static FILE *page_begin(Output *o, BoardPage *page, const Variant *v, const char *about)
{
    Error e;
    FILE *out = output_stream_open(o, &e);
    if (!out) {
        output_release(o);
        fail("%s", e.msg);
    }
    board_page_begin(page, out, v, "anywoli replay", about);
    return out;
}

/* The page's end with the game's (the record r's), put in place as OUT unless the check
 * failed (`refused`: OUT.partial removed); dies on a failed write. */
static void page_end(Output *o, BoardPage *page, FILE *out, const GameRecord *r, bool refused)
{
    Error e;
    char end[512];
    end_text(page->v, r, end, sizeof end);
    board_page_end(page, end);
    int rc = output_stream_close(o, out, refused ? 1 : 0, &e);
    output_release(o);
    if (rc != 0 && !refused)
        fail("%s", e.msg);
}

int cmd_replay(int argc, char **argv)
{
    static const struct option opts[] = {
        { "job", required_argument, NULL, OPT_JOB },
        { "game", required_argument, NULL, OPT_GAME },
        { "quiet", no_argument, NULL, OPT_QUIET },
        { "html", required_argument, NULL, OPT_HTML },
        { "force", no_argument, NULL, OPT_FORCE },
        { "help", no_argument, NULL, OPT_HELP },
        { NULL, 0, NULL, 0 },
    };
    const char *job = NULL, *html = NULL;
    long long game = -1;
    bool quiet = false, force = false;
    int c;
    while ((c = cli_getopt(argc, argv, "", opts)) != -1) {
        switch (c) {
        case OPT_JOB: job = optarg; break;
        case OPT_GAME: game = cli_number("--game", optarg, 0, INT64_MAX); break;
        case OPT_QUIET: quiet = true; break;
        case OPT_HTML: html = optarg; break;
        case OPT_FORCE: force = true; break;
        case OPT_HELP: printf("%s", replay_usage); return 0;
        }
    }
    if (optind >= argc)
        die("missing the results FILE (see --help)");
    if (optind + 1 < argc)
        die("unexpected argument '%s' (see --help)", argv[optind + 1]);
    if (!job || game < 0)
        die("--job NAME and --game N are required (see --help)");
    if (force && !html)
        die("--force: only with --html OUT.html");
    const char *path = argv[optind];

    StoredJob sj;
    Error e;
    GameRecord stored, got;
    ResultsFile *f = rf_open(path, &e);
    if (!f)
        die("%s", e.msg);
    Output page_file;
    if (html)
        cli_claim_output(&page_file, html, force, "replay");
    if (rf_read_job(f, job, &sj, &e) != 0)
        die("%s", e.msg);
    if (sj.first_game == 0 && (uint64_t)game >= sj.rows)
        die("--game: %lld is beyond the %" PRIu64 " games stored for job %s", game, sj.rows, job);
    if (game < sj.first_game || (uint64_t)(game - sj.first_game) >= sj.rows)
        die("--game: %lld is not among the games stored for job %s (%" PRId64 " to %" PRId64 ")",
            game, job, sj.first_game, sj.first_game + (int64_t)sj.rows - 1);
    if (rf_read_rows(f, job, (uint64_t)(game - sj.first_game), 1, &stored, &e) != 0)
        die("%s", e.msg);
    Opening op;
    if (stored.opening >= 0 && rf_read_opening(f, job, &sj.variant, stored.opening, &op, &e) != 0)
        die("%s", e.msg);
    Agent a, b;
    if (agent_create(&a, sj.agent_a, &e) != 0)
        die("%s: job %s: agent_a: %s", path, job, e.msg);
    if (agent_create(&b, sj.agent_b, &e) != 0)
        die("%s: job %s: agent_b: %s", path, job, e.msg);
    char desc[256], head[4096];
    variant_describe(&sj.variant, desc, sizeof desc);
    snprintf(head, sizeof head, "replay %s job %s game %lld: %s; seed %" PRId64 ", job index %"
             PRIu64 "; South %s (agent %c), North %s (agent %c)", path, job, game, desc, sj.seed,
             sj.index, game % 2 == 0 ? sj.agent_a : sj.agent_b, game % 2 == 0 ? 'A' : 'B',
             game % 2 == 0 ? sj.agent_b : sj.agent_a, game % 2 == 0 ? 'B' : 'A');
    printf("%s\n", head);
    const Opening *opening = stored.opening >= 0 ? &op : NULL;
    MoveList kept = { NULL, 0, 0 }, replayed = { NULL, 0, 0 };
    bool has_moves = rf_job_has_moves(f, job);
    int bad = 0;
    if (has_moves) {
        /* The stored moves are checked against the game played again from its seed first;
         * then the game loop plays the stored ones, for the moves shown. */
        if (rf_read_moves(f, job, &sj.variant, &stored, &kept, &e) != 0)
            die("%s", e.msg);
        replay_game(&sj, (uint64_t)game, opening, stored.opening, &a, &b, NULL, NULL, &replayed,
                    &got);
        bad = compare_moves(&sj.variant, path, job, (uint64_t)game, &kept, &replayed);
    }
    bool moves_differ = bad != 0;
    if (!bad) {
        /* With stored moves, the game shown is theirs (its record is the replay's, but for
         * the agents' work: no agent chose a stored move). */
        GameRecord shown;
        BoardPage page;
        ReplayView view = { &sj.variant, !quiet, NULL };
        FILE *page_out = html ? page_begin(&page_file, &page, &sj.variant, head) : NULL;
        if (page_out)
            view.page = &page;
        replay_game(&sj, (uint64_t)game, opening, stored.opening, &a, &b,
                    quiet && !page_out ? NULL : &view, has_moves ? &kept : NULL, NULL,
                    has_moves ? &shown : &got);
        if (has_moves && (shown.outcome != got.outcome || shown.plies != got.plies ||
                          shown.south != got.south || shown.north != got.north)) {
            /* The same moves must make the same game: anything else is the engine's fault. */
            fprintf(stderr, "%s: %s: job %s: game %lld: the stored moves end %s after %" PRIu32
                    " plies, the replay %s after %" PRIu32 "\n", cli_command, path, job, game,
                    outcome_phrase(shown.outcome), shown.plies, outcome_phrase(got.outcome),
                    got.plies);
            moves_differ = true;
        }
        bad = moves_differ ? 1 : compare(f, job, &got, &stored);
        if (page_out)
            page_end(&page_file, &page, page_out, &got, bad != 0);
    }
    if (html && moves_differ)
        output_release(&page_file);
    char end[512];
    end_text(&sj.variant, &got, end, sizeof end);
    printf("%s\n", end);
    move_list_free(&kept);
    move_list_free(&replayed);
    rf_close(f);
    agent_free(&a);
    agent_free(&b);
    stored_job_free(&sj);
    if (bad) {
        if (moves_differ)
            fprintf(stderr, "%s: game %lld of job %s does not match its stored moves\n",
                    cli_command, game, job);
        else
            fprintf(stderr, "%s: game %lld of job %s does not match its stored row (%d "
                    "field%s)\n", cli_command, game, job, bad, bad == 1 ? "" : "s");
        if (html)
            fprintf(stderr, "%s: %s: not written, as the game does not match its record\n",
                    cli_command, html);
        return 1;
    }
    printf("check: the stored row matches (outcome, scores, recipients, plies, passes, "
           "captures, opening, moves_hash, line_hash, nodes_a, nodes_b, choices_a,\n"
           "choices_b)\n");
    if (has_moves)
        printf("check: the stored moves match the replay's (%" PRIu32 " plies)\n",
               got.plies);
    return 0;
}
