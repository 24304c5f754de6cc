// The generator's value noise: core's lattice noise with the quintic fade (C2-continuous) and lattice
// values from hash3, mapped to [-1, 1].
#include "myriad/voxel/data/noise.hpp"

namespace myriad::voxel {
namespace {

constexpr std::uint64_t kOctaveSeedStep = 0x632BE59BD9B4E019ull;

struct Lattice {
  std::uint64_t seed;
  float operator()(std::int64_t x, std::int64_t z) const { return (*this)(x, 0, z); }
  float operator()(std::int64_t x, std::int64_t y, std::int64_t z) const {
    return hash_unit(hash3(seed, static_cast<int>(x), static_cast<int>(y), static_cast<int>(z))) * 2.0f -
           1.0f;
  }
};

}  // namespace

float value_noise2(std::uint64_t seed, float x, float z) {
  return myriad::value_noise2(double(x), double(z), NoiseFade::kQuintic, Lattice{seed});
}

float value_noise3(std::uint64_t seed, float x, float y, float z) {
  return myriad::value_noise3(double(x), double(y), double(z), NoiseFade::kQuintic, Lattice{seed});
}

float fbm2(std::uint64_t seed, float x, float z, int octaves) {
  return fbm(octaves, 1.0f, [&](int o, double f) {
    return myriad::value_noise2(double(x) * f, double(z) * f, NoiseFade::kQuintic,
                                Lattice{seed + std::uint64_t(o) * kOctaveSeedStep});
  });
}

float fbm3(std::uint64_t seed, float x, float y, float z, int octaves) {
  return fbm(octaves, 1.0f, [&](int o, double f) {
    return myriad::value_noise3(double(x) * f, double(y) * f, double(z) * f, NoiseFade::kQuintic,
                                Lattice{seed + std::uint64_t(o) * kOctaveSeedStep});
  });
}

}  // namespace myriad::voxel
