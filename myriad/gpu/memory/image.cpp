#include "myriad/gpu/memory/image.hpp"

#include <cstring>
#include <utility>

#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/sync/sync.hpp"

namespace myriad::gpu {

bool is_depth_format(VkFormat format) {
  return format == VK_FORMAT_D32_SFLOAT || format == VK_FORMAT_D16_UNORM ||
         format == VK_FORMAT_D24_UNORM_S8_UINT || format == VK_FORMAT_D32_SFLOAT_S8_UINT;
}

std::uint32_t format_texel_bytes(VkFormat format) {
  switch (format) {
    case VK_FORMAT_R8_UNORM:
      return 1;
    case VK_FORMAT_R16_SFLOAT:
    case VK_FORMAT_D16_UNORM:
      return 2;
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_B8G8R8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_SRGB:
    case VK_FORMAT_R32_SFLOAT:
    case VK_FORMAT_R32_UINT:
    case VK_FORMAT_D32_SFLOAT:
      return 4;
    case VK_FORMAT_R16G16B16A16_SFLOAT:
    case VK_FORMAT_R32G32_UINT:
      return 8;
    case VK_FORMAT_R32G32B32A32_SFLOAT:
      return 16;
    default:
      throw Error("format_texel_bytes: unsupported VkFormat " + std::to_string(int(format)));
  }
}

std::vector<std::uint32_t> ceil_half_chain(std::uint32_t size, std::uint32_t levels) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t i = 0; i < levels; ++i) {
    out.push_back(size);
    size = std::max(1u, (size + 1) / 2);
  }
  return out;
}

VkImageAspectFlags Image::aspect() const {
  return is_depth_format(desc_.format) ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
}

Image::Image(const Context& ctx, const ImageDesc& desc) : device_(ctx.device()), desc_(desc) {
  if (desc.width == 0 || desc.height == 0 || desc.mip_levels == 0 || desc.layers == 0) {
    throw Error("an image of zero size or zero mip levels was requested");
  }
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = desc.format;
  info.extent = {desc.width, desc.height, 1};
  info.mipLevels = desc.mip_levels;
  info.arrayLayers = desc.layers;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = desc.usage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  check(vkCreateImage(device_, &info, nullptr, &image_), "vkCreateImage");

  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(device_, image_, &req);
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = find_memory_type(ctx, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  check(vkAllocateMemory(device_, &alloc, nullptr, &memory_), "vkAllocateMemory (image)");
  check(vkBindImageMemory(device_, image_, memory_, 0), "vkBindImageMemory");

  VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view.image = image_;
  view.viewType = desc.array_view || desc.layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
  view.format = desc.format;
  view.subresourceRange = {aspect(), 0, desc.mip_levels, 0, desc.layers};
  check(vkCreateImageView(device_, &view, nullptr, &view_), "vkCreateImageView");
  for (std::uint32_t level = 0; level < desc.mip_levels; ++level) {
    view.subresourceRange = {aspect(), level, 1, 0, desc.layers};
    VkImageView v = VK_NULL_HANDLE;
    check(vkCreateImageView(device_, &view, nullptr, &v), "vkCreateImageView (mip)");
    mip_views_.push_back(v);
  }
}

Image& Image::operator=(Image&& o) noexcept {
  if (this != &o) {
    reset();
    device_ = std::exchange(o.device_, VK_NULL_HANDLE);
    image_ = std::exchange(o.image_, VK_NULL_HANDLE);
    memory_ = std::exchange(o.memory_, VK_NULL_HANDLE);
    view_ = std::exchange(o.view_, VK_NULL_HANDLE);
    mip_views_ = std::move(o.mip_views_);
    o.mip_views_.clear();
    desc_ = o.desc_;
  }
  return *this;
}

void Image::reset() noexcept {
  for (VkImageView v : mip_views_) vkDestroyImageView(device_, v, nullptr);
  mip_views_.clear();
  if (view_) vkDestroyImageView(device_, view_, nullptr);
  if (image_) vkDestroyImage(device_, image_, nullptr);
  if (memory_) vkFreeMemory(device_, memory_, nullptr);
  view_ = VK_NULL_HANDLE;
  image_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
}

Sampler::Sampler(const Context& ctx, const VkSamplerCreateInfo& info) : device_(ctx.device()) {
  check(vkCreateSampler(device_, &info, nullptr, &sampler_), "vkCreateSampler");
}

Sampler& Sampler::operator=(Sampler&& o) noexcept {
  if (this != &o) {
    reset();
    device_ = std::exchange(o.device_, VK_NULL_HANDLE);
    sampler_ = std::exchange(o.sampler_, VK_NULL_HANDLE);
  }
  return *this;
}

void Sampler::reset() noexcept {
  if (sampler_) vkDestroySampler(device_, sampler_, nullptr);
  sampler_ = VK_NULL_HANDLE;
}

namespace {
VkSamplerCreateInfo base_sampler(VkFilter filter, VkSamplerAddressMode address) {
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  info.magFilter = filter;
  info.minFilter = filter;
  info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  info.addressModeU = address;
  info.addressModeV = address;
  info.addressModeW = address;
  info.minLod = 0.0f;
  info.maxLod = VK_LOD_CLAMP_NONE;
  return info;
}
}  // namespace

Sampler make_min_reduction_sampler(const Context& ctx) {
  VkSamplerReductionModeCreateInfo reduction{VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO};
  reduction.reductionMode = VK_SAMPLER_REDUCTION_MODE_MIN;
  VkSamplerCreateInfo info = base_sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
  info.pNext = &reduction;
  return Sampler(ctx, info);
}

Sampler make_linear_sampler(const Context& ctx, VkSamplerAddressMode address) {
  VkSamplerCreateInfo info = base_sampler(VK_FILTER_LINEAR, address);
  info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  return Sampler(ctx, info);
}

Sampler make_nearest_sampler(const Context& ctx) {
  return Sampler(ctx, base_sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE));
}

std::vector<std::byte> read_image(Context& ctx, const Image& image, VkImageLayout layout,
                                  std::uint32_t level) {
  const std::uint32_t w = image.width(level), h = image.height(level);
  const VkDeviceSize size = VkDeviceSize(w) * h * format_texel_bytes(image.format());
  return read_back(ctx, size, [&](VkCommandBuffer cmd, const Buffer& staging) {
    ImageTransition to_src{image.handle(),
                           layout,
                           VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                           VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                           VK_ACCESS_2_MEMORY_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COPY_BIT,
                           VK_ACCESS_2_TRANSFER_READ_BIT,
                           image.aspect(),
                           level,
                           1};
    image_barrier(cmd, to_src);
    VkBufferImageCopy region{};
    region.imageSubresource = {image.aspect(), level, 0, 1};
    region.imageExtent = {w, h, 1};
    vkCmdCopyImageToBuffer(cmd, image.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, staging.handle(), 1,
                           &region);
    ImageTransition back{image.handle(),
                         VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                         layout,
                         VK_PIPELINE_STAGE_2_COPY_BIT,
                         VK_ACCESS_2_NONE,
                         VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                         VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
                         image.aspect(),
                         level,
                         1};
    image_barrier(cmd, back);
  });
}

void upload_image(Context& ctx, const Image& image, std::span<const std::byte> texels,
                  VkImageLayout final_layout, std::uint32_t level) {
  const std::uint32_t w = image.width(level), h = image.height(level);
  const std::uint32_t layers = image.desc().layers;
  const VkDeviceSize size = VkDeviceSize(w) * h * layers * format_texel_bytes(image.format());
  if (texels.size() != size) throw Error("upload_image: texel data does not match the image level size");
  // By value: with an upload batch open the copy is recorded later.
  ctx.submit_upload(
      texels, [image = image.handle(), aspect = image.aspect(), w, h, layers, level, final_layout](
                  VkCommandBuffer cmd, VkBuffer staging, VkDeviceSize staging_offset) {
        image_barrier(cmd, {image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                            VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_NONE,
                            VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, aspect, level, 1});
        VkBufferImageCopy region{};
        region.bufferOffset = staging_offset;
        region.imageSubresource = {aspect, level, 0, layers};
        region.imageExtent = {w, h, 1};
        vkCmdCopyBufferToImage(cmd, staging, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
        image_barrier(
            cmd, {image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, final_layout, VK_PIPELINE_STAGE_2_COPY_BIT,
                  VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                  VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT, aspect, level, 1});
      });
}

Image make_texture_array_image(Context& ctx, const TextureArray& array, VkFormat format) {
  Image image(ctx, {format, array.size, array.size, static_cast<std::uint32_t>(array.levels.size()),
                    VK_IMAGE_USAGE_SAMPLED_BIT, array.layers, true});
  for (std::uint32_t l = 0; l < array.levels.size(); ++l)
    upload_image(ctx, image, std::as_bytes(std::span(array.levels[l])),
                 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, l);
  return image;
}

}  // namespace myriad::gpu
