/* stored_games.c: the jobs of a results file whose stored games a command replays
 * (stored_games.h). */
#include "stored_games.h"

#include <stdio.h>

#include "cli.h"

int stored_games_each(const ResultsFile *f, const char *const *jobs, int n_jobs, JobFits fits,
                      const GameWalk *w, const char *wanted)
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
        bool fit = moves && fits(name, &sj.variant, w->ctx, &e) == 0;
        if (n_jobs && !fit)
            die("%s: job %s: %s", rf_path(f), name, e.msg);
        if (fit) {
            if (rf_walk_games(f, name, &sj, w, &e) != 0)
                die("%s", e.msg);
            used++;
        }
        stored_job_free(&sj);
    }
    if (used == 0 && wanted)
        die("%s: no job has stored moves and the tables' variant (%s)", rf_path(f), wanted);
    if (used == 0)
        die("%s: no job has stored moves (run one with record_moves = true, or "
            "--record-moves)", rf_path(f));
    return used;
}
