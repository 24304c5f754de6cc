// The per-frame animation path allocates nothing: global operator new is counted while an
// Animator updates (after a warm-up frame) on one thread and on all threads.
#include "myriad/anim/animator.hpp"
#include "myriad/anim/avatar.hpp"
#include "myriad/core/parallel.hpp"

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
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#pragma GCC diagnostic pop

namespace myriad::anim {
namespace {

TEST(Animator, FrameAllocatesNothing) {
  const Avatar av = make_avatar({.clothed = true});
  std::vector<PartSkin> skins;
  for (const AvatarPart& p : av.parts) skins.push_back(p.skin);
  const Dedup d = dedup_skeletons(skins);
  const std::vector<Clip> clips = {make_walk_clip(av.skeleton)};
  Animator anim(av.skeleton, clips, d.renderer_skeleton, 64);
  std::vector<Mat3x4> palettes(64 * anim.palette_size());
  anim.update(palettes);  // warm-up: the thread pool starts here
  for (std::size_t threads : {std::size_t{1}, std::size_t{0}}) {
    ThreadLimit limit(threads);
    anim.update(palettes);
    const long before = g_allocations.load();
    for (int f = 0; f < 5; ++f) {
      for (std::size_t c = 0; c < anim.characters(); ++c) anim.advance(c, 0.016f);
      anim.update(palettes);
    }
    EXPECT_EQ(g_allocations.load() - before, 0) << "threads " << threads;
  }
  // The counter does count: a heap vector moves it.
  const long before = g_allocations.load();
  auto* probe = new std::vector<int>(10);
  delete probe;
  EXPECT_GE(g_allocations.load() - before, 2);
}

}  // namespace
}  // namespace myriad::anim
