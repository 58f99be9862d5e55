/* XYZ point lists: one point "x y z" per line; white space or single commas separate the three
 * fields; '#' starts a comment; blank lines are skipped. */
#include "io/internal.h"

static hd_status read_point(hdi_lexer *lx, void *buf)
{
    double p[3];
    int count = 0;
    hd_status st = hdi_lex_numbers(lx, p, 3, 3, &count, "point", "x y z");
    return st == HD_OK ? hdi_point_buf_push(buf, lx, p) : st;
}

hd_status hdi_io_read_xyz(hdi_lexer *lx, hdi_point_buf *buf)
{
    hd_status st = hdi_lex_each_line(lx, read_point, buf);
    if (st != HD_OK) {
        return st;
    }
    if (buf->count == 0) {
        return hdi_lex_fail_eof(lx, HD_ERR_EMPTY, "no points: expected lines 'x y z'");
    }
    return HD_OK;
}
