// Edit scripts: every form of line, the shapes and rotations they name (the same bytes the viewer
// places), and one-line errors naming the file and line for each kind of mistake.
#include <gtest/gtest.h>

#include "myriad/core/io/error.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/edit/edit_script.hpp"
#include "myriad/voxel/edit/placeable.hpp"

namespace myriad::voxel {
namespace {

std::string message_of(std::string_view text) {
  try {
    parse_edit_script(text, "edits.txt");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(EditScript, ParsesDigsAndPlacementsWithDefaults) {
  const std::vector<VoxelEdit> e = parse_edit_script(
      "# a tunnel and a ramp\n"
      "dig 10 20 30\n"
      "\n"
      "  place 1 2 3   # stone cube by default\r\n"
      "place -1 0 5 dirt\n"
      "place 4 5 6 grass slope\n"
      "place 4 5 7 sand slope 90\n"
      "place 4 5 8 lamp_red wedge 270\n",
      "edits.txt");
  ASSERT_EQ(e.size(), 6u);
  EXPECT_EQ(e[0].cell, glm::ivec3(10, 20, 30));
  EXPECT_EQ(e[0].material, kAir);
  EXPECT_EQ(e[0].line, 2);
  EXPECT_EQ(e[1].material, kStone);
  EXPECT_EQ(e[1].form, kFormFull);
  EXPECT_EQ(e[1].line, 4);
  EXPECT_EQ(e[2].cell, glm::ivec3(-1, 0, 5));  // range is the world's business
  EXPECT_EQ(e[2].material, kDirt);
  EXPECT_EQ(e[3].material, kGrass);
  EXPECT_EQ(e[3].form, placeable_form(1, 0));
  EXPECT_EQ(e[4].form, rotate_form_y(e[3].form));
  EXPECT_EQ(e[5].form, rotate_form_y(rotate_form_y(rotate_form_y(placeable_form(4, 0)))));
  EXPECT_EQ(describe_edit(e[4]), "place sand slope 90 at (4, 5, 7)");
  EXPECT_EQ(describe_edit(e[0]), "dig (10, 20, 30)");
}

TEST(EditScript, BakedModelsTakeARotationAndNoShape) {
  const std::vector<VoxelEdit> e = parse_edit_script(
      "place 1 ~1 2 fence\n"
      "place 3 4 5 stairs 270\n"
      "place 3 4 6 torch 0\n",
      "edits.txt");
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].material, kFence);
  EXPECT_EQ(e[0].form, 0);
  EXPECT_TRUE(e[0].from_surface);
  EXPECT_EQ(e[1].material, kStairs);
  EXPECT_EQ(e[1].form, 3) << "a model's form is its turn";
  EXPECT_EQ(e[2].material, kTorch);
  EXPECT_EQ(describe_edit(e[1]), "place stairs 270 at (3, 4, 5)");
  EXPECT_EQ(describe_edit(e[2]), "place torch at (3, 4, 6)");
  EXPECT_NE(message_of("place 1 2 3 fence slope\n").find("the model 'fence' takes no shape ('slope')"),
            std::string::npos);
  EXPECT_NE(message_of("place 1 2 3 fence 90 90\n").find("too many words after the model 'fence'"),
            std::string::npos);
  EXPECT_NE(message_of("place 1 2 3 stairs 45\n").find("not 0, 90, 180 or 270"), std::string::npos);
}

TEST(EditScript, PlaceableShapesAreDistinctSolidsAndTurnAFullCircle) {
  for (std::size_t s = 0; s < placeable_shapes().size(); ++s) {
    const std::uint8_t f = placeable_form(s, 0);
    EXPECT_TRUE(shape_lut().shapes[f].solid) << placeable_shapes()[s].name;
    EXPECT_EQ(placeable_form(s, 4), f);
    EXPECT_EQ(placeable_form(s, -1), placeable_form(s, 3));
    for (std::size_t t = 0; t < s; ++t)
      for (int turns = 0; turns < 4; ++turns) EXPECT_NE(placeable_form(t, turns), f);
  }
  // The slope's high side is at x = 0: both top corners there, none at x = 1.
  const std::uint8_t slope = placeable_form(shape_named("slope", "x"), 0);
  EXPECT_TRUE(slope >> kCornerX0Y1Z0 & 1);
  EXPECT_TRUE(slope >> kCornerX0Y1Z1 & 1);
  EXPECT_FALSE(slope >> kCornerX1Y1Z0 & 1);
}

TEST(EditScript, ErrorsNameTheFileLineAndChoices) {
  EXPECT_NE(message_of("dig 1 2 3\njump 1 2 3\n").find("edits.txt:2"), std::string::npos);
  EXPECT_NE(message_of("dig 1 2\n").find("needs X Y Z"), std::string::npos);
  EXPECT_NE(message_of("dig 1 2 3 4\n").find("too many"), std::string::npos);
  EXPECT_NE(message_of("dig 1 two 3\n").find("'two' is not an integer"), std::string::npos);
  EXPECT_NE(message_of("dig 1 2 3.5\n").find("is not an integer"), std::string::npos);
  const std::string material = message_of("place 1 2 3 marble\n");
  EXPECT_NE(material.find("unknown material 'marble'"), std::string::npos);
  EXPECT_NE(material.find("stone, dirt, grass"), std::string::npos);
  EXPECT_NE(message_of("place 1 2 3 stone cone\n").find("shapes: full, slope"), std::string::npos);
  EXPECT_NE(message_of("place 1 2 3 stone slope 45\n").find("not 0, 90, 180 or 270"), std::string::npos);
  EXPECT_NE(message_of("place 1 2 3 air\n").find("unknown material 'air'"), std::string::npos);
  EXPECT_THROW(read_edit_script("/nonexistent/edits.txt"), Error);
  EXPECT_TRUE(parse_edit_script("# nothing\n\n", "x").empty());
}

}  // namespace
}  // namespace myriad::voxel
