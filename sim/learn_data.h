/* learn_data.h: the data the learned evaluation is fitted to (`anywoli learn sample`):
 * positions sampled from self-play games, each labelled with a deep alpha-beta value or,
 * where endgame tables hold it, its exact value; and the HDF5 file that keeps them
 * (docs/learned.md gives its layout).
 *
 * Game g of a sampling is a pure function of (seed, g): its convention (the list's g mod n),
 * its opening (openings_pair's pair g of job 0), the sampler's moves (from game g's stream),
 * the positions taken and the random plies played after them (sub-streams of it), so any
 * range of games gives the same rows whatever the threads, and slices run apart add up. */
#ifndef ANYWOLI_LEARN_DATA_H
#define ANYWOLI_LEARN_DATA_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "openings.h"
#include "position.h"
#include "variant.h"

/* Where a label comes from. */
enum { LEARN_SEARCH = 0, LEARN_TABLES = 1 };

/* One labelled position. */
typedef struct LearnRow {
    uint64_t game;            /* the game it was taken from */
    uint32_t ply;             /* the game's plies before it (random plies not counted) */
    uint8_t random_plies;     /* random moves played from the game's position to it */
    int8_t convention;        /* its game's final_four (a FinalFour) */
    int8_t side, last_capturer, first_final;   /* as in Position */
    uint8_t source;           /* LEARN_SEARCH or LEARN_TABLES */
    uint8_t depth;            /* the search's depth (0 for the tables) */
    uint16_t store[2];        /* South's and North's */
    uint16_t pit[MAX_PITS];   /* the board, holes past it 0 */
    int32_t label;            /* its value for the side to move, EVAL_SCALE units: the
                               * search's at `depth`, or the tables' exact one */
    int32_t label_prev;       /* the search's at depth - 1 (the tables': the same) */
    uint64_t nodes;           /* positions the search generated (0 for the tables) */
} LearnRow;

/* A growing list of rows. */
typedef struct LearnRows {
    LearnRow *row;
    uint64_t n, cap;
} LearnRows;

/* How positions are sampled and labelled. */
typedef struct LearnSampling {
    Variant variant;              /* the board; each game's final_four comes from the list */
    FinalFour convention[FF_NB];  /* game g plays convention[g mod conventions] */
    int conventions;
    const char *sampler;          /* the agent spec playing both sides of the games */
    const char *labeller;         /* the alphabeta spec that labels (its depth ignored) */
    const char *tables[FF_NB];    /* by FinalFour: tables of that convention, or NULL */
    const OpeningSet *openings;
    const char *openings_spec;
    uint64_t seed, first_game, games;
    double rate;                  /* the share of a game's positions taken */
    int per_level;                /* at most this many from one level (seeds on the board)
                                   * of a game (0: no limit): endgames that shuffle seeds
                                   * for hundreds of plies would otherwise fill the data */
    int skip;                     /* no position of the first `skip` plies is taken */
    double random_share;          /* the share of taken positions moved on by random plies */
    int random_max;               /* 1 .. this many random plies, uniformly */
    int depth;                    /* the label's search depth */
    int64_t max_plies;            /* the sampled games' ply cap */
} LearnSampling;

/* What a sampling did so far, for its progress line. */
typedef struct LearnProgress {
    uint64_t games, rows, tabled, nodes;
} LearnProgress;
typedef void (*LearnProgressFn)(const LearnProgress *p, void *ctx);

/* Check the sampling's agents and tables (each built once) before any work: -1 with a
 * one-line message. */
int learn_check(const LearnSampling *s, Error *e);

/* The content hashes of the files the players read (agent_file_digests), as a results file
 * keeps its agents': the sampler's, and the labeller's for each sampled convention with its
 * tables, as "CONVENTION:key=HASH,...;...". Taken before the sampling starts, when the
 * players read their files, so that a file changed or gone during a long sampling neither
 * misnames the rows nor costs them. */
typedef struct LearnFiles {
    char sampler[1024], labeller[1024];
} LearnFiles;

/* The files of s: -1 with a one-line message (a file cannot be read or is damaged). */
int learn_player_files(const LearnSampling *s, LearnFiles *out, Error *e);

/* Play and label games first_game .. first_game + games - 1 on `threads` threads (0: every
 * core), appending their rows in game order to out; progress after each batch (may be
 * NULL). -1 with a message (out of memory, an agent that fails). */
int learn_sample(const LearnSampling *s, int threads, LearnRows *out, LearnProgressFn progress,
                 void *ctx, Error *e);

void learn_rows_free(LearnRows *r);

/* A data file's board and rows. */
typedef struct LearnData {
    Variant variant;              /* holes, seeds, capture, extra_turn, skip_origin */
    LearnRows rows;
    char *labeller;               /* as recorded */
    int64_t depth;
} LearnData;

/* Write a data file (a new file at path): the rows, the sampling's settings, the files its
 * players read and `command` as attributes. -1 with a message. */
int learn_file_write(const char *path, const LearnSampling *s, const LearnFiles *files,
                     const LearnRows *rows, const char *command, Error *e);

/* Read a data file; -1 with a one-line message naming the file. */
int learn_file_read(const char *path, LearnData *d, Error *e);
void learn_data_free(LearnData *d);

/* The variant and the position of a row (its convention's variant). */
void learn_row_position(const Variant *board, const LearnRow *r, Variant *v, Position *p);

#endif
