// Exit codes the `myriad` commands share: a run that produced validation messages fails with 3, so
// scripts and CI catch a GPU usage error even when the output looks right.
#pragma once

#include <cstdio>

#include "myriad/gpu/device/context.hpp"

namespace myriad::app {

inline constexpr int kExitValidationMessages = 3;

// 0 when the context saw no validation message; otherwise says how many on stderr and returns 3.
inline int validation_exit_code(const gpu::Context& ctx) {
  const unsigned messages = ctx.validation_message_count();
  if (messages == 0) return 0;
  std::fprintf(stderr, "myriad: %u validation messages\n", messages);
  return kExitValidationMessages;
}

}  // namespace myriad::app
