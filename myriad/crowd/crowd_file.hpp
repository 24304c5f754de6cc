// The ".crowd" file: everything a crowd renderer needs for one enemy type (SPEC C1–C7 output): LOD
// meshes whose vertices name VAT columns, the VAT (clip table + quantised texels), the attachment data
// of LOD2's columns, textures, materials, the source model's parts and bounds. Header: magic "MCRD", version,
// payload size and an XXH3 checksum of the payload (core's checksum64); written atomically. The byte layout
// is in docs/FORMATS.md; parse_crowd() validates all of it and names the file and field on any error.
#pragma once

#include "myriad/crowd/bake_mesh.hpp"
#include "myriad/crowd/vat.hpp"

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace myriad::crowd {

inline constexpr std::uint32_t kCrowdMagic = 0x4452434du;  // "MCRD" in file order
inline constexpr std::uint32_t kCrowdVersion = 3;
inline constexpr std::size_t kCrowdHeaderBytes = 24;

struct CrowdLod {
  std::vector<glm::vec3> positions;  // bind pose, mesh space
  std::vector<glm::vec3> normals;
  std::vector<glm::vec2> uvs;
  std::vector<std::uint32_t> columns;  // per vertex: its VAT column
  std::vector<std::uint32_t> indices;
  std::vector<std::uint16_t> triangle_material;
  std::uint32_t texture = 0;  // into CrowdFile::textures
  // How the baker made this level and what its hole check measured (fractions of the original's
  // pixels, worst over every view and pose), so `myriad crowd info` can say it without re-baking.
  std::string method;         // e.g. "voxel remesh", "LOD1 simplified further"
  bool checked = false;       // hole-checked (LOD0 is the original surface, not checked)
  bool within_limits = true;  // the check passed (always true when not checked)
  float holes = 0.0f;
  float loss = 0.0f;
  float silhouette = 0.0f;

  std::size_t vertex_count() const { return positions.size(); }
  std::size_t triangle_count() const { return indices.size() / 3; }
};

struct CrowdMaterial {
  std::string name;
  bool double_sided = false;  // false: back faces culled (base colour is baked into the textures)
};

// One mesh of the source model (the LODs merge every part into one mesh): what `myriad crowd info`
// lists, so a bake can be checked against the model it came from.
struct CrowdPart {
  std::string name;
  // The one joint every vertex follows with weight 1 (a rigid mesh parented to a joint, or a mesh
  // skinned to a single joint); empty when the part is weighted to several joints.
  std::string joint;
  std::uint32_t joints = 0;     // distinct joints its vertices are weighted to
  std::uint32_t triangles = 0;  // in the source model
  std::string material;         // its material's name; empty without one
};

struct CrowdFile {
  std::string name;
  glm::vec3 bind_min{0.0f}, bind_max{0.0f};          // of every LOD in bind pose
  glm::vec3 animated_min{0.0f}, animated_max{0.0f};  // of every VAT position (root space)
  std::vector<CrowdMaterial> materials;
  std::vector<CrowdPart> parts;
  std::vector<anim::Texture> textures;
  std::vector<CrowdLod> lods;
  // VAT: columns [0, skinned_columns) are skinned, [skinned_columns, columns) attached (attachments[k]
  // belongs to column skinned_columns + k; its a, b, c are skinned columns).
  float fps = 30.0f;
  std::uint32_t columns = 0;
  std::uint32_t skinned_columns = 0;
  std::uint32_t rows = 0;
  std::vector<VatClip> clips;
  std::vector<Attachment> attachments;
  std::vector<glm::u16vec4> texels;  // rows × columns
};

std::vector<std::byte> serialize_crowd(const CrowdFile& file);
CrowdFile parse_crowd(std::span<const std::byte> bytes, const std::string& source);
void write_crowd(const std::filesystem::path& path, const CrowdFile& file);  // atomic (temp + rename)
CrowdFile read_crowd(const std::filesystem::path& path);

}  // namespace myriad::crowd
