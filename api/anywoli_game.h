/* anywoli_game.h: one game of the Anywoli family, stepped from another language.
 *
 * The C API of libanywoli_game.so, for bindings (Python's anywoli.Game, through ctypes). It is
 * a thin layer over the lab's own rules (variants/: Position, pos_play, APN, the variant
 * options), so a game stepped here is move for move the game `anywoli move` plays. Only plain
 * C types cross it: ints, a 64-bit seed, char buffers and one opaque pointer; the library
 * exports these functions and nothing else.
 *
 * Errors: a function that fails returns NULL or -1 and leaves a one-line message, read by
 * aw_last_error() (the calling thread's own). A state is not shared between threads unless
 * the caller locks it; different states may be used by different threads at once. */
#ifndef ANYWOLI_GAME_API_H
#define ANYWOLI_GAME_API_H

#include <stdint.h>

#if defined(__GNUC__)
#define AW_API __attribute__((visibility("default")))
#else
#define AW_API
#endif

/* Raised whenever a function or its meaning changes, so a binding can refuse a library it
 * does not know. */
#define AW_API_VERSION 1

/* The most holes a board has (both rows): the size of a buffer that holds every legal move. */
#define AW_MAX_PITS 64

/* The longest APN the library writes, with its terminating zero. */
#define AW_APN_MAX 448

/* What a move did: as `anywoli move` reports it (RULES: "After each move a program reports
 * one event"). */
enum {
    AW_EV_NEXT = 0,      /* the turn passes (or the opponent passes back) */
    AW_EV_EXTRA = 1,     /* a final-seed capture with extra_turn: the mover moves again */
    AW_EV_OVER = 2,      /* the move ended the game */
    AW_EV_ENDLESS = 3    /* the move never ends: the position is unchanged, the game stops */
};

/* Where a game stands. */
enum {
    AW_PLAYING = 0,
    AW_OVER = 1,         /* ended by the rules: `capture` or fewer seeds on the board */
    AW_ENDLESS = 2,      /* stopped by an endless move */
    AW_UNFINISHED = 3    /* stopped at the variant's max_plies (plies counted from the state's
                          * start: the variant's start or the APN given) */
};

/* A finished game's outcome, as a results file codes it (docs/results.md). */
enum { AW_SOUTH_WON = 0, AW_NORTH_WON = 1, AW_DRAW = 2, AW_OUT_ENDLESS = 3, AW_OUT_UNFINISHED = 4 };

/* The counts of one move, in the int array aw_play fills (AW_INFO_N of them). */
enum {
    AW_INFO_EVENT = 0,       /* the AW_EV_ code */
    AW_INFO_MOVER,           /* who moved: 0 South, 1 North */
    AW_INFO_MID_CAPTURES,    /* mid-sow captures (by the hole's owner) */
    AW_INFO_FINAL_CAPTURE,   /* 1 if the move ended with a final-seed capture */
    AW_INFO_PASSED,          /* 1 if the player due next had to pass */
    AW_INFO_GAIN_SOUTH,      /* seeds the move put in South's store */
    AW_INFO_GAIN_NORTH,      /* and in North's */
    AW_INFO_LAPS,            /* laps sown (capped at INT32_MAX) */
    AW_INFO_STATUS,          /* the game's AW_PLAYING .. AW_UNFINISHED after the move */
    AW_INFO_N_MOVES,         /* the legal moves after it (aw_play_moves puts them in moves) */
    AW_INFO_N
};

typedef struct AwGame AwGame;

/* AW_API_VERSION of the library loaded. */
AW_API int aw_api_version(void);

/* The calling thread's last error message (one line; "" if none yet). */
AW_API const char *aw_last_error(void);

/* A new game. preset: `anywoli`, `yit-nuri`, `yit-jani`, or NULL for the standard game; then
 * n parameters by name and value as the variant options take them (names[i] `holes`,
 * `final_four` or `final-four` ..., values[i] "7", "lottery", "yes"). apn: NULL for the
 * variant's start, else the position to start from (holes and seeds, when not given, taken
 * from it, as `anywoli move --position` does). The lottery coin is that of seed 1 (see
 * aw_set_seed). NULL with a message on any error. */
AW_API AwGame *aw_new(const char *preset, int n, const char *const *names,
                      const char *const *values, const char *apn);

/* Free a game (NULL: nothing). */
AW_API void aw_free(AwGame *g);

/* An independent copy of g, its plies and status included; NULL when out of memory. */
AW_API AwGame *aw_clone(const AwGame *g);

/* The lottery coin's stream: the coin of game 0 of job 0 of an experiment seeded `seed` (the
 * coin depends on nothing else, as in the lab's runs). */
AW_API void aw_set_seed(AwGame *g, uint64_t seed);

/* The legal moves (absolute hole indices, ascending) into moves (room for cap, AW_MAX_PITS
 * always suffices); returns how many, 0 once the game has stopped; -1 if cap is too small. */
AW_API int aw_legal_moves(const AwGame *g, int *moves, int cap);

/* Play a legal move. Returns its AW_EV_ event and, when info is not NULL, fills info[0 ..
 * AW_INFO_N-1]. -1 with a message, and g unchanged, when the move is not legal or the game
 * has stopped. */
AW_API int aw_play(AwGame *g, int move, int *info);

/* aw_play, then the legal moves after it into moves (room for AW_MAX_PITS), their count in
 * info[AW_INFO_N_MOVES] (info required): one call a step, for fast stepping from Python. */
AW_API int aw_play_moves(AwGame *g, int move, int *info, int *moves);

/* Play uniformly random moves until the game stops (the engine's random playout, each side
 * drawing from its own stream of an experiment seeded `seed`, game 0 of job 0). Returns the
 * status reached (AW_OVER, AW_ENDLESS or AW_UNFINISHED) and, when plies is not NULL, the
 * moves made in *plies; -1 if the game had already stopped. */
AW_API int aw_random_playout(AwGame *g, uint64_t seed, int64_t *plies);

/* The position as APN into buf (room for len, AW_APN_MAX always suffices); returns its
 * length, -1 if len is too small. */
AW_API int aw_to_apn(const AwGame *g, char *buf, int len);

/* The board: the 2 x holes pits in index order (South's row, then North's), then South's and
 * North's stores, into out (room for cap); returns 2 x holes + 2, -1 if cap is too small. */
AW_API int aw_board(const AwGame *g, int *out, int cap);

/* Holes per row. */
AW_API int aw_holes(const AwGame *g);

/* The variant as `holes=12 seeds=4 capture=4 ...` into buf; its length, -1 if too small. */
AW_API int aw_variant(const AwGame *g, char *buf, int len);

/* The side to move: 0 South, 1 North (once the game has stopped: the last mover). */
AW_API int aw_side_to_move(const AwGame *g);

/* The seeds in a side's store (side 0 South, 1 North); -1 for another side. */
AW_API int aw_store(const AwGame *g, int side);

/* Moves made since the state's start. */
AW_API int64_t aw_plies(const AwGame *g);

/* The AW_PLAYING .. AW_UNFINISHED status, and whether it is not AW_PLAYING. */
AW_API int aw_status(const AwGame *g);
AW_API int aw_is_over(const AwGame *g);

/* The result of a stopped game under a final_four convention (`penultimate`, `first-final`,
 * `lottery`; NULL: the variant's own): the final seeds of South and North into scores[2] and
 * the outcome (AW_SOUTH_WON .. AW_OUT_UNFINISHED) returned. A game ended by the rules gets
 * the seeds left awarded by the convention; an endless or unfinished one keeps the stores as
 * they stood, as the lab's game records do. -1 with a message while the game is playing or
 * for an unknown convention. */
AW_API int aw_result(const AwGame *g, const char *convention, int *scores);

#endif
