/* cmd_move.c: `anywoli move`, play moves by hand and see each result in APN. */
#include <stdio.h>

#include "cli.h"
#include "commands.h"

enum { OPT_POSITION = OPT_FIRST_FREE };

static const char move_usage[] =
    "usage: anywoli move [variant options] [--position APN] MOVE...\n\n"
    "Play the moves in order (absolute hole indices 0 .. 2H-1) and print, for each,\n"
    "`<APN after the move> <event>`, the event being next, extra, over or endless.\n\n"
    "  --position APN   start from this position (default: the variant's start)\n\n";

int cmd_move(int argc, char **argv)
{
    static const struct option own[] = {
        { "position", required_argument, NULL, OPT_POSITION },
        { NULL, 0, NULL, 0 },
    };
    VariantOpts vo = { 0 };
    const char *apn = NULL;
    int c;

    while ((c = cli_next_option(argc, argv, "", own, &vo)) != -1) {
        switch (c) {
        case OPT_POSITION: apn = optarg; break;
        case OPT_HELP: printf("%s%s", move_usage, cli_variant_help); return 0;
        default: die("unknown or incomplete option '%s' (see --help)", argv[optind - 1]);
        }
    }
    if (optind >= argc)
        die("expected at least one MOVE (see --help)");
    Variant v;
    Position p;
    cli_variant_position(&vo, apn, &v, &p);

    int ended = 0;
    for (int i = optind; i < argc; i++) {
        Error e;
        char buf[APN_MAX];
        int move = (int)cli_number("MOVE", argv[i], 0, 1000000);
        if (ended)
            die("move %d: the game is over", move);
        if (!pos_move_ok(&v, &p, move, &e))
            die("%s", e.msg);
        MoveInfo info;
        MoveEvent ev = pos_play(&v, &p, move, &p, &info, NULL);
        apn_format(&v, &p, buf);
        printf("%s %s\n", buf, move_event_name(ev));
        ended = ev == EV_ENDLESS;
    }
    return 0;
}
