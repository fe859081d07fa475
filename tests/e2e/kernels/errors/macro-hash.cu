// @Launch: <<<2, 1>>>
// @Input: x = {0}
#define STR(a) #a
__global__ void k(int *x) {
  *x = 1;
}
