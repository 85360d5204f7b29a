/* config_file.h: a libconfig file read with one-line `FILE:LINE: key: what` errors: what
 * every config loader of the lab shares (experiments, config.h; tunings, tune.h). */
#ifndef ANYWOLI_CONFIG_FILE_H
#define ANYWOLI_CONFIG_FILE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

struct config_t;
struct config_setting_t;

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
int config_refuse_other_kind(const char *label, const struct config_t *cfg, const char *kind,
                             Error *e);

#define CONFIG_MAX_TEXT ((size_t)64 << 20)     /* bytes of a config (an experiment) */
#define CONFIG_INCLUDE_DEPTH 10                /* @include within @include, as libconfig */

/* The whole text of the config at path, NUL-terminated and malloc'd into *text: only a
 * regular file is read (a FIFO without a writer would block for ever: door_read_open), and
 * a results file is refused (config_refuse_other_file). -1 with a one-line message. */
int config_read_text(const char *path, size_t max_bytes, char **text, Error *e);

/* Check every @include of a libconfig text before libconfig opens it (libconfig 1.5 has no
 * hook for it: a FIFO would block for ever, a folder ends the program with flex's own
 * message): each must be a regular file, and so must those it includes. -1 with
 * `LABEL:LINE: @include: PATH: not a regular file (a folder)`. depth: 0 for a config. */
int config_check_includes(const char *text, const char *label, int depth, Error *e);

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

/* A setting's line for messages (libconfig gives 0 for some; then the line of its parent). */
int config_line_of(const struct config_setting_t *s);

/* A whole-number setting s (a libconfig config_setting_t) in [lo, hi] into *out: the one
 * reader of counts for every libconfig file the lab reads. -1 with `LABEL:LINE: KEY: expected
 * a whole number, not a string` or `... KEY: 0 is out of range (1 to 10)`. */
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

/* The keys of table t allowed in place, as "a, b or c", into out (size bytes). */
const char *config_keys_text(const ConfigKey *t, int n, unsigned place, char *out,
                             size_t size);

/* Keep a message on one line: control characters quoted from the input become '?'. */
void config_one_line(char *msg);

/* The words for a libconfig setting type in messages ("a string", "a group"). */
const char *config_type_words(int type);

/* The line of the first byte of text that is not valid UTF-8, or 0 if the text is valid. */
int config_bad_utf8_line(const char *text);

#endif
