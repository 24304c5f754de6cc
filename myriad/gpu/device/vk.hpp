// The Vulkan include for the gpu and render modules, plus result checking that turns any failing
// call into a myriad::Error naming the call and the VkResult.
#pragma once

#include <vulkan/vulkan.h>

#include "myriad/core/io/error.hpp"

namespace myriad::gpu {

const char* result_name(VkResult result);

// Throws myriad::Error("<what> failed: VK_ERROR_...") unless result is VK_SUCCESS.
inline void check(VkResult result, const char* what) {
  if (result != VK_SUCCESS) [[unlikely]] {
    throw Error(std::string(what) + " failed: " + result_name(result));
  }
}

}  // namespace myriad::gpu
