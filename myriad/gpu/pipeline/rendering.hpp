// Dynamic rendering over a whole target: attachment descriptions (cleared or loaded, always stored)
// and one begin that also sets viewport and scissor to the full area. Reverse-Z: depth clears to 0.
#pragma once

#include <cstdint>

#include "myriad/core/math/math.hpp"
#include "myriad/gpu/device/vk.hpp"

namespace myriad::gpu {

// `clear` null: keep what the image holds (load); otherwise clear to it.
VkRenderingAttachmentInfo color_attachment(VkImageView view, const glm::vec4* clear);
// `clear` true: clear to 0 (reverse-Z far); false: load.
VkRenderingAttachmentInfo depth_attachment(VkImageView view, bool clear);

// Begins rendering over width x height; either attachment may be null.
void begin_rendering(VkCommandBuffer cmd, std::uint32_t width, std::uint32_t height,
                     const VkRenderingAttachmentInfo* color, const VkRenderingAttachmentInfo* depth);

}  // namespace myriad::gpu
