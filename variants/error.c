/* error.c: formatting of one-line errors. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>

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
