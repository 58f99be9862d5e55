/* XYZ point lists: one point "x y z" per line; white space or single commas separate the three
 * fields; '#' starts a comment; blank lines are skipped. */
#include "io/internal.h"

static hd_status read_point(hd_lexer *lx, void *buf)
{
    double p[3];
    int count = 0;
    hd_status st = hd_lex_numbers(lx, p, 3, 3, &count, "point", "x y z");
    return st == HD_OK ? hd_point_buf_push(buf, lx, p) : st;
}

hd_status hd_io_read_xyz(hd_lexer *lx, hd_point_buf *buf)
{
    hd_status st = hd_lex_each_line(lx, read_point, buf);
    if (st != HD_OK) {
        return st;
    }
    if (buf->count == 0) {
        return hd_lex_fail_eof(lx, HD_ERR_EMPTY, "no points: expected lines 'x y z'");
    }
    return HD_OK;
}
