/* progress.c: the progress line. */
#include "progress.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"

void progress_init(Progress *p, bool quiet, bool json)
{
    const char *env = getenv("ANYWOLI_PROGRESS_SECONDS");
    double every = env ? atof(env) : 0.0;
    p->shown = false;
    p->started = false;
    p->next = 0.0;
    if (quiet) {
        p->mode = PROGRESS_NONE;
        p->interval = 0.0;
    } else if (json) {
        p->mode = PROGRESS_JSON;
        p->interval = every > 0.0 ? every : 5.0;
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

/* The figure as text: "; A score 0.587 [0.551, 0.622], Elo +61 [+36, +87], over 612 pairs;
 * LLR 1.23 [-2.94, 2.94]". */
static void figure_text(const ProgressFigure *f, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    if (f->name && strcmp(f->name, "score") == 0)
        used = (size_t)snprintf(buf, len, "; A score %.3f [%.3f, %.3f], Elo %+.0f [%+.0f, %+.0f],"
                                " over %" PRIu64 " %s%s", f->value.value, f->value.ci.lo,
                                f->value.ci.hi, f->elo.value, f->elo.ci.lo, f->elo.ci.hi,
                                f->units, f->unit, f->units == 1 ? "" : "s");
    else if (f->name)
        used = (size_t)snprintf(buf, len, "; South's advantage %+.3f [%+.3f, %+.3f] over %" PRIu64
                                " %s%s", f->value.value, f->value.ci.lo, f->value.ci.hi,
                                f->units, f->unit, f->units == 1 ? "" : "s");
    if (f->has_test && used < len)
        snprintf(buf + used, len - used, "; LLR %.2f [%.2f, %.2f]%s", f->test.llr,
                 f->test.lower, f->test.upper,
                 f->pairs < f->min_pairs ? " (no stop yet: too few pairs)" : "");
}

/* The figure as JSON members: "figure" (null before a pair) and "sprt" (null without a
 * test). */
static void figure_json(Json *j, const ProgressFigure *f)
{
    json_key(j, "figure");
    if (!f->name) {
        json_null(j);
    } else {
        json_object_begin(j);
        json_kv_string(j, "name", f->name);
        json_kv_estimate(j, "value", f->value);
        if (isnan(f->elo.value)) {
            json_key(j, "elo");
            json_null(j);
        } else {
            json_kv_estimate(j, "elo", f->elo);
        }
        json_kv_string(j, "unit", f->unit);
        json_kv_uint(j, "units", f->units);
        json_kv_uint(j, "pairs", f->pairs);
        json_object_end(j);
    }
    json_key(j, "sprt");
    if (!f->has_test) {
        json_null(j);
        return;
    }
    json_object_begin(j);
    json_kv_double(j, "llr", f->test.llr);
    json_kv_double(j, "lower", f->test.lower);
    json_kv_double(j, "upper", f->test.upper);
    json_kv_uint(j, "pairs", f->pairs);
    json_kv_uint(j, "min_pairs", f->min_pairs);
    json_object_end(j);
}

/* Where the run stands as one JSON line (docs/commands.md lists the keys). */
static void show_json(const Progress *p, double now, const ProgressInfo *i)
{
    Json j;
    json_init_line(&j, stderr);
    json_object_begin(&j);
    json_kv_string(&j, "record", "progress");
    json_kv_double(&j, "elapsed_s", p->started ? now - p->t0 : NAN);
    json_kv_string(&j, "job", i->job);
    json_kv_int(&j, "jobno", i->jobno);
    json_kv_int(&j, "njobs", i->njobs);
    json_kv_int(&j, "games", i->done);
    json_kv_int(&j, "planned", i->total);
    json_kv_double(&j, "games_per_s", i->rate);
    json_kv_double(&j, "left_s", i->left >= 0 ? i->left : NAN);
    json_kv_int(&j, "untimed_jobs", i->untimed);
    figure_json(&j, &i->figure);
    json_object_end(&j);
    json_finish(&j);
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
    if (p->mode == PROGRESS_JSON) {
        show_json(p, now, i);
        fflush(stderr);
        p->next = now + p->interval;
        return;
    }
    char figure[256];
    figure_text(&i->figure, figure, sizeof figure);
    char left[32], untimed[48] = "";
    format_duration(i->left, left, sizeof left);
    if (i->untimed > 0)
        snprintf(untimed, sizeof untimed, " + %d job%s not timed yet", i->untimed,
                 i->untimed == 1 ? "" : "s");
    fprintf(stderr, "%srun: [%d/%d] %s: %" PRId64 "/%" PRId64 " games (%.1f%%), %.0f games/s, %s "
            "left%s%s%s", p->mode == PROGRESS_LIVE ? "\r\033[K" : "", i->jobno, i->njobs, i->job,
            i->done, i->total, i->total ? 100.0 * (double)i->done / (double)i->total : 100.0,
            i->rate, left, untimed, figure, p->mode == PROGRESS_LIVE ? "" : "\n");
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
    if (p->mode == PROGRESS_JSON) {
        Json j;
        json_init_line(&j, stderr);
        json_object_begin(&j);
        json_kv_string(&j, "record", "progress");
        json_kv_string(&j, "what", what);
        json_kv_double(&j, "left_s", left >= 0 ? left : NAN);
        json_object_end(&j);
        json_finish(&j);
        fflush(stderr);
        p->next = now + p->interval;
        return;
    }
    fprintf(stderr, "%s%s, %s left%s", p->mode == PROGRESS_LIVE ? "\r\033[K" : "", what, buf,
            p->mode == PROGRESS_LIVE ? "" : "\n");
    fflush(stderr);
    p->shown = p->mode == PROGRESS_LIVE;
    p->next = now + p->interval;
}

void progress_start(Progress *p, double now, const ProgressStart *s)
{
    if (p->mode != PROGRESS_JSON)
        return;
    Json j;
    json_init_line(&j, stderr);
    json_object_begin(&j);
    json_kv_string(&j, "record", "start");
    json_kv_double(&j, "elapsed_s", 0.0);
    json_kv_int(&j, "njobs", s->njobs);
    json_kv_int(&j, "planned", s->planned);
    json_kv_int(&j, "in_file", s->in_file);
    json_kv_int(&j, "threads", s->threads);
    json_kv_int(&j, "ranks", s->ranks);
    json_object_end(&j);
    json_finish(&j);
    fflush(stderr);
    p->started = true;
    p->t0 = now;
    p->next = now + p->interval;   /* the periodic records from one interval on */
}

void progress_end(Progress *p, double now, const ProgressEnd *e)
{
    if (p->mode != PROGRESS_JSON || !p->started)
        return;
    Json j;
    json_init_line(&j, stderr);
    json_object_begin(&j);
    json_kv_string(&j, "record", "end");
    json_kv_double(&j, "elapsed_s", now - p->t0);
    json_kv_string(&j, "outcome", e->outcome);
    json_key(&j, "signal");
    if (e->signal)
        json_int(&j, e->signal);
    else
        json_null(&j);
    json_kv_string(&j, "error", e->error);
    json_kv_int(&j, "games", e->games);
    json_kv_int(&j, "planned", e->planned);
    json_kv_int(&j, "played", e->played);
    json_key(&j, "jobs");
    json_array_begin(&j);
    for (int i = 0; i < e->njobs; i++) {
        json_object_begin(&j);
        json_kv_string(&j, "job", e->jobs[i].job);
        json_kv_int(&j, "games", e->jobs[i].games);
        json_kv_int(&j, "planned", e->jobs[i].planned);
        json_kv_string(&j, "stopped_by", e->jobs[i].stopped_by);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_object_end(&j);
    json_finish(&j);
    fflush(stderr);
    p->started = false;
}

void progress_clear(Progress *p)
{
    if (p->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    p->shown = false;
}
