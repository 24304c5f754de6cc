// The culling path decision (render::choose_culling over gpu::compute_culling_support): auto takes the
// GPU on a device with what compute culling needs and the CPU when the device reports one of those
// needs missing (ContextOptions::pretend_missing, MYRIAD_PRETEND_MISSING), naming it; an explicit request
// is kept, and the GPU asked of a device without it is refused.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "gpu_fixture.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/gpu/device/compute_culling.hpp"
#include "myriad/render/frame/culling_choice.hpp"

namespace myriad::test {
namespace {

class CullingChoiceTest : public GpuTest {};

TEST_F(CullingChoiceTest, AutoPicksTheGpuWhereTheDeviceHasComputeCulling) {
  const gpu::ComputeCullingSupport support = gpu::compute_culling_support(ctx());
  EXPECT_TRUE(support.supported) << support.reason;
  const render::CullChoice choice = render::choose_culling(ctx(), render::CullRequest::kAuto);
  EXPECT_EQ(choice.path, render::CullPath::kGpu);
  EXPECT_EQ(choice.reason, "auto: device has compute culling");
  EXPECT_EQ(render::choose_culling(ctx(), render::CullRequest::kCpu).path, render::CullPath::kCpu);
  EXPECT_EQ(render::choose_culling(ctx(), render::CullRequest::kGpu).path, render::CullPath::kGpu);
}

TEST_F(CullingChoiceTest, AutoPicksTheCpuWhenTheDeviceLacksANeedOfComputeCulling) {
  ASSERT_FALSE(gpu::compute_culling_features().empty());
  for (const char* need : gpu::compute_culling_features()) {
    SCOPED_TRACE(need);
    gpu::ContextOptions options = validated_options();
    options.pretend_missing = {need};
    gpu::Context lacking(options);
    const gpu::ComputeCullingSupport support = gpu::compute_culling_support(lacking);
    EXPECT_FALSE(support.supported);
    EXPECT_EQ(support.reason, std::string("device lacks ") + need);
    const render::CullChoice choice = render::choose_culling(lacking, render::CullRequest::kAuto);
    EXPECT_EQ(choice.path, render::CullPath::kCpu);
    EXPECT_EQ(choice.reason, std::string("auto: device lacks ") + need);
    EXPECT_EQ(render::choose_culling(lacking, render::CullRequest::kCpu).reason, "requested");
    EXPECT_THROW((void)render::choose_culling(lacking, render::CullRequest::kGpu), Error);
    EXPECT_EQ(lacking.validation_message_count(), 0u);
  }
}

TEST(CullingChoiceOptions, TheEnvironmentNamesFeaturesToPretendMissing) {
  ::setenv("MYRIAD_PRETEND_MISSING", "drawIndirectFirstInstance,subgroupBallot", 1);
  const gpu::ContextOptions options = gpu::ContextOptions::from_environment();
  ::unsetenv("MYRIAD_PRETEND_MISSING");
  ASSERT_EQ(options.pretend_missing.size(), 2u);
  EXPECT_EQ(options.pretend_missing[0], "drawIndirectFirstInstance");
  EXPECT_EQ(options.pretend_missing[1], "subgroupBallot");
  gpu::ContextOptions typo;
  typo.pretend_missing = {"drawIndirectFirstInstanse"};
  EXPECT_THROW(typo.validate(), Error);
  EXPECT_EQ(render::parse_cull_request("auto", "--cull"), render::CullRequest::kAuto);
  EXPECT_THROW((void)render::parse_cull_request("fast", "--cull"), Error);
}

}  // namespace
}  // namespace myriad::test
