// @Launch: <<<2, 1>>>
// @Input: x = {0}
#include <thrust/device_vector.h>
__global__ void k(int *x) {
  *x = 1;
}
