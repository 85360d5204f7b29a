/* config.c: the experiment model: run configs (libconfig, read through config_file.c) and the
 * command line's quick form, checked and expanded into jobs; the run config's keys. */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <pthread.h>
#include <libconfig.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "nearest.h"

/* The keys a job (or `defaults`) may set. Sweeps vary in this order, the last fastest. */
typedef enum Key {
    K_VARIANT = 0,
    K_PARAM,                      /* the variant parameters, K_PARAM + p for VariantParam p */
    K_AGENT_A = K_PARAM + VP_NB, K_AGENT_B, K_OPENINGS, K_OPENINGS_ORDER, K_GAMES, K_FIRST_GAME,
    K_RECORD_MOVES, K_SPRT, K_ADJUDICATE, K_ROOT_DESIGN, K_NAME, K_NB
} Key;

/* The type a key's values must have. */
typedef enum Kind { KIND_STRING, KIND_INT, KIND_BOOL } Kind;

/* Every key of a run config: the job keys first, in the order of Key (the variant parameters'
 * rows, left empty here, come from variant_params), then the root keys. */
static ConfigKey run_keys[] = {
    { "variant", CP_DEFAULTS | CP_JOB, "string",
      "a named variant preset the other variant keys change" },
    [K_AGENT_A] = { "agent_a", CP_DEFAULTS | CP_JOB, "string", "agent spec of player A" },
    { "agent_b", CP_DEFAULTS | CP_JOB, "string", "agent spec of player B" },
    { "openings", CP_DEFAULTS | CP_JOB, "string", "where each game's opening comes from" },
    { "openings_order", CP_DEFAULTS | CP_JOB, "string",
      "a list of openings played in order or shuffled by the seed" },
    { "games", CP_DEFAULTS | CP_JOB, "whole number", "games the job plays" },
    { "first_game", CP_DEFAULTS | CP_JOB, "whole number",
      "index of the job's first game (even; default 0): a slice of a larger run" },
    { "record_moves", CP_DEFAULTS | CP_JOB, "boolean", "store every game's moves in the results" },
    { "sprt", CP_DEFAULTS | CP_JOB, "string",
      "\"ELO0,ELO1[,ALPHA,BETA]\": stop the job when its pentanomial SPRT decides" },
    { "adjudicate", CP_DEFAULTS | CP_JOB, "boolean",
      "end a game once a store holds more than half the seeds (its winner is certain)" },
    { "root_design", CP_DEFAULTS | CP_JOB, "string",
      "\"ROUND_PAIRS,HALFWIDTH[,CONFIDENCE]\": all:N self-play in rounds raced over the tree of lines" },
    { "name", CP_JOB, "string", "the job's name in results and on the command line" },
    { "seed", CP_ROOT, "whole number", "the experiment's seed; each game derives its own from it" },
    { "output", CP_ROOT, "string", "the results file" },
    { "threads", CP_ROOT, "whole number", "worker threads (0: one per core)" },
    { "batch", CP_ROOT, "whole number", "games one worker takes at a time" },
    { "description", CP_ROOT, "string", "free text kept with the results" },
    { "defaults", CP_ROOT, "group", "job keys every job starts from" },
    { "jobs", CP_ROOT, "list of groups", "the jobs, each a group of job keys" },
};
const int config_run_key_count = (int)(sizeof run_keys / sizeof run_keys[0]);

/* The type word of a variant parameter's values in a config. */
static const char *param_type(VariantKind k)
{
    return k == VK_CONVENTION ? "string" : k == VK_BOOL ? "boolean" : "whole number";
}

/* The variant parameters' rows of run_keys, from variant_params (once, before any use). */
static void fill_param_keys(void)
{
    for (int p = 0; p < VP_NB; p++)
        run_keys[K_PARAM + p] = (ConfigKey){ variant_params[p].name, CP_DEFAULTS | CP_JOB,
                                             param_type(variant_params[p].kind),
                                             variant_params[p].about };
}

const ConfigKey *config_run_keys(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fill_param_keys);
    return run_keys;
}

/* How the loader reads each job key's values (its name is config_run_keys()[k].name): its
 * kind, and whether a list of values expands into jobs (a sweep). The variant parameters' are
 * their kinds' and all sweep. */
typedef struct KeyInfo {
    Kind kind;
    bool sweep;
} KeyInfo;

static KeyInfo key_info(Key k)
{
    static const KeyInfo others[] = {
        [K_VARIANT] = { KIND_STRING, true }, [K_AGENT_A] = { KIND_STRING, true },
        [K_AGENT_B] = { KIND_STRING, true }, [K_OPENINGS] = { KIND_STRING, true },
        [K_OPENINGS_ORDER] = { KIND_STRING, false },
        [K_GAMES] = { KIND_INT, false }, [K_FIRST_GAME] = { KIND_INT, false },
        [K_RECORD_MOVES] = { KIND_BOOL, false }, [K_SPRT] = { KIND_STRING, false },
        [K_ADJUDICATE] = { KIND_BOOL, false }, [K_ROOT_DESIGN] = { KIND_STRING, false },
        [K_NAME] = { KIND_STRING, false },
    };
    if (k >= K_PARAM && k < K_PARAM + VP_NB) {
        VariantKind vk = variant_params[k - K_PARAM].kind;
        return (KeyInfo){ vk == VK_CONVENTION ? KIND_STRING : vk == VK_BOOL ? KIND_BOOL
                                                                              : KIND_INT,
                          true };
    }
    return others[k];
}

/* The name of job key k. */
static const char *key_name(Key k)
{
    return config_run_keys()[k].name;
}

/* The run config's keys allowed in place, as "a, b or c". */
static const char *run_keys_text(unsigned place, char *out, size_t size)
{
    return config_keys_text(config_run_keys(), config_run_key_count, place, out, size);
}

/* Allocations of one load, freed together. */
typedef struct Pool {
    void **ptr;
    int n, cap;
} Pool;

/* The values one key has in a job or in defaults. */
typedef struct Values {
    int n;                   /* 0: not set */
    char **text;             /* each value as text */
    int *line;               /* and where it is written */
} Values;

/* One job as written: its keys, before defaults, overrides and sweeps. */
typedef struct JobDef {
    Values v[K_NB];
    int line;
    int number;              /* 1-based position in `jobs` */
} JobDef;

/* What a load works with. */
typedef struct Loader {
    const char *label;       /* the file, for messages */
    Error *e;
    Pool pool;
    const Overrides *o;
} Loader;

/* Remember ptr for pool_free; NULL (and ptr freed) when out of memory. */
static void *pool_keep(Pool *p, void *ptr)
{
    if (!ptr)
        return NULL;
    if (p->n == p->cap) {
        int cap = p->cap ? 2 * p->cap : 64;
        void **grown = realloc(p->ptr, (size_t)cap * sizeof *grown);
        if (!grown) {
            free(ptr);
            return NULL;
        }
        p->ptr = grown;
        p->cap = cap;
    }
    p->ptr[p->n++] = ptr;
    return ptr;
}

/* Zeroed memory that lives until pool_free. */
static void *pool_alloc(Pool *p, size_t size)
{
    return pool_keep(p, calloc(1, size ? size : 1));
}

/* A copy of s that lives until pool_free. */
static char *pool_strdup(Pool *p, const char *s)
{
    return pool_keep(p, strdup(s));
}

/* Free everything the pool holds. */
static void pool_free(Pool *p)
{
    for (int i = 0; i < p->n; i++)
        free(p->ptr[i]);
    free(p->ptr);
    memset(p, 0, sizeof *p);
}

/* Set `LABEL:LINE: KEY: what` (KEY left out when NULL) and return -1. */
static int cfg_error(const Loader *L, int line, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int cfg_error(const Loader *L, int line, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    config_error_v(L->e, L->label, line, key, fmt, ap);
    va_end(ap);
    return -1;
}

static int out_of_memory(const Loader *L)
{
    return error_set(L->e, "%s: out of memory", L->label);
}

/* Whether a setting holds several values (an array or a list). */
static bool is_aggregate(const config_setting_t *s)
{
    int t = config_setting_type(s);
    return t == CONFIG_TYPE_ARRAY || t == CONFIG_TYPE_LIST;
}

/* One value of a key, as text, checked against the key's kind. */
static int value_text(Loader *L, const config_setting_t *s, Key k, char **out)
{
    const char *key = key_name(k);
    int type = config_setting_type(s), line = config_setting_source_line(s);
    char buf[32];
    const char *text = buf;
    switch (key_info(k).kind) {
    case KIND_STRING:
        if (type != CONFIG_TYPE_STRING)
            return cfg_error(L, line, key, "expected a string in double quotes, not %s",
                             config_type_words(type));
        text = config_setting_get_string(s);
        break;
    case KIND_INT:
        if (type != CONFIG_TYPE_INT && type != CONFIG_TYPE_INT64)
            return cfg_error(L, line, key, "expected a whole number, not %s", config_type_words(type));
        snprintf(buf, sizeof buf, "%lld", (long long)config_setting_get_int64(s));
        break;
    case KIND_BOOL:
        if (type != CONFIG_TYPE_BOOL)
            return cfg_error(L, line, key, "expected true or false, not %s", config_type_words(type));
        text = config_setting_get_bool(s) ? "yes" : "no";
        break;
    }
    *out = pool_strdup(&L->pool, text);
    return *out ? 0 : out_of_memory(L);
}

/* Room for n values in v. */
static int values_room(Loader *L, Values *v, int n)
{
    v->text = pool_alloc(&L->pool, (size_t)n * sizeof *v->text);
    v->line = pool_alloc(&L->pool, (size_t)n * sizeof *v->line);
    return v->text && v->line ? 0 : out_of_memory(L);
}

/* The values of key k from setting s: one value, or a sweep (a non-empty list). */
static int read_values(Loader *L, const config_setting_t *s, Key k, Values *v)
{
    const char *key = key_name(k);
    int line = config_setting_source_line(s);
    if (config_setting_type(s) == CONFIG_TYPE_GROUP)
        return cfg_error(L, line, key, "expected a value, not a group");
    int n = is_aggregate(s) ? config_setting_length(s) : 1;
    if (is_aggregate(s) && !key_info(k).sweep)
        return cfg_error(L, line, key, "expected one value, not a list (only variant "
                         "parameters, agent specs and openings can be swept)");
    if (n == 0)
        return cfg_error(L, line, key, "empty sweep (a list needs at least one value)");
    if (values_room(L, v, n) != 0)
        return -1;
    for (int i = 0; i < n; i++) {
        const config_setting_t *elem = is_aggregate(s) ? config_setting_get_elem(s, (unsigned)i)
                                                       : s;
        if (is_aggregate(elem) || config_setting_type(elem) == CONFIG_TYPE_GROUP)
            return cfg_error(L, config_setting_source_line(elem), key,
                             "a sweep holds plain values, not %s",
                             config_type_words(config_setting_type(elem)));
        if (value_text(L, elem, k, &v->text[i]) != 0)
            return -1;
        v->line[i] = config_setting_source_line(elem);
    }
    v->n = n;
    return 0;
}

/* The key a setting name denotes, or K_NB. */
static Key key_lookup(const char *name)
{
    for (int k = 0; k < K_NB; k++)
        if (strcmp(name, key_name(k)) == 0)
            return (Key)k;
    return K_NB;
}

/* Read the keys of a job (or of defaults, where `name` is not allowed). */
static int read_keys(Loader *L, const config_setting_t *g, bool is_job, Values v[K_NB])
{
    int n = config_setting_length(g);
    for (int i = 0; i < n; i++) {
        const config_setting_t *s = config_setting_get_elem(g, (unsigned)i);
        const char *name = config_setting_name(s);
        int line = config_setting_source_line(s);
        Key k = key_lookup(name);
        char hint[100], keys[400];
        if (k == K_NB)
            return cfg_error(L, line, name, "unknown setting%s (expected %s)",
                             nearest_hint_in(name, run_keys_text(CP_JOB, keys, sizeof keys),
                                             hint, sizeof hint), keys);
        if (k == K_NAME && !is_job)
            return cfg_error(L, line, name, "not allowed in defaults (each job has its own)");
        if (read_values(L, s, k, &v[k]) != 0)
            return -1;
    }
    return 0;
}

/* A whole-number setting in [lo, hi]. */
static int get_int(const Loader *L, const config_setting_t *s, int64_t lo, int64_t hi,
                   int64_t *out)
{
    return config_get_int(s, L->label, config_setting_name(s), lo, hi, out, L->e);
}

/* A string setting, copied into *out (malloc'd, owned by the caller's experiment). */
static int get_string(const Loader *L, const config_setting_t *s, char **out)
{
    int type = config_setting_type(s);
    if (type != CONFIG_TYPE_STRING)
        return cfg_error(L, config_setting_source_line(s), config_setting_name(s),
                         "expected a string in double quotes, not %s", config_type_words(type));
    free(*out);
    *out = strdup(config_setting_get_string(s));
    return *out ? 0 : out_of_memory(L);
}

/* An empty string setting is as bad as a missing one for paths. */
static int check_not_empty(const Loader *L, const config_setting_t *s, const char *value)
{
    if (value && !*value)
        return cfg_error(L, config_setting_source_line(s), config_setting_name(s),
                         "must not be empty");
    return 0;
}

/* A setting that must be a group or a list (`defaults`, `jobs`), kept for later. */
static int keep_aggregate(const Loader *L, const config_setting_t *s, int type,
                          const config_setting_t **out)
{
    *out = s;
    if (config_setting_type(s) == type)
        return 0;
    return cfg_error(L, config_setting_source_line(s), config_setting_name(s), "expected %s, "
                     "not %s", type == CONFIG_TYPE_GROUP ? "a group { ... }"
                                                         : "a list of groups ( { ... }, { ... } )",
                     config_type_words(config_setting_type(s)));
}

/* One root setting into x (defaults and jobs are only found here, read later). */
static int read_root_setting(Loader *L, const config_setting_t *s, Experiment *x,
                             const config_setting_t **defaults, const config_setting_t **jobs)
{
    const char *name = config_setting_name(s);
    int64_t v = 0;
    if (strcmp(name, "seed") == 0)
        return get_int(L, s, 0, INT64_MAX, &x->seed);
    if (strcmp(name, "output") == 0)
        return get_string(L, s, &x->output) ? -1 : check_not_empty(L, s, x->output);
    if (strcmp(name, "threads") == 0) {
        int rc = get_int(L, s, 0, CONFIG_MAX_THREADS, &v);
        x->threads = (int)v;
        return rc;
    }
    if (strcmp(name, "batch") == 0)
        return get_int(L, s, 1, CONFIG_MAX_BATCH, &x->batch);
    if (strcmp(name, "description") == 0) {
        char *text = NULL;
        int rc = get_string(L, s, &text);
        free(text);
        return rc;
    }
    if (strcmp(name, "defaults") == 0)
        return keep_aggregate(L, s, CONFIG_TYPE_GROUP, defaults);
    if (strcmp(name, "jobs") == 0)
        return keep_aggregate(L, s, CONFIG_TYPE_LIST, jobs);
    char hint[100], keys[400];
    return cfg_error(L, config_setting_source_line(s), name, "unknown setting%s (expected %s)",
                     nearest_hint_in(name, run_keys_text(CP_ROOT, keys, sizeof keys), hint,
                                     sizeof hint), keys);
}

/* The root settings: seed, output, threads, batch, description; defaults and jobs found. */
static int read_root(Loader *L, const config_setting_t *root, Experiment *x,
                     const config_setting_t **defaults, const config_setting_t **jobs)
{
    int n = config_setting_length(root);
    for (int i = 0; i < n; i++)
        if (read_root_setting(L, config_setting_get_elem(root, (unsigned)i), x, defaults,
                              jobs) != 0)
            return -1;
    return 0;
}

/* Read every job definition of the `jobs` list. */
static int read_jobs(Loader *L, const config_setting_t *jobs, JobDef **out, int *count)
{
    int n = config_setting_length(jobs);
    if (n == 0)
        return cfg_error(L, config_setting_source_line(jobs), "jobs",
                         "empty (give at least one job)");
    JobDef *defs = pool_alloc(&L->pool, (size_t)n * sizeof *defs);
    if (!defs)
        return out_of_memory(L);
    for (int i = 0; i < n; i++) {
        const config_setting_t *g = config_setting_get_elem(jobs, (unsigned)i);
        defs[i].line = config_setting_source_line(g);
        defs[i].number = i + 1;
        if (config_setting_type(g) != CONFIG_TYPE_GROUP)
            return cfg_error(L, defs[i].line, "jobs", "job %d: expected a group { ... }, not %s",
                             i + 1, config_type_words(config_setting_type(g)));
        if (read_keys(L, g, true, defs[i].v) != 0)
            return -1;
    }
    *out = defs;
    *count = n;
    return 0;
}

/* The command line's value for key k as one value, or NULL if it gives none. */
static const char *override_text(const Overrides *o, Key k, char *buf, size_t len)
{
    if (k == K_VARIANT)
        return o->variant.preset;
    if (k >= K_PARAM && k < K_PARAM + VP_NB)
        return o->variant.value[k - K_PARAM];
    if (k == K_AGENT_A)
        return o->agent_a;
    if (k == K_AGENT_B)
        return o->agent_b;
    if (k == K_OPENINGS)
        return o->openings;
    if (k == K_OPENINGS_ORDER)
        return o->openings_order;
    if (k == K_RECORD_MOVES && o->record_moves)
        return "yes";
    if (k == K_ADJUDICATE && o->adjudicate)
        return "yes";
    if (k == K_SPRT)
        return o->sprt;
    if (k == K_ROOT_DESIGN)
        return o->root_design;
    if (k == K_GAMES && o->games >= 0) {
        snprintf(buf, len, "%" PRId64, o->games);
        return buf;
    }
    if (k == K_FIRST_GAME && o->first_game >= 0) {
        snprintf(buf, len, "%" PRId64, o->first_game);
        return buf;
    }
    return NULL;
}

/* Each key's values for a job: the command line's, else the job's, else the defaults'. */
static int merge_values(Loader *L, const JobDef *d, const Values defaults[K_NB], Values out[K_NB])
{
    for (int k = 0; k < K_NB; k++) {
        char buf[32];
        const char *o = override_text(L->o, (Key)k, buf, sizeof buf);
        if (o) {
            if (values_room(L, &out[k], 1) != 0)
                return -1;
            out[k].text[0] = pool_strdup(&L->pool, o);
            if (!out[k].text[0])
                return out_of_memory(L);
            out[k].line[0] = d->line;
            out[k].n = 1;
        } else {
            out[k] = d->v[k].n ? d->v[k] : defaults[k];
        }
    }
    if (out[K_GAMES].n == 0)
        return cfg_error(L, d->line, "games", "missing (set it in the job or in defaults)");
    return 0;
}

/* Whether c may appear in a job name. */
static bool name_char_ok(char c)
{
    return isalnum((unsigned char)c) || strchr("._:=,+-", c) != NULL;
}

/* Check a job name given in a config. */
static int check_name(const Loader *L, const char *name, int line)
{
    bool ok = *name && *name != '.' && strlen(name) <= JOB_NAME_MAX / 2;
    for (const char *p = name; ok && *p; p++)
        ok = name_char_ok(*p);
    if (!ok)
        return cfg_error(L, line, "name", "'%s' is not a valid job name (1 to %d letters, "
                         "digits and . _ : = , + -, not starting with .)", name,
                         JOB_NAME_MAX / 2);
    return 0;
}

/* The job's name: its own (or job<N>), then -key=value for every swept key. */
static int job_name(const Loader *L, const JobDef *d, const Values m[K_NB], const int pick[K_NB],
                    char *buf)
{
    int used;
    if (m[K_NAME].n) {
        if (check_name(L, m[K_NAME].text[0], m[K_NAME].line[0]) != 0)
            return -1;
        used = snprintf(buf, JOB_NAME_MAX + 1, "%s", m[K_NAME].text[0]);
    } else {
        used = snprintf(buf, JOB_NAME_MAX + 1, "job%d", d->number);
    }
    for (int k = 0; k < K_NB && used <= JOB_NAME_MAX; k++) {
        if (m[k].n < 2)
            continue;
        used += snprintf(buf + used, (size_t)(JOB_NAME_MAX + 1 - used), "-%s=%s",
                         key_name(k), m[k].text[pick[k]]);
    }
    if (used > JOB_NAME_MAX)
        return cfg_error(L, d->line, "name", "the generated job name is longer than %d bytes",
                         JOB_NAME_MAX);
    for (char *p = buf; *p; p++)
        *p = name_char_ok(*p) ? *p : '_';
    return 0;
}

/* The job's variant from its chosen values: a value's text refused is an error at its line, a
 * variant refused as a whole one at the job's. */
static int job_variant(const Loader *L, const Values m[K_NB], const int pick[K_NB],
                       const char *name, int job_line, Variant *v)
{
    VariantText t;
    VariantFault f;
    memset(&t, 0, sizeof t);
    for (int k = K_VARIANT; k < K_PARAM + VP_NB; k++) {
        const char *text = m[k].n ? m[k].text[pick[k]] : NULL;
        if (k == K_VARIANT)
            t.preset = text;
        else
            t.value[k - K_PARAM] = text;
    }
    if (variant_from_text(&t, v, &f) == 0)
        return 0;
    if (f.whole)
        return cfg_error(L, job_line, NULL, "%s (job %s)", f.e.msg, name);
    Key k = f.param == VT_PRESET ? K_VARIANT : (Key)(K_PARAM + f.param);
    return cfg_error(L, m[k].line[pick[k]], NULL, "%s", f.e.msg);
}

/* Check that an agent spec builds and can play the job's variant v. */
static int check_agent(const Loader *L, const Values *m, int pick, Key k, const Variant *v)
{
    Agent a;
    Error e;
    if (agent_create(&a, m->text[pick], &e) != 0)
        return cfg_error(L, m->line[pick], key_name(k), "%s", e.msg);
    int rc = agent_check_variant(&a, v, &e);
    agent_free(&a);
    return rc ? cfg_error(L, m->line[pick], key_name(k), "%s", e.msg) : 0;
}

/* The content hashes of the files one agent spec names, into *out (malloc'd). */
static int spec_files(const Loader *L, const Values *m, int pick, Key k, int line,
                      const char *spec, const Variant *v, char **out)
{
    char buf[AGENT_DIGESTS_MAX];
    Error e;
    if (agent_file_digests(spec, v, buf, sizeof buf, &e) != 0)
        return cfg_error(L, m->n ? m->line[pick] : line, key_name(k), "%s", e.msg);
    return (*out = strdup(buf)) ? 0 : out_of_memory(L);
}

/* A job's files_a and files_b: what its agents' files hold as the experiment is loaded, so
 * that a journal or a slice played with other content is known as another experiment. */
static int job_files(const Loader *L, const Values *m, const int *pick, int line, Job *j)
{
    if (spec_files(L, &m[K_AGENT_A], pick[K_AGENT_A], K_AGENT_A, line, j->agent_a,
                   &j->variant, &j->files_a) != 0)
        return -1;
    return spec_files(L, &m[K_AGENT_B], pick[K_AGENT_B], K_AGENT_B, line, j->agent_b,
                      &j->variant, &j->files_b);
}

/* The folder of the config file L reads ("" for the current folder), where a book it names
 * by a relative path is read from: a config and its book travel together. */
static void config_folder(const Loader *L, char *buf, size_t len)
{
    const char *slash = strrchr(L->label, '/');
    size_t n = slash ? (size_t)(slash - L->label) : 0;
    if (slash && n == 0)
        n = 1;   /* a config in "/" */
    snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), L->label);
}

/* Load job j's openings (its variant made) from the chosen value of `openings`, "start" when
 * none is set; an opening's index must fit the records' int32 `opening`. Paths as config.h
 * says: a book named in the config by a relative path is read beside the config; one given by
 * --openings, from the current folder (and its errors name --openings, not the config). */
static int job_openings(const Loader *L, const Values *m, int pick, int job_line,
                        const char *name, Job *j)
{
    const char *spec = m->n ? m->text[pick] : "start";
    int line = m->n ? m->line[pick] : job_line;
    char folder[4096] = "";
    if (!L->o->openings)
        config_folder(L, folder, sizeof folder);
    Error e;
    int rc = openings_load_in(&j->openings, spec, folder, &j->variant, &e);
    if (rc != 0 && L->o->openings) {
        error_set(L->e, "--openings: %s (job %s)", e.msg, name);
        config_one_line(L->e->msg);
        return -1;
    }
    if (rc != 0)
        return cfg_error(L, line, "openings", "%s", e.msg);
    int64_t tables = j->openings.kind == OPENINGS_PLIES ? (j->first_game + j->games + 1) / 2
                                                        : j->openings.count;
    if (tables > INT32_MAX)
        return cfg_error(L, line, "openings", "%" PRId64 " openings for job %s; a results file "
                         "numbers at most %d (fewer games, or a smaller book)", tables, name,
                         INT32_MAX);
    return 0;
}

/* Job j's sequential test from `sprt`, if it has one (its first game made). A sequential
 * stop needs pairs, from the job's first game: a slice cannot stop where the whole run
 * would. */
static int job_sprt(const Loader *L, const Values *m, const char *name, Job *j)
{
    char why[256];
    j->has_sprt = m->n > 0;
    if (!j->has_sprt)
        return 0;
    if (sprt_bounds_parse(m->text[0], &j->sprt, why, sizeof why) != 0) {
        if (L->o->sprt) {
            error_set(L->e, "--sprt: %s", why);
            return -1;
        }
        return cfg_error(L, m->line[0], "sprt", "%s (job %s)", why, name);
    }
    if (j->games < 2)
        return cfg_error(L, m->line[0], "sprt", "job %s plays %" PRId64 " game: a sequential "
                         "test stops between pairs of games, so it needs 2 games or more", name,
                         j->games);
    if (j->first_game)
        return cfg_error(L, m->line[0], "sprt", "job %s starts at game %" PRId64 ": a "
                         "sequential test stops a job from its first game, so a slice of one "
                         "(first_game) cannot have one", name, j->first_game);
    return 0;
}

/* Job j's adaptive root design from `root_design`, if it has one (its openings and agents
 * made): self-play from every line of N plies, from its first game (the race's schedule
 * starts at pair 0), with no sequential test beside it (one stop rule a job). */
static int job_root_design(const Loader *L, const Values *m, Job *j)
{
    char why[256];
    j->has_root_design = m->n > 0;
    if (!j->has_root_design)
        return 0;
    if (root_rule_parse(m->text[0], &j->root_design, why, sizeof why) != 0) {
        if (L->o->root_design) {
            error_set(L->e, "--root-design: %s", why);
            return -1;
        }
        return cfg_error(L, m->line[0], "root_design", "%s (job %s)", why, j->name);
    }
    const char *bad = j->openings.kind != OPENINGS_ALL ? "its openings are not all:N"
                      : strcmp(j->agent_a, j->agent_b) != 0 ? "agent_a and agent_b differ "
                                                               "(the design is self-play)"
                      : j->has_sprt ? "it has a sequential test (sprt) as well"
                      : j->first_game ? "it is a slice (first_game): the race starts at pair 0"
                      : j->games < 2 ? "it plays fewer than 2 games" : NULL;
    if (bad && L->o->root_design) {
        error_set(L->e, "--root-design: job %s: %s", j->name, bad);
        return -1;
    }
    if (bad)
        return cfg_error(L, m->line[0], "root_design", "job %s: %s", j->name, bad);
    return 0;
}

/* Job j's first game (its games made): even, so that a pair's two games stay in one slice,
 * and the slice within CONFIG_MAX_GAMES. */
static int job_first_game(const Loader *L, const Values *m, Job *j)
{
    if (!m->n)
        return 0;
    long long first = strtoll(m->text[0], NULL, 10);
    if (first < 0 || first % 2 != 0 || first > CONFIG_MAX_GAMES - j->games)
        return cfg_error(L, m->line[0], "first_game", "%lld is not an even number from 0 to "
                         "%lld (games [first_game, first_game + games) must be pairs, and at most "
                         "%lld)", first, (long long)(CONFIG_MAX_GAMES - j->games),
                         (long long)CONFIG_MAX_GAMES);
    j->first_game = first;
    return 0;
}

/* Put job j's list of openings (loaded) in the order its `openings_order` names ("in-order"
 * when not set), shuffled by the experiment's seed and the job's index. */
static int job_openings_order(const Loader *L, const Values *m, int64_t seed, Job *j)
{
    if (!m->n)
        return 0;
    OpeningsOrder order;
    if (openings_order_parse(m->text[0], &order) != 0)
        return cfg_error(L, m->line[0], "openings_order", "expected \"%s\" or \"%s\", not "
                         "\"%s\"", openings_order_names[OPENINGS_IN_ORDER],
                         openings_order_names[OPENINGS_SHUFFLED], m->text[0]);
    Error e;
    if (openings_set_order(&j->openings, order, (uint64_t)seed, j->index, &e) != 0)
        return cfg_error(L, m->line[0], "openings_order", "%s (job %s)", e.msg, j->name);
    return 0;
}

/* Fill job j from the merged values and the chosen sweep values (seed: the experiment's). */
static int build_job(const Loader *L, const JobDef *d, const Values m[K_NB], const int pick[K_NB],
                     int64_t seed, Job *j)
{
    char name[JOB_NAME_MAX + 1];
    if (job_name(L, d, m, pick, name) != 0)
        return -1;
    if (job_variant(L, m, pick, name, d->line, &j->variant) != 0)
        return -1;
    for (int k = K_AGENT_A; k <= K_AGENT_B; k++)
        if (m[k].n && check_agent(L, &m[k], pick[k], (Key)k, &j->variant) != 0)
            return -1;
    long long games = strtoll(m[K_GAMES].text[0], NULL, 10);
    if (games < 1 || games > CONFIG_MAX_GAMES)
        return cfg_error(L, m[K_GAMES].line[0], "games", "%lld is out of range (1 to %lld)",
                         games, (long long)CONFIG_MAX_GAMES);
    j->games = games;
    if (job_first_game(L, &m[K_FIRST_GAME], j) != 0)
        return -1;
    j->record_moves = m[K_RECORD_MOVES].n && strcmp(m[K_RECORD_MOVES].text[0], "yes") == 0;
    j->adjudicate = m[K_ADJUDICATE].n && strcmp(m[K_ADJUDICATE].text[0], "yes") == 0;
    if (job_sprt(L, &m[K_SPRT], name, j) != 0)
        return -1;
    if (job_openings(L, &m[K_OPENINGS], pick[K_OPENINGS], d->line, name, j) != 0)
        return -1;
    j->line = d->line;
    j->name = strdup(name);
    j->agent_a = strdup(m[K_AGENT_A].n ? m[K_AGENT_A].text[pick[K_AGENT_A]] : "random");
    j->agent_b = strdup(m[K_AGENT_B].n ? m[K_AGENT_B].text[pick[K_AGENT_B]] : "random");
    if (!j->name || !j->agent_a || !j->agent_b)
        return out_of_memory(L);
    if (job_files(L, m, pick, d->line, j) != 0)
        return -1;
    if (job_openings_order(L, &m[K_OPENINGS_ORDER], seed, j) != 0)
        return -1;
    return job_root_design(L, &m[K_ROOT_DESIGN], j);
}

/* Append every combination of a job definition's sweeps to x->jobs. */
static int expand_job(Loader *L, const JobDef *d, const Values defaults[K_NB], Experiment *x)
{
    Values m[K_NB];
    memset(m, 0, sizeof m);
    if (merge_values(L, d, defaults, m) != 0)
        return -1;
    int64_t combos = 1;
    for (int k = 0; k < K_NB; k++) {
        combos *= m[k].n ? m[k].n : 1;
        if (combos + x->njobs > CONFIG_MAX_JOBS)
            return cfg_error(L, d->line, "jobs", "more than %d jobs after expanding sweeps",
                             CONFIG_MAX_JOBS);
    }
    Job *grown = realloc(x->jobs, (size_t)(x->njobs + combos) * sizeof *grown);
    if (!grown)
        return out_of_memory(L);
    x->jobs = grown;
    for (int64_t c = 0; c < combos; c++) {
        int pick[K_NB];
        int64_t rest = c;
        for (int k = K_NB - 1; k >= 0; k--) {
            int n = m[k].n ? m[k].n : 1;
            pick[k] = (int)(rest % n);
            rest /= n;
        }
        Job *j = &x->jobs[x->njobs];
        memset(j, 0, sizeof *j);
        j->index = (uint64_t)x->njobs;
        x->njobs++;          /* counted now, so that experiment_free frees what it holds */
        if (build_job(L, d, m, pick, x->seed, j) != 0)
            return -1;
    }
    return 0;
}

/* Order jobs by name, for finding duplicates. */
static int cmp_job_names(const void *a, const void *b)
{
    const Job *const *x = a, *const *y = b;
    return strcmp((*x)->name, (*y)->name);
}

/* Every job name must be unique. */
static int check_duplicates(const Loader *L, const Experiment *x)
{
    const Job **sorted = malloc((size_t)x->njobs * sizeof *sorted);
    if (!sorted)
        return out_of_memory(L);
    for (int i = 0; i < x->njobs; i++)
        sorted[i] = &x->jobs[i];
    qsort(sorted, (size_t)x->njobs, sizeof *sorted, cmp_job_names);
    int rc = 0;
    for (int i = 1; i < x->njobs && rc == 0; i++) {
        if (strcmp(sorted[i - 1]->name, sorted[i]->name) == 0) {
            const Job *first = sorted[i - 1]->index < sorted[i]->index ? sorted[i - 1] : sorted[i];
            const Job *second = first == sorted[i] ? sorted[i - 1] : sorted[i];
            rc = cfg_error(L, second->line, "name", "duplicate job name '%s' (also the job at "
                           "line %d)", second->name, first->line);
        }
    }
    free(sorted);
    return rc;
}

/* The text stored in results files: the config, and the command line's overrides as a
 * comment. */
static char *stored_text(const char *text, const Overrides *o)
{
    char note[2048] = "";
    size_t used = 0;
    for (int k = 0; k < K_NB; k++) {
        char buf[32];
        const char *v = override_text(o, (Key)k, buf, sizeof buf);
        if (v && used < sizeof note)
            used += (size_t)snprintf(note + used, sizeof note - used, " %s = %s;",
                                     key_name(k), v);
    }
    if (o->seed >= 0 && used < sizeof note)
        used += (size_t)snprintf(note + used, sizeof note - used, " seed = %" PRId64 ";", o->seed);
    size_t n = strlen(text);
    char *out = malloc(n + sizeof note + 64);
    if (out)
        sprintf(out, "%s%s%s%s", text, n && text[n - 1] != '\n' ? "\n" : "",
                used ? "# Overridden on the command line:" : "", used ? note : "");
    if (out && used)
        strcat(out, "\n");
    return out;
}

/* Settings from the command line that replace the config's. */
static int apply_overrides(const Loader *L, const Overrides *o, Experiment *x)
{
    if (o->seed >= 0)
        x->seed = o->seed;
    if (o->threads >= 0)
        x->threads = o->threads;
    if (o->batch > 0)
        x->batch = o->batch;
    if (o->output) {
        free(x->output);
        x->output = strdup(o->output);
        if (!x->output)
            return out_of_memory(L);
    }
    return 0;
}

/* Everything after libconfig has read the text: settings, jobs, expansion, checks. */
static int load_settings(Loader *L, config_t *cfg, const char *text, Experiment *x)
{
    const config_setting_t *defaults = NULL, *jobs = NULL;
    Values dv[K_NB];
    JobDef *defs = NULL;
    int ndefs = 0;
    bool seed_set;
    memset(dv, 0, sizeof dv);
    int bad = config_bad_utf8_line(text);
    if (bad)
        return cfg_error(L, bad, NULL, "the text is not valid UTF-8 (results files keep it as "
                         "UTF-8)");
    if (config_check_int_literals(text, L->label, L->e) != 0)
        return -1;
    x->seed = -1;
    if (read_root(L, config_root_setting(cfg), x, &defaults, &jobs) != 0)
        return -1;
    seed_set = x->seed >= 0;
    if (apply_overrides(L, L->o, x) != 0)
        return -1;
    if (!seed_set && L->o->seed < 0)
        return cfg_error(L, 1, "seed", "missing (the experiment's seed, 0 or more)");
    if (!x->output)
        return cfg_error(L, 1, "output", "missing (the results file; or give -o FILE)");
    if (!jobs)
        return cfg_error(L, 1, "jobs", "missing (the list of jobs to run)");
    if (defaults && read_keys(L, defaults, false, dv) != 0)
        return -1;
    if (read_jobs(L, jobs, &defs, &ndefs) != 0)
        return -1;
    for (int i = 0; i < ndefs; i++)
        if (expand_job(L, &defs[i], dv, x) != 0)
            return -1;
    return check_duplicates(L, x);
}

void overrides_none(Overrides *o)
{
    memset(o, 0, sizeof *o);
    o->threads = -1;
    o->batch = -1;
    o->seed = -1;
    o->games = -1;
    o->first_game = -1;
}

int experiment_parse(Experiment *x, const char *text, const char *label, const Overrides *o,
                     Error *e)
{
    Overrides none;
    overrides_none(&none);
    Loader L = { label, e, { NULL, 0, 0 }, o ? o : &none };
    config_t cfg;
    int rc = -1;
    memset(x, 0, sizeof *x);
    if (config_check_includes(text, label, 0, e) != 0)
        return -1;
    config_init(&cfg);
    if (!config_read_string(&cfg, text)) {
        config_syntax_error(e, label, &cfg, text);
    } else if (config_refuse_other_kind(label, &cfg, "experiment", e) == 0 &&
               load_settings(&L, &cfg, text, x) == 0) {
        x->source = strdup(label);
        x->text = stored_text(text, L.o);
        rc = x->source && x->text ? 0 : out_of_memory(&L);
    }
    config_destroy(&cfg);
    pool_free(&L.pool);
    if (rc != 0)
        experiment_free(x);
    return rc;
}

int experiment_load(Experiment *x, const char *path, const Overrides *o, Error *e)
{
    memset(x, 0, sizeof *x);
    char *text;
    if (config_read_text(path, CONFIG_MAX_TEXT, &text, e) != 0)
        return -1;
    int rc = experiment_parse(x, text, path, o, e);
    free(text);
    return rc;
}

/* Where text being built in buf (len bytes) goes on after `used` bytes, and the room left
 * there: none once the text has outgrown buf, whose length is then measured, not written. */
static char *text_at(char *buf, size_t len, size_t used)
{
    return buf + (used < len ? used : len);
}

static size_t text_room(size_t len, size_t used)
{
    return used < len ? len - used : 0;
}

/* Append s to the libconfig text being built, as a quoted string. */
static size_t quote(char *buf, size_t len, size_t used, const char *s)
{
    used += (size_t)snprintf(text_at(buf, len, used), text_room(len, used), "\"");
    for (; *s; s++) {
        const char *fmt = (*s == '"' || *s == '\\') ? "\\%c" : "%c";
        used += (size_t)snprintf(text_at(buf, len, used), text_room(len, used), fmt, *s);
    }
    return used + (size_t)snprintf(text_at(buf, len, used), text_room(len, used), "\"");
}

/* The variant of the quick form, checked, with messages naming the options. */
static int quick_variant(const Overrides *o, Variant *v, Error *e)
{
    VariantFault f;
    if (variant_from_text(&o->variant, v, &f) == 0)
        return 0;
    variant_option_error(&o->variant, &f, e);
    return -1;
}

/* Write the quick form's variant parameters that were given, as config settings. */
static size_t quick_params(const Overrides *o, const Variant *v, char *buf, size_t len,
                           size_t used)
{
    if (o->variant.preset) {
        used += (size_t)snprintf(text_at(buf, len, used), text_room(len, used), " variant = ");
        used = quote(buf, len, used, o->variant.preset);
        used += (size_t)snprintf(text_at(buf, len, used), text_room(len, used), ";");
    }
    for (int p = 0; p < VP_NB; p++) {
        if (!o->variant.value[p])
            continue;
        const char *name = variant_params[p].name;
        int64_t x = variant_get(v, p);
        char *at = text_at(buf, len, used);
        size_t room = text_room(len, used);
        if (variant_params[p].kind == VK_CONVENTION)
            used += (size_t)snprintf(at, room, " %s = \"%s\";", name,
                                     final_four_name((FinalFour)x));
        else if (variant_params[p].kind == VK_BOOL)
            used += (size_t)snprintf(at, room, " %s = %s;", name, x ? "true" : "false");
        else
            used += (size_t)snprintf(at, room, " %s = %" PRId64 "L;", name, x);
    }
    return used;
}

/* The quick form's job keys other than the agents, as settings of its `defaults` group: the
 * variant's (checked, as config values), then every other key the overrides give, written by
 * the key's kind, so that a job key added to override_text reaches every job of the quick
 * form and of a tournament by this one path; games 10000 when not given. */
static size_t quick_defaults(const Overrides *o, const Variant *v, char *buf, size_t len,
                             size_t used)
{
    used += (size_t)snprintf(text_at(buf, len, used), text_room(len, used), "defaults = {");
    used = quick_params(o, v, buf, len, used);
    for (int k = K_PARAM + VP_NB; k < K_NB; k++) {
        char num[32];
        const char *value = override_text(o, (Key)k, num, sizeof num);
        if (!value || k == K_AGENT_A || k == K_AGENT_B || k == K_NAME)
            continue;
        used += (size_t)snprintf(text_at(buf, len, used), text_room(len, used), " %s = ",
                                 key_name((Key)k));
        switch (key_info((Key)k).kind) {
        case KIND_STRING: used = quote(buf, len, used, value); break;
        case KIND_INT:
            used += (size_t)snprintf(text_at(buf, len, used), text_room(len, used), "%sL", value);
            break;
        case KIND_BOOL:
            used += (size_t)snprintf(text_at(buf, len, used), text_room(len, used), "%s",
                                     strcmp(value, "yes") == 0 ? "true" : "false");
            break;
        }
        used += (size_t)snprintf(text_at(buf, len, used), text_room(len, used), ";");
    }
    if (o->games < 0)
        used += (size_t)snprintf(text_at(buf, len, used), text_room(len, used), " games = 10000L;");
    return used + (size_t)snprintf(text_at(buf, len, used), text_room(len, used), " };\n");
}

/* One job of the quick form's text: its name and its two agents' specs. */
typedef struct Matchup {
    char name[JOB_NAME_MAX + 1];
    const char *a, *b;
} Matchup;

/* Write the quick form's text into text (len bytes; nothing past them) and return its
 * length, which may exceed len: seed, output, the defaults every job shares, then one job a
 * matchup. */
static size_t quick_write(const Overrides *o, const Variant *v, const Matchup *m, int n,
                          char *text, size_t len)
{
#define ROOM text_room(len, used)
#define AT text_at(text, len, used)
    size_t used = (size_t)snprintf(text, len, "# Made by `anywoli run` from its command line.\n"
                                   "seed = %" PRId64 "L;\noutput = ", o->seed >= 0 ? o->seed : 0);
    used = quote(text, len, used, o->output ? o->output : "results.h5");
    used += (size_t)snprintf(AT, ROOM, ";\n");
    used = quick_defaults(o, v, text, len, used);
    used += (size_t)snprintf(AT, ROOM, "jobs = (\n");
    for (int i = 0; i < n; i++) {
        used += (size_t)snprintf(AT, ROOM, "  { name = ");
        used = quote(text, len, used, m[i].name);
        used += (size_t)snprintf(AT, ROOM, "; agent_a = ");
        used = quote(text, len, used, m[i].a);
        used += (size_t)snprintf(AT, ROOM, "; agent_b = ");
        used = quote(text, len, used, m[i].b);
        used += (size_t)snprintf(AT, ROOM, "; }%s\n", i + 1 < n ? "," : "");
    }
    return used + (size_t)snprintf(AT, ROOM, ");\n");
#undef AT
#undef ROOM
}

/* The quick form's text (quick_write's), malloc'd: written once in a guess of its size, and
 * again at its measured size when longer; NULL when out of memory. */
static char *quick_text(const Overrides *o, const Variant *v, const Matchup *m, int n)
{
    size_t len = 4096;
    for (int i = 0; i < n; i++)
        len += 64 + 2 * (strlen(m[i].a) + strlen(m[i].b));
    for (;;) {
        char *text = malloc(len);
        if (!text)
            return NULL;
        size_t need = quick_write(o, v, m, n, text, len);
        if (need < len)
            return text;
        free(text);
        len = need + 1;
    }
}

/* An agent spec given on the command line builds, and (v not NULL) can play v (an external
 * program starts and answers the handshake): else `OPTION: why`. */
static int quick_agent(const char *spec, const char *option, const Variant *v, Error *e)
{
    Agent a;
    Error inner;
    if (agent_create(&a, spec, &inner) != 0) {
        config_one_line(inner.msg);
        return error_set(e, "%s: %s", option, inner.msg);
    }
    int rc = v ? agent_check_variant(&a, v, &inner) : 0;
    agent_free(&a);
    if (rc != 0) {
        config_one_line(inner.msg);
        return error_set(e, "%s: %s", option, inner.msg);
    }
    return 0;
}

/* The quick form's variant, openings and their order, checked with messages naming the
 * options (the loader would name the text's lines, which the user never wrote). */
static int quick_checks(const Overrides *o, Variant *v, Error *e)
{
    if (quick_variant(o, v, e) != 0) {
        if (e)
            config_one_line(e->msg);
        return -1;
    }
    OpeningsOrder order = OPENINGS_IN_ORDER;
    if (o->openings_order && openings_order_parse(o->openings_order, &order) != 0)
        return error_set(e, "--openings-order: expected %s or %s, not '%s'",
                         openings_order_names[OPENINGS_IN_ORDER],
                         openings_order_names[OPENINGS_SHUFFLED], o->openings_order);
    OpeningSet s;
    Error inner;
    if (openings_load(&s, o->openings ? o->openings : "start", v, &inner) != 0) {
        config_one_line(inner.msg);
        return error_set(e, "--openings: %s", inner.msg);
    }
    int rc = openings_set_order(&s, order, 0, 0, &inner);
    openings_free(&s);
    if (rc != 0)
        return error_set(e, "--openings-order: %s", inner.msg);
    SprtBounds bounds;
    char why[256];
    if (o->sprt && sprt_bounds_parse(o->sprt, &bounds, why, sizeof why) != 0)
        return error_set(e, "--sprt: %s", why);
    RootRule rule;
    if (o->root_design && root_rule_parse(o->root_design, &rule, why, sizeof why) != 0)
        return error_set(e, "--root-design: %s", why);
    return 0;
}

/* Load the quick form's text for these matchups, with threads and batch as overrides. */
static int quick_load(Experiment *x, const Overrides *o, const Variant *v, const Matchup *m,
                      int n, Error *e)
{
    char *text = quick_text(o, v, m, n);
    if (!text)
        return error_set(e, "out of memory");
    Overrides rest;
    overrides_none(&rest);
    rest.threads = o->threads;
    rest.batch = o->batch;
    int rc = experiment_parse(x, text, "(command line)", &rest, e);
    free(text);
    return rc;
}

int experiment_quick(Experiment *x, const Overrides *o, Error *e)
{
    Variant v;
    Matchup m = { "main", o->agent_a ? o->agent_a : "random", o->agent_b ? o->agent_b : "random" };
    memset(x, 0, sizeof *x);
    if (quick_checks(o, &v, e) != 0 || quick_agent(m.a, "--agent-a", &v, e) != 0 ||
        quick_agent(m.b, "--agent-b", &v, e) != 0)
        return -1;
    return quick_load(x, o, &v, &m, 1, e);
}

const char *const tournament_options[TOURNAMENT_NB] = { "--gauntlet", "--round-robin" };

/* A tournament's refusals: too few specs, one that does not build, two that build the same
 * agent (their full specs equal), an odd --games, --agent-a or --agent-b. */
static int tournament_checks(const Overrides *o, TournamentKind kind, const char *const *specs,
                             int n, const Variant *v, Error *e)
{
    const char *opt = tournament_options[kind];
    if (o->agent_a || o->agent_b)
        return error_set(e, "%s: not with %s (the tournament's specs name every player)", opt,
                         o->agent_a ? "--agent-a" : "--agent-b");
    if (n < 2)
        return error_set(e, "%s: %d agent spec given; a tournament needs 2 or more (repeat the "
                         "option, one spec each)", opt, n);
    if (o->games >= 0 && o->games % 2 != 0)
        return error_set(e, "--games: %" PRId64 " is odd; a tournament's jobs play whole pairs "
                         "(two games, colours swapped), so give an even number", o->games);
    if (n > CONFIG_MAX_JOBS)
        return error_set(e, "%s: %d agent specs; at most %d", opt, n, CONFIG_MAX_JOBS);
    char (*full)[AGENT_FULL_SPEC_MAX] = malloc((size_t)n * sizeof *full);
    if (!full)
        return error_set(e, "out of memory");
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        if ((rc = quick_agent(specs[i], opt, v, e)) != 0)
            break;
        agent_full_spec(specs[i], full[i], sizeof full[i], NULL);
        for (int j = 0; j < i && rc == 0; j++)
            if (strcmp(full[i], full[j]) == 0)
                rc = error_set(e, "%s: '%s' (spec %d) is the same agent as '%s' (spec %d); "
                               "give each agent once", opt, specs[i], i + 1, specs[j], j + 1);
    }
    free(full);
    return rc;
}

/* The tournament's matchups: the gauntlet's first spec against each other, A the first; the
 * round robin's every unordered pair once, A the earlier spec. Named by the specs' positions
 * from 1 (gauntlet-1-2, rr-2-3), so that names stay short and unique whatever the specs. */
static Matchup *tournament_matchups(TournamentKind kind, const char *const *specs, int n,
                                    int *count)
{
    int most = kind == TOURNAMENT_GAUNTLET ? n - 1 : n * (n - 1) / 2;
    Matchup *m = calloc((size_t)most, sizeof *m);
    int k = 0;
    for (int i = 0; m && i < n; i++)
        for (int j = i + 1; j < n && (kind == TOURNAMENT_ROUND_ROBIN || i == 0); j++, k++) {
            snprintf(m[k].name, sizeof m[k].name, "%s-%d-%d",
                     kind == TOURNAMENT_GAUNTLET ? "gauntlet" : "rr", i + 1, j + 1);
            m[k].a = specs[i];
            m[k].b = specs[j];
        }
    *count = k;
    return m;
}

int experiment_tournament(Experiment *x, const Overrides *o, TournamentKind kind,
                          const char *const *specs, int n, Error *e)
{
    Variant v;
    memset(x, 0, sizeof *x);
    if (quick_checks(o, &v, e) != 0 || tournament_checks(o, kind, specs, n, &v, e) != 0)
        return -1;
    if (kind == TOURNAMENT_ROUND_ROBIN && (int64_t)n * (n - 1) / 2 > CONFIG_MAX_JOBS)
        return error_set(e, "%s: %d agent specs make %" PRId64 " jobs; at most %d",
                         tournament_options[kind], n, (int64_t)n * (n - 1) / 2, CONFIG_MAX_JOBS);
    int count;
    Matchup *m = tournament_matchups(kind, specs, n, &count);
    if (!m)
        return error_set(e, "out of memory");
    int rc = quick_load(x, o, &v, m, count, e);
    free(m);
    return rc;
}

void experiment_free(Experiment *x)
{
    for (int i = 0; i < x->njobs; i++) {
        free(x->jobs[i].name);
        free(x->jobs[i].agent_a);
        free(x->jobs[i].agent_b);
        free(x->jobs[i].files_a);
        free(x->jobs[i].files_b);
        openings_free(&x->jobs[i].openings);
    }
    free(x->jobs);
    free(x->source);
    free(x->text);
    free(x->output);
    memset(x, 0, sizeof *x);
}

bool job_splits_last_pair(const Job *j, int64_t games)
{
    bool paired = strcmp(j->agent_a, j->agent_b) != 0 || j->openings.kind != OPENINGS_START;
    return paired && games % 2 != 0;
}

const Job *experiment_job(const Experiment *x, const char *name)
{
    for (int i = 0; i < x->njobs; i++)
        if (strcmp(x->jobs[i].name, name) == 0)
            return &x->jobs[i];
    return NULL;
}

/* A digest of a book's openings as read (their moves and positions), so that a journal of
 * a run from another book does not resume: a book file is named, not stored. 0 for the
 * openings a spec makes alone (start, plies:N, all:N). */
static uint64_t openings_digest(const OpeningSet *s, const Variant *v)
{
    uint64_t h = PLAYOUT_HASH_START;
    if (s->kind != OPENINGS_FILE)
        return 0;
    for (int64_t i = 0; i < s->count; i++) {
        char text[OPENING_MAX_PLIES * 4 + APN_MAX + 8];
        opening_moves_text(&s->list[i], text, OPENING_MAX_PLIES * 4 + 1);
        size_t n = strlen(text);
        text[n++] = '|';
        opening_apn(v, &s->list[i], text + n);
        for (const char *p = text; *p; p++)
            h = (h ^ (unsigned char)*p) * PLAYOUT_HASH_MULT;
        h = (h ^ '\n') * PLAYOUT_HASH_MULT;
    }
    return h;
}

/* " files_X=..." when the agent's spec names files (nothing else, so that journals of specs
 * that name none still resume), into buf. */
static void files_text(char side, const char *files, char *buf, size_t len)
{
    buf[0] = '\0';
    if (files && *files)
        snprintf(buf, len, " files_%c=%s", side, files);
}

char *experiment_fingerprint(const Experiment *x)
{
    size_t len = 64, used = 0;
    for (int i = 0; i < x->njobs; i++)
        len += 600 + 2 * AGENT_DIGESTS_MAX + strlen(x->jobs[i].name) +
               strlen(x->jobs[i].agent_a) + strlen(x->jobs[i].agent_b) +
               strlen(x->jobs[i].openings.spec);
    char *out = malloc(len);
    if (!out)
        return NULL;
    used += (size_t)snprintf(out, len, "seed=%" PRId64 " jobs=%d\n", x->seed, x->njobs);
    for (int i = 0; i < x->njobs; i++) {
        const Job *j = &x->jobs[i];
        char desc[256], sprt[128] = "", files[2][AGENT_DIGESTS_MAX + 16];
        char play_a[AGENT_FULL_SPEC_MAX], play_b[AGENT_FULL_SPEC_MAX];
        variant_describe(&j->variant, desc, sizeof desc);
        /* The experiment is the play: a limit that changes no move may differ on resume. */
        agent_play_spec(j->agent_a, play_a, sizeof play_a);
        agent_play_spec(j->agent_b, play_b, sizeof play_b);
        files_text('a', j->files_a, files[0], sizeof files[0]);
        files_text('b', j->files_b, files[1], sizeof files[1]);
        if (j->has_sprt) {
            strcpy(sprt, " sprt=");
            sprt_bounds_text(&j->sprt, sprt + 6, sizeof sprt - 6);
        }
        used += (size_t)snprintf(out + used, len - used,
                                 "job %" PRIu64 " name=%s %s agent_a=%s agent_b=%s openings=%s "
                                 "book=%016" PRIx64 " games=%" PRId64 "%s%s%s%s%s", j->index,
                                 j->name, desc, play_a, play_b, j->openings.spec,
                                 openings_digest(&j->openings, &j->variant), j->games,
                                 j->record_moves ? " record_moves" : "", sprt,
                                 /* only when not the default, so older journals resume */
                                 j->openings.order != OPENINGS_IN_ORDER ? " openings_order="
                                 "shuffled" : "", files[0], files[1]);
        /* Only an adaptive root design says so: older journals still resume. */
        if (j->has_root_design) {
            char rule[96];
            root_rule_text(&j->root_design, rule, sizeof rule);
            used += (size_t)snprintf(out + used, len - used, " root_design=%s", rule);
        }
        /* Only a slice says where it starts: a job from game 0 keeps the fingerprint it had
         * before slices existed, so that its old journals still resume. */
        if (j->first_game)
            used += (size_t)snprintf(out + used, len - used, " first_game=%" PRId64, j->first_game);
        if (j->adjudicate)   /* likewise only when on: a job without it keeps its journals */
            used += (size_t)snprintf(out + used, len - used, " adjudicate");
        used += (size_t)snprintf(out + used, len - used, "\n");
    }
    return out;
}
