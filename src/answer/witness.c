/* witness.c - candidate executions as data and the states explanations
 * speak of.
 * SPDX-License-Identifier: MIT
 */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "witness.h"

lc_witness *lc_witness_new(const lx_program *p) {
  assert(p);
  lc_witness *w = lc_xcalloc(1, sizeof *w);
  w->paths = lc_xcalloc(p->nthreads, sizeof(int));
  w->rf = lc_xcalloc(p->nevents, sizeof(int));
  for (size_t i = 0; i < p->nevents; i++) w->rf[i] = -1;
  w->val = lc_xcalloc(p->nevents, sizeof(lx_val));
  w->co = rel_new(p->nevents);
  w->sc = rel_new(p->nevents);
  w->bar = rel_new(p->nevents);
  w->obs = lc_xcalloc(p->nobs, sizeof(lx_val));
  return w;
}

lc_witness *lc_witness_copy(const lx_program *p, const lc_witness *w) {
  assert(p && w);
  lc_witness *c = lc_witness_new(p);
  memcpy(c->paths, w->paths, p->nthreads * sizeof(int));
  memcpy(c->rf, w->rf, p->nevents * sizeof(int));
  memcpy(c->val, w->val, p->nevents * sizeof(lx_val));
  memcpy(c->obs, w->obs, p->nobs * sizeof(lx_val));
  rel_assign(c->co, w->co);
  rel_assign(c->sc, w->sc);
  rel_assign(c->bar, w->bar);
  return c;
}

void lc_witness_free(lc_witness *w) {
  if (!w) return;
  free(w->paths);
  free(w->rf);
  free(w->val);
  rel_free(w->co);
  rel_free(w->sc);
  rel_free(w->bar);
  free(w->obs);
  free(w);
}

bool lc_witness_runs(const lx_program *p, const lc_witness *w, int ev) {
  assert(p && w && ev >= 0 && (size_t)ev < p->nevents);
  const lx_event *e = &p->events[ev];
  return e->thread < 0 || w->paths[e->thread] == e->path;
}

/* ---- states ------------------------------------------------------------------- */

void lc_state_fini(lc_state *s) {
  free(s->obs);
  free(s->cmp);
  free(s->rhs);
  free(s->val);
  memset(s, 0, sizeof *s);
}

bool lc_state_holds(const lc_state *s, const lx_val *obs_values) {
  assert(s && (obs_values || s->n == 0));
  for (size_t i = 0; i < s->n; i++)
    if (!lx_cmp_apply(s->cmp[i], obs_values[s->obs[i]], s->rhs[i] >= 0 ? obs_values[s->rhs[i]] : s->val[i]))
      return false;
  return true;
}

void lc_state_print(lc_buf *b, const lx_program *p, const lc_state *s) {
  assert(b && p && s);
  for (size_t i = 0; i < s->n; i++) {
    lc_buf_printf(b, "%s%s%s", i ? " " : "", p->obs[s->obs[i]].label,
                  s->cmp[i] == LT_CMP_EQ ? "=" : lt_cmp_name(s->cmp[i]));
    if (s->rhs[i] >= 0) lc_buf_puts(b, p->obs[s->rhs[i]].label);
    else lx_print_value(b, p, s->val[i]);
    lc_buf_putc(b, ';');
  }
}

/* Adds `obs cmp v` (rhs -1) or `obs cmp rhs`; false when the state
 * already gives obs another value. */
static bool state_add(lc_state *s, int obs, lt_cmp cmp, lx_val v, int rhs) {
  for (size_t i = 0; i < s->n; i++) {
    if (s->obs[i] != obs || s->cmp[i] != cmp || s->rhs[i] != rhs) continue;
    if (s->val[i] == v || rhs >= 0) return true;
    if (cmp == LT_CMP_EQ) return false;
  }
  s->rhs = lc_xrealloc(s->rhs, (s->n + 1) * sizeof(int));
  s->rhs[s->n] = rhs;
  s->obs = lc_xrealloc(s->obs, (s->n + 1) * sizeof(int));
  s->cmp = lc_xrealloc(s->cmp, (s->n + 1) * sizeof(lt_cmp));
  s->val = lc_xrealloc(s->val, (s->n + 1) * sizeof(lx_val));
  s->obs[s->n] = obs;
  s->cmp[s->n] = cmp;
  s->val[s->n++] = v;
  return true;
}

/* The comparison an item is written with: its position and length. */
static const char *find_cmp(const char *s, size_t n, lt_cmp *cmp, size_t *len) {
  static const struct { const char *op; lt_cmp cmp; } ops[] = {
    {"!=", LT_CMP_NE}, {"<=", LT_CMP_LE}, {">=", LT_CMP_GE}, {"==", LT_CMP_EQ},
    {"=", LT_CMP_EQ},  {"<", LT_CMP_LT},  {">", LT_CMP_GT},
  };
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
      size_t m = strlen(ops[k].op);
      if (i + m <= n && strncmp(s + i, ops[k].op, m) == 0) {
        *cmp = ops[k].cmp;
        *len = m;
        return s + i;
      }
    }
  return NULL;
}

/* "P1:r0", or "1:r0" as conditions spell it (herd's C and CUDA tests). */
static int obs_by_label(const lx_program *p, const char *label, size_t n) {
  for (size_t i = 0; i < p->nobs; i++)
    if (strlen(p->obs[i].label) == n && strncmp(p->obs[i].label, label, n) == 0) return (int)i;
  size_t digits = 0;
  while (digits < n && isdigit((unsigned char)label[digits])) digits++;
  if (digits == 0 || digits == n || label[digits] != ':') return -1;
  for (size_t i = 0; i < p->nobs; i++) {
    const char *l = p->obs[i].label;
    if (l[0] == 'P' && strlen(l + 1) == n && strncmp(l + 1, label, n) == 0) return (int)i;
  }
  return -1;
}

static bool parse_value(const lx_program *p, const char *s, size_t n, lx_val *v) {
  if (n > 1 && s[0] == '&') {
    for (size_t l = 0; l < p->nlocs; l++)
      if (strlen(p->locs[l].name) == n - 1 && strncmp(p->locs[l].name, s + 1, n - 1) == 0) {
        *v = lx_addr_value((int)l);
        return true;
      }
    return false;
  }
  char tmp[32], *end;
  if (n == 0 || n >= sizeof tmp) return false;
  memcpy(tmp, s, n);
  tmp[n] = '\0';
  errno = 0;
  long long x = strtoll(tmp, &end, 0);
  if (errno || *end) return false;
  *v = (lx_val)x;
  return true;
}

static size_t trim(const char **s, size_t n) {
  while (n && isspace((unsigned char)**s)) (*s)++, n--;
  while (n && isspace((unsigned char)(*s)[n - 1])) n--;
  return n;
}

int lc_state_parse(const lx_program *p, const char *text, lc_state *out, char **err) {
  assert(p && text && out && err);
  memset(out, 0, sizeof *out);
  for (const char *s = text; *s;) {
    size_t len = strcspn(s, ";");
    const char *item = s;
    s += len + (s[len] == ';');
    size_t n = trim(&item, len), oplen = 0;
    if (!n) continue;
    lt_cmp cmp = LT_CMP_EQ;
    const char *eq = find_cmp(item, n, &cmp, &oplen);
    lc_buf b;
    lc_buf_init(&b);
    const char *val = eq ? eq + oplen : NULL;
    size_t nl = eq ? (size_t)(eq - item) : n, nv = eq ? (size_t)(item + n - val) : 0;
    nl = trim(&item, nl);
    nv = val ? trim(&val, nv) : 0;
    int o = eq ? obs_by_label(p, item, nl) : -1;
    lx_val v = 0;
    int rhs = eq ? obs_by_label(p, val, nv) : -1;
    if (!eq) lc_buf_printf(&b, "'%.*s' is not of the form NAME=VALUE", (int)n, item);
    else if (o < 0) lc_buf_printf(&b, "'%.*s' is not a register or location the test shows", (int)nl, item);
    else if (rhs < 0 && !parse_value(p, val, nv, &v)) lc_buf_printf(&b, "'%.*s' is not a value", (int)nv, val);
    else if (!state_add(out, o, cmp, v, rhs)) lc_buf_printf(&b, "%.*s is given two values", (int)nl, item);
    if (b.n) {
      *err = lc_buf_take(&b);
      lc_buf_fini(&b);
      lc_state_fini(out);
      return -1;
    }
    lc_buf_fini(&b);
  }
  if (!out->n) {
    *err = lc_xstrdup("an empty state (give e.g. 'P1:r0=1; P1:r1=0;')");
    return -1;
  }
  return 0;
}

/* ---- the condition's states ------------------------------------------------------- */

typedef LC_VEC(lc_state) state_vec;

static void free_states(state_vec *v) {
  for (size_t i = 0; i < v->n; i++) lc_state_fini(&v->v[i]);
  lc_vec_free(v);
}

static bool const_value(const lx_program *p, const lt_term *t, lx_val *v) {
  if (t->kind == LT_TERM_CONST) {
    *v = t->value;
    return true;
  }
  if (t->kind != LT_TERM_ADDR) return false;
  for (size_t l = 0; l < p->nlocs; l++)
    if (strcmp(p->locs[l].name, t->loc) == 0) {
      *v = lx_addr_value((int)l);
      return true;
    }
  return false;
}

static bool merge(lc_state *into, const lc_state *from) {
  for (size_t i = 0; i < from->n; i++)
    if (!state_add(into, from->obs[i], from->cmp[i], from->val[i], from->rhs[i])) return false;
  return true;
}

static bool dnf(const lx_program *p, const lt_prop *pr, bool neg, state_vec *out);

static bool dnf_and(const lx_program *p, const lt_prop *pr, bool neg, state_vec *out) {
  state_vec l = {0}, r = {0};
  bool ok = dnf(p, pr->l, neg, &l) && dnf(p, pr->r, neg, &r);
  for (size_t i = 0; ok && i < l.n; i++)
    for (size_t j = 0; j < r.n; j++) {
      lc_state s = {0};
      if (merge(&s, &l.v[i]) && merge(&s, &r.v[j])) lc_vec_push(out, s);
      else lc_state_fini(&s);
    }
  free_states(&l);
  free_states(&r);
  return ok;
}

static lt_cmp negate(lt_cmp c) {
  static const lt_cmp neg[] = {LT_CMP_NE, LT_CMP_EQ, LT_CMP_GE, LT_CMP_GT, LT_CMP_LE, LT_CMP_LT};
  return neg[c];
}

/* `c OP x` as `x OP' c`. */
static lt_cmp mirror(lt_cmp c) {
  static const lt_cmp mir[] = {LT_CMP_EQ, LT_CMP_NE, LT_CMP_GT, LT_CMP_GE, LT_CMP_LT, LT_CMP_LE};
  return mir[c];
}

static bool dnf_cmp(const lx_program *p, const lt_prop *pr, bool neg, state_vec *out) {
  const lt_term *o = &pr->lhs, *c = &pr->rhs;
  lt_cmp cmp = neg ? negate(pr->cmp) : pr->cmp;
  if (lx_obs_index(p, o) < 0) o = &pr->rhs, c = &pr->lhs, cmp = mirror(cmp);
  lx_val v = 0;
  int rhs = lx_obs_index(p, c);
  if (lx_obs_index(p, o) < 0 || (rhs < 0 && !const_value(p, c, &v))) return false;
  lc_state s = {0};
  state_add(&s, lx_obs_index(p, o), cmp, v, rhs);
  lc_vec_push(out, s);
  return true;
}

/* The disjunctive normal form of pr, or of its negation when neg. */
static bool dnf(const lx_program *p, const lt_prop *pr, bool neg, state_vec *out) {
  lc_state s = {0};
  switch (pr->kind) {
  case LT_PROP_TRUE:
  case LT_PROP_FALSE:
    if ((pr->kind == LT_PROP_TRUE) != neg) lc_vec_push(out, s);
    return true;
  case LT_PROP_NOT: return dnf(p, pr->l, !neg, out);
  case LT_PROP_OR:
  case LT_PROP_AND:
    if ((pr->kind == LT_PROP_OR) != neg) return dnf(p, pr->l, neg, out) && dnf(p, pr->r, neg, out);
    return dnf_and(p, pr, neg, out);
  case LT_PROP_CMP: return dnf_cmp(p, pr, neg, out);
  }
  return false;
}

bool lc_state_of_condition(const lx_program *p, lc_state **out, size_t *n) {
  assert(p && p->test && out && n);
  state_vec v = {0};
  if (!dnf(p, p->test->cond, p->test->quant == LT_COND_FORALL, &v) || !v.n) {
    free_states(&v);
    *out = NULL;
    *n = 0;
    return false;
  }
  *out = v.v;
  *n = v.n;
  return true;
}

void lc_state_of_values(const lx_program *p, const lx_val *values, lc_state *out) {
  assert(p && out && (values || p->nshown == 0));
  memset(out, 0, sizeof *out);
  for (size_t k = 0; k < p->nshown; k++) state_add(out, (int)k, LT_CMP_EQ, values[k], -1);
}

void lc_state_copy(const lc_state *s, lc_state *out) {
  assert(s && out && s != out);
  memset(out, 0, sizeof *out);
  for (size_t i = 0; i < s->n; i++) state_add(out, s->obs[i], s->cmp[i], s->val[i], s->rhs[i]);
}
