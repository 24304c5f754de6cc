#include "myriad/crowd/vat.hpp"

#include "myriad/anim/pose/pose.hpp"
#include "myriad/core/io/error.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace myriad::crowd {
namespace {

// The nearest of the 4 surrounding grid points of an 8-bit octahedral grid, by angle.
glm::vec2 oct_project(glm::vec3 n) {
  n /= std::abs(n.x) + std::abs(n.y) + std::abs(n.z);
  glm::vec2 p(n.x, n.y);
  if (n.z < 0.0f) {
    p = (1.0f - glm::abs(glm::vec2(p.y, p.x))) *
        glm::vec2(p.x >= 0.0f ? 1.0f : -1.0f, p.y >= 0.0f ? 1.0f : -1.0f);
  }
  return p;
}

std::uint16_t pack2(std::int8_t x, std::int8_t y) {
  return static_cast<std::uint16_t>(static_cast<std::uint8_t>(x) |
                                    static_cast<std::uint16_t>(static_cast<std::uint8_t>(y)) << 8);
}

float quantise(float v, float lo, float hi) {
  if (!(hi > lo)) return 0.0f;
  return std::round(std::clamp((v - lo) / (hi - lo), 0.0f, 1.0f) * 65535.0f);
}

}  // namespace

std::uint16_t encode_normal_oct8(glm::vec3 n) {
  const float len = std::abs(n.x) + std::abs(n.y) + std::abs(n.z);
  if (!(len > 0.0f) || !std::isfinite(len)) return pack2(0, 0);  // decodes to +Z
  const glm::vec3 unit = glm::normalize(n);
  const glm::vec2 p = oct_project(n) * 127.0f;
  std::uint16_t best = 0;
  float best_dot = -2.0f;
  for (int dy = 0; dy < 2; ++dy) {
    for (int dx = 0; dx < 2; ++dx) {
      const float gx = std::clamp(std::floor(p.x) + float(dx), -127.0f, 127.0f);
      const float gy = std::clamp(std::floor(p.y) + float(dy), -127.0f, 127.0f);
      const std::uint16_t code = pack2(static_cast<std::int8_t>(gx), static_cast<std::int8_t>(gy));
      const float d = glm::dot(decode_normal_oct8(code), unit);
      if (d > best_dot) best_dot = d, best = code;
    }
  }
  return best;
}

glm::vec3 decode_normal_oct8(std::uint16_t packed) {
  const auto x = static_cast<std::int8_t>(packed & 0xffu), y = static_cast<std::int8_t>(packed >> 8);
  glm::vec3 n(std::max(float(x) / 127.0f, -1.0f), std::max(float(y) / 127.0f, -1.0f), 0.0f);
  n.z = 1.0f - std::abs(n.x) - std::abs(n.y);
  if (n.z < 0.0f) {
    const glm::vec2 f = (1.0f - glm::abs(glm::vec2(n.y, n.x))) *
                        glm::vec2(n.x >= 0.0f ? 1.0f : -1.0f, n.y >= 0.0f ? 1.0f : -1.0f);
    n.x = f.x;
    n.y = f.y;
  }
  return glm::normalize(n);
}

glm::vec3 decode_position(glm::u16vec4 texel, const VatClip& clip) {
  const glm::vec3 q(texel.x, texel.y, texel.z);
  const glm::vec3 step = (clip.bounds_max - clip.bounds_min) / 65535.0f;  // one quantisation step per axis
  return clip.bounds_min + q * step;
}

glm::vec3 skin_normal(std::span<const anim::Mat3x4> palette, glm::u16vec4 joints, glm::vec4 weights,
                      glm::vec3 n) {
  glm::vec3 acc(0.0f);
  for (int i = 0; i < 4; ++i) {
    const anim::Mat3x4& m = palette[joints[i]];
    const glm::vec3 q(glm::dot(glm::vec3(m.rows[0]), n), glm::dot(glm::vec3(m.rows[1]), n),
                      glm::dot(glm::vec3(m.rows[2]), n));
    acc = acc + q * weights[i];
  }
  const float len = glm::length(acc);
  return len > 0.0f ? acc / len : n;
}

void VatOptions::validate() const {
  if (!(fps > 0.0f && fps <= 240.0f)) throw Error("frame rate must be in (0, 240]", "VatOptions::fps");
}

Vat bake_vat(const anim::ImportedModel& model, const BakeMesh& skinned, std::span<const Attachment> attached,
             const VatOptions& options, const VertexMorphs& morphs) {
  options.validate();
  if (model.clips.empty()) throw Error("model has no animation clip to bake into the VAT");
  const std::size_t n_skinned = skinned.positions.size();
  if (skinned.normals.size() != n_skinned || skinned.joints.size() != n_skinned ||
      skinned.weights.size() != n_skinned)
    throw Error("VAT columns: skinned arrays differ in size");
  for (const Attachment& a : attached) {
    if (a.a >= n_skinned || a.b >= n_skinned || a.c >= n_skinned)
      throw Error("VAT columns: an attachment names a column outside the skinned columns");
  }
  const std::size_t joints = model.skeleton.size();
  for (const glm::u16vec4& j : skinned.joints) {
    if (std::max({j.x, j.y, j.z, j.w}) >= model.joints.size())
      throw Error("VAT columns: joint outside the skeleton");
  }
  if (!morphs.empty()) {
    if (morphs.first.size() != n_skinned + 1 || morphs.first.back() != morphs.offsets.size())
      throw Error("VAT columns: morph offsets are not one list per skinned column");
    for (const MorphOffset& o : morphs.offsets)
      if (o.target >= morphs.targets.size()) throw Error("VAT columns: a morph offset names no target");
  }
  Vat vat;
  vat.fps = options.fps;
  vat.columns = static_cast<std::uint32_t>(n_skinned + attached.size());
  for (const anim::Clip& clip : model.clips) {
    VatClip c;
    c.name = clip.name;
    c.duration = clip.duration;
    c.first_row = vat.rows;
    c.frames = static_cast<std::uint32_t>(std::ceil(clip.duration * options.fps - 1e-3f)) + 1;
    vat.rows += c.frames;
    vat.clips.push_back(c);
  }
  const std::size_t cells = std::size_t{vat.rows} * vat.columns;
  vat.positions.resize(cells);
  vat.normals.resize(cells);
  vat.texels.resize(cells);

  anim::LocalPose pose;
  pose.resize(joints);
  std::vector<glm::mat4> model_space(joints);
  std::vector<anim::Mat3x4> palette(model.joints.size());
  const glm::mat3 root_linear(model.root_transform);
  // Morphs: per target, the clip's channel on its node (or none) and the weight change from the bind
  // pose this frame; the moved bind pose of every column.
  std::vector<const anim::MorphChannel*> channel_of(morphs.targets.size());
  std::vector<float> delta(morphs.targets.size(), 0.0f);
  std::vector<float> channel_weights;
  const std::size_t morphed = morphs.empty() ? 0 : n_skinned;
  std::vector<glm::vec3> morphed_positions(morphed, glm::vec3(0.0f)),
      morphed_normals(morphed, glm::vec3(0.0f));
  for (std::size_t ci = 0; ci < model.clips.size(); ++ci) {
    const anim::Clip& clip = model.clips[ci];
    VatClip& c = vat.clips[ci];
    anim::SamplingCache cache;
    cache.reset(clip);
    for (std::size_t t = 0; t < morphs.targets.size(); ++t) {
      channel_of[t] = nullptr;
      delta[t] = 0.0f;
      for (const anim::MorphChannel& ch : clip.morph_channels)
        if (ch.node == morphs.targets[t].node && morphs.targets[t].index < ch.targets) channel_of[t] = &ch;
    }
    const std::span<const glm::vec3> bind_positions = morphs.empty() ? skinned.positions : morphed_positions;
    const std::span<const glm::vec3> bind_normals = morphs.empty() ? skinned.normals : morphed_normals;
    glm::vec3 lo(INFINITY), hi(-INFINITY);
    for (std::uint32_t f = 0; f < c.frames; ++f) {
      const float t = std::min(static_cast<float>(f) / options.fps, clip.duration);
      anim::sample(model.skeleton, clip, t, cache, pose);
      anim::local_to_model(model.skeleton.parents, pose, model_space);
      anim::build_palette(model_space, model.joints, model.inverse_binds, palette);
      if (!morphs.empty()) {
        for (std::size_t k = 0; k < morphs.targets.size(); ++k) {
          const anim::MorphChannel* ch = channel_of[k];
          if (!ch) continue;  // stays at its bind weight
          channel_weights.assign(ch->targets, 0.0f);
          anim::sample_morph_weights(clip, *ch, t, channel_weights);
          delta[k] = channel_weights[morphs.targets[k].index] - morphs.targets[k].bind_weight;
        }
        for (std::size_t v = 0; v < n_skinned; ++v) {
          glm::vec3 p = skinned.positions[v], n = skinned.normals[v];
          for (const MorphOffset& o : morphs.of(v)) {
            p += delta[o.target] * o.position;
            n += delta[o.target] * o.normal;
          }
          const float len = glm::length(n);
          morphed_positions[v] = p;
          morphed_normals[v] = len > 0.0f && std::isfinite(len) ? n / len : skinned.normals[v];
        }
      }
      glm::vec3* pos = vat.positions.data() + std::size_t{c.first_row + f} * vat.columns;
      glm::vec3* nrm = vat.normals.data() + std::size_t{c.first_row + f} * vat.columns;
      for (std::size_t v = 0; v < n_skinned; ++v) {
        const glm::vec3 p =
            anim::skin_position(palette, skinned.joints[v], skinned.weights[v], bind_positions[v]);
        pos[v] = glm::vec3(model.root_transform * glm::vec4(p, 1.0f));
        nrm[v] = glm::normalize(root_linear *
                                skin_normal(palette, skinned.joints[v], skinned.weights[v], bind_normals[v]));
      }
      for (std::size_t k = 0; k < attached.size(); ++k) {
        const Attachment& a = attached[k];
        pos[n_skinned + k] = a.w.x * pos[a.a] + a.w.y * pos[a.b] + a.w.z * pos[a.c];
        const glm::vec3 ns = a.w.x * nrm[a.a] + a.w.y * nrm[a.b] + a.w.z * nrm[a.c];
        const float len = glm::length(ns);
        nrm[n_skinned + k] = len > 0.0f ? ns / len : nrm[a.a];
      }
      for (std::size_t v = 0; v < vat.columns; ++v) lo = glm::min(lo, pos[v]), hi = glm::max(hi, pos[v]);
    }
    c.bounds_min = lo;
    c.bounds_max = hi;
    for (std::size_t i = std::size_t{c.first_row} * vat.columns;
         i < std::size_t{c.first_row + c.frames} * vat.columns; ++i) {
      const glm::vec3 p = vat.positions[i];
      vat.texels[i] = glm::u16vec4(static_cast<std::uint16_t>(quantise(p.x, lo.x, hi.x)),
                                   static_cast<std::uint16_t>(quantise(p.y, lo.y, hi.y)),
                                   static_cast<std::uint16_t>(quantise(p.z, lo.z, hi.z)),
                                   encode_normal_oct8(vat.normals[i]));
    }
  }
  return vat;
}

}  // namespace myriad::crowd
