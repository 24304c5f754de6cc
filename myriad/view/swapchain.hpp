// The window's swapchain: surface, images, the acquire semaphore and one present semaphore per image
// (a present may still wait on its semaphore until that image is acquired again), recreated when the
// window changes size or the swapchain goes out of date.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "myriad/gpu/device/context.hpp"

namespace myriad::view {

class Swapchain {
 public:
  // Takes ownership of `surface`. Without `vsync` a present mode that does not wait for the display is
  // preferred (mailbox, then immediate), so the frame rate shows what the scene costs.
  Swapchain(gpu::Context& ctx, VkSurfaceKHR surface, VkExtent2D wanted, bool vsync);
  ~Swapchain();
  Swapchain(const Swapchain&) = delete;
  Swapchain& operator=(const Swapchain&) = delete;

  // Builds a new swapchain for the window's current size (the device must be idle).
  void recreate(VkExtent2D wanted);

  // The next image's index, with acquired_semaphore() to be waited on before writing it; nullopt when
  // the swapchain is out of date (recreate, then try again).
  std::optional<std::uint32_t> acquire();
  // Queues `image` for display once present_semaphore(image) is signalled; false when the swapchain
  // no longer matches the surface (recreate before the next frame).
  bool present(std::uint32_t image);

  VkSemaphore acquired_semaphore() const { return acquired_; }
  VkSemaphore present_semaphore(std::uint32_t image) const { return present_ready_.at(image); }
  VkImage image(std::uint32_t index) const { return images_.at(index); }
  VkFormat format() const { return format_; }
  VkExtent2D extent() const { return extent_; }
  VkPresentModeKHR present_mode() const { return present_mode_; }
  // Whether images can be copied out (screenshots of the final frame).
  bool readable() const { return readable_; }

 private:
  void create(VkExtent2D wanted, VkSwapchainKHR old);
  void destroy_image_semaphores() noexcept;
  void release() noexcept;

  gpu::Context& ctx_;
  VkSurfaceKHR surface_ = VK_NULL_HANDLE;
  VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
  std::vector<VkImage> images_;
  std::vector<VkSemaphore> present_ready_;
  VkSemaphore acquired_ = VK_NULL_HANDLE;
  VkFormat format_ = VK_FORMAT_UNDEFINED;
  VkExtent2D extent_{0, 0};
  VkPresentModeKHR present_mode_ = VK_PRESENT_MODE_FIFO_KHR;
  bool vsync_ = false;
  bool readable_ = false;
};

}  // namespace myriad::view
