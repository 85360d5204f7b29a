/* variant.c: parameters, presets and their validation. */
#include "variant.h"

#include <inttypes.h>
#include <stddef.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nearest.h"

const char *const variant_preset_names[] = { "anywoli", "yit-nuri", "yit-jani", NULL };

static const struct { int holes, seeds; } preset_sizes[] = { { 12, 4 }, { 7, 4 }, { 13, 2 } };

#define FIELD(f) offsetof(Variant, f)
const VariantParamInfo variant_params[VP_NB] = {
    /* name         kind           field                lo  hi               standard
     *   play   cost   arg       about */
    { "holes",       VK_INT,        FIELD(holes),        2, MAX_HOLES,        12,
      true,  true,  "N",      "holes per row" },
    { "seeds",       VK_INT,        FIELD(seeds),        1, 64,               4,
      true,  true,  "N",      "seeds per hole at the start" },
    { "capture",     VK_INT,        FIELD(capture),      2, 64,               4,
      true,  true,  "N",      "the count that is captured" },
    { "final_four",  VK_CONVENTION, FIELD(final_four),   0, FF_NB - 1,        FF_PENULTIMATE,
      true,  false, "C",      "who receives the seeds left at the end" },
    { "extra_turn",  VK_BOOL,       FIELD(extra_turn),   0, 1,                1,
      true,  true,  "yes|no", "a final-seed capture earns a move at once" },
    { "skip_origin", VK_BOOL,       FIELD(skip_origin),  0, 1,                0,
      true,  true,  "yes|no", "laps skip the hole they started from" },
    { "max_plies",   VK_INT64,      FIELD(max_plies),    1, MAX_PLIES_LIMIT,  100000,
      false, true,  "N",      "plies before a game stops as unfinished" },
};
#undef FIELD

static const char *const ff_names[FF_NB] = { "penultimate", "first-final", "lottery" };

const char *variant_param_name(VariantParam p)
{
    return (p >= 0 && p < VP_NB) ? variant_params[p].name : "?";
}

int64_t variant_get(const Variant *v, VariantParam p)
{
    const char *at = (const char *)v + variant_params[p].offset;
    switch (variant_params[p].kind) {
    case VK_INT: return *(const int *)at;
    case VK_INT64: return *(const int64_t *)at;
    case VK_BOOL: return *(const bool *)at;
    default: return (int64_t)*(const FinalFour *)at;
    }
}

void variant_put(Variant *v, VariantParam p, int64_t x)
{
    char *at = (char *)v + variant_params[p].offset;
    switch (variant_params[p].kind) {
    case VK_INT: *(int *)at = (int)x; break;
    case VK_INT64: *(int64_t *)at = x; break;
    case VK_BOOL: *(bool *)at = x != 0; break;
    default: *(FinalFour *)at = (FinalFour)x; break;
    }
}

bool variant_same_play(const Variant *a, const Variant *b)
{
    for (int p = 0; p < VP_NB; p++)
        if (variant_params[p].play && variant_get(a, p) != variant_get(b, p))
            return false;
    return true;
}

bool variant_same_cost(const Variant *a, const Variant *b)
{
    for (int p = 0; p < VP_NB; p++)
        if (variant_params[p].cost && variant_get(a, p) != variant_get(b, p))
            return false;
    return true;
}

unsigned variant_not_play(void)
{
    unsigned set = 0;
    for (int p = 0; p < VP_NB; p++)
        if (!variant_params[p].play)
            set |= VP_BIT(p);
    return set;
}

const char *final_four_name(FinalFour f)
{
    return (f >= 0 && f < FF_NB) ? ff_names[f] : "?";
}

void variant_default(Variant *v)
{
    memset(v, 0, sizeof *v);
    for (int p = 0; p < VP_NB; p++)
        variant_put(v, p, variant_params[p].standard);
    variant_finish(v, NULL);
}

/* Names 0 .. n-1 (name(i)) as "a, b or c" into buf, for messages: the one way the variants'
 * presets, parameters and conventions are listed. */
static void join_names(const char *(*name)(int), int n, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s",
                                 i == 0 ? "" : i == n - 1 ? " or " : ", ", name(i));
}

static const char *preset_name(int i)
{
    return variant_preset_names[i];
}

static const char *param_name(int p)
{
    return variant_params[p].name;
}

static const char *convention_name(int f)
{
    return final_four_name((FinalFour)f);
}

/* The preset names as "anywoli, yit-nuri or yit-jani". */
static void preset_list(char *buf, size_t len)
{
    int n = 0;
    while (variant_preset_names[n])
        n++;
    join_names(preset_name, n, buf, len);
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
    char names[64], hint[100];
    preset_list(names, sizeof names);
    return error_set(e, "variant: unknown preset '%s'%s (expected %s)", name,
                     nearest_hint_in(name, names, hint, sizeof hint), names);
}

/* Check every parameter against its allowed range; -1 with a message, and in *param the
 * parameter it is about. */
static int check_params(const Variant *v, VariantParam *param, Error *e)
{
    for (int p = 0; p < VP_NB; p++) {
        const VariantParamInfo *i = &variant_params[p];
        int64_t x = variant_get(v, p);
        *param = (VariantParam)p;
        if (i->kind == VK_CONVENTION && (x < 0 || x >= FF_NB))
            return error_set(e, "%s: %" PRId64 " is not a convention", i->name, x);
        if (i->kind == VK_INT64 && x < i->lo)     /* a cap: only its bottom is a range */
            return error_set(e, "%s: %" PRId64 " is out of range (at least %" PRId64 ")",
                             i->name, x, i->lo);
        if (i->kind == VK_INT64 && x > i->hi)     /* a limit of memory, see variant.h */
            return error_set(e, "%s: %" PRId64 " is out of range (at most %" PRId64 ")",
                             i->name, x, i->hi);
        if (i->kind == VK_INT && (x < i->lo || x > i->hi))
            return error_set(e, "%s: %" PRId64 " is out of range (%" PRId64 " to %" PRId64 ")",
                             i->name, x, i->lo, i->hi);
    }
    /* The one rule between parameters. */
    *param = VP_CAPTURE;
    if (2 * v->holes * v->seeds <= v->capture)
        return error_set(e, "capture: %d must be below the %d seeds in play "
                         "(2 x holes x seeds)", v->capture, 2 * v->holes * v->seeds);
    *param = VP_NB;
    return 0;
}

int variant_finish_at(Variant *v, VariantParam *param, Error *e)
{
    if (check_params(v, param, e) != 0)
        return -1;
    v->pits = 2 * v->holes;
    v->total = v->pits * v->seeds;
    uint64_t south = (v->holes == 64) ? ~0ULL : ((1ULL << v->holes) - 1);
    v->row[SOUTH] = south;
    v->row[NORTH] = (v->pits == 64 ? ~0ULL : ((1ULL << v->pits) - 1)) & ~south;
    for (int i = 0; i < v->pits; i++)
        v->next[i] = (uint8_t)((i + 1) % v->pits);
    return 0;
}

int variant_finish(Variant *v, Error *e)
{
    VariantParam param;
    return variant_finish_at(v, &param, e);
}

void variant_param_text(const Variant *v, VariantParam p, char *buf, size_t len)
{
    if (p < 0 || p >= VP_NB) {
        snprintf(buf, len, "?");
        return;
    }
    int64_t x = variant_get(v, p);
    switch (variant_params[p].kind) {
    case VK_CONVENTION: snprintf(buf, len, "%s", final_four_name((FinalFour)x)); break;
    case VK_BOOL: snprintf(buf, len, "%s", x ? "yes" : "no"); break;
    default: snprintf(buf, len, "%" PRId64, x); break;
    }
}

void variant_describe_without(const Variant *v, unsigned leave_out, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int p = 0; p < VP_NB && used < len; p++) {
        if (leave_out & VP_BIT(p))
            continue;
        char value[32];
        variant_param_text(v, (VariantParam)p, value, sizeof value);
        used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "",
                                 variant_params[p].name, value);
    }
}

void variant_describe(const Variant *v, char *buf, int len)
{
    variant_describe_without(v, 0, buf, (size_t)len);
}

void variant_param_list(char *buf, size_t len)
{
    join_names(param_name, VP_NB, buf, len);
}

void final_four_list(char *buf, size_t len)
{
    join_names(convention_name, FF_NB, buf, len);
}

void hole_name(const Variant *v, int pit, char buf[HOLE_NAME_MAX])
{
    int owner = variant_owner(v, pit);
    snprintf(buf, HOLE_NAME_MAX, "%c%d", owner == SOUTH ? 'S' : 'N', pit - owner * v->holes + 1);
}

const char *hole_names(const Variant *v, const int *moves, int n, char *buf, size_t len)
{
    size_t at = 0;
    if (len)
        buf[0] = '\0';
    for (int i = 0; i < n && at < len; i++) {
        char name[HOLE_NAME_MAX];
        hole_name(v, moves[i], name);
        at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? " " : "", name);
    }
    return buf;
}

int hole_from_name(const Variant *v, const char *text)
{
    int letter = toupper((unsigned char)text[0]);
    if (letter != 'S' && letter != 'N')
        return -1;
    size_t digits = strspn(text + 1, "0123456789");
    if (digits == 0 || digits > 2 || text[1 + digits] != '\0' || text[1] == '0')
        return -1;
    int k = atoi(text + 1);
    if (k < 1 || k > v->holes)
        return -1;
    return (letter == 'N') * v->holes + k - 1;
}
