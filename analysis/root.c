/* root.c: the root design's estimates (root.h): each line's advantage, the minimax over the
 * line tree, naive and cross-fitted, and the simultaneous bounds on the minimax of the
 * lines' true values, with GSL's t distribution. */
#include "root.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void root_add(RootLine *l, int fold, double x)
{
    RootSum *s = &l->fold[fold];
    s->n++;
    s->sum += x;
    s->sumsq += x * x;
}

/* Two sums together. */
static RootSum sum_merge(RootSum a, RootSum b)
{
    return (RootSum){ a.n + b.n, a.sum + b.sum, a.sumsq + b.sumsq };
}

static double sum_mean(RootSum s)
{
    return s.n ? s.sum / (double)s.n : NAN;
}

/* The sample variance of the values summed (divisor n - 1), never below 0 (the sums'
 * rounding); NaN with fewer than 2. */
static double sum_variance(RootSum s)
{
    if (s.n < 2)
        return NAN;
    double m = s.sum / (double)s.n;
    return fmax(0.0, (s.sumsq - (double)s.n * m * m) / (double)(s.n - 1));
}

Estimate root_sum_estimate(RootSum s, double confidence, bool *degenerate)
{
    double m = sum_mean(s), var = sum_variance(s);
    *degenerate = false;
    if (s.n == 0)
        return (Estimate){ NAN, { -1.0, 1.0 } };
    /* Per-game advantages are multiples of 1/4: a spread below that's rounding is none. */
    if (s.n == 1 || var < 1e-12) {
        *degenerate = true;
        return (Estimate){ m, all_equal_mean_interval(m, s.n, -1.0, 1.0, confidence) };
    }
    double half = gsl_cdf_tdist_Qinv((1.0 - confidence) / 2.0, (double)s.n - 1) *
                  sqrt(var / (double)s.n);
    return (Estimate){ m, { fmax(-1.0, m - half), fmin(1.0, m + half) } };
}

/* Lines in the tree's order: by their moves, a shorter line before the lines it begins. The
 * lines are sorted by address (no shared state, so two threads may sort at once). */
static int line_order(const void *x, const void *y)
{
    const RootLine *a = *(const RootLine *const *)x, *b = *(const RootLine *const *)y;
    for (int k = 0; k < a->n_moves && k < b->n_moves; k++)
        if (a->moves[k] != b->moves[k])
            return (a->moves[k] > b->moves[k]) - (a->moves[k] < b->moves[k]);
    return (a->n_moves > b->n_moves) - (a->n_moves < b->n_moves);
}

int root_tree_order(const RootLine *lines, int n, int *idx)
{
    const RootLine **p = malloc((size_t)(n > 0 ? n : 1) * sizeof *p);
    if (!p)
        return -1;
    for (int i = 0; i < n; i++)
        p[i] = &lines[i];
    qsort(p, (size_t)n, sizeof *p, line_order);
    for (int i = 0; i < n; i++)
        idx[i] = (int)(p[i] - lines);
    free(p);
    return 0;
}

int root_minimax_line(const RootLine *l, const int *idx, int lo, int hi, int k,
                      const double *value)
{
    if (l[idx[lo]].n_moves <= k)   /* in tree order a line ending here comes first */
        return hi - lo == 1 ? (isnan(value[idx[lo]]) ? -1 : idx[lo])
                            : root_minimax_line(l, idx, lo + 1, hi, k, value);
    int best = -1;
    bool south = l[idx[lo]].mover[k] == 0;
    for (int g = lo; g < hi;) {
        int end = g + 1;
        while (end < hi && l[idx[end]].moves[k] == l[idx[g]].moves[k])
            end++;
        int c = root_minimax_line(l, idx, g, end, k + 1, value);
        if (c >= 0 && (best < 0 || (south ? value[c] > value[best] : value[c] < value[best])))
            best = c;
        g = end;
    }
    return best;
}

/* The held-out estimate: the line chosen on each half valued on the other, averaged, with
 * Welch's t interval (the two halves' pairs are disjoint, so the two values independent
 * given the choices). */
static void held_out(RootAnalysis *r, const int *idx, double *value, double confidence)
{
    double v[ROOT_FOLDS], var[ROOT_FOLDS];
    uint64_t n[ROOT_FOLDS];
    bool ok = true;
    for (int f = 0; f < ROOT_FOLDS; f++) {
        for (int i = 0; i < r->nlines; i++)
            value[i] = sum_mean(r->lines[i].fold[f]);
        r->held_line[f] = root_minimax_line(r->lines, idx, 0, r->nlines, 0, value);
        if (r->held_line[f] < 0 || r->lines[r->held_line[f]].fold[1 - f].n == 0) {
            ok = false;
            continue;
        }
        RootSum other = r->lines[r->held_line[f]].fold[1 - f];
        v[f] = sum_mean(other);
        n[f] = other.n;
        var[f] = other.n > 1 ? sum_variance(other) / (double)other.n : NAN;
    }
    r->same_choice = r->held_line[0] >= 0 && r->held_line[0] == r->held_line[1];
    r->held_out = (Estimate){ NAN, { -1.0, 1.0 } };
    r->held_out_se = NAN;
    if (!ok)
        return;
    double m = (v[0] + v[1]) / 2, s2 = (var[0] + var[1]) / 4;
    r->held_out.value = m;
    if (isnan(s2))
        return;
    if (s2 < 1e-12) {
        r->held_out_degenerate = true;
        r->held_out_se = 0;
        r->held_out.ci = all_equal_mean_interval(m, n[0] + n[1], -1.0, 1.0, confidence);
        return;
    }
    /* Welch-Satterthwaite's degrees of freedom for the average of two independent means. */
    double df = s2 * s2 / (var[0] * var[0] / 16 / ((double)n[0] - 1) +
                           var[1] * var[1] / 16 / ((double)n[1] - 1));
    double se = sqrt(s2), half = gsl_cdf_tdist_Qinv((1.0 - confidence) / 2.0, df) * se;
    r->held_out_se = se;
    r->held_out.ci = (Interval){ fmax(-1.0, m - half), fmin(1.0, m + half) };
}

/* The most lines one side's strategy leaves open among idx[lo .. hi), which share their
 * first k plies, the other side free: at the plies of `fixed` (0 South, 1 North) one child
 * is followed (the one leaving the most), at the other side's every child, summed. The
 * tree is walked as root_minimax_line walks it. */
static int open_lines(const RootLine *l, const int *idx, int lo, int hi, int k, int fixed)
{
    if (l[idx[lo]].n_moves <= k)
        return hi - lo == 1 ? 1 : open_lines(l, idx, lo + 1, hi, k, fixed);
    bool fixed_moves = l[idx[lo]].mover[k] == fixed;
    int count = 0;
    for (int g = lo; g < hi;) {
        int end = g + 1;
        while (end < hi && l[idx[end]].moves[k] == l[idx[g]].moves[k])
            end++;
        int c = open_lines(l, idx, g, end, k + 1, fixed);
        count = fixed_moves ? (c > count ? c : count) : count + c;
        g = end;
    }
    return count;
}

/* The simultaneous bounds on the minimax of the lines' true values (root.h): each line's
 * one-sided bounds at Sidak's level for the union each side's failure lies in, their
 * minimax. The lower bound fails only through the lines North's true strategy leaves open
 * (North fixed), the upper through South's (South fixed). */
static void simultaneous(RootAnalysis *r, const int *idx, double *value, double confidence)
{
    double tail = (1.0 - confidence) / 2.0;
    for (int side = 0; side < 2; side++) {
        int k = open_lines(r->lines, idx, 0, r->nlines, 0, side == 0 ? 1 : 0);
        double a = -expm1(log1p(-tail) / k);   /* 1 - (1 - tail)^(1/k), without cancelling */
        r->minimax_lines[side] = k;
        r->minimax_level[side] = 1.0 - a;
        for (int i = 0; i < r->nlines; i++) {
            RootLine *l = &r->lines[i];
            bool degenerate;
            Interval ci = root_sum_estimate(sum_merge(l->fold[0], l->fold[1]), 1.0 - 2.0 * a,
                                            &degenerate).ci;
            value[i] = side == 0 ? ci.lo : ci.hi;
        }
        int c = root_minimax_line(r->lines, idx, 0, r->nlines, 0, value);
        r->minimax_line[side] = c;
        if (side == 0)
            r->minimax.lo = value[c];
        else
            r->minimax.hi = value[c];
    }
}

/* South's first moves, each valued by the naive minimax of the lines below it. */
static int first_moves(RootAnalysis *r, const int *idx, const double *value)
{
    r->first = malloc((size_t)r->nlines * sizeof *r->first);
    if (!r->first)
        return -1;
    for (int g = 0; g < r->nlines;) {
        const RootLine *l = r->lines;
        int end = g + 1;
        if (l[idx[g]].n_moves == 0) {   /* the start itself: no first move */
            g = end;
            continue;
        }
        while (end < r->nlines && l[idx[end]].n_moves > 0 &&
               l[idx[end]].moves[0] == l[idx[g]].moves[0])
            end++;
        RootFirst *x = &r->first[r->nfirst++];
        x->move = l[idx[g]].moves[0];
        x->line = root_minimax_line(l, idx, g, end, 1, value);
        x->advantage = x->line >= 0 ? l[x->line].advantage : (Estimate){ NAN, { -1.0, 1.0 } };
        g = end;
    }
    return 0;
}

int root_estimate(RootAnalysis *r, double confidence)
{
    r->naive_line = -1;
    r->naive = (Estimate){ NAN, { -1.0, 1.0 } };
    r->held_line[0] = r->held_line[1] = -1;
    r->held_out = r->naive;
    r->held_out_se = NAN;
    r->minimax = (Interval){ -1.0, 1.0 };
    r->minimax_line[0] = r->minimax_line[1] = -1;
    r->minimax_lines[0] = r->minimax_lines[1] = 0;
    r->minimax_level[0] = r->minimax_level[1] = NAN;
    if (r->nlines == 0)
        return 0;
    int *idx = malloc((size_t)r->nlines * sizeof *idx);
    double *value = malloc((size_t)r->nlines * sizeof *value);
    if (!idx || !value) {
        free(idx);
        free(value);
        return -1;
    }
    for (int i = 0; i < r->nlines; i++) {
        RootLine *l = &r->lines[i];
        RootSum all = sum_merge(l->fold[0], l->fold[1]);
        l->pairs = all.n;
        l->advantage = root_sum_estimate(all, confidence, &l->degenerate);
        value[i] = l->advantage.value;
        idx[i] = i;
    }
    if (root_tree_order(r->lines, r->nlines, idx) != 0) {
        free(idx);
        free(value);
        return -1;
    }
    r->naive_line = root_minimax_line(r->lines, idx, 0, r->nlines, 0, value);
    if (r->naive_line >= 0)
        r->naive = r->lines[r->naive_line].advantage;
    int rc = first_moves(r, idx, value);
    if (rc == 0) {
        held_out(r, idx, value, confidence);
        simultaneous(r, idx, value, confidence);
    }
    free(idx);
    free(value);
    return rc;
}

void root_free(RootAnalysis *r)
{
    free(r->lines);
    free(r->first);
    memset(r, 0, sizeof *r);
}
