/* game.c: playing a whole game and recording how it went. */
#include "game.h"

#include <string.h>

#include "openings.h"


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

/* The hash of the first LINE_PLIES plies of the game game_play_random plays from g (one of
 * more plies): the same playout again, stopped there, so its draws and moves are the game's
 * first ones. Those few plies again cost less than keeping the hash in the playout's loop,
 * which slowed every ply by about 5%. */
static uint64_t random_line_hash(const Variant *v, const Rng *g)
{
    Variant line = *v;
    line.max_plies = LINE_PLIES;
    Rng stream[2] = { rng_substream(g, RNG_SUB_AGENT_SOUTH), rng_substream(g, RNG_SUB_AGENT_NORTH) };
    Position pos;
    Playout po;
    pos_start(&line, &pos);
    pos_random_playout(&line, &pos, stream, &po);
    return po.hash;
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
    r->opening = -1;
    r->moves_hash = po.hash;
    r->line_hash = po.plies > LINE_PLIES ? random_line_hash(v, g) : po.hash;
}

/* Make ply `ply`'s move in place; with an observer, collect its trace and show it the move. */
static MoveEvent make_move(const Variant *v, const GameOptions *o, Position *pos, int move,
                           uint32_t ply, const AgentStats *st, MoveInfo *info)
{
    if (!o->observe)
        return pos_play(v, pos, move, pos, info, NULL);   /* in place: the fastest way */
    Position before = *pos;
    MoveTrace trace;
    MoveEvent ev = pos_play(v, &before, move, pos, info, &trace);
    GameMove m = { ply, move, ev, &before, pos, info, &trace, st };
    o->observe(o->observer_ctx, &m);
    return ev;
}

int game_play_from(const Variant *v, Agent *south, Agent *north, const Rng *g,
                   const GameOptions *o, GameRecord *r, Position *end)
{
    static const GameOptions plain;   /* the variant's start and cap, no observer */
    if (!o)
        o = &plain;
    Agent *agent[2] = { south, north };
    Rng stream[2] = { rng_substream(g, RNG_SUB_AGENT_SOUTH), rng_substream(g, RNG_SUB_AGENT_NORTH) };
    const uint32_t given = o->start.n_moves;
    const int64_t cap = o->max_plies > 0 ? o->max_plies : v->max_plies;
    Position pos;
    uint64_t hash = PLAYOUT_HASH_START, line = 0;   /* line: the hash at ply LINE_PLIES */
    uint32_t plies = 0, passes = 0, mid = 0, fin = 0;
    Outcome stopped = OUT_DRAW;   /* any finished outcome; decided by the scores */
    int rc = 0;

    agent_new_game(south);
    agent_new_game(north);
    if (o->start.position)
        pos = *o->start.position;
    else
        pos_start(v, &pos);
    while (!pos_over(v, &pos)) {
        if (plies >= cap) {
            stopped = OUT_UNFINISHED;
            break;
        }
        /* Step 1. The move: one of the start's given moves, or the agent's choice. */
        int side = pos.side, move;
        AgentStats st = { 0 };
        const AgentStats *chosen = NULL;
        if (plies < given) {
            move = o->start.moves[plies];
        } else {
            move = agent[side]->choose(agent[side], v, &pos, &stream[side], &st);
            chosen = &st;
        }
        if (move < 0) {
            rc = move;   /* abandoned: r is not a game */
            break;
        }
        /* Step 2. Make it and count it. */
        MoveInfo info;
        MoveEvent ev = make_move(v, o, &pos, move, plies + 1, chosen, &info);
        plies++;
        hash = (hash ^ (uint64_t)move) * PLAYOUT_HASH_MULT;
        if (plies == LINE_PLIES)
            line = hash;
        if (ev == EV_ENDLESS) {
            stopped = OUT_ENDLESS;   /* the position stays as it stood before the move */
            break;
        }
        passes += info.passed;
        mid += info.mid_captures;
        fin += info.final_capture;
    }
    if (end)
        *end = pos;
    r->plies = plies;
    r->opening = -1;
    if (rc != 0)
        return rc;
    game_record_end(v, &pos, g, stopped, r);
    if (stopped == OUT_UNFINISHED && o->unfinished == UNFINISHED_BY_STORES
        && pos.store[SOUTH] != pos.store[NORTH])
        r->outcome = pos.store[SOUTH] > pos.store[NORTH] ? OUT_SOUTH : OUT_NORTH;
    r->passes = passes;
    r->mid_captures = (uint16_t)mid;
    r->final_captures = (uint16_t)fin;
    r->moves_hash = hash;
    r->line_hash = plies >= LINE_PLIES ? line : hash;
    return 0;
}

int game_play(const Variant *v, Agent *south, Agent *north, const Rng *g, GameRecord *r)
{
    return game_play_from(v, south, north, g, NULL, r, NULL);
}

/* A game from an opening between two `random` agents made for it: the fast playout only
 * plays from the variant's start (and counts its hash from there). */
static int play_random_agents(const Variant *v, const Rng *g, const GameOptions *o,
                              GameRecord *r, Position *end)
{
    Agent south, north;
    Error e;
    /* `random` has no options: only a lack of memory can refuse it. */
    if (agent_create(&south, "random", &e) != 0)
        return AGENT_NO_MEMORY;
    if (agent_create(&north, "random", &e) != 0) {
        agent_free(&south);
        return AGENT_NO_MEMORY;
    }
    int rc = game_play_from(v, &south, &north, g, o, r, end);
    agent_free(&south);
    agent_free(&north);
    return rc;
}

int game_play_indexed(const Variant *v, uint64_t seed, uint64_t job, uint64_t game,
                      const Opening *opening, int32_t opening_index, Agent *a, Agent *b,
                      const GameOptions *o, GameRecord *r, Position *end)
{
    static const GameOptions plain;
    Rng g;
    bool a_south = game % 2 == 0;
    bool scripted = opening && (opening->has_position || opening->n_moves > 0);
    GameOptions from = o ? *o : plain;
    int rc = 0;
    rng_seed(&g, seed, job, game);
    if (scripted)
        from.start = opening_game_start(opening);
    if ((!a || !b) && !scripted)
        game_play_random(v, &g, r);
    else if (!a || !b)
        rc = play_random_agents(v, &g, &from, r, end);
    else
        rc = game_play_from(v, a_south ? a : b, a_south ? b : a, &g, &from, r, end);
    r->game = game;
    r->a_south = a_south;
    r->opening = opening_index;
    return rc;
}
