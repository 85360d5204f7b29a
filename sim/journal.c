/* journal.c: an append-only, checksummed, flushed record of finished batches. */
#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "door.h"
#include "output.h"

static const char header_magic[8] = { 'A', 'N', 'Y', 'W', 'J', 'R', 'N', '1' };
#define BATCH_MAGIC 0x48435442u      /* "BTCH" read as a little-endian word */
#define SEAL_MAGIC 0x4c414553u       /* "SEAL": a batch head with no rows, then its CRC */
#define BATCH_HEAD 24                /* magic, job, start, n, payload bytes */
#define MAX_TEXT (1u << 26)          /* fingerprint or start time, bytes */
#define MAX_BATCH_ROWS (1u << 24)

/* Store x little-endian at p. */
static void put32(unsigned char *p, uint32_t x)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(x >> (8 * i));
}

/* Store x little-endian at p. */
static void put64(unsigned char *p, uint64_t x)
{
    put32(p, (uint32_t)x);
    put32(p + 4, (uint32_t)(x >> 32));
}

/* A little-endian word from p. */
static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A little-endian double word from p. */
static uint64_t get64(const unsigned char *p)
{
    return get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* CRC-32 of n bytes, continuing crc. */
static uint32_t crc(uint32_t c, const unsigned char *p, size_t n)
{
    while (n > 0) {
        uInt step = n > (1u << 30) ? (1u << 30) : (uInt)n;
        c = (uint32_t)crc32(c, p, step);
        p += step;
        n -= step;
    }
    return c;
}

/* Make sure the journal's buffer holds at least n bytes. */
static int reserve(Journal *j, size_t n, Error *e)
{
    if (n <= j->cap)
        return 0;
    unsigned char *grown = realloc(j->buf, n);
    if (!grown)
        return error_set(e, "%s: out of memory for a batch of %zu bytes", j->path, n);
    j->buf = grown;
    j->cap = n;
    return 0;
}

/* Write all n bytes, retrying short writes. */
static int write_all(Journal *j, const unsigned char *p, size_t n, Error *e)
{
    while (n > 0) {
        ssize_t w = write(j->fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return error_set(e, "%s: write failed: %s", j->path, strerror(errno));
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Flush the file's data to the disk. */
static int flush(Journal *j, Error *e)
{
    if (fdatasync(j->fd) != 0)
        return error_set(e, "%s: flush to disk failed: %s", j->path, strerror(errno));
    return 0;
}

/* Take the journal's write lock, so that two runs never write one file. */
static int lock(Journal *j, Error *e)
{
    struct flock fl = { 0 };
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    if (fcntl(j->fd, F_SETLK, &fl) != 0)
        return error_set(e, "%s: in use by another run (%s)", j->path, strerror(errno));
    return 0;
}

/* Start a journal object for path. */
static int journal_init(Journal *j, const char *path, size_t row_bytes, Error *e)
{
    memset(j, 0, sizeof *j);
    j->fd = -1;
    j->row_bytes = row_bytes;
    j->path = strdup(path);
    return j->path ? 0 : error_set(e, "out of memory");
}

/* Write and flush the header of a new journal. */
static int write_header(Journal *j, const char *fingerprint, const char *started, Error *e)
{
    size_t nf = strlen(fingerprint), ns = strlen(started);
    size_t len = 8 + 4 + 4 + ns + 4 + nf + 4;
    if (reserve(j, len, e) != 0)
        return -1;
    unsigned char *p = j->buf;
    memcpy(p, header_magic, 8);
    put32(p + 8, (uint32_t)j->row_bytes);
    put32(p + 12, (uint32_t)ns);
    memcpy(p + 16, started, ns);
    put32(p + 16 + ns, (uint32_t)nf);
    memcpy(p + 20 + ns, fingerprint, nf);
    put32(p + len - 4, crc(0, p, len - 4));
    return write_all(j, p, len, e) == 0 ? flush(j, e) : -1;
}

/* A journal is created as path.new and linked into place; a kill between the link and the
 * removal of path.new leaves that name behind beside a whole journal: remove it. */
static void remove_stray_new(const char *path)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.new", path) < (int)sizeof tmp)
        unlink(tmp);
}

int journal_create(Journal *j, const char *path, size_t row_bytes, const char *fingerprint,
                   const char *started, Error *e)
{
    /* The header is written and flushed under a temporary name, then linked into place, so
     * that a journal never exists without its whole header, whenever a kill comes. */
    if (journal_init(j, path, row_bytes, e) != 0)
        return -1;
    size_t n = strlen(path);
    char *tmp = malloc(n + 5);
    if (!tmp) {
        journal_close(j);
        return error_set(e, "out of memory");
    }
    memcpy(tmp, path, n);
    memcpy(tmp + n, ".new", 5);
    unlink(tmp);                           /* left by a kill in an earlier creation */
    j->fd = door_create(tmp, e);
    int rc = j->fd < 0 ? -1 : 0;
    rc = rc ? rc : lock(j, e);
    rc = rc ? rc : write_header(j, fingerprint, started, e);
    bool moved = false;
    if (rc == 0 && link(tmp, path) != 0) {
        /* A file system without hard links: rename (the caller made sure path is free). */
        moved = (errno == EPERM || errno == EOPNOTSUPP) && rename(tmp, path) == 0;
        if (!moved)
            rc = error_set(e, "cannot create %s: %s", path, strerror(errno));
    }
    if (j->fd >= 0 && !moved)
        unlink(tmp);
    free(tmp);
    if (rc != 0) {
        journal_close(j);
        return -1;
    }
    output_flush_folder(path);
    return 0;
}

/* Where a scan reads the journal (by pread, so no second descriptor drops the lock). */
typedef struct Cursor {
    int fd;
    off_t pos;
} Cursor;

/* Read exactly n bytes; false at the end of the file or on a short read. */
static bool read_exact(Cursor *f, void *p, size_t n)
{
    unsigned char *q = p;
    while (n > 0) {
        ssize_t got = pread(f->fd, q, n, f->pos);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return false;
        q += got;
        n -= (size_t)got;
        f->pos += got;
    }
    return true;
}

/* A length-prefixed text of the header into a fresh string; NULL if unreadable. */
static char *read_text(Cursor *f, uint32_t *running)
{
    unsigned char len4[4];
    if (!read_exact(f, len4, 4))
        return NULL;
    uint32_t n = get32(len4);
    char *s = n < MAX_TEXT ? malloc((size_t)n + 1) : NULL;
    if (!s)
        return NULL;
    if (!read_exact(f, s, n)) {
        free(s);
        return NULL;
    }
    s[n] = '\0';
    *running = crc(crc(*running, len4, 4), (unsigned char *)s, n);
    return s;
}

/* The first word (a run of non-spaces) where two fingerprints differ, as " (the journal's
 * 'WAS', now 'NOW')", each cut to 120 characters, into buf; "" when they do not differ. A
 * fingerprint is lines of words (experiment_fingerprint), so the word names the part that
 * changed: a seed, a job's agent, the hash of a file it names. */
static void first_difference(const char *was, const char *now, char *buf, size_t len)
{
    buf[0] = '\0';
    while (*was || *now) {
        size_t a = strcspn(was, " \n"), b = strcspn(now, " \n");
        if (a != b || memcmp(was, now, a) != 0) {
            snprintf(buf, len, " (the journal's '%.*s', now '%.*s')", (int)(a < 120 ? a : 120),
                     was, (int)(b < 120 ? b : 120), now);
            return;
        }
        was += a + (was[a] != '\0');
        now += b + (now[b] != '\0');
    }
}

/* Read and check the header: -1 unreadable, -2 another experiment, 0 good. */
static int read_header(Journal *j, Cursor *f, const char *fingerprint, JournalScan *scan,
                       Error *e)
{
    unsigned char head[12], crc4[4];
    uint32_t c;
    if (!read_exact(f, head, 12) || memcmp(head, header_magic, 8) != 0)
        return error_set(e, "%s: not an anywoli journal, or its header is damaged", j->path);
    if (get32(head + 8) != j->row_bytes)
        return error_set(e, "%s: written for rows of %u bytes, not %zu (another version)",
                         j->path, get32(head + 8), j->row_bytes);
    c = crc(0, head, 12);
    char *started = read_text(f, &c);
    char *fp = started ? read_text(f, &c) : NULL;
    int rc = 0;
    if (!fp || !read_exact(f, crc4, 4) || get32(crc4) != c)
        rc = error_set(e, "%s: its header is damaged", j->path);
    else if (strcmp(fp, fingerprint) != 0)
        rc = -2;
    if (rc == -2) {
        char what[300];
        first_difference(fp, fingerprint, what, sizeof what);
        error_set(e, "%s: belongs to a different experiment (the config, seed or command-line "
                  "options changed since the interrupted run)%s", j->path, what);
    }
    if (rc == 0)
        snprintf(scan->started, sizeof scan->started, "%s", started);
    free(started);
    free(fp);
    return rc;
}

/* Undo the byte shuffle: plane b of the n rows back into row order. */
static void unshuffle(const unsigned char *in, unsigned char *out, size_t n, size_t row)
{
    for (size_t b = 0; b < row; b++)
        for (size_t i = 0; i < n; i++)
            out[i * row + b] = in[b * n + i];
}

/* Whether a verified seal follows head (already read). */
static bool read_seal(Cursor *f, const unsigned char *head)
{
    unsigned char crc4[4];
    for (int i = 4; i < BATCH_HEAD; i++)
        if (head[i])
            return false;
    return read_exact(f, crc4, 4) && get32(crc4) == crc(0, head, BATCH_HEAD);
}

/* Read one batch record; 1 when one was read and verified, 2 at a verified seal, 0 at a torn
 * or damaged tail. */
static int read_batch(Journal *j, Cursor *f, uint32_t *job, uint64_t *start, uint32_t *n,
                      unsigned char **rows, Error *e)
{
    unsigned char head[BATCH_HEAD], crc4[4];
    if (!read_exact(f, head, BATCH_HEAD))
        return 0;
    if (get32(head) == SEAL_MAGIC)
        return read_seal(f, head) ? 2 : 0;
    if (get32(head) != BATCH_MAGIC)
        return 0;
    *job = get32(head + 4);
    *start = get64(head + 8);
    *n = get32(head + 16);
    uint32_t zlen = get32(head + 20);
    size_t raw = (size_t)*n * j->row_bytes;
    if (*n == 0 || *n > MAX_BATCH_ROWS || zlen > compressBound(raw) + 64)
        return 0;
    if (reserve(j, 2 * raw + zlen, e) != 0)
        return -1;
    unsigned char *z = j->buf + 2 * raw;
    if (!read_exact(f, z, zlen) || !read_exact(f, crc4, 4))
        return 0;
    if (get32(crc4) != crc(crc(0, head, BATCH_HEAD), z, zlen))
        return 0;
    uLongf got = raw;
    if (uncompress(j->buf, &got, z, zlen) != Z_OK || got != raw)
        return 0;
    unshuffle(j->buf, j->buf + raw, *n, j->row_bytes);
    *rows = j->buf + raw;
    return 1;
}

/* Pass every verified batch to fn; *good is the offset after the last one (or after the
 * seal, which ends the scan). */
static int scan_batches(Journal *j, Cursor *f, JournalBatchFn fn, void *ctx, JournalScan *scan,
                        off_t *good, Error *e)
{
    for (;;) {
        *good = f->pos;
        uint32_t job, n;
        uint64_t start;
        unsigned char *rows;
        int got = read_batch(j, f, &job, &start, &n, &rows, e);
        if (got == 2) {
            scan->sealed = true;
            *good = f->pos;
            return 0;
        }
        if (got <= 0)
            return got;
        if (fn(ctx, job, start, n, rows, e) != 0)
            return -1;
        scan->batches++;
    }
}

int journal_resume(Journal *j, const char *path, size_t row_bytes, const char *fingerprint,
                   JournalBatchFn fn, void *ctx, JournalScan *scan, Error *e)
{
    memset(scan, 0, sizeof *scan);
    if (journal_init(j, path, row_bytes, e) != 0)
        return -1;
    /* Never through a link: a resume appends to the journal and cuts its torn tail. */
    j->fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    Cursor cur = { j->fd, 0 }, *f = &cur;
    if (j->fd < 0) {
        error_set(e, "cannot open %s: %s", path,
                  errno == ELOOP ? "a symbolic link, not a regular file" : strerror(errno));
        journal_close(j);
        return -1;
    }
    off_t good = 0;
    struct stat st;
    int rc = lock(j, e);
    if (rc == 0)
        remove_stray_new(path);
    rc = rc ? rc : read_header(j, f, fingerprint, scan, e);
    rc = rc ? rc : scan_batches(j, f, fn, ctx, scan, &good, e);
    if (rc == 0 && fstat(j->fd, &st) == 0 && st.st_size > good) {
        scan->dropped_bytes = (uint64_t)(st.st_size - good);
        if (ftruncate(j->fd, good) != 0 || fsync(j->fd) != 0)
            rc = error_set(e, "%s: cannot drop its torn tail: %s", path, strerror(errno));
    }
    if (rc == 0 && lseek(j->fd, 0, SEEK_END) < 0)
        rc = error_set(e, "%s: %s", path, strerror(errno));
    if (rc != 0)
        journal_close(j);
    return rc;
}

/* Byte-shuffle n rows: byte b of every row together, as HDF5's shuffle filter does, so that
 * deflate sees long runs of similar bytes. */
static void shuffle(const unsigned char *in, unsigned char *out, size_t n, size_t row)
{
    for (size_t i = 0; i < n; i++)
        for (size_t b = 0; b < row; b++)
            out[b * n + i] = in[i * row + b];
}

int journal_append(Journal *j, uint32_t job, uint64_t start, uint32_t n,
                   const unsigned char *rows, Error *e)
{
    size_t raw = (size_t)n * j->row_bytes;
    uLongf zlen = compressBound(raw);
    if (n == 0 || n > MAX_BATCH_ROWS)
        return error_set(e, "%s: a batch of %u games cannot be journalled", j->path, n);
    if (reserve(j, raw + BATCH_HEAD + zlen + 4, e) != 0)
        return -1;
    unsigned char *head = j->buf + raw, *z = head + BATCH_HEAD;
    shuffle(rows, j->buf, n, j->row_bytes);
    if (compress2(z, &zlen, j->buf, raw, 1) != Z_OK)
        return error_set(e, "%s: compression failed", j->path);
    put32(head, BATCH_MAGIC);
    put32(head + 4, job);
    put64(head + 8, start);
    put32(head + 16, n);
    put32(head + 20, (uint32_t)zlen);
    put32(z + zlen, crc(crc(0, head, BATCH_HEAD), z, zlen));
    if (write_all(j, head, BATCH_HEAD + zlen + 4, e) != 0)
        return -1;
    return flush(j, e);
}

int journal_seal(Journal *j, Error *e)
{
    unsigned char rec[BATCH_HEAD + 4] = { 0 };
    put32(rec, SEAL_MAGIC);
    put32(rec + BATCH_HEAD, crc(0, rec, BATCH_HEAD));
    if (write_all(j, rec, sizeof rec, e) != 0)
        return -1;
    return flush(j, e);
}

void journal_close(Journal *j)
{
    if (j->fd >= 0)
        close(j->fd);
    free(j->path);
    free(j->buf);
    memset(j, 0, sizeof *j);
    j->fd = -1;
}
