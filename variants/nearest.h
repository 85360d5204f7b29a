/* nearest.h: the "did you mean" hint of every message about an unknown name (an option, a
 * config key, an agent, an agent option, an openings kind, a variant preset): the known name
 * nearest to the one given, by edit distance, when it is near enough to be a slip. */
#ifndef ANYWOLI_NEAREST_H
#define ANYWOLI_NEAREST_H

#include <stddef.h>

/* The optimal-string-alignment (Damerau-Levenshtein) distance between a[0..na) and
 * b[0..nb): insertions, deletions, substitutions and swaps of two neighbours count 1. */
int nearest_distance(const char *a, size_t na, const char *b, size_t nb);

/* The search for the name nearest to word among the names considered. */
typedef struct Nearest {
    const char *word;   /* the name given */
    const char *best;   /* the nearest name so far (not NUL-terminated), or NULL */
    size_t best_len;
    int distance;       /* its distance from word */
} Nearest;

void nearest_start(Nearest *n, const char *word);

/* Consider name[0..len); the first of equally near names is kept. */
void nearest_consider(Nearest *n, const char *name, size_t len);

/* Consider each name of a list as messages write it: "a, b or c" (commas, "or"). */
void nearest_consider_list(Nearest *n, const char *list);

/* "; did you mean 'PREFIXNAME'?" into out when the nearest name is a likely slip (at most
 * 2 edits, and at most a third of the word's length, at least 1), else "". Returns out. */
const char *nearest_hint(const Nearest *n, const char *prefix, char *out, size_t size);

/* The hint for word among the names of list, in one call. */
const char *nearest_hint_in(const char *word, const char *list, char *out, size_t size);

#endif
