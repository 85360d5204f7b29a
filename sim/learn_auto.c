/* learn_auto.c: learned=auto's fit (learn_auto.h): `learn sample`'s sampling and `learn
 * fit`'s fit with fixed inputs, for the variant being played. */
#include "learn_auto.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "learn_data.h"
#include "learn_fit.h"
#include "openings.h"
#include "tables.h"

/* The fixed inputs, chosen by measurement (docs/learned.md, "Fitted on first use"): enough
 * positions for a few hundred weights, labelled deep enough to beat the tuned evaluation, a
 * board of 2x12x6 fitted in minutes on two cores. The games: `learn sample`'s defaults but
 * for their number and the label's depth. Written once, here; auto_inputs_text gives them as
 * the cache file's key. */
static const LearnSampling auto_sampling = {
    .sampler = "alphabeta:depth=4,temperature=1,margin=4", .labeller = "alphabeta:tt=20",
    .openings_spec = "plies:4", .seed = 0, .games = 2000, .rate = 0.1, .per_level = 2,
    .skip = 4, .random_share = 0.3, .random_max = 2, .depth = 10, .max_plies = 1000,
};
/* The groups the compiled-in set leaves out (docs/learned.md): they add little and a
 * search pays for computing them at every leaf. */
#define AUTO_WITHOUT "seeds,moves.op,laps.me,laps.op"

/* The fixed inputs as text (learn_auto_inputs), made once from auto_sampling. */
static char auto_inputs[512];

static void auto_inputs_text(void)
{
    const LearnSampling *s = &auto_sampling;
    snprintf(auto_inputs, sizeof auto_inputs,
             "sampler=%s label=%s depth=%d games=%llu seed=%llu openings=%s rate=%g "
             "per_level=%d skip=%d random=%g,%d max_plies=%lld tables=auto without=%s "
             "lambdas=%d", s->sampler, s->labeller, s->depth, (unsigned long long)s->games,
             (unsigned long long)s->seed, s->openings_spec, s->rate, s->per_level, s->skip,
             s->random_share, s->random_max, (long long)s->max_plies, AUTO_WITHOUT,
             LEARN_DEFAULT_LAMBDAS);
}

const char *learn_auto_inputs(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;   /* fits run in a search's threads */
    pthread_once(&once, auto_inputs_text);
    return auto_inputs;
}

/* The mask of the groups AUTO_WITHOUT names (each a name features_group_lookup knows). */
static unsigned without_mask(void)
{
    char list[] = AUTO_WITHOUT;
    unsigned mask = 0;
    for (char *save, *g = strtok_r(list, ",", &save); g; g = strtok_r(NULL, ",", &save)) {
        int group = features_group_lookup(g);
        if (group < 0) {
            fprintf(stderr, "anywoli: AUTO_WITHOUT names no group '%s'\n", g);
            abort();   /* a misspelt list is a bug of this file, caught by any fit */
        }
        mask |= 1u << group;
    }
    return mask;
}

/* Sample v's positions into rows: its own convention alone, labelled by its tables where
 * they hold them. */
static int sample(const Variant *v, LearnRows *rows, uint64_t *tabled, Error *e)
{
    LearnSampling s = auto_sampling;
    s.variant = *v;
    s.convention[s.conventions++] = v->final_four;
    const Tables *t = NULL;
    char tables[4400];
    Error inner;
    if (tables_auto_seeds(v) > 0) {
        if (tables_acquire_auto(v, &t, &inner) != 0)
            return error_set(e, "tables=auto: %s", inner.msg);
        if (tables_auto_path(v, tables, sizeof tables, e) != 0) {
            tables_release(t);
            return -1;
        }
        s.tables[v->final_four] = tables;
    }
    OpeningSet os;
    int rc = openings_load(&os, s.openings_spec, &s.variant, e);
    if (rc == 0) {
        s.openings = &os;
        rc = learn_sample(&s, 0, rows, NULL, NULL, e);
        openings_free(&os);
    }
    tables_release(t);
    *tabled = 0;
    for (uint64_t i = 0; rc == 0 && i < rows->n; i++)
        *tabled += rows->row[i].source == LEARN_TABLES;
    return rc;
}

int learn_auto_fit(const Variant *v, LearnedSet **out, Error *e)
{
    *out = NULL;
    LearnData d = { .variant = *v };
    uint64_t tabled = 0;
    if (sample(v, &d.rows, &tabled, e) != 0) {
        learn_rows_free(&d.rows);
        return -1;
    }
    LearnFitSpec spec = { .without = without_mask(), .lambdas = LEARN_DEFAULT_LAMBDAS };
    LearnFit f;
    int rc = learn_fit(&d, 1, &spec, &f, e);
    if (rc == 0) {
        char about[1024];
        snprintf(about, sizeof about, "learned=auto: %llu positions (%llu from the tables), "
                 "%llu fitted, lambda %.4g, test error %.3f seeds (tuned %.3f); %s",
                 (unsigned long long)d.rows.n, (unsigned long long)tabled,
                 (unsigned long long)f.sums[LEARN_SPLIT_FIT].n, f.lambda,
                 learn_fit_rms(&f, LEARN_SPLIT_TEST), learn_fit_tuned_rms(&f, LEARN_SPLIT_TEST),
                 learn_auto_inputs());
        if (!(*out = learned_set_make("auto", &f.layout, f.w, about)))
            rc = error_set(e, "out of memory");
        learn_fit_free(&f);
    }
    learn_rows_free(&d.rows);
    return rc < 0 ? -1 : 0;
}

void learn_auto_install(void)
{
    learned_auto_install(learn_auto_fit, learn_auto_inputs());
}
