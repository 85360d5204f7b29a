/* config.h: experiments, read from a libconfig file (or made from the command line) and
 * expanded into jobs: a variant, a matchup of two agent specs and a number of games each.
 *
 * A config names its seed, its output file and its jobs; `defaults` sets keys once for all
 * jobs; a list of values for a variant parameter, the preset or an agent spec is a sweep that
 * expands into one job per combination, named `<name>-<key>=<value>...`. Every error is one
 * line, `FILE:LINE: key: what is wrong`.
 *
 * Paths: a book the config names by a relative path (`openings = "file:PATH"`) is read from
 * the config's folder, so that a config and its book travel together; every other relative
 * path is taken from the current folder, as the shell's are: the config's `output`, the
 * command line's -o and --openings file:PATH, and a file an agent spec names (tables=PATH).
 * `anywoli run --help` and docs/openings.md say the same. */
#ifndef ANYWOLI_CONFIG_H
#define ANYWOLI_CONFIG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "config_file.h"
#include "elo.h"
#include "error.h"
#include "openings.h"
#include "root_race.h"
#include "variant.h"
#include "variant_text.h"

#define CONFIG_MAX_GAMES (INT64_C(1) << 50)    /* games in one job */
#define CONFIG_MAX_BATCH (1 << 18)             /* games in one batch */
#define CONFIG_MAX_THREADS 4096
#define CONFIG_MAX_JOBS 10000                  /* jobs after expansion */
#define JOB_NAME_MAX 200                       /* bytes of a job name, generated or given */

/* One job of an experiment. */
typedef struct Job {
    char *name;              /* unique within the experiment */
    uint64_t index;          /* position in the expanded list: the `job` of rng_seed */
    Variant variant;         /* finished (variant_finish done) */
    char *agent_a, *agent_b; /* specs as written */
    char *files_a, *files_b; /* the content hashes of the files each spec names, read when the
                              * experiment is loaded (agent_file_digests; "" for none) */
    OpeningSet openings;     /* where its pairs of games start (`openings`; spec "start") */
    int64_t games;
    int64_t first_game;      /* the job plays games [first_game, first_game + games) (even) */
    bool record_moves;       /* its games' moves go to the file (/jobs/<job>/moves) */
    bool has_sprt;           /* it stops when its sequential test decides (`sprt`) */
    SprtBounds sprt;         /* that test's hypotheses and error rates */
    bool adjudicate;         /* a game ends once a store holds more than half the seeds
                              * (`adjudicate`; GameOptions.adjudicate) */
    bool has_root_design;    /* its pairs go by the adaptive root design (`root_design`) */
    RootRule root_design;    /* that race's rule (root_race.h) */
    int line;                /* where the job is defined in the config */
} Job;

/* A whole experiment. Every string is owned by the experiment. */
typedef struct Experiment {
    char *source;            /* the config's path, or "(command line)" */
    char *text;              /* the experiment's full text, as stored in results files */
    int64_t seed;            /* 0 .. INT64_MAX */
    char *output;            /* results file */
    int threads;             /* 0: every core */
    int64_t batch;           /* games per batch; 0: chosen as the run goes */
    Job *jobs;
    int njobs;
} Experiment;

/* Command-line settings that override the config's; NULL or -1 when not given. */
typedef struct Overrides {
    const char *output;
    int threads;
    int64_t batch;
    int64_t seed;
    int64_t games;           /* every job's */
    int64_t first_game;      /* every job's (--first-game) */
    const char *agent_a, *agent_b;
    const char *openings;    /* every job's openings spec */
    const char *openings_order;   /* every job's openings_order ("in-order", "shuffled") */
    bool record_moves;       /* every job records its moves (--record-moves) */
    const char *sprt;        /* every job's sequential test (--sprt), as written */
    bool adjudicate;         /* every job adjudicates decided games (--adjudicate) */
    const char *root_design; /* every job's adaptive root design (--root-design), as written */
    VariantText variant;     /* every job's preset and parameters */
} Overrides;

/* Overrides with nothing given. */
void overrides_none(Overrides *o);

/* The run config's keys (the variant parameters' from variant_params). */
const ConfigKey *config_run_keys(void);
extern const int config_run_key_count;

/* Read and expand a config file. -1 with `FILE:LINE: key: what is wrong` on any error. */
int experiment_load(Experiment *x, const char *path, const Overrides *o, Error *e);

/* The same from text; label names it in messages. */
int experiment_parse(Experiment *x, const char *text, const char *label, const Overrides *o,
                     Error *e);

/* The quick form: one job `main` from the overrides alone (defaults: random agents, 10000
 * games, seed 0, output results.h5). Its text is a config that runs the same experiment:
 * the job keys the overrides give in its `defaults`, the agents in the job. */
int experiment_quick(Experiment *x, const Overrides *o, Error *e);

/* A tournament of the quick form: a gauntlet (the first spec against each other one) or a
 * round robin (every unordered pair of specs once), one job a matchup. */
typedef enum TournamentKind { TOURNAMENT_GAUNTLET = 0, TOURNAMENT_ROUND_ROBIN, TOURNAMENT_NB } TournamentKind;
extern const char *const tournament_options[TOURNAMENT_NB];   /* "--gauntlet", "--round-robin" */

/* The quick form with one job a matchup of the n specs, named gauntlet-1-J or rr-I-J by the
 * specs' positions from 1, agent A the earlier spec; every other override (games, openings
 * and their order, the variant, seed, output, any job key) applies to every job, through
 * the text's `defaults`. Its text is a config that runs the same experiment. -1 with one line
 * naming the option: fewer than 2 specs, two that build the same agent, an odd --games,
 * --agent-a or --agent-b given, more than CONFIG_MAX_JOBS jobs. */
int experiment_tournament(Experiment *x, const Overrides *o, TournamentKind kind,
                          const char *const *specs, int n, Error *e);

/* Free everything the experiment holds. */
void experiment_free(Experiment *x);

/* The job named name, or NULL. */
const Job *experiment_job(const Experiment *x, const char *name);

/* Whether `games` games of job j (from its even first_game) leave the last one without its
 * partner where the pair is the design's unit: two different agents (the colour swap) or
 * openings other than the start (both games of a pair start from one). `run` says so; it
 * does not refuse, as a count of games is sometimes meant (a slice, a budget). */
bool job_splits_last_pair(const Job *j, int64_t games);

/* What makes the experiment's games what they are (seed, and every job's name, variant,
 * agents, openings, with a digest of a book file's openings in their played order, and
 * games; a shuffled openings order, named only then so that older journals still resume), as text: equal for two configs that differ only in comments, output,
 * threads or batch. Malloc'd; NULL when out of memory. */
char *experiment_fingerprint(const Experiment *x);

#endif
