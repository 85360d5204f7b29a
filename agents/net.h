/* net.h: the network evaluation (weights=net): a small network over the holes of both rows,
 * trained with PyTorch on deep-search values (scripts/net_train.py, docs/learned.md) and run
 * here in integers, its first layer's sums kept per position and updated for the holes a move
 * changed.
 *
 * What it computes. For a perspective q (South or North), the inputs are one-hot:
 *   hole r of the 2H holes seen from q (r < H: q's row, hole r from q's left, in sowing
 *   order; r >= H: the other row's hole r - H from its owner's left) holding c >= 1 seeds:
 *       input r * B + min(c, B) - 1        (B = the file's buckets; an empty hole: none)
 *   then NET_EXTRA inputs from 2HB on:
 *       +0 the convention is penultimate, +1 first-final, +2 the lottery (one of the three)
 *       +3 q stands to receive the seeds left if the game ended now (eval_final_recipient)
 *       +4 the other side does
 *       +5 first-final and nobody has made a final-seed capture yet
 * The first layer (H1 units, its weights shared by both perspectives) gives for each q
 *   a_q = b1 + the sum of W1's rows of q's active inputs        (the accumulator)
 * A network of version 3 has D dense inputs too: learned features (learn_features.h, by
 * name: me.gain, op.lap.final, seeds ...) of the position seen from its side to move s, each
 * its whole-number value x_d, weighed into the mover's sums only (they are the mover's view:
 * me and op):
 *   d_s = b1d + sum over d of x_d W1d's row d                      (computed at each eval)
 * and for the side to move s, with crelu(x) = min(max(x, 0), 1):
 *   h1 = crelu(a_s + d_s) followed by crelu(a_{not s})            (2 x H1 values)
 *   h2 = crelu(W2 h1 + b2)                                         (H2 units)
 *   y  = w3 . h2 + b3                                              (seeds)
 * y estimates what the mover will gain from here on (the label less the store difference, as
 * learned_positional), so the value is the store difference plus y; a network with a base
 * (version 2's base line) is trained on what the compiled-in learned set leaves, and its
 * value is the store difference plus learned_positional plus y.
 *
 * In integers (net_prepare quantises the file's floats): W1 and b1 times NET_QA (int16), so
 * the accumulator is in NET_QA units (int16: a network whose sums could leave it is refused)
 * and crelu clamps it to [0, NET_QA]; W1d and b1d times NET_QA x NET_QD (int32: a feature's
 * value, seeds up to 96 say, would magnify the rounding of a weight in NET_QA units), d_s
 * brought to NET_QA units (rounded, halves up) before it is added; W2 times NET_QB
 * (int16) and b2 times NET_QA x NET_QB, h2 = clamp(W2 h1 + b2, 0, NET_QA x NET_QB) (kept in
 * those units: a trained network weighs each unit of h2 by tens of seeds); w3 times NET_QO
 * and b3 times NET_QA x NET_QO, the output (in 64 bits) in NET_QA x NET_QB x NET_QO units of
 * a seed, converted to EVAL_SCALE units truncated towards zero. Pure integers: a search with
 * it stays exact and deterministic on any machine.
 *
 * How far the integers are from the floats (tests/test_net.c, over the positions of random
 * games, |net_positional less its base - EVAL_SCALE x net_positional_float|): at worst 1.32
 * seeds on the compiled-in (trained) network, whose outputs there spread over 46 seeds (held
 * to 1.5; 1.02 on the third generation, 1.36 over 65 seeds on the first network trained,
 * without a base), 0.64 on small pseudo-random weights spread over 20 seeds (held to 1), 2.4
 * on weights twice those (41 seeds; held to 3) and 0.50 on pseudo-random weights with 27
 * dense inputs (17 seeds; held to 1). The error grows with the weights (the first layer's
 * rounding to 1/NET_QA, summed over some 30 rows and carried through the second layer and
 * the output), and random games reach positions no training game does: on the positions of
 * the training data the integers' root mean square error is within 0.004 seeds of the
 * floats' (0.003 on the held-out games; `anywoli learn net-error` prints net_int beside
 * net_float).
 *
 * The file (text, every line required, in this order; numbers as C's strtod reads them):
 *     anywoli-net 1                  (2 for a network with a base line, 3 with dense
 *                                    inputs)
 *     name NAME
 *     about ONE LINE
 *     holes H
 *     capture C
 *     buckets B
 *     hidden H1 H2
 *     base learned XXXXXXXXXXXXXXXX  versions 2 and 3 (or "base none"): the output is
 *                                    added to the compiled-in learned set's positional
 *                                    value, the set of that learned_set_digest (another
 *                                    refused)
 *     dense D                        version 3 only: 1 <= D <= NET_MAX_DENSE
 *     l1 I w_0 ... w_{H1-1}          one line for each input I = 0 .. 2HB + NET_EXTRA - 1,
 *                                    in order: W1's row of input I
 *     l1.bias b_0 ... b_{H1-1}
 *     l1d NAME w_0 ... w_{H1-1}      version 3: D lines, W1d's row of the feature NAME (a
 *                                    name of learn_features.h's on the network's board,
 *                                    each once; checked by net_prepare)
 *     l1d.bias b_0 ... b_{H1-1}      version 3: b1d
 *     l2 J w_0 ... w_{2 H1 - 1}      one line for each unit J = 0 .. H2 - 1: its weights
 *                                    from h1 (the mover's half first)
 *     l2.bias b_0 ... b_{H2-1}
 *     out w_0 ... w_{H2-1}
 *     out.bias b
 *     end XXXXXXXXXXXXXXXX           FNV-1a (64 bits) of every byte before this line, as
 *                                    learned_text_checksum: the file's content hash
 * Limits: 2 <= H <= MAX_HOLES, 1 <= B <= NET_MAX_BUCKETS, 1 <= H1 <= NET_MAX_H1,
 * 1 <= H2 <= NET_MAX_H2, every quantised weight within int16 (W1d and b1d: within
 * NET_MAX_BIAS); net_prepare also refuses a network whose first-layer sums could leave int16
 * (a unit's |bias| plus, per hole, its largest |bucket weight| plus every extra input's
 * |weight|, quantised, beyond INT16_MAX), or whose dense sums could leave int32 (a unit's
 * |b1d| plus each |W1d| times the largest value a feature takes on the board).
 *
 * For a search agent:
 *     NetFile *f;  Net *n;
 *     net_file_load(path, &f, &e)  or  f = net_builtin()  (the compiled-in default)
 *     net_prepare(f, v, &n, &e);              (refuses another layout: holes, capture)
 *     NetAcc a;  net_acc_full(n, v, p, &a);
 *     net_acc_update(n, v, p, &a, c, &ca);    (c: a position reached from p by one move)
 *     int32_t x = net_eval(n, v, c, &ca);     (c not over: as learned_eval)
 *     net_free(n); net_file_free(f);          (the built-in is never freed) */
#ifndef ANYWOLI_NET_H
#define ANYWOLI_NET_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "position.h"
#include "variant.h"

#define NET_FORMAT_VERSION 3
#define NET_EXTRA 6
#define NET_MAX_DENSE 64
#define NET_MAX_BUCKETS 64
#define NET_MAX_H1 256
#define NET_MAX_H2 64

#define NET_QA 127
#define NET_QB_SHIFT 6
#define NET_QB (1 << NET_QB_SHIFT)
#define NET_QO 64
#define NET_QD_SHIFT 6
#define NET_QD (1 << NET_QD_SHIFT)

/* A network as its file gives it, in floats (the reference the integers are checked
 * against). */
typedef struct NetFile {
    char name[64];
    char about[512];
    int holes, capture, buckets, h1, h2;
    int inputs;          /* 2 x holes x buckets + NET_EXTRA */
    float *w1;           /* inputs x h1, row by row (input i's row at i * h1) */
    float *b1;           /* h1 */
    float *w2;           /* h2 x 2 h1, row by row */
    float *b2;           /* h2 */
    float *w3;           /* h2 */
    float b3;
    bool base_learned;   /* the output is added to the compiled-in learned set's positional
                          * value (version 2's "base learned HEX"): the network learns what
                          * the linear set leaves */
    uint64_t base_digest;/* that set's learned_set_digest */
    int dense;           /* dense inputs (version 3), 0 .. NET_MAX_DENSE */
    char (*dense_name)[32]; /* their features' names (dense of them) */
    float *w1d;          /* dense x h1, row by row */
    float *b1d;          /* h1 (all 0 without dense inputs) */
    uint64_t digest;     /* the end line's checksum: the file's content hash */
} NetFile;

/* Read a network file: -1 with one line "PATH:LINE: what was expected" on any fault (not a
 * network, a line out of order, a count or number wrong, the checksum wrong). */
int net_file_load(const char *path, NetFile **out, Error *e);

/* The same from text in memory (named `name` in messages). */
int net_file_parse(const char *text, size_t n, const char *name, NetFile **out, Error *e);
void net_file_free(NetFile *f);

/* A network of that shape (dense: its dense inputs, 0 for none), its weights all 0, its
 * dense names, name and about empty and digest 0 (for a writer filling it in, such as a
 * test): NULL when out of memory. */
NetFile *net_file_new(int holes, int capture, int buckets, int h1, int h2, int dense);

/* Write f as a network file (its end line computed): -1 with a message when the write
 * fails. */
int net_file_write(const NetFile *f, FILE *out, Error *e);

/* The compiled-in network (the standard board's: 12 holes, capture 4), parsed once. */
const NetFile *net_builtin(void);

/* For AgentKind.variant_digest: with no net= file (path ""), the compiled-in network's content
 * hash into *out under the key "net" (*key), as a net=FILE's goes in by the option's digest, so
 * that a run's fingerprint and results file tell the networks of two builds apart; with a
 * file, nothing (*out 0). Returns 0. */
int net_builtin_digest(const char *path, uint64_t *out, const char **key);

/* The content hash of the network file at path (its checked end line): an agent's net=
 * option's AgentOption.digest. -1 with a one-line message naming the file. */
int net_file_digest(const char *path, uint64_t *out, Error *e);

/* A network quantised for search on one layout. */
typedef struct Net Net;

/* Quantise f for v's board (and prepare its base, the compiled-in learned set, for a network
 * with one): -1 with a one-line message when f is for another layout (holes, capture), a
 * weight does not fit in int16 once scaled, or f was trained over another learned set than
 * the compiled-in one (its digest). *out is freed by net_free. */
int net_prepare(const NetFile *f, const Variant *v, Net **out, Error *e);
void net_free(Net *n);
const NetFile *net_file_of(const Net *n);

/* ---- An agent's network (weights=net, net=FILE), for alphabeta, strong and mcts alike ---- */

/* The network an agent's options choose: with weights=net (`chosen`), the file `path` read
 * into *out, or *out NULL for the compiled-in one when path is ""; without it, nothing, and
 * net= given is refused. -1 with a one-line message naming the agent. */
int net_option_load(bool chosen, const char *path, const char *agent, NetFile **out,
                    Error *e);

/* *net: `file` (NULL: the compiled-in network) quantised for v, prepared again only when v's
 * rules of play are not *prepared_for's (then updated). -1 with a message naming the agent
 * in *e (if not NULL) when the network is for another board (never fitted on first use). */
int net_prepare_for(const NetFile *file, const Variant *v, const char *agent, Net **net,
                    Variant *prepared_for, Error *e);

/* The first layer's sums of a position, for both perspectives (a[SOUTH], a[NORTH]), in
 * NET_QA units: entries 0 .. h1 - 1 (those past the network's h1 are scratch; compare the
 * first h1). In 16 bits: net_prepare refuses a network whose sums could leave int16, so that
 * a move's update is half the work and half the memory of 32-bit sums. */
typedef struct NetAcc {
    int16_t a[2][NET_MAX_H1] __attribute__((aligned(32)));
} NetAcc;

/* The sums of p computed from its inputs. */
void net_acc_full(const Net *n, const Variant *v, const Position *p, NetAcc *out);

/* The sums of c, a position reached from p by one move (or any position of the same game),
 * from p's: only the inputs that differ are taken away and added (the holes whose count
 * changed, the receiving side, first-final's open flag), or c's computed afresh where that is
 * cheaper (a move that changed most of the board). Equal to net_acc_full(c) whatever p.
 * Returns whether it computed them afresh (for tests and measurements; a search ignores it). */
bool net_acc_update(const Net *n, const Variant *v, const Position *p, const NetAcc *pa,
                    const Position *c, NetAcc *out);

/* The value of p (not over) for its side to move, in EVAL_SCALE units, from its sums: the
 * store difference plus the network's output (plus the base set's positional value, for a
 * network with a base). */
int32_t net_eval(const Net *n, const Variant *v, const Position *p, const NetAcc *a);

/* net_eval less the store difference, in EVAL_SCALE units. */
int32_t net_positional(const Net *n, const Variant *v, const Position *p, const NetAcc *a);

/* The base's part of net_positional: the learned set's learned_positional for a network
 * with a base, else 0. net_positional less it is the network's own output, which
 * net_positional_float is the float reference of. */
int32_t net_base_value(const Net *n, const Variant *v, const Position *p);

/* The dense inputs' values at p for its side to move, into x (f->dense of them, in the
 * file's order), as net_positional reads them. */
void net_dense_values(const NetFile *f, const Variant *v, const Position *p, int *x);

/* The float network's output for p (the file's weights, no quantisation; without the base),
 * in seeds: the reference the tests hold net_positional less net_base_value to, and what
 * training computes. */
double net_positional_float(const NetFile *f, const Variant *v, const Position *p);

/* The inputs active for perspective q at p, into idx (at most 2 x holes + NET_EXTRA): their
 * count. The one definition of the encoding (the float reference and the sums use it). */
int net_inputs(const NetFile *f, const Variant *v, const Position *p, int q, int *idx);

#endif
