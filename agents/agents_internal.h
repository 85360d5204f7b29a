/* agents_internal.h: what the registry needs from each agent file, and the option parser
 * they share. */
#ifndef ANYWOLI_AGENTS_INTERNAL_H
#define ANYWOLI_AGENTS_INTERNAL_H

#include <stdbool.h>
#include <string.h>

#include "agent.h"
#include "tables.h"

/* Each agent file: its registry entry, and its constructor, which receives the settings
 * already parsed from the spec (NULL for an agent without options). An agent with options
 * owns its settings from then on (its `done` frees them), and its data starts with
 * AgentData, so that agent_describe can find them. */
extern const AgentKind random_kind, greedy_kind, alphabeta_kind, strong_kind, mcts_kind,
    external_kind;
int random_agent_init(Agent *a, void *settings, Error *e);
int greedy_agent_init(Agent *a, void *settings, Error *e);
int alphabeta_agent_init(Agent *a, void *settings, Error *e);
int strong_agent_init(Agent *a, void *settings, Error *e);
int mcts_agent_init(Agent *a, void *settings, Error *e);
int external_agent_init(Agent *a, void *settings, Error *e);

/* The first member of the data of every agent that has options. */
typedef struct AgentData {
    void *settings;               /* the parsed options */
    const Tables *tables;         /* an agent with a tables= option: the endgame tables it
                                   * holds (shared), or NULL */
    const char *tables_path;      /* that option's value, or NULL */
    bool tables_auto;             /* tables=auto: each game's variant's own, built on demand
                                   * (tables_acquire_auto) */
    const char *name;             /* the agent's spec, for messages */
} AgentData;

/* For an agent whose data starts with d: acquire the tables at path (the tables= option; NULL
 * or empty: none) into d, and give a the check_variant and note_position that hold them to a
 * game's variant. -1 with "agent 'NAME': tables=..." and the reason. */
int agent_use_tables(Agent *a, AgentData *d, const char *path, Error *e);

/* The tables an agent whose data starts with d probes in a game of v: those it holds if they
 * are v's, else none; with tables=auto, v's own, acquired at the first game of v (and built
 * then if no earlier run left them). A run checks its agents against its variants first
 * (agent_check_variant), which builds them with a message if that fails; should it fail
 * only here (the cache folder emptied meanwhile), the process stops with that message, as
 * a game that went on without them would not be the game the spec names. */
const Tables *agent_tables_for(AgentData *d, const Variant *v);

/* The tables= option's AgentOption.digest: the content hash of the tables file at value (the
 * checksum of its header, which holds the checksum of its values: tables_file_digest), or 0
 * for auto, whose tables follow from the variant. */
int tables_option_digest(const char *value, uint64_t *out, Error *e);

/* The check_variant agent_use_tables gives: the tables, if any, must be the variant's (with
 * tables=auto: are made so, built if need be); for an agent that checks more of its own. */
int agent_tables_check(Agent *a, const Variant *v, Error *e);


/* The greedy agent's choice for p (not over): the move with the best immediate result for
 * the mover (captured during the move, by the mover minus by the opponent; an extra move
 * adds its best follow-up), ties broken uniformly by draws from rng (one per tie). *value
 * receives that result in EVAL_SCALE units; *nodes counts the positions played. Also the
 * `greedy` playout policy of MCTS. */
int greedy_move(const Variant *v, const Position *p, Rng *rng, int32_t *value, uint64_t *nodes);

/* The `capture` playout policy of MCTS: of at most `tries` legal moves of p (0: all) tried in
 * an order drawn from s, the first in which the mover gains more seeds than the opponent,
 * else the last one tried. out receives the position after it (as pos_play's), *ev its event. */
int capture_playout_move(const Variant *v, const Position *p, int tries, Rng *s, Position *out,
                         MoveEvent *ev);

/* One node of an MCTS agent's last search tree, as mcts_tree reports it. */
typedef struct MctsTreeNode {
    int32_t parent;     /* the parent's index in the report, -1 for the root */
    int move;           /* the move into the node (the root's: 0) */
    int mover;          /* who made it (the root's: the side not to move) */
    uint32_t visits;
    double tau;         /* its implicit minimax value for mover (minimax > 0 or expand=all) */
    bool end;           /* scored exactly: the game over or endless, or the tables cover it */
} MctsTreeNode;

/* The tree of agent a's (an mcts agent's) last search, each node after its parent, into
 * out (at most max nodes): the number of nodes in the tree. The tests' window on the
 * implicit minimax values, which no move shows on its own. */
uint32_t mcts_tree(const Agent *a, MctsTreeNode *out, uint32_t max);

/* Fill settings with every option's default, then with `key=value,...` from opts. -1 with a
 * one-line message naming the agent, the key and the allowed values. */
int agent_options_parse(const AgentKind *k, const char *opts, void *settings, Error *e);

/* Whether the option of k named by the key at key[0..n) changes no move (changes_play false). */
bool agent_option_no_play(const AgentKind *k, const char *key, size_t n);

/* Write `key=value,...` for every option of k, as set in settings. */
void agent_options_format(const AgentKind *k, const void *settings, char *buf, size_t len);

/* The hash of everything a position's value depends on (the board, stores, side to move
 * and the two award fields), read a word at a time; holes past the board hold zero. The
 * key of alpha-beta's table, and what tells the positions of a game apart for choice_stream. */
static inline uint64_t agent_position_hash(const Variant *v, const Position *p)
{
    const int words = (v->pits + 3) / 4;
    uint64_t h = (uint64_t)p->store[SOUTH] | (uint64_t)p->store[NORTH] << 16 |
                 (uint64_t)(uint8_t)p->side << 32 | (uint64_t)(uint8_t)p->last_capturer << 40 |
                 (uint64_t)(uint8_t)p->first_final << 48;
    for (int i = 0; i < words; i++) {
        uint64_t w;
        memcpy(&w, &p->pit[4 * i], sizeof w);
        h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
        h ^= h >> 29;
    }
    return rng_mix64(h);
}

/* The stream a choice among near-best moves at a position draws from: a sub-stream of the
 * agent's stream rng (its key, not its counter) and of the position's hash, so that it
 * disturbs no other draw and depends only on (game stream, position). */
Rng choice_stream(const Rng *rng, uint64_t position_hash);

/* Draw an index of weight[0..n) with probability proportional to its weight (those <= 0
 * are never drawn; at least one is positive). When every positive weight is the same, the
 * draw is exactly uniform among them (rng_below over the candidates in index order). */
int choice_draw(const double *weight, int n, Rng *r);

/* Whether this move of a game is one to choose among near-best moves, when the option
 * `choice_moves` is `limit` (0: every move) and *moves moves were chosen before it in the
 * game (the agent's new_game sets it to 0); counts this move. */
bool choice_this_move(uint64_t *moves, int64_t limit);

#endif
