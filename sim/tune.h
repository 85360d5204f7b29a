/* tune.h: tuning the evaluation weights of a searching agent by self-play with SPSA
 * (`anywoli tune`): the tuning config, the match of game pairs that every iteration and the
 * verification play, the checkpointed loop, and the tuning part of a results file.
 *
 *   main thread                               OpenMP team (T threads)
 *   -----------                               -----------------------
 *   iteration k: delta = f(seed, k)
 *     match_play_pairs(theta+, theta-) ------> pair p, colour c: game = f(seed, k, p, c)
 *     <------------------------------------  integer sums (wins, draws, losses, pairs)
 *     theta <- spsa_step(sums); journal the step (CRC, flushed), append the row to HDF5
 *   verification: blocks of pairs, likewise, each pair's games returned; a block is cut
 *     at the pair where the SPRT decides (tune_verify_cut); then Elo, interval and SPRT
 *
 * A match's result is integer sums over its pairs, and the pairs [first, first + n) can be
 * played by anyone in any order: sums of disjoint ranges add up to the whole match's, and
 * theta moves only from those sums, so the trajectory is the same for any thread count. */
#ifndef ANYWOLI_TUNE_H
#define ANYWOLI_TUNE_H

#include <stdbool.h>
#include <stdint.h>

#include "checkpoint.h"      /* RunStatus: how a tuning ended, as a run */
#include "config_file.h"
#include "error.h"
#include "elo.h"           /* SprtBounds */
#include "eval.h"
#include "results_read.h"      /* the one reader of results files, tunings included */
#include "spsa.h"
#include "match.h"
#include "variant.h"
#include "elo.h"               /* SprtDecision */

#define TUNE_MAX_ITERATIONS 1000000
#define TUNE_MAX_PAIRS 1000000
#define TUNE_MAX_OPENING 40
#define TUNE_MAX_PLIES 1000       /* the default cap on a tuning game's plies */
#define TUNE_SPEC_MAX 1024

/* One tuned weight. */
typedef struct TuneWeight {
    int term;                   /* its EvalTerm */
    double start;               /* theta at iteration 0 */
    SpsaParam p;                /* bounds and step */
} TuneWeight;

/* The verification matches, of the tuned weights (A) against each opponent (B). */
enum { VERIFY_START = 0, VERIFY_DEFAULTS, VERIFY_NB };
extern const char *const tune_verify_names[VERIFY_NB];

/* Each verification match has its own SPRT (elo.h's SprtBounds): a tuned agent may gain 100
 * Elo over a poor start and only 20 over the defaults, and H1 = 100 would then call a real
 * +30 "H0 accepted". */

/* A tuning, as read from its config. Strings are owned by it. */
typedef struct TuneConfig {
    char *source;               /* the config's path */
    char *text;                 /* its full text, stored in the results file */
    char *description;          /* or NULL */
    int64_t seed;
    char *output;
    int threads;                /* 0: every core */
    char *variant_name;         /* the preset as written */
    Variant variant;
    char *agent;                /* the base spec; tuned weights override its w.<term> */
    char *opponent;             /* NULL: self-play of theta+ against theta-; else a spec */
    int nweights;
    TuneWeight w[EVAL_NB];
    SpsaGains gains;
    int64_t iterations;
    int64_t pairs;              /* colour-swapped pairs per iteration (per side, against a
                                 * reference) */
    int opening_plies;          /* random plies before the agents play, the same for both
                                 * games of a pair */
    int64_t max_plies;          /* a game still going after this many plies is adjudicated by
                                 * the seeds in the stores (badly weighted agents can avoid
                                 * captures for a very long time) */
    int64_t verify_pairs;       /* pairs of each verification match (0: none) */
    SprtBounds sprt_all;        /* the `verification` group's own bounds: every match's
                                 * unless its `against_<name>` group overrides them */
    SprtBounds sprt[VERIFY_NB]; /* each verification match's, by VERIFY_* */
} TuneConfig;

/* Read a tuning config. -1 with `FILE:LINE: key: what is wrong` on any error. output and
 * threads, when not NULL / not negative, override the config's. */
int tune_config_load(TuneConfig *t, const char *path, const char *output, int threads, Error *e);
int tune_config_parse(TuneConfig *t, const char *text, const char *label, const char *output,
                      int threads, Error *e);
void tune_config_free(TuneConfig *t);

/* What makes the tuning's games what they are, as text (for the journal's header). */
char *tune_fingerprint(const TuneConfig *t);

/* The base spec with the tuned weights set to values (exactly, "%.17g"), or rounded to the
 * thousandth for people (`readable`), into buf of TUNE_SPEC_MAX bytes. */
void tune_spec(const TuneConfig *t, const double *values, bool readable, char *buf);

/* The agent spec with every weight at its default (the base spec without its w.<term>). */
void tune_default_spec(const TuneConfig *t, char *buf);

/* One iteration of the trajectory. */
typedef struct TuneStep {
    uint64_t k;
    double a_k, c_k;
    double theta[EVAL_NB];         /* before the step, per tuned weight */
    int8_t delta[EVAL_NB];
    MatchSums plus, minus;         /* theta+ against theta- (self-play; minus mirrors it),
                                    * or each against the reference */
    double diff;                   /* D = score(theta+) - score(theta-) */
} TuneStep;

/* One verification match. Its games come in colour-swapped pairs from a shared opening, so
 * the pair is the unit: the interval and the SPRT are pentanomial (pairs.h). */
typedef struct TuneVerify {
    char opponent[TUNE_SPEC_MAX];  /* B's spec */
    int64_t pairs_planned;         /* the match's pairs at most (`verification.pairs`) */
    int64_t pairs_done;
    int64_t stop_pair;             /* the pair (from 1, = pairs_done) at which the SPRT left
                                    * (lower, upper) and the match stopped; 0 when it did not
                                    * decide (every pair played); -1 not recorded (a file
                                    * written before matches stopped on their SPRT) */
    MatchSums sums;
    SprtBounds sprt;               /* the bounds the decision was taken with */
    double score, elo, elo_lo, elo_hi, los;   /* 95% interval over the pairs */
    double llr, llr_lower, llr_upper;
    int decision;                  /* SprtDecision: -1 H0, 0 neither, 1 H1 */
} TuneVerify;

/* Fill a verification's statistics from its sums and its SPRT's bounds (kept in v->sprt):
 * pentanomial_estimate and sprt_pentanomial over the pairs by A's points. */
void tune_verify_stats(const SprtBounds *b, TuneVerify *v);

/* Whether a verification match stops after the pairs summed in s: sprt_pentanomial's
 * decision with bounds b, once SPRT_MIN_PAIRS pairs are in (pairs.h's sprt_stop_decision,
 * the rule of a run's sequential stop). A pure function of the pair counts. */
SprtDecision tune_verify_decision(const SprtBounds *b, const MatchSums *s);

/* How many of a block of n pairs (each[0 .. n-1], following the pairs summed in `before`)
 * a verification keeps: up to and including the first pair after which the SPRT leaves
 * (lower, upper), in pair order; n when none does. A pure function of the games, so the
 * match stops at the same pair for any thread count, block size or number of ranks. */
uint64_t tune_verify_cut(const SprtBounds *b, const MatchSums *before, const PairGames *each,
                         uint64_t n);

typedef struct TuneOptions {
    bool resume, force, quiet;
    int64_t stop_after;            /* testing: stop as if interrupted after this many
                                    * iterations of this session (0: never) */
    int64_t stop_after_blocks;     /* testing: the same after this many verification blocks
                                    * of this session (0: never) */
} TuneOptions;

/* What a tuning did. */
typedef struct TuneReport {
    int64_t iterations_done, resumed;
    double theta[EVAL_NB];         /* the tuned weights */
    char tuned_spec[TUNE_SPEC_MAX];
    TuneVerify verify[VERIFY_NB];
    int nverify;
    double seconds;
    int64_t games;                 /* played in this session */
    int threads;                   /* OpenMP threads per rank (rank 0's) */
    int all_threads;               /* every rank's, together */
    bool threads_vary;             /* not every rank has the same */
    int ranks;                     /* MPI ranks (1 without MPI) */
    int signal;
} TuneReport;

/* Run a tuning into t->output (via .partial and .journal, as `anywoli run`). */
RunStatus tune_run(const TuneConfig *t, const TuneOptions *o, TuneReport *rep, Error *e);

/* A tuning as a results file holds it (for analyze and tests). */
typedef struct TuneData {
    int nweights;
    char names[EVAL_NB][16];
    double start[EVAL_NB], lo[EVAL_NB], hi[EVAL_NB], step[EVAL_NB], tuned[EVAL_NB];
    char *agent, *opponent, *start_spec, *tuned_spec, *config;   /* malloc'd or NULL */
    int64_t iterations, pairs, seed;
    SpsaGains gains;
    int64_t nsteps;
    TuneStep *steps;
    int nverify;
    TuneVerify verify[VERIFY_NB];  /* each with its SPRT's bounds */
} TuneData;

/* Read the tuning of an open results file (results_read.h: rf_has_group(f, "tuning") says
 * whether it holds one), or of the file at path, opened and closed through the same reader. */
int tune_read_results(const ResultsFile *f, TuneData *d, Error *e);
int tune_read(const char *path, TuneData *d, Error *e);
void tune_data_free(TuneData *d);

/* The tuning config's keys (tune_config.c). */
extern const ConfigKey config_tune_keys[];
extern const int config_tune_key_count;

#endif
