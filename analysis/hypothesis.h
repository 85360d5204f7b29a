/* hypothesis.h: tests of difference between jobs: the two-proportion z test, the chi-square
 * test of independence on an r x c table of counts, the Mann-Whitney U test on two
 * histograms (game lengths), the log-rank test on two censored ones, and Holm's step-down
 * correction for multiple comparisons.
 *
 * Every p-value is two-sided, a probability in [0, 1]; none applies a continuity correction
 * except Mann-Whitney's, which applies scipy.stats.mannwhitneyu's default one. */
#ifndef ANYWOLI_HYPOTHESIS_H
#define ANYWOLI_HYPOTHESIS_H

#include <stddef.h>
#include <stdint.h>

/* A test statistic, its degrees of freedom (0 where it has none) and its p-value. */
typedef struct TestResult {
    double statistic;
    double df;
    double p_value;
} TestResult;

/* The two-proportion z test of p1 = p2 for k1 of n1 and k2 of n2, with the pooled proportion
 * in the standard error: statistic z (positive when k1/n1 > k2/n2), p = 2 Q(|z|). z = 0 and
 * p = 1 when the pooled proportion is 0 or 1; p is NaN when n1 or n2 is 0 (or k > n). */
TestResult two_proportion_z_test(uint64_t k1, uint64_t n1, uint64_t k2, uint64_t n2);

/* Pearson's chi-square test of independence of rows and columns of a table of counts
 * (row-major, rows x cols), without Yates's correction. Rows and columns with no counts are
 * left out, so df = (r' - 1)(c' - 1) over the r' rows and c' columns that have some; with
 * df = 0 the statistic is 0 and p is 1. */
TestResult chi_square_independence(const uint64_t *table, size_t rows, size_t cols);

/* The Mann-Whitney U test of two samples given as histograms: x[v] and y[v] are the counts
 * of value v (the same origin for both; the shorter counts as zero beyond its end). */
typedef struct MannWhitney {
    double u;            /* U of the first sample: pairs with x > y, plus half the ties */
    double z;            /* (U - n1 n2 / 2) / sigma with the tie-corrected sigma and the 0.5
                            continuity correction towards 0; 0 when sigma is 0 */
    double p_value;      /* 2 Q(|z|), at most 1; 1 when sigma is 0; NaN if a sample is empty */
    double effect;       /* U / (n1 n2): P(X > Y) + P(X = Y) / 2, the common-language effect */
} MannWhitney;

/* The normal approximation with tie correction, as scipy.stats.mannwhitneyu(x, y,
 * method="asymptotic") (Mann and Whitney 1947; tie variance as in Lehmann 1975). It streams
 * over the bins, so millions of games cost only the histogram's length. */
MannWhitney mann_whitney_hist(const uint64_t *x, size_t x_len, const uint64_t *y, size_t y_len);

/* The log-rank test (Mantel 1966; Peto and Peto 1972) of equal length distributions for two
 * right-censored samples, each a histogram of every game by its length from 0 of which the
 * last `censored` games of the last bin are censored (histogram.h; each sample's own cap).
 * At each length t with d games ending (d1 of the first sample) among n still going (n1),
 * the first sample's expected endings are d n1 / n with the hypergeometric variance
 * d (n1 / n) (n2 / n) (n - d) / (n - 1); the statistic is (O1 - E1)^2 / V on 1 df. */
typedef struct LogRank {
    double observed, expected;   /* the first sample's games that ended, and the expected */
    double variance;             /* V */
    TestResult chi;              /* statistic (O1 - E1)^2 / V, df 1, p; statistic 0 and p 1
                                    when V is 0; p NaN if a sample is empty */
} LogRank;

LogRank log_rank_hist(const uint64_t *x, size_t x_len, uint64_t x_censored, const uint64_t *y,
                      size_t y_len, uint64_t y_censored);

/* Holm's step-down adjusted p-values (Holm 1979) of m p-values in [0, 1] (no NaN): with p
 * sorted ascending, adjusted(i) = max over j <= i of min(1, (m - j + 1) p(j)), 1-based;
 * reject the hypotheses whose adjusted p-value is at most the family-wise level. adjusted
 * may be p itself. Returns 0, or -1 when out of memory. */
int holm_adjust(const double *p, size_t m, double *adjusted);

#endif
