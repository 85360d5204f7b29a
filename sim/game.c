/* game.c: playing a whole game and recording how it went. */
#include "game.h"

#include <string.h>


Outcome game_outcome(unsigned south, unsigned north)
{
    return south > north ? OUT_SOUTH : north > south ? OUT_NORTH : OUT_DRAW;
}

void game_record_end(const Variant *v, const Position *p, const Rng *g, Outcome stopped,
                     GameRecord *r)
{
    Award a;
    pos_award(v, p, g, &a);
    r->left = p->left;
    r->last_capturer = a.penultimate;
    r->first_final = a.first_final;
    r->lottery = a.lottery;
    if (stopped == OUT_ENDLESS || stopped == OUT_UNFINISHED) {
        /* No award: the stores as they stood. */
        r->south = p->store[SOUTH];
        r->north = p->store[NORTH];
        r->outcome = (int8_t)stopped;
    } else {
        r->south = a.score[SOUTH];
        r->north = a.score[NORTH];
        r->outcome = (int8_t)game_outcome(r->south, r->north);
    }
}

void game_play_random(const Variant *v, const Rng *g, GameRecord *r)
{
    Rng stream[2] = { rng_substream(g, RNG_SUB_AGENT_SOUTH), rng_substream(g, RNG_SUB_AGENT_NORTH) };
    Position pos;
    Playout po;
    pos_start(v, &pos);
    MoveEvent ev = pos_random_playout(v, &pos, stream, &po);
    Outcome stopped = ev == EV_ENDLESS ? OUT_ENDLESS : ev == EV_NEXT ? OUT_UNFINISHED : OUT_DRAW;
    game_record_end(v, &pos, g, stopped, r);
    r->plies = (uint32_t)po.plies;
    r->passes = po.passes;
    r->mid_captures = (uint16_t)po.mid_captures;
    r->final_captures = (uint16_t)po.final_captures;
    r->move_hash = po.hash;
}

int game_play(const Variant *v, Agent *south, Agent *north, const Rng *g, GameRecord *r)
{
    Agent *agent[2] = { south, north };
    Rng stream[2] = { rng_substream(g, RNG_SUB_AGENT_SOUTH), rng_substream(g, RNG_SUB_AGENT_NORTH) };
    Position pos;                 /* played in place: the fastest way */
    uint64_t hash = PLAYOUT_HASH_START;
    uint32_t plies = 0, passes = 0, mid = 0, fin = 0;
    Outcome stopped = OUT_DRAW;   /* any finished outcome; decided by the scores */

    agent_new_game(south);
    agent_new_game(north);
    pos_start(v, &pos);
    while (!pos_over(v, &pos)) {
        const Position *p = &pos;
        if (plies >= v->max_plies) {
            stopped = OUT_UNFINISHED;
            break;
        }
        int side = p->side;
        AgentStats st = { 0 };
        int move = agent[side]->choose(agent[side], v, p, &stream[side], &st);
        if (move < 0)
            return move;   /* abandoned: r is not a game */
        MoveInfo info;
        MoveEvent ev = pos_play(v, &pos, move, &pos, &info, NULL);
        plies++;
        hash = (hash ^ (uint64_t)move) * PLAYOUT_HASH_MULT;
        if (ev == EV_ENDLESS) {
            stopped = OUT_ENDLESS;   /* the position stays as it stood before the move */
            break;
        }
        passes += info.passed;
        mid += info.mid_captures;
        fin += info.final_capture;
    }
    game_record_end(v, &pos, g, stopped, r);
    r->plies = plies;
    r->passes = passes;
    r->mid_captures = (uint16_t)mid;
    r->final_captures = (uint16_t)fin;
    r->move_hash = hash;
    return 0;
}
