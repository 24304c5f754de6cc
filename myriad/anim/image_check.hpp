// Checks an embedded or referenced image's bytes before they reach the image decoder (stb_image,
// through tinygltf). The decoder trusts the sizes a file states: a PNG chunk whose length runs past
// the data made it reserve hundreds of megabytes for a 76-byte file, and a header stating a huge image
// makes it allocate for it. Both are refused here with a one-line reason.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace myriad::anim {

// The largest texture side accepted (pixels).
inline constexpr std::uint32_t kMaxImageSide = 16384;

// Empty when the bytes may go to the decoder; otherwise why not. PNG: every chunk lies inside the
// data, IHDR comes first and states a size within kMaxImageSide. JPEG: the frame header's size is
// within kMaxImageSide. Other formats pass unchanged (the decoder refuses what it does not know).
std::string image_bytes_problem(std::span<const unsigned char> bytes);

}  // namespace myriad::anim
