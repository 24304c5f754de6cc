// The viewer's frame loop in a real window (run under Xvfb by ctest) with lavapipe and validation:
// a test scene that clears to a colour changing with the frame number, then checks of the presented
// image read back from the swapchain.
#include "myriad/view/viewer.hpp"

#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>

#include "gpu_fixture.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/render/voxel/voxel_editing.hpp"
#include "myriad/view/edit_controls.hpp"
#include "myriad/view/input_script.hpp"
#include "myriad/view/stats_panel.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/edit/placeable.hpp"

namespace myriad::view {
namespace {

namespace fs = std::filesystem;

Rgba8 frame_color(std::uint64_t frame) {
  const auto r = std::uint8_t((frame * 37 + 11) % 256);
  return {r, std::uint8_t(255 - r), 90, 255};
}

// Draws nothing but its clear colour, and counts what the loop asks of it.
class ClearScene : public render::FrameScene {
 public:
  void update(double dt, const render::SceneCamera& camera, std::uint32_t width, std::uint32_t height,
              const render::FrameOptions& settings) override {
    ++updates;
    view_size = {width, height};
    EXPECT_EQ(updates, finished + 1) << "update before the previous frame finished";
    EXPECT_GE(dt, 0.0);
    last_camera = camera;
    last_settings = settings;
  }
  void record(VkCommandBuffer cmd, const render::FrameOptions&, render::OffscreenTarget& target) override {
    ++records;
    target_size = {target.width(), target.height()};
    EXPECT_TRUE(target_size.width == view_size.width && target_size.height == view_size.height)
        << "the frame was prepared for another image size";
    const Rgba8 c = frame_color(finished);
    target.begin(cmd, glm::vec4(c[0], c[1], c[2], c[3]) / 255.0f);
    target.end(cmd);
  }
  void finish_frame() override { ++finished; }
  std::vector<std::string> stats_lines() const override {
    return {"clear scene, frame " + std::to_string(finished)};
  }

  std::uint64_t updates = 0, records = 0, finished = 0;
  VkExtent2D target_size{0, 0};
  VkExtent2D view_size{0, 0};  // of the last update
  render::SceneCamera last_camera;
  render::FrameOptions last_settings;
};

Rgba8 pixel(const ViewerResult& r, std::uint32_t x, std::uint32_t y) {
  const std::size_t i = (std::size_t(y) * r.screenshot_width + x) * 4;
  return {r.screenshot_rgba[i], r.screenshot_rgba[i + 1], r.screenshot_rgba[i + 2], r.screenshot_rgba[i + 3]};
}

class ViewerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    window_.emplace(320, 200, "myriad viewer test");
    ctx_ = std::make_unique<gpu::Context>(window_->context_options(test::validated_options()));
  }
  void TearDown() override {
    if (!ctx_) return;
    std::string messages;
    for (const auto& m : ctx_->validation_messages()) messages += m + "\n";
    EXPECT_EQ(ctx_->validation_message_count(), 0u) << messages;
    ctx_.reset();
    window_.reset();
  }
  fs::path scratch(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / "myriad-view-test";
    fs::create_directories(dir);
    fs::remove(dir / name);
    return dir / name;
  }

  std::optional<Window> window_;
  std::unique_ptr<gpu::Context> ctx_;
  const render::SceneCamera start_ = render::SceneCamera::look_at({1.0f, 2.0f, 3.0f}, {0.0f, 0.0f, 0.0f});
};

TEST_F(ViewerTest, PresentsFramesAndWritesTheLastAsScreenshot) {
  ClearScene scene;
  ViewerOptions options;
  options.frames = 40;
  options.screenshot = scratch("frames.png");
  const ViewerResult result = run_viewer(*ctx_, *window_, scene, start_, options);

  EXPECT_EQ(result.frames, 40u);
  EXPECT_EQ(scene.updates, 40u);
  EXPECT_EQ(scene.records, 40u);
  EXPECT_EQ(scene.finished, 40u);
  EXPECT_GT(result.seconds, 0.0);
  // Without input the camera stays where it started.
  EXPECT_NEAR(glm::distance(scene.last_camera.eye, start_.eye), 0.0f, 1e-5f);
  EXPECT_NEAR(glm::distance(scene.last_camera.forward, start_.forward), 0.0f, 1e-5f);

  ASSERT_TRUE(fs::exists(options.screenshot));
  EXPECT_GT(fs::file_size(options.screenshot), 100u);
  ASSERT_EQ(result.screenshot_width, 320u);
  ASSERT_EQ(result.screenshot_height, 200u);
  EXPECT_EQ(scene.target_size.width, 320u);
  EXPECT_EQ(scene.target_size.height, 200u);
  // Outside the panel: the last frame's colour (frame 39), not an earlier one.
  EXPECT_EQ(pixel(result, 319, 199), frame_color(39));
  EXPECT_EQ(pixel(result, 2, 2), frame_color(39));
  EXPECT_NE(frame_color(38), frame_color(39));
  // The panel over the top-left corner: its background and its text.
  EXPECT_EQ(pixel(result, kPanelOffset + 1, kPanelOffset + 1), kPanelBackground);
  std::size_t text = 0;
  for (std::uint32_t y = kPanelOffset; y < 200; ++y) {
    for (std::uint32_t x = kPanelOffset; x < 320; ++x) text += pixel(result, x, y) == kPanelText;
  }
  EXPECT_GT(text, 200u);
}

TEST_F(ViewerTest, HiddenPanelLeavesTheSceneAlone) {
  ClearScene scene;
  ViewerOptions options;
  options.frames = 30;
  options.show_panel = false;
  options.screenshot = scratch("no_panel.png");
  const ViewerResult result = run_viewer(*ctx_, *window_, scene, start_, options);
  ASSERT_EQ(result.screenshot_rgba.size(), std::size_t(320) * 200 * 4);
  for (std::uint32_t y = 0; y < 200; y += 7) {
    for (std::uint32_t x = 0; x < 320; x += 5)
      ASSERT_EQ(pixel(result, x, y), frame_color(29)) << x << "," << y;
  }
}

TEST_F(ViewerTest, ResizingRecreatesTheSwapchainAndTarget) {
  ClearScene scene;
  ViewerOptions options;
  options.frames = 40;
  options.screenshot = scratch("resized.png");
  options.before_frame = [&](std::uint64_t frame) {
    if (frame == 10) window_->set_size(256, 160);
  };
  const ViewerResult result = run_viewer(*ctx_, *window_, scene, start_, options);
  EXPECT_EQ(result.frames, 40u);
  EXPECT_GE(result.swapchain_recreations, 1u);
  ASSERT_EQ(result.screenshot_width, 256u);
  ASSERT_EQ(result.screenshot_height, 160u);
  EXPECT_EQ(scene.target_size.width, 256u);
  EXPECT_EQ(scene.target_size.height, 160u);
  EXPECT_EQ(pixel(result, 255, 159), frame_color(39));
}

TEST_F(ViewerTest, ClosingTheWindowStopsTheLoop) {
  ClearScene scene;
  ViewerOptions options;  // no frame limit: runs until closed
  options.before_frame = [&](std::uint64_t frame) {
    if (frame == 5) window_->request_close();
  };
  const ViewerResult result = run_viewer(*ctx_, *window_, scene, start_, options);
  EXPECT_EQ(result.frames, 5u);
  EXPECT_EQ(scene.finished, 5u);
}

TEST_F(ViewerTest, KeysAndDragReachTheScene) {
  ClearScene scene;
  ViewerOptions options;
  options.frames = 12;
  options.screenshot = scratch("keys.png");
  glm::vec3 forward_before_drag{0.0f};
  options.before_frame = [&](std::uint64_t frame) {
    if (frame == 2) {
      window_->push_key_press(GLFW_KEY_L);
      window_->push_key_press(GLFW_KEY_P);
    }
    if (frame == 4) {
      forward_before_drag = scene.last_camera.forward;
      window_->push_drag({0.0f, 100.0f});  // drag down: look down
    }
    if (frame == 6) window_->push_key_press(GLFW_KEY_F1);  // hide the panel
    if (frame == 8) window_->push_key_press(GLFW_KEY_ESCAPE);
  };
  const ViewerResult result = run_viewer(*ctx_, *window_, scene, start_, options);
  EXPECT_TRUE(scene.last_settings.lod_colors);
  EXPECT_TRUE(scene.last_settings.paused);
  EXPECT_LT(scene.last_camera.forward.y, forward_before_drag.y - 0.1f);
  EXPECT_NEAR(glm::distance(scene.last_camera.eye, start_.eye), 0.0f, 1e-5f);
  // Esc at frame 8 ends the run after one more frame, which is the screenshot (panel hidden).
  EXPECT_EQ(result.frames, 9u);
  ASSERT_EQ(result.screenshot_width, 320u);
  EXPECT_EQ(pixel(result, kPanelOffset + 1, kPanelOffset + 1), frame_color(8));
}

// A scene with an editable voxel world, faked: picks hit the cell 10 units along the ray (its -Y face),
// edits are recorded, and an edit at y < 0 is refused as a real world refuses one outside it.
class EditScene : public ClearScene, public render::VoxelEditing {
 public:
  render::VoxelEditing* voxel_editing() override { return this; }
  voxel::PickResult pick(glm::dvec3 origin, glm::dvec3 direction, double max_distance,
                         double slice_height) const override {
    last_slice = slice_height;
    last_origin = origin;
    last_direction = direction;
    EXPECT_EQ(max_distance, kEditReach);
    voxel::PickResult r;
    r.stop = voxel::PickStop::kHit;
    r.cell = glm::ivec3(glm::floor(origin + glm::normalize(direction) * 10.0));
    r.face = voxel::kNegY;
    r.place = r.cell + glm::ivec3(0, -1, 0);
    return r;
  }
  void edit(const voxel::VoxelEdit& e) override {
    if (e.cell.y < 0) throw Error("outside the world", "test");
    edits.push_back(e);
  }
  const render::VoxelEditStats& edit_stats() const override { return stats_; }
  void set_outline(std::optional<render::CellOutlineTarget> target) override { outline = target; }

  std::vector<voxel::VoxelEdit> edits;
  std::optional<render::CellOutlineTarget> outline;
  mutable glm::dvec3 last_origin{0.0}, last_direction{0.0};
  mutable double last_slice = 0.0;

 private:
  render::VoxelEditStats stats_;
};

TEST_F(ViewerTest, ScriptedClicksDigAndBuildWhereTheCrosshairPoints) {
  EditScene scene;
  ViewerOptions options;
  options.screenshot = scratch("edit.png");
  options.show_panel = false;
  // A dig, then sand (two materials on from stone) as a slope turned once, then a refused build.
  // Looking along +X from y = 20: the fake's hit is the cell (10.5, 20.5, 0.5) lies in.
  const render::SceneCamera level = render::SceneCamera::look_at({0.5f, 20.5f, 0.5f}, {10.5f, 20.5f, 0.5f});
  // A dig, then grass (two materials on from stone) as a slope turned once, then a build after looking up.
  options.input = parse_input_script(
      "wait 2\nclick left\nwait 1\nkey ]\nkey ]\nkey 2\nkey T\nclick right\nwait 1\nlook 0 -400\n"
      "wait 1\nclick right\nwait 2\n",
      "session.txt");
  const ViewerResult result = run_viewer(*ctx_, *window_, scene, level, options);
  EXPECT_EQ(result.frames, options.input.length);
  ASSERT_EQ(scene.edits.size(), 3u);
  EXPECT_EQ(result.edits, 3u);
  EXPECT_EQ(result.edits_refused, 0u);
  EXPECT_EQ(scene.edits[0].cell, glm::ivec3(10, 20, 0));
  EXPECT_EQ(scene.edits[0].material, voxel::kAir);
  EXPECT_EQ(scene.edits[1].cell, glm::ivec3(10, 19, 0));
  EXPECT_EQ(scene.edits[1].material, voxel::kGrass);
  EXPECT_EQ(scene.edits[1].form, voxel::placeable_form(1, 1));
  EXPECT_GT(scene.edits[2].cell.y, 20);  // looking up
  // The pick runs from the eye along the view: the crosshair is the frame's centre.
  EXPECT_NEAR(glm::distance(glm::vec3(scene.last_origin), scene.last_camera.eye), 0.0f, 1e-5f);
  EXPECT_NEAR(glm::distance(glm::vec3(glm::normalize(scene.last_direction)), scene.last_camera.forward), 0.0f,
              1e-5f);
  ASSERT_TRUE(scene.outline.has_value());
  EXPECT_EQ(scene.last_slice, double(render::kNoSlice));
  // The crosshair's white arms at the centre, the scene's colour away from it.
  EXPECT_EQ(pixel(result, 160 + 5, 100), (Rgba8{240, 240, 240, 255}));
  EXPECT_EQ(pixel(result, 160, 100 - 5), (Rgba8{240, 240, 240, 255}));
  EXPECT_EQ(pixel(result, 160 + 20, 100 + 20), frame_color(result.frames - 1));
}

TEST_F(ViewerTest, ARefusedEditIsCountedAndShownNotApplied) {
  EditScene scene;
  ViewerOptions options;
  options.frames = 6;
  // Looking straight down from y = 2 the fake's hit lies below y = 0: the build is refused.
  const render::SceneCamera down = render::SceneCamera::look_at({0.5f, 2.0f, 0.5f}, {0.5f, -5.0f, 0.51f});
  options.input = parse_input_script("wait 2\nclick right\n", "session.txt");
  const ViewerResult result = run_viewer(*ctx_, *window_, scene, down, options);
  EXPECT_TRUE(scene.edits.empty());
  EXPECT_EQ(result.edits, 0u);
  EXPECT_EQ(result.edits_refused, 1u);
}

TEST_F(ViewerTest, PicksSeeTheSliceTheViewDraws) {
  EditScene scene;
  ViewerOptions options;
  options.input = parse_input_script("wait 1\nhold F 6\nwait 8\n", "session.txt");
  run_viewer(*ctx_, *window_, scene, start_, options);
  EXPECT_LT(scene.last_camera.slice_height, render::kNoSlice);
  EXPECT_EQ(scene.last_slice, double(scene.last_camera.slice_height));
}

TEST_F(ViewerTest, ScenesWithoutAVoxelWorldGetNoCrosshair) {
  ClearScene scene;
  ViewerOptions options;
  options.frames = 3;
  options.show_panel = false;
  options.screenshot = scratch("no_crosshair.png");
  const ViewerResult result = run_viewer(*ctx_, *window_, scene, start_, options);
  EXPECT_EQ(pixel(result, 160 + 5, 100), frame_color(2));
}

TEST_F(ViewerTest, RefusesAContextThatCannotPresent) {
  gpu::Context headless(test::validated_options());
  ClearScene scene;
  EXPECT_THROW(run_viewer(headless, *window_, scene, start_, {}), Error);
  EXPECT_EQ(headless.validation_message_count(), 0u);
}

TEST(ViewerWindow, NoDisplayIsAClearError) {
  const char* display = std::getenv("DISPLAY");
  const std::string saved = display ? display : "";
  unsetenv("DISPLAY");
  unsetenv("WAYLAND_DISPLAY");
  try {
    Window window(64, 64, "no display");
    ADD_FAILURE() << "a window opened without a display";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot open a window"), std::string::npos) << e.what();
  }
  if (!saved.empty()) setenv("DISPLAY", saved.c_str(), 1);
}

}  // namespace
}  // namespace myriad::view
