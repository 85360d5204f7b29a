/* book.c: a balanced book of openings (book.h): every all:N line valued by alpha-beta, the
 * near-even ones kept and written as a book file. */
#include <inttypes.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "book.h"

/* The plain weights at every depth (weights=plain): the lab's books were valued with them,
 * and a book must not change when alpha-beta's defaults do. */
int book_agent(Agent *a, const BookSettings *s, Error *e)
{
    char spec[128];
    snprintf(spec, sizeof spec, "alphabeta:depth=%d,nodes=%" PRId64 ",ties=first,weights=plain",
             s->depth, s->nodes);
    return agent_create(a, spec, e);
}

/* South's value of a final margin x that eval_final gives for `mover`. */
static int32_t south_of(int mover, int32_t x)
{
    return mover == SOUTH ? x : -x;
}

int32_t book_value(Agent *a, const Variant *v, const Position *p)
{
    Position cur = *p;
    uint8_t moves[MAX_PITS];
    /* Step 1. Forced moves: alphabeta does not search a root with one move (its value
     * would be 0), so play them and value what they lead to. */
    for (int forced = 0; pos_legal_moves(v, &cur, moves) == 1; forced++) {
        if (forced == BOOK_FORCED_MAX)
            return 0;
        Position next;
        MoveInfo info;
        MoveEvent ev = pos_play(v, &cur, moves[0], &next, &info, NULL);
        if (ev == EV_OVER || ev == EV_ENDLESS)
            return south_of(next.side, eval_final(v, &next, ev));
        cur = next;
    }
    /* Step 2. The search, from a reset searcher (ties=first draws nothing from the
     * stream, but choose takes one). */
    agent_new_game(a);
    Rng rng;
    rng_seed(&rng, 0, 0, 0);
    AgentStats st = { 0 };
    a->choose(a, v, &cur, &rng, &st);
    int32_t x = (int32_t)(st.value * BOOK_SCALE + (st.value < 0 ? -0.5 : 0.5));
    return cur.side == SOUTH ? x : -x;
}

/* Value every line into b->value: one searcher per thread, each line's value written only
 * to its own slot, so the array is the same for any thread count and schedule. */
static int value_lines(Book *b, const Variant *v, const BookSettings *s, Error *e)
{
    int threads = omp_get_max_threads();
    Agent *agents = calloc((size_t)threads, sizeof *agents);
    if (!agents)
        return error_set(e, "openings: out of memory");
    int made = 0;
    for (; made < threads; made++)
        if (book_agent(&agents[made], s, e) != 0)
            break;
    int status = made == threads ? 0 : -1;
    if (status == 0) {
        const int64_t n = b->lines.count;
        #pragma omp parallel for schedule(dynamic, 4) num_threads(threads)
        for (int64_t i = 0; i < n; i++) {
            Position p;
            opening_position(v, &b->lines.list[i], &p);
            b->value[i] = book_value(&agents[omp_get_thread_num()], v, &p);
        }
    }
    for (int i = 0; i < made; i++)
        agent_free(&agents[i]);
    free(agents);
    return status;
}

/* One candidate for --max: a line within the window and how far its value is from 0. */
typedef struct Candidate {
    int64_t line;
    int32_t distance;
} Candidate;

/* Closest to 0 first, then in list order: a total order, so qsort's result is unique. */
static int candidate_cmp(const void *pa, const void *pb)
{
    const Candidate *a = pa, *b = pb;
    if (a->distance != b->distance)
        return a->distance < b->distance ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;
}

/* Keep the lines within the window, then, with s->max, only the max closest to 0. */
static int select_lines(Book *b, const BookSettings *s, Error *e)
{
    const int64_t n = b->lines.count;
    Candidate *c = malloc((size_t)n * sizeof *c);
    if (!c)
        return error_set(e, "openings: out of memory");
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++) {
        int32_t d = b->value[i] < 0 ? -b->value[i] : b->value[i];
        if (d <= s->window)
            c[m++] = (Candidate){ i, d };
    }
    b->in_window = m;
    if (m == 0) {   /* a book must hold one opening (openings_load refuses an empty one) */
        int32_t nearest = INT32_MAX;
        for (int64_t i = 0; i < n; i++)
            if ((b->value[i] < 0 ? -b->value[i] : b->value[i]) < nearest)
                nearest = b->value[i] < 0 ? -b->value[i] : b->value[i];
        free(c);
        return error_set(e, "--window %d.%02d: no line of %" PRId64 " is within it (the "
                         "nearest is %d.%02d seeds from 0)", (int)(s->window / BOOK_SCALE),
                         (int)(s->window % BOOK_SCALE), n, nearest / BOOK_SCALE,
                         nearest % BOOK_SCALE);
    }
    if (s->max > 0 && m > s->max) {
        qsort(c, (size_t)m, sizeof *c, candidate_cmp);
        m = s->max;
    }
    for (int64_t k = 0; k < m; k++)
        b->kept[c[k].line] = true;
    b->kept_count = m;
    free(c);
    return 0;
}

int book_make(Book *b, const Variant *v, const BookSettings *s, Error *e)
{
    memset(b, 0, sizeof *b);
    char spec[32];
    snprintf(spec, sizeof spec, "all:%d", s->plies);
    if (openings_load(&b->lines, spec, v, e) != 0)
        return -1;
    b->value = calloc((size_t)b->lines.count, sizeof *b->value);
    b->kept = calloc((size_t)b->lines.count, sizeof *b->kept);
    if (!b->value || !b->kept) {
        book_free(b);
        return error_set(e, "openings: out of memory");
    }
    if (value_lines(b, v, s, e) != 0 || select_lines(b, s, e) != 0) {
        book_free(b);
        return -1;
    }
    return 0;
}

/* A value in seeds with its sign ("+1.25", "-0.50", "+0.00"). */
static void value_text(int32_t x, char *buf, size_t len)
{
    int32_t a = x < 0 ? -x : x;
    snprintf(buf, len, "%c%d.%02d", x < 0 ? '-' : '+', a / BOOK_SCALE, a % BOOK_SCALE);
}

/* The header: how the book was made, so that a book file says what it is. */
static void write_header(const Book *b, const Variant *v, const BookSettings *s,
                         const char *command_line, FILE *f)
{
    char desc[256], w[32];
    variant_describe(v, desc, sizeof desc);
    value_text((int32_t)s->window, w, sizeof w);
    fprintf(f, "# anywoli openings: a balanced book\n");
    fprintf(f, "# command: %s\n", command_line);
    fprintf(f, "# variant: %s\n", desc);
    fprintf(f, "# lines: every line of %d plies from the start that does not end the game "
               "(all:%d), %" PRId64 " in all\n", s->plies, s->plies, b->lines.count);
    if (s->nodes)
        fprintf(f, "# value: alphabeta, at most %" PRId64 " nodes (depth at most %d), "
                   "ties=first, weights=plain\n", s->nodes, s->depth);
    else
        fprintf(f, "# value: alphabeta, depth %d, ties=first, weights=plain\n", s->depth);
    fprintf(f, "# value of a line: seeds ahead for South (the first player) in the position "
               "it leads to; forced moves played first\n");
    fprintf(f, "# window: |value| <= %s seeds: %" PRId64 " of %" PRId64 " lines\n", w + 1,
            b->in_window, b->lines.count);
    if (s->max > 0)
        fprintf(f, "# max: at most %" PRId64 " lines, the closest to 0 (ties by list order)\n",
                s->max);
    fprintf(f, "# kept: %" PRId64 " of %" PRId64 " lines, in list order\n", b->kept_count,
            b->lines.count);
}

int book_write(const Book *b, const Variant *v, const BookSettings *s,
               const char *command_line, FILE *f, Error *e)
{
    write_header(b, v, s, command_line, f);
    for (int64_t i = 0; i < b->lines.count; i++) {
        if (!b->kept[i])
            continue;
        char moves[OPENING_MAX_PLIES * 4 + 1], val[32];
        opening_moves_text(&b->lines.list[i], moves, sizeof moves);
        value_text(b->value[i], val, sizeof val);
        fprintf(f, "%s  # %s\n", moves, val);
    }
    if (fflush(f) != 0 || ferror(f))
        return error_set(e, "openings: cannot write the book");
    return 0;
}

void book_free(Book *b)
{
    openings_free(&b->lines);
    free(b->value);
    free(b->kept);
    memset(b, 0, sizeof *b);
}
