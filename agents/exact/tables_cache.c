/* tables_cache.c: the process-wide cache of opened tables files, behind tables_acquire and
 * tables_release. It is the one piece of the tables with state of its own (a list guarded by
 * an OpenMP critical section), so it is apart from the files that only compute: each file is
 * mapped and checked once however many agents, in however many threads, use it. An agent's
 * `tables=` option goes through it too (tables_acquire_option, tables_check_option), so that
 * alpha-beta and MCTS open and check their tables, and word the errors, the same way. It
 * also keeps the tables an agent's `tables=auto` builds on demand, in the user's cache
 * folder (tables_acquire_auto). */
#include "tables_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "door.h"
#include "rng.h"

/* ---- Sharing ---- */

/* Tables opened by path: each file is mapped and checked once, however many agents (in
 * however many threads) use it. */
typedef struct Shared {
    char *path;
    Tables *t;
    int users;
    struct Shared *next;
} Shared;

static Shared *shared;

int tables_acquire(const char *path, const Tables **out, Error *e)
{
    int rc = 0;
    #pragma omp critical(anywoli_tables)
    {
        Shared *s = shared;
        while (s && strcmp(s->path, path) != 0)
            s = s->next;
        if (!s) {
            Tables *t;
            s = calloc(1, sizeof *s);
            if (!s || !(s->path = strdup(path))) {
                rc = error_set(e, "out of memory");
            } else if ((rc = tables_open(path, &t, e)) == 0) {
                s->t = t;
                s->next = shared;
                shared = s;
            }
            if (rc != 0) {
                if (s)
                    free(s->path);
                free(s);
                s = NULL;
            }
        }
        if (s) {
            s->users++;
            *out = s->t;
        }
    }
    return rc;
}

void tables_release(const Tables *t)
{
    if (!t)
        return;
    #pragma omp critical(anywoli_tables)
    {
        for (Shared **at = &shared; *at; at = &(*at)->next) {
            Shared *s = *at;
            if (s->t == t) {
                if (--s->users == 0) {
                    *at = s->next;
                    tables_free(s->t);
                    free(s->path);
                    free(s);
                }
                break;
            }
        }
    }
}

int tables_acquire_option(const char *agent, const char *path, const Tables **out, Error *e)
{
    *out = NULL;
    Error inner;
    if (path[0] && tables_acquire(path, out, &inner) != 0)
        return error_set(e, "agent '%s': tables=%s", agent, inner.msg);
    return 0;
}

bool tables_note_option(const char *agent, const Tables *t, const char *path,
                        const Variant *v, const Position *p, char *buf, size_t size)
{
    int missing = t && tables_match(t, v) && !pos_over(v, p) ? tables_missing_level(t, p) : 0;
    if (!missing)
        return false;
    char levels[256];
    tables_describe_levels(t, levels, sizeof levels);
    snprintf(buf, size, "agent '%s': tables=%s do not hold level %d, which this position "
             "reaches (they hold levels %s): positions there are searched without them",
             agent, path, missing, levels);
    return true;
}

int tables_check_option(const char *agent, const Tables *t, const char *path, const Variant *v,
                        Error *e)
{
    if (!t || tables_match(t, v))
        return 0;
    Error inner;
    tables_check_variant(t, v, path, &inner);
    return error_set(e, "agent '%s': tables=%s", agent, inner.msg);
}

/* ---- Tables built on demand: an agent's `tables=auto` ---- */

/* The most placements of a level that tables=auto builds: more would not build unnoticed.
 * The standard board's level 8 has 7.9 million (about 10 s on a core). */
#define TABLES_AUTO_PLACEMENTS 2e7

/* The placements of `seeds` seeds into n holes: C(seeds + n - 1, n - 1), in doubles (only
 * compared with a bound). */
static double placements(int seeds, int n)
{
    double c = 1;
    for (int i = 1; i <= seeds; i++)
        c = c * (n - 1 + i) / i;
    return c;
}

int tables_auto_seeds(const Variant *v)
{
    int k = 0;
    for (int l = v->capture + 1; l <= TABLES_AUTO_SEEDS; l++)
        if (tables_level_reachable(v, l) && placements(l, 2 * v->holes) <= TABLES_AUTO_PLACEMENTS)
            k = l;
    return k;
}

int anywoli_cache_folder(char *buf, size_t len, Error *e)
{
    const char *own = getenv("ANYWOLI_CACHE"), *xdg = getenv("XDG_CACHE_HOME"),
               *home = getenv("HOME");
    if (own && own[0])
        snprintf(buf, len, "%s", own);
    else if (xdg && xdg[0])
        snprintf(buf, len, "%s/anywoli", xdg);
    else if (home && home[0])
        snprintf(buf, len, "%s/.cache/anywoli", home);
    else
        return error_set(e, "no folder for them: set ANYWOLI_CACHE (or HOME)");
    for (char *p = buf + 1;; p++) {
        char c = *p;
        if (c != '/' && c != '\0')
            continue;
        *p = '\0';
        int rc = mkdir(buf, 0777);
        int err = errno;
        *p = c;
        if (rc != 0 && err != EEXIST)
            return error_set(e, "cannot create %.*s: %s", (int)(p - buf), buf, strerror(err));
        if (c == '\0')
            return 0;
    }
}

int tables_auto_path(const Variant *v, char *buf, size_t len, Error *e)
{
    return tables_cache_path(v, tables_auto_seeds(v), TABLES_REACHABLE_LEVELS, buf, len, e);
}

int tables_cache_path(const Variant *v, int k, TablesLevels which, char *buf, size_t len,
                      Error *e)
{
    char folder[4096], rules[512];
    if (anywoli_cache_folder(folder, sizeof folder, e) != 0)
        return -1;
    /* Named by the rules of play they were built for, so that every variant has its own
     * file and a file is never used for another. */
    variant_describe_without(v, variant_not_play(), rules, sizeof rules);
    uint64_t h = TABLES_FORMAT_VERSION;
    for (const char *c = rules; *c; c++)
        h = rng_mix64(h ^ (uint8_t)*c);
    /* Every level has a file of its own ("-all"): its values differ from those of the
     * reachable levels alone, so it must never take their name. */
    if ((size_t)snprintf(buf, len, "%s/tables-k%d%s-%016llx.awt", folder, k,
                         which == TABLES_ALL_LEVELS ? "-all" : "", (unsigned long long)h) >= len)
        return error_set(e, "the folder %s is too long a name", folder);
    return 0;
}

/* door_publish's writer of a built set of tables. */
static int save_tables(const char *part, void *tables, Error *e)
{
    return tables_save(tables, part, e);
}

/* Build the tables of v to tables_auto_seeds(v) into path (door_publish: runs building the
 * same file at once each put a whole file there, the same bytes). */
static int auto_build(const Variant *v, const char *path, Error *e)
{
    Tables *t;
    Error inner;
    if (tables_build_levels(v, tables_auto_seeds(v), TABLES_REACHABLE_LEVELS, NULL, NULL, &t,
                            &inner) != 0)
        return error_set(e, "building %s: %s", path, inner.msg);
    int rc = door_publish(path, save_tables, t, e);
    tables_free(t);
    return rc;
}

int tables_acquire_auto(const Variant *v, const Tables **out, Error *e)
{
    *out = NULL;
    if (tables_auto_seeds(v) == 0)
        return error_set(e, "the board of %d holes a side is too large for tables built on "
                         "demand: build them with `anywoli tables build` and give the file",
                         v->holes);
    char path[4200];
    if (tables_auto_path(v, path, sizeof path, e) != 0)
        return -1;
    int rc = 0;
    /* One build at a time in the process: the other threads wait for its file. */
    #pragma omp critical(anywoli_tables_auto)
    {
        if (access(path, F_OK) != 0)
            rc = auto_build(v, path, e);
        Error inner;
        if (rc == 0 && tables_acquire(path, out, &inner) != 0)
            rc = error_set(e, "%s (remove it to have it built again)", inner.msg);
        /* A file of another variant under this one's name (copied there, or a hash that
         * collides) would leave the agent without tables, playing other games than the spec
         * names. */
        if (rc == 0 && tables_check_variant(*out, v, path, &inner) != 0) {
            tables_release(*out);
            *out = NULL;
            rc = error_set(e, "%s (remove it to have it built again)", inner.msg);
        }
    }
    return rc;
}

/* ---- Tables for a solve: `anywoli solve --tables auto` ---- */

uint64_t tables_memory_available(void)
{
    /* MemAvailable: what the kernel can give without swapping (free memory plus the caches
     * it can drop), the figure that says whether a build fits now, on a shared machine. */
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    unsigned long long kib = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    if (kib)
        return (uint64_t)kib * 1024;
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

/* Whether a solve's tables hold level l: the levels a game from the start reaches, or all. */
static bool level_wanted(const Variant *v, int l, TablesLevels which)
{
    return l > v->capture && (which == TABLES_ALL_LEVELS || tables_level_reachable(v, l));
}

double tables_build_bytes(const Variant *v, int k, TablesLevels which)
{
    /* The values of every level held, a byte a slot (five slots a placement: the three
     * conventions are built together, first-final with three states), then the top level's
     * work arrays (a byte of in-degree and 3/8 of offsets and bits a placement,
     * tables_build.c), and room for the buffers and one sorted bucket. */
    double values = 0;
    for (int l = v->capture + 1; l <= k; l++)
        if (level_wanted(v, l, which))
            values += 5 * placements(l, 2 * v->holes);
    return values + 1.375 * placements(k, 2 * v->holes) + TABLES_SOLVE_SPARE;
}

int tables_solve_seeds(const Variant *v, int most, TablesLevels which, uint64_t memory)
{
    int k = 0;
    for (int l = v->capture + 1; l <= most && l <= TABLES_MAX_SEEDS && l <= v->total; l++) {
        double top = placements(l, 2 * v->holes);
        if (level_wanted(v, l, which) && top <= TABLES_SOLVE_PLACEMENTS
            && tables_build_bytes(v, l, which) <= (double)memory / 2)
            k = l;
    }
    return k;
}

/* Build the tables of v's board to k under the three conventions together (as cheap as one,
 * tables.h) and put each into its file of the cache that is not there yet: written under a
 * name of this process's and renamed into place, as auto_build does. The work files go to
 * the cache folder, which has room for the tables anyway. */
static int solve_build(const Variant *v, int k, TablesLevels which, const char *path,
                       TablesProgress progress, void *ctx, Error *e)
{
    static const FinalFour all[FF_NB] = { FF_PENULTIMATE, FF_FIRST_FINAL, FF_LOTTERY };
    char dir[4200];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    TablesBuildOptions o = { .work_dir = slash ? dir : "." };
    Tables *t[FF_NB] = { NULL };
    Error inner;
    int rc = tables_build_set(v, all, FF_NB, k, which, &o, progress, ctx, t, &inner);
    if (rc != 0)
        rc = error_set(e, "building %s: %s", path, inner.msg);
    for (int c = 0; c < FF_NB && rc == 0; c++) {
        Variant vc = *v;
        vc.final_four = all[c];
        char target[4200];
        if ((rc = tables_cache_path(&vc, k, which, target, sizeof target, e)) != 0)
            break;
        if (access(target, F_OK) != 0)
            rc = door_publish(target, save_tables, t[c], e);
    }
    for (int c = 0; c < FF_NB; c++)
        tables_free(t[c]);
    return rc;
}

int tables_acquire_solve(const Variant *v, int k, TablesLevels which, TablesProgress progress,
                         void *ctx, const Tables **out, bool *built, Error *e)
{
    *out = NULL;
    *built = false;
    char path[4200];
    if (tables_cache_path(v, k, which, path, sizeof path, e) != 0)
        return -1;
    if (access(path, F_OK) != 0) {
        if (solve_build(v, k, which, path, progress, ctx, e) != 0)
            return -1;
        *built = true;
    }
    Error inner;
    if (tables_acquire(path, out, &inner) != 0)
        return error_set(e, "%s (remove it to have it built again)", inner.msg);
    if (tables_check_variant(*out, v, path, &inner) != 0) {
        tables_release(*out);
        *out = NULL;
        return error_set(e, "%s (remove it to have it built again)", inner.msg);
    }
    return 0;
}
