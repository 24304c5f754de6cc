#include "myriad/anim/clip/retarget.hpp"

#include "myriad/anim/pose/pose.hpp"
#include "myriad/core/io/error.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace myriad::anim {

namespace {

constexpr int kNone = -1;
constexpr int kAmbiguous = -2;      // two target joints share a normalised name: neither matches by it
constexpr std::size_t kListed = 5;  // names spelled out in messages; the rest are counted

// "a, b, c" or "a, b, c, d, e and 3 more".
std::string list_names(const std::vector<std::string>& names) {
  std::string s;
  for (std::size_t i = 0; i < names.size() && i < kListed; ++i) {
    if (i > 0) s += ", ";
    s += names[i];
  }
  if (names.size() > kListed)
    s.append(" and ").append(std::to_string(names.size() - kListed)).append(" more");
  return s;
}

// Rest values of two skeletons that differ only by export rounding count as the same.
bool nearly_equal(glm::vec3 a, glm::vec3 b) {
  for (int i = 0; i < 3; ++i) {
    const float tolerance = 1e-5f * std::max({1.0f, std::abs(a[i]), std::abs(b[i])});
    if (!(std::abs(a[i] - b[i]) <= tolerance)) return false;
  }
  return true;
}

// Each joint's rest model-space height above the skeleton's lowest joint.
std::vector<float> rest_heights(const Skeleton& s) {
  std::vector<glm::mat4> model(s.size());
  local_to_model(s.parents, s.rest, model);
  float lowest = std::numeric_limits<float>::infinity();
  for (const glm::mat4& m : model) lowest = std::min(lowest, m[3].y);
  std::vector<float> heights(s.size());
  for (std::size_t j = 0; j < s.size(); ++j) heights[j] = model[j][3].y - lowest;
  return heights;
}

// match[source joint] = target joint, or kNone, for every joint the clip animates (others: kNone).
std::vector<int> match_joints(const std::vector<bool>& animated, const Skeleton& source,
                              const Skeleton& target) {
  std::unordered_map<std::string, int> exact;
  std::unordered_map<std::string, int> normalised;
  for (std::size_t t = 0; t < target.size(); ++t) {
    const int ti = static_cast<int>(t);
    exact.try_emplace(target.names[t], ti);
    const auto [it, fresh] = normalised.try_emplace(normalized_joint_name(target.names[t]), ti);
    if (!fresh) it->second = kAmbiguous;
  }
  std::vector<int> match(source.size(), kNone);
  std::vector<bool> claimed(target.size(), false);
  // Exact names first, so "Hips" goes to "Hips" even when "mixamorig:Hips" also exists.
  for (std::size_t s = 0; s < source.size(); ++s) {
    if (!animated[s]) continue;
    const auto it = exact.find(source.names[s]);
    if (it == exact.end() || claimed[static_cast<std::size_t>(it->second)]) continue;
    match[s] = it->second;
    claimed[static_cast<std::size_t>(it->second)] = true;
  }
  for (std::size_t s = 0; s < source.size(); ++s) {
    if (!animated[s] || match[s] != kNone) continue;
    const auto it = normalised.find(normalized_joint_name(source.names[s]));
    if (it == normalised.end() || it->second < 0 || claimed[static_cast<std::size_t>(it->second)]) continue;
    match[s] = it->second;
    claimed[static_cast<std::size_t>(it->second)] = true;
  }
  return match;
}

glm::quat to_quat(glm::vec4 v) { return {v.w, v.x, v.y, v.z}; }
glm::vec4 to_vec4(glm::quat q) { return {q.x, q.y, q.z, q.w}; }

}  // namespace

std::string normalized_joint_name(std::string_view name) {
  const std::size_t cut = name.find_last_of(":|");
  if (cut != std::string_view::npos && cut + 1 < name.size()) name.remove_prefix(cut + 1);
  std::string s(name);
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

RetargetResult retarget_clip(const Clip& clip, const Skeleton& source, const Skeleton& target) {
  source.validate();
  target.validate();
  clip.validate(source.size());
  const std::string where = "retarget_clip";

  std::vector<bool> animated(source.size(), false);
  for (const Channel& ch : clip.channels) animated[ch.joint] = true;
  std::vector<std::string> animated_names;
  for (std::size_t s = 0; s < source.size(); ++s)
    if (animated[s]) animated_names.push_back(source.names[s]);
  if (animated_names.empty()) throw Error("clip '" + clip.name + "' has no channels to retarget", where);

  const std::vector<int> match = match_joints(animated, source, target);
  RetargetResult result;
  for (std::size_t s = 0; s < source.size(); ++s)
    if (animated[s] && match[s] == kNone) result.unmatched.push_back(source.names[s]);
  if (result.unmatched.size() == animated_names.size()) {
    throw Error("clip '" + clip.name + "' shares no joint with the skeleton: " + list_names(animated_names),
                where,
                "joints match by exact name, then ignoring case and any prefix up to ':' or '|' (such as "
                "'mixamorig:'); retarget only between skeletons that name their joints alike");
  }

  // Root motion lives on the topmost joints a matched channel drives; parents precede children, so
  // one forward pass finds every joint with a driven ancestor.
  std::vector<bool> driven_above(source.size(), false);
  for (std::size_t s = 0; s < source.size(); ++s) {
    const int p = source.parents[s];
    if (p == kNoParent) continue;
    const auto pu = static_cast<std::size_t>(p);
    driven_above[s] = driven_above[pu] || match[pu] != kNone;
  }
  const std::vector<float> source_heights = rest_heights(source);
  const std::vector<float> target_heights = rest_heights(target);

  Clip& out = result.clip;
  out.name = clip.name;
  out.duration = clip.duration;
  std::vector<bool> target_driven(target.size(), false);
  std::vector<bool> scale_dropped(source.size(), false);
  for (const Channel& ch : clip.channels) {
    const int t = match[ch.joint];
    if (t == kNone) continue;
    const auto s = std::size_t{ch.joint};
    const auto tu = static_cast<std::size_t>(t);
    const bool cubic = ch.interpolation == Interpolation::kCubicSpline;
    const std::size_t per_key = cubic ? 3 : 1;
    // Cubic keys store (in-tangent, value, out-tangent): the offset applies to values only, since a
    // constant offset has zero derivative.
    auto is_tangent = [&](std::size_t i) { return cubic && i % 3 != 1; };
    const glm::vec4* in = clip.values.data() + ch.first_value;
    const std::size_t value_count = per_key * ch.key_count;
    std::vector<glm::vec4> values(in, in + value_count);

    switch (ch.path) {
      case ChannelPath::kRotation: {
        const glm::quat sr = source.rest.rotation[s];
        const glm::quat tr = target.rest.rotation[tu];
        if (sr == tr) break;  // delta is the identity: keep the keys bit for bit
        const glm::quat c = tr * glm::inverse(sr);
        for (glm::vec4& v : values) v = to_vec4(c * to_quat(v));
        break;
      }
      case ChannelPath::kTranslation: {
        const glm::vec3 sr = source.rest.translation[s];
        const glm::vec3 tr = target.rest.translation[tu];
        if (driven_above[s]) {
          if (!nearly_equal(sr, tr)) continue;  // a bone of another length: keep the target's
          break;
        }
        const float hs = source_heights[s];
        const float ht = target_heights[tu];
        const float ratio = hs > 1e-6f && ht > 1e-6f ? ht / hs : 1.0f;
        if (sr == tr && ratio == 1.0f) break;  // same rest and size: keep the keys bit for bit
        for (std::size_t i = 0; i < value_count; ++i) {
          const glm::vec3 v(values[i]);
          const glm::vec3 r = is_tangent(i) ? v * ratio : tr + (v - sr) * ratio;
          values[i] = glm::vec4(r, values[i].w);
        }
        break;
      }
      case ChannelPath::kScale:
        if (!nearly_equal(source.rest.scale[s], target.rest.scale[tu])) {
          scale_dropped[s] = true;
          continue;
        }
        break;
    }

    Channel o = ch;
    o.joint = static_cast<std::uint16_t>(t);
    o.first_key = static_cast<std::uint32_t>(out.times.size());
    o.first_value = static_cast<std::uint32_t>(out.values.size());
    out.times.insert(out.times.end(), clip.times.begin() + ch.first_key,
                     clip.times.begin() + ch.first_key + ch.key_count);
    out.values.insert(out.values.end(), values.begin(), values.end());
    out.channels.push_back(o);
    target_driven[tu] = true;
  }

  for (std::size_t s = 0; s < source.size(); ++s)
    if (scale_dropped[s]) result.scale_dropped.push_back(source.names[s]);
  for (std::size_t t = 0; t < target.size(); ++t)
    if (!target_driven[t]) result.unanimated.push_back(target.names[t]);
  out.validate(target.size());
  return result;
}

std::string describe_partial(const RetargetResult& result) {
  if (result.unmatched.empty() && result.scale_dropped.empty()) return {};
  // Appended piece by piece: GCC 12 misreads `"literal" + std::string&&` as an overlapping memcpy.
  std::string s = "clip '";
  s.append(result.clip.name).append("' retargeted in part: ");
  if (!result.unmatched.empty()) {
    s.append(std::to_string(result.unmatched.size()))
        .append(" animated joint(s) have no match in the target (")
        .append(list_names(result.unmatched))
        .append("); ");
  }
  if (!result.scale_dropped.empty()) {
    s.append("scale animation dropped where rest scales differ (")
        .append(list_names(result.scale_dropped))
        .append("); ");
  }
  s.append(std::to_string(result.unanimated.size())).append(" target joint(s) keep their rest pose");
  return s;
}

}  // namespace myriad::anim
