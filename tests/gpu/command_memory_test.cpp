// The command pool's host memory: the callbacks' contract (arena while recording, heap otherwise, a
// fallback at the arena's limit, reallocation keeping content), and the context's recordings served by
// the arena on the device, frame after frame, without growing, with every recorded command executed.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/memory/command_memory.hpp"

namespace myriad::test {
namespace {

using gpu::CommandMemory;

void* call_allocate(const CommandMemory& m, std::size_t size, std::size_t align) {
  const VkAllocationCallbacks* cb = m.callbacks();
  return cb->pfnAllocation(cb->pUserData, size, align, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
}
void* call_reallocate(const CommandMemory& m, void* p, std::size_t size, std::size_t align) {
  const VkAllocationCallbacks* cb = m.callbacks();
  return cb->pfnReallocation(cb->pUserData, p, size, align, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
}
void call_free(const CommandMemory& m, void* p) {
  const VkAllocationCallbacks* cb = m.callbacks();
  cb->pfnFree(cb->pUserData, p);
}

TEST(CommandMemoryTest, RecordingIsServedByTheArenaAndEverythingElseByTheHeap) {
  CommandMemory memory(4096, 1 << 20);
  void* pool_object = call_allocate(memory, 200, 8);  // before any recording: the heap
  EXPECT_EQ(memory.stats().heap_allocations, 1u);
  memory.open();
  std::vector<void*> commands;
  for (int i = 0; i < 100; ++i) {
    void* p = call_allocate(memory, 40 + std::size_t(i), std::size_t(1) << (i % 7));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % (std::size_t(1) << (i % 7)), 0u);
    std::memset(p, i, 40);
    commands.push_back(p);
  }
  memory.close();
  EXPECT_EQ(memory.stats().arena_allocations, 100u);
  EXPECT_EQ(memory.stats().heap_allocations, 1u);
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(static_cast<unsigned char*>(commands[std::size_t(i)])[39], static_cast<unsigned char>(i));
  }
  const std::uint64_t rewinds = memory.stats().arena_rewinds;
  for (void* p : commands) call_free(memory, p);
  EXPECT_EQ(memory.stats().arena_rewinds, rewinds + 1);  // every command freed: the arena starts over
  call_free(memory, pool_object);
  call_free(memory, nullptr);  // allowed, does nothing
  EXPECT_EQ(memory.stats().heap_fallbacks, 0u);
}

TEST(CommandMemoryTest, ReallocationKeepsContentAndFreesTheOriginal) {
  CommandMemory memory(4096, 1 << 20);
  memory.open();
  auto* p = static_cast<unsigned char*>(call_allocate(memory, 64, 16));
  for (int i = 0; i < 64; ++i) p[i] = static_cast<unsigned char>(i * 3);
  auto* q = static_cast<unsigned char*>(call_reallocate(memory, p, 1000, 64));
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(q) % 64, 0u);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(q[i], static_cast<unsigned char>(i * 3));
  auto* r = static_cast<unsigned char*>(call_reallocate(memory, q, 10, 8));  // shrinking keeps the head
  for (int i = 0; i < 10; ++i) ASSERT_EQ(r[i], static_cast<unsigned char>(i * 3));
  EXPECT_EQ(call_reallocate(memory, r, 0, 8), nullptr);  // size 0 frees
  memory.close();
  // Everything was freed: the arena rewound (a leaked original would keep it from doing so).
  EXPECT_EQ(memory.stats().arena_rewinds, 1u);
  EXPECT_EQ(memory.stats().reallocations, 3u);
  void* fresh = call_reallocate(memory, nullptr, 32, 8);  // null original: an allocation (heap: closed)
  EXPECT_NE(fresh, nullptr);
  EXPECT_EQ(memory.stats().heap_allocations, 1u);
  call_free(memory, fresh);
}

TEST(CommandMemoryTest, ARequestPastTheArenasLimitIsServedByTheHeapAndCounted) {
  CommandMemory memory(256, 1024);
  memory.open();
  void* small = call_allocate(memory, 100, 8);
  auto* large = static_cast<unsigned char*>(call_allocate(memory, 5000, 32));
  ASSERT_NE(large, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(large) % 32, 0u);
  std::memset(large, 7, 5000);  // real memory (the sanitizers check its bounds)
  memory.close();
  EXPECT_EQ(memory.stats().heap_fallbacks, 1u);
  EXPECT_EQ(memory.stats().arena_allocations, 1u);
  EXPECT_LE(memory.stats().arena_bytes, 1024u);
  call_free(memory, large);
  call_free(memory, small);
  EXPECT_EQ(memory.stats().arena_rewinds, 1u);
}

class CommandMemoryGpuTest : public GpuTest {};

TEST_F(CommandMemoryGpuTest, EachRecordingIsServedByTheArenaWhichStopsGrowing) {
  constexpr std::uint32_t kFills = 300;
  gpu::Buffer target = gpu::make_storage_buffer(ctx(), kFills * 16);
  ASSERT_NE(ctx().command_memory(), nullptr);  // on by default
  const gpu::CommandMemory& memory = *ctx().command_memory();
  const gpu::CommandMemoryStats before = memory.stats();
  std::size_t arena_bytes_after_two = 0;
  std::uint64_t heap_after_two = 0;
  constexpr int kFrames = 12;
  for (int frame = 0; frame < kFrames; ++frame) {
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      for (std::uint32_t i = 0; i < kFills; ++i)
        vkCmdFillBuffer(cmd, target.handle(), VkDeviceSize(i) * 16, 16, i * 7u + std::uint32_t(frame));
    });
    if (frame == 1) {
      arena_bytes_after_two = memory.stats().arena_bytes;
      heap_after_two = memory.stats().heap_allocations;
    }
  }
  // Every recorded command ran with the value of the last frame: the arena's memory held the commands
  // until they executed.
  const auto words = gpu::read_buffer_as<std::uint32_t>(ctx(), target, kFills * 4);
  for (std::uint32_t i = 0; i < kFills; ++i) {
    ASSERT_EQ(words[i * 4], i * 7u + kFrames - 1) << "fill " << i;
    ASSERT_EQ(words[i * 4 + 3], i * 7u + kFrames - 1) << "fill " << i;
  }
  const gpu::CommandMemoryStats after = memory.stats();
  EXPECT_EQ(after.heap_fallbacks, 0u);
  // A CPU implementation keeps each recorded command in host memory from the pool's allocator: the
  // fills must have come from the arena, which rewinds after each frame and stops growing. (A driver
  // that keeps commands in its own memory may call the allocator for none of them.)
  if (ctx().is_cpu_device()) {
    EXPECT_GE(after.arena_allocations - before.arena_allocations, std::uint64_t(kFills) * kFrames);
    EXPECT_GE(after.arena_rewinds - before.arena_rewinds, std::uint64_t(kFrames));
    EXPECT_EQ(after.arena_bytes, arena_bytes_after_two);
    EXPECT_EQ(after.heap_allocations, heap_after_two);  // the command buffer object is reused
    EXPECT_GE(after.arena_peak_bytes, std::size_t(kFills) * 16);
  }
}

// Turned off, the pool uses the driver's allocator: no command memory, and submissions work as before.
TEST(CommandMemoryOffTest, WithTheArenaOffThePoolUsesTheDriversAllocator) {
  gpu::ContextOptions options = validated_options();
  options.command_arena = false;
  gpu::Context ctx(options);
  EXPECT_EQ(ctx.command_memory(), nullptr);
  gpu::Buffer target = gpu::make_storage_buffer(ctx, 64);
  ctx.submit_and_wait([&](VkCommandBuffer cmd) { vkCmdFillBuffer(cmd, target.handle(), 0, 64, 9u); });
  EXPECT_EQ(gpu::read_buffer_as<std::uint32_t>(ctx, target, 16), std::vector<std::uint32_t>(16, 9u));
  EXPECT_EQ(ctx.validation_message_count(), 0u);
}

TEST(CommandMemoryOffTest, TheEnvironmentTurnsItOff) {
  ::unsetenv("MYRIAD_COMMAND_ARENA");
  EXPECT_TRUE(gpu::ContextOptions::from_environment().command_arena);
  ::setenv("MYRIAD_COMMAND_ARENA", "0", 1);
  EXPECT_FALSE(gpu::ContextOptions::from_environment().command_arena);
  ::setenv("MYRIAD_COMMAND_ARENA", "1", 1);
  EXPECT_TRUE(gpu::ContextOptions::from_environment().command_arena);
  ::unsetenv("MYRIAD_COMMAND_ARENA");
}

}  // namespace
}  // namespace myriad::test
