/* variant.c: parameters, presets and their validation. */
#include "variant.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const variant_preset_names[] = { "anywoli", "yit-nuri", "yit-jani", NULL };

static const struct { int holes, seeds; } preset_sizes[] = { { 12, 4 }, { 7, 4 }, { 13, 2 } };

static const char *const param_names[VP_NB] = {
    "holes", "seeds", "capture", "final_four", "extra_turn", "skip_origin", "max_plies",
};

static const char *const ff_names[FF_NB] = { "penultimate", "first-final", "lottery" };

const char *variant_param_name(VariantParam p)
{
    return (p >= 0 && p < VP_NB) ? param_names[p] : "?";
}

const char *final_four_name(FinalFour f)
{
    return (f >= 0 && f < FF_NB) ? ff_names[f] : "?";
}

void variant_default(Variant *v)
{
    memset(v, 0, sizeof *v);
    v->holes = 12;
    v->seeds = 4;
    v->capture = 4;
    v->final_four = FF_PENULTIMATE;
    v->extra_turn = true;
    v->skip_origin = false;
    v->max_plies = 100000;
    variant_finish(v, NULL);
}

int variant_preset(Variant *v, const char *name, Error *e)
{
    for (int i = 0; variant_preset_names[i]; i++) {
        if (strcmp(name, variant_preset_names[i]) == 0) {
            variant_default(v);
            v->holes = preset_sizes[i].holes;
            v->seeds = preset_sizes[i].seeds;
            return variant_finish(v, e);
        }
    }
    return error_set(e, "variant: unknown preset '%s' (expected anywoli, yit-nuri or yit-jani)",
                     name);
}

/* The parameter a name denotes, accepting `final-four` for `final_four`; VP_NB if none. */
static VariantParam param_lookup(const char *name)
{
    char canon[32];
    size_t n = strlen(name);
    if (n >= sizeof canon)
        return VP_NB;
    for (size_t i = 0; i <= n; i++)
        canon[i] = name[i] == '-' ? '_' : name[i];
    for (int p = 0; p < VP_NB; p++)
        if (strcmp(canon, param_names[p]) == 0)
            return (VariantParam)p;
    return VP_NB;
}

/* Parse a whole decimal integer; -1 on anything else (sign, junk, overflow). */
static int parse_int64(const char *s, int64_t *out)
{
    if (!s || !*s || (*s != '-' && (*s < '0' || *s > '9')))
        return -1;
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = x;
    return 0;
}

/* Parse yes/no (also true/false, on/off, 1/0). */
static int parse_bool(const char *s, bool *out)
{
    static const char *const yes[] = { "yes", "true", "on", "1" };
    static const char *const no[] = { "no", "false", "off", "0" };
    for (int i = 0; i < 4; i++) {
        if (strcmp(s, yes[i]) == 0) { *out = true; return 0; }
        if (strcmp(s, no[i]) == 0) { *out = false; return 0; }
    }
    return -1;
}

int variant_set(Variant *v, const char *name, const char *value, Error *e)
{
    VariantParam p = param_lookup(name);
    int64_t x = 0;
    switch (p) {
    case VP_HOLES: case VP_SEEDS: case VP_CAPTURE: case VP_MAX_PLIES:
        if (parse_int64(value, &x) != 0)
            return error_set(e, "%s: '%s' is not a whole number", param_names[p], value);
        if (p != VP_MAX_PLIES && (x < INT32_MIN || x > INT32_MAX))
            return error_set(e, "%s: %s is out of range", param_names[p], value);
        if (p == VP_HOLES) v->holes = (int)x;
        if (p == VP_SEEDS) v->seeds = (int)x;
        if (p == VP_CAPTURE) v->capture = (int)x;
        if (p == VP_MAX_PLIES) v->max_plies = x;
        return 0;
    case VP_FINAL_FOUR:
        for (int f = 0; f < FF_NB; f++) {
            if (strcmp(value, ff_names[f]) == 0) {
                v->final_four = (FinalFour)f;
                return 0;
            }
        }
        return error_set(e, "final_four: '%s' is not a convention "
                         "(expected penultimate, first-final or lottery)", value);
    case VP_EXTRA_TURN: case VP_SKIP_ORIGIN: {
        bool b;
        if (parse_bool(value, &b) != 0)
            return error_set(e, "%s: '%s' is not yes or no", param_names[p], value);
        if (p == VP_EXTRA_TURN) v->extra_turn = b; else v->skip_origin = b;
        return 0;
    }
    default:
        return error_set(e, "unknown variant parameter '%s' (expected holes, seeds, capture, "
                         "final_four, extra_turn, skip_origin or max_plies)", name);
    }
}

int variant_finish(Variant *v, Error *e)
{
    if (v->holes < 2 || v->holes > MAX_HOLES)
        return error_set(e, "holes: %d is out of range (2 to %d)", v->holes, MAX_HOLES);
    if (v->seeds < 1 || v->seeds > 64)
        return error_set(e, "seeds: %d is out of range (1 to 64)", v->seeds);
    if (v->capture < 2 || v->capture > 64)
        return error_set(e, "capture: %d is out of range (2 to 64)", v->capture);
    if (v->final_four < 0 || v->final_four >= FF_NB)
        return error_set(e, "final_four: %d is not a convention", (int)v->final_four);
    if (v->max_plies < 1)
        return error_set(e, "max_plies: %" PRId64 " is out of range (at least 1)", v->max_plies);
    if (v->max_plies > MAX_PLIES_LIMIT)   /* see variant.h */
        return error_set(e, "max_plies: %" PRId64 " is out of range (at most %" PRId64 ")",
                         v->max_plies, (int64_t)MAX_PLIES_LIMIT);
    if (2 * v->holes * v->seeds <= v->capture)
        return error_set(e, "capture: %d must be below the %d seeds in play "
                         "(2 x holes x seeds)", v->capture, 2 * v->holes * v->seeds);
    v->pits = 2 * v->holes;
    v->total = v->pits * v->seeds;
    uint64_t south = (v->holes == 64) ? ~0ULL : ((1ULL << v->holes) - 1);
    v->row[SOUTH] = south;
    v->row[NORTH] = (v->pits == 64 ? ~0ULL : ((1ULL << v->pits) - 1)) & ~south;
    for (int i = 0; i < v->pits; i++)
        v->next[i] = (uint8_t)((i + 1) % v->pits);
    return 0;
}

void variant_describe(const Variant *v, char *buf, int len)
{
    snprintf(buf, (size_t)len,
             "holes=%d seeds=%d capture=%d final_four=%s extra_turn=%s skip_origin=%s "
             "max_plies=%" PRId64,
             v->holes, v->seeds, v->capture, final_four_name(v->final_four),
             v->extra_turn ? "yes" : "no", v->skip_origin ? "yes" : "no", v->max_plies);
}
