// The viewer's editing keys and clicks, and viewer input scripts: what each key selects, what each button
// edits at a pick, refusals, and the script's timing, holds and one-line errors.
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include "myriad/core/io/error.hpp"
#include "myriad/view/edit_controls.hpp"
#include "myriad/view/input_script.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/edit/placeable.hpp"

namespace myriad::view {
namespace {

voxel::PickResult hit_at(glm::ivec3 cell) {
  voxel::PickResult r;
  r.stop = voxel::PickStop::kHit;
  r.cell = cell;
  r.face = voxel::kPosY;
  r.place = cell + glm::ivec3(0, 1, 0);
  r.material = voxel::kGrass;
  return r;
}

TEST(EditControls, KeysChooseMaterialShapeAndTurn) {
  EditState s;
  EXPECT_EQ(s.material, voxel::kStone);
  EXPECT_TRUE(apply_edit_key(s, GLFW_KEY_RIGHT_BRACKET));
  EXPECT_EQ(s.material, voxel::kDirt);
  EXPECT_TRUE(apply_edit_key(s, GLFW_KEY_LEFT_BRACKET));
  EXPECT_TRUE(apply_edit_key(s, GLFW_KEY_LEFT_BRACKET));  // wraps past air to the last material
  EXPECT_EQ(s.material, voxel::kMaterialCount - 1);
  EXPECT_TRUE(apply_edit_key(s, GLFW_KEY_RIGHT_BRACKET));
  EXPECT_EQ(s.material, voxel::kStone);
  EXPECT_TRUE(apply_edit_key(s, GLFW_KEY_3));
  EXPECT_EQ(s.shape, 2u);
  EXPECT_FALSE(apply_edit_key(s, GLFW_KEY_9));  // beyond the shapes
  EXPECT_EQ(s.shape, 2u);
  for (int i = 0; i < 5; ++i) apply_edit_key(s, GLFW_KEY_T);
  EXPECT_EQ(s.turns, 1);
  EXPECT_FALSE(apply_edit_key(s, GLFW_KEY_W));
}

TEST(EditControls, LeftDigsThePickedCellRightBuildsInFrontOfItsFace) {
  EditState s;
  apply_edit_key(s, GLFW_KEY_2);
  apply_edit_key(s, GLFW_KEY_T);
  const voxel::PickResult hit = hit_at({4, 5, 6});
  const auto dig = edit_for_click(s, GLFW_MOUSE_BUTTON_LEFT, hit);
  ASSERT_TRUE(dig);
  EXPECT_EQ(dig->cell, glm::ivec3(4, 5, 6));
  EXPECT_EQ(dig->material, voxel::kAir);
  const auto build = edit_for_click(s, GLFW_MOUSE_BUTTON_RIGHT, hit);
  ASSERT_TRUE(build);
  EXPECT_EQ(build->cell, glm::ivec3(4, 6, 6));
  EXPECT_EQ(build->material, voxel::kStone);
  EXPECT_EQ(build->form, voxel::placeable_form(1, 1));
  EXPECT_FALSE(edit_for_click(s, GLFW_MOUSE_BUTTON_MIDDLE, hit));
  EXPECT_TRUE(s.message.empty());
  // Nothing under the crosshair: refused with a message that says why, shown for a while.
  voxel::PickResult miss;
  miss.stop = voxel::PickStop::kUnloaded;
  EXPECT_FALSE(edit_for_click(s, GLFW_MOUSE_BUTTON_LEFT, miss));
  EXPECT_NE(s.message.find("not loaded"), std::string::npos);
  const std::vector<std::string> lines = edit_lines(s, miss);
  EXPECT_NE(lines.back().find("not loaded"), std::string::npos);
  for (int f = 0; f < kEditMessageFrames; ++f) age_message(s);
  EXPECT_TRUE(s.message.empty());
  EXPECT_NE(edit_lines(s, hit)[0].find("stone slope, turned 90"), std::string::npos);
  EXPECT_NE(edit_lines(s, hit)[1].find("grass at 4 5 6"), std::string::npos);
}

TEST(InputScript, ActionsHappenAtTheirFramesAndHoldsEnd) {
  const InputScript s = parse_input_script(
      "# a session\nwait 3\nkey ]\nclick left\nhold W 4\nwait 2\nlook 10 -5\nclick right  # build\nwait 1\n",
      "s.txt");
  ASSERT_EQ(s.actions.size(), 5u);
  EXPECT_EQ(s.actions[0].frame, 3u);
  EXPECT_EQ(s.actions[0].code, GLFW_KEY_RIGHT_BRACKET);
  EXPECT_EQ(s.actions[1].code, GLFW_MOUSE_BUTTON_LEFT);
  EXPECT_EQ(s.actions[2].kind, InputAction::Kind::kHold);
  EXPECT_EQ(s.actions[2].frames, 4u);
  EXPECT_EQ(s.actions[3].frame, 5u);
  EXPECT_EQ(s.actions[3].look, glm::vec2(10.0f, -5.0f));
  EXPECT_EQ(s.actions[4].code, GLFW_MOUSE_BUTTON_RIGHT);
  EXPECT_EQ(s.length, 8u);  // the hold ends at 7, the last wait at 6: one frame after the hold's end
}

TEST(InputScript, ErrorsNameTheLine) {
  const auto message = [](const char* text) {
    try {
      parse_input_script(text, "s.txt");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("wait 1\njump\n").find("s.txt:2"), std::string::npos);
  EXPECT_NE(message("key HOME\n").find("unknown key 'HOME'"), std::string::npos);
  EXPECT_NE(message("wait x\n").find("'x' is not a number"), std::string::npos);
  EXPECT_NE(message("click middle\n").find("unknown button"), std::string::npos);
  EXPECT_NE(message("hold W\n").find("takes a key and a frame count"), std::string::npos);
  EXPECT_THROW(read_input_script("/nonexistent/session.txt"), Error);
}

}  // namespace
}  // namespace myriad::view
