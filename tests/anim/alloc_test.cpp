// The per-frame animation path allocates nothing: global operator new is counted while an
// Animator updates (after a warm-up frame) on one thread and on all threads, with and without
// cross-fades.
#include "myriad/anim/playback/animator.hpp"
#include "myriad/anim/kit/avatar.hpp"
#include "myriad/core/thread/parallel.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

// The replacements pair malloc with free; GCC's -Wmismatched-new-delete cannot see that once it
// inlines them into callers (optimised builds), so it is silenced for these definitions only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
// The nothrow forms too: memory from them is returned through plain delete (std::get_temporary_buffer),
// so all of new and delete must use one heap.
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size == 0 ? 1 : size);
}
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#pragma GCC diagnostic pop

namespace myriad::anim {
namespace {

// 64 characters of the procedural kit on one Animator with `clips`, warmed up (the thread pool starts
// in the first update).
struct Crowd64 {
  Avatar av;
  Dedup dedup;
  std::vector<Clip> clips;
  Animator anim;
  std::vector<Mat3x4> palettes;

  Crowd64(Avatar kit, std::vector<float> periods)
      : av(std::move(kit)),
        dedup(dedup_of(av)),
        clips(walks(av, periods)),
        anim(av.skeleton, clips, dedup.renderer_skeleton, 64),
        palettes(64 * anim.palette_size()) {
    anim.update(palettes);
  }
  static Dedup dedup_of(const Avatar& a) {
    std::vector<PartSkin> skins;
    for (const AvatarPart& p : a.parts) skins.push_back(p.skin);
    return dedup_skeletons(skins);
  }
  static std::vector<Clip> walks(const Avatar& a, const std::vector<float>& periods) {
    std::vector<Clip> out;
    for (const float p : periods) out.push_back(make_walk_clip(a.skeleton, p));
    return out;
  }
  // Allocations during `frame` (called once per thread setting, after one warm frame each).
  template <class Frame>
  void expect_no_allocation(Frame&& frame) {
    for (std::size_t threads : {std::size_t{1}, std::size_t{0}}) {
      ThreadLimit limit(threads);
      anim.update(palettes);
      const long before = g_allocations.load();
      frame();
      EXPECT_EQ(g_allocations.load() - before, 0) << "threads " << threads;
    }
  }
};

TEST(Animator, FrameAllocatesNothing) {
  Crowd64 c(make_avatar({.clothed = true}), {1.0f});
  c.expect_no_allocation([&] {
    for (int f = 0; f < 5; ++f) {
      for (std::size_t i = 0; i < c.anim.characters(); ++i) c.anim.advance(i, 0.016f);
      c.anim.update(c.palettes);
    }
  });
  // The counter does count: a heap vector moves it.
  const long before = g_allocations.load();
  auto* probe = new std::vector<int>(10);
  delete probe;
  EXPECT_GE(g_allocations.load() - before, 2);
}

TEST(Animator, CrossFadeFrameAllocatesNothing) {
  Crowd64 c(make_avatar(), {1.0f, 0.6f});
  c.expect_no_allocation([&] {
    // Starting fades and changing speeds is part of the frame too.
    for (std::size_t i = 0; i < c.anim.characters(); ++i) {
      c.anim.set_speed(i, 0.5f + 0.02f * static_cast<float>(i));
      c.anim.cross_fade(i, static_cast<std::uint32_t>((c.anim.clip(i) + 1) % 2), 10.0f, 0.1f);
    }
    for (int f = 0; f < 5; ++f) {
      for (std::size_t i = 0; i < c.anim.characters(); ++i) c.anim.advance(i, 0.016f);
      c.anim.update(c.palettes);
    }
    EXPECT_TRUE(c.anim.fading(0));
  });
}

}  // namespace
}  // namespace myriad::anim
