/* learned_auto.c: weights fitted on first use (learned.h, "learned=auto"): the process's
 * list of fitted sets and their cache files. Follows tables=auto (exact/tables_cache.c): a
 * file named by what it was made from, in the user's cache folder, written under a name of
 * this process's and renamed into place, its variant checked on reading. Fitting takes
 * minutes where building tables takes seconds, so a lock beside the file also keeps two
 * processes (or MPI ranks) from fitting it twice: the second waits and reads the first's. */
#include "learned.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "door.h"
#include "rng.h"
#include "tables.h"

static LearnedFitter fitter;
static const char *fitter_inputs;

void learned_auto_install(LearnedFitter fit, const char *inputs)
{
    fitter = fit;
    fitter_inputs = inputs;
}

/* v's rules of play as text: a fitted set's `variant` line. */
static void rules_text(const Variant *v, char *buf, size_t len)
{
    variant_describe_without(v, variant_not_play(), buf, len);
}

int learned_auto_path(const Variant *v, char *buf, size_t len, Error *e)
{
    if (!fitter)
        return error_set(e, "this program cannot fit weights (learned=auto is the anywoli "
                         "command's): give a weights file (learned=FILE)");
    char folder[4096], rules[512];
    if (anywoli_cache_folder(folder, sizeof folder, e) != 0)
        return -1;
    /* Named by what the weights are a function of: the features, the rules of play and the
     * fit's inputs; so a file is never used for another variant or another fit. */
    rules_text(v, rules, sizeof rules);
    uint64_t h = FEATURES_VERSION;
    for (const char *c = rules; *c; c++)
        h = rng_mix64(h ^ (uint8_t)*c);
    h = rng_mix64(h ^ '\n');
    for (const char *c = fitter_inputs; *c; c++)
        h = rng_mix64(h ^ (uint8_t)*c);
    if ((size_t)snprintf(buf, len, "%s/learned-%016llx.txt", folder, (unsigned long long)h)
        >= len)
        return error_set(e, "the folder %s is too long a name", folder);
    return 0;
}

/* Read the fitted set of v at path, checked: its content hash into *digest. */
static int read_fitted(const Variant *v, const char *path, LearnedSet **out, uint64_t *digest,
                       Error *e)
{
    char rules[512];
    rules_text(v, rules, sizeof rules);
    if (learned_set_load(path, out, e) != 0)
        return -1;
    if (learned_file_digest(path, digest, e) != 0) {
        learned_set_free(*out);
        return -1;
    }
    /* A file of another variant under this one's name (copied there, or a hash that
     * collides) would play weights fitted for other rules. */
    if (!(*out)->variant || strcmp((*out)->variant, rules) != 0) {
        error_set(e, "%s: fitted for %s, not for this variant (%s)", path,
                  (*out)->variant ? (*out)->variant : "no variant", rules);
        learned_set_free(*out);
        return -1;
    }
    return 0;
}

/* door_publish's writer of a fitted set: the weights file, flushed to the disk. */
static int write_set(const char *part, void *set, Error *e)
{
    FILE *f = door_create_stream(part, e);
    if (!f)
        return -1;
    int rc = learned_set_write(set, f, e);
    if (fflush(f) != 0 || fsync(fileno(f)) != 0)
        rc = rc ? rc : error_set(e, "%s: cannot write: %s", part, strerror(errno));
    if (fclose(f) != 0 && rc == 0)
        rc = error_set(e, "%s: cannot write: %s", part, strerror(errno));
    return rc;
}

/* Write set s as path (door_publish). */
static int write_fitted(const LearnedSet *s, const char *path, Error *e)
{
    return door_publish(path, write_set, (void *)s, e);
}

/* Seconds since some fixed point, for the note. */
static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Fit v's set into path unless another process has (or does, while we wait for the lock). */
static int fit_file(const Variant *v, const char *path, Error *e)
{
    char lock[4300], rules[512];
    if ((size_t)snprintf(lock, sizeof lock, "%s.lock", path) >= sizeof lock)
        return error_set(e, "%s: too long a name", path);
    /* The lock file stays: removing it would let a third process lock a new file while the
     * second still holds the old one. O_NOFOLLOW: a link planted there is refused. */
    int fd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0)
        return error_set(e, "%s: cannot open: %s", lock, strerror(errno));
    int rc = 0;
    while (flock(fd, LOCK_EX) != 0)
        if (errno != EINTR) {
            rc = error_set(e, "%s: cannot lock: %s", lock, strerror(errno));
            break;
        }
    if (rc == 0 && access(path, F_OK) != 0) {
        double start = seconds_now();
        LearnedSet *s = NULL;
        rules_text(v, rules, sizeof rules);
        rc = fitter(v, &s, e);
        if (rc == 0 && learned_set_note_variant(s, rules) != 0)
            rc = error_set(e, "out of memory");
        if (rc == 0)
            rc = write_fitted(s, path, e);
        if (rc == 0)
            fprintf(stderr, "anywoli: learned=auto: fitted the evaluation of %s in %.0f s "
                    "(%s) into %s\n", rules, seconds_now() - start, s->about, path);
        learned_set_free(s);
    }
    close(fd);   /* and the lock with it */
    return rc;
}

/* The sets fitted or read in this process, kept until it ends. */
typedef struct Fitted {
    Variant v;
    LearnedSet *set;
    uint64_t digest;
    struct Fitted *next;
} Fitted;

static Fitted *fitted;

int learned_auto_acquire(const Variant *v, const LearnedSet **out, uint64_t *digest, Error *e)
{
    *out = NULL;
    int rc = 0;
    /* One fit at a time in the process: the other threads wait for its file. */
    #pragma omp critical(anywoli_learned_auto)
    {
        Fitted *f = fitted;
        while (f && !variant_same_play(&f->v, v))
            f = f->next;
        char path[4400];
        Error inner;
        if (!f && (rc = learned_auto_path(v, path, sizeof path, e)) == 0) {
            f = calloc(1, sizeof *f);
            if (!f)
                rc = error_set(e, "out of memory");
            if (rc == 0 && access(path, F_OK) != 0 && (rc = fit_file(v, path, &inner)) != 0)
                rc = error_set(e, "fitting %s: %s", path, inner.msg);
            if (rc == 0 && (rc = read_fitted(v, path, &f->set, &f->digest, &inner)) != 0)
                rc = error_set(e, "%s (remove it to have it fitted again)", inner.msg);
            if (rc == 0) {
                f->v = *v;
                f->next = fitted;
                fitted = f;
            } else {
                free(f);
                f = NULL;
            }
        }
        if (f) {
            *out = f->set;
            if (digest)
                *digest = f->digest;
        }
    }
    return rc;
}

/* Whether v's set would be fitted now and the process defers builds (agents_defer_builds:
 * a dry run lists, it does not fit), its file not cached. */
static bool fit_deferred(const Variant *v)
{
    char path[4400];
    Error e;
    return agents_builds_deferred() && learned_auto_path(v, path, sizeof path, &e) == 0 &&
           access(path, F_OK) != 0;
}

bool learned_builtin_fits(const Variant *v)
{
    const LearnedSet *s = learned_builtin("learned");
    return s && s->holes == v->holes && s->capture == v->capture;
}

int learned_choose(const LearnedSet *file, bool fit, const char *agent, const Variant *v,
                   const LearnedSet **out, Error *e)
{
    if (file) {
        *out = file;
        return 0;
    }
    if (!fit && learned_builtin_fits(v)) {
        *out = learned_builtin("learned");
        return 0;
    }
    if (fit_deferred(v)) {
        *out = NULL;
        return 0;
    }
    Error inner;
    if (learned_auto_acquire(v, out, NULL, &inner) != 0)
        return error_set(e, "agent '%s': weights=learned, learned=auto: %s", agent, inner.msg);
    return 0;
}

int learned_choice_digest(bool fit, const Variant *v, uint64_t *out, Error *e)
{
    *out = 0;
    const LearnedSet *s;
    if ((!fit && learned_builtin_fits(v)) || fit_deferred(v))
        return 0;
    return learned_auto_acquire(v, &s, out, e);
}

int learned_option_digest(const char *value, uint64_t *out, Error *e)
{
    *out = 0;
    return strcmp(value, LEARNED_AUTO_WORD) == 0 ? 0 : learned_file_digest(value, out, e);
}
