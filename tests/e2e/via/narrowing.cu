// Arithmetic on values read from memory at PTX's widths: an arithmetic
// shift of a negative int (-3 >> 1 is -2: shr.s32, not a division, which
// rounds toward zero), the low word of a 64-bit value compared as a
// 32-bit one (cvt.u32.u64, then setp.eq.s32), and a 64-bit value narrowed
// to int (cvt.s32.s64... or nvcc's shl/shr.s64 pair).
// @Launch: <<<1, 1>>>
// @Input: x = {-3}; y = {4294967301}; out = {0, 0, 0}
// @Output: forall (out[0] == -2 /\ out[1] == 1 /\ out[2] == 5)
__global__ void narrowing(int *x, unsigned long long *y, int *out) {
  int v = *(volatile int *)x;
  out[0] = v >> 1;
  unsigned long long w = *(volatile unsigned long long *)y;
  unsigned lo = (unsigned)w;
  out[1] = lo == 5u;
  out[2] = (int)w;
}
