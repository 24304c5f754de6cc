// A rendered crowd of skinned avatars (SPEC B4-B9 end to end): procedural avatars, each in an outfit
// drawn from the clothed kit, on the batch renderer, sampled, posed and paletted on the CPU (AvatarCrowd),
// palettes uploaded into the global palette buffer, skinned in the vertex shader with one instanced draw per
// part mesh and property set, blob shadows under every avatar, drawn headless into an OffscreenTarget. An
// optional ID pass draws the same batches with each pixel naming its avatar, so tests can check coverage.
// What `myriad render` draws for the avatar scene.
#pragma once

#include <cstdint>
#include <vector>

#include "myriad/gpu/device/context.hpp"
#include "myriad/render/avatars/skin_renderer.hpp"
#include "myriad/render/frame/scene_image.hpp"

namespace myriad::render {

struct AvatarSceneOptions : SceneImageSize {
  std::uint32_t avatars = 64;  // on a square grid
  float spacing = 1.6f;        // metres between neighbours
  float time = 0.4f;           // seconds into the walk cycle (each avatar has its own phase)
  bool clothed = true;
  PaletteUpload upload = PaletteUpload::kStagingCopy;
  bool id_pass = true;

  // Throws myriad::Error naming the first invalid field (render_avatar_scene calls it).
  void validate() const;
};

struct AvatarSceneResult : SceneImage {
  std::vector<std::uint32_t> avatar_pixels;  // per avatar: pixels the ID pass gives it (empty without)
  std::size_t unknown_id_pixels = 0;         // ID pass pixels naming no avatar (a bug when not 0)
  std::size_t draws = 0;                     // instanced draws after batching
  std::size_t draws_unbatched = 0;           // visible renderer x material instances
  std::size_t worn_parts = 0;                // parts all avatars wear (each outfit differs)
  std::size_t matrices = 0;                  // palette matrices computed (deduplicated)
  // The colour frame's binds: pipelines (one per pass), descriptor pushes (one per batch type per
  // pass) and the batch types drawn.
  std::size_t pipeline_binds = 0, descriptor_binds = 0, batch_types = 0;
  double frame_ms = 0.0;  // the colour frame (animate, upload, draw), wall clock
};

AvatarSceneResult render_avatar_scene(gpu::Context& ctx, const AvatarSceneOptions& options);

// The ID pass's pixel value for a palette offset (RGB = offset + 1, little-endian; 0 = background)
// and back. Each avatar owns one palette, so offset / palette size is the avatar.
std::uint32_t avatar_id_from_rgba(const std::uint8_t* pixel);

}  // namespace myriad::render
