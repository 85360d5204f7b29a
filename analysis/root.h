/* root.h: the first player's advantage when South chooses its first move as well as it can.
 *
 * A self-play job whose openings are every line of N plies from the start (all:N) plays
 * colour-swapped pairs from each line, the continuation diverse. Each line's advantage is
 * the mean of its pairs' per-game advantage (South's points minus North's over the pair,
 * halved), with Student's t interval over its pairs: given the line, the pairs are
 * independent draws (each game's randomness comes from its own stream), so within a line
 * the pair is the unit.
 *
 * The lines form a tree (their common first plies); at each node the side to move, found
 * by replaying the line (a capture by the final seed keeps the mover on move, so the turn
 * order is not alternate), chooses the child best for it: South the largest advantage,
 * North the smallest. The root's value is this minimax over the lines' estimates.
 *
 * Taken on the same pairs that chose it, the minimax is biased: a maximum over noisy
 * estimates is above the maximum of their means (the winner's curse; at North's nodes, a
 * minimum is below), the more so the closer the contenders and the fewer the pairs. The
 * held-out estimate removes that bias by two-fold cross-fitting: each line's pairs are
 * split in two halves by their order within the line (its 1st, 3rd, 5th... pair and its
 * 2nd, 4th...), the line chosen by the minimax over one half is valued on the other half,
 * and the two such values are averaged. It estimates the value of the choice made from
 * half the data, so where the contenders are close it errs low rather than high. Both are
 * reported; the held-out one is the figure.
 *
 * Neither interval accounts for the choice itself (the held-out Welch interval treats the
 * lines each half chose as fixed, and they are random), so neither covers at its nominal
 * level. The simultaneous bounds do: they bound theta, the minimax of the lines' true
 * values (South's best first move against North's best reply, as deep as the lines go),
 * whatever the estimates choose. Each line gets a lower confidence bound and an upper one,
 * and the bounds are the minimax of the lower bounds and the minimax of the upper bounds
 * (the minimax is increasing in every leaf). The lower bound exceeds theta only if, for
 * North's true best strategy held fixed, some line that strategy leaves open (South free at
 * its plies) has its lower bound above its true value; the upper bound falls below theta
 * only if some line of South's true best strategy (North free) has its upper bound below
 * its true value. Neither strategy is known, so each side's bounds are taken at the
 * one-sided level that makes a union over the most lines any such strategy leaves open
 * (k_lower, k_upper: counted over the tree) miss with probability at most (1 - confidence)
 * / 2: the lines' pairs are independent, so Sidak's a = 1 - (1 - (1 - confidence) / 2)^(1 /
 * k) per line (Sidak 1967). A Bonferroni-type union bound over the game tree: coverage of
 * theta is at least the confidence wherever each line's one-sided t bound holds, ties or
 * no ties, whatever the lines' numbers of pairs. For all:1 k_upper is 1 (the upper bound is
 * the best line's plain one-sided bound) and k_lower the number of first moves. A line
 * without pairs takes the bounds -1 and 1. */
#ifndef ANYWOLI_ROOT_H
#define ANYWOLI_ROOT_H

#include <stdbool.h>
#include <stdint.h>

#include "stats.h"

#define ROOT_FOLDS 2
#define ROOT_MAX_PLIES 64

/* Sums of per-game advantages over some pairs of a line. */
typedef struct RootSum {
    uint64_t n;
    double sum, sumsq;
} RootSum;

/* One line of the root design: its plies from the start with who played each, its pairs'
 * advantages by fold, and the estimate over both folds. */
typedef struct RootLine {
    int64_t opening;              /* its index in the job's openings */
    int n_moves;
    int moves[ROOT_MAX_PLIES];
    int8_t mover[ROOT_MAX_PLIES]; /* SOUTH (0) or NORTH (1): who played moves[k] */
    RootSum fold[ROOT_FOLDS];
    uint64_t pairs;
    Estimate advantage;           /* per game, in [-1, 1]; NaN with no pair */
    bool degenerate;              /* every pair alike (or one pair): the all-alike interval */
} RootLine;

/* South's best first move, a node of the tree's first level, valued by the naive minimax
 * below it. */
typedef struct RootFirst {
    int move;
    int line;                     /* the line the minimax below it ends in; -1: no pair */
    Estimate advantage;           /* that line's */
} RootFirst;

/* The root design of one job analysed. */
typedef struct RootAnalysis {
    int nlines;
    RootLine *lines;
    int nfirst;
    RootFirst *first;             /* by move, ascending */
    int naive_line;               /* the minimax over all pairs; -1: none */
    Estimate naive;               /* that line's estimate (biased up, see above) */
    int held_line[ROOT_FOLDS];    /* the line each half chose; -1: none */
    Estimate held_out;            /* cross-fitted: NaN where a half chose nothing, or a
                                   * chosen line has no pair in the other half */
    double held_out_se;
    bool held_out_degenerate;     /* every pair it is over alike: the all-alike interval */
    bool same_choice;             /* both halves chose the same line */
    Interval minimax;             /* simultaneous bounds on theta, the minimax of the lines'
                                   * true values (see above); [-1, 1] with no line */
    int minimax_line[2];          /* the line whose bound is the lower (0), the upper (1) */
    int minimax_lines[2];         /* k_lower, k_upper: the lines each union is over */
    double minimax_level[2];      /* the one-sided level of each line's lower, upper bound */
} RootAnalysis;

/* Count one pair of line l: x its per-game advantage ((South's points minus North's over
 * the pair) / 2, in [-1, 1]), fold its half (0 or 1). */
void root_add(RootLine *l, int fold, double x);

/* The estimates of r from its lines (moves, movers and sums filled in): each line's, the
 * first moves', the naive minimax, the held-out one and the simultaneous bounds, at the
 * given confidence. -1 when
 * out of memory. */
int root_estimate(RootAnalysis *r, double confidence);

/* The mean of a sum's values with Student's t interval at the confidence, or the all-alike
 * interval where they have no spread (or there is one); *degenerate says which. NaN in
 * [-1, 1] with none. */
Estimate root_sum_estimate(RootSum s, double confidence, bool *degenerate);

/* The indices of lines[0 .. n) in the tree's order into idx: by their moves, a shorter line
 * before the lines it begins. -1 when out of memory. */
int root_tree_order(const RootLine *lines, int n, int *idx);

/* The line the minimax chooses among idx[lo .. hi) (tree order), which share their first k
 * plies: a line that ends at ply k is a leaf; otherwise the lines are grouped by their ply
 * k, each group's choice found below it, and the player of ply k takes the group whose
 * value is best for it (South the largest, North the smallest; the first of equal ones).
 * Lines whose value is NaN take no part; -1 when none has a value. */
int root_minimax_line(const RootLine *l, const int *idx, int lo, int hi, int k,
                      const double *value);

/* Free what root_estimate allocated and the lines; r is left empty. */
void root_free(RootAnalysis *r);

#endif
