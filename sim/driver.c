/* driver.c: the parallel self-play driver, a client of the checkpoint engine
 * (checkpoint.h): batches of games on an OpenMP team, shared between MPI ranks, and one
 * writer thread that keeps each played batch (journal, HDF5 file, stats). */
#include "driver.h"

#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cluster.h"
#include "grow.h"
#include "h5util.h"
#include "stop.h"

#define BATCH_SECONDS 0.5         /* an adaptive batch aims at this much playing time */
#define BATCH_MAX 65536           /* games in an adaptive batch, at most */
#define BATCH_FIRST 16            /* games per thread in the first adaptive batch */
#define WRITER_TICK 0.1           /* seconds between the writer's looks at the progress */
#define BATCH_MOVES (1u << 23)    /* moves in an adaptive batch that records them, about: each
                                   * is held a few times over (two batches, the journal's and
                                   * the file's copies), so this bounds the memory they take */

#define KIND_MOVES DRIVER_KIND_MOVES

/* One batch of games, played into rec[0 .. n) (and, for a job that records its moves, their
 * moves into moves[0 .. n)). */
/* The lines of an adaptive root design's round, as its pairs play them: pair p plays
 * lines[(p - first_pair) mod n] (root_race.h). n = 0: the job has no such design. */
typedef struct RoundPlan {
    int64_t first_pair;
    int32_t n;
    const int *lines;
} RoundPlan;

typedef struct Batch {
    const Job *job;
    uint64_t start;
    uint32_t n;
    GameRecord *rec;
    MoveList *moves;
    RoundPlan plan;               /* its round's lines (a batch never crosses a round's end) */
} Batch;

/* A batch's moves kept from the journal until its rows come (see KIND_MOVES). */
typedef struct PendingMoves {
    bool held;
    uint32_t job;
    uint64_t start;
    unsigned char *bytes;         /* whole rows of ROW_BYTES: the moves, zeros after them */
    size_t len, cap;
} PendingMoves;

/* The writer thread and what it shares with the main thread (under lock). */
typedef struct Writer {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;          /* a batch to write, or time to quit */
    pthread_cond_t idle;          /* the pending batch is written */
    Batch *pending;
    bool started, quit, failed;
    Error error;
    int job;                      /* the job being played, for the progress line */
    int64_t job_base;             /* games of it in the file when its play began */
    int64_t played_base;          /* `played` then */
    double job_t0;                /* and the time */
    double *job_seconds;          /* per job, the time spent on it before (this session) */
    int64_t *job_played;          /* and the games played in it */
    EtaJob *eta;                  /* the writer's scratch for the time left */
} Writer;

typedef struct Driver {
    const Experiment *x;
    Checkpoint run;               /* the files, resume, the orders, progress */
    Results *res;
    JobStats *stats;              /* per job (the writer's, until the writer stops) */
    int64_t *done;                /* games in the file per job (likewise) */
    unsigned char *rows;          /* the writer's packed rows */
    unsigned char *packed_moves;  /* the writer's (and a gather's) moves of a batch, in order */
    size_t packed_cap;
    unsigned char *gathered_moves; /* rank 0: a batch's moves from every rank */
    size_t gathered_cap;
    uint32_t *move_counts;        /* moves of the batch per rank */
    PendingMoves pending;
    Batch batch[2];               /* played alternately: one plays while the other is written */
    uint32_t batch_cap;
    int cur;                      /* the batch to play next */
    unsigned char *gathered;      /* rank 0: the packed rows of a batch from every rank */
    uint32_t *shares;             /* games of the batch per rank */
    int64_t *finished;            /* per rank, the whole games at the start of its share;
                                   * then the ranks that ran out of memory, then those whose
                                   * agent's program failed (ranks + 2) */
    atomic_bool faulted;          /* an agent's program failed in this batch: start no game */
    uint64_t fault_game;          /* the first such game (under omp critical) */
    char fault[AGENT_FAULT_MAX];  /* and its agent's fault, one line */
    unsigned char *whole;         /* per game of this rank's share: 1 when it was played
                                   * to its end (a stop abandons games in flight) */
    double gather_seconds;        /* rank 0: in gathers, waiting for slower ranks included */
    atomic_int_least64_t played;  /* games played in this session */
    double t0;
    Writer w;
    PairTally *seq;               /* rank 0's main thread, per job: the pairs it has played
                                   * so far, fed as each batch is played (the writer's are
                                   * in stats, fed as each batch is kept) */
    bool *seq_over;               /* and whether the job's sequential test (or its adaptive
                                   * root design) has stopped it */
    RootRace *race;               /* rank 0's main thread, per job with an adaptive root
                                   * design: its race over the pairs played so far, which
                                   * says each round's lines (the writer's are in stats) */
    int *served_lines;            /* the other ranks: the lines of the round being served */
    OpeningSums **opening_sums;   /* per job whose pairs may repeat openings (all:N, a book):
                                   * its counted pairs by opening, for the live figures (the
                                   * writer's, beside stats) */
    Agent *serving;               /* the other ranks: the agents of the job being served */
    int serving_job;
    RunReport *rep;
    const GrowFiles *grow;        /* the files a grow starts from (driver_grow), or NULL */
} Driver;

#define now checkpoint_clock

bool driver_is_plain_random(const char *spec)
{
    const AgentKind *k = agent_kind_of(spec);
    return k && k->uniform;
}

/* Play game `game` of job j from its pair's opening: the round's line where the job has an
 * adaptive root design (plan), else openings_pair's. */
static int play_game(const Job *j, int64_t seed, uint64_t game, const RoundPlan *plan,
                     Agent *a, Agent *b, MoveList *moves, GameRecord *r)
{
    Opening op;
    GameOptions o = { .moves = moves, .adjudicate = j->adjudicate };
    int64_t index;
    if (plan && plan->n > 0) {
        index = plan->lines[((int64_t)(game / 2) - plan->first_pair) % plan->n];
        op = j->openings.list[index];
    } else
        index = openings_pair(&j->openings, &j->variant, (uint64_t)seed, j->index, game / 2,
                              &op);
    return game_play_indexed(&j->variant, (uint64_t)seed, j->index, game, index >= 0 ? &op : NULL,
                             (int32_t)index, a, b, &o, r, NULL);
}

int driver_play_game(const Job *j, int64_t seed, uint64_t game, Agent *a, Agent *b,
                     MoveList *moves, GameRecord *r)
{
    return play_game(j, seed, game, NULL, a, b, moves, r);
}

/* Room for n bytes at *buf (of *cap bytes, grown as needed); -1 when out of memory. */
static int room(unsigned char **buf, size_t *cap, size_t n)
{
    if (n <= *cap)
        return 0;
    size_t want = n < 2 * *cap ? 2 * *cap : n;
    unsigned char *grown = realloc(*buf, want);
    if (!grown)
        return -1;
    *buf = grown;
    *cap = want;
    return 0;
}

/* The moves of games [0, n) of rows (packed), that is the sum of their plies. */
static uint64_t moves_of_rows(const unsigned char *rows, uint32_t n)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        GameRecord r;
        row_unpack(rows + (size_t)i * ROW_BYTES, &r);
        total += r.plies;
    }
    return total;
}

char *driver_partial_path(const char *output)
{
    return output_name(output, ".partial");
}

char *driver_journal_path(const char *output)
{
    return output_name(output, ".journal");
}

/* A job's sequential test over the pairs of t: the pentanomial GSPRT with its bounds. */
static Sprt job_test(const Job *j, const PairTally *t)
{
    return sprt_pentanomial(t->penta, j->sprt.elo0, j->sprt.elo1, j->sprt.alpha, j->sprt.beta);
}

/* Whether the test over the pairs of t stops job j (pairs.h's sprt_stop_decision). */
static bool job_stops(const Job *j, const PairTally *t, Sprt *test)
{
    *test = job_test(j, t);
    return sprt_stop_decision(test, t->penta) != SPRT_CONTINUE;
}

/* Whether a job's pairs may repeat openings (a list: all:N or a book, cycled), so that its
 * figures' unit may be the opening. */
static bool openings_repeat(const Job *j)
{
    return j->openings.kind == OPENINGS_ALL || j->openings.kind == OPENINGS_FILE;
}

/* Add a counted pair (A's half-points a, South minus North sn, over both games) to its
 * opening's sums; -1 when out of memory. */
static int add_opening_pair(Driver *d, const Job *j, int32_t opening, int a, int sn)
{
    OpeningSums **o = &d->opening_sums[j->index];
    if (opening < 0 || opening >= j->openings.count)
        return 0;   /* from the start: no opening to cluster by */
    if (!*o && !(*o = calloc((size_t)j->openings.count, sizeof **o)))
        return -1;
    (*o)[opening].pairs++;
    (*o)[opening].a_half += (uint64_t)a;
    (*o)[opening].sn += sn;
    return 0;
}

/* Job j's adaptive root design's race before its first pair, its lines from the job's
 * openings; -1 when out of memory. */
static int race_init_job(const Job *j, RootRace *race)
{
    int n = (int)j->openings.count;
    RootLine *lines = malloc((size_t)(n > 0 ? n : 1) * sizeof *lines);
    if (!lines)
        return -1;
    for (int i = 0; i < n; i++)
        opening_root_line(&j->variant, &j->openings.list[i], i, &lines[i]);
    int rc = root_race_init(race, &j->root_design, lines, n);
    free(lines);
    return rc;
}

/* The same, allocated, into *race; -1 when out of memory. */
static int race_new(const Job *j, RootRace **race)
{
    *race = calloc(1, sizeof **race);
    if (*race && race_init_job(j, *race) == 0)
        return 0;
    free(*race);
    *race = NULL;
    return -1;
}

/* Count the pair game r (odd) completes into job j's race (made at its first pair): counted
 * when both games were (paired), its per-game advantage half South's points minus North's
 * over the pair (even_sn: the even game's). -1 when out of memory, -2 when the pair is not
 * the one the race's schedule gives (a journal or file of other games). */
static int race_pair(const Job *j, RootRace **race, const GameRecord *r, bool paired, int even_sn)
{
    if (!*race && race_new(j, race) != 0)
        return -1;
    int sn;
    record_a_half_points(r, &sn);
    int rc = root_race_pair(*race, (int64_t)(r->game / 2), r->opening, paired,
                            paired ? (sn + even_sn) / 2.0 : 0.0);
    return rc == ROOT_RACE_MISMATCH ? -2 : rc;
}

/* Count one game of job j into its stats (and, completing a pair, into its opening's
 * sums); for a job with a sequential test, note in the stats where the test stops it: the
 * pair this game completes when the test decides there. -1 when out of memory. */
static int count_game(Driver *d, const Job *j, JobStats *s, const GameRecord *r)
{
    int even_a = s->pairs.waiting_a, even_sn = s->pairs.waiting_sn;
    int paired = stats_add(s, r);
    if (paired < 0)
        return -1;
    if (j->has_root_design && r->game % 2 == 1) {
        int rc = race_pair(j, &s->race, r, paired, even_sn);
        if (rc != 0)
            return rc;
        if (s->race->stop) {
            s->stop.stopped = true;
            s->stop.pair = (int64_t)(r->game / 2);
        }
    }
    if (paired && openings_repeat(j)) {   /* a game's points again only where they are kept */
        int sn, a = record_a_half_points(r, &sn);
        if (add_opening_pair(d, j, r->opening, a + even_a, sn + even_sn) != 0)
            return -1;
    }
    if (paired && j->has_sprt) {
        if (job_stops(j, &s->pairs, &s->stop.test)) {
            s->stop.stopped = true;
            s->stop.pair = (int64_t)(r->game / 2);
        }
    }
    return 0;
}

/* The game after a job's last: it plays [first_game, job_end). */
static int64_t job_end(const Job *j)
{
    return j->first_game + j->games;
}

/* Count one batch of packed rows (and moves, NULL for a job that does not record them)
 * into the file and the stats; end the job when complete, or when its sequential test
 * stopped it at the batch's last game (the batch is cut there as it is played). */
static int apply_rows(Driver *d, uint32_t jobno, uint64_t start, uint32_t n,
                      const unsigned char *rows, const unsigned char *moves, Error *e)
{
    const Experiment *x = d->x;
    if (jobno >= (uint32_t)x->njobs || (int64_t)start != d->done[jobno] ||
        (int64_t)(start + n) > job_end(&x->jobs[jobno]) || d->stats[jobno].stop.stopped)
        return error_set(e, "%s: a batch (job %u, games %llu..) does not follow the ones "
                         "before it", d->run.out.journal, jobno, (unsigned long long)start);
    const Job *j = &x->jobs[jobno];
    JobStats *s = &d->stats[jobno];
    if (results_append(d->res, j, start, n, rows, moves, e) != 0)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        GameRecord r;
        row_unpack(rows + (size_t)i * ROW_BYTES, &r);
        if (s->stop.stopped)
            return error_set(e, "%s: a batch of job %u goes on after its stop rule "
                             "stopped it (game %llu)", d->run.out.journal, jobno,
                             (unsigned long long)r.game);
        int rc = count_game(d, j, s, &r);
        if (rc == -2)
            return error_set(e, "%s: job %u, game %llu: its pair's opening is not the line "
                             "its root design's round gives it", d->run.out.journal, jobno,
                             (unsigned long long)r.game);
        if (rc != 0)
            return error_set(e, "out of memory for a job's summary");
    }
    d->done[jobno] = (int64_t)(start + n);
    if (d->done[jobno] == job_end(j) || s->stop.stopped)
        return results_end_job(d->res, j, s, e);
    return 0;
}

/* Hold a batch's moves (a KIND_MOVES record) until its rows come. */
static int hold_moves(Driver *d, uint32_t job, uint64_t start, uint32_t n,
                      const unsigned char *bytes, Error *e)
{
    PendingMoves *p = &d->pending;
    size_t len = (size_t)n * ROW_BYTES;
    if (room(&p->bytes, &p->cap, len) != 0)
        return error_set(e, "out of memory for a batch's moves");
    memcpy(p->bytes, bytes, len);
    p->len = len;
    p->job = job;
    p->start = start;
    p->held = true;
    return 0;
}

/* The moves held for the rows of (job, start, n): exactly their plies' worth, then zeros to
 * the end of the last row; NULL with a message when the journal holds no such moves. */
static const unsigned char *held_moves(Driver *d, uint32_t job, uint64_t start, uint32_t n,
                                       const unsigned char *rows, Error *e)
{
    PendingMoves *p = &d->pending;
    uint64_t total = moves_of_rows(rows, n);
    bool ok = p->held && p->job == job && p->start == start && total <= p->len &&
              p->len - total < ROW_BYTES;
    for (size_t i = (size_t)total; ok && i < p->len; i++)
        ok = p->bytes[i] == 0;
    p->held = false;
    if (!ok) {
        error_set(e, "%s: the moves of a batch (job %u, games %llu..) are missing or do not "
                  "fit its rows", d->run.out.journal, job, (unsigned long long)start);
        return NULL;
    }
    return p->bytes;
}

/* A batch kept, live or from the journal on resume (CheckpointClient.apply): its moves
 * (KIND_MOVES), held, or its rows, applied with the moves held for them. */
static int apply_batch(void *self, uint32_t kind, uint64_t start, uint32_t n,
                       const unsigned char *rows, Error *e)
{
    Driver *d = self;
    uint32_t job = kind & ~KIND_MOVES;
    if (job >= (uint32_t)d->x->njobs || ((kind & KIND_MOVES) && !d->x->jobs[job].record_moves))
        return error_set(e, "%s: a batch of job %u, which this experiment does not have",
                         d->run.out.journal, job);
    if (kind & KIND_MOVES)
        return hold_moves(d, job, start, n, rows, e);
    GameRecord first;
    row_unpack(rows, &first);
    if (first.game != start)
        return error_set(e, "%s: a batch's rows are not games %llu..", d->run.out.journal,
                         (unsigned long long)start);
    const unsigned char *moves = NULL;
    if (d->x->jobs[job].record_moves && !(moves = held_moves(d, job, start, n, rows, e)))
        return -1;
    return apply_rows(d, job, start, n, rows, moves, e);
}

/* Keep a batch's moves (KIND_MOVES): games [0, n) of b in order, zeros to a whole row. */
static int keep_moves(Driver *d, const Batch *b, Error *e)
{
    size_t total = 0;
    for (uint32_t i = 0; i < b->n; i++)
        total += b->moves[i].n;
    size_t n_rows = (total + ROW_BYTES - 1) / ROW_BYTES;
    if (room(&d->packed_moves, &d->packed_cap, n_rows * ROW_BYTES) != 0)
        return error_set(e, "out of memory for a batch's moves");
    size_t at = 0;
    for (uint32_t i = 0; i < b->n; i++) {
        memcpy(d->packed_moves + at, b->moves[i].move, b->moves[i].n);
        at += b->moves[i].n;
    }
    memset(d->packed_moves + at, 0, n_rows * ROW_BYTES - at);
    return checkpoint_keep(&d->run, (uint32_t)b->job->index | KIND_MOVES, b->start,
                           (uint32_t)n_rows, d->packed_moves, e);
}

/* The writer's work on one played batch: pack, then keep it (journal, HDF5 and stats), its
 * moves first. */
static int write_batch(Driver *d, const Batch *b, Error *e)
{
    if (b->job->record_moves && keep_moves(d, b, e) != 0)
        return -1;
    for (uint32_t i = 0; i < b->n; i++)
        row_pack(&b->rec[i], d->rows + (size_t)i * ROW_BYTES);
    return checkpoint_keep(&d->run, (uint32_t)b->job->index, b->start, b->n, d->rows, e);
}

/* Whether the games of two jobs cost the same to play: the same agents on the same board
 * (the parameters that change a game's cost: not the convention, which changes only who
 * gets the last seeds). */
static bool same_cost(const Job *a, const Job *b)
{
    return variant_same_cost(&a->variant, &b->variant) && strcmp(a->agent_a, b->agent_a) == 0
           && strcmp(a->agent_b, b->agent_b) == 0;
}

/* Each job's `like` for the time left: the first job that costs the same. */
static void find_like_jobs(Driver *d)
{
    for (int i = 0; i < d->x->njobs; i++) {
        int like = i;
        for (int k = 0; k < i && like == i; k++)
            if (d->w.eta[k].like == k && same_cost(&d->x->jobs[k], &d->x->jobs[i]))
                like = k;
        d->w.eta[i].like = like;
    }
}

/* The time left (writer thread, w->lock held): each job at its own measured time per game,
 * the current one's counted up to t, or at that of a job like it (progress_time_left). */
static double time_left(Driver *d, double t, int64_t played, int *untimed)
{
    Writer *w = &d->w;
    for (int i = 0; i < d->x->njobs; i++) {
        EtaJob *e = &w->eta[i];
        e->games_left = d->stats[i].stop.stopped ? 0 : job_end(&d->x->jobs[i]) - d->done[i];
        e->seconds = w->job_seconds[i];
        e->played = w->job_played[i];
    }
    EtaJob *cur = &w->eta[w->job];
    cur->played += played - w->played_base;
    cur->seconds += t - w->job_t0;
    cur->games_left = job_end(&d->x->jobs[w->job]) - w->job_base - (played - w->played_base);
    return progress_time_left(w->eta, d->x->njobs, untimed);
}

/* What job j's games so far say (writer thread, which owns the stats): A's score and Elo
 * over B, or South's advantage for an agent against itself (analyze's choice), with the
 * opening as unit where pairs repeat openings; and its sequential test. */
static void job_figure(const Driver *d, const Job *j, ProgressFigure *f)
{
    const PairTally *t = &d->stats[j->index].pairs;
    const OpeningSums *o = d->opening_sums[j->index];
    size_t n = o ? (size_t)j->openings.count : 0;
    uint64_t pairs = pentanomial_pairs(t->penta);
    memset(f, 0, sizeof *f);
    f->elo = (Estimate){ NAN, { NAN, NAN } };
    f->pairs = pairs;
    PairUnits u = { PAIR_UNIT_PAIR, 0, 1, 1 };
    if (pairs && strcmp(j->agent_a, j->agent_b) == 0) {
        PairAdvantage a = pair_advantage_openings(t->sn, o, n, 0.95);
        f->name = "advantage";
        f->value = a.advantage;
        u = a.units;
    } else if (pairs) {
        PairEstimate e = pentanomial_estimate_openings(t->penta, o, n, 0.95);
        f->name = "score";
        f->value = (Estimate){ e.score, e.score_ci };
        f->elo = (Estimate){ e.elo, e.elo_ci };
        u = e.units;
    }
    f->unit = u.unit == PAIR_UNIT_OPENING ? "opening" : "pair";
    f->units = u.units;
    if (j->has_sprt) {
        f->has_test = true;
        f->test = job_test(j, t);
        f->min_pairs = SPRT_MIN_PAIRS;
    }
}

/* Show the progress line (writer thread). */
static void show_progress(Driver *d, double t)
{
    Writer *w = &d->w;
    pthread_mutex_lock(&w->lock);
    int job = w->job;
    if (job < 0) {
        pthread_mutex_unlock(&w->lock);
        return;
    }
    int64_t base = w->job_base, played_base = w->played_base;
    double job_t0 = w->job_t0;
    int64_t played = atomic_load_explicit(&d->played, memory_order_relaxed);
    int untimed;
    double left = time_left(d, t, played, &untimed);
    pthread_mutex_unlock(&w->lock);
    double rate = t > job_t0 ? (double)(played - played_base) / (t - job_t0) : 0.0;
    const Job *j = &d->x->jobs[job];
    ProgressInfo info = { j->name, job + 1, d->x->njobs,
                          base - j->first_game + played - played_base, j->games,
                          rate, left, untimed, { 0 } };
    job_figure(d, j, &info.figure);
    progress_show(&d->run.progress, t, &info);
}

/* A time `seconds` from now on the clock of the writer's condition variables. */
static struct timespec deadline(double seconds)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    long ns = ts.tv_nsec + (long)(seconds * 1e9);
    ts.tv_sec += ns / 1000000000L;
    ts.tv_nsec = ns % 1000000000L;
    return ts;
}

/* The writer thread: write each batch handed over; show progress in between. */
static void *writer_main(void *arg)
{
    Driver *d = arg;
    Writer *w = &d->w;
    h5u_silence();   /* a thread-safe HDF5 keeps the setting per thread: this one's too */
    pthread_mutex_lock(&w->lock);
    for (;;) {
        if (w->pending) {
            Batch *b = w->pending;
            Error e;
            int rc = 0;
            bool skip = w->failed;
            pthread_mutex_unlock(&w->lock);
            if (!skip)
                rc = write_batch(d, b, &e);
            pthread_mutex_lock(&w->lock);
            if (rc != 0) {
                w->failed = true;
                w->error = e;
            }
            w->pending = NULL;
            pthread_cond_broadcast(&w->idle);
            continue;
        }
        if (w->quit)
            break;
        struct timespec ts = deadline(WRITER_TICK);
        pthread_cond_timedwait(&w->wake, &w->lock, &ts);
        /* Due lines are shown even with a batch waiting: small batches keep one waiting
         * almost always. */
        double t = now();
        if (progress_due(&d->run.progress, t)) {
            pthread_mutex_unlock(&w->lock);
            show_progress(d, t);
            pthread_mutex_lock(&w->lock);
        }
    }
    pthread_mutex_unlock(&w->lock);
    H5Eclear2(H5E_DEFAULT);   /* this thread's error stack (a failed write) dies with it */
    return NULL;
}

/* Start the writer thread. */
static int writer_start(Driver *d, Error *e)
{
    Writer *w = &d->w;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->wake, &ca);
    pthread_cond_init(&w->idle, &ca);
    pthread_condattr_destroy(&ca);
    w->job = -1;
    if (pthread_create(&w->thread, NULL, writer_main, d) != 0)
        return error_set(e, "cannot start the writer thread");
    w->started = true;
    return 0;
}

/* Hand a played batch to the writer once it has written the one before; -1 if the writer
 * has failed. */
static int writer_submit(Driver *d, Batch *b)
{
    Writer *w = &d->w;
    pthread_mutex_lock(&w->lock);
    while (w->pending)
        pthread_cond_wait(&w->idle, &w->lock);
    bool failed = w->failed;
    if (!failed) {
        w->pending = b;
        pthread_cond_signal(&w->wake);
    }
    pthread_mutex_unlock(&w->lock);
    return failed ? -1 : 0;
}

/* Wait until the writer has written everything handed to it; then stop it. */
static void writer_stop(Driver *d)
{
    Writer *w = &d->w;
    if (!w->started)
        return;
    pthread_mutex_lock(&w->lock);
    while (w->pending)
        pthread_cond_wait(&w->idle, &w->lock);
    w->quit = true;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->wake);
    pthread_cond_destroy(&w->idle);
    pthread_mutex_destroy(&w->lock);
    w->started = false;
}

/* Whether the writer has failed (main thread). */
static bool writer_failed(Driver *d)
{
    pthread_mutex_lock(&d->w.lock);
    bool failed = d->w.failed;
    pthread_mutex_unlock(&d->w.lock);
    return failed;
}

/* Tell the progress line which job is now being played, after timing the one before. */
static void writer_set_job(Driver *d, int job)
{
    pthread_mutex_lock(&d->w.lock);
    if (d->w.job >= 0) {
        d->w.job_seconds[d->w.job] += now() - d->w.job_t0;
        d->w.job_played[d->w.job] += atomic_load(&d->played) - d->w.played_base;
    }
    d->w.job = job;
    d->w.job_base = d->done[job];
    d->w.played_base = atomic_load(&d->played);
    d->w.job_t0 = now();
    pthread_mutex_unlock(&d->w.lock);
}

/* How this rank's share of a batch went. */
typedef struct ShareResult {
    uint64_t prefix;              /* games from the share's start, all whole */
    uint64_t whole;               /* whole games in the share, counted in d->played */
    bool no_memory;               /* a search ran out of memory and abandoned its game */
    bool fault;                   /* an agent's program failed (d->fault says how) */
} ShareResult;

/* Keep the fault of game `game`'s agent if it is the first game of the batch to fail, and
 * start no more games: the run is to stop with it. */
static void note_fault(Driver *d, uint64_t game, Agent *a, Agent *b)
{
    const char *why = agent_fault(a)[0] ? agent_fault(a) : agent_fault(b)[0] ? agent_fault(b)
                                                                     : "an agent failed";
    #pragma omp critical(anywoli_driver_fault)
    {
        if (!atomic_load(&d->faulted) || game < d->fault_game) {
            d->fault_game = game;
            snprintf(d->fault, sizeof d->fault, "%s", why);
        }
        atomic_store(&d->faulted, true);
    }
}

/* Play games lo .. hi of a batch on this rank's team into rec[0 .. hi - lo). A stop request
 * abandons the games in flight (their searches give up, see agent.h) and leaves the rest
 * unplayed: only a whole game is ever kept, and only the whole ones at the start of the
 * share follow on from the games before them. */
static ShareResult play_share(Driver *d, const Job *j, const Batch *b, uint64_t lo, uint64_t hi,
                              Agent *agents)
{
    int no_memory = 0, fault = 0;
    long n = (long)(hi - lo), chunk = n / (d->run.threads * 32L);
    chunk = chunk < 1 ? 1 : chunk > 16 ? 16 : chunk;
    atomic_store(&d->faulted, false);
    #pragma omp parallel for num_threads(d->run.threads) schedule(dynamic, chunk) \
        reduction(| : no_memory, fault)
    for (long i = 0; i < n; i++) {
        int rc = AGENT_STOPPED;
        if (!stop_signal && !atomic_load_explicit(&d->faulted, memory_order_relaxed)) {
            Agent *mine = agents ? &agents[2 * omp_get_thread_num()] : NULL;
            uint64_t game = b->start + lo + (uint64_t)i;
            rc = play_game(j, d->x->seed, game, &b->plan, mine, mine ? mine + 1 : NULL,
                           j->record_moves ? &b->moves[i] : NULL, &b->rec[i]);
            /* A program that dies of the signal that stops the run is no fault of its own. */
            if (rc == AGENT_FAULT && !stop_signal) {
                note_fault(d, game, mine, mine + 1);
                fault = 1;
            }
        }
        if (rc != 0 && j->record_moves)
            b->moves[i].n = 0;
        d->whole[i] = rc == 0;
        if (rc == 0)
            atomic_fetch_add_explicit(&d->played, 1, memory_order_relaxed);
        else   /* no game: zeros, so that packing it for a gather reads defined memory */
            memset(&b->rec[i], 0, sizeof b->rec[i]);
        no_memory |= rc == AGENT_NO_MEMORY;
    }
    ShareResult r = { (uint64_t)n, 0, no_memory != 0, fault != 0 };
    for (long i = n - 1; i >= 0; i--) {
        r.whole += d->whole[i];
        if (!d->whole[i])
            r.prefix = (uint64_t)i;
    }
    return r;
}

/* Bring the other ranks' moves of a batch to rank 0, into b->moves after its own share,
 * once the rows are there: rank 0 knows each rank's number of moves from their plies. */
static void gather_moves(Driver *d, Batch *b, uint64_t my_lo, uint64_t my_hi)
{
    int size = cluster_size(), rank = cluster_rank();
    uint64_t all = 0;
    for (int r = 0; r < size; r++) {
        uint64_t lo, hi, count = 0;
        cluster_share(b->n, r, size, &lo, &hi);
        for (uint64_t i = lo; i < hi && (cluster_leads() || r == rank); i++)
            count += cluster_leads() ? b->rec[i].plies : b->moves[i - my_lo].n;
        d->move_counts[r] = (uint32_t)count;
        all += count;
    }
    size_t mine = d->move_counts[rank], at = 0;
    if ((!cluster_leads() && room(&d->packed_moves, &d->packed_cap, mine) != 0) ||
        (cluster_leads() && room(&d->gathered_moves, &d->gathered_cap, all) != 0)) {
        fprintf(stderr, "anywoli run (rank %d): out of memory for a batch's moves\n", rank);
        cluster_abort(1);
    }
    for (uint64_t i = 0; !cluster_leads() && i < my_hi - my_lo; i++) {
        memcpy(d->packed_moves + at, b->moves[i].move, b->moves[i].n);
        at += b->moves[i].n;
    }
    cluster_gather_rows(d->packed_moves, d->gathered_moves, d->move_counts, 1);
    if (!cluster_leads())
        return;
    at = d->move_counts[0];
    for (uint64_t i = my_hi; i < b->n; i++) {
        MoveList *l = &b->moves[i];
        uint32_t plies = b->rec[i].plies;
        if (plies > l->cap) {
            uint8_t *grown = realloc(l->move, plies);
            if (!grown) {
                fprintf(stderr, "anywoli run: out of memory for a batch's moves\n");
                cluster_abort(1);
            }
            l->move = grown;
            l->cap = plies;
        }
        memcpy(l->move, d->gathered_moves + at, plies);
        l->n = plies;
        at += plies;
    }
}

/* Bring the other ranks' rows of a batch to rank 0, into b->rec after its own share (and
 * their moves, for a job that records them). Rows travel packed (ROW_BYTES each, the
 * journal's form), so ranks need not share a struct layout. */
static void gather_batch(Driver *d, Batch *b, uint64_t my_lo, uint64_t my_hi)
{
    int size = cluster_size();
    for (int r = 0; r < size; r++) {
        uint64_t lo, hi;
        cluster_share(b->n, r, size, &lo, &hi);
        d->shares[r] = (uint32_t)(hi - lo);
    }
    if (!cluster_leads())
        for (uint64_t i = 0; i < my_hi - my_lo; i++)
            row_pack(&b->rec[i], d->rows + i * ROW_BYTES);
    cluster_gather_rows(d->rows, d->gathered, d->shares, ROW_BYTES);
    for (uint64_t i = my_hi; cluster_leads() && i < b->n; i++)
        row_unpack(d->gathered + i * ROW_BYTES, &b->rec[i]);
    if (b->job->record_moves)
        gather_moves(d, b, my_lo, my_hi);
}

/* The games at the start of a batch that every rank played whole, in rank order: each
 * rank's whole prefix, up to the first rank whose share is not all whole. On every rank;
 * *no_memory set when a search on any rank ran out of memory. */
static uint64_t batch_prefix(Driver *d, const Batch *b, const ShareResult *mine,
                             bool *no_memory, bool *fault)
{
    int size = cluster_size(), rank = cluster_rank();
    memset(d->finished, 0, (size_t)(size + 2) * sizeof *d->finished);
    d->finished[rank] = (int64_t)mine->prefix;
    d->finished[size] = mine->no_memory;
    d->finished[size + 1] = mine->fault;
    cluster_sum_array(d->finished, size + 2);
    *no_memory = d->finished[size] > 0;
    *fault = d->finished[size + 1] > 0;
    uint64_t kept = 0;
    for (int r = 0; r < size; r++) {
        uint64_t lo, hi;
        cluster_share(b->n, r, size, &lo, &hi);
        kept += (uint64_t)d->finished[r];
        if ((uint64_t)d->finished[r] < hi - lo)
            break;
    }
    return kept;
}

/* Play one batch with every rank, each its contiguous share, the rows gathered on rank 0.
 * The batch is cut to its games that were played whole, from its start (b->n; 0 when none
 * were): what a stop request or a lack of memory left of it. A signal that reached any rank
 * stops them all after this batch. Returns whether the batch was played in full; sets
 * *no_memory when a search on any rank ran out of memory, *fault when an agent's program
 * failed on any rank (this rank's fault in d->fault). */
static bool play_batch(Driver *d, const Job *j, Batch *b, Agent *agents, bool *no_memory,
                       bool *fault)
{
    uint64_t lo, hi;
    cluster_share(b->n, cluster_rank(), cluster_size(), &lo, &hi);
    ShareResult mine = play_share(d, j, b, lo, hi, agents);
    double t = now();
    if (cluster_size() > 1)
        gather_batch(d, b, lo, hi);
    if (mine.fault && !cluster_leads())   /* rank 0 cannot say it: this rank does */
        fprintf(stderr, "anywoli run (rank %d): job '%s', game %llu: %s\n", cluster_rank(),
                j->name, (unsigned long long)d->fault_game, d->fault);
    uint64_t kept = batch_prefix(d, b, &mine, no_memory, fault);
    stop_share();
    if (cluster_size() > 1)
        d->gather_seconds += now() - t;
    bool complete = kept == b->n;
    /* played counted this rank's whole games as they ended; it is to count the kept ones
     * (rank 0 leads the progress line and the report). */
    atomic_fetch_add_explicit(&d->played, (int64_t)kept - (int64_t)mine.whole,
                              memory_order_relaxed);
    b->n = (uint32_t)kept;
    return complete;
}

/* The next batch's size: fixed, or aiming at BATCH_SECONDS from the last batch's rate (of
 * `last` games and `moves` moves). For a job that records its moves, either way at most about
 * BATCH_MOVES moves at the last batch's mean length (a fixed size too, from its second batch:
 * batches group games and change none). */
static uint32_t next_batch(const Driver *d, const Job *j, uint32_t last, uint64_t moves,
                           double seconds)
{
    uint32_t lo = (uint32_t)d->run.all_threads * 4, hi = d->batch_cap;
    double want;
    if (d->x->batch > 0)
        want = lo = hi = (uint32_t)d->x->batch;
    else {
        want = last == 0 ? (double)BATCH_FIRST * d->run.all_threads
                         : seconds > 0 ? last * BATCH_SECONDS / seconds : 4.0 * last;
        if (last && want > 4.0 * last)
            want = 4.0 * last;
    }
    if (last && j->record_moves && moves > 0 && want > (double)BATCH_MOVES * last / moves) {
        want = (double)BATCH_MOVES * last / moves;
        lo = 1;
    }
    return want < lo ? lo : want > hi ? hi : (uint32_t)want;
}

/* Whether a job's games take the random fast path (which plays without agents, and so
 * without a move list). */
static bool fast_path(const Job *j)
{
    return driver_is_plain_random(j->agent_a) && driver_is_plain_random(j->agent_b) &&
           !j->record_moves;
}

/* One agent pair per thread for a job (NULL for the random fast path). */
static Agent *make_agents(const Driver *d, const Job *j, Error *e)
{
    if (fast_path(j))
        return NULL;
    Agent *a = calloc((size_t)d->run.threads * 2, sizeof *a);
    if (!a) {
        error_set(e, "out of memory for the agents");
        return NULL;
    }
    for (int t = 0; t < 2 * d->run.threads; t++) {
        if (agent_create(&a[t], t % 2 ? j->agent_b : j->agent_a, e) != 0) {
            for (int u = 0; u < t; u++)
                agent_free(&a[u]);
            free(a);
            return NULL;
        }
    }
    return a;
}

/* Free the agents of make_agents. */
static void free_agents(const Driver *d, Agent *a)
{
    for (int t = 0; a && t < 2 * d->run.threads; t++)
        agent_free(&a[t]);
    free(a);
}

/* What rank 0 tells the other ranks before each batch. */
typedef struct Order {
    int32_t job;
    uint32_t n;
    uint64_t start;
    int64_t plan_first;           /* the batch's round (RoundPlan), whose lines follow by a */
    int32_t plan_n;               /* broadcast when plan_n > 0 */
} Order;

/* Order a batch from the other ranks: the order, then its round's lines. */
static void order_batch(Driver *d, const Batch *b)
{
    Order o = { (int32_t)b->job->index, b->n, b->start, b->plan.first_pair, b->plan.n };
    checkpoint_order(&d->run, &o);
    if (b->plan.n > 0)
        cluster_broadcast((void *)b->plan.lines, (size_t)b->plan.n * sizeof *b->plan.lines);
}

/* The other ranks (CheckpointClient.serve): play this rank's share of the batch rank 0
 * orders; rank 0 decides what follows. */
static void serve_batch(void *self, const void *order)
{
    Driver *d = self;
    Order o;
    memcpy(&o, order, sizeof o);
    const Job *j = &d->x->jobs[o.job];
    if (o.job != d->serving_job) {
        Error e;
        free_agents(d, d->serving);
        d->serving = make_agents(d, j, &e);
        d->serving_job = o.job;
        if (!d->serving && !fast_path(j)) {
            /* Rank 0 made the same agents, so this is this rank's own failure (memory):
             * playing on would put wrong games in the file. */
            fprintf(stderr, "anywoli run (rank %d): %s\n", cluster_rank(), e.msg);
            cluster_abort(1);
        }
    }
    Batch b = { j, o.start, o.n, d->batch[0].rec, d->batch[0].moves, { o.plan_first, 0, NULL } };
    if (o.plan_n > 0) {
        int *lines = realloc(d->served_lines, (size_t)o.plan_n * sizeof *lines);
        if (!lines) {
            fprintf(stderr, "anywoli run (rank %d): out of memory\n", cluster_rank());
            cluster_abort(1);
        }
        d->served_lines = lines;
        cluster_broadcast(lines, (size_t)o.plan_n * sizeof *lines);
        b.plan = (RoundPlan){ o.plan_first, o.plan_n, lines };
    }
    bool no_memory, fault;
    play_batch(d, j, &b, d->serving, &no_memory, &fault);
}

/* Cut a played batch of a job with a sequential test at the pair where the test decides,
 * if it does within the batch: the pairs are fed in game order to the main thread's tally,
 * so the stop is at the same pair for any batch size, thread count and rank count, and the
 * games kept are a prefix of the planned ones. Returns whether the test stopped the job. */
static bool cut_at_decision(Driver *d, const Job *j, Batch *b)
{
    PairTally *t = &d->seq[j->index];
    for (uint32_t i = 0; i < b->n; i++) {
        int sn, a = record_a_half_points(&b->rec[i], &sn);
        Sprt test;
        if (pair_tally_add(t, b->rec[i].game, a, sn) && job_stops(j, t, &test)) {
            b->n = i + 1;
            d->seq_over[j->index] = true;
            return true;
        }
    }
    return false;
}

/* Feed a played batch of a job with an adaptive root design to the main thread's race, in
 * game order: at a round's end (a batch ends there at the latest) the race decides the
 * next round's lines, or the stop. Returns whether the race stopped the job; -1 when out of
 * memory. */
static int feed_race(Driver *d, const Job *j, const Batch *b)
{
    RootRace *race = &d->race[j->index];
    PairTally *t = &d->seq[j->index];   /* paired as the writer's stats pair them */
    for (uint32_t i = 0; i < b->n; i++) {
        const GameRecord *r = &b->rec[i];
        int sn, a = record_a_half_points(r, &sn), even_sn = t->waiting_sn;
        int paired = pair_tally_add(t, r->game, a, sn);
        if (r->game % 2 == 1 &&
            root_race_pair(race, (int64_t)(r->game / 2), r->opening, paired,
                           paired ? (sn + even_sn) / 2.0 : 0.0) != 0)
            return -1;   /* the schedule played its own lines: only memory can fail */
    }
    if (race->stop)
        d->seq_over[j->index] = true;
    return race->stop != ROOT_RACING;
}

/* The round of a job's adaptive root design that its next batch plays (n 0: none). */
static RoundPlan round_plan(const Driver *d, const Job *j)
{
    const RootRace *race = &d->race[j->index];
    if (!j->has_root_design || race->stop)
        return (RoundPlan){ 0, 0, NULL };
    return (RoundPlan){ race->round_first[race->round], race->nin, race->in };
}

/* Whether this rank saw the fault of the batch just played (else another rank did). */
static bool mine_fault(Driver *d)
{
    return atomic_load(&d->faulted) && d->fault[0];
}

/* Play the rest of one job, batch after batch, until it is done or a stop leaves a batch
 * short (its whole games are kept all the same); -1 on failure (message in e). */
static int play_job(Driver *d, const Job *j, Error *e)
{
    Agent *agents = make_agents(d, j, e);
    if (!agents && !fast_path(j))
        return -1;
    writer_set_job(d, (int)j->index);
    int64_t next = d->done[j->index];
    uint32_t size = next_batch(d, j, 0, 0, 0.0);
    while (next < job_end(j) && !stop_signal && !d->seq_over[j->index]) {
        Batch *b = &d->batch[d->cur];
        b->job = j;
        b->start = (uint64_t)next;
        /* A round of an adaptive root design ends a batch: the next round's lines are
         * known only once its pairs are played. */
        b->plan = round_plan(d, j);
        int64_t end = job_end(j);
        if (b->plan.n > 0 && 2 * d->race[j->index].round_end < end)
            end = 2 * d->race[j->index].round_end;
        b->n = (uint32_t)(end - next < size ? end - next : size);
        double t = now();
        order_batch(d, b);
        bool no_memory, fault;
        bool complete = play_batch(d, j, b, agents, &no_memory, &fault);
        uint32_t played = b->n;
        if (j->has_sprt && cut_at_decision(d, j, b)) {
            complete = false;   /* the job ends with this batch */
            atomic_fetch_sub_explicit(&d->played, (int64_t)(played - b->n), memory_order_relaxed);
        }
        int raced = j->has_root_design ? feed_race(d, j, b) : 0;
        if (raced < 0) {
            free_agents(d, agents);
            return error_set(e, "out of memory for the root design of job '%s'", j->name);
        }
        if (raced)
            complete = false;   /* its half-width is reached: the job ends with this batch */
        if (b->n > 0) {
            if (writer_submit(d, b) != 0)
                break;
            /* b is the writer's until it is written: the next batch, of this job or of the
             * next (a job its test stopped ends here), is played into the other one. */
            d->cur ^= 1;
        }
        if (no_memory) {
            free_agents(d, agents);
            return error_set(e, "job '%s': out of memory in a search (%s vs %s)", j->name,
                             j->agent_a, j->agent_b);
        }
        if (fault) {   /* the game in flight is no game of the lab's: the run stops here */
            free_agents(d, agents);
            if (!mine_fault(d))
                return error_set(e, "job '%s': an agent's program failed on another rank "
                                 "(its message says how)", j->name);
            return error_set(e, "job '%s', game %llu: %s", j->name,
                             (unsigned long long)d->fault_game, d->fault);
        }
        if (!complete)
            break;
        next += b->n;
        uint64_t moves = 0;
        for (uint32_t i = 0; j->record_moves && i < b->n; i++)
            moves += b->rec[i].plies;
        size = next_batch(d, j, b->n, moves, now() - t);
    }
    free_agents(d, agents);
    return 0;
}

/* The fingerprint of the experiment (CheckpointClient.fingerprint). */
static char *run_fingerprint(void *self)
{
    return experiment_fingerprint(((Driver *)self)->x);
}

/* A new results file (CheckpointClient.create). */
static int create_results(void *self, const char *path, const char *started, Error *e)
{
    Driver *d = self;
    d->res = results_create(path, d->x, started, d->run.rank_threads, e);
    return d->res ? 0 : -1;
}

/* The end of a complete results file (CheckpointClient.end). */
static int end_results(void *self, const char *finished, Error *e)
{
    return results_end(((Driver *)self)->res, finished, e);
}

/* CheckpointClient.close. */
static int close_results(void *self, Error *e)
{
    Driver *d = self;
    int rc = results_close(d->res, e);
    d->res = NULL;
    return rc;
}

/* Whether any job of the experiment records its moves. */
static bool records_moves(const Experiment *x)
{
    for (int i = 0; i < x->njobs; i++)
        if (x->jobs[i].record_moves)
            return true;
    return false;
}

/* Memory for the batches, the packed rows, the stats and the counts. */
static int allocate(Driver *d, Error *e)
{
    int n = d->x->njobs;
    d->batch_cap = d->x->batch > 0 ? (uint32_t)d->x->batch : BATCH_MAX;
    if (records_moves(d->x)) {
        for (int i = 0; i < 2; i++)
            d->batch[i].moves = calloc(d->batch_cap, sizeof(MoveList));
        d->move_counts = malloc((size_t)cluster_size() * sizeof *d->move_counts);
        if (!d->batch[0].moves || !d->batch[1].moves || !d->move_counts)
            return error_set(e, "out of memory");
    }
    d->stats = calloc((size_t)n, sizeof *d->stats);
    d->done = calloc((size_t)n, sizeof *d->done);
    d->w.job_seconds = calloc((size_t)n, sizeof *d->w.job_seconds);
    d->w.job_played = calloc((size_t)n, sizeof *d->w.job_played);
    d->w.eta = calloc((size_t)n, sizeof *d->w.eta);
    d->seq = calloc((size_t)n, sizeof *d->seq);
    d->seq_over = calloc((size_t)n, sizeof *d->seq_over);
    d->race = calloc((size_t)n, sizeof *d->race);
    d->opening_sums = calloc((size_t)n, sizeof *d->opening_sums);
    d->rows = malloc((size_t)d->batch_cap * ROW_BYTES);
    for (int i = 0; i < 2; i++)
        d->batch[i].rec = malloc((size_t)d->batch_cap * sizeof(GameRecord));
    d->whole = malloc(d->batch_cap);
    d->finished = malloc((size_t)(cluster_size() + 2) * sizeof *d->finished);
    if (cluster_size() > 1) {
        d->shares = malloc((size_t)cluster_size() * sizeof *d->shares);
        if (cluster_leads())
            d->gathered = malloc((size_t)d->batch_cap * ROW_BYTES);
    }
    if (!d->stats || !d->done || !d->seq || !d->seq_over || !d->race || !d->opening_sums || !d->w.job_seconds || !d->w.job_played || !d->w.eta ||
        !d->rows || !d->whole || !d->finished || !d->batch[0].rec || !d->batch[1].rec ||
        (cluster_size() > 1 && (!d->shares || (cluster_leads() && !d->gathered))))
        return error_set(e, "out of memory");
    for (int i = 0; i < n; i++)   /* a slice's games so far: none */
        d->done[i] = d->x->jobs[i].first_game;
    return 0;
}

/* Free what allocate and driver_run made, except the stats handed to the report. */
static void release(Driver *d)
{
    if (d->stats) {
        for (int i = 0; i < d->x->njobs; i++)
            stats_free(&d->stats[i]);
        free(d->stats);
    }
    free_agents(d, d->serving);
    free(d->done);
    free(d->w.job_seconds);
    free(d->w.job_played);
    free(d->w.eta);
    free(d->seq);
    free(d->seq_over);
    for (int i = 0; d->race && i < d->x->njobs; i++)
        root_race_free(&d->race[i]);
    free(d->race);
    free(d->served_lines);
    for (int i = 0; d->opening_sums && i < d->x->njobs; i++)
        free(d->opening_sums[i]);
    free(d->opening_sums);
    free(d->rows);
    free(d->gathered);
    free(d->shares);
    free(d->whole);
    free(d->finished);
    free(d->batch[0].rec);
    free(d->batch[1].rec);
    for (int i = 0; i < 2; i++) {
        for (uint32_t k = 0; d->batch[i].moves && k < d->batch_cap; k++)
            move_list_free(&d->batch[i].moves[k]);
        free(d->batch[i].moves);
    }
    free(d->packed_moves);
    free(d->gathered_moves);
    free(d->move_counts);
    free(d->pending.bytes);
}

/* Play every job that is not complete, then wait for the writer. */
static int play_all(Driver *d, Error *e)
{
    int rc = 0;
    d->t0 = now();
    for (int k = 0; k < d->x->njobs && rc == 0 && !stop_signal && !writer_failed(d); k++)
        if (d->done[k] < job_end(&d->x->jobs[k]) && !d->seq_over[k])
            rc = play_job(d, &d->x->jobs[k], e);
    writer_stop(d);
    if (rc == 0 && d->w.failed) {
        *e = d->w.error;
        rc = -1;
    }
    return rc;
}

/* Fill the report from the driver's counts; the stats move to the report. */
static void report(Driver *d, RunReport *rep)
{
    rep->njobs = d->x->njobs;
    rep->gather_seconds = d->gather_seconds;
    rep->played = atomic_load(&d->played);
    rep->seconds = now() - d->t0;
    rep->kept = 0;
    for (int i = 0; i < d->x->njobs; i++)
        rep->kept += d->done[i] - d->x->jobs[i].first_game;
    rep->stats = d->stats;
    d->stats = NULL;
}

/* Rank 0 (CheckpointClient.play): every game not yet in the file. */
static int play_run(void *self, Checkpoint *c, Error *e)
{
    Driver *d = self;
    for (int i = 0; i < d->x->njobs; i++) {
        d->rep->resumed += d->done[i] - d->x->jobs[i].first_game;
        d->seq[i] = d->stats[i].pairs;
        d->seq_over[i] = d->stats[i].stop.stopped;
        /* the race as the games in the file left it (re-derived from them on resume) */
        const Job *j = &d->x->jobs[i];
        if (j->has_root_design &&
            (d->stats[i].race ? root_race_copy(&d->race[i], d->stats[i].race)
                              : race_init_job(j, &d->race[i])) != 0)
            return error_set(e, "out of memory for the root design of job '%s'", j->name);
    }
    find_like_jobs(d);
    int64_t in_file = 0;
    for (int i = 0; i < d->x->njobs; i++)
        in_file += d->done[i] - d->x->jobs[i].first_game;
    ProgressStart start = { d->x->njobs, d->rep->total, in_file, d->run.threads, cluster_size() };
    progress_start(&c->progress, now(), &start);
    if (writer_start(d, e) != 0)
        return -1;
    int rc = play_all(d, e);
    bool complete = rc == 0;
    for (int i = 0; complete && i < d->x->njobs; i++)
        complete = d->done[i] == job_end(&d->x->jobs[i]) || d->stats[i].stop.stopped;
    report(d, d->rep);
    return rc != 0 ? -1 : complete ? 0 : 1;
}

/* A grow's journal, seeded from its files (CheckpointClient.seed). */
static int seed_journal(void *self, const char *path, Error *e)
{
    Driver *d = self;
    if (!d->grow)
        return error_set(e, "nothing to grow from");
    return grow_seed_journal(d->x, d->grow, path, e);
}

static const CheckpointClient run_client = {
    .command = "run",
    .noun = "run",
    .record_bytes = ROW_BYTES,
    .order_bytes = sizeof(Order),
    .fingerprint = run_fingerprint,
    .create = create_results,
    .apply = apply_batch,
    .play = play_run,
    .serve = serve_batch,
    .end = end_results,
    .close = close_results,
    .seed = seed_journal,
};

/* The end record of --progress json (rank 0, once the run has ended as st says): the outcome,
 * the games in the file and each job's, and which jobs a rule stopped before their planned
 * games. Nothing when no start record was written (a refused run, another rank). */
static void progress_outcome(Driver *d, RunStatus st, const RunReport *rep, const Error *e)
{
    if (!d->run.progress.started)
        return;
    int n = d->x->njobs;
    ProgressJobEnd *jobs = calloc(n > 0 ? (size_t)n : 1, sizeof *jobs);
    bool early = false;
    int64_t games = 0;
    for (int i = 0; jobs && i < n; i++) {
        const Job *j = &d->x->jobs[i];
        bool stopped = rep->stats && rep->stats[i].stop.stopped;
        jobs[i] = (ProgressJobEnd){ j->name, d->done[i] - j->first_game, j->games,
                                    !stopped ? NULL : j->has_root_design ? "root_design"
                                                                         : "sprt" };
        early |= stopped;
        games += jobs[i].games;
    }
    ProgressEnd end = { st == RUN_DONE ? (early ? "stopped_early" : "complete")
                        : st == RUN_INTERRUPTED ? "interrupted" : "failed",
                        st == RUN_INTERRUPTED ? d->run.signal : 0,
                        st == RUN_DONE || st == RUN_INTERRUPTED ? NULL : e->msg,
                        jobs ? games : rep->kept, rep->total, rep->played, jobs, jobs ? n : 0 };
    progress_end(&d->run.progress, now(), &end);
    free(jobs);
}

RunStatus driver_run(const Experiment *x, const RunOptions *o, RunReport *rep, Error *e)
{
    return driver_grow(x, NULL, o, rep, e);
}

RunStatus driver_grow(const Experiment *x, const GrowFiles *files, const RunOptions *o,
                      RunReport *rep, Error *e)
{
    Driver d;
    memset(&d, 0, sizeof d);
    memset(rep, 0, sizeof *rep);
    d.x = x;
    d.grow = files;
    d.rep = rep;
    d.serving_job = -1;
    atomic_init(&d.played, 0);
    for (int i = 0; i < x->njobs; i++)
        rep->total += x->jobs[i].games;
    bool ok = allocate(&d, e) == 0;
    RunStatus st = checkpoint_run(&d.run, &run_client, &d, x->output, x->threads, o, ok, e);
    rep->threads = d.run.threads;
    rep->all_threads = d.run.all_threads;
    rep->threads_vary = d.run.threads_vary;
    rep->ranks = cluster_size();
    rep->signal = d.run.signal;
    rep->dropped_bytes = d.run.dropped_bytes;
    progress_outcome(&d, st, rep, e);
    release(&d);
    return st;
}

void run_report_free(RunReport *rep)
{
    for (int i = 0; rep->stats && i < rep->njobs; i++)
        stats_free(&rep->stats[i]);
    free(rep->stats);
    memset(rep, 0, sizeof *rep);
}
