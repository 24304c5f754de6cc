#include "myriad/anim/clip/clip_roles.hpp"

#include <algorithm>
#include <cctype>

#include "myriad/core/io/error.hpp"

namespace myriad::anim {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool contains_any(const std::string& name, std::initializer_list<const char*> words) {
  const std::string l = lower(name);
  return std::any_of(words.begin(), words.end(),
                     [&](const char* w) { return l.find(w) != std::string::npos; });
}

// The first clip whose name holds one of `words`; among several, the shortest name (e.g. "Walk" over
// "Walk_Fast" or "walk_left").
int find_by_name(std::span<const Clip> clips, std::initializer_list<const char*> words) {
  int best = -1;
  for (std::size_t i = 0; i < clips.size(); ++i) {
    if (!contains_any(clips[i].name, words)) continue;
    if (best < 0 || clips[i].name.size() < clips[static_cast<std::size_t>(best)].name.size())
      best = static_cast<int>(i);
  }
  return best;
}

}  // namespace

const char* clip_role_name(ClipRole role) { return role == ClipRole::kWalk ? "walk" : "idle"; }

ClipRoleOverride parse_clip_role(const std::string& text, const std::string& option) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq + 1 >= text.size())
    throw Error("'" + text + "' is not ROLE=CLIP", option, "write e.g. walk=Walking or idle=Idle");
  const std::string role = lower(text.substr(0, eq));
  if (role != "walk" && role != "idle")
    throw Error("unknown clip role '" + text.substr(0, eq) + "'", option, "the roles are walk and idle");
  return {role == "walk" ? ClipRole::kWalk : ClipRole::kIdle, text.substr(eq + 1)};
}

ClipRoles find_clip_roles(std::span<const Clip> clips, std::span<const ClipRoleOverride> overrides) {
  ClipRoles r;
  // A walk before a run: a walking avatar's stride is the calmer one.
  r.walk = find_by_name(clips, {"walk"});
  if (r.walk < 0) r.walk = find_by_name(clips, {"run", "jog"});
  r.walk_named = r.walk >= 0;
  r.idle = find_by_name(clips, {"idle", "stand", "breath"});
  for (const ClipRoleOverride& o : overrides) {
    const auto it = std::find_if(clips.begin(), clips.end(), [&](const Clip& c) { return c.name == o.clip; });
    if (it == clips.end()) {
      std::string names;
      for (const Clip& c : clips) names += (names.empty() ? "'" : ", '") + c.name + "'";
      throw Error("no clip is named '" + o.clip + "' for the " + clip_role_name(o.role) + " role",
                  "--avatar-clip", clips.empty() ? "the kit has no clips" : "the kit's clips: " + names);
    }
    (o.role == ClipRole::kWalk ? r.walk : r.idle) = static_cast<int>(it - clips.begin());
    if (o.role == ClipRole::kWalk) r.walk_named = true;
  }
  if (r.walk < 0 && !clips.empty()) r.walk = r.idle == 0 && clips.size() > 1 ? 1 : 0;
  if (r.walk == r.idle && r.idle >= 0 && !r.walk_named) r.idle = -1;
  return r;
}

}  // namespace myriad::anim
