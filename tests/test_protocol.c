/* test_protocol.c: the line protocol's text (agents/protocol.c, docs/protocol.md): what one end
 * writes, the other reads back the same (a game of every parameter off its standard value, a
 * position, a move with its work), and every line that is not one is refused with a message
 * that says why. */
#include "test_util.h"
#include "protocol.h"

#define START_APN "4,4,4,4,4,4,4,4,4,4,4,4/4,4,4,4,4,4,4,4,4,4,4,4 0/0 S - -"

/* The text of t as a string, its last '\n' dropped, for the parsers (which take a line). */
static const char *line_of(ProtoText *t)
{
    assert_false(t->failed);
    assert_true(t->n > 0 && t->s[t->n - 1] == '\n');
    t->s[t->n - 1] = '\0';
    return t->s;
}

/* A game line read back: every parameter, the side, the seed and the start. */
static void test_game_round_trip(void **state)
{
    (void)state;
    Variant v;
    Error e;
    variant_default(&v);
    assert_int_equal(variant_set(&v, "holes", "7", &e), 0);
    assert_int_equal(variant_set(&v, "seeds", "3", &e), 0);
    assert_int_equal(variant_set(&v, "capture", "3", &e), 0);
    assert_int_equal(variant_set(&v, "final_four", "lottery", &e), 0);
    assert_int_equal(variant_set(&v, "extra_turn", "no", &e), 0);
    assert_int_equal(variant_set(&v, "skip_origin", "yes", &e), 0);
    assert_int_equal(variant_set(&v, "max_plies", "321", &e), 0);
    assert_int_equal(variant_finish(&v, &e), 0);
    Position start, after;
    MoveInfo info;
    pos_start(&v, &start);
    pos_play(&v, &start, 2, &after, &info, NULL);
    ProtoText t = { 0 };
    proto_game(&t, &v, NORTH, UINT64_MAX, &after);
    const char *rest;
    assert_int_equal(proto_word(line_of(&t), &rest), PW_GAME);
    ProtoGame g;
    if (proto_parse_game(rest, &g, &e) != 0)
        fail_msg("%s", e.msg);
    for (int p = 0; p < VP_NB; p++)
        assert_int_equal(variant_get(&g.v, (VariantParam)p), variant_get(&v, (VariantParam)p));
    assert_int_equal(g.side, NORTH);
    assert_true(g.seed == UINT64_MAX);
    assert_memory_equal(g.start.pit, after.pit, sizeof after.pit);
    assert_int_equal(g.start.side, after.side);
    proto_text_free(&t);
}

/* A position line read back, and a move with its work. */
static void test_position_and_move(void **state)
{
    (void)state;
    Variant v;
    Position p;
    Error e;
    variant_default(&v);
    variant_finish(&v, &e);
    pos_start(&v, &p);
    const uint8_t history[] = { 3, 14 };
    ProtoText t = { 0 };
    proto_position(&t, &v, &p, history, 2);
    assert_string_equal(line_of(&t), "position " START_APN " moves 0 1 2 3 4 5 6 7 8 9 10 11 "
                                     "history 3 14");
    const char *rest;
    Position back;
    assert_int_equal(proto_word(t.s, &rest), PW_POSITION);
    if (proto_parse_position(rest, &v, &back, &e) != 0)
        fail_msg("%s", e.msg);
    assert_memory_equal(back.pit, p.pit, sizeof p.pit);
    proto_text_clear(&t);
    proto_move(&t, 11, 1234, 56);
    assert_string_equal(line_of(&t), "move 11 nodes 1234 playouts 56");
    int move;
    uint64_t nodes, playouts;
    assert_int_equal(proto_word(t.s, &rest), PW_MOVE);
    assert_int_equal(proto_parse_move(rest, &move, &nodes, &playouts, &e), 0);
    assert_int_equal(move, 11);
    assert_true(nodes == 1234 && playouts == 56);
    proto_text_free(&t);
}

/* A bad line and the message it gets. */
typedef struct BadLine {
    const char *line;
    const char *want;   /* a substring of the message */
} BadLine;

static const BadLine bad_lines[] = {
    { "move", "is not a move" },
    { "move -1", "is not a move" },
    { "move 0x3", "is not a move" },
    { "move banana", "is not a move" },
    { "move 3 extra", "only 'nodes K' and 'playouts K'" },
    { "move 3 nodes", "only 'nodes K' and 'playouts K'" },
    { "move 3 nodes 0 nodes 5", "each at most once" },
    { "move 3 playouts 1 nodes 2 playouts 3", "each at most once" },
    { "move 3 nodes 5 0123456789012345678901234567890123456789", "each at most once" },
    { "move 3 0123456789012345678901234567890123456789", "each at most once" },
    { "option", "expected option NAME DEFAULT" },
    { "option depth", "expected option NAME DEFAULT" },
    { "option depth 3 junk", "expected option NAME DEFAULT" },
    { "protocol", "is not a version" },
    { "protocol one", "is not a version" },
    { "anywoli hello", "expected 'anywoli protocol 1'" },
    { "game seed -4", "seed -4 is not a whole number" },
    { "game side X", "side X is not S or N" },
    { "game holes 99", "holes" },
    { "game colour red", "colour" },
    { "game seed", "'seed' has no value" },
    { "game start 4,4/4,4 0/0 S - -", "game: start:" },
    { "position 4,4,4", "expected an APN" },
    { "position " START_APN " moves 0 1", "not the legal moves" },
    { "position " START_APN " moves 0 99", "'99' is not a hole" },
    { "position " START_APN " history x", "'x' is not a hole" },
    { "position " START_APN " later", "unexpected 'later'" },
    { "position 0,0,0,0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,0,0,0 48/48 S S S", "the game is over" },
};

/* Every bad line is refused, its message one line naming the fault. */
static void test_bad_lines(void **state)
{
    (void)state;
    Variant v;
    Error e;
    variant_default(&v);
    variant_finish(&v, &e);
    for (size_t i = 0; i < sizeof bad_lines / sizeof bad_lines[0]; i++) {
        const char *rest;
        int rc = 0, version, move;
        uint64_t nodes, playouts;
        char name[64];
        ProtoGame g;
        Position p;
        e.msg[0] = '\0';
        switch (proto_word(bad_lines[i].line, &rest)) {
        case PW_MOVE: rc = proto_parse_move(rest, &move, &nodes, &playouts, &e); break;
        case PW_PROTOCOL: rc = proto_parse_version(rest, &version, &e); break;
        case PW_OPTION: rc = proto_parse_option(rest, name, sizeof name, &e); break;
        case PW_HELLO: rc = proto_parse_hello(rest, &version, &e); break;
        case PW_GAME: rc = proto_parse_game(rest, &g, &e); break;
        case PW_POSITION: rc = proto_parse_position(rest, &v, &p, &e); break;
        default: fail_msg("'%s': no such line kind", bad_lines[i].line);
        }
        if (rc == 0)
            fail_msg("'%s' was taken", bad_lines[i].line);
        if (!strstr(e.msg, bad_lines[i].want) || strchr(e.msg, '\n'))
            fail_msg("'%s': message '%s' lacks '%s'", bad_lines[i].line, e.msg,
                     bad_lines[i].want);
    }
}

/* A line's word: spaces around it, the words of either end, and what is none of them; an
 * option line's name. */
static void test_words(void **state)
{
    (void)state;
    const char *rest;
    assert_int_equal(proto_word("", &rest), PW_EMPTY);
    assert_int_equal(proto_word("   ", &rest), PW_EMPTY);
    assert_int_equal(proto_word("  quit\r", &rest), PW_QUIT);
    assert_int_equal(proto_word("info  thinking hard", &rest), PW_INFO);
    assert_string_equal(rest, "thinking hard");
    assert_int_equal(proto_word("movee 3", &rest), PW_UNKNOWN);
    assert_int_equal(proto_word("end south 30 18", &rest), PW_END);
    assert_int_equal(proto_word("error cannot play", &rest), PW_ERROR);
    char name[16];
    Error e;
    assert_int_equal(proto_word("option depth 3", &rest), PW_OPTION);
    assert_int_equal(proto_parse_option(rest, name, sizeof name, &e), 0);
    assert_string_equal(name, "depth");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_game_round_trip),
        cmocka_unit_test(test_position_and_move),
        cmocka_unit_test(test_bad_lines),
        cmocka_unit_test(test_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
