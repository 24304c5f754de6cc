// Background threads (streaming, file parsing, meshing) run below the frame's thread: on a machine with
// few cores a background job that takes the frame thread's core for a scheduler slice is a hitch, while
// a background job that waits a little is not. Linux only; elsewhere the preference is simply lost.
#pragma once

namespace myriad {

// The nice value background workers of the streamers use (higher = lower priority; 0 is the default).
inline constexpr int kBackgroundNice = 10;

// Lowers the calling thread's scheduling priority to `nice` (a thread may always lower its own). Returns
// false where that is not possible (another OS, or refused); the thread then runs as before.
bool lower_current_thread_priority(int nice = kBackgroundNice);

}  // namespace myriad
