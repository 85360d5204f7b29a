/* start_values.h: the exact values of variants' starts that `anywoli solve --start` has
 * computed, kept as a table so that analyses (the variant atlas) can set them beside
 * simulated figures without solving again.
 *
 * A row is South's exact margin from the standard start of a board (holes a row, seeds a
 * hole) under one convention, every other parameter of play at its standard value: the best
 * final margin South can force (own seeds minus North's, stores included; the lottery at its
 * expectation, play that never ends at the store difference, i.e. 0 from the start), with
 * what solving it cost. tests/test_start_values.c solves the cheap rows again. */
#ifndef ANYWOLI_START_VALUES_H
#define ANYWOLI_START_VALUES_H

#include <stdbool.h>

#include "variant.h"

typedef struct StartValue {
    int holes, seeds;
    FinalFour final_four;
    int value;              /* South's exact margin, seeds */
    double states;          /* states the solve kept (graph or search table), for the cost */
    double seconds;         /* its wall time on the machine the table names */
    double peak_mib;        /* its peak memory, MiB (0: not measured) */
    const char *how;        /* the command's options beyond the variant's, "" for none */
} StartValue;

extern const StartValue start_values[];
extern const int start_values_count;

/* The row of v's start (holes, seeds, convention; every other parameter of play standard),
 * or NULL when none is known. */
const StartValue *start_value_of(const Variant *v);

#endif
