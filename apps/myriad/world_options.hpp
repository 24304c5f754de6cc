// The default scene's command-line options, shared by `myriad render --scene world` and `myriad view`:
// bound straight into one render::WorldSceneOptions and bounded by its limits (world_scene.hpp), which
// the scene checks again before any build step.
#pragma once

#include <CLI/CLI.hpp>

#include "myriad/render/world/world_scene.hpp"
#include "option_checks.hpp"

namespace myriad::app {

// `label` starts each description ("World: " for render, "" for view).
inline void add_world_scene_options(CLI::App& sub, render::WorldSceneOptions& o, const std::string& label) {
  sub.add_option("--vegetation-size", o.vegetation_size, label + "vegetation field edge in metres")
      ->check(finite_number)
      ->check(CLI::Range(render::kMinVegetationSize, render::kMaxVegetationSize));
  sub.add_option("--avatars", o.avatars, label + "number of customized avatars")
      ->check(CLI::Range(0u, render::kMaxAvatars));
  sub.add_option(
         "--avatar-kit", o.avatar_kit,
         label + "avatar kit (.glb/.gltf: skeleton, body parts, items, clips); default: the sample kit")
      ->check(CLI::ExistingFile);
  sub.add_option("--avatar-item", o.avatar_items,
                 label + "item file bound to the kit by joint name (repeatable)")
      ->check(CLI::ExistingFile);
  sub.add_option("--avatar-clips", o.avatar_clips,
                 label + "file whose animations are retargeted onto the kit by joint name (repeatable)")
      ->check(CLI::ExistingFile);
  sub.add_option("--avatar-height", o.avatar_height,
                 label + "standing height every avatar is scaled to, metres (default: the kit's own size)")
      ->check(finite_number)
      ->check(CLI::PositiveNumber);
  sub.add_option_function<std::vector<std::string>>(
         "--avatar-clip",
         [&o](const std::vector<std::string>& roles) {
           for (const std::string& r : roles) {
             try {
               o.avatar_clip_roles.push_back(anim::parse_clip_role(r, "--avatar-clip"));
             } catch (const Error& e) {  // reported like every other option error
               throw CLI::ValidationError("--avatar-clip", e.what());
             }
           }
         },
         label +
             "ROLE=CLIP: the kit's clip avatars play for walk or idle (repeatable; default: found by name)")
      ->type_name("ROLE=CLIP");
  sub.add_flag(
      "--strict", o.strict_assets,
      label + "refuse an avatar kit whose texture files cannot be read (default: warn, use the base colour)");
  sub.add_option("--shadow-map", o.shadow_map_size, label + "shadow map texels per side (0 = off)")
      ->check(CLI::Range(0u, render::kMaxShadowMapSize));
}

}  // namespace myriad::app
