/* cmd_move.c: `anywoli move`, play moves by hand and see each result in APN. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

enum { OPT_POSITION = OPT_FIRST_FREE };

static const char move_usage[] =
    "usage: anywoli move [variant options] [--position APN] MOVE...\n\n"
    "Play the moves in order and print, for each, `<APN after the move> <event>`, the\n"
    "event being next, extra, over or endless. A MOVE is a hole's name, S1 to SH for\n"
    "South's holes and N1 to NH for North's, each counted from its owner's left (as\n"
    "`anywoli play` shows them), or the hole's index from 0 over the whole board,\n"
    "0 .. 2H-1 in sowing order (S1 is 0, N1 is H).\n\n"
    "  --position APN   start from this position (default: the variant's start)\n\n";

/* MOVE argument number `nth` (from 1): a hole's name (S4, N4) or its absolute index, decimal
 * digits only (no spaces, sign or hex, which strtoll would take); dies saying what a move
 * looks like. Whether the hole exists and may be played is pos_move_ok's question, asked as
 * the moves are. */
static int parse_move(const char *text, int nth, const Variant *v)
{
    int last = 2 * v->holes - 1;
    size_t digits = strspn(text, "0123456789");
    int named = hole_from_name(v, text);
    if (named >= 0)
        return named;
    if (!*text)
        die("MOVE %d is empty (a move is a hole: S1 to S%d, N1 to N%d, or its index 0 to %d)",
            nth, v->holes, v->holes, last);
    if (text[0] == '-' && text[1] && strspn(text + 1, "0123456789") == strlen(text + 1))
        die("MOVE %d: %s is out of range (a move is a hole: S1 to S%d, N1 to N%d, or its index "
            "0 to %d)", nth, text, v->holes, v->holes, last);
    if (text[digits] != '\0')
        die("MOVE %d: '%s' is not a hole (a move is a hole: S1 to S%d, N1 to N%d, or its index "
            "0 to %d)", nth, text, v->holes, v->holes, last);
    return digits > 6 ? 1000000 : atoi(text);   /* beyond any board: "no such hole" */
}

int cmd_move(int argc, char **argv)
{
    static const struct option own[] = {
        { "position", required_argument, NULL, OPT_POSITION },
        { NULL, 0, NULL, 0 },
    };
    VariantText vo = { 0 };
    const char *apn = NULL;
    int c;

    while ((c = cli_next_option(argc, argv, "", own, &vo)) != -1) {
        switch (c) {
        case OPT_POSITION: apn = optarg; break;
        case OPT_HELP: printf("%s%s", move_usage, cli_variant_help()); return 0;
        }
    }
    if (optind >= argc)
        die("expected at least one MOVE, a hole's name (S4) or index (see --help)");
    Variant v;
    Position p;
    cli_variant_position(&vo, apn, &v, &p);
    for (int i = optind; i < argc; i++)   /* every argument first: no output before a typo */
        parse_move(argv[i], i - optind + 1, &v);

    int ended = 0;
    for (int i = optind; i < argc; i++) {
        Error e;
        char buf[APN_MAX];
        int move = parse_move(argv[i], i - optind + 1, &v);
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
