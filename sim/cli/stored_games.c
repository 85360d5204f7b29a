/* stored_games.c: the games of a results file with stored moves, in order, each with the
 * position its moves start from (stored_games.h). */
#include "stored_games.h"

#include <inttypes.h>
#include <stdio.h>

#include "cli.h"

/* Every game of job `name`: its rows (for the opening each starts from) and moves. */
static void each_game_of_job(const ResultsFile *f, const char *name, const StoredJob *sj,
                             GameVisit visit, void *ctx)
{
    Error e;
    char where[512];
    snprintf(where, sizeof where, "%s: job %s", rf_path(f), name);
    RowStream *rows = rf_rows_open(f, name, &e);
    MoveStream *ms = rows ? rf_moves_open(f, name, &sj->variant, &e) : NULL;
    if (!ms)
        die("%s", e.msg);
    GameRecord r;
    MoveList moves = { 0 };
    int64_t got;
    while ((got = rf_rows_next(rows, &r, 1, &e)) == 1) {
        Position start;
        Opening op;
        if (r.opening >= 0 && rf_read_opening(f, name, &sj->variant, r.opening, &op, &e) != 0)
            die("%s", e.msg);
        if (r.opening >= 0 && op.has_position)
            start = op.position;   /* the stored moves start there */
        else
            pos_start(&sj->variant, &start);
        if (rf_moves_read(ms, r.game, &moves, &e) != 0)
            die("%s", e.msg);
        visit(&sj->variant, &start, &moves, where, r.game, ctx);
    }
    if (got < 0)
        die("%s", e.msg);
    move_list_free(&moves);
    rf_moves_close(ms);
    rf_rows_close(rows);
}

int stored_games_each(const ResultsFile *f, const char *const *jobs, int n_jobs, JobFits fits,
                      GameVisit visit, void *ctx, const char *wanted)
{
    Error e;
    int used = 0, total = n_jobs ? n_jobs : rf_job_count(f);
    for (int i = 0; i < total; i++) {
        const char *name = n_jobs ? jobs[i] : rf_job_name(f, i);
        StoredJob sj;
        if (rf_read_job(f, name, &sj, &e) != 0)
            die("%s", e.msg);
        bool moves = rf_job_has_moves(f, name);
        if (n_jobs && !moves)
            die("%s: job %s has no stored moves (run it with record_moves = true, or "
                "--record-moves)", rf_path(f), name);
        bool fit = fits(&sj.variant, ctx, &e) == 0;
        if (n_jobs && !fit)
            die("%s: job %s: %s", rf_path(f), name, e.msg);
        if (moves && fit) {
            each_game_of_job(f, name, &sj, visit, ctx);
            used++;
        }
        stored_job_free(&sj);
    }
    if (used == 0)
        die("%s: no job has stored moves and the tables' variant (%s)", rf_path(f), wanted);
    return used;
}
