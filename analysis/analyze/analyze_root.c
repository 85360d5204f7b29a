/* analyze_root.c: a self-play job played from every line of N plies (all:N) analysed by
 * the root design (root.h): its lines with who plays each ply, found by replaying them from
 * the start, and its pairs by line and half, from the pairs the job counted. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "openings.h"

/* Whether job j is one the root design applies to: self-play from every line of N plies. */
static bool root_design_job(const JobAnalysis *j)
{
    return !j->two_agents && strncmp(j->openings_spec, "all:", 4) == 0;
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
        opening_root_line(&j->variant, &set.list[i], i, &r->lines[i]);
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

int analyze_race_begin(JobAnalysis *j)
{
    if (!j->stored_race.has)
        return 0;
    OpeningSet set;
    Error e;
    /* The driver played the list in this order: a pair's opening is its index in it. */
    if (openings_load(&set, j->openings_spec, &j->variant, &e) != 0 || set.count <= 0 ||
        set.count > OPENINGS_MAX_COUNT ||
        openings_set_order(&set, j->openings_order, (uint64_t)j->seed, j->job_index, &e) != 0) {
        openings_free(&set);
        j->race_fault = true;
        return 0;
    }
    RootLine *lines = malloc((size_t)set.count * sizeof *lines);
    if (!lines) {
        openings_free(&set);
        return -1;
    }
    for (int64_t i = 0; i < set.count; i++)
        opening_root_line(&j->variant, &set.list[i], i, &lines[i]);
    int rc = root_race_init(&j->race, &j->stored_race.rule, lines, (int)set.count);
    free(lines);
    openings_free(&set);
    j->has_race = rc == 0;
    return rc;
}

int analyze_race_pair(JobAnalysis *j, const GameRecord *r, bool counted, double x)
{
    if (!j->has_race || j->race_fault)
        return 0;
    int rc = root_race_pair(&j->race, (int64_t)(r->game / 2), r->opening, counted, x);
    if (rc == ROOT_RACE_MISMATCH)
        j->race_fault = true;
    return rc < 0 ? -1 : 0;
}

const char *analyze_race_end_text(const JobAnalysis *j)
{
    if (j->race.stop == ROOT_STOP_HALFWIDTH)
        return "half-width reached";
    return (int64_t)j->rows >= j->games_planned ? "budget spent" : "not finished";
}

Estimate analyze_race_answer(const JobAnalysis *j)
{
    const RootRace *r = &j->race;
    if (!j->has_race || r->best < 0 || r->sum[r->best].n == 0)
        return (Estimate){ NAN, { NAN, NAN } };
    return (Estimate){ r->sum[r->best].sum / (double)r->sum[r->best].n, r->root };
}

bool analyze_race_agrees(const JobAnalysis *j)
{
    const StoredRace *s = &j->stored_race;
    const RootRace *r = &j->race;
    if (!j->has_race || j->race_fault)
        return false;
    if (s->stopped != (r->stop == ROOT_STOP_HALFWIDTH))
        return false;
    if (s->rounds == 0)   /* not stored: the job did not end */
        return true;
    if (s->rounds != r->round + 1)
        return false;
    for (int i = 0; i < s->rounds; i++)
        if (s->round_first[i] != r->round_first[i] || s->round_lines[i] != r->round_lines[i])
            return false;
    return true;
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
