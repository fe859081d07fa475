/* test_lex.c - the lexer: tokens, values, positions, the header's raw
 * reads, and the checks of the input's encoding.
 * SPDX-License-Identifier: MIT
 */
#include "litmus_util.h"
#include "litmus/lex.h"

typedef struct lexed {
  lc_source src;
  lc_diag d;
  lt_lexer ls;
  lt_token tok[64];
  int n;        /* tokens read, EOF included */
  int status;   /* 0, or -1 after an error */
} lexed;

/* Reads every token of text (up to 64). */
static void lex_n(lexed *x, const char *text, size_t len) {
  memset(x, 0, sizeof *x);
  lc_source_from_string(&x->src, "t.litmus", text, len);
  lc_diag_init(&x->d, &x->src, NULL);
  x->status = lt_lex_init(&x->ls, &x->src, &x->d);
  while (x->status == 0 && x->n < 64) {
    x->status = lt_lex_next(&x->ls);
    if (x->status < 0) break;
    x->tok[x->n++] = x->ls.t;
    if (x->ls.t.kind == LT_TOK_EOF) break;
  }
}

static void lex(lexed *x, const char *text) { lex_n(x, text, strlen(text)); }

static void lexed_fini(lexed *x) {
  lc_diag_fini(&x->d);
  lc_source_fini(&x->src);
}

static void assert_tok(const lt_token *t, lt_tok_kind kind, const char *text, int line, int col) {
  assert_int_equal(t->kind, kind);
  assert_int_equal(t->len, strlen(text));
  assert_memory_equal(t->text, text, t->len);
  assert_int_equal(t->at.line, line);
  assert_int_equal(t->at.col, col);
}

static void assert_lex_error(const char *text, size_t len, const char *error) {
  lexed x;
  lex_n(&x, text, len);
  assert_int_equal(x.status, -1);
  assert_int_equal(x.d.nerrors, 1);
  assert_string_equal(lc_diag_first_error(&x.d), error);
  lexed_fini(&x);
}

static void test_lex_instruction_tokens(void **state) {
  (void)state;
  lexed x;
  lex(&x, " ld.acquire.gpu.global.u32 r1, [y] |\n\tLC00: P12:r3 ;");
  assert_int_equal(x.status, 0);
  assert_int_equal(x.n, 14);
  assert_tok(&x.tok[0], LT_TOK_WORD, "ld.acquire.gpu.global.u32", 1, 2);
  assert_tok(&x.tok[1], LT_TOK_REG, "r1", 1, 28);
  assert_int_equal(x.tok[1].value, 1);
  assert_tok(&x.tok[2], LT_TOK_COMMA, ",", 1, 30);
  assert_tok(&x.tok[3], LT_TOK_LBRACKET, "[", 1, 32);
  assert_tok(&x.tok[4], LT_TOK_WORD, "y", 1, 33);
  assert_tok(&x.tok[5], LT_TOK_RBRACKET, "]", 1, 34);
  assert_tok(&x.tok[6], LT_TOK_BAR, "|", 1, 36);
  assert_tok(&x.tok[7], LT_TOK_WORD, "LC00", 2, 2);   /* a tab is one byte, one column */
  assert_tok(&x.tok[8], LT_TOK_COLON, ":", 2, 6);
  assert_tok(&x.tok[9], LT_TOK_THREAD, "P12", 2, 8);
  assert_int_equal(x.tok[9].value, 12);
  assert_tok(&x.tok[10], LT_TOK_COLON, ":", 2, 11);
  assert_tok(&x.tok[11], LT_TOK_REG, "r3", 2, 12);
  assert_tok(&x.tok[12], LT_TOK_SEMI, ";", 2, 15);
  assert_tok(&x.tok[13], LT_TOK_EOF, "", 2, 16);
  lexed_fini(&x);
}

static void test_lex_words_that_are_not_registers(void **state) {
  (void)state;
  lexed x;
  lex(&x, "rd1 r p0 P Px1 r1.x _a9 x_y");
  assert_int_equal(x.status, 0);
  const char *words[] = {"rd1", "r", "p0", "P", "Px1", "r1.x", "_a9", "x_y"};
  for (int i = 0; i < 8; i++) assert_tok(&x.tok[i], LT_TOK_WORD, words[i], 1, x.tok[i].at.col);
  lexed_fini(&x);
}

static void test_lex_register_and_thread_bounds(void **state) {
  (void)state;
  lexed x;
  lex(&x, "r65535 P1048575 r007");
  assert_int_equal(x.status, 0);
  assert_int_equal(x.tok[0].value, 65535);
  assert_int_equal(x.tok[1].value, 1048575);
  assert_int_equal(x.tok[2].value, 7);
  lexed_fini(&x);
  assert_lex_error("  r65536", 8, "t.litmus:1:3: error: register 'r65536' out of range (r0..r65535)");
  assert_lex_error("P1048576", 8, "t.litmus:1:1: error: thread 'P1048576' out of range (P0..P1048575)");
  assert_lex_error("r99999999999999999999999", 24,
                   "t.litmus:1:1: error: register 'r99999999999999999999999' out of range (r0..r65535)");
}

static void test_lex_numbers(void **state) {
  (void)state;
  lexed x;
  lex(&x, "0 42 -7 0x1F 0XfF -0x10 9223372036854775807 -9223372036854775808 18446744073709551615");
  assert_int_equal(x.status, 0);
  int64_t want[] = {0, 42, -7, 31, 255, -16, INT64_MAX, INT64_MIN, -1};
  for (int i = 0; i < 9; i++) {
    assert_int_equal(x.tok[i].kind, LT_TOK_INT);
    assert_true(x.tok[i].value == want[i]);
  }
  lexed_fini(&x);
}

static void test_lex_bad_numbers(void **state) {
  (void)state;
  assert_lex_error("x 12ab", 6, "t.litmus:1:3: error: malformed number '12ab'");
  assert_lex_error("0x", 2, "t.litmus:1:1: error: malformed number '0x'");
  assert_lex_error("0xg1", 4, "t.litmus:1:1: error: malformed number '0xg1'");
  assert_lex_error("-1_000", 6, "t.litmus:1:1: error: malformed number '-1_000'");
  assert_lex_error("18446744073709551616", 20,
                   "t.litmus:1:1: error: number '18446744073709551616' does not fit in 64 bits");
  assert_lex_error("-9223372036854775809", 20,
                   "t.litmus:1:1: error: number '-9223372036854775809' does not fit in 64 bits");
}

static void test_lex_operators(void **state) {
  (void)state;
  lexed x;
  lex(&x, "/\\ \\/ && || == != <= >= < > = ~ ! & @ : ( ) { }");
  assert_int_equal(x.status, 0);
  lt_tok_kind want[] = {LT_TOK_AND, LT_TOK_OR, LT_TOK_AND, LT_TOK_OR, LT_TOK_EQEQ, LT_TOK_NE,
                        LT_TOK_LE, LT_TOK_GE, LT_TOK_LT, LT_TOK_GT, LT_TOK_EQ, LT_TOK_NOT,
                        LT_TOK_NOT, LT_TOK_AMP, LT_TOK_AT, LT_TOK_COLON, LT_TOK_LPAREN,
                        LT_TOK_RPAREN, LT_TOK_LBRACE, LT_TOK_RBRACE, LT_TOK_EOF};
  assert_int_equal(x.n, (int)LC_ARRAY_LEN(want));
  for (size_t i = 0; i < LC_ARRAY_LEN(want); i++) assert_int_equal(x.tok[i].kind, want[i]);
  lexed_fini(&x);
}

static void test_lex_comments_nest(void **state) {
  (void)state;
  lexed x;
  lex(&x, "(* a (* b *) c *)x(**)y (* \xc3\xa9 { \" *)\n z");
  assert_int_equal(x.status, 0);
  assert_tok(&x.tok[0], LT_TOK_WORD, "x", 1, 18);
  assert_tok(&x.tok[1], LT_TOK_WORD, "y", 1, 23);
  assert_tok(&x.tok[2], LT_TOK_WORD, "z", 2, 2);
  lexed_fini(&x);
  assert_lex_error("x (* (* *)", 10, "t.litmus:1:3: error: unterminated comment");
}

static void test_lex_unexpected_characters(void **state) {
  (void)state;
  assert_lex_error("x $", 3, "t.litmus:1:3: error: unexpected character '$'");
  assert_lex_error("ld.weak.", 8, "t.litmus:1:8: error: unexpected character '.'");
  assert_lex_error("a\n  \xc3\xa9", 6, "t.litmus:2:3: error: unexpected character '\xc3\xa9'");
  assert_lex_error("a \x01", 3, "t.litmus:1:3: error: unexpected byte 0x01");
  assert_lex_error("x - 1", 5, "t.litmus:1:3: error: unexpected character '-'");
  assert_lex_error("a / b", 5, "t.litmus:1:3: error: unexpected character '/'");
}

static void test_lex_encoding(void **state) {
  (void)state;
  assert_lex_error("ok\nab\0c", 7, "t.litmus:2:3: error: binary input: NUL byte");
  assert_lex_error("x\n\n  \xff", 6, "t.litmus:3:3: error: input is not valid UTF-8: byte 0xff");
  assert_lex_error("(* \xc3( *)", 8, "t.litmus:1:4: error: input is not valid UTF-8: byte 0xc3");
  assert_lex_error("\xc0\x80", 2, "t.litmus:1:1: error: input is not valid UTF-8: byte 0xc0");
  assert_lex_error("a\xe0\x80\x80", 4, "t.litmus:1:2: error: input is not valid UTF-8: byte 0xe0");
  assert_lex_error("\xed\xa0\x80", 3, "t.litmus:1:1: error: input is not valid UTF-8: byte 0xed");
  assert_lex_error("\xf4\x90\x80\x80", 4, "t.litmus:1:1: error: input is not valid UTF-8: byte 0xf4");
  assert_lex_error("ab\xe2\x82", 4, "t.litmus:1:3: error: input is not valid UTF-8: byte 0xe2");
  assert_lex_error("\x80", 1, "t.litmus:1:1: error: input is not valid UTF-8: byte 0x80");
  /* The first bad byte wins, even after a later syntax error would. */
  assert_lex_error("$ \xfe", 3, "t.litmus:1:3: error: input is not valid UTF-8: byte 0xfe");
  lexed x;
  lex(&x, "\xef\xbb\xbfx (* \xf0\x9f\x98\x80 *)");
  assert_int_equal(x.status, 0);
  assert_tok(&x.tok[0], LT_TOK_WORD, "x", 1, 4);   /* after the byte-order mark */
  lexed_fini(&x);
}

static void test_lex_crlf_lines(void **state) {
  (void)state;
  lexed x;
  lex(&x, "a\r\nb\r\n\r\n  c");
  assert_int_equal(x.status, 0);
  assert_tok(&x.tok[0], LT_TOK_WORD, "a", 1, 1);
  assert_tok(&x.tok[1], LT_TOK_WORD, "b", 2, 1);
  assert_tok(&x.tok[2], LT_TOK_WORD, "c", 4, 3);
  lexed_fini(&x);
}

static void test_lex_peek(void **state) {
  (void)state;
  lexed x;
  lex(&x, "");
  lexed_fini(&x);
  lc_source_from_string(&x.src, "t.litmus", "LC00 : x", 8);
  lc_diag_init(&x.d, &x.src, NULL);
  assert_int_equal(lt_lex_init(&x.ls, &x.src, &x.d), 0);
  assert_int_equal(lt_lex_next(&x.ls), 0);
  assert_int_equal(lt_lex_peek(&x.ls), 0);
  assert_int_equal(lt_lex_peek(&x.ls), 0);   /* peeking twice reads nothing more */
  assert_int_equal(x.ls.t.kind, LT_TOK_WORD);
  assert_int_equal(x.ls.ahead.kind, LT_TOK_COLON);
  assert_int_equal(lt_lex_next(&x.ls), 0);
  assert_tok(&x.ls.t, LT_TOK_COLON, ":", 1, 6);
  assert_int_equal(lt_lex_next(&x.ls), 0);
  assert_tok(&x.ls.t, LT_TOK_WORD, "x", 1, 8);
  lexed_fini(&x);
}

/* Reads the header of text: the first token, the name and the doc. */
static int header(lexed *x, const char *text, lt_token *name, const char **doc, size_t *len) {
  memset(x, 0, sizeof *x);
  lc_source_from_string(&x->src, "t.litmus", text, strlen(text));
  lc_diag_init(&x->d, &x->src, NULL);
  if (lt_lex_init(&x->ls, &x->src, &x->d) < 0 || lt_lex_next(&x->ls) < 0 ||
      lt_lex_name(&x->ls, name) < 0 || lt_lex_doc(&x->ls, doc, len) < 0)
    return -1;
  return lt_lex_next(&x->ls);
}

static void test_lex_header_name_and_doc(void **state) {
  (void)state;
  lexed x;
  lt_token name;
  const char *doc;
  size_t len;
  assert_int_equal(header(&x, "PTX MP+rel.acq,x_-1 \"a { b\" (* { *)\n  \"c (x > y)\"\n{", &name,
                          &doc, &len), 0);
  assert_tok(&name, LT_TOK_WORD, "MP+rel.acq,x_-1", 1, 5);
  assert_int_equal(len, strlen("\"a { b\" (* { *)\n  \"c (x > y)\""));
  assert_memory_equal(doc, "\"a { b\" (* { *)\n  \"c (x > y)\"", len);
  assert_tok(&x.ls.t, LT_TOK_LBRACE, "{", 3, 1);
  lexed_fini(&x);

  assert_int_equal(header(&x, "ptx\n  SB{", &name, &doc, &len), 0);
  assert_tok(&name, LT_TOK_WORD, "SB", 2, 3);
  assert_int_equal(len, 0);
  lexed_fini(&x);
}

static void header_error(const char *text, const char *error) {
  lexed x;
  lt_token name;
  const char *doc;
  size_t len;
  assert_int_equal(header(&x, text, &name, &doc, &len), -1);
  assert_int_equal(x.d.nerrors, 1);
  assert_string_equal(lc_diag_first_error(&x.d), error);
  lexed_fini(&x);
}

static void test_lex_header_errors(void **state) {
  (void)state;
  header_error("PTX", "t.litmus:1:4: error: expected the test name after 'PTX', found end of file");
  header_error("PTX \"doc\"", "t.litmus:1:5: error: expected the test name after 'PTX', found character '\"'");
  header_error("PTX MP#2 {", "t.litmus:1:7: error: unexpected character '#' in the test name (names use "
               "letters, digits and + - _ . ,)");
  header_error("PTX MP\n\"doc { \n", "t.litmus:2:1: error: unterminated string");
  header_error("PTX MP (* {", "t.litmus:1:8: error: unterminated comment");
  header_error("PTX MP \"x\"\n", "t.litmus:2:1: error: expected '{' to open the init block, found end of file");
}

static void test_lex_token_description(void **state) {
  (void)state;
  char buf[64];
  lt_token t = {LT_TOK_EOF, "", 0, {"t", 1, 1}, 0};
  assert_string_equal(lt_tok_desc(&t, buf, sizeof buf), "end of file");
  t.kind = LT_TOK_WORD;
  t.text = "ld.weak";
  t.len = 7;
  assert_string_equal(lt_tok_desc(&t, buf, sizeof buf), "'ld.weak'");
  t.text = "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz";
  t.len = strlen(t.text);
  assert_string_equal(lt_tok_desc(&t, buf, sizeof buf), "'abcdefghijklmnopqrstuvwxyzabcdefghijk...'");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_lex_instruction_tokens),
    cmocka_unit_test(test_lex_words_that_are_not_registers),
    cmocka_unit_test(test_lex_register_and_thread_bounds),
    cmocka_unit_test(test_lex_numbers),
    cmocka_unit_test(test_lex_bad_numbers),
    cmocka_unit_test(test_lex_operators),
    cmocka_unit_test(test_lex_comments_nest),
    cmocka_unit_test(test_lex_unexpected_characters),
    cmocka_unit_test(test_lex_encoding),
    cmocka_unit_test(test_lex_crlf_lines),
    cmocka_unit_test(test_lex_peek),
    cmocka_unit_test(test_lex_header_name_and_doc),
    cmocka_unit_test(test_lex_header_errors),
    cmocka_unit_test(test_lex_token_description),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
