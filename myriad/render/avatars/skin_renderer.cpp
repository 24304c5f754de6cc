#include "myriad/render/avatars/skin_renderer.hpp"

#include <array>
#include <cstring>

#include "myriad/core/io/error.hpp"
#include "myriad/gpu/memory/upload_queue.hpp"
#include "myriad/gpu/sync/sync.hpp"

#include <glm/gtc/packing.hpp>
#include "myriad_render_shaders.hpp"

namespace myriad::render {

std::vector<shader::SkinVertex> pack_skin_vertices(const anim::SkinnedMesh& mesh, bool tintable) {
  std::vector<shader::SkinVertex> out(mesh.positions.size());
  // A mesh has UVs (and colours) for every vertex or for none (glTF attributes, SkinnedMesh).
  const bool has_uv = mesh.uvs.size() == mesh.positions.size() && !mesh.uvs.empty();
  const bool has_color = mesh.colors.size() == mesh.positions.size() && !mesh.colors.empty();
  if (mesh.material + 1 > 0xFFFF) throw Error("more than 65534 materials in one kit", "pack_skin_vertices");
  const std::uint32_t flags = (has_uv ? SKIN_HAS_UV : 0u) | (tintable ? SKIN_TINTABLE : 0u) |
                              (static_cast<std::uint32_t>(mesh.material + 1) << SKIN_MATERIAL_SHIFT);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const glm::u16vec4 j = mesh.joints[i];
    const glm::vec4 c = has_color ? mesh.colors[i] : glm::vec4(1.0f);
    out[i] = {mesh.positions[i],
              mesh.normals.empty() ? glm::vec3(0, 1, 0) : mesh.normals[i],
              std::uint32_t{j.x} | (std::uint32_t{j.y} << 16),
              std::uint32_t{j.z} | (std::uint32_t{j.w} << 16),
              mesh.weights[i],
              has_uv ? mesh.uvs[i] : glm::vec2(0.0f),
              flags,
              glm::packUnorm4x8(c)};
  }
  return out;
}

SkinMaterials::SkinMaterials(gpu::Context& ctx, std::span<const anim::Material> materials,
                             std::span<const anim::Texture> textures) {
  table_.push_back({glm::vec4(1.0f), SKIN_NO_TEXTURE, -1.0f, 0u, 0u});
  for (const anim::Material& m : materials) {
    const bool textured =
        m.base_color_texture >= 0 && static_cast<std::size_t>(m.base_color_texture) < textures.size();
    table_.push_back({m.base_color_factor,
                      textured ? static_cast<std::uint32_t>(m.base_color_texture) : SKIN_NO_TEXTURE,
                      m.alpha_mode == anim::AlphaMode::kOpaque ? -1.0f : m.alpha_cutoff,
                      m.double_sided ? 1u : 0u, m.texture_wrap.packed()});
  }
  std::vector<TextureSource> sources;
  for (const anim::Texture& t : textures) sources.push_back({t.name, t.width, t.height, t.rgba8});
  buffer_ = gpu::make_filled_buffer(ctx, std::span<const shader::SkinMaterial>(table_),
                                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  const TextureArray array = make_texture_array(sources, kSkinTextureMaxSize);
  for (const std::vector<std::uint8_t>& level : array.levels) texture_bytes_ += level.size();
  texture_ = gpu::make_texture_array_image(ctx, array, VK_FORMAT_R8G8B8A8_SRGB);
  sampler_ = gpu::make_linear_sampler(ctx);
}

std::array<gpu::Binding, 2> SkinMaterials::bindings() const {
  return {gpu::storage_buffer(buffer_),
          gpu::sampled_image(sampler_.handle(), texture_.view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL)};
}

std::array<gpu::Binding, 4> skin_fragment_bindings(const SkinMaterials& materials,
                                                   const ShadowReceiver& receiver, const ShadowMap* shadow) {
  const std::array<gpu::Binding, 2> m = materials.bindings(), s = receiver.bindings(shadow);
  return {m[0], m[1], s[0], s[1]};
}

std::uint64_t SkinMaterials::gpu_bytes() const { return buffer_.size() + texture_bytes_; }

std::uint32_t skin_pattern_float(const batch::PropertySet& set) {
  std::uint32_t offset = 0;
  for (const batch::PropertyDesc& p : set.properties) {
    if (p.name == "pattern" && p.components == 1) return offset + 1;
    offset += p.components;
  }
  return 0;
}

void updated_palette_ranges(std::span<const std::uint8_t> updated, std::size_t palette_size,
                            std::vector<PaletteRange>& out) {
  for (std::size_t c = 0; c < updated.size(); ++c) {
    if (updated[c] == 0) continue;
    if (!out.empty() && out.back().first + out.back().count == c * palette_size) {
      out.back().count += palette_size;
    } else {
      out.push_back({c * palette_size, palette_size});
    }
  }
}

SkinMeshArena::SkinMeshArena(gpu::Context& ctx, std::span<const anim::SkinnedMesh> meshes,
                             std::span<const std::uint8_t> tintable) {
  if (!tintable.empty() && tintable.size() != meshes.size())
    throw Error("one tintable flag per mesh", "SkinMeshArena");
  std::vector<shader::SkinVertex> vertices;
  std::vector<std::uint32_t> indices;
  for (std::size_t mi = 0; mi < meshes.size(); ++mi) {
    const anim::SkinnedMesh& m = meshes[mi];
    ranges_.push_back(
        {static_cast<std::uint32_t>(vertices.size()), static_cast<std::uint32_t>(m.positions.size()),
         static_cast<std::uint32_t>(indices.size()), static_cast<std::uint32_t>(m.indices.size())});
    const auto packed = pack_skin_vertices(m, tintable.empty() || tintable[mi] != 0);
    vertices.insert(vertices.end(), packed.begin(), packed.end());
    indices.insert(indices.end(), m.indices.begin(), m.indices.end());  // relative: drawn with vertex_offset
  }
  if (vertices.empty() || indices.empty())
    throw Error("skin mesh arena needs at least one non-empty mesh", "SkinMeshArena");
  vertices_ = gpu::make_filled_buffer(ctx, std::span<const shader::SkinVertex>(vertices),
                                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  indices_ =
      gpu::make_filled_buffer(ctx, std::span<const std::uint32_t>(indices), VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
}

SkinPalette::SkinPalette(gpu::Context& ctx, std::size_t matrices)
    : ctx_(ctx),
      upload_share_(ctx.uploads(), "avatars"),
      upload_pipeline_(
          gpu::make_compute_pipeline(ctx, spirv::skin_palette_upload_comp(),
                                     {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                      sizeof(shader::SkinPaletteUploadPush)})) {
  if (matrices == 0) throw Error("palette buffer needs at least one matrix", "SkinPalette");
  const VkDeviceSize bytes = matrices * sizeof(anim::Mat3x4);
  device_ = gpu::Buffer(ctx, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
}

void SkinPalette::write(std::span<const anim::Mat3x4> palettes, std::size_t first, std::size_t count) {
  const PaletteRange range{first, count};
  write(palettes, std::span(&range, 1));
}

std::size_t SkinPalette::write(std::span<const anim::Mat3x4> palettes, std::span<const PaletteRange> ranges) {
  constexpr std::size_t kMatrix = sizeof(anim::Mat3x4);
  std::size_t total = 0;
  for (const PaletteRange& r : ranges) {
    if (r.first + r.count > palettes.size() || (r.first + r.count) * kMatrix > device_.size())
      throw Error("palette range out of bounds", "SkinPalette::write");
    total += r.count;
  }
  if (total == 0) return 0;
  // One allocation for all ranges, row-aligned so the compute upload addresses the staged rows as vec4s.
  const gpu::StagingRing::Span staged =
      ctx_.uploads().reserve(upload_share_, total * kMatrix, sizeof(glm::vec4));
  VkDeviceSize src = staged.offset;
  for (const PaletteRange& r : ranges) {
    if (r.count == 0) continue;
    const VkDeviceSize dst = r.first * kMatrix, size = r.count * kMatrix;
    std::memcpy(staged.data + (src - staged.offset), palettes.data() + r.first, size);
    // Ranges adjacent in both the ring and the palette merge, so a full update is one region.
    if (!regions_.empty() && regions_.back().srcOffset + regions_.back().size == src &&
        regions_.back().dstOffset + regions_.back().size == dst) {
      regions_.back().size += size;
    } else {
      regions_.push_back({src, dst, size});
    }
    src += size;
  }
  return total * kMatrix;
}

void SkinPalette::record_upload(VkCommandBuffer cmd, PaletteUpload how) {
  if (regions_.empty()) return;
  const gpu::StagingRing& ring = ctx_.staging_ring();
  ring.flush();
  // Earlier frames' vertex shaders finish reading the palette before it is overwritten.
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT, VK_ACCESS_2_NONE,
                      VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_NONE);
  if (how == PaletteUpload::kCompute) {
    record_compute(cmd);
    gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                        VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
  } else {
    vkCmdCopyBuffer(cmd, ring.buffer().handle(), device_.handle(),
                    static_cast<std::uint32_t>(regions_.size()), regions_.data());
    gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                        VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
  }
  regions_.clear();
}

void SkinPalette::record_compute(VkCommandBuffer cmd) {
  constexpr VkDeviceSize kRow = sizeof(glm::vec4);
  const gpu::Buffer& ring = ctx_.staging_ring().buffer();
  // The whole ring may exceed maxStorageBufferRange: the ring is bound as a window from an offset the
  // device accepts (write() allocates whole rows, so every offset is a row multiple), as large as the
  // device allows, and bound again only for a region outside it, so a throttled frame's many scattered
  // regions (all from one allocation) cost one descriptor push and a push constant each.
  const VkDeviceSize align = std::max<VkDeviceSize>(ctx_.limits().minStorageBufferOffsetAlignment, kRow);
  const VkDeviceSize max_range = ctx_.limits().maxStorageBufferRange / kRow * kRow;
  gpu::bind_pipeline(cmd, upload_pipeline_);
  VkDeviceSize window_begin = 0, window_end = 0;  // nothing bound yet
  for (const VkBufferCopy& r : regions_) {
    if (r.srcOffset < window_begin || r.srcOffset + r.size > window_end) {
      window_begin = r.srcOffset / align * align;
      window_end =
          std::min(ring.size(), window_begin + std::max(max_range, r.srcOffset + r.size - window_begin));
      const std::array bindings{gpu::storage_buffer(ring.handle(), window_begin, window_end - window_begin),
                                gpu::storage_buffer(device_)};
      gpu::bind_resources(ctx_, cmd, upload_pipeline_, bindings);
    }
    const shader::SkinPaletteUploadPush push{static_cast<std::uint32_t>((r.srcOffset - window_begin) / kRow),
                                             static_cast<std::uint32_t>(r.dstOffset / kRow),
                                             static_cast<std::uint32_t>(r.size / kRow)};
    gpu::bind_resources(ctx_, cmd, upload_pipeline_, {}, &push, sizeof push);
    vkCmdDispatch(cmd, (push.row_count + 63) / 64, 1, 1);
  }
}

namespace {
gpu::PipelineLayoutDesc skin_layout() {
  return {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
           VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
           VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
           VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ShadowReceiver::kBindingTypes[0],
           ShadowReceiver::kBindingTypes[1]},
          sizeof(shader::SkinPush)};
}
}  // namespace

namespace {
gpu::GraphicsPipelineBuilder skin_builder(std::span<const std::uint32_t> fragment, VkFormat color_format,
                                          VkFormat depth_format) {
  gpu::GraphicsPipelineBuilder b;
  b.vertex = spirv::skin_vert();
  b.fragment = fragment;
  b.layout = skin_layout();
  b.color_formats = {color_format};
  b.depth_format = depth_format;
  b.dynamic_cull_mode = true;
  return b;
}
}  // namespace

ShadedPipeline make_skin_pipeline(const gpu::Context& ctx, VkFormat color_format, VkFormat depth_format) {
  return ShadedPipeline(ctx, skin_builder(spirv::skin_frag(), color_format, depth_format));
}

gpu::Pipeline make_skin_id_pipeline(const gpu::Context& ctx, VkFormat color_format, VkFormat depth_format) {
  return skin_builder(spirv::skin_id_frag(), color_format, depth_format).build(ctx);
}

gpu::Pipeline make_skin_capture_pipeline(const gpu::Context& ctx) {
  gpu::GraphicsPipelineBuilder b;
  b.vertex = spirv::skin_vert();
  b.fragment = spirv::skin_capture_frag();
  b.layout = skin_layout();
  b.color_formats = {kSkinCaptureFormat};
  b.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  b.cull_mode = VK_CULL_MODE_NONE;
  b.depth_test = false;
  b.depth_write = false;
  return b.build(ctx);
}

}  // namespace myriad::render
