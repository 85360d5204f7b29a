/* game.h: one whole game between two agents, and its record. */
#ifndef ANYWOLI_GAME_H
#define ANYWOLI_GAME_H

#include <stdint.h>

#include "agent.h"
#include "position.h"

/* How a game ended (results-file format 1, field `outcome`). */
typedef enum Outcome {
    OUT_SOUTH = 0, OUT_NORTH = 1, OUT_DRAW = 2, OUT_ENDLESS = 3, OUT_UNFINISHED = 4
} Outcome;

/* The per-game record (results-file format 1). */
typedef struct GameRecord {
    uint64_t game;            /* index of the game in its job */
    uint8_t a_south;          /* 1 when agent A played South */
    int8_t outcome;           /* an Outcome, under the variant's final_four */
    uint16_t south, north;    /* final seeds of each side, after the award */
    uint16_t left;            /* seeds left for the final award */
    int8_t last_capturer;     /* the penultimate recipient: SOUTH, NORTH or NOBODY */
    int8_t first_final;       /* the first final-seed capturer, or NOBODY */
    int8_t lottery;           /* the game's lottery coin */
    uint32_t plies, passes;   /* moves made; automatic passes */
    uint16_t mid_captures, final_captures;
    uint64_t move_hash;       /* FNV-1a of the moves, for signatures (not stored) */
} GameRecord;

/* Play one game from the start of v: south and north choose, each from its own sub-stream of
 * the game stream g. Fills r (all but `game` and `a_south`) and returns 0; or, when an
 * agent gave up its search (a stop request, or no memory), abandons the game and returns
 * what the agent did (AGENT_STOPPED, AGENT_NO_MEMORY), r then holding no game. */
int game_play(const Variant *v, Agent *south, Agent *north, const Rng *g, GameRecord *r);

/* The same game as game_play with two `random` agents, move for move, played by the engine's
 * random playout loop (its fastest). */
void game_play_random(const Variant *v, const Rng *g, GameRecord *r);

/* Fill r's award fields, scores and outcome from the position where the game stopped: under
 * the variant's convention for a finished game (stopped is then any finished outcome), the
 * stores as they stood for OUT_ENDLESS and OUT_UNFINISHED. */
void game_record_end(const Variant *v, const Position *p, const Rng *g, Outcome stopped,
                     GameRecord *r);

/* The outcome of a finished game from its final scores. */
Outcome game_outcome(unsigned south, unsigned north);

#endif
