// Flood-fill light: per-section BFS with a pull of the neighbours' border light, run in checkerboard
// passes; and the regional relight used by edits.
#include "myriad/voxel/light/light.hpp"

#include <algorithm>
#include <atomic>
#include <memory>

#include <tbb/enumerable_thread_specific.h>

#include "myriad/core/thread/parallel.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/shape.hpp"

namespace myriad::voxel {

bool light_transparent(std::uint8_t material, std::uint8_t form) {
  return material == kAir || form != kFormFull;
}

Light16 light_emission(std::uint8_t material) {
  const Material& m = materials()[material];
  return make_light16(m.emit_r, m.emit_g, m.emit_b, 0);
}

namespace {

// One step of propagation: every non-zero 4-bit channel minus one (no borrow can occur).
constexpr Light16 step_down(Light16 l) {
  const unsigned nz = (l | l >> 1 | l >> 2 | l >> 3) & 0x1111u;
  return Light16(l - nz);
}
// Per-channel max; returns true when `into` grew.
inline bool raise(Light16& into, Light16 from) {
  Light16 out = into;
  for (int c = 0; c < 16; c += 4) {
    const unsigned mask = 0xFu << c;
    if ((from & mask) > (out & mask)) out = Light16((out & ~mask) | (from & mask));
  }
  if (out == into) return false;
  into = out;
  return true;
}

constexpr glm::ivec3 kDirs[6] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};

// Height of the first opaque cell from the top in each column (-1 when open to the bottom): cells above it
// have open sky.
std::vector<int> sky_heights(const World& world) {
  const glm::ivec3 size = world.size();
  std::vector<int> top(std::size_t(size.x) * std::size_t(size.z), -1);
  const auto mats = world.materials();
  const auto forms = world.forms();
  parallel_for(0, std::size_t(size.z), 8, [&](std::size_t zb, std::size_t ze) {
    for (std::size_t z = zb; z < ze; ++z)
      for (int x = 0; x < size.x; ++x)
        for (int y = size.y - 1; y >= 0; --y) {
          const std::size_t i = world.index({x, y, int(z)});
          if (!light_transparent(mats[i], forms[i])) {
            top[z * std::size_t(size.x) + std::size_t(x)] = y;
            break;
          }
        }
  });
  return top;
}

struct SectionQueue {
  std::vector<std::uint16_t> cells;  // section-local cell indices
};

// Flood one section: pull the neighbours' border light, then BFS from the seeds and from what was pulled.
// Returns a 6-bit mask of the section faces whose border cells grew.
int flood_section(World& world, glm::ivec3 sec, std::vector<std::uint16_t>& queue) {
  const glm::ivec3 base = sec * kSectionSize;
  const std::size_t first = std::size_t(world.section_index(sec)) * kSectionCells;
  Light16* light = world.lights().data();
  const std::uint8_t* mats = world.materials().data();
  const std::uint8_t* forms = world.forms().data();
  int grown = 0;
  auto mark_border = [&](int x, int y, int z) {
    grown |= (x == 0) << 0 | (x == 15) << 1 | (y == 0) << 2 | (y == 15) << 3 | (z == 0) << 4 | (z == 15) << 5;
  };
  // Pull over the six faces.
  for (int f = 0; f < 6; ++f) {
    const glm::ivec3 d = kDirs[f];
    const glm::ivec3 nsec = sec + d;
    if (!world.contains_section(nsec)) continue;
    const int a = f >> 1;
    const int fixed = (f & 1) ? 15 : 0;
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) {
        glm::ivec3 c;
        c[a] = fixed;
        c[(a + 1) % 3] = i;
        c[(a + 2) % 3] = j;
        const int ci = cell_index(c.x, c.y, c.z);
        const std::size_t gi = first + std::size_t(ci);
        if (!light_transparent(mats[gi], forms[gi])) continue;
        const Light16 outside = light[world.index(base + c + d)];
        if (outside == 0) continue;
        if (raise(light[gi], step_down(outside))) {
          queue.push_back(std::uint16_t(ci));
          mark_border(c.x, c.y, c.z);
        }
      }
  }
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const int ci = queue[head];
    const Light16 v = step_down(light[first + std::size_t(ci)]);
    if (v == 0) continue;
    const int x = ci & 15, z = ci >> 4 & 15, y = ci >> 8;
    for (int f = 0; f < 6; ++f) {
      const int nx = x + kDirs[f].x, ny = y + kDirs[f].y, nz = z + kDirs[f].z;
      if ((nx | ny | nz) & ~15) continue;  // other section: it pulls in its own turn
      const int ni = cell_index(nx, ny, nz);
      const std::size_t gi = first + std::size_t(ni);
      if (!light_transparent(mats[gi], forms[gi])) continue;
      if (raise(light[gi], v)) {
        queue.push_back(std::uint16_t(ni));
        mark_border(nx, ny, nz);
      }
    }
  }
  queue.clear();
  return grown;
}

}  // namespace

LightStats compute_light(World& world) {
  const glm::ivec3 size = world.size();
  const std::vector<int> sky = sky_heights(world);
  const int count = world.section_count();
  std::vector<std::vector<std::uint16_t>> seeds(static_cast<std::size_t>(count));
  // Sources: lamp emission and sun 15 under open sky. Seeds are the lamps and the open-sky cells next to
  // a transparent cell without sky (elsewhere open sky meets only open sky or opaque cells).
  Light16 emission[256] = {};
  for (int m = 0; m < kMaterialCount; ++m) emission[m] = light_emission(std::uint8_t(m));
  auto sky_at = [&](int x, int z) {
    return sky[std::size_t(std::clamp(z, 0, size.z - 1)) * std::size_t(size.x) +
               std::size_t(std::clamp(x, 0, size.x - 1))];
  };
  parallel_for(0, std::size_t(count), 4, [&](std::size_t sb, std::size_t se) {
    const std::uint8_t* mats = world.materials().data();
    Light16* lights = world.lights().data();
    for (std::size_t s = sb; s < se; ++s) {
      const glm::ivec3 base = world.section_coord(int(s)) * kSectionSize;
      const std::size_t first = s * kSectionCells;
      auto& list = seeds[s];
      for (int z = 0; z < 16; ++z)
        for (int x = 0; x < 16; ++x) {
          const int wx = base.x + x, wz = base.z + z;
          const int own = sky_at(wx, wz);
          // Open-sky cells at or below a neighbour column's first opaque cell may light that column's
          // cells sideways: seed them (a superset is harmless, it only costs a look at the neighbours).
          const int reach = std::max(std::max(sky_at(wx - 1, wz), sky_at(wx + 1, wz)),
                                     std::max(sky_at(wx, wz - 1), sky_at(wx, wz + 1)));
          for (int y = 0; y < 16; ++y) {
            const int ci = cell_index(x, y, z);
            const std::size_t gi = first + std::size_t(ci);
            const int wy = base.y + y;
            Light16 l = emission[mats[gi]];
            bool seed = l != 0;
            if (wy > own) {
              l = Light16(l | kLightMax << 12);
              seed = seed || wy <= reach;
            }
            lights[gi] = l;
            if (seed) list.push_back(std::uint16_t(ci));
          }
        }
    }
  });

  std::vector<std::atomic<std::uint8_t>> dirty(static_cast<std::size_t>(count));
  for (int s = 0; s < count; ++s) dirty[std::size_t(s)].store(1, std::memory_order_relaxed);
  std::vector<int> colour_lists[2];
  for (int s = 0; s < count; ++s) {
    const glm::ivec3 c = world.section_coord(s);
    colour_lists[(c.x + c.y + c.z) & 1].push_back(s);
  }
  tbb::enumerable_thread_specific<std::vector<std::uint16_t>> queues;
  std::atomic<int> updates{0};
  LightStats stats;
  for (bool again = true; again;) {
    again = false;
    ++stats.passes;
    for (const std::vector<int>& list : colour_lists) {
      std::atomic<bool> any{false};
      parallel_for(0, list.size(), 2, [&](std::size_t b, std::size_t e) {
        auto& queue = queues.local();
        for (std::size_t k = b; k < e; ++k) {
          const int s = list[k];
          if (!dirty[std::size_t(s)].exchange(0, std::memory_order_relaxed)) continue;
          updates.fetch_add(1, std::memory_order_relaxed);
          auto& seed = seeds[std::size_t(s)];
          queue.assign(seed.begin(), seed.end());
          seed.clear();
          const glm::ivec3 sec = world.section_coord(s);
          const int grown = flood_section(world, sec, queue);
          for (int f = 0; f < 6; ++f) {
            if (!(grown >> f & 1)) continue;
            const glm::ivec3 n = sec + kDirs[f];
            if (!world.contains_section(n)) continue;
            dirty[std::size_t(world.section_index(n))].store(1, std::memory_order_relaxed);
            any.store(true, std::memory_order_relaxed);
          }
        }
      });
      again |= any.load();
    }
  }
  stats.section_updates = updates.load();
  return stats;
}

void relight_box(World& world, glm::ivec3 lo, glm::ivec3 hi, std::vector<std::size_t>* changed) {
  const glm::ivec3 size = world.size();
  lo = glm::max(lo, glm::ivec3(0));
  hi = glm::min(hi, size - 1);
  auto mats = world.materials();
  auto forms = world.forms();
  auto lights = world.lights();
  const glm::ivec3 rlo = glm::max(lo - kLightMax, glm::ivec3(0));
  const glm::ivec3 rhi = glm::min(hi + kLightMax, size - 1);
  const glm::ivec3 ext = rhi - rlo + 1;
  auto local = [&](glm::ivec3 p) {
    return std::size_t((p.y - rlo.y) * ext.z + (p.z - rlo.z)) * std::size_t(ext.x) + std::size_t(p.x - rlo.x);
  };
  std::vector<Light16> before(std::size_t(ext.x) * std::size_t(ext.y) * std::size_t(ext.z));
  std::vector<glm::ivec3> queue;
  for (int z = rlo.z; z <= rhi.z; ++z)
    for (int x = rlo.x; x <= rhi.x; ++x) {
      bool sky = true;
      for (int y = size.y - 1; y >= rlo.y; --y) {
        const std::size_t gi = world.index({x, y, z});
        sky = sky && light_transparent(mats[gi], forms[gi]);
        if (y > rhi.y) continue;
        const glm::ivec3 p{x, y, z};
        before[local(p)] = lights[gi];
        Light16 l = light_emission(mats[gi]);
        if (sky) l = Light16(l | kLightMax << 12);
        lights[gi] = l;
        if (l) queue.push_back(p);
      }
    }
  // Light entering over the region's border (cells outside are unchanged: further than 15 steps).
  for (int z = rlo.z; z <= rhi.z; ++z)
    for (int y = rlo.y; y <= rhi.y; ++y)
      for (int x = rlo.x; x <= rhi.x; ++x) {
        const glm::ivec3 p{x, y, z};
        const bool border = x == rlo.x || y == rlo.y || z == rlo.z || x == rhi.x || y == rhi.y || z == rhi.z;
        if (!border) continue;
        const std::size_t gi = world.index(p);
        if (!light_transparent(mats[gi], forms[gi])) continue;
        for (const glm::ivec3 d : kDirs) {
          const glm::ivec3 n = p + d;
          if (!world.contains(n) ||
              (glm::all(glm::greaterThanEqual(n, rlo)) && glm::all(glm::lessThanEqual(n, rhi))))
            continue;
          if (raise(lights[gi], step_down(lights[world.index(n)]))) queue.push_back(p);
        }
      }
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const glm::ivec3 p = queue[head];
    const Light16 v = step_down(lights[world.index(p)]);
    if (v == 0) continue;
    for (const glm::ivec3 d : kDirs) {
      const glm::ivec3 n = p + d;
      if (glm::any(glm::lessThan(n, rlo)) || glm::any(glm::greaterThan(n, rhi))) continue;
      const std::size_t gi = world.index(n);
      if (!light_transparent(mats[gi], forms[gi])) continue;
      if (raise(lights[gi], v)) queue.push_back(n);
    }
  }
  if (!changed) return;
  for (int y = rlo.y; y <= rhi.y; ++y)
    for (int z = rlo.z; z <= rhi.z; ++z)
      for (int x = rlo.x; x <= rhi.x; ++x) {
        const std::size_t gi = world.index({x, y, z});
        if (lights[gi] != before[local({x, y, z})]) changed->push_back(gi);
      }
}

}  // namespace myriad::voxel
