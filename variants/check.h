/* check.h: invariants checked in the checking build (-DANYWOLI_CHECKS=ON, docs/building.md)
 * and free in every other. Every layer includes this one macro, so a check reads the same
 * wherever it stands, and a failure says the same things: where, what was expected, and what
 * was found. */
#ifndef ANYWOLI_CHECK_H
#define ANYWOLI_CHECK_H

/* The build defines it to 1 for the checking build; elsewhere 0, so `#if ANYWOLI_CHECKS`
 * passes -Wundef. */
#ifndef ANYWOLI_CHECKS
#define ANYWOLI_CHECKS 0
#endif

/* Print "FILE:LINE: check failed: EXPR: DESCRIPTION" (the description printf-formatted, one
 * line) to stderr and abort, so a debugger or a core file shows the stack. */
_Noreturn void check_failed(const char *file, int line, const char *expr, const char *fmt, ...)
    __attribute__((format(printf, 4, 5), cold));

/* CHECK(expr, fmt, ...): in the checking build, when expr is false, check_failed with a
 * description formatted from fmt and its arguments, which are evaluated only then. In any
 * other build it compiles to nothing and evaluates nothing: the whole call stands inside
 * sizeof, which still type-checks it (a check that breaks shows in every build) and still
 * counts the variables it names as used (no -Wunused warnings in the default build). */
#if ANYWOLI_CHECKS
#define CHECK(expr, ...) \
    ((expr) ? (void)0 : check_failed(__FILE__, __LINE__, #expr, __VA_ARGS__))
#else
#define CHECK(expr, ...) \
    ((void)sizeof((expr) ? 0 : (check_failed(__FILE__, __LINE__, #expr, __VA_ARGS__), 0)))
#endif

#endif
