/* The frames the two examples drive: a heap of boxes and tetrahedra settling in place, stepped on
 * hedra's own pool and then on the example's job system, and the contacts of both compared. */
#ifndef HEDRA_EXAMPLE_FRAMES_H
#define HEDRA_EXAMPLE_FRAMES_H

#include "hedra/scene.h"

/* Steps the example's frames on a scene made with tasks (NULL: hedra's pool) and on hedra's
 * pool, and compares every contact (ids, verdict, signed distance and normal, bit for bit).
 * Prints what it finds; returns 0 when both runs agree, 1 when not, 2 on an error. */
int frames_compare(const hd_task_callbacks *tasks, const char *name);

#endif
