/* game.h: one whole game between two agents, and its record. */
#ifndef ANYWOLI_GAME_H
#define ANYWOLI_GAME_H

#include <stdbool.h>
#include <stdint.h>

#include "agent.h"
#include "position.h"

/* How a game ended (results-file format 1, field `outcome`). */
typedef enum Outcome {
    OUT_SOUTH = 0, OUT_NORTH = 1, OUT_DRAW = 2, OUT_ENDLESS = 3, OUT_UNFINISHED = 4
} Outcome;

/* An outcome's word, the one vocabulary of the outputs that name an outcome (export's
 * column, replay, the Python package's OUTCOMES): south, north, draw, endless, unfinished;
 * "?" for a code that is none of them. */
const char *outcome_name(int outcome);

/* An outcome as a sentence or a row label says it: "South won", "North won", else its
 * word (draw, endless, unfinished): replay's end line and analyze's outcomes table. */
const char *outcome_phrase(int outcome);

/* The plies of a game's line: games that agree on these follow the same line, whatever
 * their later moves (a deterministic search plays one line from the start, while its
 * tie-breaks late in the game make every game differ somewhere). */
#define LINE_PLIES 10

/* The per-game record (results-file format 1, docs/results.md). */
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
    int32_t opening;          /* index in the job's openings table; -1: the variant's start */
    uint64_t moves_hash;      /* FNV-1a of the game's whole move sequence, opening included */
    uint64_t line_hash;       /* the same of its first LINE_PLIES plies (all, if fewer) */
    uint64_t nodes_a, nodes_b; /* the work agent A and agent B spent over the game
                                * (choice_work of each choice, in game.c); game_play_from fills
                                * them South's and North's, game_play_indexed A's and B's */
    uint32_t choices_a, choices_b; /* the moves each chose (plies after the opening's), in
                                    * the same order: the work per move is nodes / choices */
} GameRecord;

/* A's half-points in a game (2 a win, 1 a draw or an endless game, 0 a loss; -1 when it
 * stopped unfinished) and South's points minus North's in *south_minus_north (1, 0, -1): a
 * game as the pair statistics count it (pairs.h's pair_tally_add). */
int record_a_half_points(const GameRecord *r, int *south_minus_north);

/* Where a game starts: a position (NULL: the variant's start), then moves already chosen,
 * played first as plies of the game (an opening line; a random one is drawn by
 * sim/openings.c). The agents choose every ply after these; the ply cap counts them all. */
typedef struct GameStart {
    const Position *position;   /* NULL: the variant's start */
    const int *moves;           /* legal moves in order, n_moves of them */
    uint32_t n_moves;
} GameStart;

/* How a game stopped at the ply cap is judged. */
typedef enum UnfinishedJudgement {
    UNFINISHED_KEPT,            /* outcome unfinished, the stores as they stood */
    UNFINISHED_BY_STORES        /* the side with more seeds in its store wins (equal: kept) */
} UnfinishedJudgement;

/* One move as the game loop made it, for an observer (traces, printing, records). */
typedef struct GameMove {
    uint32_t ply;               /* the move's ply, from 1 */
    int move;                   /* the hole picked up */
    MoveEvent ev;
    const Position *before;     /* the position the move was made in */
    const Position *after;      /* after it (as before for an endless move) */
    const MoveInfo *info;
    const MoveTrace *trace;     /* the move's captures in order */
    const AgentStats *stats;    /* the choosing agent's, or NULL for a move of the start */
} GameMove;

/* Called after every move of a game; ctx is GameOptions' observer_ctx. */
typedef void GameObserver(void *ctx, const GameMove *m);

/* A game's moves in order, each the hole picked up (0 .. 2 x holes - 1), as the game loop
 * made them: one a ply, the start's given moves first; passes are not moves. Grown as
 * needed; move_list_free frees it. */
typedef struct MoveList {
    uint8_t *move;
    uint32_t n, cap;
} MoveList;

/* Free a move list's moves (the list is left empty). */
void move_list_free(MoveList *l);

/* How a game is played: where it starts, its ply cap and judgement, an observer, and where
 * its moves go. */
typedef struct GameOptions {
    GameStart start;
    int64_t max_plies;          /* the ply cap; 0: the variant's max_plies */
    UnfinishedJudgement unfinished;
    GameObserver *observe;      /* NULL: none (and no move traces are collected) */
    void *observer_ctx;
    MoveList *moves;            /* NULL: none; else emptied, then every move made (running out
                                 * of memory for it abandons the game: AGENT_NO_MEMORY) */
    bool adjudicate;            /* end the game at the first position where a store holds more
                                 * than half the seeds (game_decided): its winner is certain.
                                 * The record's outcome is that winner, its south and north the
                                 * stores then, its left the seeds on the board */
} GameOptions;

/* The one game loop. Play a game of v from o's start (o NULL: the variant's start, its ply
 * cap, no observer): south and north choose, each from its own sub-stream of the game
 * stream g, and the lottery coin comes from g. Fills r (all but `game` and `a_south`) and
 * *end (when not NULL) with the position the game stopped in, and returns 0; or, when an
 * agent gave up its search (a stop request, or no memory) or returned any other negative
 * code, abandons the game and returns that code, r then holding only the plies made and
 * *end the position the agent was asked about. */
int game_play_from(const Variant *v, Agent *south, Agent *north, const Rng *g,
                   const GameOptions *o, GameRecord *r, Position *end);

/* game_play_from from the start of v, with the variant's ply cap and no observer. */
int game_play(const Variant *v, Agent *south, Agent *north, const Rng *g, GameRecord *r);

struct Opening;   /* openings.h */

/* Game `game` of a job as every command plays it: its stream seeded from (seed, job, game),
 * agent A South in even-numbered games, from `opening` (its position, then its moves as the
 * game's first plies; NULL: o's start, or the variant's) whose index in the job's openings
 * table goes to r->opening (-1: none). With a or b NULL, the game of two `random` agents, by
 * game_play_random (o then without an observer). Fills r whole, `game`, `a_south` and
 * `opening` included; returns as game_play_from. */
int game_play_indexed(const Variant *v, uint64_t seed, uint64_t job, uint64_t game,
                      const struct Opening *opening, int32_t opening_index, Agent *a, Agent *b,
                      const GameOptions *o, GameRecord *r, Position *end);

/* The same game as game_play_from with two `random` agents, record and *end alike: o's given
 * moves (o NULL: none, from the variant's start) as the game loop plays them, then the
 * engine's random playout loop (its fastest) with the agents' streams, o's ply cap and
 * judgement. o must have no observer and no move list: the playout shows no one its moves. */
void game_play_random(const Variant *v, const Rng *g, const GameOptions *o, GameRecord *r,
                      Position *end);

/* Fill r's award fields, scores and outcome from the position where the game stopped: under
 * the variant's convention for a finished game (stopped is then any finished outcome), the
 * stores as they stood for OUT_ENDLESS and OUT_UNFINISHED. */
void game_record_end(const Variant *v, const Position *p, const Rng *g, Outcome stopped,
                     GameRecord *r);

/* The side whose store holds more than half of v's seeds in p (SOUTH or NORTH), the game's
 * certain winner: stores only grow, and every seed ends in a score; NOBODY when neither does.
 * An adjudicated game (GameOptions.adjudicate) ends there. */
int game_decided(const Variant *v, const Position *p);

/* Whether r is the record of an adjudicated game: a win with more seeds left on the board than
 * a finished game leaves (at most capture). */
bool record_adjudicated(const Variant *v, const GameRecord *r);

/* The outcome of a finished game from its final scores. */
Outcome game_outcome(unsigned south, unsigned north);

#endif
