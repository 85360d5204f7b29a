/* test_tmp.h: a temporary folder for a test program's files, made before its tests and
 * removed after them (cmocka group setup and teardown), and paths in it. Static, for the one
 * program that includes it. */
#ifndef ANYWOLI_TEST_TMP_H
#define ANYWOLI_TEST_TMP_H

#include <stdio.h>
#include <stdlib.h>

#ifndef TEST_TMP_NAME
#error "TEST_TMP_NAME must name the folder, e.g. \"driver\" for /tmp/anywoli-test-driver-XXXXXX"
#endif

static char tmpdir[64];

/* A path in the temporary folder (four at a time stay valid). */
static const char *tmp_path(const char *name)
{
    static char buf[4][256];
    static int next;
    char *p = buf[next++ % 4];
    snprintf(p, sizeof buf[0], "%s/%s", tmpdir, name);
    return p;
}

/* Make the temporary folder. */
static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/anywoli-test-" TEST_TMP_NAME "-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

/* Remove the temporary folder and everything in it. */
static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

#endif
