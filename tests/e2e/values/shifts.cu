// C's integer expressions in a kernel, each value worked out by hand from
// C11 6.3.1 (conversions), 6.4.4.1 (the type of a literal) and 6.5.7
// (shifts): one thread, so every value is the only one.
//   o[0] = (0u - 1u) >> 28: unsigned wraps to 4294967295, a logical shift: 15
//   o[1] = -16 >> 2: an int shifts arithmetically (nvcc): -4
//   o[2] = 1 << 31: the int whose bits are 0x80000000: -2147483648
//   o[3] = 5 << k with k = 3 read from memory: 40
//   o[4] = x after x <<= k (x = 3), x >>= 1: 24 >> 1 = 12
//   q[0] = (1ull << 63) >> 62: unsigned long long, logical: 2
//   q[1] = 0xffffffff + 1: a hexadecimal literal that fits 32 bits unsigned
//          is unsigned, so the sum wraps: 0 (4294967296 were it long long)
//   w[0]: atomicAdd(w, 1u) on 4294967295 wraps: 0
//
// @Launch: <<<1, 1>>>
// @Input: c = {3}; o = {0, 0, 0, 0, 0}; q = {0, 0}; w = {4294967295}
// @Output: forall (o[0] == 15 && o[1] == -4 && o[2] == -2147483648 && o[3] == 40 && o[4] == 12 && q[0] == 2 && q[1] == 0 && w[0] == 0)

__global__ void shifts(int *c, int *o, unsigned long long *q, unsigned *w) {
  int k = c[0];
  o[0] = (0u - 1u) >> 28;
  o[1] = -16 >> 2;
  o[2] = 1 << 31;
  o[3] = 5 << k;
  int x = 3;
  x <<= k;
  x >>= 1;
  o[4] = x;
  q[0] = (1ull << 63) >> 62;
  q[1] = 0xffffffff + 1;
  atomicAdd(w, 1u);
}
