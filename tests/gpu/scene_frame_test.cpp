// The scene frame owns the passes: every system is called in the documented order (update, upload,
// shadow cull and draw, phase 1 cull and draw, then phase 2 with the depth pyramid), one phase when no
// system tests occlusion; a phase-2 system gets the pyramid of phase 1's depth.
#include <string>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/render/passes/depth_pyramid.hpp"
#include "myriad/render/frame/frame_scene.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/frame/scene_frame.hpp"
#include "myriad/render/passes/shadow_map.hpp"

namespace myriad::test {
namespace {

class SceneFrameTest : public GpuTest {};

// Records every call it gets, with the phase, into a shared log.
class LoggingSystem : public render::FrameSystem {
 public:
  LoggingSystem(std::string name, bool occlusion, std::vector<std::string>& log)
      : name_(std::move(name)), occlusion_(occlusion), log_(log) {}
  bool occlusion_culled() const override { return occlusion_; }
  void update(const render::FrameView&, float dt) override {
    log_.push_back(name_ + " update " + std::to_string(int(dt)));
  }
  void upload(VkCommandBuffer) override { log_.push_back(name_ + " upload"); }
  void cull(VkCommandBuffer, const render::FrameView& view, render::FramePhase phase,
            const render::DepthPyramid* pyramid) override {
    log_.push_back(name_ + " cull " + phase_name(phase) + (pyramid ? " pyramid" : ""));
    if (pyramid) pyramid_size = {pyramid->source_width(), pyramid->source_height()};
    last_view_height = view.height;
  }
  void draw(VkCommandBuffer, const render::FrameView&, render::FramePhase phase,
            const render::ShadowMap* shadow) override {
    log_.push_back(name_ + " draw " + phase_name(phase) +
                   (shadow && shadow->casts_shadows() ? " shadowed" : ""));
  }
  void cull_shadow(VkCommandBuffer, const render::FrameView& shadow_view) override {
    log_.push_back(name_ + " cull_shadow" + (shadow_view.is_shadow ? "" : " (not a shadow view)"));
  }
  std::uint32_t draw_shadow(VkCommandBuffer, const render::FrameView&) override {
    log_.push_back(name_ + " draw_shadow");
    return 2;
  }
  glm::uvec2 pyramid_size{0};
  std::uint32_t last_view_height = 0;

 private:
  static std::string phase_name(render::FramePhase p) {
    return p == render::FramePhase::kSingle ? "single" : (p == render::FramePhase::kEarly ? "early" : "late");
  }
  std::string name_;
  bool occlusion_;
  std::vector<std::string>& log_;
};

TEST_F(SceneFrameTest, RunsEveryPassInOrderWithTwoPhasesWhenASystemTestsOcclusion) {
  std::vector<std::string> log;
  LoggingSystem a("a", false, log), b("b", true, log);
  std::array<render::FrameSystem*, 2> systems{&a, &b};
  render::OffscreenTarget target(ctx(), 96, 64);
  render::ShadowMap shadow(ctx(), 128);
  const render::FrameView view = render::FrameView::of_camera(
      render::SceneCamera::look_at({0.0f, 5.0f, -10.0f}, glm::vec3(0.0f)), 96, 64, {0.3f, 1.0f, 0.2f});
  shadow.fit(view, 30.0f, 10.0f);
  render::SceneFrame frame(ctx());
  ctx().submit_and_wait(
      [&](VkCommandBuffer cmd) { frame.record(cmd, view, systems, target, glm::vec4(0.0f), &shadow, 3.0f); });
  const std::vector<std::string> want{"a update 3",
                                      "b update 3",
                                      "a upload",
                                      "b upload",
                                      "a cull_shadow",
                                      "b cull_shadow",
                                      "a draw_shadow",
                                      "b draw_shadow",
                                      "a cull early",
                                      "b cull early",
                                      "a draw early shadowed",
                                      "b draw early shadowed",
                                      "a cull late pyramid",
                                      "b cull late pyramid",
                                      "a draw late shadowed",
                                      "b draw late shadowed"};
  EXPECT_EQ(log, want);
  EXPECT_EQ(frame.shadow_draws(), 4u);
  EXPECT_TRUE(frame.two_phase());
  EXPECT_EQ(b.pyramid_size, glm::uvec2(96, 64));
  EXPECT_EQ(b.last_view_height, 64u);
}

TEST_F(SceneFrameTest, RunsOnePhaseWithoutOcclusionOrShadow) {
  std::vector<std::string> log;
  LoggingSystem a("a", false, log);
  std::array<render::FrameSystem*, 1> systems{&a};
  render::OffscreenTarget target(ctx(), 32, 32);
  const render::FrameView view = render::FrameView::of_camera(
      render::SceneCamera::look_at({0.0f, 5.0f, -10.0f}, glm::vec3(0.0f)), 32, 32, {0.3f, 1.0f, 0.2f});
  render::SceneFrame frame(ctx());
  ctx().submit_and_wait(
      [&](VkCommandBuffer cmd) { frame.record(cmd, view, systems, target, glm::vec4(0.0f), nullptr, 0.0f); });
  const std::vector<std::string> want{"a update 0", "a upload", "a cull single", "a draw single"};
  EXPECT_EQ(log, want);
  EXPECT_FALSE(frame.two_phase());
  EXPECT_EQ(frame.pyramid(), nullptr);
  EXPECT_EQ(frame.shadow_draws(), 0u);
}

}  // namespace
}  // namespace myriad::test
