/* game.c: playing a whole game and recording how it went. */
#include "game.h"

#include <assert.h>
#include <stdlib.h>

#include "check.h"
#include "openings.h"
#include "record_row.h"


Outcome game_outcome(unsigned south, unsigned north)
{
    return south > north ? OUT_SOUTH : north > south ? OUT_NORTH : OUT_DRAW;
}

int game_decided(const Variant *v, const Position *p)
{
    return 2 * (int)p->store[SOUTH] > v->total ? SOUTH
         : 2 * (int)p->store[NORTH] > v->total ? NORTH : NOBODY;
}

bool record_adjudicated(const Variant *v, const GameRecord *r)
{
    return (r->outcome == OUT_SOUTH || r->outcome == OUT_NORTH) && r->left > v->capture;
}

const char *outcome_name(int outcome)
{
    static const char *const names[] = { "south", "north", "draw", "endless", "unfinished" };
    return outcome >= OUT_SOUTH && outcome <= OUT_UNFINISHED ? names[outcome] : "?";
}

const char *outcome_phrase(int outcome)
{
    return outcome == OUT_SOUTH ? "South won" : outcome == OUT_NORTH ? "North won"
                                                                     : outcome_name(outcome);
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

void move_list_free(MoveList *l)
{
    free(l->move);
    l->move = NULL;
    l->n = l->cap = 0;
}

/* Append a move to l, growing it; -1 when out of memory. */
static int move_list_push(MoveList *l, int move)
{
    if (l->n == l->cap) {
        uint32_t cap = l->cap ? 2 * l->cap : 256;
        uint8_t *grown = cap > l->cap ? realloc(l->move, cap) : NULL;
        if (!grown)
            return -1;
        l->move = grown;
        l->cap = cap;
    }
    l->move[l->n++] = (uint8_t)move;
    return 0;
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

/* A game under way: where it stands and what its moves counted so far. */
typedef struct GameSoFar {
    Position pos;
    Playout count;     /* plies, passes, captures and the hash of the moves made */
    uint64_t line;     /* the hash once LINE_PLIES moves were made (kept when more are) */
    Outcome stopped;   /* OUT_ENDLESS, OUT_UNFINISHED, or OUT_DRAW: going on, or finished
                        * (the scores decide) */
    uint64_t work[2];  /* by side: what its agent's choices cost (choice_work) */
    uint32_t choices[2]; /* by side: how many moves its agent chose (in the engine's random
                          * playout, count.drawn) */
    bool adjudicated;  /* stopped, going on, where a store held more than half the seeds */
} GameSoFar;

/* What one choice cost its agent: the playouts of a search that plays them (MCTS), else the
 * nodes (alpha-beta, greedy); 0 for an agent that does not search. */
static uint64_t choice_work(const AgentStats *st)
{
    return st->playouts ? st->playouts : st->nodes;
}

/* The game's ply cap: its own, or the variant's. */
static int64_t ply_cap(const Variant *v, const GameOptions *o)
{
    return o->max_plies > 0 ? o->max_plies : v->max_plies;
}

/* A game at o's start, no move made. */
static void start_game(const Variant *v, const GameOptions *o, GameSoFar *s)
{
    if (o->start.position)
        s->pos = *o->start.position;
    else
        pos_start(v, &s->pos);
    s->count = (Playout){ .hash = PLAYOUT_HASH_START };
    s->line = 0;
    s->stopped = OUT_DRAW;
    s->adjudicated = false;
    s->work[SOUTH] = s->work[NORTH] = 0;
    s->choices[SOUTH] = s->choices[NORTH] = 0;
}

/* Tell the agents that follow a game (game_move: an external program) a move made. */
static void tell_move(Agent *const *agent, int move)
{
    for (int side = 0; side < 2; side++)
        if (agent[side]->game_move)
            agent[side]->game_move(agent[side], move);
}

/* The game loop: play s on until it is over, a move is endless or the cap is reached, each ply
 * one of the start's given moves and then the agents' choices, each from its own stream. With
 * agent NULL it stops, the game going on, before the first ply an agent would choose. Returns 0,
 * or the negative code of an agent that gave up (s->pos then the position it was asked about). */
static int play_moves(const Variant *v, Agent *const *agent, Rng stream[2], const GameOptions *o,
                      GameSoFar *s)
{
    const int64_t cap = ply_cap(v, o);
    const bool told = agent && (agent[SOUTH]->game_move || agent[NORTH]->game_move);
    Playout *n = &s->count;
    while (!pos_over(v, &s->pos)) {
        if (o->adjudicate && game_decided(v, &s->pos) != NOBODY) {
            s->adjudicated = true;
            return 0;
        }
        if ((int64_t)n->plies >= cap) {
            s->stopped = OUT_UNFINISHED;
            return 0;
        }
        /* Step 1. The move: one of the start's given moves, or the agent's choice. */
        int side = s->pos.side, move;
        AgentStats st = { 0 };
        const AgentStats *chosen = NULL;
        if (n->plies < o->start.n_moves) {
            move = o->start.moves[n->plies];
        } else if (!agent) {
            return 0;   /* the rest of the game is the caller's to play */
        } else {
            move = agent[side]->choose(agent[side], v, &s->pos, &stream[side], &st);
            chosen = &st;
            s->work[side] += choice_work(&st);
            s->choices[side]++;
        }
        if (move < 0)
            return move;   /* abandoned: not a game */
        /* Step 2. Make it and count it. */
        MoveInfo info;
        MoveEvent ev = make_move(v, o, &s->pos, move, (uint32_t)n->plies + 1, chosen, &info);
        n->plies++;
        n->hash = (n->hash ^ (uint64_t)move) * PLAYOUT_HASH_MULT;
        if (told)
            tell_move(agent, move);
        if (o->moves && move_list_push(o->moves, move) != 0)
            return AGENT_NO_MEMORY;
        if (n->plies == LINE_PLIES)
            s->line = n->hash;
        if (ev == EV_ENDLESS) {
            s->stopped = OUT_ENDLESS;   /* the position stays as it stood before the move */
            return 0;
        }
        n->passes += info.passed;
        n->mid_captures += info.mid_captures;
        n->final_captures += info.final_capture;
    }
    return 0;
}

/* record_fault, the reader's check of a stored row (less the row's place in its job, which
 * game_play_indexed gives it), held to this game's own cap and start, on the record as the
 * rules leave it: a game stopped at its cap unfinished, whatever a match's judgement by the
 * stores made of it. */
static int game_record_fault(const Variant *v, const GameOptions *o, Outcome stopped,
                             const GameRecord *r, char *why, size_t len)
{
    const Position *start = o->start.position;
    RecordLimits limits = { .max_plies = ply_cap(v, o),
                            .min_plies = start && (pos_over(v, start) ||
                                                   (o->adjudicate && game_decided(v, start) !=
                                                    NOBODY)) ? 0 : 1,
                            .from_position = start != NULL,
                            .adjudicated = o->adjudicate };
    GameRecord unjudged = *r;
    if (stopped == OUT_UNFINISHED)
        unjudged.outcome = OUT_UNFINISHED;
    return record_fault(v, &limits, &unjudged, why, len);
}

/* Fill r (all but `game`, `a_south` and `opening`) from the game s, which has stopped. */
static void record_game(const Variant *v, const Rng *g, const GameOptions *o, const GameSoFar *s,
                        GameRecord *r)
{
    const Position *p = &s->pos;
    game_record_end(v, p, g, s->adjudicated ? OUT_UNFINISHED : s->stopped, r);
    if (s->adjudicated)   /* the stores as they stood, and the winner they make certain */
        r->outcome = (int8_t)(game_decided(v, p) == SOUTH ? OUT_SOUTH : OUT_NORTH);
    if (s->stopped == OUT_UNFINISHED && o->unfinished == UNFINISHED_BY_STORES
        && p->store[SOUTH] != p->store[NORTH])
        r->outcome = p->store[SOUTH] > p->store[NORTH] ? OUT_SOUTH : OUT_NORTH;
    r->plies = (uint32_t)s->count.plies;
    r->passes = s->count.passes;
    r->mid_captures = (uint16_t)s->count.mid_captures;
    r->final_captures = (uint16_t)s->count.final_captures;
    r->opening = -1;
    r->moves_hash = s->count.hash;
    r->line_hash = s->count.plies > LINE_PLIES ? s->line : s->count.hash;
    r->nodes_a = s->work[SOUTH];   /* game_play_indexed puts them in A's and B's order */
    r->nodes_b = s->work[NORTH];
    r->choices_a = s->choices[SOUTH] + (uint32_t)s->count.drawn[SOUTH];
    r->choices_b = s->choices[NORTH] + (uint32_t)s->count.drawn[NORTH];
    /* In the checking build, every record the game loop ends must be one the results file's
     * reader would accept. */
    char why[256];
    CHECK(game_record_fault(v, o, s->stopped, r, why, sizeof why) == 0, "%s", why);
}

static const GameOptions plain;   /* the variant's start and cap, no observer */

int game_play_from(const Variant *v, Agent *south, Agent *north, const Rng *g,
                   const GameOptions *o, GameRecord *r, Position *end)
{
    if (!o)
        o = &plain;
    Agent *agent[2] = { south, north };
    Rng stream[2] = { rng_substream(g, RNG_SUB_AGENT_SOUTH), rng_substream(g, RNG_SUB_AGENT_NORTH) };
    GameSoFar s;
    agent_new_game(south);
    agent_new_game(north);
    start_game(v, o, &s);
    for (int side = 0; side < 2; side++)
        if (agent[side]->game_begin)
            agent[side]->game_begin(agent[side], v, &s.pos, side, stream[side].key);
    if (o->moves)
        o->moves->n = 0;
    int rc = play_moves(v, agent, stream, o, &s);
    if (end)
        *end = s.pos;
    if (rc != 0) {
        r->plies = (uint32_t)s.count.plies;
        r->opening = -1;
        return rc;
    }
    record_game(v, g, o, &s, r);
    for (int side = 0; side < 2; side++)
        if (agent[side]->game_end)
            agent[side]->game_end(agent[side], outcome_name(r->outcome), r->south, r->north);
    return 0;
}

int game_play(const Variant *v, Agent *south, Agent *north, const Rng *g, GameRecord *r)
{
    return game_play_from(v, south, north, g, NULL, r, NULL);
}

/* The random playout on with the game s to the ply cap. A game short of the line's end stops
 * there first, to keep the line's hash: the streams give back their next draws, so the second
 * playout goes on exactly as one would have (and the playout's own loop keeps no more than it
 * did: counting the line there cost about 5% a ply). */
static void play_random(const Variant *v, Rng stream[2], int64_t cap, GameSoFar *s)
{
    MoveEvent ev = EV_NEXT;
    if (s->count.plies < LINE_PLIES && cap > LINE_PLIES) {
        ev = pos_random_playout_from(v, &s->pos, stream, LINE_PLIES, &s->count);
        s->line = s->count.hash;
    }
    if (ev == EV_NEXT)
        ev = pos_random_playout_from(v, &s->pos, stream, cap, &s->count);
    s->stopped = ev == EV_ENDLESS ? OUT_ENDLESS : ev == EV_NEXT ? OUT_UNFINISHED : OUT_DRAW;
}

/* play_random for a game that ends once decided (game_decided): the playout one ply at a
 * time, which draws what the whole playout would (the streams give back their next draws), so
 * the moves are those of the game played on, the stores looked at after each. */
static void play_random_adjudicated(const Variant *v, Rng stream[2], int64_t cap, GameSoFar *s)
{
    MoveEvent ev = EV_NEXT;
    while (ev == EV_NEXT && !pos_over(v, &s->pos)) {
        if (game_decided(v, &s->pos) != NOBODY) {
            s->adjudicated = true;
            return;
        }
        if ((int64_t)s->count.plies >= cap)
            break;
        ev = pos_random_playout_from(v, &s->pos, stream, (int64_t)s->count.plies + 1, &s->count);
        if (s->count.plies == LINE_PLIES)
            s->line = s->count.hash;
    }
    s->stopped = ev == EV_ENDLESS ? OUT_ENDLESS : ev == EV_NEXT && !pos_over(v, &s->pos)
                                                      ? OUT_UNFINISHED : OUT_DRAW;
}

void game_play_random(const Variant *v, const Rng *g, const GameOptions *o, GameRecord *r,
                      Position *end)
{
    if (!o)
        o = &plain;
    assert(!o->observe && !o->moves);   /* the playout shows no one its moves */
    Rng stream[2] = { rng_substream(g, RNG_SUB_AGENT_SOUTH), rng_substream(g, RNG_SUB_AGENT_NORTH) };
    GameSoFar s;
    start_game(v, o, &s);
    /* The start's given moves as the loop plays them (they draw nothing), then the playout
     * goes on with the agents' streams, the counts and the hash. */
    play_moves(v, NULL, stream, o, &s);
    if (s.stopped == OUT_DRAW && !s.adjudicated) {
        if (o->adjudicate)
            play_random_adjudicated(v, stream, ply_cap(v, o), &s);
        else
            play_random(v, stream, ply_cap(v, o), &s);
    }
    if (end)
        *end = s.pos;
    record_game(v, g, o, &s, r);
}

int game_play_indexed(const Variant *v, uint64_t seed, uint64_t job, uint64_t game,
                      const Opening *opening, int32_t opening_index, Agent *a, Agent *b,
                      const GameOptions *o, GameRecord *r, Position *end)
{
    Rng g;
    bool a_south = game % 2 == 0;
    bool scripted = opening && (opening->has_position || opening->n_moves > 0);
    GameOptions from = o ? *o : plain;
    int rc = 0;
    rng_seed(&g, seed, job, game);
    if (scripted)
        from.start = opening_game_start(opening);
    if (!a || !b)
        game_play_random(v, &g, &from, r, end);
    else
        rc = game_play_from(v, a_south ? a : b, a_south ? b : a, &g, &from, r, end);
    r->game = game;
    r->a_south = a_south;
    r->opening = opening_index;
    if (!a_south) {   /* the loop counted South's work first: B's in this game */
        uint64_t south = r->nodes_a;
        r->nodes_a = r->nodes_b;
        r->nodes_b = south;
        uint32_t south_choices = r->choices_a;
        r->choices_a = r->choices_b;
        r->choices_b = south_choices;
    }
    return rc;
}

int record_a_half_points(const GameRecord *r, int *south_minus_north)
{
    *south_minus_north = r->outcome == OUT_SOUTH ? 1 : r->outcome == OUT_NORTH ? -1 : 0;
    if (r->outcome == OUT_UNFINISHED)
        return -1;
    if (r->outcome != OUT_SOUTH && r->outcome != OUT_NORTH)
        return 1;
    return (r->outcome == OUT_SOUTH) == (r->a_south != 0) ? 2 : 0;
}
