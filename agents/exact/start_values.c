/* start_values.c: the table of start_values.h. Each row was computed by `anywoli solve --start
 * --holes H --seeds S --final-four C` with the options in its `how` (`--tables auto`: the
 * search above endgame tables of the board, their K climbing from the smallest level until
 * the search ends, docs/commands.md); states, seconds and peak memory as that run's last
 * lines reported them: the search's positions kept (0: the tables held the start), the wall
 * time and the peak resident memory of the whole command from an empty cache, tables built
 * included, with one thread (OMP_NUM_THREADS=1) on the lab's 2-core machine while others
 * were working on it, so that the times are upper bounds. docs/commands.md, "Small variants
 * solved", has the same table with each row's K. */
#include "start_values.h"

#define P FF_PENULTIMATE
#define F FF_FIRST_FINAL
#define L FF_LOTTERY

const StartValue start_values[] = {
    /* holes, seeds, convention, value, states, seconds, peak MiB, how */
    { 2, 2, P, 8, 0, 0.02, 12.2, "--tables auto" },
    { 2, 2, F, 8, 0, 0.01, 12.2, "--tables auto" },
    { 2, 2, L, 4, 0, 0.02, 12.1, "--tables auto" },
    { 2, 3, P, 4, 0, 0.01, 11.9, "--tables auto" },
    { 2, 3, F, 4, 0, 0.03, 12.2, "--tables auto" },
    { 2, 3, L, 4, 0, 0.01, 12.1, "--tables auto" },
    { 3, 1, P, 0, 0, 0.01, 12.0, "--tables auto" },
    { 3, 1, F, 0, 0, 0.03, 12.1, "--tables auto" },
    { 3, 1, L, 0, 0, 0.03, 12.2, "--tables auto" },
    { 3, 2, P, -4, 0, 0.03, 12.2, "--tables auto" },
    { 3, 2, F, -4, 0, 0.01, 12.2, "--tables auto" },
    { 3, 2, L, 0, 0, 0.02, 12.3, "--tables auto" },
    { 3, 3, P, 6, 0, 0.01, 12.4, "--tables auto" },
    { 3, 3, F, 10, 0, 0.01, 12.3, "--tables auto" },
    { 3, 3, L, 8, 0, 0.01, 12.3, "--tables auto" },
    { 3, 4, P, 0, 46, 0.06, 12.5, "--tables auto" },
    { 3, 4, F, -8, 53, 0.02, 12.6, "--tables auto" },
    { 3, 4, L, -4, 46, 0.03, 12.5, "--tables auto" },
    { 3, 5, P, -2, 36, 0.02, 12.4, "--tables auto" },
    { 3, 5, F, -6, 32, 0.03, 12.3, "--tables auto" },
    { 3, 5, L, -4, 36, 0.04, 12.5, "--tables auto" },
    { 3, 6, P, -12, 46, 0.02, 12.5, "--tables auto" },
    { 3, 6, F, -12, 37, 0.03, 12.6, "--tables auto" },
    { 3, 6, L, -8, 45, 0.03, 12.5, "--tables auto" },
    { 4, 1, P, 8, 0, 0.03, 12.3, "--tables auto" },
    { 4, 1, F, 8, 0, 0.01, 12.3, "--tables auto" },
    { 4, 1, L, 4, 0, 0.01, 12.4, "--tables auto" },
    { 4, 2, P, 0, 4, 0.06, 12.4, "--tables auto" },
    { 4, 2, F, -8, 4, 0.03, 12.4, "--tables auto" },
    { 4, 2, L, -4, 4, 0.05, 12.4, "--tables auto" },
    { 4, 3, P, 8, 6, 0.03, 12.4, "--tables auto" },
    { 4, 3, F, 8, 7, 0.05, 12.4, "--tables auto" },
    { 4, 3, L, 4, 8, 0.02, 12.5, "--tables auto" },
    { 4, 4, P, 16, 45, 0.03, 12.8, "--tables auto" },
    { 4, 4, F, 8, 26, 0.05, 12.4, "--tables auto" },
    { 4, 4, L, 12, 69, 0.07, 12.6, "--tables auto" },
    { 5, 1, P, 4, 60, 0.04, 12.7, "--tables auto" },
    { 5, 1, F, 4, 60, 0.06, 12.7, "--tables auto" },
    { 5, 1, L, 4, 60, 0.04, 12.6, "--tables auto" },
    { 5, 2, P, 12, 18, 0.07, 12.8, "--tables auto" },
    { 5, 2, F, 12, 19, 0.05, 12.9, "--tables auto" },
    { 5, 2, L, 8, 19, 0.09, 12.8, "--tables auto" },
    { 5, 3, P, 6, 18, 0.03, 12.4, "--tables auto" },
    { 5, 3, F, 6, 26, 0.03, 12.6, "--tables auto" },
    { 5, 3, L, 4, 26, 0.03, 12.5, "--tables auto" },
    { 6, 1, P, 4, 0, 12.61, 105.3, "--tables auto" },
    { 6, 1, F, 4, 79, 0.22, 14.5, "--tables auto" },
    { 6, 1, L, 0, 58, 0.20, 14.6, "--tables auto" },
    { 6, 2, P, -4, 10, 8.58, 105.2, "--tables auto" },
    { 6, 2, F, -8, 65, 0.18, 14.5, "--tables auto" },
    { 6, 2, L, -4, 73, 0.21, 14.6, "--tables auto" },
    { 6, 3, P, 4, 33, 0.22, 14.7, "--tables auto" },
    { 6, 3, F, 12, 76, 0.18, 14.6, "--tables auto" },
    { 6, 3, L, 8, 77, 0.17, 14.5, "--tables auto" },
    { 6, 4, P, -16, 83987, 16.69, 109.5, "--tables auto" },
    { 6, 4, F, -16, 205077, 4.55, 82.2, "--tables auto" },
    { 6, 4, L, -12, 329246, 3.46, 85.5, "--tables auto" },
    { 6, 5, P, -4, 84556, 10.88, 109.4, "--tables auto" },
    { 6, 5, F, -4, 249950, 2.63, 83.9, "--tables auto" },
    { 6, 5, L, 0, 267565, 3.01, 84.2, "--tables auto" },
    { 6, 6, P, 32, 132593, 13.40, 110.9, "--tables auto" },
    { 6, 6, F, 32, 289338, 2.79, 85.0, "--tables auto" },
    { 6, 6, L, 28, 330175, 2.64, 86.0, "--tables auto" },
    { 7, 1, P, 4, 0, 183.93, 289.4, "--tables auto" },
    { 7, 1, F, 6, 91, 8.08, 111.5, "--tables auto" },
    { 7, 1, L, 4, 89, 6.95, 111.3, "--tables auto" },
    { 7, 2, P, 4, 110, 39.50, 150.9, "--tables auto" },
    { 7, 2, F, -4, 110, 41.63, 151.7, "--tables auto" },
    { 7, 2, L, 0, 110, 35.09, 152.0, "--tables auto" },
    /* Tables to 16 seeds, the start's own level: built with two threads (OMP_NUM_THREADS=2),
     * the rest of the cost the searches above tables to 8 and 12 that passed their states. */
    { 8, 1, P, 4, 0, 2947.03, 2033.1, "--tables auto" },
    { 8, 1, F, 0, 183, 226.85, 263.3, "--tables auto" },
    { 8, 1, L, 4, 153, 234.42, 263.2, "--tables auto" },
    { 8, 2, P, 8, 294, 202.49, 263.3, "--tables auto" },
    { 8, 2, F, 8, 238, 190.71, 263.5, "--tables auto" },
    { 8, 2, L, 4, 264, 187.54, 261.9, "--tables auto" },
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
