/* openings.h: where a job's games start. A job names its openings by a spec: the variant's
 * start, N random plies, every line of N plies, or a book file; pair k of the job (games 2k
 * and 2k + 1, colours swapped) plays opening openings_pair(..., k, ...). Everything here is a
 * pure function of the spec, the variant and (seed, job, pair). docs/openings.md is the
 * user's page. */
#ifndef ANYWOLI_OPENINGS_H
#define ANYWOLI_OPENINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "game.h"
#include "position.h"
#include "root.h"
#include "variant.h"

typedef enum OpeningKind { OPENINGS_START = 0, OPENINGS_PLIES, OPENINGS_ALL, OPENINGS_FILE } OpeningKind;

/* The order in which a job's pairs play a list of openings (all:N, a book): the list's own,
 * or one shuffled by the experiment's seed and the job (a job's `openings_order`). */
typedef enum OpeningsOrder { OPENINGS_IN_ORDER = 0, OPENINGS_SHUFFLED, OPENINGS_ORDER_NB } OpeningsOrder;
extern const char *const openings_order_names[OPENINGS_ORDER_NB];   /* "in-order", "shuffled" */

#define OPENING_MAX_PLIES 64

/* The most lines all:N may enumerate, and the most openings a book may hold: a job's list
 * of openings is kept whole in memory (about 430 bytes an opening); its results file holds
 * the ones its games played. */
#define OPENINGS_MAX_COUNT 1000000

/* The most positions all:N may visit while counting its lines (a board where most lines end
 * before N plies could otherwise take hours to say it has few). */
#define OPENINGS_MAX_VISITS 100000000

/* The longest line a book file may have (an APN of the largest board fits many times). */
#define OPENINGS_LINE_MAX 4096

typedef struct Opening {            /* where one pair's games start */
    bool has_position;              /* an APN position from a file (else the variant's start) */
    Position position;
    int n_moves;                    /* moves played from there, as plies of the game */
    int moves[OPENING_MAX_PLIES];
} Opening;

typedef struct OpeningSet {
    OpeningKind kind;
    char *spec;                     /* as written ("start", "plies:4", "all:2", "file:book.txt") */
    int plies;                      /* N of plies:N and all:N */
    char *path;                     /* file:PATH, as read (a config's relative PATH: beside it) */
    int64_t count;                  /* openings in the list (all:N, file); 0 for start and plies:N */
    Opening *list;                  /* in the order the pairs play them (openings_set_order) */
    OpeningsOrder order;
} OpeningSet;

/* Parse a spec and make its list (all:N enumerated, file read), for variant v. -1 with a
 * one-line message in e: for a bad spec `openings "<spec>": expected start, plies:N, all:N
 * or file:PATH (N from 1 to 64)`, for a bad file line `PATH:LINE: <what is wrong>`, for a
 * list too long or a plies:N no game survives, `openings "<spec>": <why>`. On failure *s
 * holds nothing to free (openings_free is harmless). */
int openings_load(OpeningSet *s, const char *spec, const Variant *v, Error *e);

/* openings_load with a relative file:PATH read from folder base (NULL or "": the current
 * folder), as a config's book is read beside the config; s->spec stays as written, so a
 * results file and a resume do not depend on where the command was run from. */
int openings_load_in(OpeningSet *s, const char *spec, const char *base, const Variant *v,
                     Error *e);

/* The order named by text ("in-order" or "shuffled"); -1 for any other text. */
int openings_order_parse(const char *text, OpeningsOrder *order);

/* Put a loaded list in the order job `job` of an experiment seeded `seed` plays it. For
 * OPENINGS_SHUFFLED, a Fisher-Yates shuffle of the whole list drawn from sub-stream
 * RNG_SUB_OPENINGS_ORDER of the job's game-0 stream: one permutation per job, a pure
 * function of (seed, job), that every cycle of `count` pairs plays again (so each opening
 * is played once per cycle, and a pair's opening index still names a row of the job's
 * openings table). OPENINGS_IN_ORDER leaves the list as read. -1 with
 * `openings_order "shuffled": ...` when the spec has no list to order (start, plies:N). */
int openings_set_order(OpeningSet *s, OpeningsOrder order, uint64_t seed, uint64_t job,
                       Error *e);

/* Free what openings_load made; *s is then as after a failed load. */
void openings_free(OpeningSet *s);

/* The opening of pair `pair` of job `job` (games 2*pair and 2*pair+1) into *o, and its index
 * in the job's table of openings: start -> -1 (o = the start, no moves); all:N and file ->
 * pair % count (of the list in its order: openings_set_order); plies:N -> pair (each pair draws its own). plies:N draws N plies from the
 * start, each uniform among the side to move's legal moves (after an extra move the same
 * side moves again), from the stream RNG_SUB_OPENING of game 2*pair's stream (a pure
 * function of (seed, job, pair), independent of the games' own streams); an opening whose
 * plies end the game (or make an endless move) is drawn again, from the same stream
 * continued. It only reads *s, so threads may call it at once. */
int64_t openings_pair(const OpeningSet *s, const Variant *v, uint64_t seed, uint64_t job,
                      uint64_t pair, Opening *o);

/* The position an opening leads to (its position or the start, then its moves). */
void opening_position(const Variant *v, const Opening *o, Position *p);

/* The GameStart that plays an opening: its position (or NULL) and its moves. It points into
 * *o, which must outlive the game. */
GameStart opening_game_start(const Opening *o);

/* Line l of a root design (root.h) from opening o, index `index` in its job's list: its
 * moves, and the side to move before each, found by replaying the start ply by ply (an extra
 * move keeps the mover on move). */
void opening_root_line(const Variant *v, const Opening *o, int64_t index, RootLine *l);

/* The APN of the position an opening leads to, into buf (APN_MAX bytes); returns its length. */
int opening_apn(const Variant *v, const Opening *o, char *buf);

/* The opening's moves as text ("3 14 7", hole numbers as `anywoli move` takes them; "" for
 * none), truncated to fit len bytes. */
void opening_moves_text(const Opening *o, char *buf, size_t len);

#endif
