/* analyze_atlas.h: the variant atlas of a results file. Self-play jobs that play one agent
 * spec (a rung) and agree in everything but holes, seeds and the convention (final_four)
 * map South's advantage over boards: an atlas is such a group that covers two boards or
 * more. Its cells are the jobs' answers (analyze_job_answer), set beside the exact value of
 * the board's start where agents/exact/start_values knows it; the cells are ranked by how
 * close to even they are (the fairest variants), and each estimate with an exact value is
 * checked against it in sign. The text (analyze_print), the JSON (analyze_json) and the
 * report (report_atlas) draw from the same Atlas. */
#ifndef ANYWOLI_ANALYZE_ATLAS_H
#define ANYWOLI_ANALYZE_ATLAS_H

#include <stdbool.h>
#include <stddef.h>

#include "stats.h"
#include "variant.h"

#define ATLAS_FAIREST 10          /* the fairest cells listed per atlas */

/* An estimate's sign against the exact value's: its interval above 0, below 0 or holding 0
 * against the exact value's sign (an exact 0 agrees with an interval that holds 0). */
typedef enum AtlasVerdict {
    ATLAS_NO_EXACT = 0,           /* no exact value known for the cell (or no estimate) */
    ATLAS_AGREES,                 /* the interval is on the exact value's side of 0 (holds 0
                                     for an exact 0) */
    ATLAS_UNDECIDED,              /* the interval holds 0, the exact value is not 0 */
    ATLAS_CONTRADICTS             /* the interval excludes 0, on the other side from the
                                     exact value, or away from an exact 0 */
} AtlasVerdict;

/* One board under one convention: its job and answer, the exact value and the verdict. */
typedef struct AtlasCell {
    int job;                      /* the job (an index of Analysis.jobs), -1 for none */
    int holes, seeds, conv;       /* the board and the convention (a FinalFour value) */
    Estimate answer;              /* the job's answer, points per 100 games */
    bool has_exact;               /* the start's exact value is known, and the job's answer
                                     is about the start (from the start, or its root) */
    int exact;                    /* South's exact margin from the start, seeds */
    AtlasVerdict verdict;
} AtlasCell;

/* The check of one convention's cells against the exact values. */
typedef struct AtlasCheck {
    int exact, agrees, undecided, contradicts;
} AtlasCheck;

/* The rung's rating on one board: a match on that board whose agent A is the rung's spec
 * (its answer, A's Elo over B, with its interval in the match's unit). */
typedef struct AtlasRating {
    int final_four, holes, seeds;  /* the cell rated (FinalFour, holes, seeds) */
    int job;                      /* the match (an index of Analysis.jobs) */
    Estimate elo;
} AtlasRating;

/* One atlas: a rung's boards under each convention. */
typedef struct Atlas {
    int first;                    /* its first job: the rung (agent_a, label_a), openings */
    char variant[160];            /* the rest of the variant (variant_describe's words) */
    int nconv, conv[FF_NB];           /* the conventions present (FinalFour values), in order */
    int nholes, nseeds;
    int *holes, *seeds;           /* the rows and the columns, ascending */
    AtlasCell *cells;             /* [(k * nholes + h) * nseeds + s] for conv[k] */
    int nfair;
    int *fair;                    /* cell indices, the fairest first (atlas_fairer), at most
                                     ATLAS_FAIREST; cells without an estimate left out */
    AtlasCheck check[FF_NB];          /* per conv[k] */
    int nratings;
    AtlasRating *ratings;         /* the cells that have a match of the rung (on their board,
                                     under their convention), in the grids' order
                                     (convention, holes, seeds); the first match of each */
} Atlas;

struct Analysis;

/* The atlases of an analysis into a->atlas (a->natlas of them; none is no error); -1 when
 * out of memory. */
int analyze_atlas_build(struct Analysis *a);

/* Free them. */
void analyze_atlas_free(struct Analysis *a);

/* Cell k of atlas t (conv index, holes row, seeds column). */
static inline AtlasCell *atlas_cell(const Atlas *t, int k, int h, int s)
{
    return &t->cells[(k * t->nholes + h) * t->nseeds + s];
}

/* A verdict's name, as the JSON writes it: "agrees", "undecided", "contradicts", or NULL
 * where there is no exact value. */
const char *atlas_verdict_name(AtlasVerdict v);

/* What sets atlas t apart, in words, into buf: its rung's label, openings, root design if
 * any, and the rest of its variant ("random; openings start; capture 4, ..."). */
void atlas_describe(const struct Analysis *a, const Atlas *t, char *buf, size_t len);

/* A cell's figure in short, into buf: "+12 [+3,+21]" (points, no decimals), "-" without an
 * estimate. */
const char *atlas_cell_figure(const AtlasCell *c, char *buf, size_t len);

/* A cell's exact value in short, into buf: "=+4", "=0", "=-8", or "" where none is known. */
const char *atlas_cell_exact(const AtlasCell *c, char *buf, size_t len);

/* The sign of an interval: +1 above 0, -1 below, 0 holding it. */
int atlas_interval_sign(Estimate x);

#endif
