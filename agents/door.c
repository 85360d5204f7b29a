/* door.c: the one door for files read and written by name (see door.h). */
#include "door.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the names noted ---- */

/* One file named on this process's behalf: what it is, by identity, and how it was named. */
typedef struct Noted {
    bool output, read_too;
    bool exists;              /* dev and ino are the file's (an output may not exist yet) */
    dev_t dev;
    ino_t ino;
    bool placed;              /* dir_dev, dir_ino and base say where the name is */
    dev_t dir_dev;
    ino_t dir_ino;
    char *base;               /* the name's last component */
    char *path;               /* as given, for messages */
} Noted;

/* Agents open their files (tables, weights) from several threads: the table is shared. */
static pthread_mutex_t noted_lock = PTHREAD_MUTEX_INITIALIZER;
static Noted *noted;
static size_t noted_n, noted_cap;

/* The names an output occupies besides its own: its work file, journal and lock
 * (sim/output.c), so that an input named OUT.partial is one of OUT's files too. */
static const char *const output_suffixes[] = { "", ".partial", ".journal", ".lock" };

/* Fill n's folder identity and last name from path; false when the folder cannot be found
 * (the name is then known by its file identity alone). */
static bool place_name(Noted *n, const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    struct stat st;
    bool ok = dir && stat(dir, &st) == 0;
    free(dir);
    n->base = strdup(slash ? slash + 1 : path);
    n->placed = ok && n->base;
    if (n->placed) {
        n->dir_dev = st.st_dev;
        n->dir_ino = st.st_ino;
    }
    return n->placed;
}

/* Whether name `b` is `a` or one of the names output `a` occupies (a.partial ...). */
static bool occupies(const Noted *a, const Noted *b)
{
    if (!a->placed || !b->placed || a->dir_dev != b->dir_dev || a->dir_ino != b->dir_ino)
        return false;
    size_t n = strlen(a->base);
    if (strncmp(a->base, b->base, n) != 0)
        return false;
    int suffixes = a->output ? (int)(sizeof output_suffixes / sizeof *output_suffixes) : 1;
    for (int i = 0; i < suffixes; i++)
        if (strcmp(b->base + n, output_suffixes[i]) == 0)
            return true;
    return false;
}

/* Whether a and b name one file: one identity, or one name (or a name an output occupies). */
static bool same_file(const Noted *a, const Noted *b)
{
    if (a->exists && b->exists && a->dev == b->dev && a->ino == b->ino)
        return true;
    return occupies(a, b) || occupies(b, a);
}

/* Whether a noted file and a new one may share a file: two inputs may (a file read twice),
 * and an output that reads what it replaces may be its own input. */
static bool may_share(const Noted *old, const Noted *add)
{
    if (!old->output && !add->output)
        return true;
    if (old->output != add->output)
        return (old->output ? old : add)->read_too;
    return false;
}

/* The refusal of `add` that names the file `old` noted, in one line. */
static int refuse_same(const Noted *old, const Noted *add, Error *e)
{
    if (old->output && add->output)
        return error_set(e, "%s and %s are one file: each output needs a name of its own",
                         old->path, add->path);
    const Noted *in = old->output ? add : old, *out = old->output ? old : add;
    return error_set(e, "%s is both an input and the output %s of this command: writing it "
                     "would destroy what is read (name another output)", in->path, out->path);
}

static void noted_free(Noted *n)
{
    free(n->base);
    free(n->path);
}

/* Add n to the table unless it clashes with a name noted before (-1 with e, n freed). A name
 * noted again in the same role is kept once. */
static int note(Noted *n, Error *e)
{
    int rc = 0;
    bool again = false;
    pthread_mutex_lock(&noted_lock);
    for (size_t i = 0; i < noted_n && rc == 0 && !again; i++) {
        if (!same_file(&noted[i], n))
            continue;
        if (!may_share(&noted[i], n))
            rc = refuse_same(&noted[i], n, e);
        else
            again = noted[i].output == n->output;
    }
    if (rc == 0 && !again && noted_n == noted_cap) {
        size_t cap = noted_cap ? 2 * noted_cap : 16;
        Noted *grown = realloc(noted, cap * sizeof *grown);
        if (grown) {
            noted = grown;
            noted_cap = cap;
        }
    }
    if (rc == 0 && !again && noted_n < noted_cap && n->path)
        noted[noted_n++] = *n;
    else
        noted_free(n);
    pthread_mutex_unlock(&noted_lock);
    return rc;
}

void door_forget_output(const char *path)
{
    pthread_mutex_lock(&noted_lock);
    size_t kept = 0;
    for (size_t i = 0; i < noted_n; i++) {
        if (noted[i].output && strcmp(noted[i].path, path) == 0)
            noted_free(&noted[i]);
        else
            noted[kept++] = noted[i];
    }
    noted_n = kept;
    pthread_mutex_unlock(&noted_lock);
}

void door_forget_all(void)
{
    pthread_mutex_lock(&noted_lock);
    for (size_t i = 0; i < noted_n; i++)
        noted_free(&noted[i]);
    noted_n = 0;
    pthread_mutex_unlock(&noted_lock);
}

/* Note path by its identity st (NULL: no file there yet) and its name, in its role. */
static int note_name(const char *path, const struct stat *st, bool output, bool read_too,
                     Error *e)
{
    Noted n = { .output = output, .read_too = read_too };
    if (st) {
        n.exists = true;
        n.dev = st->st_dev;
        n.ino = st->st_ino;
    }
    place_name(&n, path);
    n.path = strdup(path);
    return note(&n, e);
}

/* Note the input path, open as fd. */
static int note_input(const char *path, int fd, Error *e)
{
    struct stat st;
    return note_name(path, fstat(fd, &st) == 0 ? &st : NULL, false, false, e);
}

int door_note_output(const char *path, bool read_too, Error *e)
{
    struct stat st;
    return note_name(path, stat(path, &st) == 0 ? &st : NULL, true, read_too, e);
}

/* ---- reading ---- */

/* What kind of file st is, in words, for the message. */
static const char *file_kind(const struct stat *st)
{
    if (S_ISFIFO(st->st_mode))
        return "a FIFO";
    if (S_ISDIR(st->st_mode))
        return "a folder";
    if (S_ISCHR(st->st_mode))
        return "a character device";
    if (S_ISBLK(st->st_mode))
        return "a block device";
    if (S_ISSOCK(st->st_mode))
        return "a socket";
    return "not a plain file";
}

int door_read_open(const char *path, Error *e)
{
    /* O_NONBLOCK: open() of a FIFO returns at once instead of waiting for a writer; it has no
     * effect on a regular file's reads, but is cleared anyway for whoever reads the fd. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return error_set(e, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int err = errno;
        close(fd);
        return error_set(e, "%s: cannot read: %s", path, strerror(err));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return error_set(e, "%s: not a regular file (%s)", path, file_kind(&st));
    }
    if (note_input(path, fd, e) != 0) {
        close(fd);
        return -1;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0)
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    return fd;
}

FILE *door_read_stream(const char *path, Error *e)
{
    int fd = door_read_open(path, e);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        error_set(e, "%s: cannot read: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}

int door_read_text(const char *path, size_t max, const char *what, char **text, size_t *n,
                   Error *e)
{
    int fd = door_read_open(path, e);
    if (fd < 0)
        return -1;
    size_t cap = 4096, used = 0;
    char *buf = malloc(cap + 1);
    ssize_t got = 1;
    while (buf && got > 0 && used <= max) {
        if (used == cap) {
            char *more = realloc(buf, 2 * cap + 1);
            if (!more)
                break;
            buf = more;
            cap *= 2;
        }
        got = read(fd, buf + used, cap - used);
        used += got > 0 ? (size_t)got : 0;
    }
    int saved = errno;
    close(fd);
    if (!buf || got > 0) {
        free(buf);
        return used > max ? error_set(e, "%s: larger than %zu bytes: not %s", path, max, what)
                          : error_set(e, "%s: out of memory", path);
    }
    if (got < 0) {
        free(buf);
        return error_set(e, "%s: cannot read: %s", path, strerror(saved));
    }
    buf[used] = '\0';
    *text = buf;
    *n = used;
    return 0;
}

int door_read_check(const char *path, Error *e)
{
    int fd = door_read_open(path, e);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

/* ---- writing ---- */

int door_create(const char *path, Error *e)
{
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0666);
    if (fd < 0)
        return error_set(e, "%s: cannot create: %s", path, strerror(errno));
    return fd;
}

FILE *door_create_stream(const char *path, Error *e)
{
    int fd = door_create(path, e);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        error_set(e, "%s: cannot write: %s", path, strerror(errno));
        close(fd);
        unlink(path);
    }
    return f;
}
