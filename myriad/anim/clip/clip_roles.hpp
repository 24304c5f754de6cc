// Which of a kit's clips walks and which stands (SPEC B2/B5 avatars): found by name, in any case —
// walk: "walk", "walking", "run", "jog"; idle: "idle", "stand", "breath" — or named by the user
// (`--avatar-clip ROLE=NAME`). A kit whose clips have other names walks with its first clip.
#pragma once

#include "myriad/anim/clip/clip.hpp"

#include <span>
#include <string>
#include <vector>

namespace myriad::anim {

enum class ClipRole { kWalk, kIdle };

// ROLE=NAME, as the user wrote it.
struct ClipRoleOverride {
  ClipRole role = ClipRole::kWalk;
  std::string clip;
};

struct ClipRoles {
  int walk = -1;  // clip index, -1: none
  int idle = -1;
  bool walk_named = false;  // found by name or named by an override; false: another clip stands in
};

// Parses "walk=Name" or "idle=Name" (role in any case). Throws myriad::Error naming `option`.
ClipRoleOverride parse_clip_role(const std::string& text, const std::string& option);

// Overrides first (an override naming no clip throws, listing the clips), then names; a kit with clips
// but no walk by name walks with clip 0 unless that is its idle.
ClipRoles find_clip_roles(std::span<const Clip> clips, std::span<const ClipRoleOverride> overrides = {});

const char* clip_role_name(ClipRole role);

}  // namespace myriad::anim
