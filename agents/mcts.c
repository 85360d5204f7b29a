/* mcts.c: Monte Carlo tree search with UCT (upper confidence bounds applied to trees), to a
 * fixed number of playouts. A playout follows a cheap policy: uniformly random moves (the
 * engine's playout loop) or greedy ones (greedy_move); it may be cut off after `horizon`
 * plies and scored by the alpha-beta evaluation (eval.h), squashed into the reward range.
 *
 * One node is added per playout. A node keeps the rewards of the player who made the move
 * into it, so each parent picks its child by that child's own mean: with extra moves and
 * passes the side to move does not simply alternate, and this way it need not.
 *
 * With `temperature` T the move is drawn among the root's children with probability
 * proportional to visits^(1/T), AlphaZero's softmax of the log visit counts, from the
 * position's choice stream (choice.c), instead of the most visited one. Visits rather than
 * mean rewards: a child visited a few times has a noisy mean, and UCT already spends its
 * visits where the means are near the best. */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "agents_internal.h"
#include "eval.h"

/* The options. */
typedef struct MctsSettings {
    int64_t playouts;       /* playouts per move */
    double c;               /* exploration constant of UCT */
    int reward;             /* 0 win (1, 1/2, 0), 1 margin (scaled to [0, 1]) */
    int64_t horizon;        /* a playout's moves at most; 0: to the end of the game */
    int policy;             /* 0 random, 1 greedy: how a playout chooses its moves */
    double temperature;     /* the root choice: visits^(1/T); 0: the most visited */
    int64_t choice_moves;   /* the agent's first moves of a game that use it; 0: all */
    EvalWeights weights;    /* the evaluation of a playout cut at the horizon */
} MctsSettings;

static const char *const reward_names[] = { "win", "margin", NULL };
static const char *const policy_names[] = { "random", "greedy", NULL };

static const AgentOption mcts_options[] = {
    { "playouts", AOPT_INT, offsetof(MctsSettings, playouts), 1, 1e8, "1000", NULL,
      "playouts per move (one tree node each)" },
    { "c", AOPT_REAL, offsetof(MctsSettings, c), 0, 100, "0.7", NULL,
      "UCT exploration constant (rewards lie in [0, 1])" },
    { "reward", AOPT_CHOICE, offsetof(MctsSettings, reward), 0, 0, "win", reward_names,
      "a playout's reward: win (1, draw 1/2, loss 0) or margin (seeds ahead, scaled)" },
    { "horizon", AOPT_INT, offsetof(MctsSettings, horizon), 0, 1e9, "20", NULL,
      "cut a playout after this many plies and score it by the evaluation (w.*), squashed "
      "into the reward range (0: play to the end)" },
    { "policy", AOPT_CHOICE, offsetof(MctsSettings, policy), 0, 0, "random", policy_names,
      "how playouts move: uniformly at random, or as the greedy agent (ties at random)" },
    { "temperature", AOPT_REAL, offsetof(MctsSettings, temperature), 0, 1000, "0", NULL,
      "choose a root move with probability proportional to its visits^(1/T) (0: off, the "
      "most visited)" },
    { "choice_moves", AOPT_INT, offsetof(MctsSettings, choice_moves), 0, 1e9, "0", NULL,
      "temperature applies to the agent's first this many moves of a game, the most visited "
      "move after them (0: every move)" },
    /* Store difference alone by default: with w.seeds=0.1 a cut playout that keeps seeds
     * at home looks good, and against greedy MCTS then shuffles until max_plies. */
    { "w", AOPT_WEIGHTS, offsetof(MctsSettings, weights), -1000, 1000, "w.seeds=0", NULL,
      "evaluation weights of a cut playout, as alphabeta's: w.<term>=x (see below)" },
    { NULL, 0, 0, 0, 0, NULL, NULL, NULL },
};

const AgentKind mcts_kind = {
    "mcts", "Monte Carlo tree search (UCT) with cheap playouts (random or greedy), cut off "
    "at a horizon and scored by the evaluation", mcts_options,
    sizeof(MctsSettings),
};

/* A node of the tree: the position after `move`, known only by the path to it. */
typedef struct MctsNode {
    uint64_t untried;       /* legal moves of this position not yet expanded */
    double reward;          /* summed rewards of `mover` */
    uint32_t visits;
    uint32_t child;         /* first child, 0 for none (node 0, the root, is no child) */
    uint32_t sibling;       /* next child of the same parent, 0 for none */
    uint8_t move;           /* the move into this node */
    int8_t mover;           /* who made it */
    uint8_t end;            /* 1 when the move ended the game (over or endless) */
    float end_south;        /* South's reward there, for an end */
} MctsNode;

/* The agent's state: settings and a node pool for one search. */
typedef struct Mcts {
    AgentData base;         /* the settings, for agent_describe */
    const MctsSettings *set;
    Evaluator ev;           /* the weights, in fixed point */
    Variant cut;            /* the variant searched, with max_plies as a playout's limit */
    MctsNode *node;         /* the node pool, grown by doubling as searches need it */
    uint32_t used, cap;     /* nodes in use in this search; nodes allocated */
    uint64_t moves;         /* searches in this game so far, for choice_moves */
} Mcts;

/* The node pool a new agent starts with. A search adds one node per playout, so sizing the
 * pool by the budget (playouts + 1) would reserve gigabytes for a large budget before the
 * first playout; doubling from here keeps memory at what searches have used. */
#define MCTS_FIRST_NODES 1024

/* South's reward in [0, 1] for a game that stopped at p (the lottery by its expectation). */
static double mcts_south_reward(const Variant *v, const Mcts *t, const Position *p, MoveEvent ev)
{
    int m[2];
    eval_south_margins(v, p, ev, m);
    if (t->set->reward == 1)
        return 0.5 + (m[SOUTH] + m[NORTH]) / (4.0 * v->total);
    double win = 0;
    for (int r = 0; r < 2; r++)
        win += m[r] > 0 ? 0.5 : m[r] == 0 ? 0.25 : 0.0;
    return win;
}

/* Seeds of evaluation per unit of the logistic that turns a cut playout's evaluation into
 * South's chance of winning (reward=win): a 24th of the seeds in play, 4 on the standard
 * board. */
#define MCTS_SQUASH_PART 24.0

/* South's reward in [0, 1] for a playout cut at p (not over), from the evaluation: the
 * logistic of South's value (reward=win), or the value scaled as a margin (reward=margin). */
static double mcts_cut_reward(const Variant *v, const Mcts *t, const Position *p)
{
    int32_t x = eval_position(&t->ev, v, p);
    double seeds = (double)(p->side == SOUTH ? x : -x) / EVAL_SCALE;
    if (t->set->reward == 1) {
        double r = 0.5 + seeds / (2.0 * v->total);
        return r < 0 ? 0 : r > 1 ? 1 : r;
    }
    return 1 / (1 + exp(-seeds * MCTS_SQUASH_PART / v->total));
}

/* A greedy playout from p (not over) on the stream s, at most t->cut.max_plies plies: what
 * the last move reported (EV_NEXT when cut), p left where it stopped. */
static MoveEvent mcts_greedy_playout(const Variant *v, const Mcts *t, Position *p, Rng *s)
{
    uint64_t nodes = 0;
    for (int64_t ply = 0; ply < t->cut.max_plies; ply++) {
        int32_t gain;
        MoveInfo info;
        MoveEvent ev = pos_play(v, p, greedy_move(v, p, s, &gain, &nodes), p, &info, NULL);
        if (ev >= EV_OVER)
            return ev;
    }
    return EV_NEXT;
}

/* A playout from p (not over) by the set policy with fresh streams drawn from rng; South's
 * reward. A playout cut at the horizon (or at the variant's max_plies) is scored by the
 * evaluation. */
static double mcts_playout(const Variant *v, const Mcts *t, Position p, Rng *rng)
{
    Rng stream[2];
    stream[SOUTH] = (Rng){ rng_next(rng), 0 };
    stream[NORTH] = (Rng){ rng_next(rng), 0 };
    MoveEvent ev;
    if (t->set->policy == 1) {
        ev = mcts_greedy_playout(v, t, &p, &stream[SOUTH]);
    } else {
        Playout po;
        ev = pos_random_playout(&t->cut, &p, stream, &po);
    }
    return ev == EV_NEXT ? mcts_cut_reward(v, t, &p) : mcts_south_reward(v, t, &p, ev);
}

/* A fresh node for the position p after `move` by `mover`. */
static uint32_t mcts_new_node(Mcts *t, const Position *p, int move, int mover, MoveEvent ev)
{
    uint32_t i = t->used++;
    MctsNode *n = &t->node[i];
    n->untried = ev >= EV_OVER ? 0 : p->legal;
    n->reward = 0;
    n->visits = 0;
    n->child = n->sibling = 0;
    n->move = (uint8_t)move;
    n->mover = (int8_t)mover;
    n->end = ev >= EV_OVER;
    n->end_south = 0;
    return i;
}

/* The child of n with the highest upper confidence bound (the first of equals). */
static uint32_t mcts_select(const Mcts *t, const MctsNode *n)
{
    const double log_n = log((double)n->visits), c = t->set->c;
    uint32_t best = 0;
    double best_ucb = -1;
    for (uint32_t i = n->child; i; i = t->node[i].sibling) {
        const MctsNode *ch = &t->node[i];
        double ucb = ch->reward / ch->visits + c * sqrt(log_n / ch->visits);
        if (ucb > best_ucb) {
            best_ucb = ucb;
            best = i;
        }
    }
    return best;
}

/* Expand one untried move of node `at` (position p), chosen uniformly: the new child, with
 * p moved on to it and South's reward of the new leaf in *south. */
static uint32_t mcts_expand(const Variant *v, Mcts *t, uint32_t at, Position *p, Rng *rng,
                            double *south, AgentStats *st)
{
    MctsNode *n = &t->node[at];
    uint32_t k = rng_below(rng, (uint32_t)__builtin_popcountll(n->untried));
    uint64_t m = n->untried;
    while (k--)
        m &= m - 1;
    int move = __builtin_ctzll(m), mover = p->side;
    n->untried &= ~(1ULL << move);
    MoveInfo info;
    MoveEvent ev = pos_play(v, p, move, p, &info, NULL);
    st->nodes++;
    uint32_t c = mcts_new_node(t, p, move, mover, ev);
    t->node[c].sibling = n->child;   /* n is still valid: the pool grows only between
                                      * iterations (mcts_room) */
    n->child = c;
    if (ev >= EV_OVER) {
        *south = mcts_south_reward(v, t, p, ev);
        t->node[c].end_south = (float)*south;
    } else {
        *south = mcts_playout(v, t, *p, rng);
    }
    return c;
}

/* The deepest path followed from the root; below it a leaf is played out unexpanded, so a
 * long forced line (one legal move after another) cannot overrun the path. */
#define MCTS_MAX_PATH 1024

/* One iteration: select down the tree, expand one node, play out, and back the reward up.
 * Returns the depth reached. */
static int mcts_iterate(const Variant *v, Mcts *t, const Position *root, Rng *rng,
                        AgentStats *st)
{
    uint32_t path[MCTS_MAX_PATH + 1];
    int len = 0;
    uint32_t at = 0;
    Position p = *root;
    double south;
    path[len++] = 0;
    for (;;) {
        const MctsNode *n = &t->node[at];
        if (n->end) {
            south = n->end_south;
            break;
        }
        if (n->untried) {
            path[len++] = mcts_expand(v, t, at, &p, rng, &south, st);
            break;
        }
        if (len == MCTS_MAX_PATH) {
            south = mcts_playout(v, t, p, rng);
            break;
        }
        at = mcts_select(t, n);
        MoveInfo info;
        pos_play(v, &p, t->node[at].move, &p, &info, NULL);
        st->nodes++;
        path[len++] = at;
    }
    for (int i = 0; i < len; i++) {
        MctsNode *n = &t->node[path[i]];
        n->visits++;
        n->reward += n->mover == SOUTH ? south : 1 - south;
    }
    return len - 1;
}

/* The most visited root child (then the best mean, then the lowest hole). */
static const MctsNode *mcts_best(const Mcts *t)
{
    const MctsNode *best = NULL;
    for (uint32_t i = t->node[0].child; i; i = t->node[i].sibling) {
        const MctsNode *ch = &t->node[i];
        if (!best || ch->visits > best->visits ||
            (ch->visits == best->visits &&
             (ch->reward > best->reward ||
              (ch->reward == best->reward && ch->move < best->move))))
            best = ch;
    }
    return best;
}

/* A root child drawn with probability proportional to (visits / most visits)^(1/T), from
 * the choice stream of the root p (children in the tree's order, which the search's
 * stream fixed). */
static const MctsNode *mcts_draw(const Mcts *t, const Variant *v, const Position *p,
                                 const MctsNode *most, Rng *rng)
{
    const MctsNode *child[MAX_PITS];
    double weight[MAX_PITS];
    int n = 0;
    for (uint32_t i = t->node[0].child; i; i = t->node[i].sibling, n++) {
        child[n] = &t->node[i];
        weight[n] = pow((double)child[n]->visits / most->visits, 1 / t->set->temperature);
    }
    Rng r = choice_stream(rng, agent_position_hash(v, p));
    return child[choice_draw(weight, n, &r)];
}

/* Room in the pool for one more iteration's node (at most one is added), doubling it up to
 * what the budget can use (playouts + 1 nodes); -1 when memory runs out. Only here does the
 * pool move, so no node pointer is held across it. */
static int mcts_room(Mcts *t)
{
    if (t->used < t->cap)
        return 0;
    uint64_t most = (uint64_t)t->set->playouts + 1;
    uint64_t cap = (uint64_t)t->cap * 2 < most ? (uint64_t)t->cap * 2 : most;
    MctsNode *node = realloc(t->node, (size_t)cap * sizeof *node);
    if (!node)
        return -1;
    t->node = node;
    t->cap = (uint32_t)cap;
    return 0;
}

/* Run the set number of playouts from p and pick the most visited move (or draw one by the
 * temperature); AGENT_STOPPED when a stop is requested first, AGENT_NO_MEMORY when the
 * tree cannot grow. */
static int mcts_choose(Agent *a, const Variant *v, const Position *p, Rng *rng, AgentStats *st)
{
    Mcts *t = a->data;
    const bool choosing = t->set->temperature > 0 &&
                          choice_this_move(&t->moves, t->set->choice_moves);
    uint64_t legal = pos_legal_mask(v, p);
    if (!(legal & (legal - 1)))
        return __builtin_ctzll(legal);   /* one legal move: nothing to search */
    t->used = 0;
    t->cut = *v;
    if (t->set->horizon && t->set->horizon < t->cut.max_plies)
        t->cut.max_plies = t->set->horizon;
    mcts_new_node(t, p, 0, !p->side, EV_NEXT);
    int deepest = 0;
    for (int64_t i = 0; i < t->set->playouts; i++) {
        if (i % AGENT_STOP_POLL == AGENT_STOP_POLL - 1 && agent_stop_requested())
            return AGENT_STOPPED;
        if (mcts_room(t) != 0)
            return AGENT_NO_MEMORY;
        int d = mcts_iterate(v, t, p, rng, st);
        deepest = d > deepest ? d : deepest;
    }
    st->playouts += (uint64_t)t->set->playouts;
    const MctsNode *best = mcts_best(t);
    if (choosing)
        best = mcts_draw(t, v, p, best, rng);
    st->depth = deepest;
    st->value = best->reward / best->visits;
    return best->move;
}

/* A new game: its moves are counted afresh for choice_moves. */
static void mcts_new_game(Agent *a)
{
    Mcts *t = a->data;
    t->moves = 0;
}

/* Free the node pool, the settings and the state. */
static void mcts_done(Agent *a)
{
    Mcts *t = a->data;
    if (t) {
        free(t->node);
        free(t->base.settings);
    }
    free(t);
}

/* Build the agent: a first node pool (searches grow it), and the weights in fixed point. */
int mcts_agent_init(Agent *a, void *settings, Error *e)
{
    const MctsSettings *set = settings;
    Mcts *t = calloc(1, sizeof *t);
    if (t) {
        t->cap = set->playouts + 1 < MCTS_FIRST_NODES ? (uint32_t)set->playouts + 1
                                                      : MCTS_FIRST_NODES;
        t->node = malloc((size_t)t->cap * sizeof *t->node);
    }
    if (!t || !t->node) {
        free(t);
        return error_set(e, "agent 'mcts': out of memory");
    }
    t->base.settings = settings;
    t->set = set;
    eval_prepare(&set->weights, &t->ev);
    a->data = t;
    a->choose = mcts_choose;
    a->new_game = mcts_new_game;
    a->done = mcts_done;
    return 0;
}
