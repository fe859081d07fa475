/* show.h - litmus-check --show: every allowed execution as text, JSON
 * and Graphviz pictures.
 * SPDX-License-Identifier: MIT
 */
#ifndef REPORT_SHOW_H
#define REPORT_SHOW_H

#include <jansson.h>

#include "executions.h"

/*   Executions of MP: 4 allowed, all shown (model PTX v7.5, explicit engine)
 *   Relations: dep ms po_loc cause_base cause race (those the model's checks name; ...)
 *   Execution 1 of 4: P1:r0=0; P1:r1=0;
 *     a   P0  W x=1       st.weak x, 1
 *     ...
 *     rf Iy->c Ix->d  co Ix->a Iy->b  fr c->b d->a
 *     cause a->d b->c
 *     race a<->d b<->c
 */
void report_show_text(lc_buf *out, const lc_show_result *s);
json_t *report_show_json(const lc_show_result *s);
/* Draws the executions kept, one file each: PATH for a single one, else
 * STEM-1.EXT, ... (graph.c; as report_graph_file).  Returns 0 (*msg
 * set, a warning, when Graphviz is missing), or -1 with *msg. */
int report_show_graph(const lc_show_result *s, const char *path, char **msg);
/* Does r relate events both ways only (ms, race)?  Such a relation is
 * printed one pair at a time, `a<->b`, and drawn with arrows both ways. */
bool report_show_symmetric(const rel_rel *r);

#endif
