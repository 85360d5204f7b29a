/* alphabeta.c: the searching player: negamax alpha-beta with principal variation search,
 * iterative deepening (depth 1, then AB_DEEPEN_STEP plies at a time), a transposition table
 * whose move is searched before the other moves are played, and move ordering by the
 * children's static values with the captures waiting in them (away from the horizon) or the
 * history heuristic (next to it), over copy-make positions (pos_play), to a fixed depth or
 * node budget. Each depth's value is the plain depth-limited minimax value
 * (tests/test_search.c checks it): the table gives values only of exactly the depth asked,
 * the order key orders and values nothing, and nothing is pruned beyond the window.
 *
 * Anywoli's turn order is irregular: a final-seed capture keeps the mover on move, and a
 * player with no seeds passes. So a child's value is negated only when the side to move
 * changes; otherwise the window and the value pass through as they are. Ends are scored
 * exactly (eval_final): a game over by the award, the lottery by its expectation, an endless
 * move by the stores as they stand. Every score is an integer (EVAL_SCALE units per seed).
 * With endgame tables (tables=FILE), a position they cover is scored exactly by them and not
 * searched, and a root they cover is played from them.
 *
 * With `margin` or `temperature` the agent chooses among near-best root moves instead of
 * the best (diverse strong play): the root search then values exactly every move that may
 * lie within the margin (ab_root_values), and the draw comes from the position's choice
 * stream (choice.c). The strong player takes them too, its values being its own search's
 * at the last depth its budget completed. Off by default, and then the search is the plain
 * one. */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "agents_internal.h"
#include "alphabeta.h"
#include "check.h"
#include "eval.h"
#include "learned.h"
#include "net.h"
#include "tables.h"

#define AB_MAX_DEPTH ALPHABETA_MAX_DEPTH
#define AB_INF (1 << 30)
/* Nodes with at least this many plies to go play all their moves first and search them best
 * first; nearer the horizon, moves are played one at a time. Measured on the bench positions
 * at depth 12: 2 takes 35% less time than history ordering alone, 3 or more about 10%. */
#define AB_SORT_DEPTH 2
/* Iterative deepening without a node budget goes this many plies at a time after depth 1:
 * the searches between cost more than the order they leave in the table saves. Measured on
 * the bench positions at depth 11 (from depth 2 on): 12.4 million nodes one ply at a time,
 * 10.4 million two, 10.0 million three or four, 17.7 million in one search. Depth 1 comes
 * first whatever the step: it costs a ply and orders the root's moves, equal ones too. */
#define AB_DEEPEN_STEP 3
/* Nodes with fewer plies to go do not use the table: at 1 the probes cost more time (a cache
 * miss each) and their entries push out deeper ones. */
#define AB_TT_MIN_DEPTH 2
/* The order key of a child counts each hole of its mover's row that holds capture - 1 seeds
 * as this many captures at the store's weight: the next seed sown into it, by either side,
 * captures it for its owner, which the evaluation does not see. Measured on the bench
 * positions at depth 11: 10.0 million nodes without, 6.7 million at 0.25, 5.0 million at 1,
 * the same from 1 to 5; other weights of the evaluation gain alike (30% to 60%). */
#define AB_ORDER_THREAT 1.0
/* The strong player's late move reductions (ab_reduced): a ply from this many plies to go,
 * for the moves after this many were searched; a second ply for the moves after
 * AB_LMR2_FROM at AB_LMR2_DEPTH plies to go or more, a third after AB_LMR3_FROM at
 * AB_LMR3_DEPTH. Measured on bench's positions (tuned weights, the average depth completed
 * at 42,000 and 1,000,000 nodes): none 8.41 and 12.78; one ply from 3 to go after 3 moves
 * 9.19 and 14.06; these 9.88 and 15.34, and from 100 pairs of book games against
 * alphabeta:depth=10 at 42,000 nodes -12 Elo against -26 for one ply (intervals +-36). */
#define AB_LMR_DEPTH 2
#define AB_LMR_FROM 2
#define AB_LMR2_DEPTH 4
#define AB_LMR2_FROM 4
#define AB_LMR3_DEPTH 6
#define AB_LMR3_FROM 7
/* The strong player's aspiration window: this many EVAL_SCALE units either side of the last
 * depth's value; a search that falls outside is searched again with that side open. */
#define AB_ASPIRATION 50
/* The strong player's reverse futility pruning (rfp=) applies at most this many plies from
 * the horizon. */
#define AB_RFP_DEPTH 3
/* The most plies below the root a search can reach: an analysis's deepest iteration
 * (whatever the agent's depth) and the quiescence extensions (quiesce=, at most 64). The
 * network's sums are kept for each ply of the path searched (AbPly). */
#define AB_MAX_QUIESCE 64
#define AB_MAX_PLY (AB_MAX_DEPTH + AB_MAX_QUIESCE)

/* The options. */
typedef struct AlphabetaSettings {
    int64_t depth;          /* plies searched */
    int64_t nodes;          /* stop deepening after this many positions; 0: no limit */
    int64_t tt;             /* log2 of the transposition table's entries; 0: none */
    int ties;               /* 0 random, 1 first: how equal root moves are ordered */
    double margin;          /* seeds below the best a chosen root move may lie; 0: off */
    double temperature;     /* softmax temperature of the root values, in seeds; 0: off */
    int64_t choice_moves;   /* the agent's first moves of a game that use them; 0: all */
    int64_t quiesce;        /* extra moves the horizon plays out; 0: none */
    char tables[AGENT_TEXT_MAX];   /* endgame tables file, or "" */
    char learned[AGENT_TEXT_MAX];  /* a weights file for weights=learned, or "" */
    char net[AGENT_TEXT_MAX];      /* a network file for weights=net, or "" (the built-in) */
    int weight_set;         /* WEIGHTS_*: the set the weights not given come from */
    EvalWeights weights;
    /* The strong player's techniques (strong_options), each on (1) or off (0); the exact
     * search has none of them. */
    int64_t lmr;            /* late move reductions */
    int64_t aspiration;     /* aspiration windows at the root */
    int64_t seed_bound;     /* cut-offs by the seeds left in play */
    int64_t rfp;            /* reverse futility margin a ply (EVAL_SCALE units); 0: off */
    int64_t etc;            /* enhanced transposition cut-offs */
} AlphabetaSettings;

static const char *const ties_names[] = { "random", "first", NULL };

/* The default weights: by depth (the tuned set from EVAL_TUNED_FROM), or one set; or the
 * learned evaluation (learned.h) or the network (net.h) instead of the weighted terms. */
enum { WEIGHTS_AUTO = 0, WEIGHTS_PLAIN, WEIGHTS_TUNED, WEIGHTS_LEARNED, WEIGHTS_NET };
static const char *const weight_set_names[] = { "auto", "plain", "tuned", "learned", "net",
                                                NULL };

/* The options alphabeta and strong share word for word. */
#define AB_OPTION_TIES                                                                          \
    { "ties", AOPT_CHOICE, offsetof(AlphabetaSettings, ties), 0, 0, "random", ties_names,     \
      "among equally good root moves: a random one (from the agent's stream) or the first in " \
      "a fixed order", .changes_play = true }
#define AB_OPTION_LEARNED                                                                       \
    { "learned", AOPT_TEXT, offsetof(AlphabetaSettings, learned), 0, 0, "", NULL,             \
      "with weights=learned, a weights file (anywoli learn fit --weights-out), or auto: a set " \
      "fitted for the variant on first use and cached (docs/learned.md); empty: the "          \
      "compiled-in set on its board (12 holes, capture 4), auto's on any other",              \
      .changes_play = true, .digest = learned_option_digest }
#define AB_OPTION_NET                                                                           \
    { "net", AOPT_TEXT, offsetof(AlphabetaSettings, net), 0, 0, "", NULL,                     \
      "with weights=net, a network file (docs/learned.md); empty: the compiled-in network, "  \
      "for its board alone (12 holes, capture 4)", .changes_play = true,                      \
      .digest = net_file_digest }
/* The choice among near-best root moves (choice.c): with the same meaning for both, the
 * strong player's root values being those of its last completed depth (alphabeta_choose). */
#define AB_OPTION_MARGIN                                                                        \
    { "margin", AOPT_REAL, offsetof(AlphabetaSettings, margin), 0, 1000, "0", NULL,           \
      "choose uniformly among the root moves whose exact value lies within this many seeds " \
      "of the best (0: off, the best)", .changes_play = true }
#define AB_OPTION_TEMPERATURE                                                                   \
    { "temperature", AOPT_REAL, offsetof(AlphabetaSettings, temperature), 0, 1000, "0", NULL, \
      "choose by a softmax of the root moves' exact values in seeds over this (within "       \
      "margin if given; 0: off)", .changes_play = true }
#define AB_OPTION_CHOICE_MOVES                                                                  \
    { "choice_moves", AOPT_INT, offsetof(AlphabetaSettings, choice_moves), 0, 1e9, "0", NULL, \
      "margin and temperature apply to the agent's first this many moves of a game, the best " \
      "move after them (0: every move)", .changes_play = true }
#define AB_OPTION_W                                                                             \
    { "w", AOPT_WEIGHTS, offsetof(AlphabetaSettings, weights), -1000, 1000, NULL, NULL,       \
      "evaluation weights in seeds per unit: w.<term>=x (see below)", .changes_play = true }

static const AgentOption alphabeta_options[] = {
    { "depth", AOPT_INT, offsetof(AlphabetaSettings, depth), 1, AB_MAX_DEPTH, "6", NULL,
      "plies searched (an extra move is a ply)", .changes_play = true },
    { "nodes", AOPT_INT, offsetof(AlphabetaSettings, nodes), 0, 1e15, "0", NULL,
      "stop deepening once this many positions were generated (0: depth alone)",
      .changes_play = true },
    { "tt", AOPT_INT, offsetof(AlphabetaSettings, tt), 0, 30, "16", NULL,
      "log2 of the transposition table's entries, 16 bytes each (0: no table)",
      .changes_play = true },
    AB_OPTION_TIES,
    AB_OPTION_MARGIN,
    AB_OPTION_TEMPERATURE,
    AB_OPTION_CHOICE_MOVES,
    { "quiesce", AOPT_INT, offsetof(AlphabetaSettings, quiesce), 0, 64, "0", NULL,
      "at the horizon, a side on an extra move (after a final-seed capture) moves on, up to "
      "this many plies more, before the position is evaluated (0: none)", .changes_play = true },
    { "tables", AOPT_TEXT, offsetof(AlphabetaSettings, tables), 0, 0, "", NULL,
      "endgame tables of the variant (anywoli tables build), exact values at their seeds; auto: "
      "the variant's to 8 seeds, built once into the cache folder (docs/tables.md)",
      .changes_play = true,
      .digest = tables_option_digest },
    { "weights", AOPT_CHOICE, offsetof(AlphabetaSettings, weight_set), 0, 0, "auto",
      weight_set_names,
      "the set the weights not given as w.<term> come from: plain (store 1, seeds 0.1), tuned "
      "(stronger from depth 4, but it stops capturing below), or auto: tuned from depth 4, "
      "plain below (`anywoli agents` lists the weights of the default depth); or learned: "
      "the learned evaluation (docs/learned.md) instead of the terms, or net: the network "
      "evaluation (net=), w.<term> and fade unused", .changes_play = true },
    AB_OPTION_LEARNED,
    AB_OPTION_NET,
    AB_OPTION_W,
    /* After "w", whose defaults set the fade too. */
    { "fade", AOPT_REAL, offsetof(AlphabetaSettings, weights) + offsetof(EvalWeights, fade), 0,
      1, "0", NULL,
      "once the seeds on the board fall below this share of all the seeds, every term but the "
      "store fades linearly to 0, so that a capture always pays near the end (0: no fade)",
      .changes_play = true },
    { .key = NULL },
};

/* The kinds' AgentKind.variant_digest: with weights=learned and no file, the hash of the set
 * fitted for v where the compiled-in set is not played (learned_choice_digest); with
 * weights=net and no file, the compiled-in network's (net_builtin_digest). */
static int ab_variant_digest(const void *settings, const Variant *v, uint64_t *out,
                             const char **key, Error *e)
{
    const AlphabetaSettings *set = settings;
    bool fit = strcmp(set->learned, LEARNED_AUTO_WORD) == 0;
    *out = 0;
    if (set->weight_set == WEIGHTS_NET)
        return net_builtin_digest(set->net, out, key);
    if (set->weight_set != WEIGHTS_LEARNED || (set->learned[0] && !fit))
        return 0;
    *key = "learned";
    return learned_choice_digest(fit, v, out, e);
}

const AgentKind alphabeta_kind = {
    "alphabeta", "negamax alpha-beta search to a fixed depth, with a weighted evaluation",
    alphabeta_options, sizeof(AlphabetaSettings),
    .convention_blind = false,   /* its play weighs the award of the last seeds */
    .variant_digest = ab_variant_digest,
};

/* The strong player: the same search built to win rather than to be exact (a table kept
 * through the game whose deeper results cut off too, one ply at a time with aspiration
 * windows, late move reductions, cut-offs by the seeds left), by a node budget. Its options
 * are alphabeta's that it shares (the same fields) and the techniques, each of which can be
 * turned off to measure what it pays (docs/strong-play.md, "A stronger player"). */
static const AgentOption strong_options[] = {
    { "nodes", AOPT_INT, offsetof(AlphabetaSettings, nodes), 0, 1e15, "42000", NULL,
      "stop deepening once this many positions were generated (0: depth alone); the "
      "default is what alphabeta:depth=10 spends a move on average", .changes_play = true },
    { "depth", AOPT_INT, offsetof(AlphabetaSettings, depth), 1, AB_MAX_DEPTH, "64", NULL,
      "plies searched at most", .changes_play = true },
    { "tt", AOPT_INT, offsetof(AlphabetaSettings, tt), 0, 30, "20", NULL,
      "log2 of the transposition table's entries, 16 bytes each, kept through a game "
      "(0: no table)", .changes_play = true },
    AB_OPTION_TIES,
    AB_OPTION_MARGIN,
    AB_OPTION_TEMPERATURE,
    AB_OPTION_CHOICE_MOVES,
    { "quiesce", AOPT_INT, offsetof(AlphabetaSettings, quiesce), 0, 64, "0", NULL,
      "at the horizon, a side on an extra move moves on, up to this many plies more (0: "
      "none)", .changes_play = true },
    { "tables", AOPT_TEXT, offsetof(AlphabetaSettings, tables), 0, 0, "auto", NULL,
      "endgame tables of the variant: a file (anywoli tables build), auto (the variant's to 8 "
      "seeds, built once into the cache folder, docs/tables.md) or empty (none)",
      .changes_play = true,
      .digest = tables_option_digest },
    { "lmr", AOPT_INT, offsetof(AlphabetaSettings, lmr), 0, 1, "1", NULL,
      "late move reductions: quiet moves late in the order searched a ply shallower first "
      "(0: off)", .changes_play = true },
    { "aspiration", AOPT_INT, offsetof(AlphabetaSettings, aspiration), 0, 1, "1", NULL,
      "aspiration windows: each depth searched first in a window around the last depth's "
      "value (0: off)", .changes_play = true },
    { "seed_bound", AOPT_INT, offsetof(AlphabetaSettings, seed_bound), 0, 1, "1", NULL,
      "cut off where the seeds left in play cannot bring the final margin into the window "
      "(0: off)", .changes_play = true },
    { "rfp", AOPT_INT, offsetof(AlphabetaSettings, rfp), 0, 100000, "0", NULL,
      "reverse futility: a null-window node at most AB_RFP_DEPTH plies from the horizon whose "
      "evaluation beats the window by this many hundredths of a seed a ply is cut (0: off)",
      .changes_play = true },
    { "etc", AOPT_INT, offsetof(AlphabetaSettings, etc), 0, 1, "0", NULL,
      "enhanced transposition cut-offs: a child the table already refutes cuts before any is "
      "searched (0: off)", .changes_play = true },
    { "weights", AOPT_CHOICE, offsetof(AlphabetaSettings, weight_set), 0, 0, "learned",
      weight_set_names, "the evaluation: learned (docs/learned.md), net (the network, "
      "net=), or the set the weights not given as w.<term> come from, as alphabeta's",
      .changes_play = true },
    AB_OPTION_LEARNED,
    AB_OPTION_NET,
    AB_OPTION_W,
    { "fade", AOPT_REAL, offsetof(AlphabetaSettings, weights) + offsetof(EvalWeights, fade), 0,
      1, "0", NULL, "the evaluation's fade near the end, as alphabeta's", .changes_play = true },
    { .key = NULL },
};

const AgentKind strong_kind = {
    "strong", "alpha-beta built to win: the search of alphabeta with a table kept through the "
    "game, aspiration windows, late move reductions and cut-offs by the seeds left, to a node "
    "budget; its values are not the exact depth-limited ones",
    strong_options, sizeof(AlphabetaSettings),
    .convention_blind = false,
    .variant_digest = ab_variant_digest,
};

/* What a stored value says: exact, at least (it failed high) or at most (it failed low). */
enum { TT_EXACT = 0, TT_LOWER, TT_UPPER };

/* One transposition-table entry: a position's value at one depth, and its best move. */
typedef struct TTEntry {
    uint64_t key;           /* the position's full hash */
    int32_t value;
    uint8_t depth;          /* remaining depth it was searched to */
    uint8_t bound;          /* TT_EXACT, TT_LOWER or TT_UPPER */
    uint8_t move;           /* best or refuting move */
    uint8_t gen;            /* the search that wrote it; others' entries count as empty */
} TTEntry;

/* One ply of the path searched, for the network (weights=net): the position there and, once
 * something below it was evaluated, its first layer's sums. */
typedef struct AbPly {
    const Position *pos;    /* the node at this ply (in its caller's frame while searched) */
    bool ready;             /* acc holds pos's sums */
    NetAcc acc;
} AbPly;

/* The agent's state: its settings, table and per-search counters. */
typedef struct Search {
    AgentData base;         /* the settings, for agent_describe */
    const AlphabetaSettings *set;
    const Variant *v;
    Evaluator ev;
    Evaluator order;        /* ev plus the waiting captures (AB_ORDER_THREAT): move order only */
    bool use_learned;                /* weights=learned */
    bool learned_fit;                /* ... learned=auto: the set fitted for the variant */
    const LearnedSet *learned_set;   /* ... the set for learned_for (else NULL) */
    Variant learned_for;             /* ... the variant it was chosen for (learned_choose) */
    LearnedSet *learned_file;        /* ... when it was read from a file (owned) */
    Learned *learned;       /* ... prepared for the variant searched last (NULL: the terms) */
    bool use_net;           /* weights=net */
    NetFile *net_file;      /* ... read from net=FILE (owned), or NULL: net_builtin() */
    Net *net;               /* ... prepared for net_for (NULL: not yet) */
    Variant net_for;        /* ... the variant it was prepared for */
    AbPly *path;            /* ... the sums by ply of the path searched (AB_MAX_PLY + 2) */
    bool net_full;          /* ... every evaluation from sums computed afresh: the check
                             * that the updated sums change nothing (alphabeta_net_full) */
    int ply;                /* plies from the root to the node searched (ab_node) */
    TTEntry *tt;            /* NULL when tt=0 */
    uint64_t tt_mask;
    uint8_t gen;            /* the current search's generation */
    uint64_t nodes;         /* positions generated in this search */
    uint64_t budget;        /* 0: none */
    bool stopped;           /* the budget ran out, or a stop was requested: the iteration
                             * is abandoned */
    bool aborted;           /* a stop was requested (agent_stop_all): the whole search is */
    uint32_t poll;          /* nodes searched (ab_node calls) until the next poll of it */
    uint32_t history[MAX_PITS];   /* cutoffs by move, weighted by depth squared */
    int quiesce_left;       /* extension plies the current horizon may still play */
    bool use_tables;        /* they are the variant's: this search probes them */
    bool diverse;           /* margin or temperature is set: choose among near-best moves */
    bool choosing;          /* ... and this search does (choice_moves) */
    uint64_t moves;         /* searches in this game so far, for choice_moves */
    int32_t width;          /* how far below the best a candidate may lie (EVAL_SCALE
                             * units); AB_INF: every move (temperature without margin) */
    uint8_t root[MAX_PITS]; /* an analysis (alphabeta_analysis_begin): its root moves in
                             * search order, the best of the last iteration first */
    int root_n;
    int root_partial;       /* the best root move of the iteration under way among those
                             * searched to the end, if it beats the window's floor; else -1 */
    bool strong;            /* the strong player (strong_kind): its table and techniques */
} Search;

/* The value of a root move that lies too far below the best to be chosen (not exact). */
#define AB_BELOW ALPHABETA_NOT_EXACT

/* The entry of a key, or NULL: a bucket holds two entries (the deeper result and the
 * newest), and an entry counts only if this search wrote it. The strong player's table
 * lives through a game: an entry of any earlier search of the game counts (generation 0 is
 * an empty slot), its generation only ages it for replacement. */
static inline TTEntry *tt_probe(Search *s, uint64_t key)
{
    TTEntry *b = &s->tt[key & s->tt_mask & ~1ULL];
    const uint8_t gen = s->strong ? 0 : s->gen;
    if ((s->strong ? b[0].gen != gen : b[0].gen == gen) && b[0].key == key)
        return &b[0];
    if ((s->strong ? b[1].gen != gen : b[1].gen == gen) && b[1].key == key)
        return &b[1];
    return NULL;
}

/* Store a result: in the first slot if it is at least as deep as what that slot holds (or
 * the slot is stale, from an earlier search, or holds this position), else in the second,
 * which takes anything. */
static inline void tt_store(Search *s, uint64_t key, int32_t value, int depth, int bound,
                            int move)
{
    TTEntry *e = &s->tt[key & s->tt_mask & ~1ULL];
    if (e->gen == s->gen && e->key != key && e->depth > depth)
        e++;
    e->key = key;
    e->value = value;
    e->depth = (uint8_t)depth;
    e->bound = (uint8_t)bound;
    e->move = (uint8_t)move;
    e->gen = s->gen;
}

/* The seed bound: however the game goes on, the final margin of p's side to move lies
 * within the seeds left of its store difference (every seed left goes to one store or the
 * other, by capture or by the award, the lottery's split included). When that interval lies
 * wholly outside (alpha, beta), the search below cannot change the result: true, with the
 * bound that decides it in *bound. */
static inline bool ab_seed_cut(const Position *p, int32_t alpha, int32_t beta, int32_t *bound)
{
    const int32_t diff = (p->store[p->side] - p->store[!p->side]) * EVAL_SCALE;
    const int32_t left = p->left * EVAL_SCALE;
    if (diff - left >= beta) {
        *bound = diff - left;
        return true;
    }
    if (diff + left <= alpha) {
        *bound = diff + left;
        return true;
    }
    return false;
}

/* The value of p (not over) for its side to move, searched `depth` plies (defined below). */
static int32_t ab_node(Search *s, const Position *p, int depth, int32_t alpha, int32_t beta);

/* The network's sums of the node at ply k of the path: kept from an earlier evaluation
 * below it, or updated now from its parent's (and theirs, up to the nearest ply that has
 * them; the root's computed in full). So a node's sums are computed only once something
 * below it is evaluated, and at most once a visit: children cut off before anything below
 * them was evaluated cost nothing.
 *
 * What it costs (tests/test_net_agents.c's bench, alphabeta to depth 10 from bench's 32
 * positions, with the first, untrained network): 916,000 evaluations took 653,000 updates
 * of the path's nodes besides their own 916,000 (a node next to the horizon has 1.4 of its
 * children evaluated on average, the rest cut off), and a move changes the bucket of 6.3
 * holes of the 13.8 filled on average (30% of the updates are recomputations,
 * net_acc_update's choice), so the search with updated sums takes little less than one
 * computing every evaluation's sums afresh (alphabeta_net_full): with the first trained
 * network (no base) 6.05 against 5.43 million nodes a second at depth 10 (the median of three
 * runs on a shared machine). An update that cost one row for a hole sown one seed more (a row of
 * differences) rather than two would pay. */
static const NetAcc *ab_net_acc(Search *s, int k)
{
    AbPly *path = s->path;
    int j = k;
    while (j > 0 && !path[j].ready)
        j--;
    if (!path[j].ready) {
        net_acc_full(s->net, s->v, path[0].pos, &path[0].acc);
        path[0].ready = true;
    }
    for (; j < k; j++) {
        net_acc_update(s->net, s->v, path[j].pos, &path[j].acc, path[j + 1].pos,
                       &path[j + 1].acc);
        path[j + 1].ready = true;
    }
    return &path[k].acc;
}

/* The network's value of c (not over) for its side to move, c being the node at ply k of
 * the path (k = s->ply: the node searched) or a child of it (k = s->ply + 1, its sums then
 * computed into that ply's slot, which no node holds while its parent is searched). With
 * net_full, from sums computed afresh instead. */
static int32_t ab_net_eval(Search *s, const Position *c, int k)
{
    NetAcc *a = &s->path[k].acc;
    if (__builtin_expect(s->net_full, 0)) {
        net_acc_full(s->net, s->v, c, a);
        s->path[k].ready = false;
    } else if (k > s->ply) {
        const NetAcc *pa = ab_net_acc(s, s->ply);
        net_acc_update(s->net, s->v, s->path[s->ply].pos, pa, c, a);
        s->path[k].ready = false;   /* c's sums, not a node's of the path */
    } else {
        a = (NetAcc *)ab_net_acc(s, k);
    }
    return net_eval(s->net, s->v, c, a);
}

/* The static evaluation for its side to move of c (not over), a child of the node searched
 * (or of the root): the network, the learned one, or the weighted terms. */
static inline int32_t ab_eval(Search *s, const Position *c)
{
    if (s->net)
        return ab_net_eval(s, c, s->ply + 1);
    if (s->learned)
        return learned_eval(s->learned, s->v, c);
    return eval_position(&s->ev, s->v, c);
}

/* The same of the node searched itself (the strong player's reverse futility). */
static inline int32_t ab_eval_node(Search *s, const Position *p)
{
    if (s->net)
        return ab_net_eval(s, p, s->ply);
    if (s->learned)
        return learned_eval(s->learned, s->v, p);
    return eval_position(&s->ev, s->v, p);
}

/* The path's root, the position every root move is played from: its sums are computed once
 * something is evaluated, and kept for the search (alphabeta_choose) or iteration. */
static void ab_set_root(Search *s, const Position *p)
{
    s->ply = 0;
    if (s->path) {
        s->path[0].pos = p;
        s->path[0].ready = false;
    }
}

/* The value for p's side to move of its child c (reached by a move that reported ev) when
 * nothing is searched below it: exact at an end or where the tables reach, else the
 * evaluation. */
static inline int32_t ab_static(Search *s, const Position *p, const Position *c, MoveEvent ev)
{
    if (__builtin_expect(ev >= EV_OVER, 0))
        return eval_final(s->v, c, ev);   /* c->side is still p's side: the mover */
    if (s->use_tables && tables_covers(s->base.tables, c)) {   /* exact: nothing to search */
        int32_t x = tables_value(s->base.tables, c) * EVAL_SCALE;
        return c->side == p->side ? x : -x;
    }
    int32_t x = ab_eval(s, c);
    return c->side == p->side ? x : -x;
}

/* The order key of p's child c (ab_sorted): exact at an end or where the tables reach, else
 * the weighted terms with the captures waiting for c's mover (AB_ORDER_THREAT); with the
 * learned evaluation too, the spec's terms (the plain set unless w.<term> are given): on
 * bench's positions at depth 10, the learned evaluation as the key saves 19% of the nodes
 * but takes 50% more time, and the tuned set's terms take 11% more nodes than the plain. It
 * orders the moves only: no value comes from it. */
static inline int32_t ab_key(Search *s, const Position *p, const Position *c, MoveEvent ev)
{
    if (__builtin_expect(ev >= EV_OVER, 0)
        || (s->use_tables && tables_covers(s->base.tables, c)))
        return ab_static(s, p, c, ev);
    int32_t x = eval_position(&s->order, s->v, c);
    return c->side == p->side ? x : -x;
}

/* The value of a horizon child c reached by a final-seed capture, on which the mover moves
 * again, while the quiescence budget lasts (s->quiesce_left > 0): the evaluation cannot see
 * that next move (often another capture), so the mover plays on (one ply, its own extra
 * moves extended the same way). Each extra move captures, so chains are short. (A pass is
 * not extended: the passing side's row is empty, and the mover's next move is an ordinary
 * one; extending passes would search every move of a long run of them.) */
static __attribute__((noinline)) int32_t ab_extend(Search *s, const Position *c,
                                                   int32_t alpha, int32_t beta)
{
    s->quiesce_left--;
    int32_t x = ab_node(s, c, 1, alpha, beta);
    s->quiesce_left++;
    return x;
}

/* The value for p's side to move of its child c, reached by a move that reported ev: exact
 * at an end, the evaluation at the horizon (extended on an extra move), else the search
 * below it. */
static inline int32_t ab_value(Search *s, const Position *p, const Position *c, MoveEvent ev,
                               int depth, int32_t alpha, int32_t beta)
{
    if (__builtin_expect(ev >= EV_OVER, 0)
        || (s->use_tables && tables_covers(s->base.tables, c)))
        return ab_static(s, p, c, ev);
    if (c->side != p->side)
        return depth <= 1 ? -ab_eval(s, c) : -ab_node(s, c, depth - 1, -beta, -alpha);
    if (depth > 1)
        return ab_node(s, c, depth - 1, alpha, beta);
    /* The extension's call stays out of line: the plain search pays one test for it. */
    if (__builtin_expect(ev == EV_EXTRA && s->quiesce_left > 0, 0))
        return ab_extend(s, c, alpha, beta);
    return ab_eval(s, c);
}

/* Play `move` from p and return its value for p's side to move. */
static inline int32_t ab_child(Search *s, const Position *p, int move, int depth, int32_t alpha,
                               int32_t beta)
{
    Position c;
    MoveInfo info;
    MoveEvent ev = pos_play(s->v, p, move, &c, &info, NULL);
    s->nodes++;
    return ab_value(s, p, &c, ev, depth, alpha, beta);
}

/* Order moves[0..n) for searching: the table's move first, then by history (stable). */
static int ab_order(const Search *s, uint64_t legal, int tt_move, uint8_t *moves)
{
    int n = 0;
    if (tt_move >= 0 && (legal >> tt_move & 1)) {
        moves[n++] = (uint8_t)tt_move;
        legal &= ~(1ULL << tt_move);
    }
    int first = n;
    for (; legal; legal &= legal - 1) {
        int m = __builtin_ctzll(legal), j = n++;
        uint32_t hm = s->history[m];
        for (; j > first && s->history[moves[j - 1]] < hm; j--)
            moves[j] = moves[j - 1];
        moves[j] = (uint8_t)m;
    }
    return n;
}

/* Take a move's value: a new best raises alpha, and one at beta or above is a cutoff (true),
 * which the history heuristic credits to the move, more for deeper subtrees. */
static bool ab_take(Search *s, int32_t val, int move, int depth, int32_t beta, int32_t *best,
                    int *best_move, int32_t *alpha)
{
    if (val <= *best)
        return false;
    *best = val;
    *best_move = move;
    if (val > *alpha)
        *alpha = val;
    if (val < beta)
        return false;
    s->history[move] += (uint32_t)(depth * depth);
    return true;
}

/* The moves of p, each played as it comes, in ab_order's order (near the horizon, where
 * a cutoff saves the moves not yet played). */
static int32_t ab_lazy(Search *s, const Position *p, int depth, int32_t alpha, int32_t beta,
                       int tt_move, int *best_move)
{
    uint8_t moves[MAX_PITS];
    int n = ab_order(s, pos_legal_mask(s->v, p), tt_move, moves);
    int32_t best = -AB_INF;
    for (int i = 0; i < n; i++) {
        int32_t val;
        if (i == 0) {
            val = ab_child(s, p, moves[i], depth, alpha, beta);
        } else {
            val = ab_child(s, p, moves[i], depth, alpha, alpha + 1);
            if (val > alpha && val < beta && (depth > 1 || s->set->quiesce))
                val = ab_child(s, p, moves[i], depth, alpha, beta);
        }
        if (s->stopped)
            return 0;
        if (ab_take(s, val, moves[i], depth, beta, &best, best_move, &alpha))
            break;
    }
    return best;
}

/* A child played ahead of searching, with what its move reported and its order key. */
typedef struct AbKid {
    Position pos;
    MoveEvent ev;
    int32_t key;
    uint8_t move;
    bool quiet;     /* it captured nothing */
} AbKid;

/* How many plies shallower the strong player first searches kid k of a node `depth` plies
 * from the horizon, the `searched`-th move it tries (late move reductions; 0: none): a late
 * move in the order that captured nothing and passes the turn rarely turns out best, and if
 * the shallower search says it beats alpha it is searched again at full depth. */
static inline int ab_reduced(const Search *s, const AbKid *k, int depth, int searched)
{
    if (!(s->strong && s->set->lmr && depth >= AB_LMR_DEPTH && searched >= AB_LMR_FROM &&
          k->quiet && k->ev == EV_NEXT))
        return 0;
    int r = 1 + (searched >= AB_LMR2_FROM && depth >= AB_LMR2_DEPTH) +
            (searched >= AB_LMR3_FROM && depth >= AB_LMR3_DEPTH);
    return r < depth - 1 ? r : depth - 1;
}

/* Enhanced transposition cut-offs: a child whose table entry (at least `left` plies deep)
 * already proves its move worth beta or more for the side to move cuts the node before any
 * child is searched. Returns that move, its value in *cut; else -1. */
static int ab_etc(Search *s, const Position *p, const AbKid *kid, int n, int left,
                  int32_t beta, int32_t *cut)
{
    for (int i = 0; i < n; i++) {
        const AbKid *k = &kid[i];
        if (k->ev >= EV_OVER || (s->use_tables && tables_covers(s->base.tables, &k->pos)))
            continue;
        const TTEntry *e = tt_probe(s, agent_position_hash(s->v, &k->pos));
        if (!e || e->depth < left)
            continue;
        /* The kid's value for p's side: its own after an extra move, else negated, so a
         * bound on it flips too. */
        const bool same = k->pos.side == p->side;
        const int32_t val = same ? e->value : -e->value;
        const bool at_least = e->bound == TT_EXACT || e->bound == (same ? TT_LOWER : TT_UPPER);
        if (at_least && val >= beta) {
            *cut = val;
            return k->move;
        }
    }
    return -1;
}

/* The moves of p, all played first and searched best first by their order key: far from
 * the horizon the extra moves played cost little next to the subtrees a better order saves.
 * The table's move, when there is one, is searched before the others are played at all:
 * it is the likeliest to cut off, and a cutoff then saves playing every other move. */
static int32_t ab_sorted(Search *s, const Position *p, int depth, int32_t alpha, int32_t beta,
                         int tt_move, int *best_move)
{
    uint64_t legal = pos_legal_mask(s->v, p);
    int32_t best = -AB_INF;
    int searched = 0;   /* moves searched so far: the first gets the full window */
    if (tt_move >= 0 && (legal >> tt_move & 1)) {
        int32_t val = ab_child(s, p, tt_move, depth, alpha, beta);
        if (s->stopped)
            return 0;
        if (ab_take(s, val, tt_move, depth, beta, &best, best_move, &alpha))
            return best;
        legal &= ~(1ULL << tt_move);
        searched = 1;
    }
    AbKid kid[MAX_PITS];
    int order[MAX_PITS], n = 0;
    for (; legal; legal &= legal - 1, n++) {
        AbKid *k = &kid[n];
        MoveInfo info;
        k->move = (uint8_t)__builtin_ctzll(legal);
        k->ev = pos_play(s->v, p, k->move, &k->pos, &info, NULL);
        k->quiet = info.mid_captures == 0 && !info.final_capture;
        s->nodes++;
        k->key = ab_key(s, p, &k->pos, k->ev);
        int j = n;
        for (; j > 0 && kid[order[j - 1]].key < k->key; j--)
            order[j] = order[j - 1];
        order[j] = n;
    }
    if (s->strong && s->set->etc && depth - 1 >= AB_TT_MIN_DEPTH) {
        int32_t cut;
        int cut_move = ab_etc(s, p, kid, n, depth - 1, beta, &cut);
        if (cut_move >= 0) {
            *best_move = cut_move;
            return cut;
        }
    }
    for (int i = 0; i < n; i++, searched++) {
        const AbKid *k = &kid[order[i]];
        int32_t val;
        if (searched == 0) {
            val = ab_value(s, p, &k->pos, k->ev, depth, alpha, beta);
        } else {
            const int reduced = ab_reduced(s, k, depth, searched);
            val = ab_value(s, p, &k->pos, k->ev, depth - reduced, alpha, alpha + 1);
            if (reduced && val > alpha)
                val = ab_value(s, p, &k->pos, k->ev, depth, alpha, alpha + 1);
            if (val > alpha && val < beta)
                val = ab_value(s, p, &k->pos, k->ev, depth, alpha, beta);
        }
        if (s->stopped)
            return 0;
        if (ab_take(s, val, k->move, depth, beta, &best, best_move, &alpha))
            break;
    }
    return best;
}

/* Principal variation search at p (not over), `depth` plies to go (at least 1): the first
 * move with the full window, the rest with a null window, searched again if they beat it. */
static int32_t ab_search(Search *s, const Position *p, int depth, int32_t alpha, int32_t beta)
{
    if (--s->poll == 0) {
        s->poll = AGENT_STOP_POLL;
        s->aborted = agent_stop_requested();
    }
    if (s->aborted || (s->budget && s->nodes >= s->budget)) {
        s->stopped = true;
        return 0;
    }
    if (s->strong && s->set->seed_bound) {
        int32_t bound;
        if (ab_seed_cut(p, alpha, beta, &bound))
            return bound;
    }
    uint64_t key = 0;
    int tt_move = -1;
    const bool use_tt = s->tt && depth >= AB_TT_MIN_DEPTH;
    if (use_tt) {
        key = agent_position_hash(s->v, p);
        const TTEntry *e = tt_probe(s, key);
        if (e) {
            tt_move = e->move;
            /* Only a result of exactly this depth: the value stays the depth-limited
             * minimax value whatever the table holds. The strong player takes a deeper
             * result too: it knows more. */
            if ((s->strong ? e->depth >= depth : e->depth == depth) &&
                (e->bound == TT_EXACT || (e->bound == TT_LOWER && e->value >= beta) ||
                 (e->bound == TT_UPPER && e->value <= alpha)))
                return e->value;
        }
    }
    /* Reverse futility: near the horizon, a side already this far above a null window is
     * taken to stay above it (rfp=; off in the exact search). The null window is tested as
     * beta == alpha + 1: beta - alpha overflows on the full window (-AB_INF, AB_INF). */
    if (s->strong && s->set->rfp && depth <= AB_RFP_DEPTH && beta == alpha + 1) {
        int32_t x = ab_eval_node(s, p);
        if (x - (int32_t)s->set->rfp * depth >= beta)
            return x - (int32_t)s->set->rfp * depth;
    }
    int32_t best;
    int best_move;
    if (depth >= AB_SORT_DEPTH)
        best = ab_sorted(s, p, depth, alpha, beta, tt_move, &best_move);
    else
        best = ab_lazy(s, p, depth, alpha, beta, tt_move, &best_move);
    if (s->stopped)
        return 0;
    if (use_tt)
        tt_store(s, key, best, depth,
                 best >= beta ? TT_LOWER : best > alpha ? TT_EXACT : TT_UPPER, best_move);
    return best;
}

/* ab_search at p, a child of the node searched (or of the root): p is the path's next ply
 * while it is searched, its sums not yet computed (ab_net_acc). */
static int32_t ab_node(Search *s, const Position *p, int depth, int32_t alpha, int32_t beta)
{
    const int k = ++s->ply;
    CHECK(k <= AB_MAX_PLY, "ply %d beyond AB_MAX_PLY", k);
    if (s->path) {
        s->path[k].pos = p;
        s->path[k].ready = false;
    }
    int32_t x = ab_search(s, p, depth, alpha, beta);
    s->ply--;
    return x;
}

/* One iteration at the root in the window (lo, hi): every move of order[0..n) until one
 * reaches hi, the best moved to the front (the first found among equals). *value is exact
 * when it lies inside the window, else a bound (at most lo, or at least hi). Returns false
 * if the budget stopped it. */
static bool ab_root_window(Search *s, const Position *p, int depth, uint8_t *order, int n,
                           int32_t lo, int32_t hi, int32_t *value)
{
    int32_t alpha = lo, best = -AB_INF;
    int best_i = 0;
    s->root_partial = -1;
    for (int i = 0; i < n; i++) {
        int32_t val;
        if (i == 0) {
            val = ab_child(s, p, order[i], depth, lo, hi);
        } else {
            val = ab_child(s, p, order[i], depth, alpha, alpha + 1);
            if (val > alpha && val < hi && (depth > 1 || s->set->quiesce))
                val = ab_child(s, p, order[i], depth, alpha, hi);
        }
        if (s->stopped)
            return false;
        if (val > best) {
            best = val;
            best_i = i;
            if (val > alpha)
                alpha = val;
            if (val >= hi)
                break;
        }
        if (best > lo)
            s->root_partial = order[best_i];
    }
    /* A search that failed low holds only upper bounds: its "best" is no better than the
     * others, so the last depth's best stays first (the move played if the search again
     * with the floor open runs out of budget). */
    if (best > lo) {
        uint8_t m = order[best_i];
        memmove(order + 1, order, (size_t)best_i);
        order[0] = m;
    }
    *value = best;
    return true;
}

/* One iteration at the root with the full window: the exact search's. */
static bool ab_root(Search *s, const Position *p, int depth, uint8_t *order, int n,
                    int32_t *value)
{
    return ab_root_window(s, p, depth, order, n, -AB_INF, AB_INF, value);
}

/* The strong player's iteration at the root: first in a window of AB_ASPIRATION either side
 * of the last depth's value `guess` (with `aspiration`, from depth 2), which most depths'
 * values fall in and which cuts off more; a value on the window's edge is only a bound, so
 * that side is opened and the depth searched again. */
static bool ab_root_aspiration(Search *s, const Position *p, int depth, uint8_t *order,
                               int n, int32_t guess, int32_t *value)
{
    int32_t lo = -AB_INF, hi = AB_INF;
    if (s->set->aspiration && depth > 1) {
        lo = guess - AB_ASPIRATION;
        hi = guess + AB_ASPIRATION;
    }
    /* *value is written only once the depth is complete: a cut search again leaves the
     * last depth's value, which goes with the last depth's move. */
    for (;;) {
        int32_t got;
        if (!ab_root_window(s, p, depth, order, n, lo, hi, &got))
            return false;
        if (got <= lo) {
            lo = -AB_INF;
        } else if (got >= hi) {
            hi = AB_INF;
        } else {
            *value = got;
            return true;
        }
    }
}

/* One iteration at the root that values exactly every move that may lie within `width` of
 * the k-th best (k >= 1): val[move] receives its exact value, or AB_BELOW, and the best moves
 * go to the front as in ab_root. The first k moves get the full window; each other one a
 * null window at t - width - 1, t the k-th best exact value so far, searched again with
 * (t - width - 1, inf) when it does not fail low. t only rises, so a move that fails low
 * lies more than width below the final k-th best too, and none within it does. The player's
 * choice among near-best moves is k = 1 and its margin (every move a candidate with a
 * temperature, width AB_INF: each a full window); an analysis of the best k moves is k and
 * width 0 (ties with the k-th are valued too, so equal moves can be ranked by hole). */
static bool ab_root_values(Search *s, const Position *p, int depth, uint8_t *order, int n,
                           int k, int32_t width, int32_t *value, int32_t *val)
{
    int32_t top[MAX_PITS];   /* the exact values so far, best first */
    int have = 0, best_i = 0;
    int32_t best = -AB_INF;
    for (int i = 0; i < n; i++) {
        int32_t x;
        if (have < k || width == AB_INF) {
            x = ab_child(s, p, order[i], depth, -AB_INF, AB_INF);
        } else {
            int32_t a = top[k - 1] - width - 1;
            x = ab_child(s, p, order[i], depth, a, a + 1);
            if (x > a && (depth > 1 || s->set->quiesce))
                x = ab_child(s, p, order[i], depth, a, AB_INF);
            if (x <= a)
                x = AB_BELOW;
        }
        if (s->stopped)
            return false;
        val[order[i]] = x;
        if (x != AB_BELOW) {
            int j = have++;
            for (; j > 0 && top[j - 1] < x; j--)
                top[j] = top[j - 1];
            top[j] = x;
        }
        if (x > best) {
            best = x;
            best_i = i;
        }
    }
    uint8_t m = order[best_i];
    memmove(order + 1, order, (size_t)best_i);
    order[0] = m;
    *value = best;
    return true;
}

/* The move chosen among the root's near-best: of the legal moves (ascending) whose exact
 * value val[move] lies within s->width of best, one uniformly, or by a softmax of their
 * values in seeds over the temperature, drawn from the position's choice stream. *value
 * receives its value. */
static int ab_pick(const Search *s, const Position *p, const int32_t *val, int32_t best,
                   Rng *rng, int32_t *value)
{
    uint8_t moves[MAX_PITS];
    double weight[MAX_PITS];
    const double t = s->set->temperature;
    int n = pos_legal_moves(s->v, p, moves);
    for (int i = 0; i < n; i++) {
        int32_t x = val[moves[i]];
        if (x == AB_BELOW || (int64_t)x < (int64_t)best - s->width)
            weight[i] = 0;
        else
            weight[i] = t > 0 ? exp((double)(x - best) / EVAL_SCALE / t) : 1;
    }
    Rng r = choice_stream(rng, agent_position_hash(s->v, p));
    int i = choice_draw(weight, n, &r);
    *value = val[moves[i]];
    return moves[i];
}

/* With weights=learned, the set for v (learned_choose: a file's, the compiled-in one, or one
 * fitted for v), chosen again only when v's rules of play are not those it was chosen for.
 * -1 with a message in *e (if not NULL). */
static int ab_learned_choose(Search *s, const Variant *v, Error *e)
{
    if (s->learned_set && variant_same_play(&s->learned_for, v))
        return 0;
    Error own;
    const LearnedSet *set;
    if (learned_choose(s->learned_file, s->learned_fit, s->base.name, v, &set, e ? e : &own) != 0)
        return -1;
    s->learned_set = set;
    s->learned_for = *v;
    return 0;
}

/* With weights=net, the network quantised for v's board: prepared again only when v's rules
 * of play are not those it was prepared for. -1 with a message naming the agent in *e (if
 * not NULL) when the network is for another board. */
static int ab_net_prepare(Search *s, const Variant *v, Error *e)
{
    return net_prepare_for(s->net_file, v, s->base.name, &s->net, &s->net_for, e);
}

/* Start a search: a new table generation (the table is wiped when generations wrap, so an
 * entry of an earlier search is never read), fresh counters and history. */
static bool ab_begin(Search *s, const Variant *v)
{
    s->v = v;
    s->nodes = 0;
    s->stopped = false;
    s->aborted = false;
    s->poll = AGENT_STOP_POLL;
    s->budget = 0;
    s->quiesce_left = (int)s->set->quiesce;
    s->use_tables = agent_tables_for(&s->base, v) != NULL;
    memset(s->history, 0, sizeof s->history);
    if (s->tt && ++s->gen == 0) {
        memset(s->tt, 0, (s->tt_mask + 1) * sizeof *s->tt);
        s->gen = 1;
    }
    /* The learned weights in fixed point for this board: chosen again when the rules of
     * play change (a set fitted for them, learned.h), prepared again when the set or the
     * board's seeds change. */
    if (s->use_learned && ab_learned_choose(s, v, NULL) != 0)
        return false;
    if (s->learned_set && (!s->learned || learned_set_of(s->learned) != s->learned_set ||
                           !learned_fits(s->learned, v))) {
        Error e;
        learned_free(s->learned);
        s->learned = NULL;
        if (learned_prepare(s->learned_set, v, &s->learned, &e) != 0)
            return false;
    }
    return !s->use_net || ab_net_prepare(s, v, NULL) == 0;
}

/* The root moves in search order: ascending, or shuffled from the stream (Fisher-Yates), so
 * that the first of several equal moves is a random one. */
static int ab_root_order(const Search *s, const Position *p, Rng *rng, uint8_t *order)
{
    int n = pos_legal_moves(s->v, p, order);
    if (s->set->ties == 0) {
        for (int i = n - 1; i > 0; i--) {
            int j = (int)rng_below(rng, (uint32_t)(i + 1));
            uint8_t t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
    }
    return n;
}

/* A root the tables cover: every move valued exactly by them, the first best in order (or
 * the choice among near-best moves, when it is on). */
static int tables_choose(Search *s, const Position *p, const uint8_t *order, int n, Rng *rng,
                         AgentStats *st)
{
    int best = 0;
    int32_t value = -AB_INF, val[MAX_PITS];
    for (int i = 0; i < n; i++) {
        int32_t x = ab_child(s, p, order[i], 1, -AB_INF, AB_INF);
        val[order[i]] = x;
        if (x > value) {
            value = x;
            best = i;
        }
    }
    int move = order[best];
    if (s->choosing && n > 1)
        move = ab_pick(s, p, val, value, rng, &value);
    st->nodes += s->nodes;
    st->value = (double)value / EVAL_SCALE;
    return move;
}

/* The depth of iterative deepening's next iteration after d, towards `depth`: the next of
 * depth, depth - step, depth - 2 step, ... */
static int ab_next_depth(int d, int depth, int step)
{
    int next = d + 1;
    while ((depth - next) % step != 0)
        next++;
    return next;
}

/* Iterative deepening to the set depth: depth 1, then AB_DEEPEN_STEP plies at a time to the
 * set depth (11: 1, 2, 5, 8, 11), or with a node budget one ply at a time, so that it stops
 * at the deepest depth the budget allows; the budget applies from depth 2, so the first ply
 * is always searched. A stop request abandons the search
 * (AGENT_STOPPED): the move of the last depth completed would depend on when it came. With
 * tables, a root they cover is played from them (every child is covered too: seeds only
 * leave the board). A choice among near-best moves is made from the root values of the
 * last depth completed, as the plain move is; the strong player's too, whose root then
 * searches each depth by ab_root_values (its first move in the full window, the others
 * proven below the margin by a null window or valued exactly) instead of aspiration
 * windows, and whose unfinished last depth is not used. */
static int alphabeta_choose(Agent *a, const Variant *v, const Position *p, Rng *rng,
                            AgentStats *st)
{
    Search *s = a->data;
    uint8_t order[MAX_PITS];
    if (!ab_begin(s, v))
        return AGENT_NO_MEMORY;
    ab_set_root(s, p);
    s->choosing = s->diverse && choice_this_move(&s->moves, s->set->choice_moves);
    int n = ab_root_order(s, p, rng, order);
    if (s->use_tables && tables_covers(s->base.tables, p))
        return tables_choose(s, p, order, n, rng, st);
    int32_t value = 0, val[MAX_PITS] = { 0 }, done_val[MAX_PITS] = { 0 };
    int done = 0;
    const int step = s->set->nodes || s->strong ? 1 : AB_DEEPEN_STEP,
              depth = (int)s->set->depth;
    for (int d = 1; d <= depth && n > 1; d = ab_next_depth(d, depth, step)) {
        s->budget = d > 1 ? (uint64_t)s->set->nodes : 0;
        /* A choice needs every candidate's exact value: ab_root_values, never an aspiration
         * window, whose fail-low or fail-high leaves only bounds at the root. */
        bool complete = s->choosing ? ab_root_values(s, p, d, order, n, 1, s->width, &value, val)
                        : s->strong ? ab_root_aspiration(s, p, d, order, n, value, &value)
                                    : ab_root(s, p, d, order, n, &value);
        if (!complete)
            break;
        done = d;
        if (s->choosing)
            memcpy(done_val, val, sizeof val);
    }
    st->nodes += s->nodes;
    if (s->aborted)
        return AGENT_STOPPED;
    int move = order[0];
    if (s->choosing && done > 0) {
        /* Only the last completed depth valued every candidate, each exactly: an unfinished
         * one has valued some moves and not others, and values of two depths do not
         * compare, so the choice is made from done_val alone. */
        move = ab_pick(s, p, done_val, value, rng, &value);
    } else if (s->strong && s->root_partial >= 0 && done > 0) {
        /* The strong player's budget mostly ends inside an iteration: a move that the
         * deeper search valued to the end above the window's floor is the better guess (the
         * first move searched is the last depth's best, so one beating it was searched in
         * full). */
        move = s->root_partial;
    }
    st->depth = done;
    st->value = (double)value / EVAL_SCALE;
    return move;
}

/* The best move of p (not over) one ply from the horizon, as the search values it there
 * (each child at depth 1, its extension included), the first in hole order among equals. */
static int ab_horizon_move(Search *s, const Position *p)
{
    int best_move = -1;
    int32_t best = -AB_INF;
    ab_set_root(s, p);
    for (uint64_t m = pos_legal_mask(s->v, p); m; m &= m - 1) {
        int move = __builtin_ctzll(m);
        int32_t x = ab_child(s, p, move, 1, -AB_INF, AB_INF);
        if (x > best) {
            best = x;
            best_move = move;
        }
    }
    return best_move;
}

/* The move the table holds as p's best with `left` plies to go: only an exact result of
 * exactly that depth (a bound's move may merely refute, and another depth's belongs to
 * another iteration), and a legal move; else -1. */
static int ab_table_move(Search *s, const Position *p, int left)
{
    if (!s->tt)
        return -1;
    const TTEntry *e = tt_probe(s, agent_position_hash(s->v, p));
    if (!e || e->depth != left || e->bound != TT_EXACT ||
        !(pos_legal_mask(s->v, p) >> e->move & 1))
        return -1;
    return e->move;
}

/* The principal variation of an iteration at `depth` from p, starting with `first`: each
 * next move is the table's for its position (the side to move's best, whoever that is after
 * an extra move or a pass), the last ply's valued as the search values it (the table holds
 * nothing that near the horizon). It stops at a position without a usable entry, one the
 * tables cover, a repetition, the end of the game, or after depth moves. The positions it
 * plays are not counted as nodes. Returns its length. */
static int ab_pv(Search *s, const Position *p, int first, int depth, int *pv)
{
    /* The walk leaves the search as it found it: the next iteration's order and count. */
    const uint64_t nodes = s->nodes, budget = s->budget;
    const int quiesce_left = s->quiesce_left;
    uint32_t history[MAX_PITS];
    memcpy(history, s->history, sizeof history);
    s->budget = 0;
    uint64_t seen[AB_MAX_DEPTH + 1];
    Position cur = *p;
    int len = 0, move = first;
    seen[0] = agent_position_hash(s->v, p);
    while (move >= 0) {
        Position c;
        MoveInfo info;
        MoveEvent ev = pos_play(s->v, &cur, move, &c, &info, NULL);
        pv[len++] = move;
        const int left = depth - len;
        if (ev >= EV_OVER || left == 0 || (s->use_tables && tables_covers(s->base.tables, &c)))
            break;
        uint64_t key = agent_position_hash(s->v, &c);
        bool repeated = false;
        for (int i = 0; i < len; i++)
            repeated |= seen[i] == key;
        if (repeated)
            break;
        seen[len] = key;
        cur = c;
        move = left >= AB_TT_MIN_DEPTH ? ab_table_move(s, &cur, left) : ab_horizon_move(s, &cur);
    }
    s->nodes = nodes;
    s->budget = budget;
    s->quiesce_left = quiesce_left;
    memcpy(s->history, history, sizeof history);
    return len;
}

/* Start an analysis: a fresh search (one table generation for all its iterations), the root
 * moves ascending, as with ties=first. */
int alphabeta_analysis_begin(Agent *a, const Variant *v, const Position *p, Error *e)
{
    if (a->choose != alphabeta_choose)
        return error_set(e, "agent '%s' is not alphabeta: only an alpha-beta search has "
                         "depths to analyse", a->name ? a->name : "?");
    if (pos_over(v, p))
        return error_set(e, "the game is over at this position: there is nothing to search");
    Search *s = a->data;
    if (!ab_begin(s, v))
        return error_set(e, "agent '%s': the learned weights or the network do not fit this "
                         "board (holes=%d capture=%d), or no memory for them", a->name,
                         v->holes, v->capture);
    s->root_n = pos_legal_moves(v, p, s->root);
    return 0;
}

/* One iteration of an analysis: ab_root for the best move alone, ab_root_values for more, then
 * the principal variation from the best move. */
bool alphabeta_analysis_depth(Agent *a, const Position *p, int depth, int exact,
                              uint64_t budget, AlphabetaIteration *out)
{
    Search *s = a->data;
    int32_t value = 0, val[MAX_PITS];
    const uint64_t before = s->nodes;
    for (int i = 0; i < MAX_PITS; i++)
        val[i] = AB_BELOW;
    /* Past the budget by even one position, the iteration does not count. */
    s->budget = budget ? budget + 1 : 0;
    ab_set_root(s, p);
    bool done = exact > 1
                    ? ab_root_values(s, p, depth, s->root, s->root_n, exact, 0, &value, val)
                    : ab_root(s, p, depth, s->root, s->root_n, &value);
    if (!done || (budget && s->nodes > budget))
        return false;
    int best = s->root[0];
    if (exact > 1) {
        for (int m = MAX_PITS - 1; m >= 0; m--)   /* the first in hole order of the best */
            if (val[m] == value)
                best = m;
    } else {
        val[best] = value;
    }
    out->depth = depth;
    out->value = value;
    memcpy(out->move_value, val, sizeof val);
    out->nodes = s->nodes - before;
    out->pv_len = ab_pv(s, p, best, depth, out->pv);
    return true;
}

bool alphabeta_net_full(Agent *a, bool on)
{
    if (a->choose != alphabeta_choose || !((Search *)a->data)->use_net)
        return false;
    ((Search *)a->data)->net_full = on;
    return true;
}

/* A new game: nothing carries over between searches anyway; clear the table so that even
 * its memory starts the same. */
static void alphabeta_new_game(Agent *a)
{
    Search *s = a->data;
    if (s->tt)
        memset(s->tt, 0, (s->tt_mask + 1) * sizeof *s->tt);
    s->gen = 0;
    s->moves = 0;
}

/* Free the table, the settings and the state. */
static void alphabeta_done(Agent *a)
{
    Search *s = a->data;
    if (s) {
        tables_release(s->base.tables);
        learned_free(s->learned);
        learned_set_free(s->learned_file);
        net_free(s->net);
        net_file_free(s->net_file);
        free(s->path);
        free(s->tt);
        free(s->base.settings);
    }
    free(s);
}

/* The tables, if any, must be the variant's, and a learned set's or the network's board its
 * board (a network is never fitted on first use: one for another board is refused). */
static int alphabeta_check_variant(Agent *a, const Variant *v, Error *e)
{
    Search *s = a->data;
    if (agent_tables_check(a, v, e) != 0)
        return -1;
    if (s->use_learned && ab_learned_choose(s, v, e) != 0)
        return -1;
    if (s->use_net && ab_net_prepare(s, v, e) != 0)
        return -1;
    return learned_check_board(s->learned_set, a->name, v, e);
}

/* With weights=learned, the set: a file's (learned=FILE) read now; the compiled-in one or
 * one fitted for the variant (learned=auto) chosen by the variant played. */
static int ab_learned_set(Search *s, const char *name, Error *e)
{
    const AlphabetaSettings *set = s->set;
    if (set->weight_set != WEIGHTS_LEARNED) {
        if (set->learned[0])
            return error_set(e, "agent '%s': learned=%s needs weights=learned", name,
                             set->learned);
        return 0;
    }
    /* The compiled-in set or a fitted one is chosen by the variant (ab_learned_choose). */
    s->use_learned = true;
    s->learned_fit = strcmp(set->learned, LEARNED_AUTO_WORD) == 0;
    if (set->learned[0] && !s->learned_fit) {
        if (learned_set_load(set->learned, &s->learned_file, e) != 0) {
            char msg[sizeof e->msg];
            snprintf(msg, sizeof msg, "%s", e->msg);
            return error_set(e, "agent '%s': learned=%s", name, msg);
        }
        s->learned_set = s->learned_file;
    }
    return 0;
}

/* With weights=net, the network: a file's (net=FILE) read now, else the compiled-in one;
 * and the path's sums, one ply each (AB_MAX_PLY below the root, and a slot for a child of
 * the deepest). net= without weights=net is refused. */
static int ab_net_set(Search *s, const char *name, Error *e)
{
    const AlphabetaSettings *set = s->set;
    s->use_net = set->weight_set == WEIGHTS_NET;
    if (net_option_load(s->use_net, set->net, name, &s->net_file, e) != 0)
        return -1;
    if (!s->use_net)
        return 0;
    s->path = malloc((AB_MAX_PLY + 2) * sizeof *s->path);
    if (!s->path)
        return error_set(e, "agent '%s': out of memory", name);
    return 0;
}

/* The evaluator of the order key: the evaluation's weights, each hole of the mover's row at
 * capture - 1 seeds weighing AB_ORDER_THREAT captures more, a capture being 4 seeds at the
 * store's weight (the standard capture; on other variants a rough measure, which only
 * orders). */
static void ab_prepare_order(const AlphabetaSettings *set, Evaluator *order)
{
    EvalWeights w = set->weights;
    w.w[EVAL_THREES] += AB_ORDER_THREAT * 4 * w.w[EVAL_STORE];
    eval_prepare(&w, order);
}

/* Build the agent: its state, the weights in fixed point and the table. */
static int ab_agent_init(Agent *a, void *settings, bool strong, Error *e)
{
    AlphabetaSettings *set = settings;
    /* Resolved here, so that the agent's full spec names every weight it plays. */
    if (set->weight_set == WEIGHTS_TUNED ||
        (set->weight_set == WEIGHTS_AUTO && set->depth >= EVAL_TUNED_FROM))
        eval_use_tuned(&set->weights);
    Search *s = calloc(1, sizeof *s);
    if (!s)
        return error_set(e, "agent '%s': out of memory", a->name);
    s->base.settings = settings;
    s->set = set;
    s->strong = strong;
    s->diverse = set->margin > 0 || set->temperature > 0;
    /* The margin in whole EVAL_SCALE units (values are integers: a value lies within
     * 0.333 seeds of another exactly when it lies within 33 units). */
    s->width = set->margin > 0 ? (int32_t)floor(set->margin * EVAL_SCALE + 1e-9)
                               : set->temperature > 0 ? AB_INF : 0;
    eval_prepare(&set->weights, &s->ev);
    ab_prepare_order(set, &s->order);
    if (set->tt) {
        s->tt_mask = (1ULL << set->tt) - 1;
        s->tt = calloc(s->tt_mask + 1, sizeof *s->tt);
        if (!s->tt) {
            free(s);
            return error_set(e, "agent '%s': no memory for 2^%lld table entries", a->name,
                             (long long)set->tt);
        }
    }
    if (ab_learned_set(s, a->name, e) != 0 || ab_net_set(s, a->name, e) != 0 ||
        agent_use_tables(a, &s->base, set->tables, e) != 0) {
        learned_set_free(s->learned_file);
        net_file_free(s->net_file);
        free(s->path);
        free(s->tt);
        free(s);
        return -1;
    }
    a->data = s;
    a->choose = alphabeta_choose;
    a->new_game = alphabeta_new_game;
    a->done = alphabeta_done;
    a->check_variant = alphabeta_check_variant;
    return 0;
}

int alphabeta_agent_init(Agent *a, void *settings, Error *e)
{
    return ab_agent_init(a, settings, false, e);
}

int strong_agent_init(Agent *a, void *settings, Error *e)
{
    return ab_agent_init(a, settings, true, e);
}
