/* agent.h: the one interface behind which every player sits. */
#ifndef ANYWOLI_AGENT_H
#define ANYWOLI_AGENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "position.h"
#include "rng.h"
#include "variant.h"

/* Work an agent did for one choice, and what it thinks of the move it chose. */
typedef struct AgentStats {
    uint64_t nodes;      /* positions generated (pos_play calls; for MCTS, in the tree) */
    uint64_t playouts;   /* random playouts (MCTS) */
    int depth;           /* deepest search completed (alpha-beta), or tree depth (MCTS) */
    double value;        /* the chosen move for the mover: seeds ahead (search), or mean
                          * reward in [0, 1] (MCTS) */
} AgentStats;

/* The kind of an option's value. */
typedef enum AgentOptionType {
    AOPT_INT = 0,        /* a whole number in [lo, hi], stored as int64_t */
    AOPT_REAL,           /* a number in [lo, hi], stored as double */
    AOPT_CHOICE,         /* one of `choices`, stored as int (its index) */
    AOPT_WEIGHTS,        /* every evaluation term as `w.<term>`, stored as EvalWeights */
    AOPT_TEXT,           /* text (a file's path), stored as char[AGENT_TEXT_MAX]; "" for none */
    AOPT_LIST            /* text that may be given again and again (`arg=a,arg=b`), each item
                          * kept in order and ended by '\n', in char[AGENT_TEXT_MAX]; "" none */
} AgentOptionType;

/* The longest AOPT_TEXT value, its ending zero included. */
#define AGENT_TEXT_MAX 256

/* One option an agent takes (`key=value` in a spec): what `anywoli agents` lists. */
typedef struct AgentOption {
    const char *key;              /* NULL ends a table */
    AgentOptionType type;
    size_t offset;                /* where the value goes in the agent's settings */
    double lo, hi;                /* range of AOPT_INT and AOPT_REAL */
    const char *def;              /* default, as written in a spec (AOPT_WEIGHTS: overrides
                                   * of eval.h's defaults, `w.<term>=x,...`, or NULL) */
    const char *const *choices;   /* AOPT_CHOICE: the names, NULL-terminated */
    const char *help;             /* one line */
    /* Whether its value can change a move. Every entry says (the compiler asks for it): one
     * that cannot (a safety timeout) is left out of the spec an experiment is known by
     * (agent_play_spec), so that a resumed or grown run may change it. */
    bool changes_play;
    /* For an option that names a file whose content decides the play (weights, tables): the
     * content's hash, read from the file at value (0 for a value that names no file, as
     * tables=auto); -1 with a one-line message naming the file. */
    int (*digest)(const char *value, uint64_t *out, Error *e);
} AgentOption;

/* An agent in the registry: its name, what it does, and its options. */
typedef struct AgentKind {
    const char *name;
    const char *summary;          /* one line; `{key}` stands for the option's key=default as
                                   * `anywoli agents` prints it (from the full default spec),
                                   * so that a summary never states a default of its own */
    const AgentOption *options;   /* ends with a NULL key */
    size_t settings_size;         /* bytes of the settings the options fill */
    /* Its play does not depend on the final_four convention, so a game between two such
     * agents is one game under every convention: analyze re-scores it under each. */
    bool convention_blind;
    /* It chooses uniformly among the legal moves, one draw from its stream a move, as
     * pos_random_playout does: a game between two of them is played by that fast loop. */
    bool uniform;
    /* A spec that builds it, for an agent whose name alone does not (an option with no
     * default, as external's cmd): what `anywoli agents` describes; NULL: the name. */
    const char *example;
    /* optional: for an agent whose play depends on a file no option names (weights fitted
     * for the variant on first use, learned=auto; the compiled-in network of weights=net):
     * that file's content hash for v (0: none) into *out and the key it goes under in
     * agent_file_digests into *key; -1 with a one-line message. */
    int (*variant_digest)(const void *settings, const Variant *v, uint64_t *out,
                          const char **key, Error *e);
} AgentKind;

/* What choose returns instead of a move when it gives up its search. The move it would
 * have made is unknown, so the game it belongs to cannot go on as its seeds decide: the
 * caller abandons that game (it is never recorded). */
#define AGENT_STOPPED (-1)       /* agent_stop_all was called during the search */
#define AGENT_NO_MEMORY (-2)     /* the search needed more memory than it could get */
#define AGENT_FAULT (-3)         /* the agent's program failed (it died, hung, answered an
                                  * illegal or unreadable move): agent_fault says how */

/* How often a search polls agent_stop_requested: every this many nodes or playouts, at
 * most. A poll is one relaxed load; this keeps even a slow node's wait well under a second. */
#define AGENT_STOP_POLL 256

typedef struct Agent Agent;
struct Agent {
    const char *name;
    /* Choose a legal move for p (which is not over); draw randomness only from rng. Returns
     * AGENT_STOPPED or AGENT_NO_MEMORY instead when the search gave up (see above): a stop
     * request never changes a move that is returned, as every budget is nodes, playouts or
     * depth. */
    int (*choose)(Agent *a, const Variant *v, const Position *p, Rng *rng, AgentStats *st);
    void (*new_game)(Agent *a);   /* optional: clears every per-game state */
    void (*done)(Agent *a);       /* optional: frees data */
    /* optional: 0 if the agent can play the variant v, else -1 with a message */
    int (*check_variant)(Agent *a, const Variant *v, Error *e);
    /* optional: a note (one line into buf, true) when playing from p, a position of v, is
     * not what the agent's options promise: its tables lack a level that p's play reaches */
    bool (*note_position)(Agent *a, const Variant *v, const Position *p, char *buf,
                          size_t size);
    /* optional, for an agent that follows the game as a whole (an external program must be
     * told the game, its moves and its end): the start of a game of v from start, the agent
     * playing `side` with its stream's key `seed`; each move made, by either side, the
     * start's given moves included; the game's end (an outcome's word, South's and North's
     * seeds). A game abandoned is never ended: the next game_begin says it is over. */
    void (*game_begin)(Agent *a, const Variant *v, const Position *start, int side,
                       uint64_t seed);
    void (*game_move)(Agent *a, int move);
    void (*game_end)(Agent *a, const char *outcome, unsigned south, unsigned north);
    /* optional: after choose returned AGENT_FAULT, the fault in one line */
    const char *(*fault)(Agent *a);
    void *data;                   /* agent-private */
};

/* Ask every search in this process to give up within a fraction of a second (their choose
 * returns AGENT_STOPPED), for a clean stop on a signal: async-signal-safe. The request holds
 * until agent_stop_clear. Searches poll it with agent_stop_requested. */
void agent_stop_all(void);
void agent_stop_clear(void);
bool agent_stop_requested(void);

/* Build an agent from a spec `name` or `name:key=value,...`; -1 with a one-line message. */
int agent_create(Agent *a, const char *spec, Error *e);

/* Whether the agent can play variant v (an agent with tables, for instance, only the
 * tables' variant): 0, or -1 with a one-line message. */
int agent_check_variant(Agent *a, const Variant *v, Error *e);

/* A note on playing from p (a composed position, say): true with one line in buf when the
 * agent has something to say (tables that do not hold a level p's play reaches). */
bool agent_note_position(Agent *a, const Variant *v, const Position *p, char *buf,
                         size_t size);

/* Reset an agent at the start of a game (calls new_game if it has one). */
void agent_new_game(Agent *a);

/* After choose returned AGENT_FAULT: the fault in one line, naming the agent ("" if none). */
const char *agent_fault(Agent *a);

/* Free what an agent holds. */
void agent_free(Agent *a);

/* The i-th agent of the registry (from 0), or NULL past the last. */
const AgentKind *agent_kind(int i);

/* The kind a spec names (`name` or `name:...`), or NULL when none has that name. */
const AgentKind *agent_kind_of(const char *spec);

/* Write the agent's full spec, every option with its value (`alphabeta:depth=6,...`). */
void agent_describe(const Agent *a, char *buf, size_t len);

/* The full spec of the agent a spec builds (agent_describe's), as `anywoli agents` prints it
 * and a results file stores it beside the spec as given; -1 with agent_create's message. */
int agent_full_spec(const char *spec, char *buf, size_t len, Error *e);

/* The spec as an experiment knows it: spec (as given, or a full spec) without its options
 * that change no move (AgentOption.changes_play false), into buf; a spec with none is left as it is. */
void agent_play_spec(const char *spec, char *buf, size_t len);

/* The content hashes of the files a spec's options name (AgentOption.digest), as
 * `key=HASH,...` in the options' order ("" when it names none), then, when v is not NULL,
 * the hash of the file its kind chooses for v (AgentKind.variant_digest: the weights
 * fitted for v, the compiled-in network), into buf: what tells two runs of one spec apart
 * when a file it plays has changed. -1 with a one-line message (the spec does not parse, a
 * file cannot be read or is damaged, a fit fails). */
int agent_file_digests(const char *spec, const Variant *v, char *buf, size_t len, Error *e);

/* From now on, checking an agent against a variant builds nothing it would build on demand:
 * no endgame tables (tables=auto) and no fitted evaluation not yet cached (learned=auto;
 * its hash is then left out of agent_file_digests). For a command that only lists what it
 * would play (`run --dry-run`): it must not spend minutes building. */
void agents_defer_builds(void);

/* Whether agents_defer_builds was called: what each builder on demand asks first. */
bool agents_builds_deferred(void);
#define AGENT_DIGESTS_MAX 256

/* Room for a full spec: every option and weight at its value. */
#define AGENT_FULL_SPEC_MAX 1024

/* Room for agent_fault's line: the agent's full spec and what went wrong. */
#define AGENT_FAULT_MAX (AGENT_FULL_SPEC_MAX + 512)

#endif
