#include "myriad/core/thread/thread_priority.hpp"

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace myriad {

bool lower_current_thread_priority(int nice) {
#ifdef __linux__
  // On Linux, PRIO_PROCESS with a thread id sets that thread's nice value alone.
  return ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), nice) == 0;
#else
  (void)nice;
  return false;
#endif
}

}  // namespace myriad
