// Bounded appends to fixed-capacity lists (myriad::gpu::AppendOverflow on the CPU side). The shader
// declares `buffer Overflow { uint overflow; }`. BOUNDED_APPEND reserves `n` entries of a list whose
// count is the buffer word `counter` and whose capacity is `capacity`, and sets `base` to the first
// reserved index; indices at or past the capacity must not be written. Those entries are added to
// `overflow`, and the count is clamped back: every add that passed the capacity is followed by its own
// atomicMin, so once all threads are done the count is at most the capacity and draws reading it stay
// inside their lists. (A macro because GLSL cannot pass a buffer word to a function by reference.)
#ifndef MYRIAD_BOUNDED_APPEND_GLSL
#define MYRIAD_BOUNDED_APPEND_GLSL
#define BOUNDED_APPEND(counter, n, capacity, base)                     \
  {                                                                    \
    base = atomicAdd(counter, n);                                      \
    if (base + (n) > (capacity)) {                                     \
      atomicAdd(overflow, base + (n) - max(base, (capacity)));         \
      atomicMin(counter, (capacity));                                  \
    }                                                                  \
  }
#endif
