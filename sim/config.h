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

#include "error.h"
#include "openings.h"
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
    OpeningSet openings;     /* where its pairs of games start (`openings`; spec "start") */
    int64_t games;
    bool record_moves;       /* its games' moves go to the file (/jobs/<job>/moves) */
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
    const char *agent_a, *agent_b;
    const char *openings;    /* every job's openings spec */
    bool record_moves;       /* every job records its moves (--record-moves) */
    VariantText variant;     /* every job's preset and parameters */
} Overrides;

/* Overrides with nothing given. */
void overrides_none(Overrides *o);

/* Set e to `LABEL:LINE: KEY: what` (KEY left out when NULL) on one line (control characters
 * quoted from the input become '?') and return -1: the error of every libconfig file the lab
 * reads (experiments, tunings). */
int config_error_v(Error *e, const char *label, int line, const char *key, const char *fmt,
                   va_list ap) __attribute__((format(printf, 5, 0)));

/* Refuse a file that is not the kind of config the command reads, with one line saying what
 * it is and which command reads it: a results file (HDF5's signature at its start), or a
 * config of the other kind (`kind` is "experiment" for run, "tuning" for tune; an experiment
 * has `jobs`, a tuning `weights`). 0 when the file may be the right kind; its own errors
 * then say what is wrong in it. config_refuse_other_file reads the start of f, and rewinds it. */
int config_refuse_other_file(const char *path, FILE *f, Error *e);

#define CONFIG_MAX_TEXT ((size_t)64 << 20)     /* bytes of a config (an experiment) */
#define CONFIG_INCLUDE_DEPTH 10                /* @include within @include, as libconfig */

/* The whole text of the config at path, NUL-terminated and malloc'd into *text: only a
 * regular file is read (a FIFO without a writer would block for ever: input_file_open), and
 * a results file is refused (config_refuse_other_file). -1 with a one-line message. */
int config_read_text(const char *path, size_t max_bytes, char **text, Error *e);

/* Check every @include of a libconfig text before libconfig opens it (libconfig 1.5 has no
 * hook for it: a FIFO would block for ever, a folder ends the program with flex's own
 * message): each must be a regular file, and so must those it includes. -1 with
 * `LABEL:LINE: @include: PATH: not a regular file (a folder)`. depth: 0 for a config. */
int config_check_includes(const char *text, const char *label, int depth, Error *e);
struct config_t;
int config_refuse_other_kind(const char *label, const struct config_t *cfg, const char *kind,
                             Error *e);

/* The error of a libconfig text that does not parse (cfg after config_read_string failed):
 * `LABEL:LINE: syntax error`, with libconfig's reason when it gives one, and a hint when the
 * line sets a key to an unquoted word (`agent_a = random;`: `... syntax error: agent_a =
 * random: agent specs are strings in double quotes (agent_a = "random";)`). Returns -1. */
int config_syntax_error(Error *e, const char *label, const struct config_t *cfg,
                        const char *text);

/* Check every whole-number literal of a libconfig text (outside strings and comments), which
 * libconfig 1.5 would otherwise read wrong without a word: one beyond 64 bits (saturated, so
 * 9223372036854775808L reads as 2^63-1) and one beyond 32 bits without the L suffix (wrapped).
 * -1 with `LABEL:LINE: KEY: the literal as written, what fits` on the first such literal. */
int config_check_int_literals(const char *text, const char *label, Error *e);

/* A whole-number setting s (a libconfig config_setting_t) in [lo, hi] into *out: the one
 * reader of counts for every libconfig file the lab reads. -1 with `LABEL:LINE: KEY: expected
 * a whole number, not a string` or `... KEY: 0 is out of range (1 to 10)`. */
struct config_setting_t;
/* A setting's line for messages (libconfig gives 0 for some; then the line of its parent). */
int config_line_of(const struct config_setting_t *s);
int config_get_int(const struct config_setting_t *s, const char *label, const char *key,
                   int64_t lo, int64_t hi, int64_t *out, Error *e);

/* Where a config key may be written: one bit each, so a key may be allowed in several. */
enum ConfigPlace {
    CP_ROOT = 1 << 0,        /* run config: top level */
    CP_DEFAULTS = 1 << 1,    /* run config: the `defaults` group */
    CP_JOB = 1 << 2,         /* run config: each group of `jobs` */
    CP_TUNE = 1 << 3,        /* tune config: top level */
    CP_TUNE_WEIGHT = 1 << 4, /* tune config: each group of `weights` */
    CP_TUNE_VERIFY = 1 << 5, /* tune config: the `verification` group */
    CP_TUNE_BOUNDS = 1 << 6, /* tune config: each `against_<name>` group of `verification` */
};

/* One key a config loader knows: the one place a key is declared, for its unknown-key check,
 * its "expected ..." message and the reference docs/config.md (checked by a test). */
typedef struct ConfigKey {
    const char *name;
    unsigned places;         /* ConfigPlace bits */
    const char *type;        /* e.g. "whole number", "string", "string or list of strings" */
    const char *meaning;     /* one line */
} ConfigKey;

/* The run config's keys (config.c: the variant parameters' from variant_params) and the tune
 * config's keys (tune_config.c). */
const ConfigKey *config_run_keys(void);
extern const int config_run_key_count;
extern const ConfigKey config_tune_keys[];
extern const int config_tune_key_count;

/* The keys of table t allowed in place, as "a, b or c", into out (size bytes). */
const char *config_keys_text(const ConfigKey *t, int n, unsigned place, char *out,
                             size_t size);

/* Read and expand a config file. -1 with `FILE:LINE: key: what is wrong` on any error. */
int experiment_load(Experiment *x, const char *path, const Overrides *o, Error *e);

/* The same from text; label names it in messages. */
int experiment_parse(Experiment *x, const char *text, const char *label, const Overrides *o,
                     Error *e);

/* The quick form: one job `main` from the overrides alone (defaults: random agents, 10000
 * games, seed 0, output results.h5). Its text is a config that runs the same experiment. */
int experiment_quick(Experiment *x, const Overrides *o, Error *e);

/* Free everything the experiment holds. */
void experiment_free(Experiment *x);

/* The job named name, or NULL. */
const Job *experiment_job(const Experiment *x, const char *name);

/* What makes the experiment's games what they are (seed, and every job's name, variant,
 * agents, openings, with a digest of a book file's openings, and games), as text: equal for two configs that differ only in comments, output,
 * threads or batch. Malloc'd; NULL when out of memory. */
char *experiment_fingerprint(const Experiment *x);

#endif
