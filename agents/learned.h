/* learned.h: the learned evaluation: the features of learn_features.h weighed by a set of weights
 * fitted to deep-search and endgame-table values (`anywoli learn fit`), in fixed point, for
 * the side to move, in EVAL_SCALE units.
 *
 * The value of a position is its store difference (weight 1, exact) plus the weighted
 * features, which estimate the margin the side to move will gain from here on. A set of
 * weights is named and made for one layout (a board's holes and capture); the lab's set,
 * `learned`, ships compiled in (learned_weights.c, written by `anywoli learn fit --c-out`),
 * and a weights file (docs/learned.md) can be loaded instead.
 *
 * For a search agent:
 *     Learned *L;
 *     if (learned_prepare(learned_builtin("learned"), v, &L, &e) != 0) ... (e.msg)
 *     int32_t x = learned_eval(L, v, p);    (p not over: as eval_position)
 *     learned_free(L);
 * learned_eval is a pure function of (weights, variant, position) in integers: searches
 * that use it stay exact and deterministic. */
#ifndef ANYWOLI_LEARNED_H
#define ANYWOLI_LEARNED_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "learn_features.h"
#include "position.h"
#include "variant.h"

/* A set of weights: for each named feature, its weight at each knot in seeds per unit. */
typedef struct LearnedSet {
    const char *name;                 /* "learned" */
    int holes, capture;               /* the board whose layout the names are of */
    int n;                            /* features given (absent ones weigh 0) */
    const char *const *feature;       /* their names (features_name's) */
    const double *w;                  /* n x FEATURE_KNOTS, row by row */
    const char *about;                /* one line: how they were fitted */
    const char *variant;              /* the rules of play it was fitted for (a fitted-on-
                                       * first-use set's, variant_describe_without's text
                                       * of them), or NULL: a set for a layout (holes,
                                       * capture) whatever its other rules */
} LearnedSet;

/* The compiled-in sets (learned_weights.c), and the one of a name, or NULL. */
extern const LearnedSet *const learned_builtin_sets[];
const LearnedSet *learned_builtin(const char *name);

/* Weights in fixed point for one board, ready for search. */
typedef struct Learned Learned;

/* Prepare set s for v's board: -1 with a one-line message when the set is for another
 * layout (holes, capture) or names a feature that layout lacks. *out is freed by
 * learned_free. */
int learned_prepare(const LearnedSet *s, const Variant *v, Learned **out, Error *e);
void learned_free(Learned *L);

/* The set a prepared evaluation was made from. */
const LearnedSet *learned_set_of(const Learned *L);

/* Whether L was prepared for v's board (its layout: holes, capture and total seeds). */
int learned_fits(const Learned *L, const Variant *v);

/* An agent's check of its set (or NULL: none) against v's board: 0, or -1 with a one-line
 * message naming the agent when the set's holes or capture are not the board's. */
int learned_check_board(const LearnedSet *s, const char *agent, const Variant *v, Error *e);

/* The value of p (not over, prepared for its board) for its side to move, in EVAL_SCALE
 * units: the store difference and the weighted features, interpolated between the knots
 * around its phase, truncated towards zero. */
int32_t learned_eval(const Learned *L, const Variant *v, const Position *p);

/* The positional part alone (learned_eval less the store difference), in EVAL_SCALE units. */
int32_t learned_positional(const Learned *L, const Variant *v, const Position *p);

/* The same from p's features already computed (f: features_of over a layout of L's board
 * whose groups include learned_groups(L)), for an evaluation that reads them for more than
 * the set (the network's dense inputs). */
int32_t learned_positional_of(const Learned *L, const Position *p, const FeatureList *f);

/* The feature groups L's weights use (FeatureLayout.groups' bits): those its value needs. */
unsigned learned_groups(const Learned *L);

/* Read a weights file (docs/learned.md) into a new set: -1 with "PATH:LINE: ..." on any
 * fault. learned_set_free frees it. */
int learned_set_load(const char *path, LearnedSet **out, Error *e);

/* The checksum of a weights file's content (FNV-1a, 64 bits, of the n bytes of text): what
 * its end line holds. */
uint64_t learned_text_checksum(const char *text, size_t n);

/* The checksum on the end line of the weights file at path, checked against its content:
 * the file's content hash (an agent's learned= option's AgentOption.digest). -1 with a
 * one-line message naming the file when it has no end line or the checksum is wrong. */
int learned_file_digest(const char *path, uint64_t *out, Error *e);
void learned_set_free(LearnedSet *s);

/* A set's identity: the checksum its weights file (learned_set_write's) would hold on its
 * end line, for a compiled-in set too (a network trained over it names it). */
uint64_t learned_set_digest(const LearnedSet *s);

/* Make a set (every name and weight copied) of the features of layout l with weights w
 * (l->n x FEATURE_KNOTS, seeds per unit); features whose weights are all 0 are left out. */
LearnedSet *learned_set_make(const char *name, const FeatureLayout *l, const double *w,
                             const char *about);

/* Note the rules of play a set made by learned_set_make was fitted for (LearnedSet.variant):
 * -1 when out of memory. */
int learned_set_note_variant(LearnedSet *s, const char *variant);

/* Write s as a weights file, or as the C source of the compiled-in sets with s the only one
 * (learned_weights.c); -1 with a message when the write fails. */
int learned_set_write(const LearnedSet *s, FILE *f, Error *e);
int learned_set_write_c(const LearnedSet *s, FILE *f, Error *e);

/* ---- Weights fitted on first use: learned=auto (learned_auto.c) ----
 *
 * A board the compiled-in set was not fitted for gets a set fitted for its rules of play on
 * first use, kept in the cache folder (anywoli_cache_folder: $ANYWOLI_CACHE, ...) as a
 * weights file named by a hash of the rules, the fit's inputs and FEATURES_VERSION, and
 * read from there afterwards. The fit itself (self-play, labels, ridge regression) is the
 * engine room's (sim/learn_auto.c), which installs it: agents/ only keeps its files. */

/* The fit of a set for v's rules of play: 0 and a new set (learned_set_make's) in *out, or
 * -1 with a one-line message. A pure function of v: the same weights for any thread
 * count. */
typedef int (*LearnedFitter)(const Variant *v, LearnedSet **out, Error *e);

/* Install the fitter and the text of its fixed inputs (part of the cache file's name, so
 * that a fit of other inputs is another file). A program without one refuses learned=auto
 * with a message. */
void learned_auto_install(LearnedFitter fit, const char *inputs);

/* The cache file of v's fitted set (its folder created); -1 with a message. */
int learned_auto_path(const Variant *v, char *buf, size_t len, Error *e);

/* The set fitted for v's rules of play: read from its cache file, or fitted, written there
 * and then read (one line on standard error: the board and how long the fit took). Kept for
 * the process (threads share it; *out is never freed by the caller); its content hash (the
 * file's end-line checksum, as learned=FILE's digest) into *digest if not NULL. -1 with a
 * one-line message: no fitter, the fit failed, or the file is damaged or another variant's
 * (with advice to remove it). Two processes fitting the same file at once: one fits, under
 * a lock beside the file, and the other waits and reads its file. */
int learned_auto_acquire(const Variant *v, const LearnedSet **out, uint64_t *digest, Error *e);


/* Whether the compiled-in set serves v's board (its holes and capture are the set's). */
bool learned_builtin_fits(const Variant *v);

/* The set an agent's weights=learned plays on v: `file`'s (learned=FILE) if not NULL; else
 * the compiled-in set where it fits v's board, unless `fit` (learned=auto); else the set
 * fitted for v (learned_auto_acquire), or none (NULL, which plays nothing) when it is not
 * cached and builds are deferred (agents_defer_builds: a dry run). -1 with a one-line
 * message naming the agent. */
int learned_choose(const LearnedSet *file, bool fit, const char *agent, const Variant *v,
                   const LearnedSet **out, Error *e);

/* The content hash of the fitted set learned_choose gives for v when neither a file nor
 * the compiled-in set is chosen, else 0: what an experiment's fingerprint holds (the set
 * fitted, if not yet cached; 0 when builds are deferred and it is not). -1 with a one-line
 * message. */
int learned_choice_digest(bool fit, const Variant *v, uint64_t *out, Error *e);

/* The learned= option's AgentOption.digest: 0 for auto (learned_choice_digest covers it),
 * else learned_file_digest's. */
int learned_option_digest(const char *value, uint64_t *out, Error *e);

/* The learned= option's value that asks for the set fitted on first use. */
#define LEARNED_AUTO_WORD "auto"

#endif
