/* analyze_root.c: a self-play job played from every line of N plies (all:N) analysed by
 * the root design (root.h): its lines with who plays each ply, found by replaying them from
 * the start, and its pairs by line and half, from the pairs the job counted. */
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "openings.h"

/* Whether job j is one the root design applies to: self-play from every line of N plies. */
static bool root_design_job(const JobAnalysis *j)
{
    return !j->two_agents && strncmp(j->openings_spec, "all:", 4) == 0;
}

/* Line l of the design from opening o: its moves, and the side to move before each (the
 * start replayed ply by ply: an extra move keeps the mover). */
static void root_line_from(const Variant *v, const Opening *o, int64_t index, RootLine *l)
{
    memset(l, 0, sizeof *l);
    l->opening = index;
    l->n_moves = o->n_moves < ROOT_MAX_PLIES ? o->n_moves : ROOT_MAX_PLIES;
    Opening prefix = *o;
    for (int k = 0; k < l->n_moves; k++) {
        Position p;
        prefix.n_moves = k;
        opening_position(v, &prefix, &p);
        l->moves[k] = o->moves[k];
        l->mover[k] = (int8_t)p.side;
    }
}

int analyze_root(JobAnalysis *j, const PairResult *pairs, size_t npairs)
{
    if (!root_design_job(j))
        return 0;
    OpeningSet set;
    Error e;
    /* all:N needs no file; a spec the driver accepted loads again, but a damaged file's
     * spec is only left without its root section. */
    if (openings_load(&set, j->openings_spec, &j->variant, &e) != 0 || set.count <= 0 ||
        set.count > OPENINGS_MAX_COUNT ||
        /* a pair's opening names a line of the list in the order the job played it */
        openings_set_order(&set, j->openings_order, (uint64_t)j->seed, j->job_index, &e) != 0) {
        openings_free(&set);
        return 0;
    }
    RootAnalysis *r = &j->root;
    r->lines = malloc((size_t)set.count * sizeof *r->lines);
    uint64_t *seen = calloc((size_t)set.count, sizeof *seen);
    if (!r->lines || !seen) {
        free(seen);
        openings_free(&set);
        return -1;
    }
    r->nlines = (int)set.count;
    for (int64_t i = 0; i < set.count; i++)
        root_line_from(&j->variant, &set.list[i], i, &r->lines[i]);
    openings_free(&set);
    /* The pairs in game order: a line's k-th pair goes to half k mod 2. */
    for (size_t k = 0; k < npairs; k++) {
        int64_t o = pairs[k].opening;
        if (o < 0 || o >= r->nlines)
            continue;
        root_add(&r->lines[o], (int)(seen[o]++ % ROOT_FOLDS),
                 ((int)pairs[k].south_minus_north - 2) / 2.0);
    }
    free(seen);
    j->has_root = true;
    return root_estimate(r, ANALYZE_CONFIDENCE);
}

bool analyze_agent_rating(const Analysis *a, const char *spec, double *rating, double *se)
{
    if (a->bt_status != BT_OK)
        return false;
    for (int i = 0; i < a->nagents; i++)
        if (strcmp(a->agents[i], spec) == 0) {
            *rating = a->bt.rating[i];
            *se = a->bt.rating_se[i];
            return true;
        }
    return false;
}
