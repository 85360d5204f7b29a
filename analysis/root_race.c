/* root_race.c: the adaptive root design (root_race.h): the schedule of a round, the
 * simultaneous intervals, their minimax up the tree of lines, the lines out and the stop. */
#include "root_race.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int root_rule_parse(const char *text, RootRule *rule, char *why, size_t len)
{
    char tail;
    int round_pairs;
    double halfwidth, confidence = 0.95;
    int n = sscanf(text, "%d , %lf , %lf %c", &round_pairs, &halfwidth, &confidence, &tail);
    if (n != 2 && n != 3) {
        snprintf(why, len, "\"%s\": expected ROUND_PAIRS,HALFWIDTH[,CONFIDENCE] (as \"4,10\" "
                 "or \"4,10,0.95\")", text);
        return -1;
    }
    if (round_pairs < 2 || round_pairs > 1000000) {
        snprintf(why, len, "ROUND_PAIRS %d is not from 2 to 1000000 (a line's interval needs "
                 "two pairs)", round_pairs);
        return -1;
    }
    if (!(halfwidth > 0 && halfwidth <= 100)) {
        snprintf(why, len, "HALFWIDTH %g is not above 0 and at most 100 (points per 100 games)",
                 halfwidth);
        return -1;
    }
    if (!(confidence > 0 && confidence < 1)) {
        snprintf(why, len, "CONFIDENCE %g is not between 0 and 1", confidence);
        return -1;
    }
    *rule = (RootRule){ round_pairs, halfwidth, confidence };
    return 0;
}

void root_rule_text(const RootRule *rule, char *buf, size_t len)
{
    snprintf(buf, len, "%d,%g,%g", rule->round_pairs, rule->halfwidth, rule->confidence);
}

/* Room for round r's entries; -1 when out of memory. */
static int rounds_room(RootRace *r, int round)
{
    if (round < r->rounds_cap)
        return 0;
    int cap = r->rounds_cap ? 2 * r->rounds_cap : 16;
    int64_t *first = realloc(r->round_first, (size_t)cap * sizeof *first);
    if (!first)
        return -1;
    r->round_first = first;
    int *lines = realloc(r->round_lines, (size_t)cap * sizeof *lines);
    if (!lines)
        return -1;
    r->round_lines = lines;
    r->rounds_cap = cap;
    return 0;
}

/* Begin round r->round at r->next_pair with the lines in. */
static int begin_round(RootRace *r)
{
    if (rounds_room(r, r->round) != 0)
        return -1;
    r->nin = 0;
    for (int i = 0; i < r->nlines; i++)
        if (r->out_round[i] < 0)
            r->in[r->nin++] = i;
    r->round_first[r->round] = r->next_pair;
    r->round_lines[r->round] = r->nin;
    r->round_end = r->next_pair + (int64_t)r->nin * r->rule.round_pairs;
    return 0;
}

int root_race_init(RootRace *r, const RootRule *rule, const RootLine *lines, int n)
{
    memset(r, 0, sizeof *r);
    r->rule = *rule;
    r->nlines = n;
    size_t k = (size_t)(n > 0 ? n : 1);
    r->lines = malloc(k * sizeof *r->lines);
    r->order = malloc(k * sizeof *r->order);
    r->sum = calloc(k, sizeof *r->sum);
    r->ci = malloc(k * sizeof *r->ci);
    r->node = malloc(k * sizeof *r->node);
    r->out_round = malloc(k * sizeof *r->out_round);
    r->in = malloc(k * sizeof *r->in);
    if (!r->lines || !r->order || !r->sum || !r->ci || !r->node || !r->out_round || !r->in) {
        root_race_free(r);
        return -1;
    }
    memcpy(r->lines, lines, (size_t)n * sizeof *lines);
    for (int i = 0; i < n; i++) {
        r->out_round[i] = -1;
        r->ci[i] = (Interval){ -1.0, 1.0 };
    }
    r->root = (Interval){ -1.0, 1.0 };
    r->best = -1;
    if (root_tree_order(r->lines, n, r->order) != 0 || begin_round(r) != 0) {
        root_race_free(r);
        return -1;
    }
    return 0;
}

int root_race_copy(RootRace *dst, const RootRace *src)
{
    if (root_race_init(dst, &src->rule, src->lines, src->nlines) != 0)
        return -1;
    size_t k = (size_t)src->nlines;
    memcpy(dst->sum, src->sum, k * sizeof *dst->sum);
    memcpy(dst->ci, src->ci, k * sizeof *dst->ci);
    memcpy(dst->out_round, src->out_round, k * sizeof *dst->out_round);
    memcpy(dst->in, src->in, k * sizeof *dst->in);
    if (rounds_room(dst, src->round) != 0) {
        root_race_free(dst);
        return -1;
    }
    memcpy(dst->round_first, src->round_first, (size_t)(src->round + 1) * sizeof *dst->round_first);
    memcpy(dst->round_lines, src->round_lines, (size_t)(src->round + 1) * sizeof *dst->round_lines);
    dst->round = src->round;
    dst->next_pair = src->next_pair;
    dst->round_end = src->round_end;
    dst->nin = src->nin;
    dst->root = src->root;
    dst->best = src->best;
    dst->stop = src->stop;
    return 0;
}

void root_race_free(RootRace *r)
{
    free(r->lines);
    free(r->order);
    free(r->sum);
    free(r->ci);
    free(r->node);
    free(r->out_round);
    free(r->in);
    free(r->round_first);
    free(r->round_lines);
    memset(r, 0, sizeof *r);
}

int root_race_line(const RootRace *r, int64_t pair)
{
    if (r->stop || pair < r->next_pair || pair >= r->round_end || r->nin == 0)
        return -1;
    return r->in[(pair - r->round_first[r->round]) % r->nin];
}

int root_race_pair(RootRace *r, int64_t pair, int64_t line, bool counted, double x)
{
    if (pair != r->next_pair || line != root_race_line(r, pair))
        return ROOT_RACE_MISMATCH;
    if (counted) {
        RootSum *s = &r->sum[line];
        s->n++;
        s->sum += x;
        s->sumsq += x * x;
    }
    r->next_pair++;
    return r->next_pair == r->round_end ? root_race_decide(r) : 0;
}

/* Put every line of tree positions [lo, hi) that is still in out after round `round`. */
static void put_out(RootRace *r, int lo, int hi)
{
    for (int t = lo; t < hi; t++)
        if (r->out_round[r->order[t]] < 0)
            r->out_round[r->order[t]] = r->round;
}

/* The bounds of the node of tree positions [lo, hi), which share their first k plies, over
 * its lines still in, into *b; its children that cannot be its choice put out (and their
 * lines). False when no line below is in. As root_minimax_line, a line that ends at ply k
 * is the node's leaf when it is alone, and takes no part beside longer ones. */
static bool node_bounds(RootRace *r, int lo, int hi, int k, Interval *b)
{
    const RootLine *l = r->lines;
    const int *idx = r->order;
    if (l[idx[lo]].n_moves <= k) {
        if (hi - lo > 1)
            return node_bounds(r, lo + 1, hi, k, b);
        if (r->out_round[idx[lo]] >= 0)
            return false;
        *b = r->ci[idx[lo]];
        return true;
    }
    bool south = l[idx[lo]].mover[k] == 0, any = false;
    /* The children's bounds, kept at their first tree position (node[]), then the node's. */
    for (int g = lo; g < hi;) {
        int end = g + 1;
        while (end < hi && l[idx[end]].moves[k] == l[idx[g]].moves[k])
            end++;
        Interval c;
        bool in = node_bounds(r, g, end, k + 1, &c);
        r->node[g] = in ? c : (Interval){ NAN, NAN };
        if (in && !any)
            *b = c;
        else if (in && south)
            *b = (Interval){ fmax(b->lo, c.lo), fmax(b->hi, c.hi) };
        else if (in)
            *b = (Interval){ fmin(b->lo, c.lo), fmin(b->hi, c.hi) };
        any |= in;
        g = end;
    }
    for (int g = lo; any && g < hi;) {
        int end = g + 1;
        while (end < hi && l[idx[end]].moves[k] == l[idx[g]].moves[k])
            end++;
        Interval c = r->node[g];
        if (!isnan(c.lo) && (south ? c.hi < b->lo : c.lo > b->hi))
            put_out(r, g, end);
        g = end;
    }
    return any;
}

int root_race_decide(RootRace *r)
{
    if (r->nlines == 0)
        return 0;
    double delta = (1.0 - r->rule.confidence) /
                   ((double)r->nlines * (r->round + 1.0) * (r->round + 2.0));
    double *mean = malloc((size_t)r->nlines * sizeof *mean);
    if (!mean)
        return -1;
    for (int i = 0; i < r->nlines; i++) {
        /* A line out keeps the interval it went out with (it gets no more pairs). */
        bool degenerate;
        Estimate e = root_sum_estimate(r->sum[i], 1.0 - delta, &degenerate);
        if (r->out_round[i] < 0)
            r->ci[i] = e.ci;
        mean[i] = r->out_round[i] < 0 ? e.value : NAN;
    }
    Interval root;
    if (node_bounds(r, 0, r->nlines, 0, &root))
        r->root = root;
    r->best = root_minimax_line(r->lines, r->order, 0, r->nlines, 0, mean);
    free(mean);
    if (100.0 * (r->root.hi - r->root.lo) / 2.0 <= r->rule.halfwidth) {
        r->stop = ROOT_STOP_HALFWIDTH;
        return 0;
    }
    r->round++;
    return begin_round(r);
}
