// GPU images (colour targets, depth buffers, R32F mip chains for depth pyramids), their views,
// samplers (including the MIN-reduction sampler), and readback of one mip level.
#pragma once

#include <cstdint>
#include <vector>

#include "myriad/core/image/texture_array.hpp"
#include "myriad/gpu/device/context.hpp"

namespace myriad::gpu {

struct ImageDesc {
  VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
  std::uint32_t width = 1;
  std::uint32_t height = 1;
  std::uint32_t mip_levels = 1;
  VkImageUsageFlags usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  std::uint32_t layers = 1;
  bool array_view = false;  // views are 2D arrays (also always when layers > 1)
};

class Image {
 public:
  Image() = default;
  // Transfer src/dst usage is always added; one view for all mips and one per mip level.
  Image(const Context& ctx, const ImageDesc& desc);
  ~Image() { reset(); }
  Image(Image&& o) noexcept { *this = std::move(o); }
  Image& operator=(Image&& o) noexcept;
  Image(const Image&) = delete;
  Image& operator=(const Image&) = delete;

  VkImage handle() const { return image_; }
  VkImageView view() const { return view_; }
  VkImageView mip_view(std::uint32_t level) const { return mip_views_.at(level); }
  const ImageDesc& desc() const { return desc_; }
  VkFormat format() const { return desc_.format; }
  std::uint32_t width(std::uint32_t level = 0) const { return std::max(1u, desc_.width >> level); }
  std::uint32_t height(std::uint32_t level = 0) const { return std::max(1u, desc_.height >> level); }
  VkImageAspectFlags aspect() const;
  explicit operator bool() const { return image_ != VK_NULL_HANDLE; }

  void reset() noexcept;

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  VkImage image_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkImageView view_ = VK_NULL_HANDLE;
  std::vector<VkImageView> mip_views_;
  ImageDesc desc_;
};

bool is_depth_format(VkFormat format);
std::uint32_t format_texel_bytes(VkFormat format);

// A mip chain's level sizes when each level is the previous one halved and rounded up (every texel of
// the finer level is covered by one texel of the coarser level: what conservative Hi-Z needs).
std::vector<std::uint32_t> ceil_half_chain(std::uint32_t size, std::uint32_t levels);

class Sampler {
 public:
  Sampler() = default;
  Sampler(const Context& ctx, const VkSamplerCreateInfo& info);
  ~Sampler() { reset(); }
  Sampler(Sampler&& o) noexcept { *this = std::move(o); }
  Sampler& operator=(Sampler&& o) noexcept;
  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;
  VkSampler handle() const { return sampler_; }
  void reset() noexcept;

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  VkSampler sampler_ = VK_NULL_HANDLE;
};

// Linear filter with VK_SAMPLER_REDUCTION_MODE_MIN, clamp to edge: one sample at a texel corner
// returns the minimum of the 2x2 texels around it (depth pyramid, Hi-Z tests with reverse-Z).
Sampler make_min_reduction_sampler(const Context& ctx);
Sampler make_linear_sampler(const Context& ctx,
                            VkSamplerAddressMode address = VK_SAMPLER_ADDRESS_MODE_REPEAT);
Sampler make_nearest_sampler(const Context& ctx);

// Copies one mip level of a 2D image (currently in `layout`) to the CPU, tightly packed rows.
// The image is returned to `layout` afterwards. Depth images read the depth aspect.
std::vector<std::byte> read_image(Context& ctx, const Image& image, VkImageLayout layout,
                                  std::uint32_t level = 0);

// Uploads tightly packed texels into mip `level` (every layer, layer after layer) and leaves the image
// in `final_layout`.
void upload_image(Context& ctx, const Image& image, std::span<const std::byte> texels,
                  VkImageLayout final_layout, std::uint32_t level = 0);

// A sampled array image holding `array` (every level), ready for shaders. `format` is
// VK_FORMAT_R8G8B8A8_UNORM or, to filter sRGB-encoded texels in linear light, VK_FORMAT_R8G8B8A8_SRGB.
Image make_texture_array_image(Context& ctx, const TextureArray& array,
                               VkFormat format = VK_FORMAT_R8G8B8A8_UNORM);

}  // namespace myriad::gpu
