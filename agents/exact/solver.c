/* solver.c: exact values by retrograde analysis of the finite graph of reachable states.
 *
 * States. A move depends only on the board and the side to move, the end of the game only on
 * the seeds left, and the award only on who receives the seeds left. The stores merely add up.
 * So a state is (board, side to move, the convention's state: the last capturer unless the
 * lottery decides, the first final capturer under first-final), and the solver computes its
 * relative value r(s): the margin the side to move can force from now on (its captures minus
 * the opponent's, plus the award). A position's value is its store difference plus r.
 *
 * The graph. Every legal move of a state is an edge: to a terminal outcome (EV_OVER: the
 * final margin gained; EV_ENDLESS: 0, nothing more is captured) or to a child state, with
 * the seeds the mover captured on the way (its gain), the child's value counting for the
 * mover with its sign kept when the mover moves again (extra move, or the opponent passes)
 * and negated otherwise.
 *
 * Cycles. Every capture takes seeds off the board, so along a cycle of the graph nothing is
 * captured: the strongly connected components (SCCs) of the graph hold play without captures,
 * and a play that never ends stays, from some point on, inside one SCC with its stores fixed.
 * The rule values such a play at the store difference where it stopped, which is relative
 * value 0. The SCCs are solved one at a time in reverse topological order (Tarjan's algorithm
 * emits them so), every edge leaving an SCC then having a known value. Inside an SCC C the
 * solver runs value iteration from r = 0 (Jacobi: each round computes every state's best
 * edge from the previous round's values) until a round changes nothing.
 *
 * Why that is exact. Round k gives the value of the game cut off after k moves inside C and
 * valued 0 there. For a threshold t, "the side to move at s can force at least t":
 *   - when 0 >= t, cutting off never hurts, so it holds in the k-move game exactly when the
 *     opponent cannot force an exit worth less than t within k moves, and in the real game
 *     when the opponent cannot force such an exit at all (never leaving is worth 0 >= t);
 *   - when 0 < t, it holds exactly when the player can force an exit worth at least t within
 *     k moves (real game: ever).
 * "Force an exit within k moves" is an attractor in a reachability game on C, which is the
 * same for every k >= |C| (each round adds states or stops for good), and reachability games
 * are determined. So the k-move values equal the true values for all k >= |C|. A round that
 * changes nothing is a fixed point, after which every round repeats it, so the first such
 * round already holds the values of round |C|: the exact ones. At most |C| + 1 rounds.
 *
 * With endgame tables (tables.h, up to K seeds on the board), a child state that they cover
 * is not added to the graph: its edge is an exit worth the gain plus the tables' value (sign
 * kept or negated as above). The tables hold the same relative value this solver would
 * compute for that state (the same definition, solved by the same argument level by level),
 * and a state's value depends only on the states reachable from it, so the values of the
 * states with more than K seeds come out exactly as in the whole graph, which need never be
 * built below K seeds. */
#include "solver.h"

#include <stdlib.h>
#include <string.h>

#include "tables.h"
#include "margin.h"

/* What an edge leads to. */
enum { EDGE_EXIT = 0, EDGE_KEEP, EDGE_FLIP };

/* One move of a state. */
typedef struct Edge {
    int32_t child;    /* the child state (EDGE_KEEP, EDGE_FLIP) */
    int16_t gain;     /* the mover's captures minus the opponent's on the move, award included
                       * for EDGE_EXIT: the whole value of a terminal edge */
    uint8_t kind;     /* EDGE_EXIT, EDGE_KEEP or EDGE_FLIP */
} Edge;

/* The reachable state graph and the work arrays of its solution. */
typedef struct Graph {
    const Variant *v;
    int width;            /* bytes per hole in a key: 1, or 2 for more than 255 seeds */
    int stride;           /* bytes per key: the holes, then side and convention state */
    uint64_t max_states;  /* the cap */
    uint8_t *keys;        /* stride bytes per state */
    uint32_t *first;      /* the first edge of each state (the next state's ends it) */
    uint32_t n, cap;      /* states, and room for them */
    Edge *edge;
    uint64_t n_edges, edge_cap;
    uint32_t *table;      /* open addressing: state + 1, or 0 for a free slot */
    uint64_t table_mask;
    int32_t *value;       /* relative values, exact once a state's SCC is solved */
    const Tables *tables; /* states they cover are exits, or NULL */
    SolveStatus status;
} Graph;

/* The key of p: its holes, then side, last capturer and first final capturer in one byte,
 * the fields the convention ignores cleared. */
static void make_key(const Graph *g, const Position *p, uint8_t *key)
{
    const Variant *v = g->v;
    for (int i = 0; i < v->pits; i++) {
        if (g->width == 1) {
            key[i] = (uint8_t)p->pit[i];
        } else {
            key[2 * i] = (uint8_t)(p->pit[i] & 0xff);
            key[2 * i + 1] = (uint8_t)(p->pit[i] >> 8);
        }
    }
    int lc = v->final_four == FF_LOTTERY ? NOBODY : p->last_capturer;
    int ff = v->final_four == FF_FIRST_FINAL ? p->first_final : NOBODY;
    key[g->stride - 1] = (uint8_t)(p->side | (lc + 1) << 1 | (ff + 1) << 3);
}

/* The position of a state, its captured seeds all put in South's store. */
static void key_position(const Graph *g, uint32_t s, Position *p)
{
    const Variant *v = g->v;
    const uint8_t *key = g->keys + (uint64_t)s * (uint64_t)g->stride;
    memset(p, 0, sizeof *p);
    int left = 0;
    for (int i = 0; i < v->pits; i++) {
        p->pit[i] = g->width == 1 ? key[i] : (uint16_t)(key[2 * i] | key[2 * i + 1] << 8);
        left += p->pit[i];
    }
    uint8_t f = key[g->stride - 1];
    p->side = (int8_t)(f & 1);
    p->last_capturer = (int8_t)(((f >> 1) & 3) - 1);
    p->first_final = (int8_t)(((f >> 3) & 3) - 1);
    p->left = (uint16_t)left;
    p->store[SOUTH] = (uint16_t)(v->total - left);
    p->store[NORTH] = 0;
    pos_set_masks(v, p);
}

/* FNV-1a over a key, then a final mix. */
static uint64_t key_hash(const uint8_t *key, int n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (int i = 0; i < n; i++)
        h = (h ^ key[i]) * 0x100000001b3ULL;
    h ^= h >> 29;
    return h * 0xbf58476d1ce4e5b9ULL;
}

/* Double the hash table; false when out of memory. */
static bool table_grow(Graph *g)
{
    uint64_t size = (g->table_mask + 1) * 2;
    uint32_t *t = calloc(size, sizeof *t);
    if (!t)
        return false;
    for (uint32_t s = 0; s < g->n; s++) {
        uint64_t i = key_hash(g->keys + (uint64_t)s * (uint64_t)g->stride, g->stride) & (size - 1);
        while (t[i])
            i = (i + 1) & (size - 1);
        t[i] = s + 1;
    }
    free(g->table);
    g->table = t;
    g->table_mask = size - 1;
    return true;
}

/* Make room for one more state; false (status set) when the cap or memory runs out. */
static bool room_for_state(Graph *g)
{
    if (g->n >= g->max_states) {
        g->status = SOLVE_TOO_LARGE;
        return false;
    }
    if ((uint64_t)(g->n + 1) * 2 > g->table_mask + 1 && !table_grow(g)) {
        g->status = SOLVE_NO_MEMORY;
        return false;
    }
    if (g->n < g->cap)
        return true;
    uint32_t cap = g->cap ? g->cap * 2 : 1024;
    uint8_t *k = realloc(g->keys, (uint64_t)cap * (uint64_t)g->stride);
    if (k)
        g->keys = k;
    uint32_t *f = realloc(g->first, ((uint64_t)cap + 1) * sizeof *f);
    if (f)
        g->first = f;
    if (!k || !f) {
        g->status = SOLVE_NO_MEMORY;
        return false;
    }
    g->cap = cap;
    return true;
}

/* The state of p, added if new; -1 (status set) when it cannot be added. */
static int64_t state_of(Graph *g, const Position *p)
{
    uint8_t key[MAX_PITS * 2 + 1];
    make_key(g, p, key);
    uint64_t i = key_hash(key, g->stride) & g->table_mask;
    for (; g->table[i]; i = (i + 1) & g->table_mask) {
        uint32_t s = g->table[i] - 1;
        if (memcmp(g->keys + (uint64_t)s * (uint64_t)g->stride, key, (size_t)g->stride) == 0)
            return s;
    }
    if (!room_for_state(g))
        return -1;
    i = key_hash(key, g->stride) & g->table_mask;   /* the table may have grown */
    while (g->table[i])
        i = (i + 1) & g->table_mask;
    memcpy(g->keys + (uint64_t)g->n * (uint64_t)g->stride, key, (size_t)g->stride);
    g->table[i] = g->n + 1;
    return g->n++;
}

/* Append an edge; false (status set) when out of memory. */
static bool add_edge(Graph *g, Edge e)
{
    if (g->n_edges == g->edge_cap) {
        uint64_t cap = g->edge_cap ? g->edge_cap * 2 : 4096;
        Edge *n = realloc(g->edge, cap * sizeof *n);
        if (!n) {
            g->status = SOLVE_NO_MEMORY;
            return false;
        }
        g->edge = n;
        g->edge_cap = cap;
    }
    g->edge[g->n_edges++] = e;
    return true;
}

/* The edge of move `move` from p (side s to move): its kind, child and gain. */
static bool make_edge(Graph *g, const Position *p, int move, Edge *e)
{
    Position c;
    MoveInfo info;
    MoveEvent ev = pos_play(g->v, p, move, &c, &info, NULL);
    int s = p->side, before = p->store[s] - p->store[!s];
    e->child = -1;
    if (ev == EV_ENDLESS) {
        e->kind = EDGE_EXIT;
        e->gain = 0;
        return true;
    }
    int after = c.store[s] - c.store[!s];
    if (ev == EV_OVER) {
        e->kind = EDGE_EXIT;
        e->gain = (int16_t)(margin_final(g->v, &c) * (c.side == s ? 1 : -1) - before);
        return true;
    }
    e->kind = c.side == s ? EDGE_KEEP : EDGE_FLIP;
    e->gain = (int16_t)(after - before);
    if (g->tables && tables_covers(g->tables, &c)) {
        int r = tables_relative(g->tables, &c);
        e->gain = (int16_t)(e->gain + (e->kind == EDGE_KEEP ? r : -r));
        e->kind = EDGE_EXIT;
        return true;
    }
    int64_t child = state_of(g, &c);
    e->child = (int32_t)child;
    return child >= 0;
}

/* Step 1. Every state reachable from the root (state 0), breadth first, with its edges. */
static bool build_graph(Graph *g, const Position *root)
{
    if (state_of(g, root) < 0)
        return false;
    for (uint32_t s = 0; s < g->n; s++) {
        Position p;
        key_position(g, s, &p);
        g->first[s] = (uint32_t)g->n_edges;
        for (uint64_t m = pos_legal_mask(g->v, &p); m; m &= m - 1) {
            Edge e;
            if (!make_edge(g, &p, __builtin_ctzll(m), &e) || !add_edge(g, e))
                return false;
        }
        if (g->n_edges > UINT32_MAX / 2) {
            g->status = SOLVE_TOO_LARGE;
            return false;
        }
    }
    g->first[g->n] = (uint32_t)g->n_edges;
    return true;
}

/* What edge e is worth to the mover, with the values as they stand. */
static int32_t edge_value(const Graph *g, const Edge *e)
{
    if (e->kind == EDGE_EXIT)
        return e->gain;
    int32_t c = g->value[e->child];
    return e->gain + (e->kind == EDGE_KEEP ? c : -c);
}

/* The best edge of state s, with the values as they stand. */
static int32_t best_edge(const Graph *g, uint32_t s)
{
    int32_t best = INT32_MIN;
    for (uint32_t i = g->first[s]; i < g->first[s + 1]; i++) {
        int32_t x = edge_value(g, &g->edge[i]);
        if (x > best)
            best = x;
    }
    return best;
}

/* Solve one SCC (its successors solved): Jacobi rounds from 0 until one changes nothing. */
static void solve_component(Graph *g, const uint32_t *comp, uint32_t m, int32_t *next)
{
    for (uint32_t j = 0; j < m; j++)
        g->value[comp[j]] = 0;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t j = 0; j < m; j++)
            next[j] = best_edge(g, comp[j]);
        for (uint32_t j = 0; j < m; j++) {
            changed |= next[j] != g->value[comp[j]];
            g->value[comp[j]] = next[j];
        }
    }
}

/* Tarjan's work arrays. */
typedef struct Tarjan {
    int32_t *index, *low;    /* -1 before a visit */
    uint8_t *on_stack;
    uint32_t *stack, *call, *call_edge, *comp;
    int32_t *next;
    uint32_t sp, depth, counter;
} Tarjan;

/* Pop the SCC rooted at s off Tarjan's stack and solve it; returns its size. */
static uint32_t pop_component(Graph *g, Tarjan *t, uint32_t s)
{
    uint32_t m = 0, w;
    do {
        w = t->stack[--t->sp];
        t->on_stack[w] = 0;
        t->comp[m++] = w;
    } while (w != s);
    solve_component(g, t->comp, m, t->next);
    return m;
}

/* Visit s: number it and push it on both stacks. */
static void tarjan_enter(Tarjan *t, uint32_t s)
{
    t->index[s] = t->low[s] = (int32_t)t->counter++;
    t->stack[t->sp++] = s;
    t->on_stack[s] = 1;
    t->call[t->depth] = s;
    t->call_edge[t->depth++] = 0;
}

/* Step 2. Tarjan's algorithm without recursion, solving each SCC as it is emitted. */
static void solve_graph(Graph *g, Tarjan *t, SolveResult *r)
{
    tarjan_enter(t, 0);
    while (t->depth) {
        uint32_t s = t->call[t->depth - 1];
        uint32_t i = g->first[s] + t->call_edge[t->depth - 1];
        if (i < g->first[s + 1]) {
            t->call_edge[t->depth - 1]++;
            const Edge *e = &g->edge[i];
            if (e->kind == EDGE_EXIT)
                continue;
            uint32_t c = (uint32_t)e->child;
            if (t->index[c] < 0)
                tarjan_enter(t, c);
            else if (t->on_stack[c] && t->index[c] < t->low[s])
                t->low[s] = t->index[c];
            continue;
        }
        t->depth--;
        if (t->depth && t->low[s] < t->low[t->call[t->depth - 1]])
            t->low[t->call[t->depth - 1]] = t->low[s];
        if (t->low[s] == t->index[s]) {
            uint32_t m = pop_component(g, t, s);
            r->components++;
            if (m > r->largest_component)
                r->largest_component = m;
        }
    }
}

/* Allocate Tarjan's arrays for n states; false when out of memory. */
static bool tarjan_alloc(Tarjan *t, uint32_t n)
{
    memset(t, 0, sizeof *t);
    t->index = malloc(n * sizeof *t->index);
    t->low = malloc(n * sizeof *t->low);
    t->on_stack = calloc(n, 1);
    t->stack = malloc(n * sizeof *t->stack);
    t->call = malloc(n * sizeof *t->call);
    t->call_edge = malloc(n * sizeof *t->call_edge);
    t->comp = malloc(n * sizeof *t->comp);
    t->next = malloc(n * sizeof *t->next);
    if (!t->index || !t->low || !t->on_stack || !t->stack || !t->call || !t->call_edge
        || !t->comp || !t->next)
        return false;
    memset(t->index, 0xff, n * sizeof *t->index);
    return true;
}

/* Free Tarjan's arrays. */
static void tarjan_free(Tarjan *t)
{
    free(t->index);
    free(t->low);
    free(t->on_stack);
    free(t->stack);
    free(t->call);
    free(t->call_edge);
    free(t->comp);
    free(t->next);
}

/* Free the graph. */
static void graph_free(Graph *g)
{
    free(g->keys);
    free(g->first);
    free(g->edge);
    free(g->table);
    free(g->value);
}

/* Compare moves: higher value first, then lower hole. */
static int move_cmp(const void *a, const void *b)
{
    const SolveMove *x = a, *y = b;
    if (x->value != y->value)
        return x->value > y->value ? -1 : 1;
    return (x->move > y->move) - (x->move < y->move);
}

/* Step 3. The root's value and each of its moves, best first. */
static void root_moves(const Graph *g, const Position *p, SolveResult *r)
{
    int base = margin_stores(p);
    uint32_t i = g->first[0];
    r->n_moves = 0;
    for (uint64_t m = pos_legal_mask(g->v, p); m; m &= m - 1, i++) {
        Position c;
        MoveInfo info;
        SolveMove *sm = &r->moves[r->n_moves++];
        sm->move = __builtin_ctzll(m);
        sm->event = pos_play(g->v, p, sm->move, &c, &info, NULL);
        sm->value = base + edge_value(g, &g->edge[i]);
    }
    qsort(r->moves, (size_t)r->n_moves, sizeof r->moves[0], move_cmp);
    r->value = base + g->value[0];
}

/* Build and solve the graph of p (not over). */
static SolveStatus solve_graph_of(Graph *g, const Position *p, SolveResult *r)
{
    if (!table_grow(g))
        return SOLVE_NO_MEMORY;
    if (!build_graph(g, p))
        return g->status;
    r->states = g->n;
    r->edges = g->n_edges;
    g->value = malloc((uint64_t)g->n * sizeof *g->value);
    Tarjan t;
    memset(&t, 0, sizeof t);
    bool ok = g->value && tarjan_alloc(&t, g->n);
    if (ok) {
        solve_graph(g, &t, r);
        root_moves(g, p, r);
    }
    tarjan_free(&t);
    return ok ? SOLVE_OK : SOLVE_NO_MEMORY;
}

SolveStatus solver_solve(const Variant *v, const Position *p, uint64_t max_states,
                         SolveResult *r)
{
    return solver_solve_tables(v, p, max_states, NULL, r);
}

SolveStatus solver_solve_tables(const Variant *v, const Position *p, uint64_t max_states,
                                const Tables *tables, SolveResult *r)
{
    memset(r, 0, sizeof *r);
    if (pos_over(v, p)) {
        r->value = margin_final(v, p);
        return SOLVE_OK;
    }
    Graph g = { .v = v, .max_states = max_states ? max_states : 1, .tables = tables,
                .status = SOLVE_OK };
    g.width = v->total > 255 ? 2 : 1;
    g.stride = v->pits * g.width + 1;
    g.table_mask = 1023;   /* table_grow doubles it to 2048 slots */
    SolveStatus st = solve_graph_of(&g, p, r);
    graph_free(&g);
    return st;
}
