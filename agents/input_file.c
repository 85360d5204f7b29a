/* input_file.c: opening an input that must be a regular file, without blocking. */
#include "input_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int input_file_open(const char *path, Error *e)
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
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0)
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    return fd;
}

int input_file_check(const char *path, Error *e)
{
    int fd = input_file_open(path, e);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}
