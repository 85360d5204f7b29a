/* test_perft.c: move-path counts against the files of tests/perft.
 *
 *   test_perft PERFT_DIR MAX_DEPTH     (MAX_DEPTH 0: every depth in the files)
 *
 * PRESET.txt (anywoli, yit-nuri, yit-jani): lines `APN ;D1 n ;D2 n ...` in the variant of
 * the file's name, after Ethereal's perft EPD. variants.txt: lines `OPTIONS|APN ;D1 n ...`,
 * OPTIONS being `name=value` variant options (holes and seeds from the APN where not given)
 * and APN `start` for the variant's start. Every count was computed by perft_reference.py;
 * the start lines of the presets are the table of docs/rules.md. */
#include "test_util.h"

#include "perft.h"

static const char *perft_dir;   /* argv[1] */
static int max_depth;           /* argv[2]; 0 for no limit */

/* Check every line of one file; `preset` names the variant, or NULL for variants.txt. */
static void check_file(const char *file, const char *preset)
{
    char path[1024], opts[64];
    snprintf(path, sizeof path, "%s/%s", perft_dir, file);
    Lines l = tu_read_lines(path);
    int checked = 0;
    for (int i = 0; i < l.n; i++) {
        char *line = l.line[i];
        if (!line[0] || line[0] == '#')
            continue;
        const char *vopts = opts;
        if (preset) {
            snprintf(opts, sizeof opts, "variant=%s", preset);
        } else {
            char *bar = strchr(line, '|');
            if (!bar)
                fail_msg("%s:%d: no '|' after the options", file, i + 1);
            *bar = '\0';
            vopts = line;
            line = bar + 1;
        }
        char *semi = strstr(line, " ;");
        if (!semi)
            fail_msg("%s:%d: no ' ;D1' field", file, i + 1);
        *semi = '\0';
        Variant v;
        Position p;
        tu_position(vopts, line, &v, &p);

        char *field[80];
        int n = tu_split(semi + 2, ';', field, 80);
        assert_true(n <= 80);
        for (int k = 0; k < n; k++) {
            int d;
            unsigned long long want;
            char *f = field[k];
            while (*f == ' ')
                f++;
            if (sscanf(f, "D%d %llu", &d, &want) != 2 || d != k + 1)
                fail_msg("%s:%d: field '%s' is not D%d COUNT", file, i + 1, f, k + 1);
            if (max_depth && d > max_depth)
                break;
            PerftStats st = { 0 };
            uint64_t got = perft(&v, &p, d, &st);
            if (got != want)
                fail_msg("%s:%d: %s: perft %d = %llu, expected %llu (laps %llu captures %llu "
                         "ended %llu endless %llu)", file, i + 1, line, d,
                         (unsigned long long)got, want, (unsigned long long)st.laps,
                         (unsigned long long)st.captures, (unsigned long long)st.ended,
                         (unsigned long long)st.endless);
            checked++;
        }
    }
    tu_free_lines(&l);
    /* An empty or unreadable file must not pass silently. */
    assert_true(checked > 0);
}

static void test_anywoli(void **state)
{
    (void)state;
    check_file("anywoli.txt", "anywoli");
}

static void test_yit_nuri(void **state)
{
    (void)state;
    check_file("yit-nuri.txt", "yit-nuri");
}

static void test_yit_jani(void **state)
{
    (void)state;
    check_file("yit-jani.txt", "yit-jani");
}

static void test_variants(void **state)
{
    (void)state;
    check_file("variants.txt", NULL);
}

/* The docs/rules.md table from pos_start itself (the files give the start as APN): depths 1-4. */
static void test_start_positions(void **state)
{
    (void)state;
    static const struct { const char *preset; uint64_t n[4]; } table[] = {
        { "anywoli", { 12, 116, 1214, 12377 } },
        { "yit-nuri", { 7, 40, 250, 1397 } },
        { "yit-jani", { 13, 113, 785, 5268 } },
    };
    for (size_t t = 0; t < sizeof table / sizeof table[0]; t++) {
        Variant v;
        Position p;
        Error e;
        assert_int_equal(variant_preset(&v, table[t].preset, &e), 0);
        pos_start(&v, &p);
        for (int d = 1; d <= 4; d++)
            assert_int_equal(perft(&v, &p, d, NULL), table[t].n[d - 1]);
    }
}

/* Depth 0 is the position itself; an over position has no moves. */
static void test_edges(void **state)
{
    (void)state;
    Variant v;
    Position p;
    tu_position("variant=anywoli", "start", &v, &p);
    assert_int_equal(perft(&v, &p, 0, NULL), 1);
    tu_position("", "0,0,0,1/0,1,1,1 12/16 S N S", &v, &p);
    assert_true(pos_over(&v, &p));
    assert_int_equal(perft(&v, &p, 1, NULL), 0);
    assert_int_equal(perft(&v, &p, 3, NULL), 0);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_perft PERFT_DIR MAX_DEPTH\n");
        return 2;
    }
    perft_dir = argv[1];
    max_depth = atoi(argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_anywoli),
        cmocka_unit_test(test_yit_nuri),
        cmocka_unit_test(test_yit_jani),
        cmocka_unit_test(test_variants),
        cmocka_unit_test(test_start_positions),
        cmocka_unit_test(test_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
