/* tune_internal.h: what the tuning's loop and its results file share: the packed rows that
 * go both to the journal and, unconverted, to the HDF5 tables. */
#ifndef ANYWOLI_TUNE_INTERNAL_H
#define ANYWOLI_TUNE_INTERNAL_H

#include "tune.h"

/* Bytes of a packed trajectory row for n weights: iteration, a_k, c_k, theta[n], delta[n],
 * the six match counts and D (native byte order, which HDF5 records in the table's type). */
#define STEP_ROW_BYTES(n) (80 + 9 * (size_t)(n))

/* A packed verification block: first pair, pairs, wins, draws, losses, pairs by points, then
 * each pair's two games in a byte ((game[0] + 1) * 3 + game[1] + 1), VERIFY_BLOCK at most:
 * the file keeps every pair's games, so that the stop can be checked pair by pair. */
#define VERIFY_BLOCK 64              /* pairs of a verification match per journal record */
#define VERIFY_BLOCK_BYTES (80 + VERIFY_BLOCK)

void step_pack(const TuneStep *s, int n, unsigned char *row);
void step_unpack(const unsigned char *row, int n, TuneStep *s);
void verify_block_pack(uint64_t first, uint64_t count, const MatchSums *m,
                       const PairGames *each, unsigned char *row);
/* Unpack a block; -1 when its count exceeds VERIFY_BLOCK, a pair's byte is not a pair's, or
 * the pairs' games do not add up to its sums (a damaged journal). */
int verify_block_unpack(const unsigned char *row, uint64_t *first, uint64_t *count,
                        MatchSums *m, PairGames *each);

/* The tuning part of a results file being written. */
typedef struct TuneFile TuneFile;

/* Create path (it must not exist): the root attributes of format 1, an empty /jobs, and
 * /tuning with its attributes, weights table and an empty trajectory. */
TuneFile *tune_file_create(const char *path, const TuneConfig *t, const char *started,
                           const int64_t *rank_threads, Error *e);

/* Append one row to the trajectory (rows come in iteration order). */
int tune_file_append(TuneFile *f, const unsigned char *row, Error *e);

/* Write the end: tuned weights and spec, the verification matches (and each one's pairs'
 * games, pairs[m][0 .. pairs_done - 1]), the finished time. */
int tune_file_end(TuneFile *f, const TuneConfig *t, const double *tuned, const char *tuned_spec,
                  const TuneVerify *v, const PairGames *const *pairs, int nverify,
                  const char *finished, Error *e);

/* Close and free; -1 if closing failed. */
int tune_file_close(TuneFile *f, Error *e);

#endif
