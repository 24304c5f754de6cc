#include "myriad/view/controls.hpp"

#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

namespace myriad::view {
namespace {

TEST(ViewControls, TogglesAndQuit) {
  ViewState state;
  EXPECT_TRUE(apply_key_press(state, GLFW_KEY_L));
  EXPECT_TRUE(state.settings.lod_colors);
  EXPECT_TRUE(apply_key_press(state, GLFW_KEY_L));
  EXPECT_FALSE(state.settings.lod_colors);

  EXPECT_TRUE(apply_key_press(state, GLFW_KEY_P));
  EXPECT_TRUE(state.settings.paused);
  EXPECT_TRUE(apply_key_press(state, GLFW_KEY_SPACE));
  EXPECT_FALSE(state.settings.paused);

  EXPECT_TRUE(state.show_panel);
  EXPECT_TRUE(apply_key_press(state, GLFW_KEY_F1));
  EXPECT_FALSE(state.show_panel);
  EXPECT_TRUE(apply_key_press(state, GLFW_KEY_TAB));
  EXPECT_TRUE(state.show_panel);

  EXPECT_FALSE(state.quit);
  EXPECT_TRUE(apply_key_press(state, GLFW_KEY_ESCAPE));
  EXPECT_TRUE(state.quit);
}

TEST(ViewControls, MovementKeysAreNotToggles) {
  ViewState state;
  for (int key :
       {GLFW_KEY_W, GLFW_KEY_A, GLFW_KEY_S, GLFW_KEY_D, GLFW_KEY_Q, GLFW_KEY_E, GLFW_KEY_R, GLFW_KEY_F}) {
    EXPECT_FALSE(apply_key_press(state, key)) << key;
  }
  EXPECT_FALSE(state.settings.lod_colors || state.settings.paused || state.quit);
  EXPECT_TRUE(state.show_panel);
}

TEST(ViewControls, SliceStartsAtTheWorldTopAndTurnsOffAboveIt) {
  ViewState state;
  EXPECT_GE(state.slice_height, kSliceOff);
  move_slice(state, 1.0f, 1.0f);  // raising an absent slice changes nothing
  EXPECT_GE(state.slice_height, kSliceOff);

  move_slice(state, -1.0f, 0.5f);
  EXPECT_FLOAT_EQ(state.slice_height, kSliceStart - 0.5f * kSliceSpeed);
  move_slice(state, -1.0f, 100.0f);
  EXPECT_FLOAT_EQ(state.slice_height, 0.0f);
  move_slice(state, 1.0f, 1.0f);
  EXPECT_FLOAT_EQ(state.slice_height, kSliceSpeed);
  move_slice(state, 1.0f, 100.0f);
  EXPECT_GE(state.slice_height, kSliceOff);
}

TEST(ViewControls, SliceStandsStillWithoutAKey) {
  ViewState state;
  state.slice_height = 20.0f;
  move_slice(state, 0.0f, 1.0f);
  EXPECT_EQ(state.slice_height, 20.0f);
}

}  // namespace
}  // namespace myriad::view
