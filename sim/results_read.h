/* results_read.h: reading a results file (format 1, docs/results.md) for analysis: the jobs it
 * holds, in the order they were run, their stored length histograms, and their game tables
 * streamed in chunks through one open file, so that memory stays flat however many games. */
#ifndef ANYWOLI_RESULTS_READ_H
#define ANYWOLI_RESULTS_READ_H

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elo.h"
#include "error.h"
#include "game.h"
#include "openings.h"
#include "root_race.h"
#include "variant.h"

/* An open results file. */
typedef struct ResultsFile ResultsFile;

/* Open path for reading: it must be a regular file (a FIFO is refused, never waited on), an
 * HDF5 file with format "anywoli-results" and format_version 1, the root's attributes each
 * one value of its kind (h5u_get_int, h5u_get_string), with a /jobs group of groups. NULL
 * with a one-line message naming the file and the attribute otherwise. */
ResultsFile *rf_open(const char *path, Error *e);

/* Close the file and free it (NULL is allowed). */
void rf_close(ResultsFile *f);

/* The file's path as opened. */
const char *rf_path(const ResultsFile *f);

/* The number of jobs, and job i's name (0 .. count-1, ordered by the jobs' `index`). */
int rf_job_count(const ResultsFile *f);
const char *rf_job_name(const ResultsFile *f, int i);

/* The error for a job name the file does not have: "FILE: no job 'd4'; did you mean 'd3'?
 * (its jobs: d1, d2, d3)", listing every job (a very long list cut, saying how many). -1. */
int rf_no_such_job(const ResultsFile *f, const char *name, Error *e);

/* The root's seed (checked: 0 or more). */
int64_t rf_seed(const ResultsFile *f);

/* Open the root-level group `name` (a tuning's /tuning) for a reader of what it holds: -1
 * when the file has none. The caller closes it. */
hid_t rf_group_open(const ResultsFile *f, const char *name);

/* Whether the file has a root-level group `name`. */
bool rf_has_group(const ResultsFile *f, const char *name);

/* A root text attribute (program_version, git_commit, config, started, finished, host) as a
 * malloc'd string, or NULL when absent. */
char *rf_root_text(const ResultsFile *f, const char *name);

/* A job's sequential test as its file stores it (a job run with `sprt`). */
typedef struct StoredTest {
    bool has;                        /* the job had a test (sprt_elo0 .. sprt_beta) */
    SprtBounds bounds;
    bool ended;                      /* its state at the job's end is stored (sprt_llr ...) */
    Sprt test;                       /* that state */
    bool stopped;                    /* the test stopped the job (`stopped` = "sprt") */
    int64_t stop_pair;               /* at this pair, the table's last */
} StoredTest;

/* A job's adaptive root design as its file stores it (a job run with `root_design`). */
typedef struct StoredRace {
    bool has;                        /* the job had one (`root_design`) */
    RootRule rule;
    int rounds;                      /* the rounds begun, stored at the job's end (0: none) */
    int64_t *round_first;            /* each one's first pair (root_round_first), malloc'd */
    int64_t *round_lines;            /* and its lines in (root_round_lines), malloc'd */
    bool stopped;                    /* its half-width stopped the job (`stopped` =
                                      * "root_halfwidth") */
    int64_t stop_pair;               /* at this pair, the table's last */
} StoredRace;

/* A job as a results file stores it, its attributes checked (each one value of its kind;
 * the variant through variant_finish, the root's seed 0 or more, index 0 or more, games no
 * fewer than the rows), and its games table one-dimensional with every row stored. */
typedef struct StoredJob {
    int64_t seed;                    /* the experiment's (root attribute) */
    uint64_t index;                  /* the job's `index`: its number in rng_seed */
    Variant variant;
    char *agent_a, *agent_b;         /* malloc'd */
    char *played_a, *played_b;       /* the full specs played (agent_a_played, ...), malloc'd;
                                        NULL in files written before them: not known */
    char *files_a, *files_b;         /* the content hashes of the files each spec named
                                        (agent_a_files, ...; agent_file_digests), malloc'd;
                                        NULL when absent: it named none, or an older file */
    char *openings;                  /* the openings spec (malloc'd; "start" in older files) */
    OpeningsOrder openings_order;    /* `openings_order` (absent: in order) */
    int64_t games;                   /* the `games` attribute */
    int64_t first_game;              /* the `first_game` attribute (0 when absent): row r of
                                        the games table is game first_game + r */
    uint64_t rows;                   /* rows in the table */
    bool adjudicate;                 /* the `adjudicate` attribute (absent: false): its games
                                        end once a store holds more than half the seeds */
    StoredTest seq;                  /* its sequential test, if it had one */
    StoredRace race;                 /* its adaptive root design, if it had one */
} StoredJob;

/* Read job `name` of an open file; -1 with a one-line message naming file, job, attribute. */
int rf_read_job(const ResultsFile *f, const char *name, StoredJob *sj, Error *e);

/* Opening `index` of job `name` (a game's `opening`) from the job's openings table, for
 * variant v, into *o: its moves from the variant's start, or, when it has none, the position
 * its APN gives; every move checked legal, so that a damaged row is refused, never played.
 * -1 with a one-line message naming the file, the job and the opening. */
int rf_read_opening(const ResultsFile *f, const char *name, const Variant *v, int64_t index,
                    Opening *o, Error *e);

/* The rows of job `name`'s openings table (0 when it has none) into *rows: a game's
 * `opening` is -1 or one of them. -1 with a one-line message naming the file and the job when
 * the table is not of one dimension or not every row of it is stored (resized beyond what
 * was written). */
int rf_openings_rows(const ResultsFile *f, const char *name, int64_t *rows, Error *e);

/* The checksum of an openings table (the dataset ds, every row stored), as a job's
 * `openings_checksum` holds it: FNV-1a, 64 bits, of each row as the text
 * "INDEX|MOVES|APN\n", in row order (docs/results.md). -1 when HDF5 cannot read it. */
int results_openings_checksum(hid_t ds, uint64_t *sum);

/* Whether job `name`'s games table has the column `field` (a file written before a column
 * was added lacks it; rows read from it then hold record_row.h's default). */
bool rf_job_has_field(const ResultsFile *f, const char *name, const char *field);

/* Whether job `name`'s group carries the attribute `attr` (a job stopped early: `stopped`). */
bool rf_job_has_attribute(const ResultsFile *f, const char *name, const char *attr);

/* Whether job `name` stores its games' moves (/jobs/<job>/moves and moves_index: a job run
 * with record_moves). */
bool rf_job_has_moves(const ResultsFile *f, const char *name);

/* A job's stored moves being read, game by game in any order (in game order, its offsets
 * are read MOVE_INDEX_BLOCK at a time): the one reader of move records (replay, export). */
typedef struct MoveStream MoveStream;
#define MOVE_INDEX_BLOCK 4096

/* Start reading job `name`'s moves (a job of variant v). NULL with "FILE: job NAME: no moves
 * stored" when it has none, or "... damaged moves (...)" when moves_index does not start at 0. */
MoveStream *rf_moves_open(const ResultsFile *f, const char *name, const Variant *v, Error *e);

/* The moves of the game of row `row` (its row of the table, read and checked) into l (grown
 * as needed; move_list_free frees it): the holes picked up, 0 .. 2 x holes - 1, one a ply
 * from the game's start, its opening included; its start (the opening's position, or the
 * variant's) into *start when not NULL. -1 with "FILE: job NAME: game N: damaged moves
 * (what)" when moves_index does not give the game increasing offsets within `moves` at most
 * max_plies apart (checked before anything is allocated), a move is not a hole, the moves
 * are not the row's plies, or the rules refuse one played from the start (an illegal move,
 * a move after the game is over or after an endless move). */
int rf_moves_read(MoveStream *s, const GameRecord *row, MoveList *l, Position *start,
                  Error *e);

/* Stop reading and free the stream (NULL is allowed). */
void rf_moves_close(MoveStream *s);

/* One game's moves: rf_moves_open, rf_moves_read, rf_moves_close. */
int rf_read_moves(const ResultsFile *f, const char *name, const Variant *v,
                  const GameRecord *row, MoveList *l, Error *e);

/* A walk over a job's stored games (rf_walk_games): `game` is called with each game's row
 * before its moves are read (NULL: every game; false skips it), `position` with each
 * position before a move, `ply` 0 first, and once more with `last` true at the position the
 * stored moves lead to (the game over, or an unfinished game's last); false leaves the rest
 * of that game. A move found endless ends the walk of its game where it stood. */
typedef struct GameWalk {
    bool (*game)(void *ctx, const GameRecord *row);
    bool (*position)(void *ctx, const GameRecord *row, const Position *p, uint32_t ply,
                     bool last);
    void *ctx;
} GameWalk;

/* Replay every stored game of job `name` (of StoredJob sj) in game order from its start (its
 * opening's position, or the variant's start: the stored moves include the opening's), its
 * moves read and checked by rf_moves_read, showing w every position before a move until the
 * game is over or a move is endless. The one replay of stored games (fit, tables agree). -1
 * with the reader's one-line message. */
int rf_walk_games(const ResultsFile *f, const char *name, const StoredJob *sj,
                  const GameWalk *w, Error *e);

/* Free the job's strings. */
void stored_job_free(StoredJob *sj);

/* Job `name`'s stored length_histogram as malloc'd counts (*len bins from 0 plies); returns
 * 1 when read, 0 when the job has none (a run still in progress), -1 on error. It must have
 * exactly `expect` bins (the longest game of the table + 1): any other size is damage, refused
 * before anything is allocated. */
int rf_length_histogram(const ResultsFile *f, const char *name, size_t expect,
                        uint64_t **counts, size_t *len, Error *e);

/* Whether row `index` of a job of variant v holds a game the rules allow: each field in its
 * range (plies up to max_plies, game = index, colours alternating), the counts consistent
 * (every seed a score, a capture or left), the outcome agreeing with the scores. 0 when it
 * does; otherwise what is wrong, one line into why, and a positive number. With
 * from_positions (a job whose book may hold positions), a game may start with seeds already
 * captured and recipients already set: its own captures then account for at most the seeds
 * not left. With adjudicated (a job run with `adjudicate`), a win may stop where the winner's
 * store first held more than half the seeds, the stores as they stood. */
int rf_row_fault(const Variant *v, uint64_t index, bool from_positions, bool adjudicated,
                 const GameRecord *r, char *why, size_t len);

/* A job's game table being read in order. */
typedef struct RowStream RowStream;

/* Start reading job `name`'s table from its first row; every row read is checked with
 * rf_row_fault against the job's variant, and its opening against the job's openings table
 * (-1, or one of its rows). */
RowStream *rf_rows_open(const ResultsFile *f, const char *name, Error *e);

/* The rows of the table. */
uint64_t rf_rows_total(const RowStream *s);

/* Continue from row `row` (the end when beyond it). */
void rf_rows_seek(RowStream *s, uint64_t row);

/* The next rows, up to max of them, into out: the count read (0 at the end), or -1 on a
 * damaged table or row ("FILE: job NAME: game N: damaged row (what)"). */
int64_t rf_rows_next(RowStream *s, GameRecord *out, uint64_t max, Error *e);

/* Stop reading and free the stream (NULL is allowed). */
void rf_rows_close(RowStream *s);

/* Rows [first, first + n) of job `name`'s table (row r is game first_game + r) into out, each checked as rf_rows_next does;
 * -1 with a one-line message when they are not all there or one is damaged. */
int rf_read_rows(const ResultsFile *f, const char *name, uint64_t first, uint64_t n,
                 GameRecord *out, Error *e);

/* The same for callers without an open file (tests): the file opened, read, closed. */
int results_read_job(const char *path, const char *name, StoredJob *sj, Error *e);
int results_read_rows(const char *path, const char *name, uint64_t first, uint64_t n,
                      GameRecord *out, Error *e);

#endif
