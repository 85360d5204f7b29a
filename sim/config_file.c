/* config_file.c: a libconfig file read with one-line `FILE:LINE: key: what` errors, what every
 * config loader of the lab shares (the run config's, config.c, and the tuning's,
 * tune_config.c): the text read (only a regular file, never a results file), its @includes
 * and literals checked before libconfig sees them, syntax errors with a hint, whole numbers
 * in range, a key table's names for messages. It knows nothing of experiments or tunings. */
#include "config_file.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <libconfig.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "door.h"

const char *config_keys_text(const ConfigKey *t, int n, unsigned place, char *out, size_t size)
{
    int total = 0, seen = 0;
    for (int i = 0; i < n; i++)
        total += (t[i].places & place) != 0;
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < n && len < size; i++) {
        if (!(t[i].places & place))
            continue;
        seen++;
        const char *sep = seen == 1 ? "" : seen == total ? " or " : ", ";
        int w = snprintf(out + len, size - len, "%s%s", sep, t[i].name);
        len += w > 0 ? (size_t)w : 0;
    }
    return out;
}

/* Keep a message on one line: control characters quoted from the input become '?'. */
void config_one_line(char *msg)
{
    for (; *msg; msg++)
        if ((unsigned char)*msg < 0x20 || *msg == 0x7f)
            *msg = '?';
}

int config_error_v(Error *e, const char *label, int line, const char *key, const char *fmt,
                   va_list ap)
{
    char what[sizeof e->msg];
    vsnprintf(what, sizeof what, fmt, ap);
    if (key)
        error_set(e, "%s:%d: %s: %s", label, line, key, what);
    else
        error_set(e, "%s:%d: %s", label, line, what);
    if (e)
        config_one_line(e->msg);
    return -1;
}

/* The text of line `line` (1-based) of text, and its length in *len; NULL past the end. */
static const char *line_of(const char *text, int line, size_t *len)
{
    for (int at = 1; at < line && text; at++) {
        text = strchr(text, '\n');
        text = text ? text + 1 : NULL;
    }
    if (text)
        *len = strcspn(text, "\n");
    return text;
}

/* Whether word (n bytes) is one libconfig takes unquoted: true or false, in any case. */
static bool bare_boolean(const char *word, size_t n)
{
    return (n == 4 && strncasecmp(word, "true", 4) == 0) ||
           (n == 5 && strncasecmp(word, "false", 5) == 0);
}

/* Characters of a libconfig setting name. */
static const char name_chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";

/* If a setting `key = word` (or `key = [word, ...]`) with an unquoted word starts at c, the
 * hint for it into hint (see unquoted_hint) and true; else false. */
static bool unquoted_setting(const char *c, char *hint, size_t size)
{
    const char *key = c;
    size_t key_len = strspn(key, name_chars);
    c += key_len;
    c += strspn(c, " \t");
    if (key_len == 0 || !isalpha((unsigned char)*key) || (*c != '=' && *c != ':'))
        return false;
    c++;
    c += strspn(c, " \t");
    bool list = *c == '[' || *c == '(';
    if (list)
        c += 1 + strspn(c + 1, " \t");
    size_t word = strcspn(c, list ? ";#,])}" : ";#])}");
    while (word > 0 && isspace((unsigned char)c[word - 1]))
        word--;
    if (word == 0 || !isalpha((unsigned char)*c) || bare_boolean(c, word))
        return false;
    bool agent = strncmp(key, "agent", 5) == 0 ||
                 (key_len == 8 && strncmp(key, "opponent", 8) == 0);
    const char *open = list ? "[" : "", *more = list ? ", ...]" : "";
    snprintf(hint, size,
             ": %.*s = %s%.*s%s: %s are strings in double quotes (%.*s = %s\"%.*s\"%s;)",
             (int)key_len, key, open, (int)word, c, more,
             agent ? "agent specs" : "text values", (int)key_len, key, open, (int)word, c, more);
    return true;
}

/* A hint for a syntax error on a line that sets a key to an unquoted word (`agent_a =
 * random;`, or a list of such words), wherever on the line: `: agent_a = random: agent specs
 * are strings in double quotes (agent_a = "random";)`, into hint; "" when there is none. */
static void unquoted_hint(const char *line, size_t len, char *hint, size_t size)
{
    char text[512];
    snprintf(text, sizeof text, "%.*s", (int)len, line);
    hint[0] = '\0';
    bool quoted = false;
    for (const char *c = text; *c && *c != '#'; c++) {
        if (*c == '"')
            quoted = !quoted;
        bool starts = c == text || !strchr(name_chars, c[-1]);
        if (!quoted && starts && unquoted_setting(c, hint, size))
            return;
    }
}

int config_syntax_error(Error *e, const char *label, const struct config_t *cfg,
                        const char *text)
{
    int line = config_error_line(cfg);
    const char *why = config_error_text(cfg);
    size_t len = 0;
    const char *at = line_of(text, line, &len);
    char hint[700] = "";
    if (at)
        unquoted_hint(at, len, hint, sizeof hint);
    if (strcmp(why, "syntax error") != 0)
        return error_set(e, "%s:%d: syntax error: %s%s", label, line, why, hint);
    return error_set(e, "%s:%d: syntax error%s", label, line, hint);
}

/* A setting's type in words, for messages. */
const char *config_type_words(int type)
{
    switch (type) {
    case CONFIG_TYPE_INT: case CONFIG_TYPE_INT64: return "a whole number";
    case CONFIG_TYPE_FLOAT: return "a number with a fraction";
    case CONFIG_TYPE_STRING: return "a string";
    case CONFIG_TYPE_BOOL: return "true or false";
    case CONFIG_TYPE_GROUP: return "a group";
    case CONFIG_TYPE_ARRAY: case CONFIG_TYPE_LIST: return "a list";
    default: return "something else";
    }
}

/* Skip a comment or a string starting at p (counting lines); p itself if neither. */
static const char *skip_comment_or_string(const char *p, int *line)
{
    if (*p == '#' || (p[0] == '/' && p[1] == '/')) {
        while (*p && *p != '\n')
            p++;
    } else if (p[0] == '/' && p[1] == '*') {
        for (p += 2; *p && !(p[0] == '*' && p[1] == '/'); p++)
            *line += *p == '\n';
        p += *p ? 2 : 0;
    } else if (*p == '"') {
        for (p++; *p && *p != '"'; p++) {
            if (*p == '\\' && p[1])
                p++;
            *line += *p == '\n';
        }
        p += *p ? 1 : 0;
    }
    return p;
}

/* Set `LABEL:LINE: KEY: what` through config_error_v and return -1. */
static int located_error(Error *e, const char *label, int line, const char *key,
                         const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int located_error(Error *e, const char *label, int line, const char *key,
                         const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    config_error_v(e, label, line, key, fmt, ap);
    va_end(ap);
    return -1;
}

/* Whether the whole-number literal s (sign, digits; no L) fits, and in how many bits: 64
 * when it fits int64_t, 32 when it also fits int32_t, 0 when it fits neither. */
static int literal_bits(const char *s, bool hex)
{
    errno = 0;
    if (hex) {
        unsigned long long u = strtoull(s, NULL, 16);
        return errno == ERANGE || u > INT64_MAX ? 0 : u > INT32_MAX ? 64 : 32;
    }
    long long x = strtoll(s, NULL, 10);
    return errno == ERANGE ? 0 : x > INT32_MAX || x < INT32_MIN ? 64 : 32;
}

int config_check_int_literals(const char *text, const char *label, Error *e)
{
    int line = 1;
    char key[64] = "value";
    const char *p = text;
    while (*p) {
        const char *after = skip_comment_or_string(p, &line);
        if (after != p) {
            p = after;
        } else if (*p == '\n') {
            line++;
            p++;
        } else if (isalpha((unsigned char)*p) || *p == '*') {
            const char *s = p;
            while (isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == '*')
                p++;
            snprintf(key, sizeof key, "%.*s", (int)(p - s), s);
        } else if (isdigit((unsigned char)*p) || ((*p == '-' || *p == '+') &&
                                                  isdigit((unsigned char)p[1]))) {
            const char *s = p;
            p += *p == '-' || *p == '+';
            bool hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
            p += hex ? 2 : 0;
            while (hex ? isxdigit((unsigned char)*p) : isdigit((unsigned char)*p))
                p++;
            if (!hex && (*p == '.' || *p == 'e' || *p == 'E')) {   /* a float: not ours */
                while (isalnum((unsigned char)*p) || *p == '.' || *p == '+' || *p == '-')
                    p++;
                continue;
            }
            char number[48];   /* longer than any literal that fits 64 bits (bar zeros) */
            bool too_long = p - s >= (long)sizeof number;
            snprintf(number, sizeof number, "%.*s", (int)(p - s), s);
            bool wide = *p == 'L';
            while (*p == 'L')
                p++;
            int bits = too_long ? 0 : literal_bits(number, hex);
            if (bits == 0)
                return located_error(e, label, line, key, "%.*s does not fit a 64-bit integer "
                                     "(%" PRId64 " to %" PRId64 ")", (int)(p - s), s,
                                     INT64_MIN, INT64_MAX);
            if (bits == 64 && !wide)
                return located_error(e, label, line, key, "%s is too large for a plain integer, "
                                     "which libconfig wraps; write %sL (a 64-bit integer)",
                                     number, number);
        } else {
            p++;
        }
    }
    return 0;
}

/* Whether the bytes after a UTF-8 lead byte are in range (no overlong forms, surrogates or
 * code points beyond U+10FFFF, as strict decoders such as Python's require). */
static bool utf8_second_ok(unsigned char lead, unsigned char second)
{
    if (lead == 0xe0)
        return second >= 0xa0;
    if (lead == 0xed)
        return second < 0xa0;
    if (lead == 0xf0)
        return second >= 0x90;
    if (lead == 0xf4)
        return second < 0x90;
    return true;
}

/* The line of the first byte that is not valid UTF-8, or 0 if the text is valid. */
int config_bad_utf8_line(const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    int line = 1;
    while (*p) {
        unsigned char lead = *p;
        int n = lead < 0x80 ? 0 : lead >= 0xc2 && lead <= 0xdf ? 1 : (lead & 0xf0) == 0xe0 ? 2
                : lead >= 0xf0 && lead <= 0xf4 ? 3 : -1;
        if (n < 0 || (n > 0 && !utf8_second_ok(lead, p[1])))
            return line;
        line += lead == '\n';
        p++;
        for (int i = 0; i < n; i++, p++)
            if ((*p & 0xc0) != 0x80)
                return line;
    }
    return 0;
}

int config_line_of(const struct config_setting_t *s)
{
    for (; s; s = config_setting_parent(s))
        if (config_setting_source_line(s) > 0)
            return (int)config_setting_source_line(s);
    return 1;
}

int config_get_int(const struct config_setting_t *s, const char *label, const char *key,
                   int64_t lo, int64_t hi, int64_t *out, Error *e)
{
    int type = config_setting_type(s);
    if (type != CONFIG_TYPE_INT && type != CONFIG_TYPE_INT64)
        return located_error(e, label, config_line_of(s), key,
                             "expected a whole number, not %s",
                             config_type_words(type));
    long long x = config_setting_get_int64(s);
    if (x < lo || x > hi)
        return located_error(e, label, config_line_of(s), key,
                             "%lld is out of range (%lld to %lld)", x,
                             (long long)lo, (long long)hi);
    *out = x;
    return 0;
}

int config_refuse_other_file(const char *path, FILE *f, Error *e)
{
    static const char hdf5[8] = { '\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n' };
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode))
        return 0;   /* a pipe cannot be read twice; its text's own errors will tell */
    char head[sizeof hdf5];
    size_t got = fread(head, 1, sizeof head, f);
    rewind(f);
    if (got == sizeof hdf5 && memcmp(head, hdf5, sizeof hdf5) == 0)
        return error_set(e, "%s: a results file (HDF5), not a config: `anywoli analyze %s` "
                         "reads it", path, path);
    return 0;
}

int config_refuse_other_kind(const char *label, const struct config_t *cfg, const char *kind,
                             Error *e)
{
    const config_setting_t *root = config_root_setting(cfg);
    bool experiment = strcmp(kind, "experiment") == 0;
    const char *other_key = experiment ? "weights" : "jobs", *own_key = experiment ? "jobs"
                                                                                  : "weights";
    const config_setting_t *s = config_setting_get_member(root, other_key);
    if (!s || config_setting_get_member(root, own_key))
        return 0;
    return located_error(e, label, config_line_of(s), other_key, "this is %s (it has `%s`), "
                        "not %s: `anywoli %s %s` reads it", experiment ? "a tuning" :
                        "an experiment", other_key, experiment ? "an experiment" : "a tuning",
                        experiment ? "tune" : "run", label);
}

int config_read_text(const char *path, size_t max_bytes, char **text, Error *e)
{
    *text = NULL;
    int fd = door_read_open(path, e);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "rb");
    if (!f) {
        if (fd >= 0)
            close(fd);
        return fd < 0 ? -1 : error_set(e, "%s: cannot read: %s", path, strerror(errno));
    }
    if (config_refuse_other_file(path, f, e) != 0) {
        fclose(f);
        return -1;
    }
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (cap - len < 4096) {
            cap = cap ? 2 * cap : 8192;
            char *grown = cap <= 2 * max_bytes + 8192 ? realloc(buf, cap + 1) : NULL;
            if (!grown) {
                free(buf);
                fclose(f);
                return error_set(e, "%s: too large or out of memory", path);
            }
            buf = grown;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got > 0 && len <= max_bytes);
    bool bad = ferror(f) || len > max_bytes || memchr(buf, '\0', len) != NULL;
    fclose(f);
    buf[len] = '\0';
    if (bad) {
        free(buf);
        return error_set(e, "%s: cannot read (an I/O error, a NUL byte, or over %zu MiB)", path,
                         max_bytes >> 20);
    }
    *text = buf;
    return 0;
}

/* The file named by the @include directive at p (just past its opening quote), unescaped
 * as libconfig reads it (\\ and \"), into name; false if the line has no closing quote. */
static bool include_name(const char *p, char *name, size_t size)
{
    size_t n = 0;
    for (; *p && *p != '"' && *p != '\n'; p++) {
        if (*p == '\\' && (p[1] == '\\' || p[1] == '"'))
            p++;
        if (n + 1 < size)
            name[n++] = *p;
    }
    name[n] = '\0';
    return *p == '"';
}

/* Where the line at p holds an @include directive (spaces, `@include`, spaces, a quote): just
 * past the quote, or NULL. */
static const char *include_at(const char *p)
{
    p += strspn(p, " \t");
    if (strncmp(p, "@include", 8) != 0 || (p[8] != ' ' && p[8] != '\t'))
        return NULL;
    p += 8 + strspn(p + 8, " \t");
    return *p == '"' ? p + 1 : NULL;
}

int config_check_includes(const char *text, const char *label, int depth, Error *e)
{
    int line = 1;
    for (const char *p = text; *p; line++) {
        const char *q = include_at(p);
        char name[4096];
        if (q && include_name(q, name, sizeof name)) {
            Error why;
            char *inner = NULL;
            if (depth >= CONFIG_INCLUDE_DEPTH)
                return error_set(e, "%s:%d: @include \"%s\": includes nested over %d deep",
                                 label, line, name, CONFIG_INCLUDE_DEPTH);
            if (config_read_text(name, CONFIG_MAX_TEXT, &inner, &why) != 0)
                return error_set(e, "%s:%d: @include: %s", label, line, why.msg);
            int rc = config_check_includes(inner, name, depth + 1, e);
            free(inner);
            if (rc != 0)
                return -1;
        }
        const char *end = strchr(p, '\n');
        p = end ? end + 1 : p + strlen(p);
    }
    return 0;
}
