// The per-frame plant motion buffer: header and feet staged, cells cleared and splatted.
#include "myriad/render/passes/interaction_field.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>

#include "myriad/core/io/error.hpp"
#include "myriad/gpu/sync/sync.hpp"
#include "myriad/render/shaders/interaction_field_layout.h"
#include "myriad_render_shaders.hpp"

namespace myriad::render {
namespace {

constexpr std::uint32_t kGroup = 64;  // interaction_field.comp's workgroup size
constexpr VkDeviceSize kHeaderBytes = sizeof(PlantMotionHeader);
constexpr VkPipelineStageFlags2 kReaders =
    VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;

}  // namespace

void InteractionFieldOptions::validate() const {
  if (resolution == 0 || resolution > 2048)
    throw Error("the interaction grid needs 1 to 2048 cells a side", "InteractionFieldOptions::resolution");
  if (!(cell > 0.0f) || !std::isfinite(cell))
    throw Error("the interaction grid's cells must be a finite number of metres > 0",
                "InteractionFieldOptions::cell");
  if (max_interactors == 0)
    throw Error("the interaction field needs room for at least one interactor",
                "InteractionFieldOptions::max_interactors");
  validate_wind(wind);
}

InteractionField::InteractionField(gpu::Context& ctx, const InteractionFieldOptions& options)
    : ctx_(ctx),
      options_((options.validate(), options)),
      share_(ctx.uploads(), "plant motion"),
      buffer_(gpu::make_storage_buffer(ctx, kHeaderBytes + VkDeviceSize(options.resolution) *
                                                               options.resolution * sizeof(InteractionCell))),
      feet_(gpu::make_storage_buffer(ctx, VkDeviceSize(options.max_interactors) * sizeof(Interactor))),
      splat_(
          gpu::make_compute_pipeline(ctx, spirv::interaction_field_comp(),
                                     {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                      sizeof(shader::InteractionSplatPush)})) {
  header_.wind = options_.wind;
  header_.grid = interaction_grid_around(glm::vec2(0.0f), options_.cell, options_.resolution);
  // Defined before the first frame writes it (a plant drawn first reads a calm, untrodden field).
  std::vector<std::byte> init(buffer_.size(), std::byte{0});
  std::memcpy(init.data(), &header_, sizeof header_);
  gpu::upload(ctx, buffer_, std::span<const std::byte>(init));
  interactors_.reserve(options_.max_interactors);
}

void InteractionField::set_wind(const WindParams& wind) {
  validate_wind(wind);
  header_.wind = wind;
}

void InteractionField::update(const FrameView& view, float) {
  header_.grid =
      interaction_grid_around(glm::vec2(view.eye.x, view.eye.z), options_.cell, options_.resolution);
  header_.origin = glm::vec2(float(view.origin.x), float(view.origin.z));
  interactors_.clear();
  dropped_ = 0;
  if (gather_) gather_(header_.grid, interactors_);
  // Only feet that touch the grid, at most max_interactors of them; the splat's reach covers the
  // largest radius kept.
  const InteractionGrid& g = header_.grid;
  float max_radius = 0.0f;
  std::size_t kept = 0;
  for (const Interactor& e : interactors_) {
    const float radius = 1.0f / e.inv_radius;
    if (!interactor_reaches(g, e.position, radius)) continue;
    if (kept == options_.max_interactors) {
      ++dropped_;
      continue;
    }
    max_radius = std::max(max_radius, radius);
    interactors_[kept++] = e;
  }
  interactors_.resize(kept);
  reach_ = kept > 0 ? interaction_reach(g, max_radius) : 0u;
}

void InteractionField::upload(VkCommandBuffer cmd) {
  // The header and the feet through the upload queue (its barriers order them after the last frame's
  // reads and make them visible to everything after).
  gpu::UploadQueue& uploads = ctx_.uploads();
  const VkDeviceSize feet_bytes = interactors_.size() * sizeof(Interactor);
  const gpu::StagingRing::Span staged = uploads.reserve(share_, kHeaderBytes + feet_bytes);
  std::memcpy(staged.data, &header_, kHeaderBytes);
  if (feet_bytes > 0) std::memcpy(staged.data + kHeaderBytes, interactors_.data(), feet_bytes);
  uploads.copy_from(staged, 0, buffer_.handle(), 0, kHeaderBytes);
  if (feet_bytes > 0) uploads.copy_from(staged, kHeaderBytes, feet_.handle(), 0, feet_bytes);
  uploads.record(cmd);

  // The cells: the last frame's readers (plant vertex shaders, the trees' wind) and splat are done
  // before they are cleared; the clear lands before the splat's atomics; the splat's sums are visible
  // to this frame's readers.
  const VkDeviceSize cells_bytes = buffer_.size() - kHeaderBytes;
  gpu::memory_barrier(cmd, kReaders, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
  vkCmdFillBuffer(cmd, buffer_.handle(), kHeaderBytes, cells_bytes, 0u);
  if (interactors_.empty()) {
    gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, kReaders,
                        VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    return;
  }
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
  shader::InteractionSplatPush push{};
  push.grid = header_.grid;
  push.count = std::uint32_t(interactors_.size());
  push.reach = reach_;
  const std::array bindings{gpu::storage_buffer(feet_), gpu::storage_buffer(buffer_)};
  gpu::bind(ctx_, cmd, splat_, bindings, &push, sizeof(push));
  const std::uint64_t side = 2u * std::uint64_t(reach_) + 1u;
  const std::uint64_t threads = interactors_.size() * side * side;
  vkCmdDispatch(cmd, std::uint32_t((threads + kGroup - 1) / kGroup), 1, 1);
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                      kReaders, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
}

std::vector<InteractionCell> InteractionField::read_cells() {
  const std::size_t count = std::size_t(options_.resolution) * options_.resolution;
  return gpu::read_buffer_as<InteractionCell>(ctx_, buffer_, count, kHeaderBytes);
}

PlantMotionReceiver::PlantMotionReceiver(gpu::Context& ctx)
    : stand_in_(gpu::make_storage_buffer(ctx, sizeof(PlantMotionHeader) + sizeof(InteractionCell))) {
  // The default wind and no grid (resolution 0): one cell that is never read as trodden.
  PlantMotionHeader header;
  header.wind = stand_in_wind_;
  std::vector<std::byte> bytes(stand_in_.size(), std::byte{0});
  std::memcpy(bytes.data(), &header, sizeof header);
  gpu::upload(ctx, stand_in_, std::span<const std::byte>(bytes));
}

}  // namespace myriad::render
