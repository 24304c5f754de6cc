// Test fixture for GPU tests: a Vulkan context with the Khronos validation layer and synchronization
// validation always on; any validation message fails the test.
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "myriad/gpu/device/context.hpp"

namespace myriad::test {

inline gpu::ContextOptions validated_options() {
  gpu::ContextOptions options = gpu::ContextOptions::from_environment();
  options.validation = true;
  options.buffer_guards = true;  // an out-of-bounds write is a validation message too
  return options;
}

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override { ctx_ = std::make_unique<gpu::Context>(validated_options()); }
  void TearDown() override {
    EXPECT_EQ(ctx_->validation_message_count(), 0u) << "validation messages:\n" << joined_messages();
    ctx_.reset();
  }
  std::string joined_messages() const {
    std::string out;
    for (const auto& m : ctx_->validation_messages()) out += m + "\n";
    return out;
  }
  gpu::Context& ctx() { return *ctx_; }

 private:
  std::unique_ptr<gpu::Context> ctx_;
};

}  // namespace myriad::test
