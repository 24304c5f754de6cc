// The streamer's main-thread bookkeeping and its tile reads on the worker pool. A read only reads and
// validates its file into its own Read (nothing shared but the done flag); copying into the pools happens
// in update() under the budget, so the render origin can never be stale for an arriving tile.
#include "myriad/vegetation/runtime/streaming.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "myriad/core/io/error.hpp"

namespace myriad::vegetation {

void StreamingOptions::validate() const {
  if (copy_budget_bytes < kRuntimeBytesPerInstance)
    throw Error("copy budget below one instance (" + std::to_string(kRuntimeBytesPerInstance) + " bytes)",
                "StreamingOptions::copy_budget_bytes");
  if (!(tile_size > 0.0f) || !(load_radius >= 0.0f) || !(hysteresis >= 0.0f) || !(rebase_distance >= 0.0))
    throw Error("tile size must be positive, radius, hysteresis and rebase distance non-negative",
                "StreamingOptions");
}

TileStreamer::TileStreamer(StreamingOptions options)
    : options_(std::move(options)), world_(options_.render_origin) {
  options_.validate();
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(options_.directory, ec)) {
    TileKey k;
    if (e.is_regular_file() && parse_tile_file_name(e.path().filename().string(), k.x, k.z))
      available_.insert(k);
  }
  if (ec) throw Error("cannot list tile folder: " + ec.message(), options_.directory.string());
  workers_ = worker_pool(options_.workers, int(std::max(1u, options_.worker_threads)));
}

TileStreamer::~TileStreamer() {
  // Reads not begun are dropped; a shared pool may outlive the streamer, so every read it was given
  // must have returned first.
  for (const auto& r : reads_) r->cancelled.store(true, std::memory_order_relaxed);
  wait_for_jobs(reads_, [](const Read&) { return true; });
}

void TileStreamer::read(Read& r) const {
  if (r.cancelled.load(std::memory_order_relaxed)) return;
  const TileKey key = r.key;
  try {
    auto tile = std::make_shared<Tile>(read_tile(options_.directory / tile_file_name(key.x, key.z)));
    if (tile->x != key.x || tile->z != key.z || tile->size != options_.tile_size)
      throw Error("tile header (" + std::to_string(tile->x) + ", " + std::to_string(tile->z) + ", size " +
                      std::to_string(tile->size) +
                      ") does not match its file name or the streaming tile size",
                  (options_.directory / tile_file_name(key.x, key.z)).string(), "re-bake the tile");
    r.tile = std::move(tile);
  } catch (const std::exception& e) {  // myriad::Error, and bad_alloc on absurd inputs
    r.message = e.what();
  }
}

double TileStreamer::tile_distance(TileKey k, glm::dvec3 c) const {
  const double s = double(options_.tile_size);
  const double x0 = double(k.x) * s, z0 = double(k.z) * s;
  const double dx = std::max({x0 - c.x, 0.0, c.x - (x0 + s)});
  const double dz = std::max({z0 - c.z, 0.0, c.z - (z0 + s)});
  return std::sqrt(dx * dx + dz * dz);
}

void TileStreamer::unload(TileKey key) {
  // A read not begun yet is dropped; a running one is ignored on arrival.
  for (const auto& r : reads_)
    if (r->key == key) r->cancelled.store(true, std::memory_order_relaxed);
  const auto it = entries_.find(key);
  if (it != entries_.end() && it->second.state == State::kResident) ++resident_version_;
  world_.remove_tile(key);
  entries_.erase(key);
  std::erase(upload_queue_, key);
}

StreamingFrame TileStreamer::update(glm::dvec3 camera) {
  StreamingFrame frame;
  // Finished reads, oldest first; the others stay.
  std::size_t kept = 0;
  for (std::size_t i = 0; i < reads_.size(); ++i) {
    std::unique_ptr<Read>& slot = reads_[i];
    if (!slot->done.load(std::memory_order_acquire)) {
      if (kept != i) reads_[kept] = std::move(slot);
      ++kept;
      continue;
    }
    const std::unique_ptr<Read> r = std::move(slot);
    auto it = entries_.find(r->key);
    if (it == entries_.end() || it->second.state != State::kRequested || r->cancelled.load()) continue;
    if (!r->tile) {
      failures_.push_back({r->key, r->message});
      failed_.insert(r->key);
      entries_.erase(it);
      continue;
    }
    it->second.tile = r->tile;
    it->second.state = State::kUploading;
    upload_queue_.push_back(r->key);
  }
  reads_.resize(kept);

  // Rebase before this frame's uploads so arrivals get page entries for the new origin.
  // Horizontal distance: the origin stays at y = 0, so height alone must not trigger a rebase.
  const glm::dvec3 from_origin = camera - world_.render_origin();
  if (options_.rebase_distance > 0.0 && std::hypot(from_origin.x, from_origin.z) > options_.rebase_distance) {
    const double s = double(options_.tile_size);
    world_.rebase({std::floor(camera.x / s) * s, 0.0, std::floor(camera.z / s) * s});
    frame.rebased = true;
  }

  const double unload_radius = double(options_.load_radius) + double(options_.hysteresis);
  std::vector<TileKey> far;
  for (const auto& [key, e] : entries_)
    if (tile_distance(key, camera) > unload_radius) far.push_back(key);
  for (TileKey k : far) unload(k);
  frame.unloaded = far.size();

  // Only the grid window around the load circle is looked at (not every tile of the world), one tile
  // wider on each side: a tile whose edge lies exactly at the radius is in.
  std::vector<std::pair<double, TileKey>>& wanted = wanted_;
  wanted.clear();
  const double size = double(options_.tile_size), radius = double(options_.load_radius);
  auto cell = [&](double v) {
    return static_cast<std::int32_t>(std::clamp(std::floor(v / size), -2e9, 2e9));
  };
  const auto lo_x = cell(camera.x - radius) - 1;
  const auto hi_x = cell(camera.x + radius) + 1;
  const auto lo_z = cell(camera.z - radius) - 1;
  const auto hi_z = cell(camera.z + radius) + 1;
  for (auto it = available_.lower_bound({lo_x, std::numeric_limits<std::int32_t>::min()});
       it != available_.end() && it->x <= hi_x; ++it) {
    const TileKey k = *it;
    if (k.z < lo_z || k.z > hi_z) continue;
    const double d = tile_distance(k, camera);
    if (d <= radius && !entries_.count(k) && !failed_.count(k)) wanted.push_back({d, k});
  }
  std::sort(wanted.begin(), wanted.end());  // nearest first
  for (const auto& w : wanted) {
    entries_[w.second] = Entry{};
    reads_.push_back(std::make_unique<Read>());
    Read& r = *reads_.back();
    r.key = w.second;
    workers_->push(r, [this, &r](WorkerPool::Local&) { read(r); });
  }
  frame.requested = wanted.size();

  std::size_t budget = copy_budget(camera);
  const std::size_t frame_budget = budget;
  while (!upload_queue_.empty() && budget >= kRuntimeBytesPerInstance) {
    Entry& e = entries_.at(upload_queue_.front());
    const Tile& t = *e.tile;
    if (e.group < t.groups.size()) {
      const auto left = static_cast<std::uint32_t>(t.groups[e.group].instances.size()) - e.next;
      const auto n =
          static_cast<std::uint32_t>(std::min<std::size_t>(left, budget / kRuntimeBytesPerInstance));
      world_.append(e.tile, e.group, e.next, n);
      e.next += n;
      budget -= std::size_t(n) * kRuntimeBytesPerInstance;
      frame.copied_instances += n;
      if (e.next == t.groups[e.group].instances.size()) {
        ++e.group;
        e.next = 0;
      }
    }
    if (e.group >= t.groups.size()) {
      e.state = State::kResident;
      ++resident_version_;
      upload_queue_.pop_front();
    }
  }
  frame.copied_bytes = frame_budget - budget;
  return frame;
}

// Below this many metres per update the camera stands: no deadlines, the spread share.
constexpr double kStandingStep = 1e-3;

std::size_t TileStreamer::copy_budget(glm::dvec3 camera) {
  const double moved = last_camera_ ? glm::length(camera - *last_camera_) : 0.0;
  last_camera_ = camera;
  step_ = step_ == 0.0 ? moved : 0.8 * step_ + 0.2 * moved;
  const std::size_t budget = options_.copy_budget_bytes;
  if (options_.spread_frames == 0) return budget;
  std::size_t backlog = 0;  // bytes still to copy, in queue order
  double pace = 0.0;        // bytes per update that meets every deadline so far
  for (const TileKey& k : upload_queue_) {
    const Entry& e = entries_.at(k);
    for (std::uint32_t g = e.group; g < e.tile->groups.size(); ++g)
      backlog +=
          (e.tile->groups[g].instances.size() - (g == e.group ? e.next : 0u)) * kRuntimeBytesPerInstance;
    if (options_.deadline_radius > 0.0f && step_ > kStandingStep) {
      const double ahead = tile_distance(k, camera) - double(options_.deadline_radius);
      const double frames = std::clamp(ahead / step_, 1.0, 600.0);
      pace = std::max(pace, double(backlog) / frames);
    }
  }
  const std::size_t share = options_.deadline_radius > 0.0f && step_ > kStandingStep
                                ? static_cast<std::size_t>(std::ceil(pace))
                                : backlog / options_.spread_frames;
  return std::min(budget, std::max({share, options_.spread_min_bytes, kRuntimeBytesPerInstance}));
}

bool TileStreamer::idle() const {
  if (!upload_queue_.empty()) return false;
  for (const auto& [key, e] : entries_)
    if (e.state == State::kRequested) return false;
  return true;
}

std::size_t TileStreamer::loading() const {
  std::size_t n = 0;
  for (const auto& [key, e] : entries_) n += e.state == State::kRequested ? 1 : 0;
  // Read but not yet taken by an update: no longer loading.
  for (const auto& r : reads_) {
    if (!r->done.load(std::memory_order_acquire)) continue;
    const auto it = entries_.find(r->key);
    if (it != entries_.end() && it->second.state == State::kRequested && n > 0) --n;
  }
  return n;
}

bool TileStreamer::resident(TileKey key) const {
  const auto it = entries_.find(key);
  return it != entries_.end() && it->second.state == State::kResident;
}

std::size_t TileStreamer::resident_count() const {
  std::size_t n = 0;
  for (const auto& [key, e] : entries_) n += e.state == State::kResident ? 1 : 0;
  return n;
}

std::vector<TileKey> TileStreamer::resident_tiles() const {
  std::vector<TileKey> out;
  for (const auto& [key, e] : entries_)
    if (e.state == State::kResident) out.push_back(key);
  return out;
}

}  // namespace myriad::vegetation
