/* record_row.h: the one description of a game record as the results file stores it (format 1,
 * docs/results.md). A single table of GameRecord's stored fields, in the column order of the
 * `games` table, gives the packed row (ROW_BYTES bytes, little-endian, the journal's and the
 * MPI gather's form), the HDF5 compound type of the table (for writing and for reading), and
 * the field names. To store a new per-game field, add it to GameRecord and to the table in
 * record_row.c; a compile-time check there then asks for ROW_BYTES to follow. */
#ifndef ANYWOLI_RECORD_ROW_H
#define ANYWOLI_RECORD_ROW_H

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"

#define ROW_BYTES 75                 /* one packed row of the games table */

/* Pack a record into a row of the games table. */
void row_pack(const GameRecord *r, unsigned char *out);

/* Unpack a row of the games table. */
void row_unpack(const unsigned char *in, GameRecord *r);

/* The packed compound type of a games row: the same in the file and in memory, so that rows
 * go to HDF5 and come back unconverted. -1 if HDF5 failed; the caller closes it. */
hid_t row_type_create(void);

/* The type to read a file's games table (of HDF5 type file_type) with: the packed row of
 * row_type_create with only the columns the file has, so that a file written before a column
 * was added still reads; *absent gets a bit (1 << i) for each stored field i it lacks, which
 * row_set_absent then fills. -1 when the table lacks a column every file of format 1 has (or
 * HDF5 failed, or a column is not an integer: then *bad names it, else NULL); the caller closes
 * it. */
hid_t row_type_reading(hid_t file_type, uint64_t *absent, const char **bad);

/* Give r's fields in `absent` (row_type_reading's mask) the value docs/results.md gives a row
 * of a file without them (opening -1, moves_hash 0, line_hash 0,
 * nodes_a, nodes_b, choices_a and choices_b 0). */
void row_set_absent(GameRecord *r, uint64_t absent);

/* The stored fields: their number, and field i's name (its column in the games table) and
 * value in r, widened (0 .. row_field_count() - 1, in column order). */
int row_field_count(void);
const char *row_field_name(int i);
int64_t row_field_value(const GameRecord *r, int i);

/* What a game record is held to besides its variant's rules. */
typedef struct RecordLimits {
    int64_t max_plies;      /* its ply cap: plies at most this, and exactly this when the game
                             * stopped unfinished */
    uint32_t min_plies;     /* 1; 0 for a game that started from a position already over */
    bool from_position;     /* it may have started from a position: seeds captured and
                             * recipients set before its first ply, so its own captures account
                             * for at most the seeds not left */
    bool adjudicated;       /* its job adjudicates decided games: a win may stop where a store
                             * first held more than half the seeds (the stores as they stood) */
} RecordLimits;

/* Whether r records a game of variant v that the rules allow, within l: each field in its
 * range (all but `game` and `a_south`, the row's place in its job, which rf_row_fault adds),
 * the counts consistent (every seed a score, a capture or left), the outcome agreeing with the
 * scores under v's convention (an unfinished game's outcome before any judgement by stores). 0
 * when it does; otherwise what is wrong, one line into why, and a positive number. */
int record_fault(const Variant *v, const RecordLimits *l, const GameRecord *r, char *why,
                 size_t len);

#endif
