// Byte and half-word stores and loads of values read from memory.
// unsigned char keeps the low 8 bits of what is stored (C++ [conv.integral]:
// the value modulo 2^8), signed char and short the value those bits have
// in two's complement (C++20 and CUDA: modulo 2^N as well); a load of a
// narrow type converts its value to int unchanged.  PTX: st.u8/.u16 store
// the low bits, ld.u8 zero-extends, ld.s8/.s16 sign-extends (PTX ISA,
// "ld", "st": the value is extended to the register's size).  So, from
// in = {300, -1, 40000}: b = {44, 255}, h = {-25536}; out = {44, -1, 255,
// -25536}.  One thread: no race.
//
// @Launch: <<<1, 1>>>
// @Input: in = {300, -1, 40000}; b = {0, 0}; h = {0}; out = {0, 0, 0, 0}
// @Output: forall (b[0] == 44 && b[1] == 255 && h[0] == -25536 && out[0] == 44 && out[1] == -1 && out[2] == 255 && out[3] == -25536)

__global__ void narrow(const int *in, unsigned char *b, short *h, int *out) {
  volatile unsigned char *ub = b;
  volatile signed char *sb = (volatile signed char *)b;
  volatile short *vh = h;
  ub[0] = in[0];
  ub[1] = in[1];
  vh[0] = in[2];
  out[0] = ub[0];
  out[1] = sb[1];
  out[2] = ub[1];
  out[3] = vh[0];
}
