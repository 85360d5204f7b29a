/* analyze_atlas.c: the variant atlas (analyze_atlas.h): self-play jobs grouped by rung and
 * by everything but the board and the convention, each group over two boards or more laid
 * out as a grid per convention, its cells ranked by fairness and checked against the exact
 * values of the starts. */
#include "analyze_atlas.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "start_values.h"

/* ---- the grouping ---------------------------------------------------------------------- */

/* Whether two variants agree in every parameter but holes, seeds and final_four. */
static bool same_but_board(const Variant *x, const Variant *y)
{
    for (int p = 0; p < VP_NB; p++) {
        if (p == VP_HOLES || p == VP_SEEDS || p == VP_FINAL_FOUR)
            continue;
        if (variant_get(x, (VariantParam)p) != variant_get(y, (VariantParam)p))
            return false;
    }
    return true;
}

/* Whether two jobs ran the same adaptive root design (or neither ran one). */
static bool same_root_design(const JobAnalysis *x, const JobAnalysis *y)
{
    const StoredRace *a = &x->stored_race, *b = &y->stored_race;
    if (a->has != b->has)
        return false;
    return !a->has || (a->rule.round_pairs == b->rule.round_pairs &&
                       a->rule.halfwidth == b->rule.halfwidth &&
                       a->rule.confidence == b->rule.confidence);
}

/* Whether two self-play jobs belong to one atlas: the same agent spec (the rung), openings
 * and their order, root design, and variant but for the board and the convention. */
static bool same_atlas(const JobAnalysis *x, const JobAnalysis *y)
{
    return strcmp(x->agent_a, y->agent_a) == 0 &&
           strcmp(x->openings_spec, y->openings_spec) == 0 &&
           x->openings_order == y->openings_order && same_root_design(x, y) &&
           same_but_board(&x->variant, &y->variant);
}

/* Each self-play job's group (the first job of its group), -1 for a match: into group. */
static void group_jobs(const Analysis *a, int *group)
{
    for (int i = 0; i < a->njobs; i++) {
        group[i] = -1;
        if (a->jobs[i].two_agents)
            continue;
        group[i] = i;
        for (int k = 0; k < i; k++) {
            if (group[k] == k && same_atlas(&a->jobs[k], &a->jobs[i])) {
                group[i] = k;
                break;
            }
        }
    }
}

/* Whether the jobs of group g cover two boards or more. */
static bool group_is_atlas(const Analysis *a, const int *group, int g)
{
    const Variant *first = &a->jobs[g].variant;
    for (int i = g + 1; i < a->njobs; i++) {
        const Variant *v = &a->jobs[i].variant;
        if (group[i] == g && (v->holes != first->holes || v->seeds != first->seeds))
            return true;
    }
    return false;
}

/* ---- the grid -------------------------------------------------------------------------- */

/* Add x to the ascending set of n values at set (room for it), unless it is there. */
static void set_add(int *set, int *n, int x)
{
    int i = 0;
    while (i < *n && set[i] < x)
        i++;
    if (i < *n && set[i] == x)
        return;
    memmove(set + i + 1, set + i, (size_t)(*n - i) * sizeof *set);
    set[i] = x;
    (*n)++;
}

/* The index of x in a set of n values (x is in it). */
static int set_index(const int *set, int n, int x)
{
    int i = 0;
    while (i < n - 1 && set[i] != x)
        i++;
    return i;
}

/* The rows, columns and conventions of the atlas of group g; -1 when out of memory. */
static int atlas_axes(const Analysis *a, const int *group, int g, Atlas *t)
{
    t->holes = malloc((size_t)a->njobs * sizeof *t->holes);
    t->seeds = malloc((size_t)a->njobs * sizeof *t->seeds);
    if (!t->holes || !t->seeds)
        return -1;
    bool conv[CONV_NB] = { false };
    for (int i = g; i < a->njobs; i++) {
        if (group[i] != g)
            continue;
        const Variant *v = &a->jobs[i].variant;
        set_add(t->holes, &t->nholes, v->holes);
        set_add(t->seeds, &t->nseeds, v->seeds);
        conv[v->final_four] = true;
    }
    for (int c = 0; c < CONV_NB; c++)
        if (conv[c])
            t->conv[t->nconv++] = c;
    return 0;
}

/* Whether job j's answer is about the start of its board: played from the start, or its
 * root design (South choosing its first plies from the start). An answer over a book or
 * random openings is about those positions, which the start's exact value does not judge. */
static bool answers_the_start(const JobAnalysis *j)
{
    return strcmp(j->openings_spec, "start") == 0 || j->has_root || j->has_race;
}

int atlas_interval_sign(Estimate x)
{
    return x.ci.lo > 0 ? 1 : x.ci.hi < 0 ? -1 : 0;
}

/* An estimate's verdict against an exact value (analyze_atlas.h). */
static AtlasVerdict verdict_of(Estimate x, int exact)
{
    int sign = atlas_interval_sign(x), want = exact > 0 ? 1 : exact < 0 ? -1 : 0;
    if (sign == want)
        return ATLAS_AGREES;
    return sign == 0 ? ATLAS_UNDECIDED : ATLAS_CONTRADICTS;
}

/* The cell of job i: its answer, the start's exact value where known, the verdict. */
static void cell_fill(const Analysis *a, int i, AtlasCell *c)
{
    const JobAnalysis *j = &a->jobs[i];
    JobAnswer w = analyze_job_answer(j);
    c->job = i;
    c->answer = w.value;
    const StartValue *s = answers_the_start(j) ? start_value_of(&j->variant) : NULL;
    c->has_exact = s != NULL;
    c->exact = s ? s->value : 0;
    bool estimated = !isnan(w.value.value) && !isnan(w.value.ci.lo) && !isnan(w.value.ci.hi);
    c->verdict = s && estimated ? verdict_of(w.value, s->value) : ATLAS_NO_EXACT;
}

/* Every cell of the atlas of group g: a board under a convention, the first job there. */
static int atlas_cells(const Analysis *a, const int *group, int g, Atlas *t)
{
    size_t n = (size_t)t->nconv * (size_t)t->nholes * (size_t)t->nseeds;
    t->cells = malloc(n * sizeof *t->cells);
    if (!t->cells)
        return -1;
    for (int k = 0; k < t->nconv; k++)
        for (int h = 0; h < t->nholes; h++)
            for (int s = 0; s < t->nseeds; s++)
                *atlas_cell(t, k, h, s) = (AtlasCell){ -1, t->holes[h], t->seeds[s], t->conv[k],
                                                       { NAN, { NAN, NAN } }, false, 0,
                                                       ATLAS_NO_EXACT };
    for (int i = g; i < a->njobs; i++) {
        if (group[i] != g)
            continue;
        const Variant *v = &a->jobs[i].variant;
        AtlasCell *c = atlas_cell(t, set_index(t->conv, t->nconv, v->final_four),
                                  set_index(t->holes, t->nholes, v->holes),
                                  set_index(t->seeds, t->nseeds, v->seeds));
        if (c->job < 0)
            cell_fill(a, i, c);
    }
    return 0;
}

/* The counts of the check, per convention. */
static void atlas_check(Atlas *t)
{
    for (int k = 0; k < t->nconv; k++) {
        AtlasCheck *x = &t->check[k];
        *x = (AtlasCheck){ 0, 0, 0, 0 };
        for (int h = 0; h < t->nholes; h++) {
            for (int s = 0; s < t->nseeds; s++) {
                AtlasVerdict v = atlas_cell(t, k, h, s)->verdict;
                x->exact += v != ATLAS_NO_EXACT;
                x->agrees += v == ATLAS_AGREES;
                x->undecided += v == ATLAS_UNDECIDED;
                x->contradicts += v == ATLAS_CONTRADICTS;
            }
        }
    }
}

/* ---- the fairest variants -------------------------------------------------------------- */

/* How far from even a cell's advantage may be: the larger of |lo| and |hi|. */
static double cell_reach(const AtlasCell *c)
{
    return fmax(fabs(c->answer.ci.lo), fabs(c->answer.ci.hi));
}

/* Whether cell x is fairer than cell y: an interval that holds 0 before one that does not,
 * then the smaller reach (the furthest from even the advantage may be), then the smaller
 * |value|; ties in atlas order. */
static bool atlas_fairer(const AtlasCell *x, int ix, const AtlasCell *y, int iy)
{
    bool zx = atlas_interval_sign(x->answer) == 0, zy = atlas_interval_sign(y->answer) == 0;
    if (zx != zy)
        return zx;
    if (cell_reach(x) != cell_reach(y))
        return cell_reach(x) < cell_reach(y);
    if (fabs(x->answer.value) != fabs(y->answer.value))
        return fabs(x->answer.value) < fabs(y->answer.value);
    return ix < iy;
}

/* The fairest cells with an estimate, at most ATLAS_FAIREST, by insertion into t->fair. */
static int atlas_fairest(Atlas *t)
{
    int n = t->nconv * t->nholes * t->nseeds;
    t->fair = malloc(ATLAS_FAIREST * sizeof *t->fair);
    if (!t->fair)
        return -1;
    for (int i = 0; i < n; i++) {
        const AtlasCell *c = &t->cells[i];
        if (c->job < 0 || isnan(c->answer.ci.lo) || isnan(c->answer.ci.hi))
            continue;
        int at = t->nfair;
        while (at > 0 && atlas_fairer(c, i, &t->cells[t->fair[at - 1]], t->fair[at - 1]))
            at--;
        if (at >= ATLAS_FAIREST)
            continue;
        int keep = t->nfair < ATLAS_FAIREST ? t->nfair : ATLAS_FAIREST - 1;
        memmove(t->fair + at + 1, t->fair + at, (size_t)(keep - at) * sizeof *t->fair);
        t->fair[at] = i;
        t->nfair = keep + 1;
    }
    return 0;
}

/* ---- the ratings ----------------------------------------------------------------------- */

/* Whether two variants have the same rules of play but for holes, seeds and final_four (a
 * ply cap may differ: a rating is about the players, not where games are cut). */
static bool same_play_but_board(const Variant *x, const Variant *y)
{
    for (int p = 0; p < VP_NB; p++) {
        if (p == VP_HOLES || p == VP_SEEDS || p == VP_FINAL_FOUR || !variant_params[p].play)
            continue;
        if (variant_get(x, (VariantParam)p) != variant_get(y, (VariantParam)p))
            return false;
    }
    return true;
}

/* The first match on board (holes, seeds) under convention ff whose agent A plays the rung
 * of the atlas that begins at job g, under the same rules but for the board and convention;
 * -1 for none. A cell's rating is its own convention's: a player's strength against the
 * same opponent differs from one convention to another. */
static int rating_job(const Analysis *a, int g, int ff, int holes, int seeds)
{
    const JobAnalysis *rung = &a->jobs[g];
    for (int i = 0; i < a->njobs; i++) {
        const JobAnalysis *j = &a->jobs[i];
        if (j->two_agents && strcmp(j->agent_a, rung->agent_a) == 0 &&
            (int)j->variant.final_four == ff && j->variant.holes == holes &&
            j->variant.seeds == seeds && same_play_but_board(&j->variant, &rung->variant))
            return i;
    }
    return -1;
}

/* The rung's rating in each cell of the atlas whose board and convention have a match of
 * it; -1 when out of memory. */
static int atlas_ratings(const Analysis *a, Atlas *t)
{
    t->ratings = malloc(((size_t)t->nconv * (size_t)t->nholes * (size_t)t->nseeds + 1)
                        * sizeof *t->ratings);
    if (!t->ratings)
        return -1;
    for (int k = 0; k < t->nconv; k++) {
        for (int h = 0; h < t->nholes; h++) {
            for (int s = 0; s < t->nseeds; s++) {
                int i = rating_job(a, t->first, t->conv[k], t->holes[h], t->seeds[s]);
                if (i >= 0)
                    t->ratings[t->nratings++] = (AtlasRating){
                        t->conv[k], t->holes[h], t->seeds[s], i,
                        analyze_job_answer(&a->jobs[i]).value };
            }
        }
    }
    return 0;
}

/* ---- the atlases ----------------------------------------------------------------------- */

static void atlas_free(Atlas *t)
{
    free(t->holes);
    free(t->seeds);
    free(t->cells);
    free(t->fair);
    free(t->ratings);
}

/* The atlas of group g into t; -1 when out of memory. */
static int atlas_make(const Analysis *a, const int *group, int g, Atlas *t)
{
    memset(t, 0, sizeof *t);
    t->first = g;
    variant_describe_without(&a->jobs[g].variant,
                             VP_BIT(VP_HOLES) | VP_BIT(VP_SEEDS) | VP_BIT(VP_FINAL_FOUR),
                             t->variant, sizeof t->variant);
    if (atlas_axes(a, group, g, t) != 0 || atlas_cells(a, group, g, t) != 0 ||
        atlas_fairest(t) != 0 || atlas_ratings(a, t) != 0)
        return -1;
    atlas_check(t);
    return 0;
}

int analyze_atlas_build(Analysis *a)
{
    a->natlas = 0;
    a->atlas = NULL;
    int *group = malloc((a->njobs ? (size_t)a->njobs : 1) * sizeof *group);
    if (!group)
        return -1;
    group_jobs(a, group);
    int rc = 0;
    for (int g = 0; g < a->njobs && rc == 0; g++) {
        if (group[g] != g || !group_is_atlas(a, group, g))
            continue;
        Atlas *grown = realloc(a->atlas, ((size_t)a->natlas + 1) * sizeof *grown);
        if (!grown) {
            rc = -1;
            break;
        }
        a->atlas = grown;
        rc = atlas_make(a, group, g, &a->atlas[a->natlas]);
        a->natlas++;   /* freed whole by analyze_atlas_free, made or not */
    }
    free(group);
    return rc;
}

void analyze_atlas_free(Analysis *a)
{
    for (int t = 0; t < a->natlas; t++)
        atlas_free(&a->atlas[t]);
    free(a->atlas);
    a->atlas = NULL;
    a->natlas = 0;
}

const char *atlas_verdict_name(AtlasVerdict v)
{
    static const char *const names[] = { NULL, "agrees", "undecided", "contradicts" };
    return names[v];
}

void atlas_describe(const Analysis *a, const Atlas *t, char *buf, size_t len)
{
    const JobAnalysis *j = &a->jobs[t->first];
    char race[64] = "";
    if (j->stored_race.has) {
        char rule[48];
        root_rule_text(&j->stored_race.rule, rule, sizeof rule);
        snprintf(race, sizeof race, "; root_design %s", rule);
    }
    snprintf(buf, len, "%s; openings %s%s; %s", j->label_a, j->openings_spec, race, t->variant);
}

const char *atlas_cell_figure(const AtlasCell *c, char *buf, size_t len)
{
    if (c->job < 0 || isnan(c->answer.value))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%+.0f [%+.0f,%+.0f]", c->answer.value, c->answer.ci.lo,
                 c->answer.ci.hi);
    return buf;
}

const char *atlas_cell_exact(const AtlasCell *c, char *buf, size_t len)
{
    if (!c->has_exact)
        snprintf(buf, len, "%s", "");
    else if (c->exact == 0)
        snprintf(buf, len, "=0");
    else
        snprintf(buf, len, "=%+d", c->exact);
    return buf;
}
