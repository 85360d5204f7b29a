/* tune_config.c: tuning configs (libconfig), with one-line `FILE:LINE: key: what` errors. */
#include <errno.h>
#include <libconfig.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "config_file.h"
#include "nearest.h"
#include "tune.h"
#include "variant_text.h"

/* Where messages point. */
typedef struct Reader {
    const char *label;
    Error *e;
} Reader;

/* Every key of a tune config, with where it may be written. */
const ConfigKey config_tune_keys[] = {
    { "description", CP_TUNE, "string", "free text kept with the results" },
    { "seed", CP_TUNE, "whole number", "the tuning's seed" },
    { "output", CP_TUNE, "string", "the results file (-o FILE overrides)" },
    { "threads", CP_TUNE, "whole number", "worker threads" },
    { "variant", CP_TUNE, "string", "the variant preset played" },
    { "agent", CP_TUNE, "string", "agent spec whose evaluation weights are tuned" },
    { "opponent", CP_TUNE, "string", "agent spec played against, or \"self\"" },
    { "weights", CP_TUNE, "list of groups", "the weights to tune" },
    { "iterations", CP_TUNE, "whole number", "SPSA iterations" },
    { "pairs", CP_TUNE, "whole number", "colour-swapped game pairs per iteration" },
    { "opening_plies", CP_TUNE, "whole number", "random plies opening each pair" },
    { "max_plies", CP_TUNE, "whole number", "plies after which a game ends as a draw" },
    { "a", CP_TUNE, "number", "SPSA step gain a of a_k = a / (k + 1 + A)^alpha" },
    { "c", CP_TUNE, "number", "SPSA perturbation c of c_k = c / (k + 1)^gamma" },
    { "A", CP_TUNE, "number", "SPSA stability constant A" },
    { "alpha", CP_TUNE, "number", "SPSA step decay exponent" },
    { "gamma", CP_TUNE, "number", "SPSA perturbation decay exponent" },
    { "verification", CP_TUNE, "group", "the SPRT matches that check the result" },
    { "name", CP_TUNE_WEIGHT, "string", "the evaluation term" },
    { "start", CP_TUNE_WEIGHT, "number", "the starting value" },
    { "min", CP_TUNE_WEIGHT, "number", "the lowest value" },
    { "max", CP_TUNE_WEIGHT, "number", "the highest value" },
    { "step", CP_TUNE_WEIGHT, "number", "the perturbation size in weight units" },
    { "pairs", CP_TUNE_VERIFY, "whole number", "game pairs at most per verification match" },
    { "elo0", CP_TUNE_VERIFY | CP_TUNE_BOUNDS, "number", "SPRT H0 Elo" },
    { "elo1", CP_TUNE_VERIFY | CP_TUNE_BOUNDS, "number", "SPRT H1 Elo" },
    { "alpha", CP_TUNE_VERIFY | CP_TUNE_BOUNDS, "number", "SPRT false-positive rate" },
    { "beta", CP_TUNE_VERIFY | CP_TUNE_BOUNDS, "number", "SPRT false-negative rate" },
    { "against_start", CP_TUNE_VERIFY, "group", "SPRT bounds of the match against the start" },
    { "against_defaults", CP_TUNE_VERIFY, "group",
      "SPRT bounds of the match against the defaults" },
};
const int config_tune_key_count = (int)(sizeof config_tune_keys / sizeof config_tune_keys[0]);

/* Set `LABEL:LINE: KEY: what` and return -1; control characters become '?'. */
static int rd_error(const Reader *r, int line, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int rd_error(const Reader *r, int line, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    config_error_v(r->e, r->label, line, key, fmt, ap);
    va_end(ap);
    return -1;
}


/* A whole number setting in [lo, hi], through the experiment configs' reader. */
static int get_int(const Reader *r, const config_setting_t *s, const char *key, int64_t lo,
                   int64_t hi, int64_t *out)
{
    return config_get_int(s, r->label, key, lo, hi, out, r->e);
}

/* A number setting (whole or with a fraction) in [lo, hi]. */
static int get_real(const Reader *r, const config_setting_t *s, const char *key, double lo,
                    double hi, double *out)
{
    int type = config_setting_type(s);
    double x;
    if (type == CONFIG_TYPE_INT || type == CONFIG_TYPE_INT64)
        x = (double)config_setting_get_int64(s);
    else if (type == CONFIG_TYPE_FLOAT)
        x = config_setting_get_float(s);
    else
        return rd_error(r, config_line_of(s), key, "expected a number from %g to %g", lo, hi);
    if (!isfinite(x) || x < lo || x > hi)
        return rd_error(r, config_line_of(s), key, "%g is out of range (%g to %g)", x, lo, hi);
    *out = x;
    return 0;
}

/* A non-empty string setting, strdup'd. */
static int get_string(const Reader *r, const config_setting_t *s, const char *key, char **out)
{
    const char *v = config_setting_get_string(s);
    if (!v)
        return rd_error(r, config_line_of(s), key, "expected a string");
    if (!*v)
        return rd_error(r, config_line_of(s), key, "is empty");
    free(*out);
    *out = strdup(v);
    return *out ? 0 : error_set(r->e, "%s: out of memory", r->label);
}

/* Whether name is one of a list of keys, "a, b or c". */
static bool key_in(const char *name, const char *keys)
{
    size_t n = strlen(name);
    if (n == 0 || strcmp(name, "or") == 0)
        return false;
    for (const char *p = keys; (p = strstr(p, name)) != NULL; p += n) {
        bool start = p == keys || p[-1] == ' ';
        bool end = p[n] == ',' || p[n] == '\0' || p[n] == ' ';
        if (start && end)
            return true;
    }
    return false;
}

/* Every member of a group must be a key of config_tune_keys allowed in place. */
static int check_keys(const Reader *r, const config_setting_t *g, const char *where,
                      unsigned place)
{
    char keys[400];
    config_keys_text(config_tune_keys, config_tune_key_count, place, keys, sizeof keys);
    for (int i = 0; i < config_setting_length(g); i++) {
        const config_setting_t *s = config_setting_get_elem(g, (unsigned)i);
        const char *name = config_setting_name(s);
        char hint[100] = "";
        if (name)
            nearest_hint_in(name, keys, hint, sizeof hint);
        if (!name || !key_in(name, keys))
            return rd_error(r, config_line_of(s), name ? name : where,
                            "unknown key%s%s%s (expected %s)",
                            *where ? " in " : "", where, hint, keys);
    }
    return 0;
}

/* The value of weight term in a spec's agent (the defaults, then the spec's own). */
static int spec_weight(const char *spec, int term, double *out)
{
    Agent a;
    Error e;
    char full[TUNE_SPEC_MAX], key[40];
    if (agent_create(&a, spec, &e) != 0)
        return -1;
    agent_describe(&a, full, sizeof full);
    agent_free(&a);
    snprintf(key, sizeof key, "w.%s=", eval_terms[term].name);
    const char *p = strstr(full, key);
    if (!p)
        return -1;
    *out = strtod(p + strlen(key), NULL);
    return 0;
}

/* One element of `weights`: its term, start, bounds and step. */
static int read_weight(const Reader *r, const config_setting_t *g, TuneConfig *t, int idx)
{
    TuneWeight *w = &t->w[idx];
    const config_setting_t *s;
    int line = config_line_of(g);
    if (!config_setting_is_group(g))
        return rd_error(r, line, "weights", "each weight is a group { name = \"store\"; min = ..;"
                        " max = ..; step = ..; }");
    if (check_keys(r, g, "a weight", CP_TUNE_WEIGHT) != 0)
        return -1;
    const char *name = (s = config_setting_get_member(g, "name")) ? config_setting_get_string(s)
                                                                   : NULL;
    if (!s)
        return rd_error(r, line, "name", "missing (the weight's term: store, seeds, threes, "
                        "opp_threes, empty, opp_empty, mobility or final)");
    w->term = name ? eval_term_lookup(name) : -1;
    if (w->term < 0)
        return rd_error(r, config_line_of(s), "name",
                        "'%s' is not a term (expected store, seeds, "
                        "threes, opp_threes, empty, opp_empty, mobility or final)",
                        name ? name : "(not a string)");
    for (int i = 0; i < idx; i++)
        if (t->w[i].term == w->term)
            return rd_error(r, config_line_of(s), "name", "'%s' is tuned twice", name);
    static const char *const need[3] = { "min", "max", "step" };
    double v[3];
    for (int i = 0; i < 3; i++) {
        if (!(s = config_setting_get_member(g, need[i])))
            return rd_error(r, line, need[i], "missing for weight '%s'", name);
        if (get_real(r, s, need[i], -1000.0, 1000.0, &v[i]) != 0)
            return -1;
    }
    w->p.lo = v[0];
    w->p.hi = v[1];
    w->p.step = v[2];
    if (!(w->p.lo < w->p.hi))
        return rd_error(r, line, "max", "must be above min (%g) for weight '%s'", w->p.lo, name);
    if (!(w->p.step > 0.0) || w->p.step > w->p.hi - w->p.lo)
        return rd_error(r, config_line_of(config_setting_get_member(g, "step")), "step",
                        "must be above 0 and at most max - min (%g) for weight '%s'",
                        w->p.hi - w->p.lo, name);
    if ((s = config_setting_get_member(g, "start"))) {
        if (get_real(r, s, "start", w->p.lo, w->p.hi, &w->start) != 0)
            return -1;
    } else if (spec_weight(t->agent, w->term, &w->start) != 0 || w->start < w->p.lo ||
               w->start > w->p.hi) {
        return rd_error(r, line, "start", "missing, and the agent's own weight %s is not within "
                        "[min, max]", name);
    }
    return 0;
}

/* The `weights` list. */
static int read_weights(const Reader *r, const config_setting_t *s, TuneConfig *t)
{
    if (!config_setting_is_list(s) && !config_setting_is_array(s))
        return rd_error(r, config_line_of(s), "weights",
                        "expected a list ( { name = ..; ... }, ... )");
    int n = config_setting_length(s);
    if (n < 1 || n > EVAL_NB)
        return rd_error(r, config_line_of(s), "weights",
                        "expected 1 to %d weights, got %d", EVAL_NB, n);
    t->nweights = n;
    for (int i = 0; i < n; i++)
        if (read_weight(r, config_setting_get_elem(s, (unsigned)i), t, i) != 0)
            return -1;
    return 0;
}

/* The SPRT bounds a group sets (elo0, elo1, alpha, beta), over those in *b. */
static int read_bounds(const Reader *r, const config_setting_t *g, SprtBounds *b)
{
    static const char *const keys[4] = { "elo0", "elo1", "alpha", "beta" };
    static const double lo[4] = { -1000, -1000, 1e-6, 1e-6 }, hi[4] = { 1000, 1000, 0.49, 0.49 };
    double *out[4] = { &b->elo0, &b->elo1, &b->alpha, &b->beta };
    const config_setting_t *s;
    for (int i = 0; i < 4; i++)
        if ((s = config_setting_get_member(g, keys[i])) &&
            get_real(r, s, keys[i], lo[i], hi[i], out[i]) != 0)
            return -1;
    return 0;
}

/* The `verification` group: its pairs, the bounds of every match, then each match's own
 * `against_<name>` group (tune_verify_names) over them; each match's H1 must be above its
 * H0 (the message points at the elo1 that set it, or at the group). */
static int read_verification(const Reader *r, const config_setting_t *g, TuneConfig *t)
{
    const config_setting_t *s;
    if (!config_setting_is_group(g))
        return rd_error(r, config_line_of(g), "verification",
                        "expected a group { pairs = ..; ... }");
    if (check_keys(r, g, "verification", CP_TUNE_VERIFY) != 0)
        return -1;
    if ((s = config_setting_get_member(g, "pairs")) &&
        get_int(r, s, "pairs", 0, TUNE_MAX_PAIRS, &t->verify_pairs) != 0)
        return -1;
    if (read_bounds(r, g, &t->sprt_all) != 0)
        return -1;
    for (int m = 0; m < VERIFY_NB; m++) {
        char key[32];
        snprintf(key, sizeof key, "against_%s", tune_verify_names[m]);
        const config_setting_t *own = config_setting_get_member(g, key), *at = g;
        t->sprt[m] = t->sprt_all;
        if (own && !config_setting_is_group(own))
            return rd_error(r, config_line_of(own), key,
                            "expected a group { elo0 = ..; elo1 = ..; }");
        if (own && (check_keys(r, own, key, CP_TUNE_BOUNDS) != 0 ||
                    read_bounds(r, own, &t->sprt[m]) != 0))
            return -1;
        if (t->sprt[m].elo0 < t->sprt[m].elo1)
            continue;
        if (own && (s = config_setting_get_member(own, "elo1")))
            at = s;
        else if ((s = config_setting_get_member(g, "elo1")))
            at = s;
        else if (own)
            at = own;
        return rd_error(r, config_line_of(at), "elo1",
                        "must be above elo0 (%g) for the match against %s", t->sprt[m].elo0,
                        tune_verify_names[m]);
    }
    return 0;
}

/* Check that a spec builds an agent that takes evaluation weights. */
static int check_spec(const Reader *r, const config_setting_t *s, const char *key,
                      const char *spec)
{
    Agent a;
    Error e;
    if (agent_create(&a, spec, &e) != 0)
        return rd_error(r, config_line_of(s), key, "%s", e.msg);
    char full[TUNE_SPEC_MAX];
    agent_describe(&a, full, sizeof full);
    agent_free(&a);
    if (strcmp(key, "agent") == 0 && !strstr(full, "w.store="))
        return rd_error(r, config_line_of(s), key,
                        "agent '%s' has no evaluation weights to tune "
                        "(alphabeta has)", spec);
    return 0;
}

/* The settings a tuning needs before its weights: the variant and the agents. */
static int read_players(const Reader *r, const config_setting_t *root, TuneConfig *t)
{
    const config_setting_t *s;
    VariantText vt = { 0 };
    VariantFault f;
    if ((s = config_setting_get_member(root, "variant"))) {
        if (get_string(r, s, "variant", &t->variant_name) != 0)
            return -1;
        vt.preset = t->variant_name;
    }
    if (variant_from_text(&vt, &t->variant, &f) != 0)
        return rd_error(r, s ? config_line_of(s) : 1, NULL, "%s", f.e.msg);
    if (!(s = config_setting_get_member(root, "agent")))
        return rd_error(r, 1, "agent", "missing (the agent whose weights are tuned, e.g. "
                        "\"alphabeta:depth=3\")");
    if (get_string(r, s, "agent", &t->agent) != 0 || check_spec(r, s, "agent", t->agent) != 0)
        return -1;
    if ((s = config_setting_get_member(root, "opponent"))) {
        if (get_string(r, s, "opponent", &t->opponent) != 0)
            return -1;
        if (strcmp(t->opponent, "self") == 0) {
            free(t->opponent);
            t->opponent = NULL;
        } else if (check_spec(r, s, "opponent", t->opponent) != 0) {
            return -1;
        }
    }
    return 0;
}

/* The numbers of the run: seed, sizes and gains. */
static int read_numbers(const Reader *r, const config_setting_t *root, TuneConfig *t)
{
    const config_setting_t *s;
    int64_t x;
    if (!(s = config_setting_get_member(root, "seed")))
        return rd_error(r, 1, "seed", "missing (the tuning's seed, 0 or more)");
    if (get_int(r, s, "seed", 0, INT64_MAX, &t->seed) != 0)
        return -1;
    if (!(s = config_setting_get_member(root, "iterations")))
        return rd_error(r, 1, "iterations", "missing (SPSA iterations, 1 or more)");
    if (get_int(r, s, "iterations", 1, TUNE_MAX_ITERATIONS, &t->iterations) != 0)
        return -1;
    if (!(s = config_setting_get_member(root, "pairs")))
        return rd_error(r, 1, "pairs", "missing (colour-swapped game pairs per iteration)");
    if (get_int(r, s, "pairs", 1, TUNE_MAX_PAIRS, &t->pairs) != 0)
        return -1;
    if ((s = config_setting_get_member(root, "opening_plies"))) {
        if (get_int(r, s, "opening_plies", 0, TUNE_MAX_OPENING, &x) != 0)
            return -1;
        t->opening_plies = (int)x;
    }
    t->max_plies = t->variant.max_plies < TUNE_MAX_PLIES ? t->variant.max_plies : TUNE_MAX_PLIES;
    if ((s = config_setting_get_member(root, "max_plies")) &&
        get_int(r, s, "max_plies", 1, t->variant.max_plies, &t->max_plies) != 0)
        return -1;
    if ((s = config_setting_get_member(root, "threads"))) {
        if (get_int(r, s, "threads", 1, 4096, &x) != 0)
            return -1;
        t->threads = (int)x;
    }
    t->gains.A = 0.1 * (double)t->iterations;
    static const char *const gk[5] = { "a", "c", "A", "alpha", "gamma" };
    double *gv[5] = { &t->gains.a, &t->gains.c, &t->gains.A, &t->gains.alpha, &t->gains.gamma };
    static const double lo[5] = { 1e-9, 1e-9, 0.0, 0.0, 0.0 }, hi[5] = { 1e6, 1e3, 1e9, 1.0, 1.0 };
    for (int i = 0; i < 5; i++)
        if ((s = config_setting_get_member(root, gk[i])) &&
            get_real(r, s, gk[i], lo[i], hi[i], gv[i]) != 0)
            return -1;
    if (!config_setting_get_member(root, "a"))
        return rd_error(r, 1, "a", "missing (the SPSA step gain a of a_k = a / (k + 1 + A)^alpha)");
    return 0;
}

/* Everything after libconfig has read the text. */
static int read_settings(const Reader *r, config_t *cfg, TuneConfig *t)
{
    const config_setting_t *root = config_root_setting(cfg), *s;
    if (check_keys(r, root, "", CP_TUNE) != 0)
        return -1;
    if ((s = config_setting_get_member(root, "description")) &&
        get_string(r, s, "description", &t->description) != 0)
        return -1;
    if ((s = config_setting_get_member(root, "output")) && !t->output &&
        get_string(r, s, "output", &t->output) != 0)
        return -1;
    if (!t->output)
        return rd_error(r, 1, "output", "missing (the results file; or give -o FILE)");
    if (read_players(r, root, t) != 0 || read_numbers(r, root, t) != 0)
        return -1;
    if (!(s = config_setting_get_member(root, "weights")))
        return rd_error(r, 1, "weights", "missing (the weights to tune: ( { name = \"seeds\"; "
                        "min = ..; max = ..; step = ..; }, ... ))");
    if (read_weights(r, s, t) != 0)
        return -1;
    t->verify_pairs = 200;
    t->sprt_all = (SprtBounds){ 0.0, 20.0, 0.05, 0.05 };
    for (int m = 0; m < VERIFY_NB; m++)
        t->sprt[m] = t->sprt_all;
    if ((s = config_setting_get_member(root, "verification")))
        return read_verification(r, s, t);
    return 0;
}

int tune_config_parse(TuneConfig *t, const char *text, const char *label, const char *output,
                      int threads, Error *e)
{
    Reader r = { label, e };
    config_t cfg;
    int rc = -1;
    memset(t, 0, sizeof *t);
    t->gains = (SpsaGains){ 0.0, 1.0, 0.0, 0.602, 0.101 };
    t->opening_plies = 4;
    if (config_check_includes(text, label, 0, e) != 0)
        return -1;
    if (output && !(t->output = strdup(output)))
        return error_set(e, "out of memory");
    config_init(&cfg);
    if (!config_read_string(&cfg, text)) {
        config_syntax_error(e, label, &cfg, text);
    } else if (config_refuse_other_kind(label, &cfg, "tuning", e) == 0 &&
               config_check_int_literals(text, label, e) == 0 && read_settings(&r, &cfg, t) == 0) {
        t->source = strdup(label);
        t->text = strdup(text);
        rc = t->source && t->text ? 0 : error_set(e, "out of memory");
        if (threads > 0)
            t->threads = threads;
    }
    config_destroy(&cfg);
    if (rc != 0)
        tune_config_free(t);
    return rc;
}

int tune_config_load(TuneConfig *t, const char *path, const char *output, int threads, Error *e)
{
    memset(t, 0, sizeof *t);
    char *text;
    if (config_read_text(path, (size_t)1 << 20, &text, e) != 0)
        return -1;
    int rc = tune_config_parse(t, text, path, output, threads, e);
    free(text);
    return rc;
}

void tune_config_free(TuneConfig *t)
{
    free(t->source);
    free(t->text);
    free(t->description);
    free(t->output);
    free(t->variant_name);
    free(t->agent);
    free(t->opponent);
    memset(t, 0, sizeof *t);
}

/* Append to a growing text. */
static void put(char *buf, size_t len, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void put(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (*used < len)
        *used += (size_t)vsnprintf(buf + *used, len - *used, fmt, ap);
    va_end(ap);
}

/* The content hashes of the files spec names, as " files_WHO=..." (nothing when it names
 * none), so that a tuning resumed after a weights or tables file changed is another one. */
static void spec_files_text(const char *who, const char *spec, const Variant *v, char *out,
                            size_t len)
{
    char digests[AGENT_DIGESTS_MAX];
    Error e;
    out[0] = '\0';
    if (agent_file_digests(spec, v, digests, sizeof digests, &e) != 0)
        snprintf(out, len, " files_%s=unreadable", who);   /* the agent's check says why */
    else if (digests[0])
        snprintf(out, len, " files_%s=%s", who, digests);
}

char *tune_fingerprint(const TuneConfig *t)
{
    size_t len = 4096 + 2 * AGENT_DIGESTS_MAX, used = 0;
    char *buf = malloc(len), desc[256];
    char agent[AGENT_FULL_SPEC_MAX], opponent[AGENT_FULL_SPEC_MAX];
    char files[2][AGENT_DIGESTS_MAX + 32];
    if (!buf)
        return NULL;
    variant_describe(&t->variant, desc, sizeof desc);
    /* The tuning is the play: a limit that changes no move may differ on resume. */
    agent_play_spec(t->agent, agent, sizeof agent);
    if (t->opponent)
        agent_play_spec(t->opponent, opponent, sizeof opponent);
    else
        snprintf(opponent, sizeof opponent, "self");
    spec_files_text("agent", t->agent, &t->variant, files[0], sizeof files[0]);
    files[1][0] = '\0';
    if (t->opponent)
        spec_files_text("opponent", t->opponent, &t->variant, files[1], sizeof files[1]);
    put(buf, len, &used, "tuning seed=%lld variant=%s agent=%s opponent=%s iterations=%lld "
        "pairs=%lld opening=%d max_plies=%lld a=%.17g c=%.17g A=%.17g alpha=%.17g gamma=%.17g "
        "verify=%lld",
        (long long)t->seed, desc, agent, opponent,
        (long long)t->iterations, (long long)t->pairs, t->opening_plies,
        (long long)t->max_plies, t->gains.a, t->gains.c,
        t->gains.A, t->gains.alpha, t->gains.gamma, (long long)t->verify_pairs);
    for (int i = 0; i < t->nweights; i++)
        put(buf, len, &used, " %s:%.17g:%.17g:%.17g:%.17g", eval_terms[t->w[i].term].name,
            t->w[i].start, t->w[i].p.lo, t->w[i].p.hi, t->w[i].p.step);
    /* A verification match stops at its SPRT's first decision, so its bounds decide which
     * games are played (and a journal from before the stop, which played on, does not
     * resume). */
    put(buf, len, &used, " verify_stops_on_sprt");
    for (int m = 0; m < VERIFY_NB; m++)
        put(buf, len, &used, " sprt_%s=%.17g:%.17g:%.17g:%.17g", tune_verify_names[m],
            t->sprt[m].elo0, t->sprt[m].elo1, t->sprt[m].alpha, t->sprt[m].beta);
    put(buf, len, &used, "%s%s", files[0], files[1]);
    return buf;
}

/* Whether an item `key=value` of a spec sets one of the tuned weights (or any weight). */
static bool tuned_item(const TuneConfig *t, const char *item, size_t n, bool any)
{
    if (n < 2 || strncmp(item, "w.", 2) != 0)
        return false;
    if (any)
        return true;
    for (int i = 0; i < t->nweights; i++) {
        const char *name = eval_terms[t->w[i].term].name;
        size_t m = strlen(name);
        if (n > m + 2 && strncmp(item + 2, name, m) == 0 && item[m + 2] == '=')
            return true;
    }
    return false;
}

/* The base spec less its weight items (tuned ones, or all), into buf. */
static size_t spec_base(const TuneConfig *t, bool all_weights, char *buf)
{
    size_t used = 0;
    const char *colon = strchr(t->agent, ':');
    size_t name_len = colon ? (size_t)(colon - t->agent) : strlen(t->agent);
    put(buf, TUNE_SPEC_MAX, &used, "%.*s", (int)name_len, t->agent);
    bool first = true;
    for (const char *p = colon ? colon + 1 : NULL; p && *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (!tuned_item(t, p, n, all_weights)) {
            put(buf, TUNE_SPEC_MAX, &used, "%s%.*s", first ? ":" : ",", (int)n, p);
            first = false;
        }
        p = end ? end + 1 : p + n;
    }
    return used;
}

/* A number for a spec: exact, or rounded to the thousandth without trailing zeros. */
static void spec_number(double x, bool readable, char *buf, size_t len)
{
    if (!readable) {
        snprintf(buf, len, "%.17g", x);
        return;
    }
    snprintf(buf, len, "%.3f", x);
    char *dot = strchr(buf, '.');
    if (dot) {
        char *end = buf + strlen(buf) - 1;
        while (end > dot && *end == '0')
            *end-- = '\0';
        if (end == dot)
            *end = '\0';
    }
    if (strcmp(buf, "-0") == 0)
        strcpy(buf, "0");
}

void tune_spec(const TuneConfig *t, const double *values, bool readable, char *buf)
{
    size_t used = spec_base(t, false, buf);
    bool has_opts = strchr(buf, ':') != NULL;
    for (int i = 0; i < t->nweights; i++) {
        char num[40];
        spec_number(values[i], readable, num, sizeof num);
        put(buf, TUNE_SPEC_MAX, &used, "%sw.%s=%s", has_opts || i ? "," : ":",
            eval_terms[t->w[i].term].name, num);
    }
}

void tune_default_spec(const TuneConfig *t, char *buf)
{
    spec_base(t, true, buf);
}
