/* Sweep-and-prune (Cohen, Lin, Manocha, Ponamgi, "I-COLLIDE: An Interactive and Exact Collision
 * Detection System for Large-Scale Environments", I3D 1995, section 4): the bodies' box end
 * points sorted along each axis. With coherent motion the lists stay nearly sorted, so insertion
 * sort restores them in O(n + swaps), and each swap of a lower end point with an upper one is
 * exactly a pair starting or stopping to overlap along that axis: the pair table is updated by
 * the swaps alone. docs/algorithms/scene.md gives the argument. */
#ifndef HD_SCENE_SAP_H
#define HD_SCENE_SAP_H

#include "hedra/core.h"
#include "scene/box.h"
#include "scene/pairs.h"

typedef struct hdi_sap_end {
    double value;
    int tag; /* 2 body + 1 for an upper end point, 2 body for a lower one; -1: removed */
} hdi_sap_end;

typedef struct hdi_sap {
    hdi_sap_end *axis[3];
    int count; /* end points per axis */
    int capacity;
    int *where;     /* 6 per body id: index of (axis k, lower / upper) at 6 id + 2 k + upper */
    int where_ids;  /* ids with room in where */
    int sorted;     /* the leading end points that are in place (the rest were appended) */
    int removed;    /* end points marked removed, not yet compacted */
    int rebuild;    /* sort from scratch and find the pairs by a sweep at the next update */
    int active_cap; /* scratch of the sweep */
    int *active;
} hdi_sap;

void hdi_sap_init(hdi_sap *s);
void hdi_sap_free(hdi_sap *s);

/* Appends body's end points (box) at the end of each axis; they find their place at the next
 * hdi_sap_update. HD_ERR_NO_MEMORY leaves the structure as it was. */
hd_status hdi_sap_insert(hdi_sap *s, int body, const hdi_box *box);

/* Marks a body's end points removed (compacted at the next update). */
void hdi_sap_remove(hdi_sap *s, int body);

/* Gives a body's end points their new values (the lists are sorted at the next update). */
void hdi_sap_move(hdi_sap *s, int body, const hdi_box *box);

/* Sorts the lists and brings the pair table to exactly the pairs of bodies whose boxes overlap
 * (boxes indexed by body id). The caller has already dropped the pairs of removed bodies.
 * HD_ERR_NO_MEMORY: the lists are sorted but pairs may be missing; the next update rebuilds. */
hd_status hdi_sap_update(hdi_sap *s, const hdi_box *boxes, hdi_pair_table *pairs);

#endif
