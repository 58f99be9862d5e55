/* The support direction table of a solid, built into the polytope (polytope/support_table.c): a
 * cube map of directions whose cells list the vertices that can maximise d.v there. The lookup is
 * hdi_support_lookup (support/support.h). */
#ifndef HD_POLYTOPE_SUPPORT_TABLE_H
#define HD_POLYTOPE_SUPPORT_TABLE_H

#include "polytope/internal.h"

/* The support direction table of a solid as built; the polytope holds the same arrays in its own
 * block (polytope/internal.h). */
typedef struct hdi_support_table {
    int k;          /* cells per side of each cube face */
    int cell_count; /* 6 k^2 */
    int list_count;
    int *cell; /* HD_SUPPORT_SLOTS per cell */
    int *list;
} hdi_support_table;

/* Cells per side of the table for a solid of vertex_count vertices. */
int hdi_support_table_resolution(int vertex_count);

/* Builds the table of a solid whose vertices and adjacency are in place. HD_ERR_UNSUPPORTED below
 * dimension 3 (and, defensively, for a polytope whose table would have an empty cell);
 * HD_ERR_NO_MEMORY. */
hd_status hdi_support_table_build(const hd_polytope *poly, hdi_support_table *out);
void hdi_support_table_free(hdi_support_table *t);

#endif
