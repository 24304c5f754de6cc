#include "myriad/render/frame/scene_frame.hpp"

#include "myriad/gpu/memory/upload_queue.hpp"

namespace myriad::render {

SceneFrame::SceneFrame(gpu::Context& ctx)
    : ctx_(ctx),
      light_only_(std::make_unique<ShadowMap>(ctx, 16)),
      sky_(std::make_unique<SkyPass>(ctx, OffscreenTarget::kColorFormat, OffscreenTarget::kDepthFormat)) {}

void SceneFrame::record(VkCommandBuffer cmd, const FrameView& view, std::span<FrameSystem* const> systems,
                        OffscreenTarget& target, glm::vec4 clear, ShadowMap* shadow, float dt,
                        gpu::GpuTimer* timer) {
  // One upload frame per scene frame: its uploads count against one budget, and their staging is
  // reused once the caller reports the frame complete (Context::submit_and_wait and the viewer's fence
  // do). Systems record the queue in their upload(); the last record catches what none recorded.
  gpu::UploadQueue& uploads = ctx_.uploads();
  uploads.begin_frame();
  for (FrameSystem* s : systems) s->update(view, dt);
  for (FrameSystem* s : systems) s->upload(cmd);
  uploads.record(cmd);
  uploaded_bytes_ = uploads.ring().stats().frame_bytes;

  shadow_draws_ = 0;
  const ShadowMap* light_block = shadow;
  if (!shadow) {
    light_only_->record_light_only(cmd, view);
    light_block = light_only_.get();
  }
  if (shadow) {
    const FrameView& light = shadow->view();
    for (FrameSystem* s : systems) s->cull_shadow(cmd, light);
    shadow->begin(cmd);
    for (FrameSystem* s : systems) shadow_draws_ += s->draw_shadow(cmd, light);
    shadow->end(cmd);
    if (timer) timer->mark(cmd, "shadow");
  }

  two_phase_ = false;
  for (FrameSystem* s : systems) two_phase_ = two_phase_ || (occlusion_ && s->occlusion_culled());
  const FramePhase first = two_phase_ ? FramePhase::kEarly : FramePhase::kSingle;
  for (FrameSystem* s : systems) s->cull(cmd, view, first, nullptr);
  if (timer) timer->mark(cmd, "cull");
  target.begin(cmd, clear);
  for (FrameSystem* s : systems) s->draw(cmd, view, first, light_block);
  if (!two_phase_ && sky_on_) sky_->draw(cmd, view, *light_block);
  target.end(cmd);
  if (two_phase_) {
    if (!pyramid_ || pyramid_->source_width() != target.width() ||
        pyramid_->source_height() != target.height())
      pyramid_ = std::make_unique<DepthPyramid>(ctx_, target.width(), target.height());
    pyramid_->record(cmd, target.depth().view(), VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL);
    for (FrameSystem* s : systems) s->cull(cmd, view, FramePhase::kLate, pyramid_.get());
    target.resume(cmd);
    for (FrameSystem* s : systems) s->draw(cmd, view, FramePhase::kLate, light_block);
    if (sky_on_) sky_->draw(cmd, view, *light_block);
    target.end(cmd);
  }
  if (timer) timer->mark(cmd, "draw");
}

}  // namespace myriad::render
