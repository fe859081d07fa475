/* internal.h - the parts of src/exec/ that talk to each other.
 * SPDX-License-Identifier: MIT
 */
#ifndef LX_INTERNAL_H
#define LX_INTERNAL_H

#include "exec/exec.h"

/* Fills the static relations and tag sets of a lowered program (static.c). */
void lx_static_relations(lx_program *p);
/* Fills every physical location's value domain (static.c). */
void lx_domains(lx_program *p);

#endif
