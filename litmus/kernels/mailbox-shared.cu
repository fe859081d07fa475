// A mailbox struct as a __shared__ variable, 1 block of 2 threads: thread
// 0 puts a value in it through a member function, the block meets at
// __syncthreads(), thread 1 takes the value through another.  The
// barrier orders thread 0's writes of the mailbox's fields before thread
// 1's reads (a CTA barrier, CUDA C++ Programming Guide; happens-before in
// the CUDA C++ memory model), so thread 1 reads full == 1 and data == 42
// and stores 42; no race.
//
// @Launch: <<<1, 2>>>
// @Input: out = {-1}
// @Output: forall (out[0] == 42)

struct Mailbox {
  int data;
  int full;

  __device__ void put(int v) {
    data = v;
    full = 1;
  }

  __device__ int take() const { return full ? data : -2; }
};

__global__ void mailbox_shared(int *out) {
  __shared__ Mailbox box;
  if (threadIdx.x == 0) {
    box.put(42);
  }
  __syncthreads();
  if (threadIdx.x == 1) {
    *out = box.take();
  }
}
