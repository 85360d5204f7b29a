/* cmd_perft.c: `anywoli perft`, move-path counts by depth. */
#include <inttypes.h>
#include <stdio.h>

#include "cli.h"
#include "commands.h"
#include "perft.h"

enum { OPT_POSITION = OPT_FIRST_FREE, OPT_STATS };

static const char perft_usage[] =
    "usage: anywoli perft [variant options] [--position APN] [--stats] DEPTH\n\n"
    "Print `perft <d> <count>` for d = 1 .. DEPTH: the move sequences of exactly d\n"
    "plies.\n"
    "A game that ends earlier adds nothing deeper; an endless move is not a path.\n\n"
    "  --position APN   start from this position (default: the variant's start)\n"
    "  --stats          also print laps, captures, games ended and endless moves\n"
    "                   (stderr)\n\n";

int cmd_perft(int argc, char **argv)
{
    static const struct option own[] = {
        { "position", required_argument, NULL, OPT_POSITION },
        { "stats", no_argument, NULL, OPT_STATS },
        { NULL, 0, NULL, 0 },
    };
    VariantText vo = { 0 };
    const char *apn = NULL;
    int stats = 0, c;

    while ((c = cli_next_option(argc, argv, "", own, &vo)) != -1) {
        switch (c) {
        case OPT_POSITION: apn = optarg; break;
        case OPT_STATS: stats = 1; break;
        case OPT_HELP: printf("%s%s", perft_usage, cli_variant_help()); return 0;
        }
    }
    if (optind != argc - 1)
        die("expected one DEPTH (see --help)");
    int depth = (int)cli_number("DEPTH", argv[optind], 1, 64);
    Variant v;
    Position p;
    cli_variant_position(&vo, apn, &v, &p);

    for (int d = 1; d <= depth; d++) {
        PerftStats st = { 0 };
        uint64_t n = perft(&v, &p, d, stats ? &st : NULL);
        printf("perft %d %" PRIu64 "\n", d, n);
        fflush(stdout);
        if (stats)
            fprintf(stderr, "depth %d: laps %" PRIu64 " captures %" PRIu64 " ended %" PRIu64
                    " endless %" PRIu64 "\n", d, st.laps, st.captures, st.ended, st.endless);
    }
    return 0;
}
