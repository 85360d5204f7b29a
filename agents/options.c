/* options.c: agent specs `name:key=value,...`, parsed against each agent's option table. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agents_internal.h"
#include "eval.h"
#include "nearest.h"

/* Whether text is a plain decimal number: a sign, digits with an optional fraction, an
 * optional exponent; nothing else. strtod alone also takes spaces, hex (0x4), inf and nan. */
static bool is_decimal(const char *text)
{
    const char *p = text + (*text == '-' || *text == '+');
    size_t whole = strspn(p, "0123456789");
    p += whole;
    size_t fraction = 0;
    if (*p == '.') {
        fraction = strspn(p + 1, "0123456789");
        p += 1 + fraction;
    }
    if (whole + fraction == 0)
        return false;
    if (*p == 'e' || *p == 'E') {
        p += 1 + (p[1] == '-' || p[1] == '+');
        size_t exponent = strspn(p, "0123456789");
        if (exponent == 0)
            return false;
        p += exponent;
    }
    return *p == '\0';
}

/* A number for key `key`: decimal, representable, whole if asked, within [lo, hi]. */
static int parse_number(const AgentKind *k, const AgentOption *o, const char *key,
                        const char *text, double *out, Error *e)
{
    if (!is_decimal(text))
        return error_set(e, "agent '%s': %s=%s is not a number (decimal, as 12, -0.5 or 1e6)",
                         k->name, key, text);
    errno = 0;
    double x = strtod(text, NULL);
    if (errno == ERANGE && fabs(x) <= DBL_MIN)
        return error_set(e, "agent '%s': %s=%s is out of range (a number other than 0 must be "
                         "at least %g in size)", k->name, key, text, DBL_MIN);
    if (errno == ERANGE || x < o->lo || x > o->hi)
        return error_set(e, "agent '%s': %s=%s is out of range (%g to %g)", k->name, key,
                         text, o->lo, o->hi);
    if (o->type == AOPT_INT && x != floor(x))
        return error_set(e, "agent '%s': %s=%s is not a whole number", k->name, key, text);
    *out = x;
    return 0;
}

/* The names of a choice option, as "a, b or c", for messages. */
static void choice_list(const char *const *c, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; c[i] && used < len; i++) {
        const char *sep = i == 0 ? "" : c[i + 1] ? ", " : " or ";
        used += (size_t)snprintf(buf + used, len - used, "%s%s", sep, c[i]);
    }
}

/* Set one option (the entry o, matched by key) from text. */
static int set_option(const AgentKind *k, const AgentOption *o, const char *key,
                      const char *text, void *settings, Error *e)
{
    char *dst = (char *)settings + o->offset;
    double x;
    if (o->type == AOPT_CHOICE) {
        for (int i = 0; o->choices[i]; i++) {
            if (strcmp(text, o->choices[i]) == 0) {
                *(int *)dst = i;
                return 0;
            }
        }
        char names[160];
        choice_list(o->choices, names, sizeof names);
        return error_set(e, "agent '%s': %s=%s is not one of %s", k->name, key, text, names);
    }
    if (o->type == AOPT_LIST) {
        /* Each item ends with '\n', so an empty item (`arg=`) is one, told apart from none. */
        size_t used = strlen(dst);
        if (strchr(text, '\n'))
            return error_set(e, "agent '%s': %s: a value holds no line break", k->name, key);
        if (used + strlen(text) + 1 >= AGENT_TEXT_MAX)
            return error_set(e, "agent '%s': %s: more than %d characters in all", k->name, key,
                             AGENT_TEXT_MAX - 2);
        strcat(strcat(dst, text), "\n");
        return 0;
    }
    if (o->type == AOPT_TEXT) {
        if (strlen(text) >= AGENT_TEXT_MAX)
            return error_set(e, "agent '%s': %s: longer than %d characters", k->name, key,
                             AGENT_TEXT_MAX - 1);
        strcpy(dst, text);
        return 0;
    }
    if (o->type == AOPT_WEIGHTS) {
        int t = eval_term_lookup(key + 2);
        if (parse_number(k, o, key, text, &x, e) != 0)
            return -1;
        ((EvalWeights *)dst)->w[t] = x;
        return 0;
    }
    if (parse_number(k, o, key, text, &x, e) != 0)
        return -1;
    if (o->type == AOPT_INT)
        *(int64_t *)dst = (int64_t)x;
    else
        *(double *)dst = x;
    return 0;
}

/* The table entry for key, or NULL: `w.<term>` matches the weights entry. */
static const AgentOption *find_option(const AgentKind *k, const char *key)
{
    for (const AgentOption *o = k->options; o && o->key; o++) {
        if (o->type == AOPT_WEIGHTS) {
            if (strncmp(key, "w.", 2) == 0 && eval_term_lookup(key + 2) >= 0)
                return o;
        } else if (strcmp(key, o->key) == 0) {
            return o;
        }
    }
    return NULL;
}

/* Every key k takes, as "a, b or c", for the message about an unknown key. */
static void key_list(const AgentKind *k, char *buf, size_t len)
{
    const char *names[64];
    char weights[EVAL_NB][24];
    int n = 0;
    for (const AgentOption *o = k->options; o && o->key && n < 48; o++) {
        if (o->type != AOPT_WEIGHTS) {
            names[n++] = o->key;
            continue;
        }
        for (int t = 0; t < EVAL_NB; t++) {
            snprintf(weights[t], sizeof weights[t], "w.%s", eval_terms[t].name);
            names[n++] = weights[t];
        }
    }
    names[n] = NULL;
    choice_list(names, buf, len);
}

/* Note in k's weights that the spec gave `key` (a term, or the fade, which sits inside the
 * weights as an option of its own), so that an agent choosing its default set by depth
 * (alphabeta's weights=auto) keeps it. */
static void note_given(const AgentKind *k, const AgentOption *o, const char *key,
                       void *settings)
{
    for (const AgentOption *w = k->options; w && w->key; w++) {
        if (w->type != AOPT_WEIGHTS)
            continue;
        EvalWeights *ws = (EvalWeights *)((char *)settings + w->offset);
        if (o == w)
            ws->given |= 1u << eval_term_lookup(key + 2);
        else if (o->offset == w->offset + offsetof(EvalWeights, fade))
            ws->given |= EVAL_GIVEN_FADE;
    }
}

/* Apply every default of k's table to settings. */
static void set_defaults(const AgentKind *k, void *settings)
{
    for (const AgentOption *o = k->options; o && o->key; o++) {
        if (o->type == AOPT_WEIGHTS)
            eval_default_with(o->def, (EvalWeights *)((char *)settings + o->offset));
        else if (o->type == AOPT_LIST)
            ((char *)settings + o->offset)[0] = '\0';   /* a list starts empty */
        else if (set_option(k, o, o->key, o->def, settings, NULL) != 0)
            abort();   /* a default outside its own range is a bug of the table */
    }
}

int agent_options_parse(const AgentKind *k, const char *opts, void *settings, Error *e)
{
    char buf[1024];
    set_defaults(k, settings);
    if (!opts || !*opts)
        return 0;
    if (!k->options || !k->options[0].key)
        return error_set(e, "agent '%s': takes no options, got '%s'", k->name, opts);
    if (strlen(opts) >= sizeof buf)
        return error_set(e, "agent '%s': options too long", k->name);
    strcpy(buf, opts);
    const char *given[sizeof buf / 2];   /* the keys so far: each may be given once */
    size_t ngiven = 0;
    for (char *item = buf, *next; item; item = next) {
        next = strchr(item, ',');
        if (next)
            *next++ = '\0';
        char *eq = strchr(item, '=');
        if (!eq)
            return error_set(e, "agent '%s': '%s' is not key=value", k->name, item);
        *eq = '\0';
        const AgentOption *o = find_option(k, item);
        if (!o) {
            char keys[400], hint[100];
            key_list(k, keys, sizeof keys);
            return error_set(e, "agent '%s': unknown option '%s'%s (expected %s)", k->name,
                             item, nearest_hint_in(item, keys, hint, sizeof hint), keys);
        }
        for (size_t i = 0; i < ngiven && o->type != AOPT_LIST; i++)
            if (strcmp(given[i], item) == 0)
                return error_set(e, "agent '%s': %s is given twice (each option once)",
                                 k->name, item);
        given[ngiven++] = item;
        if (set_option(k, o, item, eq + 1, settings, e) != 0)
            return -1;
        note_given(k, o, item, settings);
    }
    return 0;
}

bool agent_option_no_play(const AgentKind *k, const char *key, size_t n)
{
    for (const AgentOption *o = k->options; o && o->key; o++)
        if (o->type != AOPT_WEIGHTS && strlen(o->key) == n && strncmp(o->key, key, n) == 0)
            return !o->changes_play;
    return false;
}

/* Append `key=value` for one option to buf at *used. */
static void format_option(const AgentOption *o, const void *settings, char *buf, size_t len,
                          size_t *used)
{
    const char *src = (const char *)settings + o->offset;
    const char *sep = *used ? "," : "";
    int n = 0;
    if (*used >= len)
        return;
    if (o->type == AOPT_INT) {
        n = snprintf(buf + *used, len - *used, "%s%s=%lld", sep, o->key,
                     (long long)*(const int64_t *)src);
    } else if (o->type == AOPT_REAL) {
        n = snprintf(buf + *used, len - *used, "%s%s=%g", sep, o->key, *(const double *)src);
    } else if (o->type == AOPT_CHOICE) {
        n = snprintf(buf + *used, len - *used, "%s%s=%s", sep, o->key,
                     o->choices[*(const int *)src]);
    } else if (o->type == AOPT_TEXT) {
        if (*src)   /* none given: left out, so specs without it read as before */
            n = snprintf(buf + *used, len - *used, "%s%s=%s", sep, o->key, src);
    } else if (o->type == AOPT_LIST) {
        /* Each item as its own key=value, in the order given: the spec reads back the same. */
        for (const char *item = src, *end; *item && *used + (size_t)n < len; item = end + 1) {
            end = strchr(item, '\n');
            n += snprintf(buf + *used + n, len - *used - (size_t)n, "%s%s=%.*s",
                          (*used + (size_t)n) ? "," : "", o->key, (int)(end - item), item);
        }
    } else {
        const EvalWeights *w = (const EvalWeights *)src;
        for (int t = 0; t < EVAL_NB && *used + (size_t)n < len; t++)
            n += snprintf(buf + *used + n, len - *used - (size_t)n, "%sw.%s=%g",
                          (*used + (size_t)n) ? "," : "", eval_terms[t].name, w->w[t]);
    }
    *used += (size_t)n;
}

void agent_options_format(const AgentKind *k, const void *settings, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (const AgentOption *o = k->options; o && o->key; o++)
        format_option(o, settings, buf, len, &used);
}
