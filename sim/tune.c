/* tune.c: the tuning loop, a client of the checkpoint engine (checkpoint.h): SPSA iterations
 * of game pairs, each step a journal record appended to the results file, then the
 * verification matches; the files, resume, stops and MPI orders are the engine's. */
#include "tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "checkpoint.h"
#include "cluster.h"
#include "elo.h"
#include "pairs.h"
#include "stop.h"
#include "tune_internal.h"

#define STREAM_VERIFY (UINT64_C(1) << 61)   /* + match: the verification's game streams */

/* Journal records: job 0 a trajectory step (start = its iteration), job 1 + m a block of
 * verification match m (start = its first pair). */
enum { JOURNAL_STEP = 0, JOURNAL_VERIFY = 1 };

const char *const tune_verify_names[VERIFY_NB] = { "start", "defaults" };

/* A tuning in progress. */
typedef struct Tuner {
    const TuneConfig *t;
    const TuneOptions *o;
    Checkpoint run;                   /* the files, resume, the orders, progress */
    TuneFile *file;
    size_t row_bytes;
    unsigned char *row;
    int64_t done;                     /* iterations in the trajectory */
    double theta[EVAL_NB];            /* theta before iteration `done` */
    TuneVerify verify[VERIFY_NB];
    PairGames *pairs[VERIFY_NB];      /* each match's pairs' games so far (verify_pairs each) */
    int nverify;
    char tuned[TUNE_SPEC_MAX];        /* the tuned spec, once verified */
    double t0;
    int64_t games;                    /* played in this session */
    TuneReport *rep;
} Tuner;

#define now checkpoint_clock

void tune_verify_stats(const SprtBounds *b, TuneVerify *v)
{
    const MatchSums *s = &v->sums;
    uint64_t counts[PENTA_NB];
    for (int i = 0; i < PENTA_NB; i++)
        counts[i] = (uint64_t)s->pairs[i];
    PairEstimate est = pentanomial_estimate(counts, 0.95);
    Sprt sp = sprt_pentanomial(counts, b->elo0, b->elo1, b->alpha, b->beta);
    v->sprt = *b;
    v->score = est.score;
    v->elo = est.elo;
    v->elo_lo = est.elo_ci.lo;
    v->elo_hi = est.elo_ci.hi;
    v->los = likelihood_of_superiority((uint64_t)s->wins, (uint64_t)s->losses);
    v->llr = sp.llr;
    v->llr_lower = sp.lower;
    v->llr_upper = sp.upper;
    v->decision = (int)sp.decision;
}

SprtDecision tune_verify_decision(const SprtBounds *b, const MatchSums *s)
{
    uint64_t counts[PENTA_NB];
    for (int i = 0; i < PENTA_NB; i++)
        counts[i] = (uint64_t)s->pairs[i];
    /* A run's sequential stop's rule (pairs.h): no stop before SPRT_MIN_PAIRS pairs, where
     * the normal approximation with its regularised counts is wild. */
    Sprt t = sprt_pentanomial(counts, b->elo0, b->elo1, b->alpha, b->beta);
    return sprt_stop_decision(&t, counts);
}

uint64_t tune_verify_cut(const SprtBounds *b, const MatchSums *before, const PairGames *each,
                         uint64_t n)
{
    MatchSums s = *before;
    for (uint64_t i = 0; i < n; i++) {
        match_sums_add_pair(&s, each[i]);
        if (tune_verify_decision(b, &s) != SPRT_CONTINUE)
            return i + 1;
    }
    return n;
}

/* ---- matches shared between MPI ranks ----
 *
 * Under mpirun rank 0 runs the tuning and alone touches files; before each match (or block
 * of one) it orders the other ranks to play, naming the two specs, the game stream and the
 * pairs. Every rank plays a contiguous share of those pairs with its threads, and the
 * integer sums are added over the ranks: the same sums, so the same trajectory, as one
 * process. A stop request on any rank stops them all. */

typedef struct MatchOrder {
    uint64_t stream, first, n;       /* the match's stream and pairs */
    int each;                        /* gather every pair's games (a verification block, n at
                                      * most VERIFY_BLOCK) */
    char spec_a[TUNE_SPEC_MAX], spec_b[TUNE_SPEC_MAX];
} MatchOrder;

/* Rank 0: play pairs [first, first + n) of a match with every rank (each pair's games into
 * each[0 .. n-1] when not NULL: n is then at most VERIFY_BLOCK). */
static int play_pairs(Tuner *u, const Match *m, uint64_t first, uint64_t n,
                      MatchSums *out, PairGames *each, Error *e)
{
    if (cluster_size() > 1) {
        static MatchOrder o;
        memset(&o, 0, sizeof o);
        o.stream = m->stream;
        o.first = first;
        o.n = n;
        o.each = each != NULL;
        snprintf(o.spec_a, sizeof o.spec_a, "%s", m->spec_a);
        snprintf(o.spec_b, sizeof o.spec_b, "%s", m->spec_b);
        checkpoint_order(&u->run, &o);
    }
    return match_play_shared(m, first, n, out, each, e);
}

/* The other ranks (CheckpointClient.serve): this rank's share of the match rank 0 orders. */
static void serve_match(void *self, const void *order)
{
    Tuner *u = self;
    const TuneConfig *t = u->t;
    const MatchOrder *o = order;
    Match m = { &t->variant, o->spec_a, o->spec_b, (uint64_t)t->seed, o->stream,
                    t->opening_plies, t->max_plies, u->run.threads };
    MatchSums sums;
    PairGames each[VERIFY_BLOCK];
    Error e;
    bool with_each = o->each && o->n <= VERIFY_BLOCK;
    if (match_play_shared(&m, o->first, o->n, &sums, with_each ? each : NULL, &e) < 0 &&
        e.msg[0] &&
        !strstr(e.msg, "another rank"))
        fprintf(stderr, "anywoli tune (rank %d): %s\n", cluster_rank(), e.msg);
}

/* ---- the steps ---- */

/* The SPSA parameters of the tuned weights. */
static void params_of(const TuneConfig *t, SpsaParam *p)
{
    for (int i = 0; i < t->nweights; i++)
        p[i] = t->w[i].p;
}

/* Apply a recorded step: theta moves to the step's result. */
static void apply_step(Tuner *u, const TuneStep *s)
{
    SpsaParam p[EVAL_NB];
    params_of(u->t, p);
    spsa_step(&u->t->gains, s->k, u->t->nweights, p, s->theta, s->delta, s->diff, u->theta);
    u->done = (int64_t)s->k + 1;
}

/* Keep a step: journal (flushed), then the results file and theta (apply_record). */
static int keep_step(Tuner *u, const TuneStep *s, Error *e)
{
    memset(u->row, 0, u->row_bytes);
    step_pack(s, u->t->nweights, u->row);
    return checkpoint_keep(&u->run, JOURNAL_STEP, s->k, 1, u->row, e);
}

/* Play iteration k from theta; 1 when stopped before its games were all played. */
static int play_iteration(Tuner *u, uint64_t k, TuneStep *s, Error *e)
{
    const TuneConfig *t = u->t;
    SpsaParam p[EVAL_NB];
    double plus[EVAL_NB], minus[EVAL_NB];
    char spec_plus[TUNE_SPEC_MAX], spec_minus[TUNE_SPEC_MAX];
    params_of(t, p);
    memset(s, 0, sizeof *s);
    s->k = k;
    s->a_k = spsa_a(&t->gains, k);
    s->c_k = spsa_c(&t->gains, k);
    memcpy(s->theta, u->theta, sizeof s->theta);
    spsa_delta((uint64_t)t->seed, k, t->nweights, s->delta);
    spsa_perturb(&t->gains, k, t->nweights, p, s->theta, s->delta, plus, minus);
    tune_spec(t, plus, false, spec_plus);
    tune_spec(t, minus, false, spec_minus);
    Match m = { &t->variant, spec_plus, t->opponent ? t->opponent : spec_minus,
                    (uint64_t)t->seed, k, t->opening_plies, t->max_plies, u->run.threads };
    int rc = play_pairs(u, &m, 0, (uint64_t)t->pairs, &s->plus, NULL, e);
    if (rc != 0)
        return rc;
    u->games += 2 * t->pairs;
    if (t->opponent) {
        /* The same openings and streams against the reference: common random numbers. */
        m.spec_a = spec_minus;
        if ((rc = play_pairs(u, &m, 0, (uint64_t)t->pairs, &s->minus, NULL, e)) != 0)
            return rc;
        u->games += 2 * t->pairs;
    } else {
        s->minus = (MatchSums){ s->plus.losses, s->plus.draws, s->plus.wins,
                                { s->plus.pairs[4], s->plus.pairs[3], s->plus.pairs[2],
                                  s->plus.pairs[1], s->plus.pairs[0] } };
    }
    s->diff = match_score(&s->plus) - match_score(&s->minus);
    return 0;
}

/* The progress line after an iteration or a verification block. */
static void show_progress(Tuner *u, const char *what, int64_t done, int64_t total,
                          int64_t left_units, double per_unit)
{
    double t = now();
    if (!progress_due(&u->run.progress, t))
        return;
    char line[512], theta[320];
    size_t used = 0;
    theta[0] = '\0';
    for (int i = 0; i < u->t->nweights && used < sizeof theta; i++)
        used += (size_t)snprintf(theta + used, sizeof theta - used, "%s%s=%.3f", i ? " " : "",
                                 eval_terms[u->t->w[i].term].name, u->theta[i]);
    double rate = t > u->t0 ? (double)u->games / (t - u->t0) : 0.0;
    snprintf(line, sizeof line, "tune: %s %lld/%lld, %.0f games/s, %s", what, (long long)done,
             (long long)total, rate, theta);
    progress_text(&u->run.progress, t, line, per_unit > 0 ? (double)left_units * per_unit : -1.0);
}

/* Every iteration not yet played. */
static int play_iterations(Tuner *u, Error *e)
{
    const TuneConfig *t = u->t;
    int64_t session = 0;
    double t_start = now();
    int64_t first = u->done;
    while (u->done < t->iterations && !stop_signal) {
        if (u->o->stop_after > 0 && session >= u->o->stop_after)
            return 1;
        TuneStep s;
        int rc = play_iteration(u, (uint64_t)u->done, &s, e);
        if (rc != 0)
            return rc;
        if (keep_step(u, &s, e) != 0)
            return -1;
        session++;
        double per = (now() - t_start) / (double)(u->done - first);
        int64_t verify_as = 2 * t->verify_pairs / (t->opponent ? 2 * t->pairs : t->pairs) + 1;
        show_progress(u, "iteration", u->done, t->iterations,
                      t->iterations - u->done + verify_as, per);
    }
    return stop_signal ? 1 : 0;
}

/* The specs of the verification: the tuned weights (A) and each opponent (B). */
static void verify_specs(const Tuner *u, char *tuned, char opp[VERIFY_NB][TUNE_SPEC_MAX])
{
    double start[EVAL_NB];
    for (int i = 0; i < u->t->nweights; i++)
        start[i] = u->t->w[i].start;
    tune_spec(u->t, u->theta, true, tuned);
    tune_spec(u->t, start, true, opp[VERIFY_START]);
    tune_default_spec(u->t, opp[VERIFY_DEFAULTS]);
}

/* Whether two specs build the same agent. */
static bool same_agent(const char *a, const char *b)
{
    Agent x, y;
    char da[TUNE_SPEC_MAX], db[TUNE_SPEC_MAX];
    if (agent_create(&x, a, NULL) != 0)
        return false;
    if (agent_create(&y, b, NULL) != 0) {
        agent_free(&x);
        return false;
    }
    agent_describe(&x, da, sizeof da);
    agent_describe(&y, db, sizeof db);
    agent_free(&x);
    agent_free(&y);
    return strcmp(da, db) == 0;
}

/* Play and keep the next block of verification match m: at most VERIFY_BLOCK pairs, cut
 * after the pair at which its SPRT decides (tune_verify_cut) before it is journaled, so the
 * match stops at that pair whoever played the block. */
static int play_verify_block(Tuner *u, int m, const Match *match, Error *e)
{
    const TuneConfig *t = u->t;
    TuneVerify *v = &u->verify[m];
    uint64_t n = (uint64_t)(t->verify_pairs - v->pairs_done);
    n = n < VERIFY_BLOCK ? n : VERIFY_BLOCK;
    MatchSums played, kept = { 0, 0, 0, { 0 } };
    PairGames each[VERIFY_BLOCK];
    int rc = play_pairs(u, match, (uint64_t)v->pairs_done, n, &played, each, e);
    if (rc != 0)
        return rc;
    u->games += 2 * (int64_t)n;
    n = tune_verify_cut(&t->sprt[m], &v->sums, each, n);
    for (uint64_t i = 0; i < n; i++)
        match_sums_add_pair(&kept, each[i]);
    memset(u->row, 0, u->row_bytes);
    verify_block_pack((uint64_t)v->pairs_done, n, &kept, each, u->row);
    return checkpoint_keep(&u->run, JOURNAL_VERIFY + (uint32_t)m, (uint64_t)v->pairs_done, 1,
                           u->row, e) != 0 ? -1 : 0;
}

/* The verification matches, block by block (each block journaled), each until its SPRT
 * decides or its pairs are played. */
static int play_verification(Tuner *u, char *tuned, Error *e)
{
    const TuneConfig *t = u->t;
    char opp[VERIFY_NB][TUNE_SPEC_MAX];
    verify_specs(u, tuned, opp);
    u->nverify = same_agent(opp[VERIFY_START], opp[VERIFY_DEFAULTS]) ? 1 : VERIFY_NB;
    if (t->verify_pairs == 0)
        u->nverify = 0;
    int64_t blocks = 0;   /* of this session */
    for (int m = 0; m < u->nverify; m++) {
        TuneVerify *v = &u->verify[m];
        snprintf(v->opponent, sizeof v->opponent, "%s", opp[m]);
        Match match = { &t->variant, tuned, opp[m], (uint64_t)t->seed,
                            STREAM_VERIFY + (uint64_t)m, t->opening_plies, t->max_plies,
                            u->run.threads };
        double t_start = now();
        int64_t first = v->pairs_done;
        while (v->pairs_done < t->verify_pairs &&
               tune_verify_decision(&t->sprt[m], &v->sums) == SPRT_CONTINUE && !stop_signal) {
            int rc = play_verify_block(u, m, &match, e);
            if (rc != 0)
                return rc;
            if (++blocks == u->o->stop_after_blocks)   /* once that block is journaled */
                return 1;
            char what[64];
            snprintf(what, sizeof what, "verification against %s, pairs", tune_verify_names[m]);
            double per = (now() - t_start) / (double)(v->pairs_done - first);
            show_progress(u, what, v->pairs_done, t->verify_pairs,
                          (u->nverify - m) * t->verify_pairs - v->pairs_done, per);
        }
        if (stop_signal)
            break;
        tune_verify_stats(&t->sprt[m], v);
        v->pairs_planned = t->verify_pairs;
        v->stop_pair = tune_verify_decision(&t->sprt[m], &v->sums) != SPRT_CONTINUE
                           ? v->pairs_done : 0;
    }
    return stop_signal ? 1 : 0;
}

/* ---- the client of the checkpoint engine ---- */

/* CheckpointClient.fingerprint. */
static char *fingerprint(void *self)
{
    return tune_fingerprint(((Tuner *)self)->t);
}

/* A new tuning file (CheckpointClient.create). */
static int create_file(void *self, const char *path, const char *started, Error *e)
{
    Tuner *u = self;
    u->file = tune_file_create(path, u->t, started, u->run.rank_threads, e);
    return u->file ? 0 : -1;
}

/* A record kept, live or from the journal on resume (CheckpointClient.apply): a step goes
 * to the file and moves theta, a verification block adds to its match. */
static int apply_record(void *self, uint32_t job, uint64_t start, uint32_t n,
                        const unsigned char *row, Error *e)
{
    Tuner *u = self;
    if (job == JOURNAL_STEP) {
        TuneStep s;
        step_unpack(row, u->t->nweights, &s);
        if (n != 1 || s.k != start || (int64_t)s.k != u->done ||
            u->verify[0].pairs_done || u->verify[1].pairs_done)
            return error_set(e, "%s: a step (iteration %llu) does not follow the ones before it",
                             u->run.out.journal, (unsigned long long)start);
        if (tune_file_append(u->file, row, e) != 0)
            return -1;
        apply_step(u, &s);
        return 0;
    }
    uint64_t first, count;
    MatchSums sums;
    PairGames each[VERIFY_BLOCK];
    int m = (int)job - JOURNAL_VERIFY;
    if (verify_block_unpack(row, &first, &count, &sums, each) != 0)
        return error_set(e, "%s: a verification block's pairs do not add up to its counts",
                         u->run.out.journal);
    /* A block follows the match's pairs, within its budget, and only while its SPRT has not
     * decided; it ends at the decision, if any (tune_verify_cut). */
    if (m < 0 || m >= VERIFY_NB || n != 1 || u->done != u->t->iterations ||
        first != (uint64_t)u->verify[m].pairs_done || first != start || count == 0 ||
        first + count > (uint64_t)u->t->verify_pairs ||
        tune_verify_decision(&u->t->sprt[m], &u->verify[m].sums) != SPRT_CONTINUE ||
        tune_verify_cut(&u->t->sprt[m], &u->verify[m].sums, each, count) != count)
        return error_set(e, "%s: a verification block does not follow the ones before it",
                         u->run.out.journal);
    match_sums_add(&u->verify[m].sums, &sums);
    memcpy(u->pairs[m] + first, each, count * sizeof *each);
    u->verify[m].pairs_done += (int64_t)count;
    return 0;
}

/* Rank 0 (CheckpointClient.play): what is left of the iterations and the verification. */
static int play_tuning(void *self, Checkpoint *c, Error *e)
{
    (void)c;
    Tuner *u = self;
    TuneReport *rep = u->rep;
    rep->resumed = u->done;
    u->t0 = now();
    int rc = play_iterations(u, e);
    if (rc == 0)
        rc = play_verification(u, u->tuned, e);
    rep->iterations_done = u->done;
    rep->seconds = now() - u->t0;
    rep->games = u->games;
    memcpy(rep->theta, u->theta, sizeof rep->theta);
    if (rc != 0)
        return rc;
    snprintf(rep->tuned_spec, sizeof rep->tuned_spec, "%s", u->tuned);
    memcpy(rep->verify, u->verify, sizeof rep->verify);
    rep->nverify = u->nverify;
    return 0;
}

/* The end of a complete tuning file (CheckpointClient.end). */
static int end_file(void *self, const char *finished, Error *e)
{
    Tuner *u = self;
    return tune_file_end(u->file, u->t, u->theta, u->tuned, u->verify,
                         (const PairGames *const *)u->pairs, u->nverify, finished, e);
}

/* CheckpointClient.close. */
static int close_file(void *self, Error *e)
{
    Tuner *u = self;
    int rc = tune_file_close(u->file, e);
    u->file = NULL;
    return rc;
}

RunStatus tune_run(const TuneConfig *t, const TuneOptions *o, TuneReport *rep, Error *e)
{
    Tuner u;
    memset(&u, 0, sizeof u);
    memset(rep, 0, sizeof *rep);
    u.t = t;
    u.o = o;
    u.rep = rep;
    /* A record holds a step or a verification block, whichever is larger. */
    u.row_bytes = STEP_ROW_BYTES(t->nweights) > VERIFY_BLOCK_BYTES ? STEP_ROW_BYTES(t->nweights)
                                                                   : VERIFY_BLOCK_BYTES;
    u.row = calloc(1, u.row_bytes);
    for (int m = 0; m < VERIFY_NB; m++)
        u.pairs[m] = calloc((size_t)t->verify_pairs + 1, sizeof *u.pairs[m]);
    for (int i = 0; i < t->nweights; i++)
        u.theta[i] = t->w[i].start;
    const CheckpointClient client = {
        .command = "tune",
        .noun = "tuning",
        .record_bytes = u.row_bytes,
        .order_bytes = sizeof(MatchOrder),
        .fingerprint = fingerprint,
        .create = create_file,
        .apply = apply_record,
        .play = play_tuning,
        .serve = serve_match,
        .end = end_file,
        .close = close_file,
    };
    RunOptions ro = { .resume = o->resume, .force = o->force, .quiet = o->quiet };
    bool ok = u.row != NULL;
    if (!ok)
        error_set(e, "out of memory");
    RunStatus st = checkpoint_run(&u.run, &client, &u, t->output, t->threads, &ro, ok, e);
    rep->threads = u.run.threads;
    rep->all_threads = u.run.all_threads;
    rep->threads_vary = u.run.threads_vary;
    rep->ranks = cluster_size();
    rep->signal = u.run.signal;
    free(u.row);
    for (int m = 0; m < VERIFY_NB; m++)
        free(u.pairs[m]);
    return st;
}
