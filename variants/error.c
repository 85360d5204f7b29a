/* error.c: formatting of one-line errors, and the report of a failed check (check.h). */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

int error_set(Error *e, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Defined in every build, though only the checking build calls it, so that the default build
 * type-checks each CHECK against it. One fprintf for the line, so that two threads failing at
 * once do not interleave their words. */
void check_failed(const char *file, int line, const char *expr, const char *fmt, ...)
{
    char what[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s:%d: check failed: %s: %s\n", file, line, expr, what);
    fflush(stderr);
    abort();
}
