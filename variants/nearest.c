/* nearest.c: edit distance and the "did you mean" hint built on it. */
#include "nearest.h"

#include <stdio.h>
#include <string.h>

/* Names longer than this are never typed by hand; they get no hint. */
#define NEAREST_MAX_LEN 63

int nearest_distance(const char *a, size_t na, const char *b, size_t nb)
{
    /* Three rows of the dynamic programme suffice: the swap looks two rows back. */
    int rows[3][NEAREST_MAX_LEN + 2];
    if (na > NEAREST_MAX_LEN || nb > NEAREST_MAX_LEN)
        return (int)(na > nb ? na : nb);
    int *before = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= nb; j++)
        prev[j] = (int)j;
    for (size_t i = 1; i <= na; i++) {
        cur[0] = (int)i;
        for (size_t j = 1; j <= nb; j++) {
            int cost = a[i - 1] != b[j - 1];
            int d = prev[j - 1] + cost;
            if (prev[j] + 1 < d)
                d = prev[j] + 1;
            if (cur[j - 1] + 1 < d)
                d = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]
                && before[j - 2] + 1 < d)
                d = before[j - 2] + 1;
            cur[j] = d;
        }
        int *t = before;
        before = prev;
        prev = cur;
        cur = t;
    }
    return prev[nb];
}

void nearest_start(Nearest *n, const char *word)
{
    n->word = word;
    n->best = NULL;
    n->best_len = 0;
    n->distance = 0;
}

void nearest_consider(Nearest *n, const char *name, size_t len)
{
    int d = nearest_distance(n->word, strlen(n->word), name, len);
    if (!n->best || d < n->distance) {
        n->best = name;
        n->best_len = len;
        n->distance = d;
    }
}

void nearest_consider_list(Nearest *n, const char *list)
{
    const char *p = list;
    while (*p) {
        size_t len = strcspn(p, ", ");
        if (len > 0 && !(len == 2 && strncmp(p, "or", 2) == 0))
            nearest_consider(n, p, len);
        p += len;
        p += strspn(p, ", ");
    }
}

const char *nearest_hint(const Nearest *n, const char *prefix, char *out, size_t size)
{
    /* A slip changes a letter or two; beyond a third of the word it is another word, and
     * a word of one or two letters is near too many names to guess. */
    int len = (int)strlen(n->word);
    int limit = len < 3 ? 0 : len / 3 < 1 ? 1 : len / 3 > 2 ? 2 : len / 3;
    if (n->best && n->distance > 0 && n->distance <= limit)
        snprintf(out, size, "; did you mean '%s%.*s'?", prefix, (int)n->best_len, n->best);
    else if (size > 0)
        out[0] = '\0';
    return out;
}

const char *nearest_hint_in(const char *word, const char *list, char *out, size_t size)
{
    Nearest n;
    nearest_start(&n, word);
    nearest_consider_list(&n, list);
    return nearest_hint(&n, "", out, size);
}
