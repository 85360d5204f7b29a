/* start_values.c: the table of start_values.h. Each row was computed by `anywoli solve --start
 * --holes H --seeds S --final-four C` with the options in its `how`; states, seconds and peak
 * memory as that run reported them on the lab's 2-core machine (docs/commands.md, "Small
 * variants solved"). */
#include "start_values.h"

#define P FF_PENULTIMATE
#define F FF_FIRST_FINAL
#define L FF_LOTTERY

const StartValue start_values[] = {
    /* holes, seeds, convention, value, states, seconds, peak MiB, how */
    { 2, 2, P, 8, 0, 0, 0, "" },   { 2, 2, F, 8, 0, 0, 0, "" },   { 2, 2, L, 4, 0, 0, 0, "" },
    { 2, 3, P, 4, 0, 0, 0, "" },   { 2, 3, F, 4, 0, 0, 0, "" },   { 2, 3, L, 4, 0, 0, 0, "" },
    { 3, 1, P, 0, 0, 0, 0, "" },   { 3, 1, F, 0, 0, 0, 0, "" },   { 3, 1, L, 0, 0, 0, 0, "" },
    { 3, 2, P, -4, 0, 0, 0, "" },  { 3, 2, F, -4, 0, 0, 0, "" },  { 3, 2, L, 0, 0, 0, 0, "" },
    { 3, 3, P, 6, 0, 0, 0, "" },   { 3, 3, F, 10, 0, 0, 0, "" },  { 3, 3, L, 8, 0, 0, 0, "" },
    { 4, 1, P, 8, 0, 0, 0, "" },   { 4, 1, F, 8, 0, 0, 0, "" },   { 4, 1, L, 4, 0, 0, 0, "" },
    { 4, 2, P, 0, 0, 0, 0, "" },   { 4, 2, F, -8, 0, 0, 0, "" },  { 4, 2, L, -4, 0, 0, 0, "" },
    { 4, 3, P, 8, 0, 0, 0, "" },   { 4, 3, F, 8, 0, 0, 0, "" },   { 4, 3, L, 4, 0, 0, 0, "" },
    { 5, 1, P, 4, 0, 0, 0, "" },   { 5, 1, F, 4, 0, 0, 0, "" },   { 5, 1, L, 4, 0, 0, 0, "" },
    { 5, 2, P, 12, 0, 0, 0, "" },  { 5, 2, F, 12, 0, 0, 0, "" },  { 5, 2, L, 8, 0, 0, 0, "" },
    { 5, 3, P, 6, 0, 0, 0, "" },   { 5, 3, F, 6, 0, 0, 0, "" },   { 5, 3, L, 4, 0, 0, 0, "" },
    { 6, 1, P, 4, 0, 0, 0, "" },
    { 6, 2, P, -4, 0, 0, 0, "" },
    { 6, 3, P, 4, 2.7e6, 28, 0, "" },
    { 7, 1, P, 4, 10.9e6, 106, 0, "--max-states 20000000" },
};

const int start_values_count = (int)(sizeof start_values / sizeof start_values[0]);

/* Whether every parameter of play but holes, seeds and the convention is standard. */
static bool standard_but_board(const Variant *v)
{
    for (int p = 0; p < VP_NB; p++) {
        const VariantParamInfo *info = &variant_params[p];
        if (!info->play || p == VP_HOLES || p == VP_SEEDS || p == VP_FINAL_FOUR)
            continue;
        if (variant_get(v, (VariantParam)p) != info->standard)
            return false;
    }
    return true;
}

const StartValue *start_value_of(const Variant *v)
{
    if (!standard_but_board(v))
        return NULL;
    for (int i = 0; i < start_values_count; i++) {
        const StartValue *s = &start_values[i];
        if (s->holes == v->holes && s->seeds == v->seeds && s->final_four == v->final_four)
            return s;
    }
    return NULL;
}
