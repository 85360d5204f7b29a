/* report_page.c: the plumbing of an HTML report with gnuplot plots (report_page.h), shared by
 * the analysis's report (report.c) and the tuning's (tune_print.c). */
#include "report_page.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "door.h"
#include "output.h"

int report_gnuplot_available(void)
{
    const char *path = getenv("PATH");
    char dir[4096], file[4200];
    while (path && *path) {
        size_t n = strcspn(path, ":");
        snprintf(dir, sizeof dir, "%.*s", (int)(n < sizeof dir ? n : sizeof dir - 1), path);
        snprintf(file, sizeof file, "%s/gnuplot", n ? dir : ".");
        if (access(file, X_OK) == 0)
            return 1;
        path += n + (path[n] == ':');
    }
    return 0;
}

int report_gnuplot_open(Gnuplot *g, Error *e)
{
    /* gnuplot's stderr goes to a temporary file, so that its several-line messages never
     * reach the terminal: report_gnuplot_close quotes the line that says what failed. */
    g->errors = tmpfile();
    if (!g->errors)
        return error_set(e, "cannot run gnuplot: no temporary file: %s", strerror(errno));
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    if (saved < 0 || dup2(fileno(g->errors), STDERR_FILENO) < 0) {
        int err = errno;
        fclose(g->errors);
        if (saved >= 0)
            close(saved);
        return error_set(e, "cannot run gnuplot: %s", strerror(err));
    }
    g->in = popen("gnuplot", "w");
    int err = errno;
    dup2(saved, STDERR_FILENO);
    close(saved);
    if (!g->in) {
        fclose(g->errors);
        return error_set(e, "cannot run gnuplot: %s", strerror(err));
    }
    return 0;
}

/* The first line of gnuplot's messages that says something (not an echo of the script, not
 * a caret), with runs of spaces squeezed, into buf; "" if none. */
static void gnuplot_complaint(FILE *errors, char *buf, size_t size)
{
    char line[512];
    buf[0] = '\0';
    rewind(errors);
    while (fgets(line, sizeof line, errors)) {
        char *p = line + strspn(line, " \t");
        if (strncmp(p, "gnuplot>", 8) == 0 || strspn(p, "^ \t\r\n") == strlen(p))
            continue;
        size_t n = 0;
        for (; *p && *p != '\n' && n + 1 < size; p++)
            if (!(*p == ' ' && n > 0 && buf[n - 1] == ' ') && (unsigned char)*p >= 0x20)
                buf[n++] = *p;
        buf[n] = '\0';
        return;
    }
}

int report_gnuplot_close(Gnuplot *g, const ReportStage *stage, const char *name, Error *e)
{
    int status = pclose(g->in);
    char why[256];
    gnuplot_complaint(g->errors, why, sizeof why);
    fclose(g->errors);
    if (status != 0)
        return error_set(e, "gnuplot failed drawing %s/%s.png (%s %d)%s%s", stage->final, name,
                         WIFEXITED(status) ? "exit status" : "signal",
                         WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
                         why[0] ? ": " : "", why);
    return 0;
}

int report_stage_open(ReportStage *s, const char *dir, Error *e)
{
    s->final = dir;
    snprintf(s->dir, sizeof s->dir, "%s/.anywoli-plots-XXXXXX", dir);
    if (!mkdtemp(s->dir))
        return error_set(e, "%s: cannot write in the folder: %s", dir, strerror(errno));
    return 0;
}

void report_stage_close(ReportStage *s)
{
    DIR *d = opendir(s->dir);
    struct dirent *ent;
    char path[4700];
    while (d && (ent = readdir(d)) != NULL) {
        if (strcmp(ent->d_name, ".") == 0 || strcmp(ent->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", s->dir, ent->d_name);
        unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(s->dir);
}

int report_check_dir(const char *dir, bool force, Error *e)
{
    if (strchr(dir, '\'') || strchr(dir, '\n'))
        return error_set(e, "%s: a report folder's name cannot hold a quote or a newline", dir);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return error_set(e, "%s: cannot create the folder: %s", dir, strerror(errno));
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return error_set(e, "%s: not a folder", dir);
    /* Tried with a file, since permissions alone do not tell (root, read-only mounts). */
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/.anywoli-probe-XXXXXX", dir);
    int fd = mkstemp(probe);
    if (fd < 0)
        return error_set(e, "%s: cannot write in the folder: %s", dir, strerror(errno));
    close(fd);
    unlink(probe);
    char page[4200];
    snprintf(page, sizeof page, "%s/index.html", dir);
    if (lstat(page, &st) == 0 && !S_ISREG(st.st_mode))
        return error_set(e, "%s: exists and is not a regular file: not replaced", page);
    if (lstat(page, &st) == 0 && !force)
        return output_refuse_existing(page, e);
    return 0;
}

FILE *report_page_open(const ReportStage *stage, Error *e)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/index.html", stage->dir);
    return door_create_stream(path, e);
}

/* The names of the files in the stage (the plots and the page) into names[], at most max;
 * how many. */
static int stage_files(const ReportStage *s, char names[][256], int max)
{
    DIR *d = opendir(s->dir);
    struct dirent *ent;
    int n = 0;
    while (d && n < max && (ent = readdir(d)) != NULL)
        if (ent->d_name[0] != '.')
            snprintf(names[n++], 256, "%s", ent->d_name);
    if (d)
        closedir(d);
    return n;
}

/* Whether every file of the stage may take its place in the report folder: none is a file
 * this process reads (door.h), none is there already unless force, and none of those there
 * is anything but a regular file. -1 with a message naming the first at fault. */
static int check_places(const ReportStage *s, char names[][256], int n, bool force, Error *e)
{
    for (int i = 0; i < n; i++) {
        char to[4400];
        struct stat st;
        if (snprintf(to, sizeof to, "%s/%s", s->final, names[i]) >= (int)sizeof to)
            return error_set(e, "%s: the report folder's name is too long", s->final);
        if (door_note_output(to, false, e) != 0)
            return -1;
        if (lstat(to, &st) == 0 && !S_ISREG(st.st_mode))
            return error_set(e, "%s: exists and is not a regular file: not replaced", to);
        if (lstat(to, &st) == 0 && !force)
            return error_set(e, "%s already exists: the report is left unwritten (--force "
                             "replaces its files)", to);
    }
    return 0;
}

/* Move one file of the stage into the report folder: with force by a rename (which replaces
 * a name and never writes through it), without it by link(), which never replaces a file
 * that appeared meanwhile. */
static int publish_one(const ReportStage *s, const char *name, bool force, Error *e)
{
    char from[4400], to[4400];
    if (snprintf(from, sizeof from, "%s/%s", s->dir, name) >= (int)sizeof from ||
        snprintf(to, sizeof to, "%s/%s", s->final, name) >= (int)sizeof to)
        return error_set(e, "%s: the report folder's name is too long", s->final);
    if (force ? rename(from, to) != 0 : link(from, to) != 0) {
        int err = errno;
        if (err == EEXIST)
            return error_set(e, "%s: appeared while the report was drawn: left as it is (give "
                             "--force to replace it)", to);
        return error_set(e, "%s: cannot put it in place: %s", to, strerror(err));
    }
    return 0;
}

int report_page_commit(FILE *out, const ReportStage *stage, bool force, int rc, Error *e)
{
    char page[4400];
    snprintf(page, sizeof page, "%s/index.html", stage->final);
    if (fclose(out) != 0 || rc != 0)
        return error_set(e, "%s: writing the page failed", page);
    enum { FILES_MAX = 256 };
    static char names[FILES_MAX][256];
    int n = stage_files(stage, names, FILES_MAX);
    if (check_places(stage, names, n, force, e) != 0)
        return REPORT_REFUSED;
    /* The plots first, the page last: a page in place means its plots are. */
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], "index.html") != 0 && publish_one(stage, names[i], force, e) != 0)
            return -1;
    return publish_one(stage, "index.html", force, e);
}

/* A file's bytes as base64 on out; -1 if it cannot be read. */
static int base64_file(const char *path, FILE *out)
{
    static const char digits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    FILE *in = fopen(path, "rb");
    if (!in)
        return -1;
    unsigned char b[3];
    size_t n;
    while ((n = fread(b, 1, 3, in)) > 0) {
        unsigned long v = (unsigned long)b[0] << 16 | (n > 1 ? (unsigned long)b[1] << 8 : 0) |
                          (n > 2 ? b[2] : 0);
        fputc(digits[v >> 18 & 63], out);
        fputc(digits[v >> 12 & 63], out);
        fputc(n > 1 ? digits[v >> 6 & 63] : '=', out);
        fputc(n > 2 ? digits[v & 63] : '=', out);
    }
    int bad = ferror(in);
    fclose(in);
    return bad ? -1 : 0;
}

/* dir/NAME.EXT embedded in a figure (base64, as MIME), its img styled by `style` (may be
 * empty), its caption, then `link` before the link to the file; -1 if it cannot be read. */
static int html_embedded(FILE *out, const char *dir, const char *name, const char *ext,
                         const char *mime, const char *figure_style, const char *img_style,
                         const char *caption, const char *link)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
    fprintf(out, "<figure%s><img alt=\"%s\"%s src=\"data:%s;base64,", figure_style, name,
            img_style, mime);
    if (base64_file(path, out) != 0)
        return -1;
    fprintf(out, "\"><figcaption>");
    markup_text(out, caption, strlen(caption));
    fprintf(out, " (%s<a href=\"%s.%s\">%s.%s</a>)</figcaption></figure>\n", link, name, ext,
            name, ext);
    return 0;
}

int report_html_figure(FILE *out, const char *dir, const char *name, const char *caption)
{
    return html_embedded(out, dir, name, "png", "image/png", "", "", caption, "also ");
}

int report_html_svg(FILE *out, const char *dir, const char *name, const char *caption,
                    int width)
{
    char figure[96], img[48];
    snprintf(figure, sizeof figure, " style=\"display:inline-block;vertical-align:top;"
             "width:%dpx\"", width);
    snprintf(img, sizeof img, " style=\"width:%dpx\"", width);
    return html_embedded(out, dir, name, "svg", "image/svg+xml", figure, img, caption, "");
}
