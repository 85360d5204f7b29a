/* json.h: a small streaming JSON writer: objects, arrays, keys, numbers and strings, with
 * the commas and indentation kept for the caller, or on one line (JSON lines). Numbers that are not finite (NaN, +-inf)
 * are written as null, since JSON has no such values. */
#ifndef ANYWOLI_JSON_H
#define ANYWOLI_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stats.h"

#define JSON_DEPTH_MAX 32

/* A document being written. */
typedef struct Json {
    FILE *out;
    int depth;
    bool first[JSON_DEPTH_MAX];      /* no member written yet at this depth */
    bool after_key;                  /* a key was written: the value follows on its line */
    bool one_line;                   /* no newlines or indentation: a JSON line */
} Json;

/* Start a document on out: indented, or on one line (json_finish ends the line). */
void json_init(Json *j, FILE *out);
void json_init_line(Json *j, FILE *out);

/* Open and close an object or an array (as a value, or after json_key). */
void json_object_begin(Json *j);
void json_object_end(Json *j);
void json_array_begin(Json *j);
void json_array_end(Json *j);

/* A member's key inside an object; its value follows. */
void json_key(Json *j, const char *key);

/* Values. */
/* s as a JSON string literal on out (quotes, backslashes and control characters escaped),
 * and with in_script its '<' as \u003c too, so that no text can end an HTML script element
 * holding it. The one escaper of JSON text; json_string and json_key write with it. */
void json_quoted(FILE *out, const char *s, bool in_script);

void json_string(Json *j, const char *s);          /* NULL as null */
void json_double(Json *j, double x);               /* the shortest form that reads back as x
                                                     * (0.95, not 0.94999999999999996); null if
                                                     * not finite */
void json_uint(Json *j, uint64_t x);
void json_int(Json *j, int64_t x);
void json_bool(Json *j, bool b);
void json_null(Json *j);

/* Shorthands for a key with its value. */
void json_kv_string(Json *j, const char *key, const char *s);
void json_kv_double(Json *j, const char *key, double x);
void json_kv_uint(Json *j, const char *key, uint64_t x);
void json_kv_int(Json *j, const char *key, int64_t x);
void json_kv_bool(Json *j, const char *key, bool b);

/* An estimate with its interval, as every command's JSON writes one: key: {value, lo, hi}; and
 * those three members alone, inside an object the caller opened. */
void json_kv_estimate(Json *j, const char *key, Estimate x);
void json_estimate_members(Json *j, Estimate x);

/* End the document with a newline. */
void json_finish(Json *j);

#endif
