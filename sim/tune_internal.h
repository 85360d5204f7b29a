/* tune_internal.h: what the tuning's loop and its results file share: the packed rows that
 * go both to the journal and, unconverted, to the HDF5 tables. */
#ifndef ANYWOLI_TUNE_INTERNAL_H
#define ANYWOLI_TUNE_INTERNAL_H

#include "tune.h"

/* Bytes of a packed trajectory row for n weights: iteration, a_k, c_k, theta[n], delta[n],
 * the six match counts and D (native byte order, which HDF5 records in the table's type). */
#define STEP_ROW_BYTES(n) (80 + 9 * (size_t)(n))

/* A packed verification block: first pair, pairs, wins, draws, losses, pairs by points. */
#define VERIFY_BLOCK_BYTES 80

void step_pack(const TuneStep *s, int n, unsigned char *row);
void step_unpack(const unsigned char *row, int n, TuneStep *s);
void verify_block_pack(uint64_t first, uint64_t count, const MatchSums *m, unsigned char *row);
void verify_block_unpack(const unsigned char *row, uint64_t *first, uint64_t *count,
                         MatchSums *m);

/* The tuning part of a results file being written. */
typedef struct TuneFile TuneFile;

/* Create path (it must not exist): the root attributes of format 1, an empty /jobs, and
 * /tuning with its attributes, weights table and an empty trajectory. */
TuneFile *tune_file_create(const char *path, const TuneConfig *t, const char *started,
                           const int64_t *rank_threads, Error *e);

/* Append one row to the trajectory (rows come in iteration order). */
int tune_file_append(TuneFile *f, const unsigned char *row, Error *e);

/* Write the end: tuned weights and spec, the verification matches, the finished time. */
int tune_file_end(TuneFile *f, const TuneConfig *t, const double *tuned, const char *tuned_spec,
                  const TuneVerify *v, int nverify, const char *finished, Error *e);

/* Close and free; -1 if closing failed. */
int tune_file_close(TuneFile *f, Error *e);

#endif
