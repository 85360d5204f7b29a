/* learn_fit.c: the learned evaluation's fit (learn_fit.h), shared by `anywoli learn fit` and
 * learned=auto. */
#include "learn_fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"

#define LEARN_SPLITS 5

int learn_split_of(const LearnRow *r)
{
    int m = (int)(r->game % LEARN_SPLITS);
    return m == 3 ? LEARN_SPLIT_CHOOSE : m == 4 ? LEARN_SPLIT_TEST : LEARN_SPLIT_FIT;
}

double learn_target_of(const LearnRow *r, bool mean)
{
    double label = mean && r->source == LEARN_SEARCH ? (r->label + r->label_prev) / 2.0
                                                     : r->label;
    int s = r->side;
    return label / EVAL_SCALE - (r->store[s] - r->store[!s]);
}

int learn_row_columns(const FeatureLayout *l, const Variant *v, const Position *p, uint32_t *col,
                      double *x)
{
    FeatureList f;
    features_of(l, v, p, &f);
    int k;
    int32_t a, b;
    features_phase(l, p->left, &k, &a, &b);
    double wa = (double)a / (a + b), wb = (double)b / (a + b);
    int n = 0;
    for (int i = 0; i < f.n; i++) {
        uint32_t base = (uint32_t)f.index[i] * FEATURE_KNOTS + (uint32_t)k;
        if (wa > 0) {
            col[n] = base;
            x[n++] = f.value[i] * wa;
        }
        if (wb > 0) {
            col[n] = base + 1;
            x[n++] = f.value[i] * wb;
        }
    }
    return n;
}

static void scale_add(LearnScaleSums *s, double t, double y)
{
    s->tt += t * t;
    s->ty += t * y;
    s->yy += y * y;
    s->n++;
}

double learn_scale_rms(const LearnScaleSums *s, double a)
{
    if (!s->n)
        return 0;
    double mse = (a * a * s->tt - 2 * a * s->ty + s->yy) / (double)s->n;
    return sqrt(mse > 0 ? mse : 0);
}

/* One pass: every row's columns into its split's sums, and the tuned evaluation's. */
static void gather(const LearnData *files, int n_files, bool mean, LearnFit *g)
{
    EvalWeights tw;
    eval_default(&tw);
    eval_use_tuned(&tw);
    Evaluator tuned;
    eval_prepare(&tw, &tuned);
    uint32_t col[2 * FEATURE_MAX_ACTIVE];
    double x[2 * FEATURE_MAX_ACTIVE];
    for (int i = 0; i < n_files; i++) {
        for (uint64_t j = 0; j < files[i].rows.n; j++) {
            const LearnRow *r = &files[i].rows.row[j];
            Variant v;
            Position p;
            learn_row_position(&files[i].variant, r, &v, &p);
            int split = learn_split_of(r), nnz = learn_row_columns(&g->layout, &v, &p, col, x);
            double y = learn_target_of(r, mean), store = p.store[p.side] - p.store[!p.side];
            ridge_sums_add(&g->sums[split], col, x, nnz, y);
            double t = (double)eval_position(&tuned, &v, &p) / EVAL_SCALE;
            scale_add(&g->tuned[split], t, y + store);
            scale_add(&g->positional[split], t - store, y);
            g->tabled[split] += r->source == LEARN_TABLES;
        }
    }
}

int learn_fit(const LearnData *files, int n, const LearnFitSpec *spec, LearnFit *f, Error *e)
{
    memset(f, 0, sizeof *f);
    features_layout(&files[0].variant, &f->layout);
    f->layout.groups &= ~spec->without;
    f->k = (size_t)f->layout.n * FEATURE_KNOTS;

    /* Step 1. The normal equations of each split, and the tuned evaluation's sums. */
    for (int s = 0; s < LEARN_SPLIT_NB; s++)
        if (ridge_sums_init(&f->sums[s], f->k) != 0)
            return learn_fit_free(f), error_set(e, "out of memory for %zu columns", f->k);
    gather(files, n, spec->mean, f);
    for (int s = 0; s < LEARN_SPLIT_NB; s++)
        if (f->sums[s].n == 0) {
            learn_fit_free(f);
            error_set(e, "too few positions: a split of games (index mod 5: 0-2 fitted, 3 "
                      "choose lambda, 4 test) has none; sample more games");
            return -2;
        }
    const LearnScaleSums *tu = &f->tuned[LEARN_SPLIT_FIT], *po = &f->positional[LEARN_SPLIT_FIT];
    f->a_tuned = tu->tt > 0 ? tu->ty / tu->tt : 0;
    f->a_pos = po->tt > 0 ? po->ty / po->tt : 0;

    /* Step 2. The fit at each lambda of the grid, the best on the choosing split. */
    if (ridge_prepare(&f->sums[LEARN_SPLIT_FIT], &f->fit, e) != 0)
        return learn_fit_free(f), -1;
    double *w = malloc(f->k * sizeof *w), *grid = malloc((size_t)spec->lambdas * sizeof *grid);
    f->w = malloc(f->k * sizeof *f->w);
    if (!w || !grid || !f->w) {
        free(w);
        free(grid);
        learn_fit_free(f);
        return error_set(e, "out of memory");
    }
    ridge_lambdas(f->fit, (size_t)spec->lambdas, grid);
    int n_grid = spec->fixed_lambda ? 1 : spec->lambdas;
    if (spec->fixed_lambda)
        grid[0] = spec->lambda;
    double best = INFINITY;
    int rc = 0;
    f->lambda = grid[0];
    for (int i = 0; rc == 0 && i < n_grid; i++) {
        if (ridge_solve(f->fit, grid[i], w, e) != 0) {
            rc = -1;
            break;
        }
        double mse = ridge_mse(&f->sums[LEARN_SPLIT_CHOOSE], w);
        if (mse < best || i == 0) {
            best = mse;
            f->lambda = grid[i];
            memcpy(f->w, w, f->k * sizeof *w);
        }
    }
    free(w);
    free(grid);
    if (rc != 0)
        learn_fit_free(f);
    return rc;
}

void learn_fit_free(LearnFit *f)
{
    for (int s = 0; s < LEARN_SPLIT_NB; s++)
        ridge_sums_free(&f->sums[s]);
    ridge_free(f->fit);
    free(f->w);
    f->fit = NULL;
    f->w = NULL;
}

double learn_fit_rms(const LearnFit *f, int split)
{
    return sqrt(ridge_mse(&f->sums[split], f->w));
}

double learn_fit_tuned_rms(const LearnFit *f, int split)
{
    return learn_scale_rms(&f->tuned[split], f->a_tuned);
}
