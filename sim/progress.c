/* progress.c: the progress line. */
#include "progress.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void progress_init(Progress *p, bool quiet)
{
    const char *env = getenv("ANYWOLI_PROGRESS_SECONDS");
    double every = env ? atof(env) : 0.0;
    p->shown = false;
    p->next = 0.0;
    if (quiet) {
        p->mode = PROGRESS_NONE;
        p->interval = 0.0;
    } else if (isatty(STDERR_FILENO)) {
        p->mode = PROGRESS_LIVE;
        p->interval = 0.25;
    } else {
        p->mode = PROGRESS_PLAIN;
        p->interval = every > 0.0 ? every : 5.0;
    }
}

bool progress_due(const Progress *p, double now)
{
    return p->mode != PROGRESS_NONE && now >= p->next;
}

/* Seconds as H:MM:SS or M:SS. */
static void format_duration(double s, char *buf, size_t len)
{
    if (s < 0 || s > 1e8) {
        snprintf(buf, len, "?");
        return;
    }
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

double progress_time_left(const EtaJob *jobs, int njobs, int *untimed)
{
    /* The time per game of each kind of job, from the first of its jobs that has one. */
    double *kind = calloc(njobs > 0 ? (size_t)njobs : 1, sizeof *kind);
    *untimed = 0;
    if (!kind)
        return -1;
    for (int i = 0; i < njobs; i++)
        if (jobs[i].played > 0 && jobs[i].seconds > 0 && kind[jobs[i].like] == 0)
            kind[jobs[i].like] = jobs[i].seconds / (double)jobs[i].played;
    double left = 0;
    for (int i = 0; i < njobs; i++) {
        if (jobs[i].games_left <= 0)
            continue;
        double own = jobs[i].played > 0 && jobs[i].seconds > 0
                     ? jobs[i].seconds / (double)jobs[i].played : 0;
        double per_game = own > 0 ? own : kind[jobs[i].like];
        if (per_game > 0)
            left += per_game * (double)jobs[i].games_left;
        else
            ++*untimed;
    }
    free(kind);
    return left;
}

void progress_show(Progress *p, double now, const ProgressInfo *i)
{
    if (p->mode == PROGRESS_NONE)
        return;
    if (p->next == 0.0) {
        /* The first call only starts the clock: a run shorter than one interval stays quiet. */
        p->next = now + p->interval;
        return;
    }
    char left[32], untimed[48] = "";
    format_duration(i->left, left, sizeof left);
    if (i->untimed > 0)
        snprintf(untimed, sizeof untimed, " + %d job%s not timed yet", i->untimed,
                 i->untimed == 1 ? "" : "s");
    fprintf(stderr, "%srun: [%d/%d] %s: %" PRId64 "/%" PRId64 " games (%.1f%%), %.0f games/s, %s "
            "left%s%s", p->mode == PROGRESS_LIVE ? "\r\033[K" : "", i->jobno, i->njobs, i->job,
            i->done, i->total, i->total ? 100.0 * (double)i->done / (double)i->total : 100.0,
            i->rate, left, untimed, p->mode == PROGRESS_LIVE ? "" : "\n");
    fflush(stderr);
    p->shown = p->mode == PROGRESS_LIVE;
    p->next = now + p->interval;
}

void progress_text(Progress *p, double now, const char *what, double left)
{
    if (p->mode == PROGRESS_NONE)
        return;
    if (p->next == 0.0) {
        p->next = now + p->interval;
        return;
    }
    char buf[32];
    format_duration(left, buf, sizeof buf);
    fprintf(stderr, "%s%s, %s left%s", p->mode == PROGRESS_LIVE ? "\r\033[K" : "", what, buf,
            p->mode == PROGRESS_LIVE ? "" : "\n");
    fflush(stderr);
    p->shown = p->mode == PROGRESS_LIVE;
    p->next = now + p->interval;
}

void progress_clear(Progress *p)
{
    if (p->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    p->shown = false;
}
