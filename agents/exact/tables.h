/* tables.h: endgame tables, the exact value of every position with at most K seeds on the
 * board, built by retrograde analysis level by level, kept in a file (docs/tables.md) and
 * probed by the solver and by alpha-beta.
 *
 * What is stored is the relative value of solver.h: the margin the side to move can force
 * from now on (its captures minus the opponent's, plus the award), so a position's value is
 * its store difference plus the stored value. It depends on the board, the side to move and
 * the convention's state only, and on the board only through the side to move's view of it:
 * the rules are the same turned by half a board, so a position with North to move is stored
 * as the same position turned round with South to move. Under `first-final` the convention's
 * state is who made the first final-seed capture (nobody, the side to move, the opponent);
 * under the other conventions there is none (the move that ends a game always captures, so
 * the last capturer before it never decides the award).
 *
 * Where it lives: tables_index.c (the ranking and the probes), tables_build.c (the build,
 * and why its values are exact), tables_file.c (the file and its mapping), tables_cache.c
 * (tables_acquire and tables_release); tables_internal.h is what those four share. */
#ifndef ANYWOLI_TABLES_H
#define ANYWOLI_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "position.h"
#include "variant.h"

/* The file format this program writes; it also reads format 1 (which holds every level). */
#define TABLES_FORMAT_VERSION 2
/* The largest K: values are one signed byte, and |value| <= K. */
#define TABLES_MAX_SEEDS 127

/* Ranking of seed placements: the placements of s seeds into n holes (compositions) in
 * lexicographic order, hole 0 most significant, numbered 0 .. count(s) - 1. */
typedef struct Ranking {
    int n;                /* holes */
    int max_seeds;        /* the largest s handled */
    uint64_t *below;      /* below[(i * (max_seeds + 1) + r) * (max_seeds + 2) + c]: the
                           * placements of r seeds into holes i.. with fewer than c in hole i */
    uint64_t count[TABLES_MAX_SEEDS + 1];   /* the placements of s seeds into the n holes */
} Ranking;

/* Set up r for n holes and up to max_seeds seeds; -1 when out of memory or too many. */
int ranking_init(Ranking *r, int n, int max_seeds);
void ranking_free(Ranking *r);
/* The number of placements of s seeds. */
uint64_t ranking_count(const Ranking *r, int s);
/* The rank of board[0..n) (s seeds in all). */
uint64_t ranking_rank(const Ranking *r, const uint16_t *board, int s);
/* The placement of s seeds of rank k, into board[0..n). */
void ranking_unrank(const Ranking *r, uint64_t k, int s, uint16_t *board);
/* The next placement in rank order; false (board unchanged) after the last. */
bool ranking_next(const Ranking *r, uint16_t *board);

/* A set of tables, built or opened from a file. Read-only once made: threads may share it. */
typedef struct Tables Tables;

/* One rank's share of a level shared between ranks: the placements it owns, the edges out
 * of them (its lists), its recomputations, the bytes it sent to and received from the other
 * ranks in the exchanges of values (each byte sent counted once for each rank it reaches),
 * the collective calls of those exchanges, and its seconds. */
typedef struct TablesRankFigures {
    uint64_t owned, edges, updates, sent, received, messages;
    double seconds;
} TablesRankFigures;

/* What one level took (every convention built together at once; see tables_build.c),
 * reported to a build's progress callback after each level. */
typedef struct TablesLevelReport {
    int level;
    uint64_t placements;      /* of the level: each has a value per convention state */
    uint64_t values;          /* placements x the states of the conventions built */
    uint64_t edges;           /* moves without capture between placements of the level */
    int max_indegree;         /* the most of them into one placement (at most 255) */
    uint64_t list_bytes;      /* the predecessor lists' work file */
    int rounds;               /* of recomputation */
    uint64_t updates;         /* placements recomputed (every value of each) */
    double seconds;
    uint64_t peak_rss;        /* the process's peak resident memory so far, bytes */
    /* Shared between ranks (TablesBuildOptions.cluster), the figures above are the level's
     * (edges, list bytes and updates summed over the ranks, the in-degree the most of one
     * rank's lists, seconds and memory rank 0's), and these the ranks': */
    int ranks;                /* 0 in one process */
    TablesRankFigures busiest;   /* each figure's largest over the ranks */
    TablesRankFigures all;       /* each summed over the ranks */
    uint64_t peak_rss_max;    /* the largest peak resident memory of a rank, bytes */
} TablesLevelReport;
typedef void (*TablesProgress)(const TablesLevelReport *r, void *ctx);

/* The processes sharing a build (MPI ranks, given by the caller: this layer knows no MPI),
 * each owning a contiguous block of every level's placements (tables_build.c). Every
 * function is collective: all ranks call it in the same order. */
typedef struct TablesCluster {
    int rank, size;
    /* The block [*lo, *hi) of n placements that a rank owns: contiguous, in rank order. */
    void (*share)(uint64_t n, int rank, int size, uint64_t *lo, uint64_t *hi);
    /* Every rank's bytes (mine, n of them) one after the other in rank order into a new
     * buffer *all (freed by the caller); returns their total. */
    uint64_t (*allgather)(const void *mine, uint64_t n, uint8_t **all);
    /* The largest, and the sum, of x over the ranks. */
    int64_t (*max)(int64_t x);
    int64_t (*sum)(int64_t x);
    /* The collective calls this process has made so far. */
    uint64_t (*calls)(void);
} TablesCluster;

/* How a build works (NULL or zeros: the defaults). */
typedef struct TablesBuildOptions {
    const char *work_dir;     /* where the work files go (created and unlinked at once;
                               * about 7 bytes an edge at the most); NULL: $TMPDIR or /tmp */
    /* Internal knobs, for tests (0: the defaults): the children per bucket file (at most
     * 2^24), the bytes of each thread's window onto the lists (at least 1024), and the most
     * moves into one placement the build accepts (at most and by default 255, the most a
     * byte holds; a smaller limit lets a test reach the error). */
    uint64_t bucket_size;
    size_t window_bytes;
    unsigned max_indegree;
    /* The ranks sharing the build (NULL: one process). Every rank builds the same tables
     * (the whole values, each rank a copy); the values are the same for any number. */
    const TablesCluster *cluster;
} TablesBuildOptions;

/* A build's return value when the work files failed (the disk full, the work directory
 * missing or not writable): the message names the directory. */
#define TABLES_IO_ERROR (-2)

/* Which levels a build solves. */
typedef enum TablesLevels {
    TABLES_ALL_LEVELS,         /* every level capture + 1 .. K (for composed positions) */
    TABLES_REACHABLE_LEVELS,   /* only those a game from the start can reach */
} TablesLevels;

/* Whether a game of v from the start can have `level` seeds on the board: every capture takes
 * exactly `capture` seeds, so the seeds on the board stay congruent to the total modulo
 * `capture` (on the standard board 4, 8, 12, ...). A move's children are on its own level
 * or `capture`, 2 x `capture`, ... below it, so the reachable levels need no other. */
bool tables_level_reachable(const Variant *v, int level);

/* Build the tables of v up to max_seeds seeds, every level (OpenMP threads, the same values
 * for any number), the work files in $TMPDIR or /tmp; -1 with a message when max_seeds is
 * out of range or memory runs out, TABLES_IO_ERROR when the work files fail. */
int tables_build(const Variant *v, int max_seeds, TablesProgress progress, void *ctx,
                 Tables **out, Error *e);

/* tables_build of the levels `which` only (progress is called for those). */
int tables_build_levels(const Variant *v, int max_seeds, TablesLevels which,
                        TablesProgress progress, void *ctx, Tables **out, Error *e);

/* tables_build_levels with options o (NULL: the defaults); -1 with a message, or
 * TABLES_IO_ERROR when the work files failed. The values are the same for any options. */
int tables_build_with(const Variant *v, int max_seeds, TablesLevels which,
                      const TablesBuildOptions *o, TablesProgress progress, void *ctx,
                      Tables **out, Error *e);

/* The tables of one board under n conventions (1 to 3, each once; v's own final_four is
 * ignored), built together: a level's moves are played once for all of them, so three
 * conventions cost little more than one (tables_build.c). out[k] is conventions[k]'s,
 * the same byte for byte as tables_build_with would build for it. Errors as there. */
int tables_build_set(const Variant *v, const FinalFour *conventions, int n, int max_seeds,
                     TablesLevels which, const TablesBuildOptions *o, TablesProgress progress,
                     void *ctx, Tables **out, Error *e);

/* Whether tables of v to max_seeds (the levels `which`) can be built (K in range, each level
 * small enough), before any work: -1 with a message saying why not. The builds check the
 * same. */
int tables_check_size(const Variant *v, int max_seeds, TablesLevels which, Error *e);

/* Write t to path, a new file (door_create: never over a name that exists, never through
 * a link), flushed to the disk (a name of the caller's: `tables build` writes FILE.partial
 * and puts it in place itself). -1 with a message, and a file it created removed. */
int tables_save(const Tables *t, const char *path, Error *e);

/* Open a tables file (mapped read-only), its header and checksums checked; -1 with a
 * one-line message naming the file. */
int tables_open(const char *path, Tables **out, Error *e);

/* The content hash of the tables file at path, read from its header alone: the header's
 * checksum, which covers the variant, the levels and the checksum of the values (tables_open
 * checks the values against it). -1 with a one-line message naming the file. */
int tables_file_digest(const char *path, uint64_t *out, Error *e);

/* 0 when t was built for the rules of v (every parameter that variant_params marks a rule
 * of play: not max_plies, on which no value depends); -1 with a message naming both
 * variants. */
int tables_check_variant(const Tables *t, const Variant *v, const char *path, Error *e);

/* Whether t was built for the rules of v (tables_check_variant without the message). */
bool tables_match(const Tables *t, const Variant *v);

/* Free t (unmap a file). */
void tables_free(Tables *t);

/* The tables of a file, opened once per path for the whole process and shared read-only by
 * every caller (threads included) until the last releases them; -1 with a message. */
int tables_acquire(const char *path, const Tables **out, Error *e);
void tables_release(const Tables *t);

/* An agent's `tables=auto`: the tables of v's rules of play to tables_auto_seeds(v) seeds,
 * built once into the user's cache folder ($ANYWOLI_CACHE, else $XDG_CACHE_HOME/anywoli,
 * else $HOME/.cache/anywoli) and opened from there by every later call and run, shared as
 * tables_acquire's (release them with tables_release). -1 with a message (the board too
 * large, the folder not writable, a damaged file). */
#define TABLES_AUTO_SEEDS 8
int tables_acquire_auto(const Variant *v, const Tables **out, Error *e);
/* The K of tables=auto for v: the largest level a game of v reaches up to TABLES_AUTO_SEEDS
 * that is small enough to build unnoticed (0: none is). */
int tables_auto_seeds(const Variant *v);
/* The folder of what is built on demand (tables=auto's tables, learned=auto's weights):
 * $ANYWOLI_CACHE, else $XDG_CACHE_HOME/anywoli, else $HOME/.cache/anywoli, created (with
 * its parents) if missing, into buf; -1 with a message. */
int anywoli_cache_folder(char *buf, size_t len, Error *e);
/* The file tables=auto uses for v, its folder created; -1 with a message. */
int tables_auto_path(const Variant *v, char *buf, size_t len, Error *e);
/* The cache's file of v's tables to k seeds, the levels `which`: tables-kK-HASH.awt (every
 * level: tables-kK-all-HASH.awt), HASH naming v's rules of play; its folder created. */
int tables_cache_path(const Variant *v, int k, TablesLevels which, char *buf, size_t len,
                      Error *e);

/* `anywoli solve --tables auto`: tables of the position's board in the same cache, their K
 * climbing from the smallest level up to the largest that tables_solve_seeds allows (sized
 * from the memory there is; the ladder is cmd_solve.c's). */
/* The most placements of the top level such tables have: 8 x 1's level 16 (3 x 10^8), a
 * build of about an hour on one shared core (about 5 to 10 microseconds a placement of the
 * top level, docs/commands.md); a larger one is for --table-seeds. */
#define TABLES_SOLVE_PLACEMENTS 4e8
/* Memory a build needs beyond its values and arrays: buffers, a sorted bucket. */
#define TABLES_SOLVE_SPARE (256.0 * 1024 * 1024)
/* The memory this machine can give now without swapping (MemAvailable), bytes. */
uint64_t tables_memory_available(void);
/* What building v's tables to k under the three conventions together takes at its peak, by
 * estimate, bytes. */
double tables_build_bytes(const Variant *v, int k, TablesLevels which);
/* The K of a solve's tables: the largest level L, at most `most` (the seeds of the position
 * solved: more would never be probed), held by `which`, whose top level has at most
 * TABLES_SOLVE_PLACEMENTS placements and whose build fits in half of `memory`; 0 when none. */
int tables_solve_seeds(const Variant *v, int most, TablesLevels which, uint64_t memory);
/* The tables of v to k (the levels `which`) from the cache, built first if missing (the three
 * conventions together, each into its own file; progress as tables_build's, *built true);
 * shared as tables_acquire's (tables_release). -1 with a message. */
int tables_acquire_solve(const Variant *v, int k, TablesLevels which, TablesProgress progress,
                         void *ctx, const Tables **out, bool *built, Error *e);

/* An agent's `tables=PATH` option: the shared tables of path (*out NULL when path is
 * empty), and whether they fit a game's variant (0 when they are its or there are none);
 * -1 with "agent 'AGENT': tables=..." and the reason. */
int tables_acquire_option(const char *agent, const char *path, const Tables **out, Error *e);
int tables_check_option(const char *agent, const Tables *t, const char *path, const Variant *v,
                        Error *e);
/* Whether those tables (of v, or none) lack a level that p's play reaches: true with the
 * note "agent 'AGENT': tables=PATH do not hold level L, which this position reaches (...)"
 * in buf. */
bool tables_note_option(const char *agent, const Tables *t, const char *path,
                        const Variant *v, const Position *p, char *buf, size_t size);

/* What t covers. */
const Variant *tables_variant(const Tables *t);
int tables_format(const Tables *t);          /* of the file opened; built: the one written */
int tables_max_seeds(const Tables *t);
int tables_first_level(const Tables *t);      /* capture + 1: fewer seeds end the game */
int tables_conv_states(const Tables *t);      /* convention states: 1, or 3 (first-final) */
uint64_t tables_positions(const Tables *t);   /* values stored */
uint64_t tables_level_positions(const Tables *t, int level);   /* per state; 0: not held */
uint64_t tables_checksum(const Tables *t);

/* Whether t holds level L (capture + 1 .. K, and built: a file of reachable levels only
 * lacks the others). */
bool tables_holds_level(const Tables *t, int level);

/* Whether t holds p's value: p is not over, has at most K seeds on the board, and its level
 * is held. */
bool tables_covers(const Tables *t, const Position *p);

/* The highest level that p (not over) or its play can reach (p's seeds, less a multiple of
 * `capture`, capture + 1 .. K) and t does not hold; 0 when t holds all of them. A position
 * of a game from the start never meets one. */
int tables_missing_level(const Tables *t, const Position *p);

/* The levels t holds, as text: "8, 12", or "none" (at most size bytes). */
void tables_describe_levels(const Tables *t, char *buf, size_t size);

/* The relative value of p (covered): the margin its side to move forces from now on. */
int tables_relative(const Tables *t, const Position *p);

/* The value of p (covered, or over): its store difference plus its relative value, or its
 * final margin when the game is over. */
int tables_value(const Tables *t, const Position *p);

/* The value of p's legal move m (p covered) for p's side to move: what its child is worth
 * by the tables (an extra move keeps the sign, a turn passed negates it), its final margin
 * when it ends the game, the store difference when it is endless. The move is best when this
 * equals tables_value(t, p); their difference is what it loses, in seeds. */
int tables_move_value(const Tables *t, const Position *p, int m);

/* Summary of one level's values (one convention state, or all with cs < 0): positions
 * whose side to move has seeds (those without hold the value after the pass). */
typedef struct TablesLevelStats {
    uint64_t positions;
    uint64_t wins, draws, losses;   /* value > 0, = 0, < 0 */
    int min, max;
    double mean;
} TablesLevelStats;
void tables_level_stats(const Tables *t, int level, TablesLevelStats *s);

/* ---- Conventions compared (tables_compare.c) ---- */

/* The largest difference between two values: |value| <= K on both sides. */
#define TABLES_MAX_DIFF (2 * TABLES_MAX_SEEDS)

/* How the values of two tables of one board, under different conventions, differ on one
 * level (and convention states). The positions are the level's placements whose side to
 * move has seeds, South to move (the values are the same turned round). The result is the
 * sign of the relative value: the result with equal stores (win, draw or loss of the play
 * from now on). */
typedef struct TablesDiff {
    int level;
    uint64_t positions;        /* compared */
    uint64_t value_differs;    /* relative values differ */
    uint64_t result_differs;   /* their signs differ */
    int largest;               /* the largest |a - b| (0 when none differ) */
    uint64_t by_diff[TABLES_MAX_DIFF + 1];   /* positions whose |a - b| is each d */
    uint64_t first_rank[TABLES_MAX_DIFF + 1];   /* the first of them: its placement's rank */
    uint8_t first_cs[TABLES_MAX_DIFF + 1];      /* and its convention state */
} TablesDiff;

/* 0 when a and b can be compared: the same board (every rule parameter but final_four), the
 * same K and the same levels held, and different conventions; -1 with a one-line message
 * naming path_b and what differs from path_a. */
int tables_check_comparable(const Tables *a, const char *path_a, const Tables *b,
                            const char *path_b, Error *e);

/* a against b on a level both hold, in convention state cs (as under first-final: 0 nobody
 * has made a final-seed capture, 1 the side to move made the first, 2 the opponent did; a
 * one-state table has the same value in each, as its convention ignores who did). */
void tables_compare_level(const Tables *a, const Tables *b, int level, int cs, TablesDiff *d);

/* Add d (another state of the same level) to sum, which starts zeroed: the first position of
 * each difference stays the first in (state, rank) order when the states are added in
 * turn. */
void tables_diff_add(TablesDiff *sum, const TablesDiff *d);

/* The first position of d whose values differ by diff (d->by_diff[diff] > 0), South to move,
 * the captured seeds split between the stores as evenly as they go (South's the odd one), so
 * that `anywoli solve` gives it the tables' values (tables_value). */
void tables_diff_example(const Tables *t, const TablesDiff *d, int diff, Position *p);

#endif
