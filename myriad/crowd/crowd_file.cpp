#include "myriad/crowd/crowd_file.hpp"

#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"

#include <cmath>

namespace myriad::crowd {
namespace {

constexpr std::uint32_t kMaxName = 4096;
constexpr std::uint32_t kMaxTextureEdge = 16384;
constexpr std::uint32_t kMaxLods = 8;
constexpr FileFormat kCrowdFormat{kCrowdMagic, kCrowdVersion, "crowd file", "re-bake the model"};

void write_string(BinaryWriter& w, const std::string& s) {
  w.write(static_cast<std::uint32_t>(s.size()));
  w.write_array(std::span<const char>(s.data(), s.size()));
}

std::string read_string(BinaryReader& r, const char* field) {
  const auto n = r.read<std::uint32_t>(field);
  if (n > kMaxName) r.fail("string of " + std::to_string(n) + " bytes is too long", field);
  const auto bytes = r.read_bytes(n, field);
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

template <class T>
void write_vector(BinaryWriter& w, const std::vector<T>& v) {
  w.write_array(std::span<const T>(v));
}

bool finite(glm::vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

void read_box(BinaryReader& r, glm::vec3& lo, glm::vec3& hi, const char* field) {
  lo = r.read<glm::vec3>(field);
  hi = r.read<glm::vec3>(field);
  if (!finite(lo) || !finite(hi) || lo.x > hi.x || lo.y > hi.y || lo.z > hi.z)
    r.fail("bounds are not finite or min > max", field);
}

CrowdLod read_lod(BinaryReader& r, const CrowdFile& f, std::uint32_t column_count) {
  CrowdLod lod;
  const auto vertices = r.read<std::uint32_t>("lod.vertex_count");
  const auto triangles = r.read<std::uint32_t>("lod.triangle_count");
  lod.texture = r.read<std::uint32_t>("lod.texture");
  if (lod.texture >= f.textures.size()) r.fail("texture index out of range", "lod.texture");
  if (vertices == 0 || triangles == 0) r.fail("LOD has no vertices or no triangles", "lod.vertex_count");
  // 36 bytes per vertex and 14 per triangle follow: check before allocating.
  if (vertices > r.remaining() / 36 || triangles > r.remaining() / 14)
    r.fail("LOD exceeds the file size", "lod.vertex_count");
  lod.positions = r.read_array<glm::vec3>(vertices, "lod.positions");
  lod.normals = r.read_array<glm::vec3>(vertices, "lod.normals");
  lod.uvs = r.read_array<glm::vec2>(vertices, "lod.uvs");
  lod.columns = r.read_array<std::uint32_t>(vertices, "lod.columns");
  lod.indices = r.read_array<std::uint32_t>(std::size_t{triangles} * 3, "lod.indices");
  lod.triangle_material = r.read_array<std::uint16_t>(triangles, "lod.triangle_material");
  for (std::size_t v = 0; v < vertices; ++v) {
    if (!finite(lod.positions[v]) || !finite(lod.normals[v]))
      r.fail("non-finite position or normal", "lod.positions");
    if (lod.columns[v] >= column_count) r.fail("VAT column out of range", "lod.columns");
  }
  for (std::uint32_t i : lod.indices) {
    if (i >= vertices) r.fail("index out of range", "lod.indices");
  }
  for (std::uint16_t m : lod.triangle_material) {
    if (m >= f.materials.size()) r.fail("material index out of range", "lod.triangle_material");
  }
  lod.method = read_string(r, "lod.method");
  const auto flags = r.read<std::uint32_t>("lod.check_flags");
  if (flags > 3 || (!(flags & 1u) && !(flags & 2u)))
    r.fail("check flags must be 1 (checked, outside the limits), 2 (not checked) or 3 (checked, within)",
           "lod.check_flags");
  lod.checked = (flags & 1u) != 0;
  lod.within_limits = (flags & 2u) != 0;
  lod.holes = r.read<float>("lod.holes");
  lod.loss = r.read<float>("lod.loss");
  lod.silhouette = r.read<float>("lod.silhouette");
  for (const float v : {lod.holes, lod.loss, lod.silhouette}) {
    if (!std::isfinite(v) || !(v >= 0.0f)) r.fail("hole-check measures must be finite and >= 0", "lod.holes");
  }
  return lod;
}

}  // namespace

std::vector<std::byte> serialize_crowd(const CrowdFile& f) {
  BinaryWriter w;
  w.write_magic_version(kCrowdFormat);
  const std::size_t header = w.write_seal_fields();
  write_string(w, f.name);
  w.write(f.bind_min);
  w.write(f.bind_max);
  w.write(f.animated_min);
  w.write(f.animated_max);
  w.write(static_cast<std::uint32_t>(f.materials.size()));
  for (const CrowdMaterial& m : f.materials) {
    write_string(w, m.name);
    w.write(static_cast<std::uint32_t>(m.double_sided ? 1 : 0));
  }
  w.write(static_cast<std::uint32_t>(f.parts.size()));
  for (const CrowdPart& part : f.parts) {
    write_string(w, part.name);
    write_string(w, part.joint);
    w.write(part.joints);
    w.write(part.triangles);
    write_string(w, part.material);
  }
  w.write(static_cast<std::uint32_t>(f.textures.size()));
  for (const anim::Texture& t : f.textures) {
    write_string(w, t.name);
    w.write(t.width);
    w.write(t.height);
    write_vector(w, t.rgba8);
  }
  w.write(f.fps);
  w.write(f.columns);
  w.write(f.skinned_columns);
  w.write(f.rows);
  w.write(static_cast<std::uint32_t>(f.clips.size()));
  for (const VatClip& c : f.clips) {
    write_string(w, c.name);
    w.write(c.duration);
    w.write(c.first_row);
    w.write(c.frames);
    w.write(c.bounds_min);
    w.write(c.bounds_max);
  }
  write_vector(w, f.attachments);
  write_vector(w, f.texels);
  w.write(static_cast<std::uint32_t>(f.lods.size()));
  for (const CrowdLod& lod : f.lods) {
    w.write(static_cast<std::uint32_t>(lod.vertex_count()));
    w.write(static_cast<std::uint32_t>(lod.triangle_count()));
    w.write(lod.texture);
    write_vector(w, lod.positions);
    write_vector(w, lod.normals);
    write_vector(w, lod.uvs);
    write_vector(w, lod.columns);
    write_vector(w, lod.indices);
    write_vector(w, lod.triangle_material);
    write_string(w, lod.method);
    w.write(static_cast<std::uint32_t>((lod.checked ? 1u : 0u) | (lod.within_limits ? 2u : 0u)));
    w.write(lod.holes);
    w.write(lod.loss);
    w.write(lod.silhouette);
  }
  w.seal(header);
  return std::move(w.bytes());
}

CrowdFile parse_crowd(std::span<const std::byte> bytes, const std::string& source) {
  BinaryReader r(source, bytes);
  r.read_magic_version(kCrowdFormat);
  r.read_seal();

  CrowdFile f;
  f.name = read_string(r, "name");
  read_box(r, f.bind_min, f.bind_max, "bind_bounds");
  read_box(r, f.animated_min, f.animated_max, "animated_bounds");
  const auto materials = r.read<std::uint32_t>("material_count");
  if (materials == 0 || materials > 65535 || materials > r.remaining() / 8)
    r.fail("material count out of range", "material_count");
  for (std::uint32_t i = 0; i < materials; ++i) {
    CrowdMaterial m;
    m.name = read_string(r, "material.name");
    const auto flags = r.read<std::uint32_t>("material.double_sided");
    if (flags > 1) r.fail("double_sided must be 0 or 1", "material.double_sided");
    m.double_sided = flags == 1;
    f.materials.push_back(std::move(m));
  }
  const auto parts = r.read<std::uint32_t>("part_count");
  if (parts > 65535 || parts > r.remaining() / 20) r.fail("part count out of range", "part_count");
  for (std::uint32_t i = 0; i < parts; ++i) {
    CrowdPart part;
    part.name = read_string(r, "part.name");
    part.joint = read_string(r, "part.joint");
    part.joints = r.read<std::uint32_t>("part.joints");
    part.triangles = r.read<std::uint32_t>("part.triangles");
    part.material = read_string(r, "part.material");
    if (!part.joint.empty() && part.joints != 1)
      r.fail("a rigid part follows exactly one joint", "part.joints");
    f.parts.push_back(std::move(part));
  }
  const auto textures = r.read<std::uint32_t>("texture_count");
  if (textures == 0 || textures > r.remaining() / 12) r.fail("texture count out of range", "texture_count");
  for (std::uint32_t i = 0; i < textures; ++i) {
    anim::Texture t;
    t.name = read_string(r, "texture.name");
    t.width = r.read<std::uint32_t>("texture.width");
    t.height = r.read<std::uint32_t>("texture.height");
    if (t.width == 0 || t.height == 0 || t.width > kMaxTextureEdge || t.height > kMaxTextureEdge)
      r.fail("texture size out of range", "texture.width");
    t.rgba8 = r.read_array<std::uint8_t>(std::size_t{t.width} * t.height * 4, "texture.rgba8");
    f.textures.push_back(std::move(t));
  }
  f.fps = r.read<float>("vat.fps");
  if (!(f.fps > 0.0f && f.fps <= 240.0f)) r.fail("frame rate must be in (0, 240]", "vat.fps");
  f.columns = r.read<std::uint32_t>("vat.columns");
  f.skinned_columns = r.read<std::uint32_t>("vat.skinned_columns");
  f.rows = r.read<std::uint32_t>("vat.rows");
  if (f.columns == 0 || f.rows == 0 || f.skinned_columns == 0 || f.skinned_columns > f.columns)
    r.fail("VAT sizes out of range (columns, skinned columns and rows must be positive)", "vat.columns");
  const auto clips = r.read<std::uint32_t>("vat.clip_count");
  if (clips == 0 || clips > r.remaining() / 40) r.fail("clip count out of range", "vat.clip_count");
  std::uint32_t next_row = 0;
  for (std::uint32_t i = 0; i < clips; ++i) {
    VatClip c;
    c.name = read_string(r, "clip.name");
    c.duration = r.read<float>("clip.duration");
    c.first_row = r.read<std::uint32_t>("clip.first_row");
    c.frames = r.read<std::uint32_t>("clip.frames");
    read_box(r, c.bounds_min, c.bounds_max, "clip.bounds");
    if (!(c.duration >= 0.0f) || !std::isfinite(c.duration))
      r.fail("clip duration must be finite and >= 0", "clip.duration");
    if (c.first_row != next_row || c.frames == 0 || c.frames > f.rows - next_row)
      r.fail("clip rows must follow each other inside the VAT", "clip.first_row");
    next_row += c.frames;
    f.clips.push_back(std::move(c));
  }
  if (next_row != f.rows) r.fail("clips do not cover every VAT row", "vat.rows");
  f.attachments = r.read_array<Attachment>(f.columns - f.skinned_columns, "vat.attachments");
  for (const Attachment& a : f.attachments) {
    if (a.a >= f.skinned_columns || a.b >= f.skinned_columns || a.c >= f.skinned_columns)
      r.fail("attachment names a column that is not skinned", "vat.attachments");
    if (!finite(a.w)) r.fail("attachment weights are not finite", "vat.attachments");
  }
  const std::uint64_t cells = std::uint64_t{f.rows} * f.columns;
  if (cells > r.remaining() / sizeof(glm::u16vec4)) r.fail("VAT exceeds the file size", "vat.texels");
  f.texels = r.read_array<glm::u16vec4>(static_cast<std::size_t>(cells), "vat.texels");
  const auto lods = r.read<std::uint32_t>("lod_count");
  if (lods == 0 || lods > kMaxLods) r.fail("LOD count must be 1.." + std::to_string(kMaxLods), "lod_count");
  for (std::uint32_t i = 0; i < lods; ++i) f.lods.push_back(read_lod(r, f, f.columns));
  if (r.remaining() != 0) r.fail(std::to_string(r.remaining()) + " bytes after the last LOD", "lods");
  return f;
}

void write_crowd(const std::filesystem::path& path, const CrowdFile& file) {
  write_file_atomic(path, serialize_crowd(file));
}

CrowdFile read_crowd(const std::filesystem::path& path) {
  const std::vector<std::byte> bytes = read_file(path);
  return parse_crowd(bytes, path.string());
}

}  // namespace myriad::crowd
