/* mcts.c: Monte Carlo tree search with UCT (upper confidence bounds applied to trees), to a
 * fixed number of playouts. A playout follows a cheap policy: uniformly random moves (the
 * engine's playout loop), greedy ones (greedy_move), or a capture when one of a few moves
 * tried at random makes one (capture_playout_move); it may be cut off after `horizon`
 * plies and scored by the alpha-beta evaluation (eval.h), squashed into the reward range;
 * with policy=none there is no playout and a new leaf is scored by the evaluation at once.
 *
 * One node is added per playout (expand=one), or every move of a node at once (expand=all,
 * below). A node keeps the rewards of the player who made the move into it, so each parent
 * picks its child by that child's own mean: with extra moves and passes the side to move
 * does not simply alternate, and this way it need not.
 *
 * Implicit minimax backups (Lanctot, Winands, Pepels and Sturtevant 2014; `minimax=alpha`):
 * each node also keeps tau, a minimax value of the evaluation over the tree below it, for
 * its mover like the rewards: a leaf's is its position's evaluation when it is added
 * (squashed as a cut playout's; exact at an end or a position the tables cover), an inner
 * node's the best of its children's for the side to move there (their mover), turned to
 * its own mover when that is the other side. Selection then ranks a child by
 * (1 - alpha) mean + alpha tau plus the exploration term, so a trap a few plies deep that
 * the playouts' mean averages away still counts at its minimax value. Each iteration
 * updates tau from the new leaf's parent up, stopping where a value does not change (no
 * ancestor's can then).
 *
 * expand=all: a node's moves are added together the first time an iteration passes a node
 * visited before, each valued by the evaluation; a child not yet visited is ranked by that
 * value (with tau, a node's value is the minimax over all its moves, not just those tried),
 * so the tree grows along the moves the evaluation and the backups favour rather than
 * trying every move once first; 1,000 playouts of expand=one leave a tree about three plies
 * deep and full width. Its expanded nodes keep their positions, so an iteration plays no
 * move on its way down, and with reuse=1 the next search starts from the subtree of its
 * position, found among the kept positions a few plies below the last root.
 *
 * With `temperature` T the move is drawn among the root's children with probability
 * proportional to visits^(1/T), AlphaZero's softmax of the log visit counts, from the
 * position's choice stream (choice.c), instead of the most visited one. Visits rather than
 * mean rewards: a child visited a few times has a noisy mean, and UCT already spends its
 * visits where the means are near the best.
 *
 * MCTS-Solver (Winands, Bjornsson and Saito 2008; `solver=1`): a node whose game score is
 * known exactly is proven, and the proof travels up the tree. What is proven is the game's
 * score, not its margin: win 1, draw 1/2, loss 0 (the lottery's two coins by their mean, so
 * a quarter apart), kept in quarters. A winning child proves its parent at once, which a
 * margin could not (the parent's margin is the best of all its children's); the agent plays
 * for the win (reward=win), so the score is what it needs. Proven are the ends of the game
 * (scored exactly under the variant's convention) and, with `tables=FILE`, every position
 * the endgame tables cover (the sign of their exact value; not under the lottery, whose
 * tables hold the coin's mean margin, which does not tell the score). A node is proven when
 * a child is a proven win for the side to move there, or when every move is expanded and
 * every child proven (the best of their scores). Selection treats a proven node as an end
 * and never enters a child proven lost for the side choosing; the search stops as soon as
 * the root is proven (a winning move is played at once), and the final choice ranks a
 * proven win above everything and a proven loss below everything, visits deciding among
 * the rest. */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "agents_internal.h"
#include "eval.h"
#include "learned.h"
#include "net.h"
#include "tables.h"
#include "margin.h"

/* The options. */
typedef struct MctsSettings {
    int64_t playouts;       /* playouts per move */
    double c;               /* exploration constant of UCT */
    int reward;             /* 0 win (1, 1/2, 0), 1 margin (scaled to [0, 1]) */
    int64_t horizon;        /* a playout's moves at most; 0: to the end of the game */
    int policy;             /* 0 random, 1 greedy, 2 capture: how a playout chooses its moves */
    double epsilon;         /* a greedy playout's chance of a random move instead */
    int64_t tries;          /* policy=capture: moves tried for a capture at most; 0: all */
    double temperature;     /* the root choice: visits^(1/T); 0: the most visited */
    int64_t choice_moves;   /* the agent's first moves of a game that use it; 0: all */
    int64_t solver;         /* 1: prove game scores up the tree (MCTS-Solver) */
    char tables[AGENT_TEXT_MAX];   /* endgame tables file, or "" */
    double minimax;         /* alpha: the weight of a child's implicit minimax value in
                             * selection (0: off, plain UCT) */
    double squash;          /* seeds of evaluation per unit of the logistic of reward=win
                             * (0: a 24th of the seeds in play) */
    int weight_set;         /* MCTS_WEIGHTS_*: the set the weights not given come from */
    char net[AGENT_TEXT_MAX];      /* a network file for weights=net, or "" (the built-in) */
    int expand;             /* MCTS_EXPAND_*: a node's children one per playout, or all at once */
    int64_t reuse;          /* expand=all: 1 to start from the last search's subtree */
    EvalWeights weights;    /* the evaluation of a playout cut at the horizon */
} MctsSettings;

static const char *const reward_names[] = { "win", "margin", NULL };
/* The policy's index: none (3) came last, so the others kept theirs. */
enum { MCTS_RANDOM = 0, MCTS_GREEDY, MCTS_CAPTURE, MCTS_NO_PLAYOUT };
static const char *const policy_names[] = { "random", "greedy", "capture", "none", NULL };
/* The set the weights not given come from: the store alone (MCTS's own default), or one of
 * eval.h's two sets; or the learned evaluation or the network instead of the terms. */
enum { MCTS_WEIGHTS_STORE = 0, MCTS_WEIGHTS_PLAIN, MCTS_WEIGHTS_TUNED, MCTS_WEIGHTS_LEARNED,
       MCTS_WEIGHTS_NET };
static const char *const weight_set_names[] = { "store", "plain", "tuned", "learned", "net",
                                                NULL };
/* How a node grows: one untried move per playout, drawn at random (UCT as it was), or every
 * move at once, each child valued by the evaluation before it is visited. */
enum { MCTS_EXPAND_ONE = 0, MCTS_EXPAND_ALL };
static const char *const expand_names[] = { "one", "all", NULL };

static const AgentOption mcts_options[] = {
    { "playouts", AOPT_INT, offsetof(MctsSettings, playouts), 1, 1e8, "1000", NULL,
      "playouts per move: iterations, each adding one tree node (expand=all: a node's moves)",
      .changes_play = true },
    /* c=0.35 and policy=capture beat c=0.7 and policy=random at 1,000 playouts from the
     * balanced book (docs/strong-play.md, configs/mcts-place.cfg). */
    { "c", AOPT_REAL, offsetof(MctsSettings, c), 0, 100, "0.35", NULL,
      "UCT exploration constant (rewards lie in [0, 1])", .changes_play = true },
    { "reward", AOPT_CHOICE, offsetof(MctsSettings, reward), 0, 0, "win", reward_names,
      "a playout's reward: win (1, draw 1/2, loss 0) or margin (seeds ahead, scaled)",
      .changes_play = true },
    { "horizon", AOPT_INT, offsetof(MctsSettings, horizon), 0, 1e9, "20", NULL,
      "cut a playout after this many plies and score it by the evaluation (w.*), squashed "
      "into the reward range (0: play to the end)", .changes_play = true },
    { "policy", AOPT_CHOICE, offsetof(MctsSettings, policy), 0, 0, "capture", policy_names,
      "how playouts move: uniformly at random, as the greedy agent (ties at random), "
      "capture: the first of `tries` moves in random order that wins seeds, else the last "
      "one tried, or none: no playout, a new leaf is scored by the evaluation at once",
      .changes_play = true },
    { "epsilon", AOPT_REAL, offsetof(MctsSettings, epsilon), 0, 1, "0", NULL,
      "policy=greedy: each playout move is uniformly random with this chance instead "
      "(epsilon-greedy; 0: always greedy)", .changes_play = true },
    { "tries", AOPT_INT, offsetof(MctsSettings, tries), 0, 64, "0", NULL,
      "policy=capture: legal moves tried at most for one that wins seeds (0: all of them)",
      .changes_play = true },
    { "temperature", AOPT_REAL, offsetof(MctsSettings, temperature), 0, 1000, "0", NULL,
      "choose a root move with probability proportional to its visits^(1/T) (0: off, the "
      "most visited)", .changes_play = true },
    { "choice_moves", AOPT_INT, offsetof(MctsSettings, choice_moves), 0, 1e9, "0", NULL,
      "temperature applies to the agent's first this many moves of a game, the most visited "
      "move after them (0: every move)", .changes_play = true },
    { "solver", AOPT_INT, offsetof(MctsSettings, solver), 0, 1, "1", NULL,
      "MCTS-Solver: prove wins, draws and losses up the tree from the ends of the game (and "
      "the tables), play a proven win at once, never a proven loss while there is another "
      "move (0: plain UCT)", .changes_play = true },
    { "tables", AOPT_TEXT, offsetof(MctsSettings, tables), 0, 0, "", NULL,
      "endgame tables of the variant (anywoli tables build; auto: the variant's to 8 seeds, "
      "built once into the cache folder): positions they cover are leaves scored exactly, and "
      "proven (not under the lottery)", .changes_play = true,
      .digest = tables_option_digest },
    { "minimax", AOPT_REAL, offsetof(MctsSettings, minimax), 0, 1, "0", NULL,
      "implicit minimax backups: selection weighs a child's mean reward (1 - alpha) with the "
      "minimax of the evaluation over its subtree, squashed as a reward (alpha); ends and "
      "tables count exactly (0: off)", .changes_play = true },
    /* Fitted to outcomes (a logistic of the evaluation over 39,790 positions of 670 games
     * of alphabeta:depth=8 against itself from the book, maximum likelihood): 7.4 seeds for
     * the store difference (`anywoli fit`'s K = 0.134 a seed), 5.7 for the tuned set; the
     * default 4 is steeper. In matches neither paid clearly over reward=margin with
     * expand=all, so the default stays as it was. */
    { "squash", AOPT_REAL, offsetof(MctsSettings, squash), 0, 1000, "0", NULL,
      "reward=win: an evaluation of x seeds is worth 1 / (1 + exp(-x / squash)) (0: a 24th "
      "of the seeds in play, 4 on the standard board)", .changes_play = true },
    { "weights", AOPT_CHOICE, offsetof(MctsSettings, weight_set), 0, 0, "store",
      weight_set_names,
      "the set the weights not given as w.<term> come from: store (the store difference "
      "alone), plain (store 1, seeds 0.1) or tuned (alphabeta's from depth 4, with its fade "
      "unless fade is given); or learned: the learned evaluation (docs/learned.md) instead of "
      "the terms: the compiled-in set on its board (12 holes, capture 4), on any other a set "
      "fitted for the variant on first use and cached (as alphabeta's learned=auto); or net: "
      "the network evaluation (net=)", .changes_play = true },
    { "net", AOPT_TEXT, offsetof(MctsSettings, net), 0, 0, "", NULL,
      "with weights=net, a network file (docs/learned.md); empty: the compiled-in network, "
      "for its board alone (12 holes, capture 4)", .changes_play = true,
      .digest = net_file_digest },
    { "expand", AOPT_CHOICE, offsetof(MctsSettings, expand), 0, 0, "one", expand_names,
      "one: a node's untried moves are added one per playout, at random, and each is played "
      "once before any is played again; all: every move is added at once, valued by the "
      "evaluation, and selection ranks a child not yet visited by that value",
      .changes_play = true },
    { "reuse", AOPT_INT, offsetof(MctsSettings, reuse), 0, 1, "0", NULL,
      "expand=all: a search starts from the subtree the last one grew below this position "
      "(after the agent's move and the replies), if it holds it, and adds `playouts` to it "
      "(0: every search starts afresh)", .changes_play = true },
    /* Store difference alone by default: with w.seeds=0.1 a cut playout that keeps seeds
     * at home looks good, and against greedy MCTS then shuffles until max_plies. Every term
     * is named, so that alphabeta's defaults do not leak in. */
    { "w", AOPT_WEIGHTS, offsetof(MctsSettings, weights), -1000, 1000,
      "w.store=1,w.seeds=0,w.threes=0,w.opp_threes=0,w.empty=0,w.opp_empty=0,w.mobility=0,"
      "w.final=0", NULL,
      "evaluation weights of a cut playout, as alphabeta's: w.<term>=x (see below)",
      .changes_play = true },
    /* After "w", whose defaults set the fade too: off, as MCTS evaluated before the fade. */
    { "fade", AOPT_REAL, offsetof(MctsSettings, weights) + offsetof(EvalWeights, fade), 0, 1,
      "0", NULL, "the evaluation's fade near the end, as alphabeta's (0: none)",
      .changes_play = true },
    { .key = NULL },
};

/* AgentKind.variant_digest: with weights=learned, the hash of the set fitted for v where the
 * compiled-in set is not played (learned_choice_digest); with weights=net and no file, the
 * compiled-in network's (net_builtin_digest). */
static int mcts_variant_digest(const void *settings, const Variant *v, uint64_t *out,
                               const char **key, Error *e)
{
    const MctsSettings *set = settings;
    *out = 0;
    if (set->weight_set == MCTS_WEIGHTS_NET)
        return net_builtin_digest(set->net, out, key);
    if (set->weight_set != MCTS_WEIGHTS_LEARNED)
        return 0;
    *key = "learned";
    return learned_choice_digest(false, v, out, e);
}

const AgentKind mcts_kind = {
    /* {key} in the summary is `anywoli agents`' key=default, read from the agent's full
     * default spec, so that the summary cannot claim another default than it plays. */
    "mcts", "Monte Carlo tree search (UCT) with cheap playouts (random, greedy or capture), "
    "cut off at a horizon and scored by the evaluation, or none; as options, implicit "
    "minimax backups of the evaluation (minimax=alpha; default {minimax}) and every move of "
    "a node added at once (expand=all; default {expand}); MCTS-Solver proves wins and losses "
    "up the tree (default {solver})", mcts_options, sizeof(MctsSettings),
    .convention_blind = false,   /* its play weighs the award of the last seeds */
    .variant_digest = mcts_variant_digest,
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
    uint8_t end;            /* 1 for a leaf scored exactly: the game over or endless, or a
                             * position the tables cover */
    int8_t proven;          /* the game score `mover` is sure of, in quarters (4 a win, 2 a
                             * draw, 0 a loss); -1 while unproven */
    union {
        float end_south;    /* an end: South's reward there */
        uint32_t slot;      /* expand=all, once expanded (never an end): where its position
                             * is kept (Mcts.pos) */
    };
    float tau;              /* minimax=alpha: the implicit minimax value for `mover`, in
                             * [0, 1]: the squashed evaluation of this position when it was
                             * added (exact at an end), then the best of its children's for
                             * the side to move here; unused (0) when off */
} MctsNode;

/* The agent's state: settings and a node pool for one search. */
typedef struct Mcts {
    AgentData base;         /* the settings, for agent_describe */
    const MctsSettings *set;
    Evaluator ev;           /* the weights, in fixed point */
    bool use_learned;       /* weights=learned */
    const LearnedSet *learned_set;   /* ... the set for learned_for (learned_choose) */
    Variant learned_for;    /* ... the variant it was chosen for */
    Learned *learned;       /* ... prepared for the variant searched last */
    bool use_net;           /* weights=net */
    NetFile *net_file;      /* ... read from net=FILE (owned), or NULL: net_builtin() */
    Net *net;               /* ... prepared for net_for (NULL: not yet) */
    Variant net_for;        /* ... the variant it was prepared for */
    Variant cut;            /* the variant searched, with max_plies as a playout's limit */
    bool use_tables;        /* they are the variant's and its convention is not the lottery */
    bool solving;           /* the solver is on (settings) */
    bool minimax;           /* implicit minimax backups are on (settings: alpha > 0) */
    bool expand_all;        /* every child at once (settings) */
    double *root_log;       /* expand=all: sqrt(ln(n + 1)) for n < MCTS_TABLE, or NULL */
    double *inv_root;       /* expand=all: 1 / sqrt(n + 1) for n < MCTS_TABLE, or NULL */
    Position *pos;          /* expand=all: the positions of the expanded nodes, so that an
                             * iteration plays no move on its way down */
    uint32_t pos_used, pos_cap;
    uint64_t most, pos_most;  /* this search's bounds on nodes and kept positions: what a
                               * reused subtree brought, and what the playouts can add */
    bool have_tree;         /* the last search's tree is this game's (reuse) */
    uint32_t played;        /* reuse: the root child the last search played (0: none) */
    MctsNode *spare;        /* reuse: the pool a subtree is copied into, then swapped */
    Position *spare_pos;    /* reuse: likewise for the kept positions */
    uint32_t *queue;        /* reuse: the copy's queue and sibling links */
    uint32_t spare_cap, spare_pos_cap, queue_cap;
    MctsNode *node;         /* the node pool, grown by doubling as searches need it */
    uint32_t used, cap;     /* nodes in use in this search; nodes allocated */
    uint64_t moves;         /* searches in this game so far, for choice_moves */
} Mcts;

/* Visit counts below which expand=all's selection reads its square roots and logarithm from
 * tables: they were most of its cost, computed for every child at every step. */
#define MCTS_TABLE 4096

/* The node pool a new agent starts with. A search adds one node per playout, so sizing the
 * pool by the budget (playouts + 1) would reserve gigabytes for a large budget before the
 * first playout; doubling from here keeps memory at what searches have used. */
#define MCTS_FIRST_NODES 1024

/* South's game score in quarters (0 .. 4) from South's final margins m under the two
 * lottery coins (the same twice under the other conventions): a win 2 a coin, a draw 1. */
static int mcts_south_quarters(const int m[2])
{
    int q = 0;
    for (int r = 0; r < 2; r++)
        q += m[r] > 0 ? 2 : m[r] == 0 ? 1 : 0;
    return q;
}

/* South's reward in [0, 1] for South's final margins m (the lottery by its expectation). */
static double mcts_margins_reward(const Variant *v, const Mcts *t, const int m[2])
{
    if (t->set->reward == 1)
        return 0.5 + (m[SOUTH] + m[NORTH]) / (4.0 * v->total);
    return mcts_south_quarters(m) / 4.0;
}

/* South's reward in [0, 1] for a game that stopped at p (the lottery by its expectation). */
static double mcts_south_reward(const Variant *v, const Mcts *t, const Position *p, MoveEvent ev)
{
    int m[2];
    margin_south(v, p, ev, m);
    return mcts_margins_reward(v, t, m);
}

/* The default squash (reward=win): a 24th of the seeds in play are worth one unit of the
 * logistic that turns an evaluation into South's chance of winning, 4 seeds on the standard
 * board. */
#define MCTS_SQUASH_PART 24.0

/* The evaluation of p (not over) for its side to move: the network's from p's sums a (NULL:
 * computed here), the learned one, or the weighted terms.
 *
 * The network's sums. Only expand=all evaluates several positions of one parent (its
 * moves, mcts_expand_all): their parent's sums are computed once and each child's updated
 * from them. Elsewhere a position is evaluated alone and its sums computed afresh: a
 * playout's end is many moves from anything the tree knows, and expand=one's new leaf would
 * need its parent's sums, which would mean keeping them either in every node (2 x H1 32-bit
 * sums: 512 bytes with the compiled-in network's 64 units, 13 times a node's 40 bytes, 5 GB
 * for ten million playouts) or along each descent (an update a ply: on the standard board an
 * update costs about half a computation afresh, docs/learned.md's "Cost", so a descent of
 * three plies or more, as 1,000 playouts grow, costs more than the one computation). */
static int32_t mcts_eval(const Variant *v, const Mcts *t, const Position *p, const NetAcc *a)
{
    if (t->net) {
        NetAcc own;
        if (!a) {
            net_acc_full(t->net, v, p, &own);
            a = &own;
        }
        return net_eval(t->net, v, p, a);
    }
    return t->learned ? learned_eval(t->learned, v, p) : eval_position(&t->ev, v, p);
}

/* South's reward in [0, 1] for a playout cut at p (not over), from the evaluation (a: p's
 * sums for the network, or NULL): the logistic of South's value (reward=win), or the value
 * scaled as a margin (reward=margin). */
static double mcts_cut_reward(const Variant *v, const Mcts *t, const Position *p,
                              const NetAcc *a)
{
    int32_t x = mcts_eval(v, t, p, a);
    double seeds = (double)(p->side == SOUTH ? x : -x) / EVAL_SCALE;
    if (t->set->reward == 1) {
        double r = 0.5 + seeds / (2.0 * v->total);
        return r < 0 ? 0 : r > 1 ? 1 : r;
    }
    if (t->set->squash > 0)
        return 1 / (1 + exp(-seeds / t->set->squash));
    /* The default as it always was computed, so that its rewards stay the same bit for bit. */
    return 1 / (1 + exp(-seeds * MCTS_SQUASH_PART / v->total));
}

/* The k-th (from 0) lowest move of the move mask `moves`. */
static int mcts_nth_move(uint64_t moves, uint32_t k)
{
    while (k--)
        moves &= moves - 1;
    return __builtin_ctzll(moves);
}

/* A playout move for p: uniformly random with chance epsilon, else the greedy agent's. No
 * draw is made for epsilon = 0, so plain greedy playouts use the stream as they always have. */
static int mcts_greedy_step(const Variant *v, const Position *p, double epsilon, Rng *s)
{
    if (epsilon > 0 && rng_unit(s) < epsilon)
        return mcts_nth_move(p->legal, rng_below(s, (uint32_t)__builtin_popcountll(p->legal)));
    int32_t gain;
    uint64_t nodes = 0;
    return greedy_move(v, p, s, &gain, &nodes);
}

/* A greedy (or epsilon-greedy) playout from p (not over) on the stream s, at most
 * t->cut.max_plies plies: what the last move reported (EV_NEXT when cut), p left where it
 * stopped. */
static MoveEvent mcts_greedy_playout(const Variant *v, const Mcts *t, Position *p, Rng *s)
{
    for (int64_t ply = 0; ply < t->cut.max_plies; ply++) {
        MoveInfo info;
        int move = mcts_greedy_step(v, p, t->set->epsilon, s);
        MoveEvent ev = pos_play(v, p, move, p, &info, NULL);
        if (ev >= EV_OVER)
            return ev;
    }
    return EV_NEXT;
}

/* The capture policy's move for p (not over): legal moves tried in an order drawn from s
 * (without replacement), at most `tries` of them (0: all), the first whose mover gains more
 * seeds than the opponent in it, else the last one tried. A capture is what a playout most
 * often misses, and trying moves in turn finds one for a few plays where greedy_move plays
 * every move and its follow-ups. The position after the move goes to out (as pos_play's) and
 * its event to *ev, so the move chosen is not played twice. */
int capture_playout_move(const Variant *v, const Position *p, int tries, Rng *s, Position *out,
                         MoveEvent *ev)
{
    uint8_t moves[MAX_PITS];
    const int n = pos_legal_moves(v, p, moves);
    const int limit = tries > 0 && tries < n ? tries : n;
    const int me = p->side;
    int move = -1;
    for (int k = 0; k < limit; k++) {
        int j = k + (int)rng_below(s, (uint32_t)(n - k));
        uint8_t m = moves[j];
        moves[j] = moves[k];
        moves[k] = m;
        MoveInfo info;
        move = m;
        *ev = pos_play(v, p, move, out, &info, NULL);
        if (out->store[me] - p->store[me] > out->store[!me] - p->store[!me])
            break;
    }
    return move;
}

/* A capture-policy playout from p (not over), each side drawing from its own stream, at
 * most t->cut.max_plies plies: what the last move reported (EV_NEXT when cut), p left where
 * it stopped. */
static MoveEvent mcts_capture_playout(const Variant *v, const Mcts *t, Position *p, Rng stream[2])
{
    const int tries = (int)t->set->tries;
    for (int64_t ply = 0; ply < t->cut.max_plies; ply++) {
        Position next;
        MoveEvent ev;
        capture_playout_move(v, p, tries, &stream[p->side], &next, &ev);
        *p = next;
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
    if (t->set->policy == MCTS_NO_PLAYOUT)
        return mcts_cut_reward(v, t, &p, NULL);   /* a playout of no moves, drawing nothing */
    Rng stream[2];
    stream[SOUTH] = (Rng){ rng_next(rng), 0 };
    stream[NORTH] = (Rng){ rng_next(rng), 0 };
    MoveEvent ev;
    if (t->set->policy == MCTS_GREEDY) {
        ev = mcts_greedy_playout(v, t, &p, &stream[SOUTH]);
    } else if (t->set->policy == MCTS_CAPTURE) {
        ev = mcts_capture_playout(v, t, &p, stream);
    } else {
        Playout po;
        ev = pos_random_playout(&t->cut, &p, stream, &po);
    }
    return ev == EV_NEXT ? mcts_cut_reward(v, t, &p, NULL) : mcts_south_reward(v, t, &p, ev);
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
    n->proven = -1;
    n->end_south = 0;
    n->tau = 0;
    return i;
}

/* Whether the position p reached by a move that reported ev is scored exactly, without a
 * playout: the game is over (or endless), or the tables cover it. South's final margins
 * under the two lottery coins go to m. */
static bool mcts_exact_leaf(const Variant *v, const Mcts *t, const Position *p, MoveEvent ev,
                            int m[2])
{
    if (ev >= EV_OVER) {
        margin_south(v, p, ev, m);
        return true;
    }
    if (!t->use_tables || !tables_covers(t->base.tables, p))
        return false;
    int x = tables_value(t->base.tables, p);
    m[SOUTH] = m[NORTH] = p->side == SOUTH ? x : -x;
    return true;
}

/* Make node n (its mover's move led to p's margins m) a leaf scored exactly: an end whose
 * reward is known and whose score is proven. */
static void mcts_set_exact(const Variant *v, const Mcts *t, MctsNode *n, const int m[2])
{
    int south = mcts_south_quarters(m);
    n->untried = 0;
    n->end = 1;
    n->end_south = (float)mcts_margins_reward(v, t, m);
    n->proven = (int8_t)(n->mover == SOUTH ? south : 4 - south);
    n->tau = n->mover == SOUTH ? n->end_south : 1 - n->end_south;   /* exact, for minimax */
}

/* Implicit minimax backups (Lanctot, Winands, Pepels and Sturtevant 2014): node `at`'s
 * value becomes the best of its children's for the side to move at it (their mover), seen
 * by `at`'s own mover, who is that side after an extra move or a pass and the other side
 * otherwise; a node without children keeps its own. Whether the value changed (if not, no
 * ancestor's can). */
static bool mcts_minimax_update(Mcts *t, uint32_t at)
{
    MctsNode *n = &t->node[at];
    if (!n->child)
        return false;
    float best = -1;
    int side = n->mover;
    for (uint32_t i = n->child; i; i = t->node[i].sibling) {
        const MctsNode *ch = &t->node[i];
        side = ch->mover;
        best = ch->tau > best ? ch->tau : best;
    }
    float tau = side == n->mover ? best : 1 - best;
    if (tau == n->tau)
        return false;
    n->tau = tau;
    return true;
}

/* The child of n with the highest upper confidence bound (the first of equals). */
static uint32_t mcts_select(const Mcts *t, const MctsNode *n)
{
    const double log_n = log((double)n->visits), c = t->set->c;
    uint32_t best = 0;
    double best_ucb = -1;
    for (uint32_t i = n->child; i; i = t->node[i].sibling) {
        const MctsNode *ch = &t->node[i];
        if (t->solving && ch->proven == 0)
            continue;   /* lost for the side choosing here: never worth a visit */
        double q = ch->reward / ch->visits;
        if (t->minimax)   /* only then: off, the sum is the plain UCB's bit for bit */
            q = (1 - t->set->minimax) * q + t->set->minimax * ch->tau;
        double ucb = q + c * sqrt(log_n / ch->visits);
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
    int move = mcts_nth_move(n->untried, k), mover = p->side;
    n->untried &= ~(1ULL << move);
    MoveInfo info;
    MoveEvent ev = pos_play(v, p, move, p, &info, NULL);
    st->nodes++;
    uint32_t c = mcts_new_node(t, p, move, mover, ev);
    t->node[c].sibling = n->child;   /* n is still valid: the pool grows only between
                                      * iterations (mcts_room) */
    n->child = c;
    int m[2];
    if (mcts_exact_leaf(v, t, p, ev, m)) {
        mcts_set_exact(v, t, &t->node[c], m);
        *south = mcts_margins_reward(v, t, m);   /* the first visit unrounded, as ever */
    } else if (t->minimax) {
        /* The leaf's implicit minimax value: its evaluation, squashed as a reward, for its
         * mover; without a playout it is the leaf's reward too. */
        double leaf = mcts_cut_reward(v, t, p, NULL);
        t->node[c].tau = (float)(mover == SOUTH ? leaf : 1 - leaf);
        *south = t->set->policy == MCTS_NO_PLAYOUT ? leaf : mcts_playout(v, t, *p, rng);
    } else {
        *south = mcts_playout(v, t, *p, rng);
    }
    return c;
}

/* Add every untried move of node `at` (position p) as a child, each valued by its
 * evaluation (its implicit minimax value and the prior of its first selection), or exactly
 * when it ends the game or the tables cover it. Children are linked in ascending hole order
 * behind any already there, so ties between them break the same way every time. */
static void mcts_expand_all(const Variant *v, Mcts *t, uint32_t at, const Position *p,
                            AgentStats *st)
{
    uint64_t moves = t->node[at].untried;
    const int mover = p->side;
    NetAcc pa, ca;          /* the network's sums of p (once a child needs them) and a child */
    bool have_pa = false;
    t->node[at].untried = 0;
    for (uint64_t rest = moves; rest; rest &= rest - 1) {
        int move = __builtin_ctzll(rest);
        Position q;
        MoveInfo info;
        MoveEvent ev = pos_play(v, p, move, &q, &info, NULL);
        st->nodes++;
        uint32_t c = mcts_new_node(t, &q, move, mover, ev);
        t->node[c].sibling = t->node[at].child;   /* the pool has room (mcts_room) */
        t->node[at].child = c;
        int m[2];
        if (mcts_exact_leaf(v, t, &q, ev, m)) {
            mcts_set_exact(v, t, &t->node[c], m);
        } else {
            const NetAcc *a = NULL;
            if (t->net) {
                if (!have_pa)
                    net_acc_full(t->net, v, p, &pa);
                have_pa = true;
                net_acc_update(t->net, v, p, &pa, &q, &ca);
                a = &ca;
            }
            double leaf = mcts_cut_reward(v, t, &q, a);
            t->node[c].tau = (float)(mover == SOUTH ? leaf : 1 - leaf);
        }
    }
}

/* expand=all: the child of n with the highest bound, where a child's value is its mean
 * reward weighed with its implicit minimax value (minimax=alpha), or that value alone while
 * it is unvisited, and its exploration term c sqrt(ln(N + 1) / (n + 1)), finite for an
 * unvisited child (the first of equals). */
static uint32_t mcts_select_all(const Mcts *t, const MctsNode *n)
{
    const double alpha = t->set->minimax;
    const double width = t->set->c * (n->visits < MCTS_TABLE ? t->root_log[n->visits]
                                                             : sqrt(log(n->visits + 1.0)));
    uint32_t best = 0;
    double best_ucb = -1;
    for (uint32_t i = n->child; i; i = t->node[i].sibling) {
        const MctsNode *ch = &t->node[i];
        if (t->solving && ch->proven == 0)
            continue;
        double q = ch->tau;
        if (ch->visits && alpha < 1)
            q = (1 - alpha) * ch->reward / ch->visits + alpha * q;
        double ucb = q + width * (ch->visits < MCTS_TABLE ? t->inv_root[ch->visits]
                                                          : 1 / sqrt(ch->visits + 1.0));
        if (ucb > best_ucb) {
            best_ucb = ucb;
            best = i;
        }
    }
    return best;
}

/* Try to prove node `at` from its children (their mover is the side to move at it): a
 * child that wins for them, or every move expanded and every child proven (the best of
 * them). Whether `at` is proven now. */
static bool mcts_prove(Mcts *t, uint32_t at)
{
    MctsNode *n = &t->node[at];
    if (n->proven >= 0)
        return true;
    int best = -1, side = n->mover;
    bool all = n->untried == 0;
    for (uint32_t i = n->child; i; i = t->node[i].sibling) {
        const MctsNode *ch = &t->node[i];
        side = ch->mover;
        if (ch->proven < 0)
            all = false;
        else if (ch->proven > best)
            best = ch->proven;
    }
    if (best < 4 && !(all && best >= 0))
        return false;
    n->proven = (int8_t)(side == n->mover ? best : 4 - best);
    return true;
}

/* After an iteration along path[0..len): prove what the leaf's proof (if any) proves,
 * climbing while each node's parent becomes proven too. */
static void mcts_prove_path(Mcts *t, const uint32_t *path, int len)
{
    for (int i = len - 1; i > 0 && t->node[path[i]].proven >= 0; i--)
        if (!mcts_prove(t, path[i - 1]))
            return;
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
        if (t->solving && n->proven >= 0) {   /* a proven inner node counts as an end */
            south = (n->mover == SOUTH ? n->proven : 4 - n->proven) / 4.0;
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
    if (t->solving)
        mcts_prove_path(t, path, len);
    /* Implicit minimax values up the path from the leaf's parent, while they change. */
    for (int i = len - 2; t->minimax && i >= 0 && mcts_minimax_update(t, path[i]); i--)
        continue;
    return len - 1;
}

/* The position after `move` from expanded node `parent`'s kept position, into *p. */
static void mcts_child_position(const Variant *v, const Mcts *t, uint32_t parent, int move,
                                Position *p, AgentStats *st)
{
    MoveInfo info;
    pos_play(v, &t->pos[t->node[parent].slot], move, p, &info, NULL);
    st->nodes++;
}

/* One iteration with expand=all: select down the tree by mcts_select_all, playing no move on
 * the way (an expanded node keeps its position); a child on its first visit is a leaf,
 * played out, or with policy=none expanded at once and scored by the minimax of its moves'
 * evaluations (a first visit that only repeated the value the node was added with would
 * spend a whole descent on nothing); a visited node with untried moves gets them all.
 * Returns the depth reached. */
static int mcts_iterate_all(const Variant *v, Mcts *t, const Position *root, Rng *rng,
                            AgentStats *st)
{
    uint32_t path[MCTS_MAX_PATH + 1];
    int len = 0;
    uint32_t at = 0;
    double south;
    path[len++] = 0;
    for (;;) {
        const MctsNode *n = &t->node[at];
        if (n->end) {
            south = n->end_south;
            break;
        }
        if (t->solving && n->proven >= 0) {
            south = (n->mover == SOUTH ? n->proven : 4 - n->proven) / 4.0;
            break;
        }
        const bool first = len > 1 && n->visits == 0;
        if (n->untried && (!first || t->set->policy == MCTS_NO_PLAYOUT)) {
            /* Step 1. Its position, kept for its children's expansions and playouts. */
            uint32_t slot = t->pos_used++;
            if (at == 0)
                t->pos[slot] = *root;
            else
                mcts_child_position(v, t, path[len - 2], n->move, &t->pos[slot], st);
            t->node[at].slot = slot;
            /* Step 2. Every child, valued; the values and proofs they change go up. */
            mcts_expand_all(v, t, at, &t->pos[slot], st);
            for (int i = len - 1; t->minimax && i >= 0 && mcts_minimax_update(t, path[i]); i--)
                continue;
            if (t->solving)
                mcts_prove(t, at);   /* a child may end the game: proven, the node is an end */
            continue;
        }
        if (first) {
            /* A child on its first visit: scored by its value (policy=none: expanded just
             * above, so the minimax of its moves' evaluations), or played out. */
            if (t->set->policy == MCTS_NO_PLAYOUT) {
                south = n->mover == SOUTH ? n->tau : 1 - n->tau;
            } else {
                Position p;
                mcts_child_position(v, t, path[len - 2], n->move, &p, st);
                south = mcts_playout(v, t, p, rng);
            }
            break;
        }
        if (len == MCTS_MAX_PATH) {
            south = mcts_playout(v, t, t->pos[n->slot], rng);
            break;
        }
        at = mcts_select_all(t, n);
        path[len++] = at;
    }
    for (int i = 0; i < len; i++) {
        MctsNode *n = &t->node[path[i]];
        n->visits++;
        n->reward += n->mover == SOUTH ? south : 1 - south;
    }
    if (t->solving)
        mcts_prove_path(t, path, len);
    return len - 1;
}

/* How the final choice ranks a root child before its visits: with the solver a proven win
 * above everything and a proven loss below everything (a proven draw among the unproven,
 * where visits weigh it against them); without it, every child alike. */
static int mcts_rank(const Mcts *t, const MctsNode *ch)
{
    if (!t->solving)
        return 1;
    return ch->proven == 4 ? 2 : ch->proven == 0 ? 0 : 1;
}

/* The best-ranked root child, then the most visited (then the best mean, then the lowest
 * hole). */
static const MctsNode *mcts_best(const Mcts *t)
{
    const MctsNode *best = NULL;
    for (uint32_t i = t->node[0].child; i; i = t->node[i].sibling) {
        const MctsNode *ch = &t->node[i];
        int rank = best ? mcts_rank(t, ch) - mcts_rank(t, best) : 1;
        if (rank > 0 || (rank == 0 && ch->visits > best->visits) ||
            (rank == 0 && ch->visits == best->visits &&
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
        if (mcts_rank(t, child[n]) < mcts_rank(t, most))
            weight[n] = 0;   /* a proven loss, while `most` is not one */
    }
    Rng r = choice_stream(rng, agent_position_hash(v, p));
    return child[choice_draw(weight, n, &r)];
}

/* The most nodes one search can add: one per playout, or with expand=all a position's moves
 * per playout (at most MAX_PITS), within the pool's 32-bit indices; and the root. */
static uint64_t mcts_most_nodes(const MctsSettings *set)
{
    uint64_t per = set->expand == MCTS_EXPAND_ALL ? MAX_PITS : 1;
    uint64_t most = (uint64_t)set->playouts * per + 1;
    return most < UINT32_MAX ? most : UINT32_MAX;
}

/* Room in the pool for one more iteration's nodes (at most one is added, or a position's
 * moves with expand=all), doubling it up to what the budget can use (mcts_most_nodes); -1
 * when memory runs out. Only here does the pool move, so no node pointer is held across
 * it. */
static int mcts_room(Mcts *t)
{
    const uint64_t need = t->expand_all ? MAX_PITS : 1, most = t->most;
    if (t->expand_all && t->pos_used == t->pos_cap) {
        /* At most one expansion an iteration. */
        uint64_t top = t->pos_most;
        uint64_t cap = t->pos_cap ? 2 * (uint64_t)t->pos_cap : 256;
        cap = cap < top ? cap : top;
        Position *pos = realloc(t->pos, (size_t)cap * sizeof *pos);
        if (!pos)
            return -1;
        t->pos = pos;
        t->pos_cap = (uint32_t)cap;
    }
    if ((uint64_t)t->used + need <= t->cap)
        return 0;
    if (t->cap >= most)
        return -1;   /* only a budget past the 32-bit indices gets here */
    uint64_t cap = (uint64_t)t->cap * 2 < most ? (uint64_t)t->cap * 2 : most;
    MctsNode *node = realloc(t->node, (size_t)cap * sizeof *node);
    if (!node)
        return -1;
    t->node = node;
    t->cap = (uint32_t)cap;
    return 0;
}

/* Whether the kept position q is p: every field (a byte comparison would see padding). */
static bool mcts_same_position(const Variant *v, const Position *q, const Position *p)
{
    return q->nonempty == p->nonempty && q->legal == p->legal && q->left == p->left &&
           q->side == p->side && q->store[SOUTH] == p->store[SOUTH] &&
           q->store[NORTH] == p->store[NORTH] && q->last_capturer == p->last_capturer &&
           q->first_final == p->first_final &&
           memcmp(q->pit, p->pit, (size_t)v->pits * sizeof p->pit[0]) == 0;
}

/* The plies below the last root searched for this search's position (reuse): the agent's
 * move, the opponent's replies and extra moves on either side. */
#define MCTS_REUSE_DEPTH 8

/* Grow *buf (of *cap items of `size` bytes) to at least `need` items; -1 when memory runs
 * out (the buffer is then unchanged). */
static int mcts_reserve(void **buf, uint32_t *cap, uint64_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    void *grown = realloc(*buf, (size_t)need * size);
    if (!grown)
        return -1;
    *buf = grown;
    *cap = (uint32_t)need;
    return 0;
}

/* reuse: make the subtree of the last tree whose position is p the tree, renumbered in
 * breadth-first order from 0 (a node's children stay consecutive, so each links to the
 * next); whether one was found. It is looked for below the move the last search played, to
 * MCTS_REUSE_DEPTH plies, among expanded nodes, which alone keep positions (a subtree of
 * one visit is not worth keeping). The copy goes to the spare pool, which then swaps with
 * the tree's: the pools are reused, so a search touches no fresh memory. */
static bool mcts_reroot(const Variant *v, Mcts *t, const Position *p)
{
    const MctsNode *played = &t->node[t->played];
    if (!t->played || played->end || played->untried || !played->child)
        return false;
    if (mcts_reserve((void **)&t->queue, &t->queue_cap, 2 * (uint64_t)t->used,
                     sizeof *t->queue) != 0 ||
        mcts_reserve((void **)&t->spare, &t->spare_cap, t->cap, sizeof *t->spare) != 0 ||
        mcts_reserve((void **)&t->spare_pos, &t->spare_pos_cap, t->pos_cap,
                     sizeof *t->spare_pos) != 0)
        return false;   /* start afresh: reuse only saves work */
    uint32_t *queue = t->queue, *sib = t->queue + t->used;
    /* Step 1. Breadth-first from the move played. */
    uint32_t head = 0, tail = 0, level_end = 1, found = 0;
    int depth = 1;
    queue[tail++] = t->played;
    while (head < tail && !found && depth <= MCTS_REUSE_DEPTH) {
        uint32_t at = queue[head++];
        const MctsNode *n = &t->node[at];
        if (mcts_same_position(v, &t->pos[n->slot], p))
            found = at;
        for (uint32_t c = n->child; c && !found; c = t->node[c].sibling)
            if (!t->node[c].end && !t->node[c].untried && t->node[c].child)
                queue[tail++] = c;
        if (head == level_end) {
            depth++;
            level_end = tail;
        }
    }
    if (!found)
        return false;
    /* Step 2. Copy the subtree breadth-first: a node's new index is its place in the queue,
     * so its children, queued together, are consecutive, each linked to the next (sib). */
    MctsNode *node = t->spare;
    Position *pos = t->spare_pos;
    uint32_t used = 0, slots = 0;
    head = tail = 0;
    queue[tail] = found;
    sib[tail++] = 0;
    while (head < tail) {
        uint32_t k = used++;
        node[k] = t->node[queue[head++]];
        node[k].sibling = sib[k];
        if (!node[k].end && !node[k].untried && node[k].child) {
            pos[slots] = t->pos[node[k].slot];
            node[k].slot = slots++;
        }
        uint32_t first = tail;
        for (uint32_t c = node[k].child; c; c = t->node[c].sibling) {
            queue[tail] = c;
            sib[tail] = t->node[c].sibling ? tail + 1 : 0;
            tail++;
        }
        node[k].child = tail > first ? first : 0;
    }
    /* Step 3. Swap the pools. */
    t->spare = t->node;
    t->node = node;
    uint32_t cap = t->cap;
    t->cap = t->spare_cap;
    t->spare_cap = cap;
    t->spare_pos = t->pos;
    t->pos = pos;
    cap = t->pos_cap;
    t->pos_cap = t->spare_pos_cap;
    t->spare_pos_cap = cap;
    t->used = used;
    t->pos_used = slots;
    return true;
}

/* The learned set and the network for v (defined below, beside mcts_check_variant). */
static int mcts_learned_choose(Agent *a, const Variant *v, Error *e);
static int mcts_net_prepare(Agent *a, const Variant *v, Error *e);

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
    /* The learned weights for this board: chosen again when the rules of play change,
     * prepared again when the set or the board's seeds change. */
    if (t->use_learned && mcts_learned_choose(a, v, NULL) != 0)
        return AGENT_NO_MEMORY;
    if (t->learned_set && (!t->learned || learned_set_of(t->learned) != t->learned_set ||
                           !learned_fits(t->learned, v))) {
        Error e;
        learned_free(t->learned);
        t->learned = NULL;
        if (learned_prepare(t->learned_set, v, &t->learned, &e) != 0)
            return AGENT_NO_MEMORY;
    }
    if (t->use_net && mcts_net_prepare(a, v, NULL) != 0)
        return AGENT_NO_MEMORY;
    t->cut = *v;
    if (t->set->horizon && t->set->horizon < t->cut.max_plies)
        t->cut.max_plies = t->set->horizon;
    t->use_tables = agent_tables_for(&t->base, v) && v->final_four != FF_LOTTERY;
    t->solving = t->set->solver != 0;
    t->minimax = t->set->minimax > 0;
    t->expand_all = t->set->expand == MCTS_EXPAND_ALL;
    if (!(t->set->reuse && t->have_tree && mcts_reroot(v, t, p))) {
        t->used = 0;
        t->pos_used = 0;
        mcts_new_node(t, p, 0, !p->side, EV_NEXT);
    }
    t->have_tree = true;
    t->played = 0;
    t->most = t->used + mcts_most_nodes(t->set);
    t->most = t->most < UINT32_MAX ? t->most : UINT32_MAX;
    t->pos_most = t->pos_used + (uint64_t)t->set->playouts + 1;
    int deepest = 0;
    int64_t i;
    /* A proven root is searched no further: its best move is known. */
    for (i = 0; i < t->set->playouts && t->node[0].proven < 0; i++) {
        if (i % AGENT_STOP_POLL == AGENT_STOP_POLL - 1 && agent_stop_requested())
            return AGENT_STOPPED;
        if (mcts_room(t) != 0)
            return AGENT_NO_MEMORY;
        int d = t->expand_all ? mcts_iterate_all(v, t, p, rng, st)
                              : mcts_iterate(v, t, p, rng, st);
        deepest = d > deepest ? d : deepest;
    }
    st->playouts += (uint64_t)i;
    const MctsNode *best = mcts_best(t);
    if (choosing && !(t->solving && best->proven == 4))   /* a proven win is not drawn from */
        best = mcts_draw(t, v, p, best, rng);
    st->depth = deepest;
    st->value = best->proven >= 0 && t->solving ? best->proven / 4.0
                                                : best->reward / best->visits;
    t->played = (uint32_t)(best - t->node);
    return best->move;
}

/* Parents are found by walking each node's children; a node's index is its report index, as
 * nodes are made after their parents. */
uint32_t mcts_tree(const Agent *a, MctsTreeNode *out, uint32_t max)
{
    const Mcts *t = a->data;
    for (uint32_t i = 0; i < t->used && i < max; i++) {
        const MctsNode *n = &t->node[i];
        out[i] = (MctsTreeNode){ i ? out[i].parent : -1, i ? n->move : 0, n->mover, n->visits,
                                 n->tau, n->end != 0 };
        for (uint32_t c = n->child; c; c = t->node[c].sibling)
            if (c < max)
                out[c].parent = (int32_t)i;
    }
    return t->used;
}

/* A new game: its moves are counted afresh for choice_moves, and no tree is reused. */
static void mcts_new_game(Agent *a)
{
    Mcts *t = a->data;
    t->moves = 0;
    t->have_tree = false;
}

/* With weights=learned, the set for v (learned_choose: the compiled-in one or one fitted for
 * v), chosen again only when v's rules of play are not those it was chosen for. -1 with a
 * message in *e (if not NULL). */
static int mcts_learned_choose(Agent *a, const Variant *v, Error *e)
{
    Mcts *t = a->data;
    if (t->learned_set && variant_same_play(&t->learned_for, v))
        return 0;
    Error own;
    const LearnedSet *set;
    if (learned_choose(NULL, false, a->name, v, &set, e ? e : &own) != 0)
        return -1;
    t->learned_set = set;
    t->learned_for = *v;
    return 0;
}

/* With weights=net, the network quantised for v's board: prepared again only when v's rules
 * of play are not those it was prepared for. -1 with a message naming the agent in *e (if
 * not NULL) when the network is for another board (never fitted on first use). */
static int mcts_net_prepare(Agent *a, const Variant *v, Error *e)
{
    Mcts *t = a->data;
    return net_prepare_for(t->net_file, v, a->name, &t->net, &t->net_for, e);
}

/* Free the node pool, the settings and the state. */
static void mcts_done(Agent *a)
{
    Mcts *t = a->data;
    if (t) {
        tables_release(t->base.tables);
        learned_free(t->learned);
        net_free(t->net);
        net_file_free(t->net_file);
        free(t->node);
        free(t->root_log);
        free(t->inv_root);
        free(t->pos);
        free(t->spare);
        free(t->spare_pos);
        free(t->queue);
        free(t->base.settings);
    }
    free(t);
}

/* The tables, if any, must be the variant's; with weights=learned, the set is chosen (fitted
 * if need be) for its board; with weights=net, the network must be for its board. */
static int mcts_check_variant(Agent *a, const Variant *v, Error *e)
{
    const Mcts *t = a->data;
    if (agent_tables_check(a, v, e) != 0)
        return -1;
    if (t->use_net)
        return mcts_net_prepare(a, v, e);
    return t->use_learned ? mcts_learned_choose(a, v, e) : 0;
}

/* With weights=net, the network: a file's (net=FILE) read now, else the compiled-in one.
 * net= without weights=net is refused. */
static int mcts_net_set(Mcts *t, const char *name, Error *e)
{
    const MctsSettings *set = t->set;
    t->use_net = set->weight_set == MCTS_WEIGHTS_NET;
    return net_option_load(t->use_net, set->net, name, &t->net_file, e);
}

/* Build the agent: a first node pool (searches grow it), the weights in fixed point and
 * the tables. */
int mcts_agent_init(Agent *a, void *settings, Error *e)
{
    MctsSettings *set = settings;
    if (set->reuse && set->expand != MCTS_EXPAND_ALL)
        return error_set(e, "agent 'mcts': reuse=1 needs expand=all (whose nodes keep their "
                            "positions)");
    /* The weight set resolved here, so that the agent's full spec names every weight. */
    if (set->weight_set == MCTS_WEIGHTS_TUNED) {
        eval_use_tuned(&set->weights);
    } else if (set->weight_set == MCTS_WEIGHTS_PLAIN) {
        for (int i = 0; i < EVAL_NB; i++)
            if (!(set->weights.given & 1u << i))
                set->weights.w[i] = eval_terms[i].def;
    }
    Mcts *t = calloc(1, sizeof *t);
    if (t) {
        uint64_t most = mcts_most_nodes(set);
        t->cap = most < MCTS_FIRST_NODES ? (uint32_t)most : MCTS_FIRST_NODES;
        t->node = malloc((size_t)t->cap * sizeof *t->node);
        if (set->expand == MCTS_EXPAND_ALL) {
            t->root_log = malloc(MCTS_TABLE * sizeof *t->root_log);
            t->inv_root = malloc(MCTS_TABLE * sizeof *t->inv_root);
        }
    }
    if (!t || !t->node || (set->expand == MCTS_EXPAND_ALL && (!t->root_log || !t->inv_root))) {
        if (t) {
            free(t->node);
            free(t->root_log);
            free(t->inv_root);
        }
        free(t);
        return error_set(e, "agent 'mcts': out of memory");
    }
    for (int n = 0; t->root_log && n < MCTS_TABLE; n++) {
        t->root_log[n] = sqrt(log(n + 1.0));
        t->inv_root[n] = 1 / sqrt(n + 1.0);
    }
    if (agent_use_tables(a, &t->base, set->tables, e) != 0) {
        free(t->node);
        free(t->root_log);
        free(t->inv_root);
        free(t);
        return -1;
    }
    t->base.settings = settings;
    t->set = set;
    if (mcts_net_set(t, a->name, e) != 0) {
        tables_release(t->base.tables);
        free(t->node);
        free(t->root_log);
        free(t->inv_root);
        free(t);
        return -1;
    }
    eval_prepare(&set->weights, &t->ev);
    t->use_learned = set->weight_set == MCTS_WEIGHTS_LEARNED;   /* its set: by the variant */
    a->check_variant = mcts_check_variant;
    a->data = t;
    a->choose = mcts_choose;
    a->new_game = mcts_new_game;
    a->done = mcts_done;
    return 0;
}
