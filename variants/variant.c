/* variant.c: parameters, presets and their validation. */
#include "variant.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "nearest.h"

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

/* The preset names as "anywoli, yit-nuri or yit-jani", for messages. */
static void preset_list(char *buf, size_t len)
{
    size_t used = 0;
    for (int i = 0; variant_preset_names[i] && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i == 0 ? ""
                                 : variant_preset_names[i + 1] ? ", " : " or ",
                                 variant_preset_names[i]);
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
    *param = VP_HOLES;
    if (v->holes < 2 || v->holes > MAX_HOLES)
        return error_set(e, "holes: %d is out of range (2 to %d)", v->holes, MAX_HOLES);
    *param = VP_SEEDS;
    if (v->seeds < 1 || v->seeds > 64)
        return error_set(e, "seeds: %d is out of range (1 to 64)", v->seeds);
    *param = VP_CAPTURE;
    if (v->capture < 2 || v->capture > 64)
        return error_set(e, "capture: %d is out of range (2 to 64)", v->capture);
    *param = VP_FINAL_FOUR;
    if (v->final_four < 0 || v->final_four >= FF_NB)
        return error_set(e, "final_four: %d is not a convention", (int)v->final_four);
    *param = VP_MAX_PLIES;
    if (v->max_plies < 1)
        return error_set(e, "max_plies: %" PRId64 " is out of range (at least 1)", v->max_plies);
    if (v->max_plies > MAX_PLIES_LIMIT)   /* see variant.h */
        return error_set(e, "max_plies: %" PRId64 " is out of range (at most %" PRId64 ")",
                         v->max_plies, (int64_t)MAX_PLIES_LIMIT);
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
    switch (p) {
    case VP_HOLES: snprintf(buf, len, "%d", v->holes); break;
    case VP_SEEDS: snprintf(buf, len, "%d", v->seeds); break;
    case VP_CAPTURE: snprintf(buf, len, "%d", v->capture); break;
    case VP_FINAL_FOUR: snprintf(buf, len, "%s", final_four_name(v->final_four)); break;
    case VP_EXTRA_TURN: snprintf(buf, len, "%s", v->extra_turn ? "yes" : "no"); break;
    case VP_SKIP_ORIGIN: snprintf(buf, len, "%s", v->skip_origin ? "yes" : "no"); break;
    case VP_MAX_PLIES: snprintf(buf, len, "%" PRId64, v->max_plies); break;
    default: snprintf(buf, len, "?"); break;
    }
}

void variant_describe(const Variant *v, char *buf, int len)
{
    size_t used = 0, size = (size_t)len;
    buf[0] = '\0';
    for (int p = 0; p < VP_NB && used < size; p++) {
        char value[32];
        variant_param_text(v, (VariantParam)p, value, sizeof value);
        used += (size_t)snprintf(buf + used, size - used, "%s%s=%s", p ? " " : "",
                                 param_names[p], value);
    }
}
