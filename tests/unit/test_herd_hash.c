/* test_herd_hash.c - MD5 and herd7's C test hash (litmus/herd_hash.h).
 * SPDX-License-Identifier: MIT
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "litmus/herd_hash.h"

#include <stdio.h>
#include <string.h>

static void hex(const uint8_t d[16], char out[33]) {
  for (int i = 0; i < 16; i++) snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* RFC 1321's test suite, and lengths around the padding boundary */
static void test_md5_vectors(void **state) {
  (void)state;
  static const struct { const char *in, *want; } v[] = {
    {"", "d41d8cd98f00b204e9800998ecf8427e"},
    {"a", "0cc175b9c0f1b6a831c399e269772661"},
    {"abc", "900150983cd24fb0d6963f7d28e17f72"},
    {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
    {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
    {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"},
    {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
     "57edf4a22be3c955ac49da2e2107b67a"},
  };
  char got[33];
  uint8_t d[16];
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    lt_md5(v[i].in, strlen(v[i].in), d);
    hex(d, got);
    assert_string_equal(got, v[i].want);
  }
}

/* herd7 (herdtools7 61e77ef) prints Hash=3f433afe... for this test */
static void test_herd_hash_sb(void **state) {
  (void)state;
  static const char sb[] =
      "C SB\n{ [x] = 0; [y] = 0; }\n"
      "P0 (atomic_int* x, atomic_int* y) {\n"
      "  atomic_store_explicit(x, 1, memory_order_relaxed);\n"
      "  int r0 = atomic_load_explicit(y, memory_order_relaxed);\n}\n"
      "P1 (atomic_int* x, atomic_int* y) {\n"
      "  atomic_store_explicit(y, 1, memory_order_relaxed);\n"
      "  int r0 = atomic_load_explicit(x, memory_order_relaxed);\n}\n"
      "exists (0:r0=0 /\\ 1:r0=0)\n";
  char h[33];
  assert_int_equal(lt_herd_hash(sb, strlen(sb), h), 0);
  assert_string_equal(h, "3f433afe451ac1a267ecf53a1d7e51a6");
}

/* a Hash= among the information lines is herd's hash; a form not
 * followed (a declaration without a value) and a PTX test have none */
static void test_herd_hash_given_and_refused(void **state) {
  (void)state;
  static const char given[] = "C T\nHash=0123456789abcdef0123456789abcdef\n{ x = 0; }\nP0 (int* x) { *x = 1; }\nexists (x=1)\n";
  char h[33] = "";
  assert_int_equal(lt_herd_hash(given, strlen(given), h), 0);
  assert_string_equal(h, "0123456789abcdef0123456789abcdef");
  static const char decl[] = "C T\n{ __uint128_t x; }\nP0 (__uint128_t* x) { *x = 1; }\nforall ([x]=1)\n";
  assert_int_equal(lt_herd_hash(decl, strlen(decl), h), -1);
  static const char ptx[] = "PTX T\n{ x = 0; }\n P0 ;\n st.relaxed.gpu.u32 [x], 1 ;\nexists (x=1)\n";
  assert_int_equal(lt_herd_hash(ptx, strlen(ptx), h), -1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_md5_vectors),
    cmocka_unit_test(test_herd_hash_sb),
    cmocka_unit_test(test_herd_hash_given_and_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
