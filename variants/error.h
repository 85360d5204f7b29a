/* error.h: one-line error messages returned by parsers instead of asserting. */
#ifndef ANYWOLI_ERROR_H
#define ANYWOLI_ERROR_H

#include <stddef.h>

/* Text of the last error: one line, no trailing newline, no program name. */
typedef struct Error {
    char msg[1024];   /* room for a message quoting an external agent's spec (its paths) */
} Error;

/* Format an error into e (if e is not NULL) and return -1, so callers can `return error_set(...)`. */
int error_set(Error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
