/* tables_file.c: the tables file, format 2 (docs/tables.md; format 1 is read too, as a file
 * that holds every level): the header and its fields,
 * writing a file (tables_save), opening one by mapping it read-only with every check of its
 * header and values (tables_open), whether tables fit a variant, and freeing a set of tables
 * (which unmaps a file). It is apart from the build and the index because the byte layout on
 * the disk is a contract of its own: a change here raises TABLES_FORMAT_VERSION, a change
 * elsewhere need not. */
#include "tables_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "door.h"

/* The header: a fixed 4096 bytes (docs/tables.md), then the values. */
#define HEADER_BYTES 4096
#define HEADER_DESCRIBE_AT 2048
#define HEADER_CHECKSUM_AT (HEADER_BYTES - 8)
static const char magic[16] = "ANYWOLI TABLES\n";

/* ---- The file ---- */

/* Little-endian numbers in the header. */
static void put32(uint8_t *p, uint32_t x)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(x >> 8 * i);
}

static void put64(uint8_t *p, uint64_t x)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(x >> 8 * i);
}

static uint32_t get32(const uint8_t *p)
{
    uint32_t x = 0;
    for (int i = 0; i < 4; i++)
        x |= (uint32_t)p[i] << 8 * i;
    return x;
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t x = 0;
    for (int i = 0; i < 8; i++)
        x |= (uint64_t)p[i] << 8 * i;
    return x;
}

/* The header's fields, at their offsets (docs/tables.md). From H_VARIANT, the variant's
 * parameters in the order of variant_params, 4 bytes each but 8 for a VK_INT64 one. */
enum {
    H_VERSION = 16, H_HEADER_BYTES = 20, H_VARIANT = 24,
    H_MAX_SEEDS = 56, H_FIRST_LEVEL = 60, H_CONV = 64, H_VALUE_BYTES = 68, H_POSITIONS = 72,
    H_CHECKSUM = 80, H_LEVELS = 88   /* then K + 1 counts, 8 bytes each */
};
/* The parameters fill H_VARIANT to H_MAX_SEEDS exactly: a new one needs room, that is a new
 * format (raise TABLES_FORMAT_VERSION and move the fields after it, docs/tables.md). */
_Static_assert(VP_NB == 7 && VP_MAX_PLIES == VP_NB - 1,
               "a new variant parameter needs a place in the tables file's header");

/* The bytes parameter p takes in the header. */
static int param_bytes(int p)
{
    return variant_params[p].kind == VK_INT64 ? 8 : 4;
}

/* The variant's parameters into the header (no check: variant_finish's). */
static void variant_write(const Variant *v, uint8_t *h)
{
    for (int p = 0, at = H_VARIANT; p < VP_NB; at += param_bytes(p), p++) {
        uint64_t x = (uint64_t)variant_get(v, p);
        if (param_bytes(p) == 8)
            put64(h + at, x);
        else
            put32(h + at, (uint32_t)x);
    }
}

/* Back from the header; false when its convention is not one this program knows (said
 * apart from the variant's own check, which would read an unknown one as a number). */
static bool variant_read(const uint8_t *h, Variant *v)
{
    bool known = true;
    variant_default(v);
    for (int p = 0, at = H_VARIANT; p < VP_NB; at += param_bytes(p), p++) {
        if (variant_params[p].kind == VK_CONVENTION && get32(h + at) >= FF_NB)
            known = false;
        variant_put(v, p, param_bytes(p) == 8 ? (int64_t)get64(h + at)
                          : variant_params[p].kind == VK_INT ? (int32_t)get32(h + at)
                          : (int64_t)get32(h + at));
    }
    return known;
}

/* The header of t. */
static void header_write(const Tables *t, uint8_t *h)
{
    memset(h, 0, HEADER_BYTES);
    memcpy(h, magic, sizeof magic);
    put32(h + H_VERSION, TABLES_FORMAT_VERSION);
    put32(h + H_HEADER_BYTES, HEADER_BYTES);
    variant_write(&t->v, h);
    put32(h + H_MAX_SEEDS, (uint32_t)t->max_seeds);
    put32(h + H_FIRST_LEVEL, (uint32_t)t->first_level);
    put32(h + H_CONV, (uint32_t)t->conv);
    put32(h + H_VALUE_BYTES, 1);
    put64(h + H_POSITIONS, t->positions);
    put64(h + H_CHECKSUM, t->checksum);
    for (int L = 0; L <= t->max_seeds; L++)
        put64(h + H_LEVELS + 8 * L, (uint64_t)t->conv * tables_level_positions(t, L));
    variant_describe(&t->v, (char *)h + HEADER_DESCRIBE_AT, 512);
    put64(h + HEADER_CHECKSUM_AT, values_checksum((const int8_t *)h, HEADER_CHECKSUM_AT));
}

/* Write n bytes; false on error. */
static bool write_all(int fd, const void *buf, uint64_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t w = write(fd, p, n > (1u << 30) ? (1u << 30) : (size_t)n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (uint64_t)w;
    }
    return true;
}

int tables_save(const Tables *t, const char *path, Error *e)
{
    uint8_t h[HEADER_BYTES];
    header_write(t, h);
    int fd = door_create(path, e);
    if (fd < 0)
        return -1;
    bool ok = write_all(fd, h, HEADER_BYTES) && write_all(fd, t->value, t->positions)
              && fsync(fd) == 0;
    int err = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        err = errno;
    }
    if (!ok) {
        unlink(path);
        return error_set(e, "%s: cannot write: %s", path, strerror(err));
    }
    return 0;
}

/* The levels a file holds: every level in format 1; in format 2 those whose count of values
 * (at H_LEVELS) is not 0, each count checked against the level's size. */
static int levels_read(const uint8_t *h, uint32_t version, const Variant *v, int k, bool *held,
                       const char *path, Error *e)
{
    Ranking r;
    if (ranking_init(&r, v->pits, k) != 0) {
        ranking_free(&r);
        return error_set(e, "%s: bad header: max_seeds %d", path, k);
    }
    int conv = v->final_four == FF_FIRST_FINAL ? 3 : 1, rc = 0;
    for (int L = 0; L <= k && rc == 0; L++) {
        uint64_t n = get64(h + H_LEVELS + 8 * L), size = (uint64_t)conv * ranking_count(&r, L);
        held[L] = version == 1 ? L > v->capture : n != 0;
        if (version != 1 && n != 0 && (L <= v->capture || n != size))
            rc = error_set(e, "%s: bad header: level %d holds %llu values, expected 0 or %llu",
                           path, L, (unsigned long long)n,
                           (unsigned long long)(L <= v->capture ? 0 : size));
    }
    ranking_free(&r);
    return rc;
}

/* Check the header against what this program reads; fill t's layout from it. */
static int header_read(Tables *t, const uint8_t *h, uint64_t size, const char *path, Error *e)
{
    if (size < HEADER_BYTES || memcmp(h, magic, sizeof magic) != 0)
        return error_set(e, "%s: not an Anywoli tables file", path);
    uint32_t version = get32(h + H_VERSION);
    if (version != 1 && version != TABLES_FORMAT_VERSION)
        return error_set(e, "%s: tables format %u, this program reads formats 1 to %d", path,
                         version, TABLES_FORMAT_VERSION);
    if (get64(h + HEADER_CHECKSUM_AT) != values_checksum((const int8_t *)h, HEADER_CHECKSUM_AT))
        return error_set(e, "%s: damaged header (checksum mismatch)", path);
    Variant v;
    bool known = variant_read(h, &v);
    int k = (int)get32(h + H_MAX_SEEDS);
    Error sub = { "the convention is unknown" };
    if (!known || variant_finish(&v, &sub) != 0)
        return error_set(e, "%s: bad variant in the header: %s", path, sub.msg);
    if (k <= v.capture || k > TABLES_MAX_SEEDS || k > v.total || get32(h + H_VALUE_BYTES) != 1)
        return error_set(e, "%s: bad header: max_seeds %d", path, k);
    bool held[TABLES_MAX_SEEDS + 1];
    if (levels_read(h, version, &v, k, held, path, e) != 0
        || tables_layout(t, &v, k, held, e) != 0)
        return -1;
    if (get64(h + H_POSITIONS) != t->positions || (int)get32(h + H_CONV) != t->conv)
        return error_set(e, "%s: bad header: %llu positions, expected %llu", path,
                         (unsigned long long)get64(h + H_POSITIONS),
                         (unsigned long long)t->positions);
    if (size != HEADER_BYTES + t->positions)
        return error_set(e, "%s: %llu bytes, expected %llu (truncated or extended)", path,
                         (unsigned long long)size,
                         (unsigned long long)(HEADER_BYTES + t->positions));
    t->checksum = get64(h + H_CHECKSUM);
    t->format = (int)version;
    return 0;
}

/* Check every stored value against the bound the format gives, |value| <= L on level L (a
 * side cannot gain more seeds than the board holds): a file with a valid checksum can still
 * hold values no build writes. */
static int values_check(const Tables *t, const char *path, Error *e)
{
    for (int L = t->first_level; L <= t->max_seeds; L++) {
        const int8_t *x = t->value + t->level_at[L];
        uint64_t n = t->level_at[L + 1] - t->level_at[L];
        for (uint64_t i = 0; i < n; i++) {
            if (x[i] < -L || x[i] > L)
                return error_set(e, "%s: damaged values (level %d, position %llu: %d, "
                                 "expected -%d to %d)", path, L, (unsigned long long)i, x[i],
                                 L, L);
        }
    }
    return 0;
}

int tables_open(const char *path, Tables **out, Error *e)
{
    int fd = door_read_open(path, e);
    if (fd < 0)
        return -1;
    struct stat st;
    uint8_t h[HEADER_BYTES];
    memset(h, 0, sizeof h);
    Tables *t = calloc(1, sizeof *t);
    int rc = -1;
    if (!t)
        error_set(e, "out of memory");
    else if (fstat(fd, &st) != 0)
        error_set(e, "%s: cannot read: %s", path, strerror(errno));
    else if (pread(fd, h, HEADER_BYTES, 0) < 0)
        error_set(e, "%s: cannot read: %s", path, strerror(errno));
    else if (header_read(t, h, (uint64_t)st.st_size, path, e) == 0) {
        t->map_len = (size_t)st.st_size;
        t->map = mmap(NULL, t->map_len, PROT_READ, MAP_SHARED, fd, 0);
        if (t->map == MAP_FAILED) {
            t->map = NULL;
            error_set(e, "%s: cannot map: %s", path, strerror(errno));
        } else {
            t->value = (const int8_t *)t->map + HEADER_BYTES;
            if (values_checksum(t->value, t->positions) != t->checksum)
                error_set(e, "%s: damaged values (checksum mismatch)", path);
            else
                rc = values_check(t, path, e);
        }
    }
    close(fd);
    if (rc != 0) {
        tables_free(t);
        return -1;
    }
    *out = t;
    return 0;
}

int tables_file_digest(const char *path, uint64_t *out, Error *e)
{
    int fd = door_read_open(path, e);
    if (fd < 0)
        return -1;
    uint8_t h[HEADER_BYTES];
    ssize_t got = pread(fd, h, HEADER_BYTES, 0);
    int saved = errno;
    close(fd);
    if (got < 0)
        return error_set(e, "%s: cannot read: %s", path, strerror(saved));
    if (got < HEADER_BYTES || memcmp(h, magic, sizeof magic) != 0)
        return error_set(e, "%s: not an Anywoli tables file", path);
    if (get64(h + HEADER_CHECKSUM_AT) != values_checksum((const int8_t *)h, HEADER_CHECKSUM_AT))
        return error_set(e, "%s: damaged header (checksum mismatch)", path);
    *out = get64(h + HEADER_CHECKSUM_AT);
    return 0;
}

bool tables_match(const Tables *t, const Variant *v)
{
    return variant_same_play(&t->v, v);
}

int tables_check_variant(const Tables *t, const Variant *v, const char *path, Error *e)
{
    const Variant *w = &t->v;
    if (tables_match(t, v))
        return 0;
    char have[256], want[256];
    variant_describe(w, have, sizeof have);
    variant_describe(v, want, sizeof want);
    return error_set(e, "%s: the tables are for %s, not %s", path, have, want);
}

/* Free t: its ranking, its values when built here, its mapping when opened (tables.h). */
void tables_free(Tables *t)
{
    if (!t)
        return;
    ranking_free(&t->rank);
    free(t->owned);
    if (t->map)
        munmap(t->map, t->map_len);
    free(t);
}
