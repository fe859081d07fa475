/* why.h - explanations as text, JSON and Graphviz pictures,
 * and the event labels they share.
 * SPDX-License-Identifier: MIT
 *
 * Every label of an event comes from report_event_name and
 * report_event_label, so another source syntax needs changes there only.
 */
#ifndef REPORT_EXPLAIN_H
#define REPORT_EXPLAIN_H

#include <jansson.h>
#include <stdio.h>

#include "explain.h"

/* A short name: a, b, ... for threads' events in program order (e26,
 * e27, ... after z), Ix for the initial write of x. */
void report_event_name(lc_buf *out, const lx_program *p, int ev);
/* What the event does in w, herd-style (`W x=1`, `R y=0`, `F`), then
 * the instruction as written (`st.release.gpu x, 1`). */
void report_event_effect(lc_buf *out, const lx_program *p, const lc_witness *w, int ev);
void report_event_instr(lc_buf *out, const lx_program *p, int ev);
/* The events w runs, one a line after indent: name, thread, effect,
 * instruction (as in explanations). */
void report_execution_events(lc_buf *out, const lx_program *p, const lc_witness *w, const char *indent);
/* `NAME a->b c->d  ` for a nonempty r; nothing for an empty one. */
void report_pairs(lc_buf *out, const lx_program *p, const char *name, const rel_rel *r);

/* The text of the explanations and races of x:
 *   Why P1:r0=1; P1:r1=0;
 *     Forbidden: ruled out by Causality
 *     Causality fails in this execution giving the state:
 *       a  P0  W x=1  st.weak x, 1
 *       ...
 *       rf Ix->d b->c  co Ix->a Iy->b
 *       cycle a -po-> b -rf-> c -po-> d -fr-> a
 */
void report_explain_text(lc_buf *out, const lc_explain_result *x);
/* One line: the first forbidding set of the first forbidden state, e.g.
 * "ruled out by Causality (a -po-> b -rf-> c -po-> d -fr-> a)"; empty
 * when nothing is forbidden. */
void report_explain_headline(lc_buf *out, const lc_explain_result *x);
json_t *report_explain_json(const lc_explain_result *x);

/* The executions of x as Graphviz digraphs, one each (all of them, or
 * only execution number `only` when it is not SIZE_MAX).  Returns the
 * number of executions x has. */
size_t report_explain_dot(lc_buf *out, const lc_explain_result *x, size_t only);
/* Runs Graphviz's dot on a DOT file.  Returns 0, 1 when dot is not
 * installed, -1 when it failed (*msg says why, caller frees). */
int report_dot_to_svg(const char *dot_path, const char *svg_path, char **msg);
/* The same for any output format of dot (svg, png, pdf). */
int report_dot_render(const char *dot_path, const char *out_path, const char *format, char **msg);
/* What --graph PATH writes: "dot", "svg", "png" or "pdf" by PATH's
 * extension; NULL for any other (a static string). */
const char *report_graph_format(const char *path);

/* Draws x's executions, one file each: PATH for a single one, else
 * STEM-1.EXT, STEM-2.EXT, ... (PATH = STEM.EXT).  PATH ending in .svg,
 * .png or .pdf: the DOT beside each picture (.dot), the picture through
 * Graphviz's dot; any other ending than these and .dot is an error.  *n:
 * the number of executions.  Returns 0 (*msg set, a warning, when
 * Graphviz is missing and only DOT was written), or -1 with *msg. */
int report_graph_file(const lc_explain_result *x, const char *path, size_t *n, char **msg);

/* --html DIR: writes DIR/NAME.html (states, verdict, explanations and
 * their pictures, as SVG when Graphviz is installed) and returns the
 * test's row of the index (caller frees); problems go to err.  NAME
 * NULL: the test's name made a file name (report_file_stem). */
char *report_html_page(const char *dir, const char *name, const lc_explain_result *x, const lc_result *r,
                       FILE *err);
/* A test's name as a file name: characters other than letters, digits and
 * + - . _ become _. */
void report_file_stem(lc_buf *out, const char *name);
/* DIR/index.html from the rows of report_html_page, in order. */
int report_html_index(const char *dir, char *const *rows, size_t n, FILE *err);

#endif
