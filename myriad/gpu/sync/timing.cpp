#include "myriad/gpu/sync/timing.hpp"

namespace myriad::gpu {

const char* timing_source_name(TimingSource source) {
  return source == TimingSource::kGpuTimestamps ? "gpu-timestamps" : "wall-clock";
}

GpuTimer::GpuTimer(const Context& ctx, std::uint32_t max_marks)
    : device_(ctx.device()),
      source_(ctx.has_timestamps() ? TimingSource::kGpuTimestamps : TimingSource::kWallClock),
      period_ns_(ctx.limits().timestampPeriod),
      max_marks_(max_marks + 1) {
  if (source_ == TimingSource::kGpuTimestamps) {
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = max_marks_;
    check(vkCreateQueryPool(device_, &info, nullptr, &pool_), "vkCreateQueryPool");
  }
  names_.reserve(max_marks_);
}

GpuTimer::~GpuTimer() {
  if (pool_) vkDestroyQueryPool(device_, pool_, nullptr);
}

void GpuTimer::begin_frame(VkCommandBuffer cmd) {
  names_.clear();
  if (!pool_) return;
  vkCmdResetQueryPool(cmd, pool_, 0, max_marks_);
  vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool_, 0);
}

void GpuTimer::mark(VkCommandBuffer cmd, const char* name) {
  if (!pool_ || names_.size() + 1 >= max_marks_) return;
  names_.push_back(name);
  vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool_, std::uint32_t(names_.size()));
}

std::vector<GpuTimer::Interval> GpuTimer::resolve() {
  std::vector<Interval> out;
  if (!pool_ || names_.empty()) return out;
  std::vector<std::uint64_t> stamps(names_.size() + 1);
  check(vkGetQueryPoolResults(device_, pool_, 0, std::uint32_t(stamps.size()),
                              stamps.size() * sizeof(std::uint64_t), stamps.data(), sizeof(std::uint64_t),
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
        "vkGetQueryPoolResults");
  for (std::size_t i = 0; i < names_.size(); ++i) {
    out.push_back({names_[i], double(stamps[i + 1] - stamps[i]) * period_ns_ * 1e-6});
  }
  return out;
}

}  // namespace myriad::gpu
