/* grow.c: the checks and the journal seeding of a growing run and a merge (grow.h). */
#include "grow.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "driver.h"
#include "journal.h"
#include "record_row.h"
#include "results.h"

#define SEED_ROWS 4096            /* games per seeded journal record */

/* The files, open. */
typedef struct Sources {
    const GrowFiles *g;
    ResultsFile **f;
} Sources;

/* One file's games of a job: [first, first + rows). */
typedef struct Range {
    int file;
    int64_t first, rows;
} Range;

static void sources_close(Sources *s)
{
    for (int i = 0; s->f && i < s->g->n; i++)
        rf_close(s->f[i]);
    free(s->f);
    s->f = NULL;
}

static int sources_open(Sources *s, const GrowFiles *g, Error *e)
{
    s->g = g;
    s->f = calloc((size_t)g->n, sizeof *s->f);
    if (!s->f)
        return error_set(e, "out of memory");
    for (int i = 0; i < g->n; i++)
        if (!(s->f[i] = rf_open(g->path[i], e))) {
            sources_close(s);
            return -1;
        }
    return 0;
}

/* Whether the file is complete: finished, every job's games all stored, none stopped early
 * (an SPRT stop leaves fewer games than planned: not a slice of anything). */
static int check_complete(const ResultsFile *f, Error *e)
{
    char *finished = rf_root_text(f, "finished");
    free(finished);
    if (!finished)
        return error_set(e, "%s: incomplete (no `finished` time: the run did not end)",
                         rf_path(f));
    for (int i = 0; i < rf_job_count(f); i++) {
        const char *name = rf_job_name(f, i);
        StoredJob sj;
        if (rf_read_job(f, name, &sj, e) != 0)
            return -1;
        bool short_of = (int64_t)sj.rows != sj.games;
        int64_t games = sj.games;
        uint64_t rows = sj.rows;
        stored_job_free(&sj);
        if (rf_job_has_attribute(f, name, "stopped"))
            return error_set(e, "%s: job %s stopped on its sequential test or root design "
                             "(its `stopped` attribute), which has decided: only runs played to "
                             "their planned games grow or merge", rf_path(f), name);
        if (short_of)
            return error_set(e, "%s: incomplete (job %s holds %" PRIu64 " of its %" PRId64
                             " games)", rf_path(f), name, rows, games);
    }
    return 0;
}

/* What differs between job j of the experiment and the stored job (its first_game and games
 * aside), into why; 0 when nothing does. */
static int job_difference(const Job *j, const ResultsFile *f, const char *name,
                          const StoredJob *sj, char *why, size_t len)
{
    char full[AGENT_FULL_SPEC_MAX];
    Error e;
    if (sj->index != j->index)
        return snprintf(why, len, "index %" PRIu64 ", not %" PRIu64, sj->index, j->index);
    for (int p = 0; p < VP_NB; p++) {
        int64_t was = variant_get(&sj->variant, p), now = variant_get(&j->variant, p);
        if (was == now)
            continue;
        if (variant_params[p].kind == VK_CONVENTION)
            return snprintf(why, len, "%s %s, not %s", variant_params[p].name,
                            final_four_name((FinalFour)was), final_four_name((FinalFour)now));
        return snprintf(why, len, "%s %" PRId64 ", not %" PRId64, variant_params[p].name, was,
                        now);
    }
    const char *given[2] = { j->agent_a, j->agent_b }, *stored[2] = { sj->agent_a, sj->agent_b };
    const char *played[2] = { sj->played_a, sj->played_b };
    const char *files[2] = { j->files_a, j->files_b }, *had[2] = { sj->files_a, sj->files_b };
    for (int k = 0; k < 2; k++) {
        /* The specs as they play: a limit that changes no move may differ (agent_play_spec). */
        char now[AGENT_FULL_SPEC_MAX], was[AGENT_FULL_SPEC_MAX];
        agent_play_spec(given[k], now, sizeof now);
        agent_play_spec(stored[k], was, sizeof was);
        if (strcmp(now, was) != 0)
            return snprintf(why, len, "agent_%c '%s', not '%s'", 'a' + k, stored[k], given[k]);
        /* Played as the same full spec: a default changed since would change the games. */
        if (played[k]) {
            if (agent_full_spec(given[k], full, sizeof full, &e) != 0)
                snprintf(full, sizeof full, "?");
            agent_play_spec(full, now, sizeof now);
            agent_play_spec(played[k], was, sizeof was);
            if (strcmp(now, was) != 0)
                return snprintf(why, len, "agent_%c played as '%s', now '%s'", 'a' + k,
                                played[k], full);
        }
        /* The same content of the files the spec names (weights, tables). */
        const char *f_now = files[k] ? files[k] : "", *f_was = had[k] ? had[k] : "";
        if (strcmp(f_now, f_was) != 0)
            return snprintf(why, len, "agent_%c's files hashed '%s', now '%s' (a file it names "
                            "has changed)", 'a' + k, *f_was ? f_was : "none",
                            *f_now ? f_now : "none");
    }
    if (strcmp(sj->openings, j->openings.spec) != 0)
        return snprintf(why, len, "openings '%s', not '%s'", sj->openings, j->openings.spec);
    char was[128] = "none", now[128] = "none";
    if (sj->seq.has)
        sprt_bounds_text(&sj->seq.bounds, was, sizeof was);
    if (j->has_sprt)
        sprt_bounds_text(&j->sprt, now, sizeof now);
    if (strcmp(was, now) != 0)
        return snprintf(why, len, "sprt %s, not %s", was, now);
    if (rf_job_has_moves(f, name) != j->record_moves)
        return snprintf(why, len, "record_moves %s, not %s",
                        j->record_moves ? "false" : "true", j->record_moves ? "true" : "false");
    if (sj->adjudicate != j->adjudicate)
        return snprintf(why, len, "adjudicate %s, not %s", sj->adjudicate ? "true" : "false",
                        j->adjudicate ? "true" : "false");
    return 0;
}

/* Whether a book job's stored openings rows are the openings the experiment draws (a book is
 * named, not stored: the file at the path may have changed since). */
static int book_difference(const Job *j, int64_t seed, const ResultsFile *f, const char *name,
                           char *why, size_t len)
{
    Opening stored, now;
    Error e;
    char a[OPENING_MAX_PLIES * 4 + APN_MAX + 2], b[sizeof a];
    if (j->openings.kind != OPENINGS_FILE)
        return 0;
    for (int64_t k = 0;; k++) {
        if (rf_read_opening(f, name, &j->variant, k, &stored, &e) != 0)
            return 0;   /* the end of the table (a damaged row: its games are checked later) */
        openings_pair(&j->openings, &j->variant, (uint64_t)seed, j->index, (uint64_t)k, &now);
        opening_moves_text(&stored, a, OPENING_MAX_PLIES * 4 + 1);
        opening_apn(&j->variant, &stored, a + strlen(a));
        opening_moves_text(&now, b, OPENING_MAX_PLIES * 4 + 1);
        opening_apn(&j->variant, &now, b + strlen(b));
        if (strcmp(a, b) != 0)
            return snprintf(why, len, "opening %" PRId64 " of its book differs from %s's",
                            k, j->openings.path ? j->openings.path : j->openings.spec);
    }
}

/* Whether file f holds experiment x's jobs (first_game and games aside; in place, first_game
 * too): -1 with "FILE: not the same experiment as AGAINST (job J: what)". */
static int same_experiment(const Experiment *x, const ResultsFile *f, const char *against,
                           bool in_place, Error *e)
{
    char why[600] = "";
    const char *job = NULL;
    if (rf_seed(f) != x->seed)
        snprintf(why, sizeof why, "seed %" PRId64 ", not %" PRId64, rf_seed(f), x->seed);
    else if (rf_job_count(f) != x->njobs)
        snprintf(why, sizeof why, "%d jobs, not %d", rf_job_count(f), x->njobs);
    for (int i = 0; !why[0] && i < rf_job_count(f); i++) {
        job = rf_job_name(f, i);
        const Job *j = experiment_job(x, job);
        StoredJob sj;
        if (!j) {
            snprintf(why, sizeof why, "a job it has not");
            break;
        }
        if (rf_read_job(f, job, &sj, e) != 0)
            return -1;
        if (!job_difference(j, f, job, &sj, why, sizeof why) && in_place &&
            sj.first_game != j->first_game)
            snprintf(why, sizeof why, "first_game %" PRId64 ", not %" PRId64, sj.first_game,
                     j->first_game);
        stored_job_free(&sj);
        if (!why[0])
            book_difference(j, x->seed, f, job, why, sizeof why);
    }
    if (!why[0])
        return 0;
    return error_set(e, "%s: not the same experiment as %s (%s%s%s%s)", rf_path(f), against,
                     job ? "job " : "", job ? job : "", job ? ": " : "", why);
}

/* Order ranges by their first game. */
static int cmp_ranges(const void *a, const void *b)
{
    const Range *x = a, *y = b;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* Job j's ranges in the files, in game order, into r (n of them). */
static int job_ranges(const Sources *s, const Job *j, Range *r, Error *e)
{
    for (int i = 0; i < s->g->n; i++) {
        StoredJob sj;
        if (rf_read_job(s->f[i], j->name, &sj, e) != 0)
            return -1;
        r[i] = (Range){ i, sj.first_game, (int64_t)sj.rows };
        stored_job_free(&sj);
    }
    qsort(r, (size_t)s->g->n, sizeof *r, cmp_ranges);
    return 0;
}

/* Whether job j's ranges run from its first game without a gap or an overlap, and end at
 * its last (not in place) or before it (in place: never beyond, a job never shrinks). */
static int check_job_ranges(const Sources *s, const Job *j, const Range *r, Error *e)
{
    const char *const *p = s->g->path;
    int64_t at = j->first_game, end = j->first_game + j->games;
    int prev = -1;                /* the range before, if any */
    for (int i = 0; i < s->g->n; i++) {
        if (r[i].rows == 0)
            continue;
        if (r[i].first < at && prev >= 0)
            return error_set(e, "%s and %s both hold games %" PRId64 "..%" PRId64 " of job %s",
                             p[r[prev].file], p[r[i].file], r[i].first,
                             (at < r[i].first + r[i].rows ? at : r[i].first + r[i].rows) - 1,
                             j->name);
        if (r[i].first != at)
            return error_set(e, "no file holds games %" PRId64 "..%" PRId64 " of job %s (a gap "
                             "before %s's)", at < r[i].first ? at : r[i].first,
                             (at < r[i].first ? r[i].first : at) - 1, j->name, p[r[i].file]);
        at += r[i].rows;
        prev = i;
    }
    if (at > end && s->g->in_place)
        return error_set(e, "%s: job %s holds %" PRId64 " games; --extend never shrinks a job "
                         "(given %" PRId64 ")", p[0], j->name, at - j->first_game, j->games);
    if (at > end || (!s->g->in_place && at != end))
        return error_set(e, "the files hold games %" PRId64 "..%" PRId64 " of job %s, not "
                         "%" PRId64 "..%" PRId64, j->first_game, at - 1, j->name,
                         j->first_game, end - 1);
    return 0;
}

/* Every check of grow_check on open files. */
static int check_sources(const Experiment *x, const Sources *s, Error *e)
{
    const char *against = s->g->in_place ? "the experiment given" : s->g->path[0];
    for (int i = 0; i < s->g->n; i++)
        if (check_complete(s->f[i], e) != 0 ||
            same_experiment(x, s->f[i], against, s->g->in_place, e) != 0)
            return -1;
    Range *r = malloc((size_t)s->g->n * sizeof *r);
    if (!r)
        return error_set(e, "out of memory");
    int rc = 0;
    for (int k = 0; rc == 0 && k < x->njobs; k++)
        rc = job_ranges(s, &x->jobs[k], r, e) != 0 ? -1
             : check_job_ranges(s, &x->jobs[k], r, e);
    free(r);
    return rc;
}

int grow_check(const Experiment *x, const GrowFiles *g, Error *e)
{
    Sources s;
    if (sources_open(&s, g, e) != 0)
        return -1;
    int rc = check_sources(x, &s, e);
    sources_close(&s);
    return rc;
}

/* Room for n bytes at *buf (of *cap bytes). */
static int room(unsigned char **buf, size_t *cap, size_t n)
{
    if (n <= *cap)
        return 0;
    unsigned char *grown = realloc(*buf, n);
    if (!grown)
        return -1;
    *buf = grown;
    *cap = n;
    return 0;
}

/* What seeding one job's games from one file works with. */
typedef struct Seeder {
    Journal *journal;
    GameRecord rec[SEED_ROWS];
    unsigned char rows[SEED_ROWS * ROW_BYTES];
    unsigned char *moves;         /* a record's moves, zeros to a whole row */
    size_t moves_cap;
    MoveList list;
} Seeder;

/* The moves of rec[0 .. n), read from ms, as one DRIVER_KIND_MOVES record. */
static int seed_moves(Seeder *sd, const Job *j, MoveStream *ms, uint32_t n, Error *e)
{
    size_t at = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (rf_moves_read(ms, &sd->rec[i], &sd->list, NULL, e) != 0)
            return -1;
        if (room(&sd->moves, &sd->moves_cap, at + sd->list.n + ROW_BYTES) != 0)
            return error_set(e, "out of memory for a batch's moves");
        memcpy(sd->moves + at, sd->list.move, sd->list.n);
        at += sd->list.n;
    }
    size_t n_rows = (at + ROW_BYTES - 1) / ROW_BYTES;
    if (n_rows == 0 && room(&sd->moves, &sd->moves_cap, 1) != 0)
        return error_set(e, "out of memory");
    memset(sd->moves + at, 0, n_rows * ROW_BYTES - at);
    return journal_append(sd->journal, (uint32_t)j->index | DRIVER_KIND_MOVES, sd->rec[0].game,
                          (uint32_t)n_rows, sd->moves, e);
}

/* Job j's games in file f into the journal, SEED_ROWS a record, as the driver keeps them. */
static int seed_job(Seeder *sd, const Job *j, const ResultsFile *f, Error *e)
{
    RowStream *rs = rf_rows_open(f, j->name, e);
    MoveStream *ms = rs && j->record_moves ? rf_moves_open(f, j->name, &j->variant, e) : NULL;
    int rc = !rs || (j->record_moves && !ms) ? -1 : 0;
    int64_t n = 0;
    while (rc == 0 && (n = rf_rows_next(rs, sd->rec, SEED_ROWS, e)) > 0) {
        for (int64_t i = 0; i < n; i++)
            row_pack(&sd->rec[i], sd->rows + (size_t)i * ROW_BYTES);
        if (ms && seed_moves(sd, j, ms, (uint32_t)n, e) != 0)
            rc = -1;
        else if (journal_append(sd->journal, (uint32_t)j->index, sd->rec[0].game, (uint32_t)n,
                                sd->rows, e) != 0)
            rc = -1;
    }
    if (n < 0)
        rc = -1;
    rf_moves_close(ms);
    rf_rows_close(rs);
    return rc;
}

/* The earliest `started` of the files (ISO 8601 text orders as time), into buf. */
static void earliest_start(const Sources *s, char *buf, size_t len)
{
    buf[0] = '\0';
    for (int i = 0; i < s->g->n; i++) {
        char *t = rf_root_text(s->f[i], "started");
        if (t && (!buf[0] || strcmp(t, buf) < 0))
            snprintf(buf, len, "%s", t);
        free(t);
    }
}

/* Every game of the checked files into the new journal, job by job in game order. */
static int seed_all(const Experiment *x, const Sources *s, Journal *jn, Error *e)
{
    Seeder *sd = calloc(1, sizeof *sd);
    Range *r = malloc((size_t)s->g->n * sizeof *r);
    int rc = sd && r ? 0 : error_set(e, "out of memory");
    if (sd)
        sd->journal = jn;
    for (int k = 0; rc == 0 && k < x->njobs; k++) {
        rc = job_ranges(s, &x->jobs[k], r, e);
        for (int i = 0; rc == 0 && i < s->g->n; i++)
            rc = seed_job(sd, &x->jobs[k], s->f[r[i].file], e);
    }
    if (sd) {
        move_list_free(&sd->list);
        free(sd->moves);
    }
    free(sd);
    free(r);
    return rc;
}

int grow_seed_journal(const Experiment *x, const GrowFiles *g, const char *path, Error *e)
{
    Sources s;
    if (sources_open(&s, g, e) != 0)
        return -1;
    char started[JOURNAL_STARTED_MAX];
    char *fp = NULL;
    Journal jn = { .fd = -1 };
    int rc = check_sources(x, &s, e);
    if (rc == 0) {
        earliest_start(&s, started, sizeof started);
        fp = experiment_fingerprint(x);
        rc = fp ? journal_create(&jn, path, ROW_BYTES, fp, started, e)
                : error_set(e, "out of memory");
        if (rc == 0)
            rc = seed_all(x, &s, &jn, e);
        journal_close(&jn);
        if (rc != 0 && fp)
            unlink(path);
    }
    free(fp);
    sources_close(&s);
    return rc;
}

/* Job j of the merge from stored job sj of file f: everything but its range. */
static int job_from_stored(Job *j, const ResultsFile *f, const char *name, const StoredJob *sj,
                           Error *e)
{
    j->index = sj->index;
    j->variant = sj->variant;
    j->name = strdup(name);
    j->agent_a = strdup(sj->agent_a);
    j->agent_b = strdup(sj->agent_b);
    /* The first file's: every other file is held to them (job_difference). */
    j->files_a = strdup(sj->files_a ? sj->files_a : "");
    j->files_b = strdup(sj->files_b ? sj->files_b : "");
    j->record_moves = rf_job_has_moves(f, name);
    j->adjudicate = sj->adjudicate;
    if (!j->name || !j->agent_a || !j->agent_b || !j->files_a || !j->files_b)
        return error_set(e, "out of memory");
    Error inner;
    /* A book is read from the path the file names, from the current folder. */
    if (openings_load(&j->openings, sj->openings, &j->variant, &inner) != 0)
        return error_set(e, "%s: job %s: %s", rf_path(f), name, inner.msg);
    return 0;
}

/* The jobs of the first file, each spanning every file's games of it. */
static int merged_jobs(Experiment *x, const Sources *s, Error *e)
{
    const ResultsFile *f = s->f[0];
    x->seed = rf_seed(f);
    x->jobs = calloc((size_t)rf_job_count(f) + 1, sizeof *x->jobs);
    if (!x->jobs)
        return error_set(e, "out of memory");
    for (int i = 0; i < rf_job_count(f); i++) {
        const char *name = rf_job_name(f, i);
        StoredJob sj;
        if (rf_read_job(f, name, &sj, e) != 0)
            return -1;
        Job *j = &x->jobs[x->njobs++];
        int rc = sj.index == (uint64_t)i ? job_from_stored(j, f, name, &sj, e)
                 : error_set(e, "%s: job %s has index %" PRIu64 ", expected %d", rf_path(f),
                             name, sj.index, i);
        stored_job_free(&sj);
        if (rc != 0)
            return -1;
        j->first_game = -1;
        for (int k = 0; k < s->g->n; k++) {
            StoredJob other;
            if (rf_read_job(s->f[k], name, &other, e) != 0)
                return error_set(e, "%s: not the same experiment as %s (no job %s)",
                                 s->g->path[k], s->g->path[0], name);
            if (j->first_game < 0 || other.first_game < j->first_game)
                j->first_game = other.first_game;
            j->games += (int64_t)other.rows;
            stored_job_free(&other);
        }
    }
    return 0;
}

/* The config of the file holding the first job's earliest games, and the files merged. */
static int merged_text(Experiment *x, const Sources *s, Error *e)
{
    Range *r = malloc((size_t)s->g->n * sizeof *r);
    if (!r || job_ranges(s, &x->jobs[0], r, e) != 0) {
        free(r);
        return r ? -1 : error_set(e, "out of memory");
    }
    char *config = rf_root_text(s->f[r[0].file], "config");
    free(r);
    size_t len = (config ? strlen(config) : 0) + 64;
    for (int i = 0; i < s->g->n; i++)
        len += strlen(s->g->path[i]) + 2;
    x->text = malloc(len);
    if (!x->text) {
        free(config);
        return error_set(e, "out of memory");
    }
    size_t used = (size_t)snprintf(x->text, len, "%s%s# Merged by `anywoli merge` from:",
                                   config ? config : "",
                                   config && *config && config[strlen(config) - 1] != '\n'
                                       ? "\n" : "");
    for (int i = 0; i < s->g->n; i++)
        used += (size_t)snprintf(x->text + used, len - used, " %s", s->g->path[i]);
    snprintf(x->text + used, len - used, "\n");
    free(config);
    return 0;
}

int grow_merged_experiment(Experiment *x, const GrowFiles *g, const char *output, Error *e)
{
    Sources s;
    memset(x, 0, sizeof *x);
    if (sources_open(&s, g, e) != 0)
        return -1;
    x->source = strdup("(merge)");
    x->output = strdup(output);
    int rc = x->source && x->output ? 0 : error_set(e, "out of memory");
    if (rc == 0 && rf_job_count(s.f[0]) == 0)
        rc = error_set(e, "%s: no jobs", g->path[0]);
    if (rc == 0)
        rc = merged_jobs(x, &s, e);
    if (rc == 0)
        rc = merged_text(x, &s, e);
    if (rc == 0)
        rc = check_sources(x, &s, e);
    sources_close(&s);
    if (rc != 0)
        experiment_free(x);
    return rc;
}
