/* position.h: positions, moves (relay sowing and captures), and the end of the game. */
#ifndef ANYWOLI_POSITION_H
#define ANYWOLI_POSITION_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "rng.h"
#include "variant.h"

/* A position, copied by value. Change it only through the functions here. */
typedef struct Position {
    uint64_t nonempty;        /* bit i set when pit i holds seeds */
    uint64_t legal;           /* the side to move's non-empty holes (0 once the game is over) */
    uint16_t pit[MAX_PITS];   /* seeds in each hole, in sowing order */
    uint16_t store[2];        /* captured seeds of South and North */
    uint16_t left;            /* seeds still on the board */
    int8_t side;              /* SOUTH or NORTH to move (the mover, once the game is over) */
    int8_t last_capturer;     /* whose store received the last capture, or NOBODY */
    int8_t first_final;       /* who made the first final-seed capture, or NOBODY */
} Position;

/* What a move did, as reported after it (RULES: "After each move a program reports one event"). */
typedef enum MoveEvent {
    EV_NEXT = 0,   /* the turn passes (or the opponent passes back) */
    EV_EXTRA,      /* a final-seed capture with extra_turn: the mover moves again */
    EV_OVER,       /* the move ended the game */
    EV_ENDLESS     /* the move never ends; the position is unchanged */
} MoveEvent;

/* Counts of what one move did, for records, perft statistics and display. (Inside the engine
 * each move adds its counts, so a playout can sum a whole game in one.) */
typedef struct MoveInfo {
    uint64_t laps;            /* laps sown (a playout sums a whole game's) */
    uint32_t mid_captures;    /* mid-sow captures (by the hole's owner) */
    uint32_t final_capture;   /* 1 if the move ended with a final-seed capture */
    uint32_t passed;          /* 1 if the player due next had to pass */
} MoveInfo;

/* One capture, in the order it happened, for callers that show a move seed by seed. */
typedef struct Capture {
    uint8_t hole;             /* where */
    uint8_t by;               /* whose store received it */
    uint8_t final;            /* 1 for a final-seed capture, 0 for mid-sow */
    uint8_t lap;              /* in which lap (1-based, capped at 255) */
} Capture;

/* Optional detail of one move: every capture, for `play`, and the holes its laps sowed into
 * and relayed from, for the board drawings (sim/board_svg.h); none of it for an endless move,
 * which never happened. */
typedef struct MoveTrace {
    int n;                    /* captures recorded */
    Capture cap[MAX_PITS * 64 / 2];
    uint64_t sown;            /* bit i set when a lap dropped a seed into hole i */
    uint64_t relayed;         /* bit i set when a relay lap (the second or later) picked up
                               * hole i */
} MoveTrace;

/* Laps sown before the exact cycle check starts; below it no move can be endless cheaply. */
#define ENDLESS_CHECK_FROM 64

/* A move that sows more than this many seeds is endless (RULES rule 6 allows a bound of at least
 * 1,000,000; docs/rules.md says why this one). It bounds the cost of one move to milliseconds,
 * however long a cycle the exact check would have to wait for. */
#define MOVE_SEED_BOUND 1000000u

/* The start position of a variant: `seeds` in every hole, South to move. */
void pos_start(const Variant *v, Position *p);

/* True when the game is over: `capture` or fewer seeds are still on the board. */
static inline bool pos_over(const Variant *v, const Position *p)
{
    return p->left <= v->capture;
}

/* Legal moves as a bit mask of pits (empty once the game is over). */
static inline uint64_t pos_legal_mask(const Variant *v, const Position *p)
{
    (void)v;
    return p->legal;   /* kept by every move, so choosing a move waits on nothing else */
}

/* Fill moves[] with the legal moves in ascending hole order; return how many. */
int pos_legal_moves(const Variant *v, const Position *p, uint8_t moves[MAX_PITS]);

/* Whether `move` is legal; if not, and e is given, say why. */
bool pos_move_ok(const Variant *v, const Position *p, int move, Error *e);

/* Play a legal move: out receives the position after it (the position before it for
 * EV_ENDLESS). in and out may be the same position, which is the fastest way to play a game.
 * info (required) receives counts; trace (optional) every capture. */
MoveEvent pos_play(const Variant *v, const Position *in, int move, Position *out,
                   MoveInfo *info, MoveTrace *trace);

/* pos_play with another bound on the seeds one move sows (pos_play's is MOVE_SEED_BOUND), for
 * tests that reach it in a few laps. The bound is looked at from lap ENDLESS_CHECK_FROM on: a
 * smaller bound than the laps before it sow is passed only there. */
MoveEvent pos_play_bounded(const Variant *v, const Position *in, int move, Position *out,
                           MoveInfo *info, MoveTrace *trace, uint32_t seed_bound);

/* A uniformly random legal move of p (which is not over), drawn from rng: the k-th legal move in
 * ascending hole order, k uniform (the same draw as the `random` agent). */
int pos_random_move(const Position *p, Rng *rng);

/* What a random playout did. */
typedef struct Playout {
    uint64_t plies;            /* moves made */
    uint32_t passes;           /* automatic passes */
    uint32_t mid_captures, final_captures;
    uint64_t hash;             /* FNV-1a of the moves, a signature of the whole game */
    uint64_t drawn[2];         /* moves the playout drew for each side (SOUTH, NORTH) */
} Playout;

#define PLAYOUT_HASH_START 0xcbf29ce484222325ULL
#define PLAYOUT_HASH_MULT 0x100000001b3ULL

/* Play uniformly random moves from p, South drawing from stream[SOUTH] and North from
 * stream[NORTH], until the game is over (EV_OVER), a move is endless (EV_ENDLESS, p as before
 * it), or max_plies moves were made (EV_NEXT: unfinished). The engine's fastest loop: random
 * playouts are the inner loop of random-agent experiments and of Monte Carlo search. */
MoveEvent pos_random_playout(const Variant *restrict v, Position *restrict p, Rng stream[2],
                             Playout *out);

/* pos_random_playout going on with a game already under way: p is the position after the
 * moves so_far counts, and the playout adds its own moves to so_far's plies, passes, captures
 * and hash. It stops unfinished (EV_NEXT) when the plies, those before it included, reach
 * max_plies (which may differ from v's: a game's own cap). */
MoveEvent pos_random_playout_from(const Variant *restrict v, Position *restrict p, Rng stream[2],
                                  int64_t max_plies, Playout *so_far);

/* The name of an event as written by `anywoli move`: next, extra, over, endless. */
const char *move_event_name(MoveEvent ev);

/* Set the derived masks (nonempty, legal) from the board, side and seeds left. */
void pos_set_masks(const Variant *v, Position *p);

/* Internal consistency: counts add up to the total, masks and fields agree. */
bool pos_ok(const Variant *v, const Position *p);

/* The three recipients of the seeds left, and the final scores under the variant's convention. */
typedef struct Award {
    int8_t penultimate;       /* last capturer (NOBODY only if no capture was ever made) */
    int8_t first_final;       /* first final-seed capturer, or NOBODY */
    int8_t lottery;           /* the game's coin: SOUTH or NORTH */
    int8_t recipient;         /* who receives the seeds left under v->final_four */
    uint16_t left;            /* seeds left for the award */
    uint16_t score[2];        /* final seeds of South and North, after the award */
} Award;

/* Decide the award of a finished game. coin_stream is the game's stream; the lottery coin is
 * drawn from a sub-stream of its own, so it is the same whatever the agents drew. */
void pos_award(const Variant *v, const Position *p, const Rng *coin_stream, Award *a);

/* The recipient under a convention from the three recorded recipients. */
int award_recipient(FinalFour f, int penultimate, int first_final, int lottery);

/* Parse an APN. v holds the variant options given so far; holes_given and seeds_given say which
 * of them the user fixed (a preset fixes both). When not given, holes come from the row length
 * and seeds from the total; v is then completed. -1 with a one-line message on any error. */
int apn_parse(const char *text, Variant *v, bool holes_given, bool seeds_given, Position *p,
              Error *e);

/* Write p as APN into buf (at least APN_MAX bytes); returns the length. */
#define APN_MAX (MAX_PITS * 6 + 64)
int apn_format(const Variant *v, const Position *p, char *buf);

#endif
