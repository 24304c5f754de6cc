// The plant motion of a scene on the GPU: one buffer every plant shader reads through its device address
// (plant_motion.glsl) — the wind's parameters and the trampling grid (core/motion/plant_motion.hpp) —
// rewritten each frame: a grid of resolution² cells centred on the camera (snapped to cells), cleared,
// then splatted with the frame's interactors (feet of the crowd, the avatars, ...) by one compute pass,
// one thread per (foot, cell near it).
//
// Frame order (a FrameSystem: place it after the systems whose update() moves the feet it gathers):
// update() places the grid and gathers the feet; upload() — before every shadow, cull and draw pass —
// stages the header and the feet, clears the cells after the last frame's readers, splats, and makes
// the cells visible to vertex and compute shaders. It draws nothing.
//
// Plant renderers hold a PlantMotionReceiver: the field's address when they were given one, else a
// stand-in with the default wind and no grid (plants sway, nothing tramples them).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "myriad/core/motion/plant_motion.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/memory/upload_queue.hpp"
#include "myriad/gpu/pipeline/pipeline.hpp"
#include "myriad/render/frame/frame_system.hpp"

namespace myriad::render {

struct InteractionFieldOptions {
  // Cells per side (1..2048) and their size in metres (> 0): 64 m around the camera, a foot's radius
  // over a few cells (a plant reads the one cell under its root).
  std::uint32_t resolution = 256;
  float cell = 0.25f;
  std::uint32_t max_interactors = 8192;  // feet splatted per frame (more are dropped and counted)
  WindParams wind;

  // Throws myriad::Error naming the first invalid field (the field's constructor calls it).
  void validate() const;
};

class InteractionField : public FrameSystem {
 public:
  // Called in update() with the grid placed for the frame: append the frame's feet (make_interactor;
  // those that do not reach the grid are dropped afterwards).
  using Gather = std::function<void(const InteractionGrid& grid, std::vector<Interactor>& out)>;

  explicit InteractionField(gpu::Context& ctx, const InteractionFieldOptions& options = {});

  void set_gather(Gather gather) { gather_ = std::move(gather); }
  // Validated (validate_wind); read by every plant from the next upload().
  void set_wind(const WindParams& wind);
  const WindParams& wind() const { return header_.wind; }

  // CPU: the grid around the view's eye, the feet gathered for it.
  void update(const FrameView& view, float dt) override;
  // Outside rendering, before any pass reads the plants' motion: see the header comment.
  void upload(VkCommandBuffer cmd) override;
  void cull(VkCommandBuffer, const FrameView&, FramePhase, const DepthPyramid*) override {}
  void draw(VkCommandBuffer, const FrameView&, FramePhase, const ShadowMap*) override {}

  // The motion buffer's device address (PlantMotion in plant_motion.glsl).
  VkDeviceAddress address() const { return buffer_.address(); }
  // Of the last update(): the header (wind, grid, origin), the feet kept, the cells each side of a
  // foot's own that the splat visits, and the feet dropped (beyond max_interactors).
  const PlantMotionHeader& header() const { return header_; }
  std::span<const Interactor> interactors() const { return interactors_; }
  std::uint32_t reach() const { return reach_; }
  std::uint64_t dropped() const { return dropped_; }
  // After the frame's submission completed (tests, tools): the cells as the splat left them.
  std::vector<InteractionCell> read_cells();
  std::uint64_t gpu_bytes() const { return buffer_.size() + feet_.size(); }

 private:
  gpu::Context& ctx_;
  InteractionFieldOptions options_;
  gpu::OwnedUploadShare share_;
  gpu::Buffer buffer_;  // header, then resolution² cells
  gpu::Buffer feet_;    // Interactor per foot
  gpu::Pipeline splat_;
  Gather gather_;
  PlantMotionHeader header_;
  std::vector<Interactor> interactors_;
  std::vector<float> radii_;  // scratch
  std::uint32_t reach_ = 0;
  std::uint64_t dropped_ = 0;
};

// What a plant renderer holds to find its motion: the field it was given, or its own stand-in (the
// default wind, no grid), so it sways on its own and every shader always has a buffer to read.
class PlantMotionReceiver {
 public:
  explicit PlantMotionReceiver(gpu::Context& ctx);
  // Null: back to the stand-in. The field must outlive its use.
  void set_field(const InteractionField* field) { field_ = field; }
  VkDeviceAddress address() const { return field_ ? field_->address() : stand_in_.address(); }
  const WindParams& wind() const { return field_ ? field_->wind() : stand_in_wind_; }
  // The address as the push constants' uvec2 (low word first).
  glm::uvec2 address_words() const {
    const VkDeviceAddress a = address();
    return {std::uint32_t(a), std::uint32_t(a >> 32)};
  }

 private:
  WindParams stand_in_wind_;  // the default
  const InteractionField* field_ = nullptr;
  gpu::Buffer stand_in_;
};

}  // namespace myriad::render
