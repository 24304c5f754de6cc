// Checks an embedded or referenced image's bytes before they reach the image decoder (stb_image,
// through tinygltf). The decoder trusts the sizes a file states: a PNG chunk whose length runs past
// the data made it reserve hundreds of megabytes for a 76-byte file, and a header stating a huge image
// makes it allocate for it (a 28-byte TGA stating 65535 x 4292 pixels), and missing pixel data is
// decoded as zeros (74 bytes stating a 6168 x 6168 TGA cost seconds). All are refused here with a
// one-line reason.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace myriad::gltf {

// The largest texture accepted: per side, and in all (8192 x 8192: a decoded RGBA image of 256 MiB).
inline constexpr std::uint32_t kMaxImageSide = 16384;
inline constexpr std::uint64_t kMaxImagePixels = std::uint64_t(8192) * 8192;

// Empty when the bytes may go to the decoder; otherwise why not. PNG: every chunk lies inside the
// data and IHDR comes first. JPEG: segments lie inside the data. Every format: the size its header
// states (read by the decoder's header-only path) is within kMaxImageSide per side and
// kMaxImagePixels in all, and no more than the bytes can hold at the format's densest packing.
// Bytes the decoder does not recognise pass (it refuses them itself).
std::string image_bytes_problem(std::span<const unsigned char> bytes);

}  // namespace myriad::gltf
