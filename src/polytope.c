/* placeholder until the polytope module lands */
#include <stddef.h>
#include "polytope_internal.h"
hd_status hd_polytope_build(const double *xyz, int count, const hd_tolerance *tol, hd_polytope **out)
{ (void)xyz; (void)count; (void)tol; if (out) *out = NULL; return HD_ERR_UNSUPPORTED; }
hd_status hd_polytope_from_mesh(const double *xyz, int vertex_count, const int *face_sizes,
                                const int *face_indices, int face_count, const hd_tolerance *tol,
                                hd_polytope **out, hd_mesh_violation *violation)
{ (void)xyz; (void)vertex_count; (void)face_sizes; (void)face_indices; (void)face_count; (void)tol; (void)violation; if (out) *out = NULL; return HD_ERR_UNSUPPORTED; }
void hd_polytope_destroy(hd_polytope *poly) { (void)poly; }
int hd_polytope_dimension(const hd_polytope *poly) { return poly->dim; }
int hd_polytope_vertex_count(const hd_polytope *poly) { return poly->vertex_count; }
int hd_polytope_edge_count(const hd_polytope *poly) { return poly->edge_count; }
int hd_polytope_face_count(const hd_polytope *poly) { return poly->face_count; }
const double *hd_polytope_vertices(const hd_polytope *poly) { return poly->verts; }
