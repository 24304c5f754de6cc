#include "myriad/voxel/files/vox_file.hpp"

#include <charconv>
#include <cstring>
#include <map>
#include <optional>
#include <utility>

#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"

namespace myriad::voxel {
namespace {

constexpr std::size_t kMaxString = 1u << 16;  // dictionary keys and values
constexpr std::size_t kMaxNodes = 1u << 20;   // scene graph nodes
constexpr int kMaxGraphDepth = 256;           // deeper (or cyclic) scene graphs are refused
constexpr std::uint32_t kMaxModels = 1u << 16;

using Dict = std::map<std::string, std::string>;

std::string chunk_name(std::uint32_t id) {
  std::string s(4, ' ');
  std::memcpy(s.data(), &id, 4);
  for (char& c : s)
    if (c < 32 || c > 126) c = '?';
  return s;
}

constexpr std::uint32_t fourcc(const char (&s)[5]) {
  return std::uint32_t(std::uint8_t(s[0])) | std::uint32_t(std::uint8_t(s[1])) << 8 |
         std::uint32_t(std::uint8_t(s[2])) << 16 | std::uint32_t(std::uint8_t(s[3])) << 24;
}

std::string read_string(BinaryReader& r, const char* field) {
  const auto size = r.read<std::int32_t>(field);
  if (size < 0 || std::size_t(size) > kMaxString) r.fail("string size out of range", field);
  const std::span<const std::byte> bytes = r.read_bytes(std::size_t(size), field);
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

Dict read_dict(BinaryReader& r, const char* field) {
  const auto pairs = r.read<std::int32_t>(field);
  if (pairs < 0 || std::size_t(pairs) > r.remaining() / 8) r.fail("dictionary size out of range", field);
  Dict d;
  for (std::int32_t i = 0; i < pairs; ++i) {
    std::string key = read_string(r, field);
    d[std::move(key)] = read_string(r, field);
  }
  return d;
}

// Scene graph nodes, by id.
struct Node {
  enum Kind { kTransform, kGroup, kShape } kind = kTransform;
  std::vector<std::int32_t> children;  // transform: one; group: any; shape: none
  std::int32_t model = -1;             // shape
  std::array<glm::ivec3, 3> rotation{glm::ivec3(1, 0, 0), glm::ivec3(0, 1, 0), glm::ivec3(0, 0, 1)};
  glm::ivec3 translation{0};
  std::string name;
  std::size_t offset = 0;  // of the chunk, for errors
};

// MagicaVoxel's _r byte: bits 0-1 and 2-3 the column of row 0's and row 1's non-zero entry (row 2 takes
// the remaining column), bits 4-6 the sign of rows 0-2 (1 = negative).
std::optional<std::array<glm::ivec3, 3>> decode_rotation(int bits) {
  const int c0 = bits & 3, c1 = (bits >> 2) & 3;
  if (c0 > 2 || c1 > 2 || c0 == c1) return std::nullopt;
  const int c2 = 3 - c0 - c1;
  std::array<glm::ivec3, 3> rows{glm::ivec3(0), glm::ivec3(0), glm::ivec3(0)};
  rows[0][c0] = bits & 16 ? -1 : 1;
  rows[1][c1] = bits & 32 ? -1 : 1;
  rows[2][c2] = bits & 64 ? -1 : 1;
  return rows;
}

int encode_rotation(const std::array<glm::ivec3, 3>& rows) {
  int bits = 0;
  for (int row = 0; row < 3; ++row) {
    for (int c = 0; c < 3; ++c) {
      if (rows[std::size_t(row)][c] == 0) continue;
      if (row == 0) bits |= c;
      if (row == 1) bits |= c << 2;
      if (rows[std::size_t(row)][c] < 0) bits |= 16 << row;
    }
  }
  return bits;
}

bool parse_int(const std::string& text, int& out) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end;
}

void read_frame(BinaryReader& r, Node& node) {
  const Dict frame = read_dict(r, "nTRN.frame");
  if (auto it = frame.find("_r"); it != frame.end()) {
    int bits = 0;
    std::optional<std::array<glm::ivec3, 3>> rows;
    if (parse_int(it->second, bits) && bits >= 0 && bits < 128) rows = decode_rotation(bits);
    if (!rows) r.fail("rotation '" + it->second + "' is not a valid _r byte", "nTRN.frame._r");
    node.rotation = *rows;
  }
  if (auto it = frame.find("_t"); it != frame.end()) {
    glm::ivec3 t(0);
    const char* p = it->second.data();
    const char* end = p + it->second.size();
    for (int k = 0; k < 3; ++k) {
      while (p < end && *p == ' ') ++p;
      const auto [next, ec] = std::from_chars(p, end, t[k]);
      if (ec != std::errc() || std::abs(t[k]) > (1 << 24))
        r.fail("translation '" + it->second + "' is not three integers", "nTRN.frame._t");
      p = next;
    }
    node.translation = t;
  }
}

void add_node(BinaryReader& r, std::map<std::int32_t, Node>& nodes, std::int32_t id, Node node,
              const char* field) {
  if (id < 0) r.fail("negative node id", field);
  if (nodes.size() >= kMaxNodes) r.fail("too many scene graph nodes", field);
  if (!nodes.emplace(id, std::move(node)).second)
    r.fail("node id " + std::to_string(id) + " is used twice", field);
}

// Walks the scene graph from `id`, accumulating transforms (parent ∘ child).
void place_nodes(const std::map<std::int32_t, Node>& nodes, std::int32_t id,
                 const std::array<glm::ivec3, 3>& rot, glm::ivec3 trans, std::string name, int depth,
                 std::size_t models, VoxScene& scene, const std::string& source) {
  const auto it = nodes.find(id);
  if (it == nodes.end()) {
    throw Error("scene graph names node " + std::to_string(id) + ", which the file does not hold", source,
                "the .vox file is damaged; re-save it from MagicaVoxel");
  }
  if (depth > kMaxGraphDepth) {
    throw Error("scene graph deeper than " + std::to_string(kMaxGraphDepth) + " nodes (or cyclic)", source,
                "the .vox file is damaged; re-save it from MagicaVoxel");
  }
  const Node& node = it->second;
  switch (node.kind) {
    case Node::kTransform: {
      std::array<glm::ivec3, 3> combined{};
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
          int sum = 0;
          for (int k = 0; k < 3; ++k) sum += rot[std::size_t(i)][k] * node.rotation[std::size_t(k)][j];
          combined[std::size_t(i)][j] = sum;
        }
      }
      const glm::ivec3 moved = trans + vox_rotate(rot, node.translation);
      for (std::int32_t child : node.children)
        place_nodes(nodes, child, combined, moved, node.name.empty() ? name : node.name, depth + 1, models,
                    scene, source);
      break;
    }
    case Node::kGroup:
      for (std::int32_t child : node.children)
        place_nodes(nodes, child, rot, trans, name, depth + 1, models, scene, source);
      break;
    case Node::kShape:
      if (node.model < 0 || std::size_t(node.model) >= models) {
        throw Error("shape node " + std::to_string(id) + " names model " + std::to_string(node.model) +
                        " of " + std::to_string(models),
                    source + " @ offset " + std::to_string(node.offset), "the .vox file is damaged");
      }
      scene.instances.push_back({std::uint32_t(node.model), rot, trans, name});
      break;
  }
}

}  // namespace

const std::array<glm::u8vec4, 256>& vox_default_palette() {
  static const std::array<glm::u8vec4, 256> palette = [] {
    std::array<glm::u8vec4, 256> p{};
    std::size_t i = 1;
    // The 6 x 6 x 6 cube of {ff, cc, 99, 66, 33, 00} (blue fastest, red slowest) without black ...
    for (int r = 0; r < 6; ++r)
      for (int g = 0; g < 6; ++g)
        for (int b = 0; b < 6; ++b) {
          if (r == 5 && g == 5 && b == 5) continue;
          p[i++] = glm::u8vec4(0xff - 0x33 * r, 0xff - 0x33 * g, 0xff - 0x33 * b, 0xff);
        }
    // ... then ramps of ten tones (ee, dd, bb, aa, 88, 77, 55, 44, 22, 11): red, green, blue, grey.
    const std::uint8_t tones[10] = {0xee, 0xdd, 0xbb, 0xaa, 0x88, 0x77, 0x55, 0x44, 0x22, 0x11};
    for (int channel = 0; channel < 4; ++channel)
      for (std::uint8_t t : tones) {
        glm::u8vec4 c(0, 0, 0, 0xff);
        if (channel == 3)
          c = glm::u8vec4(t, t, t, 0xff);
        else
          c[channel] = t;
        p[i++] = c;
      }
    return p;
  }();
  return palette;
}

VoxScene parse_vox(std::span<const std::byte> bytes, const std::string& source) {
  BinaryReader r(source, bytes);
  VoxScene scene;
  if (r.read<std::uint32_t>("magic") != fourcc("VOX "))
    r.fail("not a MagicaVoxel file (magic is not \"VOX \")", "magic");
  scene.version = r.read<std::uint32_t>("version");
  if (r.read<std::uint32_t>("MAIN") != fourcc("MAIN")) r.fail("the first chunk is not MAIN", "MAIN");
  const auto main_content = r.read<std::uint32_t>("MAIN.content_bytes");
  const auto main_children = r.read<std::uint32_t>("MAIN.children_bytes");
  if (main_content > r.remaining())
    r.fail("MAIN content runs past the end of the file", "MAIN.content_bytes");
  r.read_bytes(main_content, "MAIN.content");
  if (main_children > r.remaining())
    r.fail("MAIN children run past the end of the file", "MAIN.children_bytes");
  const std::size_t end = r.offset() + main_children;

  glm::ivec3 pending_size(0);  // a SIZE waiting for its XYZI (0 when none)
  bool size_pending = false;
  std::map<std::int32_t, Node> nodes;
  bool have_palette = false;
  while (r.offset() < end) {
    const std::size_t chunk_offset = r.offset();
    const auto id = r.read<std::uint32_t>("chunk.id");
    const auto content = r.read<std::uint32_t>("chunk.content_bytes");
    const auto children = r.read<std::uint32_t>("chunk.children_bytes");
    if (content > end - r.offset() || children > end - r.offset() - content)
      r.fail("chunk '" + chunk_name(id) + "' runs past the end of MAIN", "chunk.content_bytes");
    const std::size_t content_end = r.offset() + content;
    // Each chunk's content is read from its own slice so a short content cannot read the next chunk.
    BinaryReader c(source, bytes.first(content_end));
    c.seek(r.offset(), "chunk.content");
    if (id == fourcc("SIZE")) {
      if (size_pending) c.fail("SIZE without the XYZI of the model before it", "SIZE");
      glm::ivec3 size(0);
      for (int k = 0; k < 3; ++k) size[k] = c.read<std::int32_t>("SIZE.xyz");
      for (int k = 0; k < 3; ++k)
        if (size[k] < 1 || size[k] > kVoxMaxModelEdge) c.fail("model size out of 1..256", "SIZE.xyz");
      if (scene.models.size() >= kMaxModels) c.fail("too many models", "SIZE");
      pending_size = size;
      size_pending = true;
    } else if (id == fourcc("XYZI")) {
      if (!size_pending) c.fail("XYZI without a SIZE before it", "XYZI");
      VoxModel model;
      model.size = pending_size;
      size_pending = false;
      const auto count = c.read<std::uint32_t>("XYZI.count");
      const std::uint64_t cells =
          std::uint64_t(model.size.x) * std::uint64_t(model.size.y) * std::uint64_t(model.size.z);
      if (count > cells) c.fail("more voxels than the model has cells", "XYZI.count");
      model.voxels = c.read_array<VoxVoxel>(count, "XYZI.voxels");
      for (const VoxVoxel& v : model.voxels) {
        if (v.x >= model.size.x || v.y >= model.size.y || v.z >= model.size.z)
          c.fail("voxel outside its model's SIZE", "XYZI.voxels");
        if (v.color == 0) c.fail("voxel with palette index 0 (air)", "XYZI.voxels");
      }
      scene.models.push_back(std::move(model));
    } else if (id == fourcc("RGBA")) {
      const std::vector<glm::u8vec4> colors = c.read_array<glm::u8vec4>(256, "RGBA.colors");
      // Entry i is palette index i + 1; the last entry has no index.
      for (std::size_t i = 0; i + 1 < colors.size(); ++i) scene.palette[i + 1] = colors[i];
      have_palette = true;
    } else if (id == fourcc("MATL")) {
      const auto index = c.read<std::int32_t>("MATL.id");
      const Dict props = read_dict(c, "MATL.properties");
      if (index < 0 || index > 255) c.fail("material id out of 0..255", "MATL.id");
      const auto type = props.find("_type");
      if (type != props.end() && type->second == "_emit") scene.emissive[std::size_t(index)] = true;
    } else if (id == fourcc("nTRN")) {
      const auto node_id = c.read<std::int32_t>("nTRN.id");
      const Dict attributes = read_dict(c, "nTRN.attributes");
      Node node;
      node.kind = Node::kTransform;
      node.offset = chunk_offset;
      if (auto it = attributes.find("_name"); it != attributes.end()) node.name = it->second;
      node.children.push_back(c.read<std::int32_t>("nTRN.child"));
      (void)c.read<std::int32_t>("nTRN.reserved");
      (void)c.read<std::int32_t>("nTRN.layer");
      const auto frames = c.read<std::int32_t>("nTRN.frame_count");
      if (frames < 1 || std::size_t(frames) > c.remaining() / 4)
        c.fail("frame count out of range", "nTRN.frame_count");
      read_frame(c, node);  // the first frame places the model; animation frames are not used
      for (std::int32_t f = 1; f < frames; ++f) (void)read_dict(c, "nTRN.frame");
      add_node(c, nodes, node_id, std::move(node), "nTRN.id");
    } else if (id == fourcc("nGRP")) {
      const auto node_id = c.read<std::int32_t>("nGRP.id");
      (void)read_dict(c, "nGRP.attributes");
      const auto count = c.read<std::int32_t>("nGRP.child_count");
      if (count < 0 || std::size_t(count) > c.remaining() / 4)
        c.fail("child count out of range", "nGRP.child_count");
      Node node;
      node.kind = Node::kGroup;
      node.offset = chunk_offset;
      node.children = c.read_array<std::int32_t>(std::size_t(count), "nGRP.children");
      add_node(c, nodes, node_id, std::move(node), "nGRP.id");
    } else if (id == fourcc("nSHP")) {
      const auto node_id = c.read<std::int32_t>("nSHP.id");
      (void)read_dict(c, "nSHP.attributes");
      const auto count = c.read<std::int32_t>("nSHP.model_count");
      if (count != 1) c.fail("a shape node must hold exactly one model", "nSHP.model_count");
      Node node;
      node.kind = Node::kShape;
      node.offset = chunk_offset;
      node.model = c.read<std::int32_t>("nSHP.model");
      (void)read_dict(c, "nSHP.model_attributes");
      add_node(c, nodes, node_id, std::move(node), "nSHP.id");
    }
    // PACK, LAYR, rOBJ, rCAM, NOTE, IMAP, MATT and unknown chunks: skipped.
    r.seek(content_end + children, "chunk.children");
  }
  if (size_pending) r.fail("SIZE without its XYZI at the end of the file", "SIZE");
  if (scene.models.empty()) r.fail("the file holds no model (no SIZE/XYZI chunks)", "MAIN");
  if (!have_palette) {
    scene.palette = vox_default_palette();
    scene.default_palette = true;
  }
  if (nodes.empty()) {
    // No scene graph (older files): models side by side along +x, one voxel apart.
    int x = 0;
    for (std::uint32_t m = 0; m < scene.models.size(); ++m) {
      const glm::ivec3 size = scene.models[m].size;
      VoxInstance inst;
      inst.model = m;
      inst.translation = glm::ivec3(x, 0, 0) + size / 2;
      scene.instances.push_back(inst);
      x += size.x + 1;
    }
  } else {
    const std::array<glm::ivec3, 3> identity{glm::ivec3(1, 0, 0), glm::ivec3(0, 1, 0), glm::ivec3(0, 0, 1)};
    place_nodes(nodes, 0, identity, glm::ivec3(0), "", 0, scene.models.size(), scene, source);
    if (scene.instances.empty())
      throw Error("the scene graph places no model", source,
                  "the .vox file is damaged; re-save it from MagicaVoxel");
  }
  return scene;
}

VoxScene read_vox(const std::filesystem::path& path) {
  const std::vector<std::byte> bytes = read_file(path);
  return parse_vox(bytes, path.string());
}

std::vector<std::byte> serialize_vox(const VoxScene& scene) {
  BinaryWriter body;
  auto chunk = [&](const char(&id)[5], const BinaryWriter& content) {
    body.write(fourcc(id));
    body.write(static_cast<std::uint32_t>(content.bytes().size()));
    body.write(std::uint32_t{0});
    body.write_array(std::span<const std::byte>(content.bytes()));
  };
  auto string = [](BinaryWriter& w, const std::string& s) {
    w.write(static_cast<std::int32_t>(s.size()));
    w.write_array(std::span<const char>(s.data(), s.size()));
  };
  auto dict = [&](BinaryWriter& w, const Dict& d) {
    w.write(static_cast<std::int32_t>(d.size()));
    for (const auto& [k, v] : d) string(w, k), string(w, v);
  };
  for (const VoxModel& m : scene.models) {
    BinaryWriter size, xyzi;
    size.write(m.size);
    xyzi.write(static_cast<std::uint32_t>(m.voxels.size()));
    for (const VoxVoxel& v : m.voxels) xyzi.write(v);
    chunk("SIZE", size);
    chunk("XYZI", xyzi);
  }
  // Scene graph: root transform 0 -> group 1 -> per instance a transform (2 + 2i) and a shape (3 + 2i).
  const auto instances = static_cast<std::int32_t>(scene.instances.size());
  BinaryWriter root, group;
  root.write(std::int32_t{0});
  dict(root, {});
  root.write(std::int32_t{1});
  root.write(std::int32_t{-1});
  root.write(std::int32_t{-1});
  root.write(std::int32_t{1});
  dict(root, {});
  chunk("nTRN", root);
  group.write(std::int32_t{1});
  dict(group, {});
  group.write(instances);
  for (std::int32_t i = 0; i < instances; ++i) group.write(2 + 2 * i);
  chunk("nGRP", group);
  for (std::int32_t i = 0; i < instances; ++i) {
    const VoxInstance& inst = scene.instances[std::size_t(i)];
    BinaryWriter trn, shp;
    trn.write(2 + 2 * i);
    dict(trn, inst.name.empty() ? Dict{} : Dict{{"_name", inst.name}});
    trn.write(3 + 2 * i);
    trn.write(std::int32_t{-1});
    trn.write(std::int32_t{0});
    trn.write(std::int32_t{1});
    const glm::ivec3 t = inst.translation;
    dict(trn, {{"_r", std::to_string(encode_rotation(inst.rotation))},
               {"_t", std::to_string(t.x) + " " + std::to_string(t.y) + " " + std::to_string(t.z)}});
    chunk("nTRN", trn);
    shp.write(3 + 2 * i);
    dict(shp, {});
    shp.write(std::int32_t{1});
    shp.write(static_cast<std::int32_t>(inst.model));
    dict(shp, {});
    chunk("nSHP", shp);
  }
  BinaryWriter rgba;
  for (std::size_t i = 1; i <= 256; ++i) rgba.write(i < 256 ? scene.palette[i] : glm::u8vec4(0));
  chunk("RGBA", rgba);
  for (std::size_t i = 0; i < 256; ++i) {
    if (!scene.emissive[i]) continue;
    BinaryWriter matl;
    matl.write(static_cast<std::int32_t>(i));
    dict(matl, {{"_type", "_emit"}, {"_emit", "1"}});
    chunk("MATL", matl);
  }

  BinaryWriter file;
  file.write(fourcc("VOX "));
  file.write(std::uint32_t{200});
  file.write(fourcc("MAIN"));
  file.write(std::uint32_t{0});
  file.write(static_cast<std::uint32_t>(body.bytes().size()));
  file.write_array(std::span<const std::byte>(body.bytes()));
  return std::move(file.bytes());
}

}  // namespace myriad::voxel
