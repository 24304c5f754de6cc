#include "myriad/gpu/memory/buffer.hpp"

#include "myriad/gpu/sync/sync.hpp"

#include <utility>

namespace myriad::gpu {

std::uint32_t find_memory_type(const Context& ctx, std::uint32_t type_bits, VkMemoryPropertyFlags want,
                               VkMemoryPropertyFlags avoid) {
  VkPhysicalDeviceMemoryProperties props;
  vkGetPhysicalDeviceMemoryProperties(ctx.physical_device(), &props);
  // First pass honours `avoid`; the second accepts any type with the wanted properties.
  for (int pass = 0; pass < 2; ++pass) {
    for (std::uint32_t i = 0; i < props.memoryTypeCount; ++i) {
      const VkMemoryPropertyFlags flags = props.memoryTypes[i].propertyFlags;
      if (!(type_bits & (1u << i)) || (flags & want) != want) continue;
      if (pass == 0 && (flags & avoid)) continue;
      return i;
    }
  }
  throw Error("no Vulkan memory type with the needed properties", ctx.device_name());
}

Buffer::Buffer(const Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage, MemoryKind kind,
               const std::source_location& where) {
  create(ctx, size, usage, kind, ctx.buffer_guards(), where);
}

Buffer Buffer::unguarded(const Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage, MemoryKind kind) {
  Buffer b;
  b.create(ctx, size, usage, kind, nullptr, std::source_location::current());
  return b;
}

void Buffer::create(const Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage, MemoryKind kind,
                    BufferGuards* guards, const std::source_location& where) {
  device_ = ctx.device();
  size_ = size;
  kind_ = kind;
  if (size == 0) throw Error("a GPU buffer of size 0 was requested");
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = guards ? size + kGuardBytes : size;
  info.usage = usage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
               VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check(vkCreateBuffer(device_, &info, nullptr, &buffer_), "vkCreateBuffer");

  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device_, buffer_, &req);
  VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  VkMemoryPropertyFlags avoid = 0;
  if (kind == MemoryKind::kUpload) {
    want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  } else if (kind == MemoryKind::kReadback) {
    want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
  } else {
    avoid = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;  // prefer true VRAM over the BAR window
  }
  std::uint32_t type = 0;
  try {
    type = find_memory_type(ctx, req.memoryTypeBits, want, avoid);
  } catch (const Error&) {
    if (kind != MemoryKind::kReadback) throw;
    type = find_memory_type(ctx, req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
  }
  VkPhysicalDeviceMemoryProperties props;
  vkGetPhysicalDeviceMemoryProperties(ctx.physical_device(), &props);
  coherent_ = (props.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;

  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &flags};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = type;
  const VkResult r = vkAllocateMemory(device_, &alloc, nullptr, &memory_);
  if (r != VK_SUCCESS) {
    reset();
    throw Error("GPU memory allocation of " + std::to_string(size) + " bytes failed: " + result_name(r),
                ctx.device_name(), "reduce the scene size or free GPU memory");
  }
  check(vkBindBufferMemory(device_, buffer_, memory_, 0), "vkBindBufferMemory");
  if (kind != MemoryKind::kDeviceLocal) {
    check(vkMapMemory(device_, memory_, 0, VK_WHOLE_SIZE, 0, &mapped_), "vkMapMemory");
  }
  VkBufferDeviceAddressInfo addr{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
  addr.buffer = buffer_;
  address_ = vkGetBufferDeviceAddress(device_, &addr);
  if (guards) {
    guards->add(buffer_, size_, mapped_, where);
    guards_ = guards;
  }
}

Buffer& Buffer::operator=(Buffer&& o) noexcept {
  if (this != &o) {
    reset();
    device_ = std::exchange(o.device_, VK_NULL_HANDLE);
    guards_ = std::exchange(o.guards_, nullptr);
    buffer_ = std::exchange(o.buffer_, VK_NULL_HANDLE);
    memory_ = std::exchange(o.memory_, VK_NULL_HANDLE);
    size_ = std::exchange(o.size_, 0);
    address_ = std::exchange(o.address_, 0);
    kind_ = o.kind_;
    mapped_ = std::exchange(o.mapped_, nullptr);
    coherent_ = o.coherent_;
  }
  return *this;
}

void Buffer::flush() const {
  if (!mapped_ || coherent_) return;
  VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
  range.memory = memory_;
  range.size = VK_WHOLE_SIZE;
  check(vkFlushMappedMemoryRanges(device_, 1, &range), "vkFlushMappedMemoryRanges");
}

void Buffer::invalidate() const {
  if (!mapped_ || coherent_) return;
  VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
  range.memory = memory_;
  range.size = VK_WHOLE_SIZE;
  check(vkInvalidateMappedMemoryRanges(device_, 1, &range), "vkInvalidateMappedMemoryRanges");
}

void Buffer::reset() noexcept {
  if (guards_ && buffer_) guards_->remove(buffer_);
  guards_ = nullptr;
  if (buffer_) vkDestroyBuffer(device_, buffer_, nullptr);
  if (memory_) vkFreeMemory(device_, memory_, nullptr);
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
  mapped_ = nullptr;
  size_ = 0;
  address_ = 0;
}

Buffer make_storage_buffer(const Context& ctx, VkDeviceSize size, VkBufferUsageFlags extra_usage,
                           const std::source_location& where) {
  return Buffer(ctx, size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | extra_usage, MemoryKind::kDeviceLocal, where);
}

void upload(Context& ctx, const Buffer& dst, std::span<const std::byte> bytes, VkDeviceSize offset) {
  if (bytes.empty()) return;
  if (offset + bytes.size() > dst.size()) throw Error("upload past the end of a GPU buffer");
  // By value: with an upload batch open the copy is recorded later.
  ctx.submit_upload(bytes, [dst = dst.handle(), offset, size = VkDeviceSize(bytes.size())](
                               VkCommandBuffer cmd, VkBuffer staging, VkDeviceSize staging_offset) {
    // Earlier GPU work on dst must finish before the copy overwrites it; later work sees the copy.
    memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                   VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                   VK_ACCESS_2_TRANSFER_WRITE_BIT);
    const VkBufferCopy region{staging_offset, offset, size};
    vkCmdCopyBuffer(cmd, staging, dst, 1, &region);
    memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                   VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
  });
}

std::vector<std::byte> read_back(Context& ctx, VkDeviceSize size,
                                 const std::function<void(VkCommandBuffer, const Buffer& staging)>& record) {
  if (size == 0) return {};
  Buffer staging(ctx, size, 0, MemoryKind::kReadback);
  ctx.submit_and_wait([&](VkCommandBuffer cmd) {
    record(cmd, staging);
    memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
  });
  staging.invalidate();
  std::vector<std::byte> out(size);
  std::memcpy(out.data(), staging.mapped(), size);
  return out;
}

std::vector<std::byte> read_buffer(Context& ctx, const Buffer& src, VkDeviceSize offset, VkDeviceSize size) {
  if (size == 0) return {};
  if (offset + size > src.size()) throw Error("readback past the end of a GPU buffer");
  return read_back(ctx, size, [&](VkCommandBuffer cmd, const Buffer& staging) {
    memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    VkBufferCopy region{offset, 0, size};
    vkCmdCopyBuffer(cmd, src.handle(), staging.handle(), 1, &region);
  });
}

}  // namespace myriad::gpu
