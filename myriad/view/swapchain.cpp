#include "myriad/view/swapchain.hpp"

#include <algorithm>

namespace myriad::view {
namespace {

template <class T, class F>
std::vector<T> enumerate(F&& query) {
  std::uint32_t count = 0;
  query(&count, nullptr);
  std::vector<T> out(count);
  query(&count, out.data());
  out.resize(count);
  return out;
}

bool can_blit_to(VkPhysicalDevice device, VkFormat format) {
  VkFormatProperties props;
  vkGetPhysicalDeviceFormatProperties(device, format, &props);
  return (props.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_DST_BIT) != 0;
}

// An 8-bit UNORM format shows the scene's bytes as they are (the headless PNGs hold the same bytes);
// any other format the frame can be blitted into will do.
VkSurfaceFormatKHR choose_format(VkPhysicalDevice device, const std::vector<VkSurfaceFormatKHR>& formats) {
  for (VkFormat want : {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM}) {
    for (const VkSurfaceFormatKHR& f : formats) {
      if (f.format == want && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR && can_blit_to(device, want))
        return f;
    }
  }
  for (const VkSurfaceFormatKHR& f : formats) {
    if (can_blit_to(device, f.format)) return f;
  }
  throw Error("the window's surface offers no format the frame can be copied into", "swapchain",
              "use another display or driver");
}

VkPresentModeKHR choose_present_mode(const std::vector<VkPresentModeKHR>& modes, bool vsync) {
  if (!vsync) {
    for (VkPresentModeKHR want : {VK_PRESENT_MODE_MAILBOX_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR}) {
      if (std::find(modes.begin(), modes.end(), want) != modes.end()) return want;
    }
  }
  return VK_PRESENT_MODE_FIFO_KHR;  // always supported
}

}  // namespace

Swapchain::Swapchain(gpu::Context& ctx, VkSurfaceKHR surface, VkExtent2D wanted, bool vsync)
    : ctx_(ctx), surface_(surface), vsync_(vsync) {
  try {
    VkBool32 supported = VK_FALSE;
    gpu::check(
        vkGetPhysicalDeviceSurfaceSupportKHR(ctx.physical_device(), ctx.queue_family(), surface, &supported),
        "vkGetPhysicalDeviceSurfaceSupportKHR");
    if (!supported) {
      throw Error("the Vulkan device '" + ctx.device_name() + "' cannot present to this window", "swapchain",
                  "choose another device with MYRIAD_DEVICE (see `myriad info`)");
    }
    VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    gpu::check(vkCreateSemaphore(ctx.device(), &info, nullptr, &acquired_), "vkCreateSemaphore");
    create(wanted, VK_NULL_HANDLE);
  } catch (...) {
    release();
    throw;
  }
}

Swapchain::~Swapchain() { release(); }

void Swapchain::release() noexcept {
  vkDeviceWaitIdle(ctx_.device());
  destroy_image_semaphores();
  if (acquired_) vkDestroySemaphore(ctx_.device(), acquired_, nullptr);
  acquired_ = VK_NULL_HANDLE;
  if (swapchain_) vkDestroySwapchainKHR(ctx_.device(), swapchain_, nullptr);
  swapchain_ = VK_NULL_HANDLE;
  if (surface_) vkDestroySurfaceKHR(ctx_.instance(), surface_, nullptr);
  surface_ = VK_NULL_HANDLE;
}

void Swapchain::destroy_image_semaphores() noexcept {
  for (VkSemaphore s : present_ready_) vkDestroySemaphore(ctx_.device(), s, nullptr);
  present_ready_.clear();
}

void Swapchain::recreate(VkExtent2D wanted) {
  gpu::check(vkDeviceWaitIdle(ctx_.device()), "vkDeviceWaitIdle");
  VkSwapchainKHR old = swapchain_;
  swapchain_ = VK_NULL_HANDLE;
  try {
    create(wanted, old);
  } catch (...) {
    vkDestroySwapchainKHR(ctx_.device(), old, nullptr);
    throw;
  }
  vkDestroySwapchainKHR(ctx_.device(), old, nullptr);
}

void Swapchain::create(VkExtent2D wanted, VkSwapchainKHR old) {
  const VkPhysicalDevice physical = ctx_.physical_device();
  VkSurfaceCapabilitiesKHR caps;
  gpu::check(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical, surface_, &caps),
             "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
  const auto formats = enumerate<VkSurfaceFormatKHR>([&](std::uint32_t* n, VkSurfaceFormatKHR* out) {
    gpu::check(vkGetPhysicalDeviceSurfaceFormatsKHR(physical, surface_, n, out),
               "vkGetPhysicalDeviceSurfaceFormatsKHR");
  });
  const auto modes = enumerate<VkPresentModeKHR>([&](std::uint32_t* n, VkPresentModeKHR* out) {
    gpu::check(vkGetPhysicalDeviceSurfacePresentModesKHR(physical, surface_, n, out),
               "vkGetPhysicalDeviceSurfacePresentModesKHR");
  });
  if (!(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT)) {
    throw Error("the window's surface cannot be written by copies (no TRANSFER_DST usage)", "swapchain",
                "use another display or driver");
  }
  const VkSurfaceFormatKHR format = choose_format(physical, formats);
  present_mode_ = choose_present_mode(modes, vsync_);
  // The surface decides the size unless it reports the special value 0xFFFFFFFF.
  extent_ = caps.currentExtent;
  if (extent_.width == 0xFFFFFFFFu) {
    extent_.width = std::clamp(wanted.width, caps.minImageExtent.width, caps.maxImageExtent.width);
    extent_.height = std::clamp(wanted.height, caps.minImageExtent.height, caps.maxImageExtent.height);
  }
  std::uint32_t image_count = caps.minImageCount + 1;
  if (caps.maxImageCount > 0) image_count = std::min(image_count, caps.maxImageCount);
  readable_ = (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0 &&
              (format.format == VK_FORMAT_B8G8R8A8_UNORM || format.format == VK_FORMAT_R8G8B8A8_UNORM);

  VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
  info.surface = surface_;
  info.minImageCount = image_count;
  info.imageFormat = format.format;
  info.imageColorSpace = format.colorSpace;
  info.imageExtent = extent_;
  info.imageArrayLayers = 1;
  info.imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                    (readable_ ? VkImageUsageFlags(VK_IMAGE_USAGE_TRANSFER_SRC_BIT) : VkImageUsageFlags(0));
  info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.preTransform = caps.currentTransform;
  info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  for (VkCompositeAlphaFlagBitsKHR mode :
       {VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR, VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR,
        VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR, VK_COMPOSITE_ALPHA_POST_MULTIPLIED_BIT_KHR}) {
    if (caps.supportedCompositeAlpha & mode) {
      info.compositeAlpha = mode;
      break;
    }
  }
  info.presentMode = present_mode_;
  info.clipped = VK_TRUE;
  info.oldSwapchain = old;
  gpu::check(vkCreateSwapchainKHR(ctx_.device(), &info, nullptr, &swapchain_), "vkCreateSwapchainKHR");
  format_ = format.format;

  images_ = enumerate<VkImage>([&](std::uint32_t* n, VkImage* out) {
    gpu::check(vkGetSwapchainImagesKHR(ctx_.device(), swapchain_, n, out), "vkGetSwapchainImagesKHR");
  });
  destroy_image_semaphores();
  VkSemaphoreCreateInfo semaphore_info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  for (std::size_t i = 0; i < images_.size(); ++i) {
    VkSemaphore s = VK_NULL_HANDLE;
    gpu::check(vkCreateSemaphore(ctx_.device(), &semaphore_info, nullptr, &s), "vkCreateSemaphore");
    present_ready_.push_back(s);
  }
}

std::optional<std::uint32_t> Swapchain::acquire() {
  std::uint32_t index = 0;
  const VkResult r =
      vkAcquireNextImageKHR(ctx_.device(), swapchain_, UINT64_MAX, acquired_, VK_NULL_HANDLE, &index);
  if (r == VK_ERROR_OUT_OF_DATE_KHR) return std::nullopt;
  // Suboptimal still signals the semaphore: this frame is drawn and presented, then recreated.
  if (r != VK_SUBOPTIMAL_KHR) gpu::check(r, "vkAcquireNextImageKHR");
  return index;
}

bool Swapchain::present(std::uint32_t image) {
  VkPresentInfoKHR info{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
  info.waitSemaphoreCount = 1;
  info.pWaitSemaphores = &present_ready_.at(image);
  info.swapchainCount = 1;
  info.pSwapchains = &swapchain_;
  info.pImageIndices = &image;
  const VkResult r = vkQueuePresentKHR(ctx_.queue(), &info);
  if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR) return false;
  gpu::check(r, "vkQueuePresentKHR");
  return true;
}

}  // namespace myriad::view
