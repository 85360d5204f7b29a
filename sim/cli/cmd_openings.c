/* cmd_openings.c: `anywoli openings`, a balanced book of openings (the work is sim/book.c). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "book.h"
#include "cli.h"
#include "commands.h"
#include "door.h"
#include "output.h"

enum { OPT_PLIES = OPT_FIRST_FREE, OPT_DEPTH, OPT_NODES, OPT_WINDOW, OPT_MAX, OPT_THREADS,
       OPT_FORCE };

/* The depth searched when neither --depth nor --nodes is given. */
#define DEFAULT_DEPTH 6

/* The deepest search a node budget allows (alphabeta's own limit). */
#define NODES_DEPTH 64

static const char openings_usage[] =
    "usage: anywoli openings [variant options] --plies N [--depth D | --nodes K]\n"
    "                        [--window W] [--max M] [--threads T] [--force] -o BOOK\n\n"
    "A balanced book: every line of N plies from the start that does not end the game\n"
    "(the openings all:N) is valued by an alpha-beta search of the position it leads\n"
    "to (weights=plain at every depth, ties=first); the value is South's (the first\n"
    "player's) lead in seeds. The lines whose value lies within [-W, +W] are written\n"
    "to BOOK, one move list a line with its value as a comment, after a header saying\n"
    "how the book was made.\n"
    "Use it as `openings = \"file:BOOK\"`. BOOK is written as BOOK.partial and renamed\n"
    "when complete; the book is the same for any number of threads.\n\n"
    "  --plies N        the length of the lines (1 to 64)\n"
    "  --depth D        plies searched from each line's position (1 to 64; default 6)\n"
    "  --nodes K        instead of a depth: deepen until a search has generated K\n"
    "                   positions\n"
    "  --window W       keep |value| <= W seeds, to a hundredth (default 1)\n"
    "  --max M          keep at most M lines, the closest to 0 (ties by list order)\n"
    "  -o, --output BOOK\n"
    "                   the book file to write\n"
    "  --threads T      OpenMP threads (default: all)\n"
    "  --force          overwrite an existing BOOK\n\n";

/* --window W: a number of seeds from 0 to 10000, as hundredths (rounded down, so that a
 * value printed in the book with two decimals is kept exactly when it is within W). */
static int64_t window_option(const char *text)
{
    char *end;
    errno = 0;
    double w = strtod(text, &end);
    if (end == text || *end || errno || !isfinite(w) || w < 0 || w > 10000)
        die("--window: expected a number of seeds from 0 to 10000, got '%s'", text);
    return (int64_t)floor(w * BOOK_SCALE + 1e-6);
}

/* Write one argument as a shell would read it back: bare when it is plain, in single quotes
 * when it holds a character the shell treats specially, and in $'...' with escapes when it
 * holds a control character, so that the header stays one line whatever was typed. */
static void put_quoted(FILE *out, const char *arg)
{
    bool plain = *arg != '\0', control = false;
    for (const unsigned char *p = (const unsigned char *)arg; *p; p++) {
        control |= *p < 0x20 || *p == 0x7f;
        plain &= isalnum(*p) || strchr("%+,-./:=@_", *p) != NULL;
    }
    if (plain) {
        fputs(arg, out);
    } else if (!control) {
        fputc('\'', out);
        for (const char *p = arg; *p; p++) {
            if (*p == '\'')
                fputs("'\\''", out);   /* close, an escaped quote, open again */
            else
                fputc(*p, out);
        }
        fputc('\'', out);
    } else {
        fputs("$'", out);
        for (const unsigned char *p = (const unsigned char *)arg; *p; p++) {
            if (*p == '\'' || *p == '\\')
                fprintf(out, "\\%c", *p);
            else if (*p < 0x20 || *p == 0x7f)
                fprintf(out, "\\x%02x", *p);
            else
                fputc(*p, out);
        }
        fputc('\'', out);
    }
}

/* The command line as typed, quoted for a shell, for the book's header (one line). */
static char *command_line(int argc, char **argv)
{
    char *s = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&s, &len);
    if (!out)
        fail("out of memory");
    fputs("anywoli", out);
    for (int i = 0; i < argc; i++) {
        fputc(' ', out);
        put_quoted(out, argv[i]);
    }
    if (fclose(out) != 0 || !s)
        fail("out of memory");
    return s;
}

/* Write the book as BOOK.partial, flushed, and put it in place as BOOK. */
static int write_and_publish(const Book *b, const Variant *v, const BookSettings *s,
                             const char *cmd, Output *o, Error *e)
{
    FILE *f = output_stream_open(o, e);
    if (!f)
        return -1;
    return output_stream_close(o, f, book_write(b, v, s, cmd, f, e), e);
}

int cmd_openings(int argc, char **argv)
{
    static const struct option own[] = {
        { "plies", required_argument, NULL, OPT_PLIES },
        { "depth", required_argument, NULL, OPT_DEPTH },
        { "nodes", required_argument, NULL, OPT_NODES },
        { "window", required_argument, NULL, OPT_WINDOW },
        { "max", required_argument, NULL, OPT_MAX },
        { "output", required_argument, NULL, 'o' },
        { "threads", required_argument, NULL, OPT_THREADS },
        { "force", no_argument, NULL, OPT_FORCE },
        { NULL, 0, NULL, 0 },
    };
    VariantText vo = { 0 };
    BookSettings s = { .plies = 0, .depth = 0, .nodes = 0, .window = BOOK_SCALE, .max = 0 };
    long long threads = 0;
    const char *out = NULL;
    bool force = false;
    int c;
    while ((c = cli_next_option(argc, argv, "o:", own, &vo)) != -1) {
        switch (c) {
        case OPT_PLIES: s.plies = (int)cli_number("--plies", optarg, 1, OPENING_MAX_PLIES); break;
        case OPT_DEPTH: s.depth = (int)cli_number("--depth", optarg, 1, NODES_DEPTH); break;
        case OPT_NODES: s.nodes = cli_number("--nodes", optarg, 1, 1000000000000000LL); break;
        case OPT_WINDOW: s.window = window_option(optarg); break;
        case OPT_MAX: s.max = cli_number("--max", optarg, 1, OPENINGS_MAX_COUNT); break;
        case 'o': out = optarg; break;
        case OPT_THREADS: threads = cli_number("--threads", optarg, 1, 1024); break;
        case OPT_FORCE: force = true; break;
        case OPT_HELP: printf("%s%s", openings_usage, cli_variant_help()); return 0;
        }
    }
    if (optind < argc)
        die("unexpected argument '%s'", argv[optind]);
    if (s.plies == 0)
        die("--plies N is required");
    if (s.depth && s.nodes)
        die("--depth and --nodes: give one of them, not both");
    if (!out)
        die("-o BOOK is required");
    if (s.nodes)
        s.depth = NODES_DEPTH;
    else if (!s.depth)
        s.depth = DEFAULT_DEPTH;
    Variant v;
    Error e;
    cli_variant(&vo, &v);
    Output o;
    cli_claim_output(&o, out, force, "openings");
    if (threads)
        omp_set_num_threads((int)threads);
    Book b;
    if (book_make(&b, &v, &s, &e) != 0) {
        output_release(&o);
        die("%s", e.msg);
    }
    char *cmd = command_line(argc, argv);
    int status = write_and_publish(&b, &v, &s, cmd, &o, &e);
    free(cmd);
    output_release(&o);
    if (status == 0)
        printf("book %s: %lld of %lld lines kept (%lld within the window)\n", out,
               (long long)b.kept_count, (long long)b.lines.count, (long long)b.in_window);
    book_free(&b);
    if (status != 0)
        fail("%s", e.msg);
    return 0;
}
