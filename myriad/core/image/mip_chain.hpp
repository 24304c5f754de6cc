// A full mip chain of an RGBA8 image whose colour channels are sRGB-encoded: each level halves the
// one above (max(1, size >> level), as Vulkan sizes them) by averaging 2 × 2 texels in linear light
// (alpha averaged as is); odd rows and columns at the edge are folded into their neighbours' average.
// Atlases whose gutters are filled (no background between charts) then shrink without bleeding.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace myriad {

// levels[0] is a copy of `rgba8` (width × height × 4 bytes); the last level is 1 × 1.
std::vector<std::vector<std::uint8_t>> mip_chain_srgb_rgba8(std::uint32_t width, std::uint32_t height,
                                                            std::span<const std::uint8_t> rgba8);

}  // namespace myriad
