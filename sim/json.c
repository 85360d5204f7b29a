/* json.c: the streaming JSON writer. */
#include "json.h"

#include <math.h>
#include <stdlib.h>

void json_init(Json *j, FILE *out)
{
    j->out = out;
    j->depth = 0;
    j->first[0] = true;
    j->after_key = false;
    j->one_line = false;
}

void json_init_line(Json *j, FILE *out)
{
    json_init(j, out);
    j->one_line = true;
}

/* Before a value or a key: the comma and the newline with indentation, unless after a key. */
static void separate(Json *j)
{
    if (j->after_key) {
        j->after_key = false;
        return;
    }
    if (j->depth == 0)
        return;
    if (j->one_line) {
        if (!j->first[j->depth])
            fputc(',', j->out);
        j->first[j->depth] = false;
        return;
    }
    fputs(j->first[j->depth] ? "\n" : ",\n", j->out);
    j->first[j->depth] = false;
    for (int i = 0; i < j->depth; i++)
        fputs("  ", j->out);
}

/* Open a container with character c. */
static void open_container(Json *j, char c)
{
    separate(j);
    fputc(c, j->out);
    if (j->depth + 1 < JSON_DEPTH_MAX)
        j->depth++;
    j->first[j->depth] = true;
}

/* Close a container with character c, on its own line unless empty. */
static void close_container(Json *j, char c)
{
    bool empty = j->first[j->depth];
    if (j->depth > 0)
        j->depth--;
    if (!empty && !j->one_line) {
        fputc('\n', j->out);
        for (int i = 0; i < j->depth; i++)
            fputs("  ", j->out);
    }
    fputc(c, j->out);
}

void json_object_begin(Json *j)
{
    open_container(j, '{');
}

void json_object_end(Json *j)
{
    close_container(j, '}');
}

void json_array_begin(Json *j)
{
    open_container(j, '[');
}

void json_array_end(Json *j)
{
    close_container(j, ']');
}

void json_quoted(FILE *out, const char *s, bool in_script)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (in_script && *p == '<')
            fputs("\\u003c", out);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p == '\t')
            fputs("\\t", out);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

void json_key(Json *j, const char *key)
{
    separate(j);
    json_quoted(j->out, key, false);
    fputs(": ", j->out);
    j->after_key = true;
}

void json_string(Json *j, const char *s)
{
    separate(j);
    if (s)
        json_quoted(j->out, s, false);
    else
        fputs("null", j->out);
}

/* x in the fewest significant digits (15, 16, or 17, which always suffice) that strtod reads
 * back as x exactly: 0.95, not 0.94999999999999996. Below 15 digits, %g drops the trailing
 * zeros itself, so 15 is the shortest form of any number that has one of 15 digits or fewer. */
static void shortest_double(double x, char *buf, size_t len)
{
    for (int digits = 15; digits < 17; digits++) {
        snprintf(buf, len, "%.*g", digits, x);
        if (strtod(buf, NULL) == x)
            return;
    }
    snprintf(buf, len, "%.17g", x);
}

void json_double(Json *j, double x)
{
    char buf[32];
    separate(j);
    if (!isfinite(x)) {
        fputs("null", j->out);
        return;
    }
    shortest_double(x, buf, sizeof buf);
    fputs(buf, j->out);
}

void json_uint(Json *j, uint64_t x)
{
    separate(j);
    fprintf(j->out, "%llu", (unsigned long long)x);
}

void json_int(Json *j, int64_t x)
{
    separate(j);
    fprintf(j->out, "%lld", (long long)x);
}

void json_bool(Json *j, bool b)
{
    separate(j);
    fputs(b ? "true" : "false", j->out);
}

void json_null(Json *j)
{
    separate(j);
    fputs("null", j->out);
}

void json_kv_string(Json *j, const char *key, const char *s)
{
    json_key(j, key);
    json_string(j, s);
}

void json_kv_double(Json *j, const char *key, double x)
{
    json_key(j, key);
    json_double(j, x);
}

void json_kv_uint(Json *j, const char *key, uint64_t x)
{
    json_key(j, key);
    json_uint(j, x);
}

void json_kv_int(Json *j, const char *key, int64_t x)
{
    json_key(j, key);
    json_int(j, x);
}

void json_kv_bool(Json *j, const char *key, bool b)
{
    json_key(j, key);
    json_bool(j, b);
}

void json_estimate_members(Json *j, Estimate x)
{
    json_kv_double(j, "value", x.value);
    json_kv_double(j, "lo", x.ci.lo);
    json_kv_double(j, "hi", x.ci.hi);
}

void json_kv_estimate(Json *j, const char *key, Estimate x)
{
    json_key(j, key);
    json_object_begin(j);
    json_estimate_members(j, x);
    json_object_end(j);
}

void json_finish(Json *j)
{
    fputc('\n', j->out);
}
