/* cli.c: shared command-line handling. */
#define _GNU_SOURCE             /* fopencookie */
#include "cli.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cluster.h"
#include "nearest.h"

const char *cli_command = "anywoli";
bool cli_silent = false;

/* Set by die and fail: their exit reports its own failure, so standard output is not
 * checked on the way out. */
static bool exiting_on_error = false;

/* Print "anywoli CMD: message" (naming the rank under MPI, past rank 0) and exit with the
 * given status. */
static noreturn void vexit(int status, const char *fmt, va_list ap)
{
    exiting_on_error = true;
    if (cli_silent)
        exit(status);
    if (cluster_rank() > 0)
        fprintf(stderr, "%s (rank %d): ", cli_command, cluster_rank());
    else
        fprintf(stderr, "%s: ", cli_command);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    exit(status);
}

void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vexit(2, fmt, ap);
}

void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vexit(1, fmt, ap);
}

/* The reason the first write to standard output failed, kept where it happened: stdio's
 * errno is long overwritten by the time the loss is noticed. */
static int stdout_errno;

static ssize_t stdout_write(void *cookie, const char *buf, size_t size)
{
    (void)cookie;
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(1, buf + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (!stdout_errno)
                stdout_errno = n < 0 ? errno : EIO;
            return done > 0 ? (ssize_t)done : -1;
        }
        done += (size_t)n;
    }
    return (ssize_t)done;
}

void cli_stdout_init(void)
{
    cookie_io_functions_t io = { .write = stdout_write };
    FILE *f = fopencookie(NULL, "w", io);
    if (!f)
        return;   /* the plain stream then: a loss is still caught, its reason less exact */
    /* stdio's own choice for file descriptor 1: lines to a terminal, blocks elsewhere */
    setvbuf(f, NULL, isatty(1) ? _IOLBF : _IOFBF, 0);
    stdout = f;
}

/* Whether something written to standard output was lost (a full disk, a closed file):
 * flushed, then its error flag; *err says why. */
static bool stdout_lost(int *err)
{
    errno = 0;
    bool lost = fflush(stdout) != 0 || ferror(stdout);
    *err = stdout_errno ? stdout_errno : errno ? errno : EIO;
    return lost;
}

void cli_flush_stdout(void)
{
    int err;
    if (stdout_lost(&err))
        fail("cannot write standard output: %s", strerror(err));
}

void cli_check_stdout_at_exit(void)
{
    int err;
    if (exiting_on_error || !stdout_lost(&err))
        return;
    if (!cli_silent)
        fprintf(stderr, "%s: cannot write standard output: %s\n", cli_command, strerror(err));
    _exit(1);   /* exit() may not be called again from an atexit handler */
}

void cli_agree_or_die(bool ok, const char *msg)
{
    if (cluster_all(ok))
        return;
    /* When rank 0 failed, the others most likely failed the same way: it speaks for all. */
    int leader_ok = ok;
    cluster_broadcast(&leader_ok, sizeof leader_ok);
    if (ok)
        exit(2);
    if (!leader_ok && !cluster_leads())
        exit(2);
    cli_silent = false;
    die("%s", msg);
}

int cli_try_claim_output(Output *o, const char *path, bool force, const char *what, Error *e)
{
    struct stat st;
    bool removed = false;
    int rc = output_claim(o, path, force, false, what, e);
    if (rc == 0 && !force && lstat(path, &st) == 0)
        rc = output_refuse_existing(path, e);
    if (rc == 0)
        rc = output_clear_leftover(o, &removed, e);
    if (rc != 0)
        output_release(o);
    else
        output_discard_on_stop(o);
    if (rc == 0 && removed && !cli_silent)
        fprintf(stderr, "%s: removed %s, left by an interrupted %s (it is written again)\n",
                cli_command, o->partial, what);
    return rc;
}

void cli_claim_output(Output *o, const char *path, bool force, const char *what)
{
    Error e;
    if (cli_try_claim_output(o, path, force, what, &e) != 0)
        die("%s", e.msg);
}

void cli_peer_timeout(const char *arg)
{
    cluster_set_peer_timeout((double)cli_number("--peer-timeout", arg, 0, 7 * 24 * 3600));
}

/* Parameter p's option name (final-four). The command line runs on one thread, so one copy
 * of the names serves every call. */
static const char *option_name(int p)
{
    static char names[VP_NB][32];
    variant_option_name((VariantParam)p, names[p], sizeof names[p]);
    return names[p];
}

/* The getopt_long entries of the variant options and --help into opts; how many. */
static int variant_options(struct option *opts)
{
    int n = 0;
    opts[n++] = (struct option){ "variant", required_argument, NULL, OPT_VARIANT };
    for (int p = 0; p < VP_NB; p++)
        opts[n++] = (struct option){ option_name(p), required_argument, NULL, OPT_PARAM + p };
    opts[n++] = (struct option){ "help", no_argument, NULL, OPT_HELP };
    return n;
}

/* One option's line (or lines) of help: the option and its argument in a column, then what
 * it does, wrapped to 80 columns under itself. */
static size_t help_line(char *buf, size_t len, size_t used, const char *option, const char *what)
{
    enum { INDENT = 23, WIDTH = 80 };
    used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "  %-20s", option);
    size_t col = INDENT - 1;
    while (*what) {
        size_t word = strcspn(what, " ");
        if (col + 1 + word > WIDTH) {
            used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "\n%*s",
                                     INDENT - 1, "");
            col = INDENT - 1;
        }
        used += (size_t)snprintf(buf + used, used < len ? len - used : 0, " %.*s", (int)word,
                                 what);
        col += 1 + word;
        what += word + (what[word] == ' ');
    }
    return used + (size_t)snprintf(buf + used, used < len ? len - used : 0, "\n");
}

/* What parameter p's option does, with its values and default, into buf. */
static void param_help(int p, char *buf, size_t len)
{
    const VariantParamInfo *i = &variant_params[p];
    size_t used = (size_t)snprintf(buf, len, "%s", i->about);
    if (i->kind == VK_INT || i->kind == VK_INT64) {
        snprintf(buf + used, len - used, ", %" PRId64 " to %" PRId64 " (default %" PRId64 ")",
                 i->lo, i->hi, i->standard);
    } else if (i->kind == VK_BOOL) {
        snprintf(buf + used, len - used, " (default %s)", i->standard ? "yes" : "no");
    } else {
        for (int f = 0; f < FF_NB; f++)
            used += (size_t)snprintf(buf + used, len - used, "%s%s%s",
                                     f == 0 ? ": " : f == FF_NB - 1 ? " or " : ", ",
                                     final_four_name((FinalFour)f),
                                     f == i->standard ? " (default)" : "");
    }
}

const char *cli_variant_help(void)
{
    static char help[2048];
    size_t used = (size_t)snprintf(help, sizeof help, "%s",
        "Variant options (explicit options override the preset):\n"
        "  --variant NAME       anywoli (12 holes, 4 seeds), yit-nuri (7, 4) or yit-jani\n"
        "                       (13, 2)\n");
    for (int p = 0; p < VP_NB; p++) {
        char option[300], what[256];
        snprintf(option, sizeof option, "--%s %s", option_name(p), variant_params[p].arg);
        param_help(p, what, sizeof what);
        used = help_line(help, sizeof help, used, option, what);
    }
    help_line(help, sizeof help, used, "--help", "this text");
    return help;
}

/* Record a variant option; returns false if code is not one. */
static bool cli_variant_option(VariantText *t, int code, const char *arg)
{
    if (code == OPT_VARIANT) {
        t->preset = arg;
        return true;
    }
    if (code >= OPT_PARAM && code < OPT_PARAM + VP_NB) {
        t->value[code - OPT_PARAM] = arg;
        return true;
    }
    return false;
}

/* The long options of opts whose names start with name[0..len), as "--a or --b". */
static void options_starting(const struct option *opts, const char *name, size_t len,
                             char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; opts[i].name && used < size; i++)
        if (strncmp(opts[i].name, name, len) == 0)
            used += (size_t)snprintf(out + used, size - used, "%s--%s", used ? " or " : "",
                                     opts[i].name);
}

/* Die for the long option arg that getopt_long refused: one whose value is missing or that
 * takes none, a prefix of several, or an unknown one (with the nearest known option when it
 * looks like a slip). */
static noreturn void die_bad_long_option(const char *arg, const struct option *opts,
                                         bool missing_value)
{
    int len = (int)strcspn(arg + 2, "=");
    if (missing_value)
        die("option '%.*s' needs a value (see --help)", len + 2, arg);
    if (optopt)   /* getopt_long knew it: a value given to an option that takes none */
        die("option '%.*s' takes no value (see --help)", len + 2, arg);
    char found[200], word[64], hint[100];
    options_starting(opts, arg + 2, (size_t)len, found, sizeof found);
    if (len > 0 && found[0])
        die("ambiguous option '%.*s': %s (see --help)", len + 2, arg, found);
    snprintf(word, sizeof word, "%.*s", len, arg + 2);
    Nearest n;
    nearest_start(&n, word);
    for (int i = 0; opts[i].name; i++)
        nearest_consider(&n, opts[i].name, strlen(opts[i].name));
    die("unknown option '%.*s'%s (see --help)", len + 2, arg,
        nearest_hint(&n, "--", hint, sizeof hint));
}

/* Whether the long option arg is the one getopt_long refused: it names no option (optopt 0),
 * or one whose code is optopt. A short option refused inside a cluster ("-zq") leaves optind
 * on the cluster, so argv[optind - 1] is then the argument before it, perhaps a good long
 * option. */
static bool long_option_at_fault(const char *arg, const struct option *opts)
{
    if (optopt == 0)
        return true;
    size_t len = strcspn(arg + 2, "=");
    for (int i = 0; opts[i].name; i++)
        if (strncmp(opts[i].name, arg + 2, len) == 0 && opts[i].val == optopt)
            return true;
    return false;
}

/* Whether opts holds --help: a command whose options do also takes -h for it. */
static bool has_help(const struct option *opts)
{
    for (int i = 0; opts[i].name; i++)
        if (opts[i].val == OPT_HELP)
            return true;
    return false;
}

int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *opts)
{
    /* A leading ':' makes getopt_long tell a missing value (':') from an unknown option. */
    char so[32];
    bool short_help = has_help(opts) && !strchr(shortopts, 'h');
    snprintf(so, sizeof so, ":%s%s", shortopts, short_help ? "h" : "");
    opterr = 0;
    int c = getopt_long(argc, argv, so, opts, NULL);
    if (short_help && c == 'h')
        return OPT_HELP;
    if (c != '?' && c != ':')
        return c;
    const char *arg = optind > 0 && optind - 1 < argc ? argv[optind - 1] : "";
    if (strncmp(arg, "--", 2) == 0 && long_option_at_fault(arg, opts))
        die_bad_long_option(arg, opts, c == ':');
    if (c == ':')
        die("option '-%c' needs a value (see --help)", optopt);
    die("unknown option '-%c' (see --help)", optopt);
}

int cli_next_option(int argc, char **argv, const char *shortopts, const struct option *own,
                    VariantText *vt)
{
    struct option opts[CLI_VARIANT_OPTIONS_NB + CLI_OWN_OPTIONS_MAX + 1];
    int n = variant_options(opts), c, variant_n = n;
    for (int i = 0; own && own[i].name && i < CLI_OWN_OPTIONS_MAX; i++) {
        /* getopt takes the first entry of a name, the variant's: an own option of the same
         * name would never be seen, and what it was given silently lost. */
        for (int j = 0; j < variant_n; j++)
            if (strcmp(own[i].name, opts[j].name) == 0)
                fail("internal: the option --%s is the command's own and a variant option",
                     own[i].name);
        opts[n++] = own[i];
    }
    memset(&opts[n], 0, sizeof opts[n]);
    while ((c = cli_getopt(argc, argv, shortopts, opts)) != -1)
        if (!cli_variant_option(vt, c, optarg))
            return c;
    return -1;
}

/* Die with the message of a variant option at fault. */
static noreturn void die_variant(const VariantText *t, const VariantFault *f)
{
    Error e;
    variant_option_error(t, f, &e);
    die("%s", e.msg);
}

void cli_variant(const VariantText *t, Variant *v)
{
    VariantFault f;
    if (variant_from_text(t, v, &f) != 0)
        die_variant(t, &f);
}

void cli_variant_position(const VariantText *t, const char *apn, Variant *v, Position *p)
{
    Error e;
    VariantFault f;
    if (!apn) {
        cli_variant(t, v);
        pos_start(v, p);
        return;
    }
    if (variant_apply_text(t, v, &f) != 0)
        die_variant(t, &f);
    bool holes_given = t->preset || t->value[VP_HOLES];
    bool seeds_given = t->preset || t->value[VP_SEEDS];
    if (apn_parse(apn, v, holes_given, seeds_given, p, &e) != 0)
        die("--position: %s", e.msg);
}

long long cli_number(const char *option, const char *text, long long lo, long long hi)
{
    char *end;
    errno = 0;
    long long x = strtoll(text, &end, 10);
    if (errno || end == text || *end)
        die("%s: '%s' is not a whole number", option, text);
    if (x < lo || x > hi)
        die("%s: %lld is out of range (%lld to %lld)", option, x, lo, hi);
    return x;
}
