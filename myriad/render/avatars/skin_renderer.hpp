// GPU side of skinned avatars (SPEC B4, B7): mesh parts in one vertex/index arena, every character's
// palette in one global buffer, and the skin.vert pipelines. Palettes reach the GPU from the context's
// staging ring (gpu::StagingRing, the one upload path) either by a copy (vkCmdCopyBuffer, one region per
// changed range: the default) or by a compute pass (skin_palette_upload.comp); both give the same buffer. The
// copy is the default because the data is already in its final layout and measured faster
// (docs/BENCHMARKS.md, batch). Per-instance batch data lives in batch_gpu.hpp.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "myriad/anim/import/gltf_import.hpp"
#include "myriad/anim/pose/skeleton.hpp"
#include "myriad/batch/property_set.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/memory/image.hpp"
#include "myriad/gpu/pipeline/pipeline.hpp"
#include "myriad/gpu/memory/upload_queue.hpp"
#include "myriad/render/passes/shadow_map.hpp"
#include "myriad/render/shaders/skin_layout.h"

namespace myriad::render {

struct SkinMeshRange {
  std::uint32_t first_vertex;
  std::uint32_t vertex_count;
  std::uint32_t first_index;
  std::uint32_t index_count;
};

// Packs skinned meshes (joints already in renderer-skeleton indices) into shader::SkinVertex. The
// material entry is mesh.material + 1 (entry 0 of a SkinMaterials table is the default material);
// `tintable`: the instance's tint multiplies the material (AvatarPart::tintable).
std::vector<shader::SkinVertex> pack_skin_vertices(const anim::SkinnedMesh& mesh, bool tintable = true);

// A kit's materials on the GPU: one SkinMaterial per glTF material after the default (white, opaque,
// single-sided) entry 0, and every base-colour texture as a layer of one sRGB array texture with a full
// mip chain (core/image/texture_array.hpp). Bindings 5 and 6 of the skin pipelines.
class SkinMaterials {
 public:
  SkinMaterials(gpu::Context& ctx, std::span<const anim::Material> materials,
                std::span<const anim::Texture> textures);
  // The table entry's values, as uploaded (entry 0 is the default material).
  const std::vector<shader::SkinMaterial>& table() const { return table_; }
  bool double_sided(std::uint32_t entry) const { return table_[entry].double_sided != 0; }
  std::array<gpu::Binding, 2> bindings() const;
  std::uint64_t gpu_bytes() const;

 private:
  std::vector<shader::SkinMaterial> table_;
  gpu::Buffer buffer_;
  gpu::Image texture_;
  std::uint64_t texture_bytes_ = 0;
  gpu::Sampler sampler_;
};

// SkinPush::to_light where no frame gives one (tests, captures): a sun up and to the side (w unused).
inline const glm::vec4 kSkinDefaultLight{glm::normalize(glm::vec3(0.4f, 0.8f, 0.3f)), 0.35f};

// Bindings 5-8 of the skin pipelines: the kit's materials, then the shadow map (or the receiver's
// lit stand-in when `shadow` is null).
std::array<gpu::Binding, 4> skin_fragment_bindings(const SkinMaterials& materials,
                                                   const ShadowReceiver& receiver, const ShadowMap* shadow);

// Texels per side of a kit's array texture at most: larger textures are resampled to it.
inline constexpr std::uint32_t kSkinTextureMaxSize = 1024;

// SkinPush::pattern_float for a property set: 1 + the offset of its one-float property "pattern",
// 0 when it has none (drawn plain).
std::uint32_t skin_pattern_float(const batch::PropertySet& set);

class SkinMeshArena {
 public:
  // `tintable[m]` (AvatarPart::tintable) for each mesh; empty: every mesh is tintable.
  SkinMeshArena(gpu::Context& ctx, std::span<const anim::SkinnedMesh> meshes,
                std::span<const std::uint8_t> tintable = {});
  const SkinMeshRange& range(std::uint32_t mesh) const { return ranges_[mesh]; }
  const gpu::Buffer& vertices() const { return vertices_; }
  const gpu::Buffer& indices() const { return indices_; }

 private:
  std::vector<SkinMeshRange> ranges_;
  gpu::Buffer vertices_, indices_;
};

enum class PaletteUpload {
  kStagingCopy,  // vkCmdCopyBuffer from staging, one region per queued range
  kCompute,      // skin_palette_upload.comp, one dispatch per queued range (one binding for all)
};

// Matrices [first, first + count) of the global palette.
struct PaletteRange {
  std::size_t first = 0;
  std::size_t count = 0;
};

// Appends to `out` the palette ranges of the characters with updated[c] != 0 (character c owns
// matrices [c * palette_size, (c + 1) * palette_size)), neighbours merged into one range.
void updated_palette_ranges(std::span<const std::uint8_t> updated, std::size_t palette_size,
                            std::vector<PaletteRange>& out);

// The global palette buffer (device-local); what changed is staged in the context's upload queue
// ("avatars", every frame) and copied, or written by a compute pass reading the staged rows in place.
class SkinPalette {
 public:
  SkinPalette(gpu::Context& ctx, std::size_t matrices);
  // Copies palettes[first, first + count) into the staging ring (this frame's allocation, outside its
  // budget: palettes go every frame) and queues that range for the next upload. Throws when the ring
  // is full.
  void write(std::span<const anim::Mat3x4> palettes, std::size_t first, std::size_t count);
  // The same for many ranges (e.g. the characters a throttled frame updated) in one ring allocation,
  // one queued region per range (ranges adjacent in the palette merge). Returns the bytes staged.
  std::size_t write(std::span<const anim::Mat3x4> palettes, std::span<const PaletteRange> ranges);
  // Records the queued ranges' upload and a barrier making them visible to vertex shaders; clears the
  // queue. Record it in the frame that wrote them (the ring reuses a frame's bytes once it completed).
  void record_upload(VkCommandBuffer cmd, PaletteUpload how = PaletteUpload::kStagingCopy);
  const gpu::Buffer& buffer() const { return device_; }
  std::size_t pending_regions() const { return regions_.size(); }

 private:
  void record_compute(VkCommandBuffer cmd);

  gpu::Context& ctx_;
  gpu::OwnedUploadShare upload_share_;
  gpu::Buffer device_;
  gpu::Pipeline upload_pipeline_;
  std::vector<VkBufferCopy> regions_;  // srcOffset in the staging ring, dstOffset in device_
};

// skin.vert + skin.frag (colour + depth; the cull mode is dynamic: set it per material before drawing),
// skin.vert + skin_id.frag (the same) (palette offset per pixel, RGBA8 +
// depth) or skin.vert + skin_capture.frag (points into RGBA32F).
ShadedPipeline make_skin_pipeline(const gpu::Context& ctx, VkFormat color_format, VkFormat depth_format);
gpu::Pipeline make_skin_id_pipeline(const gpu::Context& ctx, VkFormat color_format, VkFormat depth_format);
gpu::Pipeline make_skin_capture_pipeline(const gpu::Context& ctx);
inline constexpr VkFormat kSkinCaptureFormat = VK_FORMAT_R32G32B32A32_SFLOAT;

}  // namespace myriad::render
