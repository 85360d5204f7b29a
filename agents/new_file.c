/* new_file.c: creating a file afresh, never through a link (see new_file.h). */
#include "new_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int new_file_create(const char *path, Error *e)
{
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0666);
    if (fd < 0)
        return error_set(e, "%s: cannot create: %s", path, strerror(errno));
    return fd;
}

FILE *new_file_stream(const char *path, Error *e)
{
    int fd = new_file_create(path, e);
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
