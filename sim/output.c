/* output.c: claiming, checking and publishing a long job's output file (see output.h). */
#define _GNU_SOURCE             /* renameat2 and RENAME_NOREPLACE (Linux, glibc 2.28) */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "door.h"
#include "journal.h"
#include "results.h"

#define HOLDER_MAX 256          /* bytes of the holder's description in FILE.lock */
#define CLAIM_TRIES 8           /* a lock file removed under us is taken again this often */

char *output_name(const char *path, const char *suffix)
{
    size_t n = strlen(path), m = strlen(suffix);
    char *s = malloc(n + m + 1);
    if (s) {
        memcpy(s, path, n);
        memcpy(s + n, suffix, m + 1);
    }
    return s;
}

/* Whether something exists at path (a dangling link counts). */
static bool exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* What a file that is not a regular one is, for messages. */
static const char *file_kind(mode_t mode)
{
    return S_ISDIR(mode) ? "a folder" : S_ISCHR(mode) ? "a character device"
         : S_ISBLK(mode) ? "a block device" : S_ISFIFO(mode) ? "a FIFO"
         : S_ISLNK(mode) ? "a symbolic link" : S_ISSOCK(mode) ? "a socket" : "not a file";
}

/* The refusal of a name that is not a regular file, in one wording. */
static int refuse_not_regular(const char *path, mode_t mode, Error *e)
{
    return error_set(e, "%s is %s, not a regular file: anywoli writes its output only to "
                     "regular files", path, file_kind(mode));
}

int output_refuse_existing(const char *path, Error *e)
{
    return error_set(e, "%s already exists (--force replaces it)", path);
}

/* Who holds the lock on fd, from the text it wrote (or the kernel's pid when it has not yet). */
static void describe_holder(int fd, char *out, size_t len)
{
    char text[HOLDER_MAX];
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    text[n > 0 ? n : 0] = '\0';
    text[strcspn(text, "\n")] = '\0';
    if (text[0]) {
        snprintf(out, len, "%s", text);
        return;
    }
    struct flock fl = { 0 };
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    if (fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK)
        snprintf(out, len, "another process (pid %ld)", (long)fl.l_pid);
    else
        snprintf(out, len, "another process");
}

/* Write this process's description into the lock file it holds. */
static void write_holder(int fd, const char *what)
{
    char host[128] = "?", since[40], text[HOLDER_MAX];
    gethostname(host, sizeof host - 1);
    host[sizeof host - 1] = '\0';
    results_now(since, sizeof since);
    int n = snprintf(text, sizeof text, "anywoli %s, pid %ld on %s, since %s\n", what,
                     (long)getpid(), host, since);
    if (ftruncate(fd, 0) == 0 && pwrite(fd, text, (size_t)n, 0) < 0)
        return;   /* the description is a courtesy: the lock itself is what protects */
}

/* The lock files of the claims this process holds (their Output's own strings), so that an
 * exit on an error (die) or a stop signal removes them as output_release would: a refusal or
 * a stop leaves no trace. A checkpointed job replaces the signal actions with its own clean
 * stop while it plays (stop.h), and puts these back after. */
#define CLAIMS_MAX 16
static const char *volatile claims_held[CLAIMS_MAX];
/* The partial files of stream outputs being written (output_stream_open), removed by a stop
 * signal or an exit before they are in place. */
#define STREAMS_MAX 8
static const char *volatile open_partials[STREAMS_MAX];
static struct sigaction claim_old[3];
static int claims_n;
static const int claim_signals[3] = { SIGINT, SIGTERM, SIGHUP };

static void release_held_at_exit(void)
{
    for (int i = 0; i < CLAIMS_MAX; i++)
        if (claims_held[i])
            unlink(claims_held[i]);
}

/* A stop signal while claims are held: the locks and the partial files of stream outputs
 * removed (unlink is async-signal-safe), then the end the signal would have made. */
static void remove_ours_and_stop(int sig)
{
    release_held_at_exit();
    for (int i = 0; i < STREAMS_MAX; i++)
        if (open_partials[i])
            unlink(open_partials[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void hold(const Output *o)
{
    static bool registered;
    if (!registered)
        registered = atexit(release_held_at_exit) == 0;
    for (int i = 0; i < CLAIMS_MAX; i++)
        if (!claims_held[i]) {
            claims_held[i] = o->lock;
            break;
        }
    if (claims_n++ > 0)
        return;
    struct sigaction sa = { 0 };
    sa.sa_handler = remove_ours_and_stop;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; i++)
        sigaction(claim_signals[i], &sa, &claim_old[i]);
}

/* Between creating a lock file and noting it as held (and between forgetting it and
 * removing it), a stop signal would leave the lock behind: the stop signals wait, blocked,
 * until the lock and its note agree; one that came meanwhile is taken at the unblock. */
static void block_stops(sigset_t *old)
{
    sigset_t stops;
    sigemptyset(&stops);
    for (int i = 0; i < 3; i++)
        sigaddset(&stops, claim_signals[i]);
    pthread_sigmask(SIG_BLOCK, &stops, old);
}

static void unblock_stops(const sigset_t *old)
{
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

static void unhold(const Output *o)
{
    bool found = false;
    for (int i = 0; i < CLAIMS_MAX; i++)
        if (o->lock && claims_held[i] == o->lock) {
            claims_held[i] = NULL;
            found = true;
        }
    if (found && --claims_n == 0)
        for (int i = 0; i < 3; i++)
            sigaction(claim_signals[i], &claim_old[i], NULL);
}

/* Lock FILE.lock. The file is removed by each holder as it ends, so a lock taken on a file
 * that was removed between our open and our lock protects nothing: check that the locked
 * file is still the one at the name, else take the new one. */
static int take_lock_blocked(Output *o, const char *what, Error *e)
{
    for (int tries = 0; tries < CLAIM_TRIES; tries++) {
        int fd = open(o->lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0666);
        if (fd < 0)
            return error_set(e, "cannot write results to %s: %s", o->path, strerror(errno));
        struct stat held, named;
        if (fstat(fd, &held) != 0 || !S_ISREG(held.st_mode)) {
            close(fd);
            return error_set(e, "%s is not a regular file (anywoli locks its output with it)",
                             o->lock);
        }
        struct flock fl = { 0 };
        fl.l_type = F_WRLCK;
        fl.l_whence = SEEK_SET;
        if (fcntl(fd, F_SETLK, &fl) != 0) {
            int err = errno;
            char holder[HOLDER_MAX];
            describe_holder(fd, holder, sizeof holder);
            close(fd);
            if (err == EACCES || err == EAGAIN)
                return error_set(e, "%s is in use by %s: wait for it to end, or stop it first",
                                 o->path, holder);
            return error_set(e, "cannot lock %s: %s", o->lock, strerror(err));
        }
        if (stat(o->lock, &named) == 0 && named.st_dev == held.st_dev &&
            named.st_ino == held.st_ino) {
            write_holder(fd, what);
            o->lock_fd = fd;
            hold(o);
            return 0;
        }
        close(fd);
    }
    return error_set(e, "cannot lock %s: it keeps being replaced", o->lock);
}

static int take_lock(Output *o, const char *what, Error *e)
{
    sigset_t old;
    block_stops(&old);
    int rc = take_lock_blocked(o, what, e);
    unblock_stops(&old);
    return rc;
}

int output_claim(Output *o, const char *path, bool force, bool read_too, const char *what,
                 Error *e)
{
    memset(o, 0, sizeof *o);
    o->lock_fd = -1;
    o->force = force;
    o->what = what;
    o->path = strdup(path);
    o->partial = output_name(path, ".partial");
    o->journal = output_name(path, ".journal");
    o->lock = output_name(path, ".lock");
    if (!o->path || !o->partial || !o->journal || !o->lock)
        return error_set(e, "out of memory");
    struct stat st;
    /* Checked before the lock too, so that a device is refused without a lock beside it. */
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return refuse_not_regular(path, st.st_mode, e);
    /* Before the lock, which is a file of the output's: an input named as this output is
     * refused without a trace. */
    if (door_note_output(path, read_too, e) != 0)
        return -1;
    if (take_lock(o, what, e) != 0)
        return -1;
    if (lstat(path, &st) == 0) {
        if (!S_ISREG(st.st_mode))
            return refuse_not_regular(path, st.st_mode, e);
        o->had_file = true;
        o->dev = st.st_dev;
        o->ino = st.st_ino;
        o->ctime = st.st_ctim;
    }
    return 0;
}

int output_clear_leftover(const Output *o, bool *removed, Error *e)
{
    struct stat st;
    *removed = false;
    if (lstat(o->partial, &st) != 0)
        return 0;
    if (!S_ISREG(st.st_mode))
        return refuse_not_regular(o->partial, st.st_mode, e);
    if (unlink(o->partial) != 0 && errno != ENOENT)
        return error_set(e, "cannot remove %s, left by an interrupted %s: %s", o->partial,
                         o->what, strerror(errno));
    *removed = true;
    return 0;
}

/* rename(from, to) that fails with EEXIST when `to` exists, on any file system. */
static int rename_noreplace(const char *from, const char *to)
{
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
        return -1;
    /* No RENAME_NOREPLACE here (NFS, for one): a hard link fails as atomically if `to`
     * exists; then the old name goes. */
    if (link(from, to) == 0)
        return unlink(from) == 0 || errno == ENOENT ? 0 : -1;
    if (errno != EPERM && errno != EOPNOTSUPP && errno != ENOSYS)
        return -1;
    /* Nor hard links: look, then rename (the claim keeps other anywoli processes out). */
    if (exists(to)) {
        errno = EEXIST;
        return -1;
    }
    return rename(from, to);
}

int output_publish(const Output *o, const char *from, Error *e)
{
    struct stat st;
    int rc;
    if (lstat(o->path, &st) == 0) {
        bool claimed = o->force && o->had_file && S_ISREG(st.st_mode) &&
                       st.st_dev == o->dev && st.st_ino == o->ino &&
                       st.st_ctim.tv_sec == o->ctime.tv_sec &&
                       st.st_ctim.tv_nsec == o->ctime.tv_nsec;
        if (!claimed)
            return error_set(e, "%s was %s while anywoli %s was writing it, and is left as "
                             "it is; the complete file is %s", o->path,
                             o->had_file ? "replaced" : "created", o->what, from);
        rc = rename(from, o->path);
    } else {
        rc = rename_noreplace(from, o->path);
        if (rc != 0 && errno == EEXIST)
            return error_set(e, "%s was created while anywoli %s was writing it, and is left "
                             "as it is; the complete file is %s", o->path, o->what, from);
    }
    if (rc != 0)
        return error_set(e, "cannot rename %s to %s: %s", from, o->path, strerror(errno));
    output_flush_folder(o->path);
    return 0;
}

static void remove_partials_at_exit(void)
{
    for (int i = 0; i < STREAMS_MAX; i++)
        if (open_partials[i])
            unlink(open_partials[i]);
}

static void watch_partial(const char *partial)
{
    static bool registered;
    if (!registered)
        registered = atexit(remove_partials_at_exit) == 0;
    for (int i = 0; i < STREAMS_MAX; i++)
        if (!open_partials[i]) {
            open_partials[i] = partial;
            break;
        }
}

static void unwatch_partial(const char *partial)
{
    for (int i = 0; i < STREAMS_MAX; i++)
        if (open_partials[i] == partial)
            open_partials[i] = NULL;
}

void output_discard_on_stop(const Output *o)
{
    watch_partial(o->partial);
}

FILE *output_stream_open(Output *o, Error *e)
{
    return door_create_stream(o->partial, e);
}

/* Why writes to f failed, when stdio's errno is long gone: a byte written again to the
 * partial file, which is removed anyway, meets the same full disk or size limit. */
static int write_failure(FILE *f)
{
    return write(fileno(f), "", 1) < 0 ? errno : EIO;
}

int output_stream_close(Output *o, FILE *f, int rc, Error *e)
{
    if (rc == 0 && (fflush(f) != 0 || ferror(f)))
        rc = error_set(e, "%s: cannot write: %s", o->partial, strerror(write_failure(f)));
    if (fclose(f) != 0 && rc == 0)
        rc = error_set(e, "%s: cannot write: %s", o->partial, strerror(errno));
    if (rc == 0)
        rc = output_flush_file(o->partial, e);
    if (rc == 0)
        rc = output_publish(o, o->partial, e);
    if (rc != 0)
        unlink(o->partial);
    return rc;
}

void output_release(Output *o)
{
    sigset_t old;
    block_stops(&old);
    unhold(o);
    if (o->partial)
        unwatch_partial(o->partial);
    if (o->path)
        door_forget_output(o->path);
    if (o->lock_fd >= 0) {
        /* Removed while still held: a process that opened it meanwhile sees the name gone
         * once it has the lock, and takes the name anew (take_lock). */
        unlink(o->lock);
        close(o->lock_fd);
    }
    unblock_stops(&old);
    free(o->path);
    free(o->partial);
    free(o->journal);
    free(o->lock);
    memset(o, 0, sizeof *o);
    o->lock_fd = -1;
}

int output_flush_file(const char *path, Error *e)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    int rc = fd < 0 ? -1 : fsync(fd);
    if (rc != 0)
        error_set(e, "%s: flush to disk failed: %s", path, strerror(errno));
    if (fd >= 0)
        close(fd);
    return rc;
}

void output_flush_folder(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    int fd = dir ? open(dir, O_RDONLY | O_CLOEXEC) : -1;
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(dir);
}

/* Remove a file that may be absent; false on another failure. */
static bool remove_if_there(const char *path)
{
    return unlink(path) == 0 || errno == ENOENT;
}

int output_check_leftovers(const Output *o, bool resume, const char *what, bool *resuming,
                           Error *e)
{
    bool had = exists(o->partial) || exists(o->journal);
    *resuming = false;
    if (resume && !o->force && exists(o->path) && exists(o->journal) && !exists(o->partial))
        return 1;
    if (resume && !o->force && exists(o->path) && !had)
        return error_set(e, "nothing to resume: %s is finished (no %s or %s is left); --force "
                         "replaces it", o->path, o->partial, o->journal);
    if (exists(o->path) && !o->force)
        return output_refuse_existing(o->path, e);
    if (had && !resume && !o->force)
        return error_set(e, "%s is left from an interrupted %s (--resume continues it, --force "
                         "starts again)", exists(o->partial) ? o->partial : o->journal, what);
    if (resume && exists(o->journal)) {
        *resuming = true;
        return 0;
    }
    if (resume && had)
        return error_set(e, "cannot resume: %s has no journal %s (--force starts again)",
                         o->partial, o->journal);
    if (had && (!remove_if_there(o->partial) || !remove_if_there(o->journal)))
        return error_set(e, "cannot remove the interrupted %s's files: %s", what,
                         strerror(errno));
    return 0;
}

/* A leftover journal's batches are only counted by the scan, not used. */
static int ignore_batch(void *ctx, uint32_t job, uint64_t start, uint32_t n,
                        const unsigned char *rows, Error *e)
{
    (void)ctx, (void)job, (void)start, (void)n, (void)rows, (void)e;
    return 0;
}

int output_sealed_leftover(const Output *o, size_t row_bytes, const char *fingerprint,
                           Error *e)
{
    Journal j;
    JournalScan scan;
    int rc = journal_resume(&j, o->journal, row_bytes, fingerprint, ignore_batch, NULL, &scan,
                            e);
    journal_close(&j);
    if (rc == -1)
        return -1;
    if (rc != 0 || !scan.sealed)
        return output_refuse_existing(o->path, e), 0;
    if (!remove_if_there(o->journal))
        return error_set(e, "cannot remove %s: %s", o->journal, strerror(errno));
    output_flush_folder(o->journal);
    return 1;
}
