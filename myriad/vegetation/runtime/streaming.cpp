// The streamer's main-thread bookkeeping and its job body, the tile read. A read only reads and validates
// its file into its own Read (nothing shared but the flags); copying into the pools happens in update()
// under the budget, so the render origin can never be stale for an arriving tile.
#include "myriad/vegetation/runtime/streaming.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
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
  if (!(load_radius / tile_size <= 1000.0f))
    throw Error("load radius spans more than 1000 tiles", "StreamingOptions::load_radius",
                "use a radius of at most 1000 tile sizes");
  if (max_reads_in_flight < 1)
    throw Error("at least one tile read must be in flight", "StreamingOptions::max_reads_in_flight");
}

namespace {

// The ring around the camera's tile that holds every tile within `radius`: the camera may be anywhere in
// its tile, so one tile more than the radius spans.
int ring_tiles(const StreamingOptions& o) { return int(std::ceil(o.load_radius / o.tile_size)) + 1; }

}  // namespace

TileStreamer::TileStreamer(StreamingOptions options)
    : options_((options.validate(), std::move(options))),
      ring_(ring_tiles(options_)),
      // 0 (all at once) is a pacing of one frame.
      unload_pacer_(PacerOptions{.frames = int(std::clamp(options_.unload_spread_frames, 1u, 1u << 30))}),
      workers_(worker_pool(options_.workers, int(std::max(1u, options_.worker_threads)))),
      world_(options_.render_origin),
      reads_(workers_, options_.max_reads_in_flight) {
  world_.keep_spare_block(workers_);
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(options_.directory, ec)) {
    TileKey k;
    if (e.is_regular_file() && parse_tile_file_name(e.path().filename().string(), k.x, k.z))
      available_.push_back(k);
  }
  if (ec) throw Error("cannot list tile folder: " + ec.message(), options_.directory.string());
  std::sort(available_.begin(), available_.end());
}

TileStreamer::~TileStreamer() {
  // Reads not begun are dropped; reads_ waits for the others.
  reads_.for_each_in_flight([](Read& r) { r.cancelled.store(true, std::memory_order_relaxed); });
}

TileStreamer::Entry* TileStreamer::entry(TileKey key) {
  const auto it = slot_.find(key);
  return it == slot_.end() ? nullptr : &entries_[it->second];
}

const TileStreamer::Entry* TileStreamer::entry(TileKey key) const {
  const auto it = slot_.find(key);
  return it == slot_.end() ? nullptr : &entries_[it->second];
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
  reads_.for_each_in_flight([&](Read& r) {
    if (r.key == key) r.cancelled.store(true, std::memory_order_relaxed);
  });
  const auto it = slot_.find(key);
  if (it != slot_.end()) {
    if (entries_[it->second].state == State::kResident) ++resident_version_;
    release(it->second);
    slot_.erase(it);
  }
  world_.remove_tile(key);
  std::erase(upload_queue_, key);
  if (in_ring(key)) candidates_.push_back(key);  // held until now: not a candidate yet
}

namespace {

// In 64 bits: a camera that jumped across the world puts keys 4e9 apart.
std::int64_t tiles_apart(TileKey a, TileKey b) {
  return std::max(std::abs(std::int64_t(a.x) - b.x), std::abs(std::int64_t(a.z) - b.z));
}

}  // namespace

bool TileStreamer::in_ring(TileKey key) const {
  return has_ring_ && tiles_apart(key, ring_centre_) <= ring_tiles(options_);
}

void TileStreamer::consider(TileKey key) {
  if (std::binary_search(available_.begin(), available_.end(), key) && !slot_.count(key) &&
      !failed_.count(key))
    candidates_.push_back(key);
}

void TileStreamer::follow_ring(TileKey centre) {
  if (has_ring_ && centre == ring_centre_) return;
  const TileKey before = ring_centre_;
  const bool stepped = has_ring_ && tiles_apart(centre, before) == 1;
  has_ring_ = true;
  ring_centre_ = centre;
  const int r = ring_tiles(options_);
  auto key_at = [&centre](glm::ivec2 offset) {
    return TileKey{centre.x + offset.x, centre.z + offset.y};  // |centre| <= 2e9, |offset| <= 1001
  };
  if (!stepped) {  // the first frame, or a jump: the whole ring
    candidates_.clear();
    for (const glm::ivec2 offset : ring_.offsets()) consider(key_at(offset));
    return;
  }
  // One tile over: the candidates that left the ring go, the new edge's tiles come.
  std::erase_if(candidates_, [this](TileKey k) { return !in_ring(k); });
  for (const glm::ivec2 offset : ring_.band(r, r)) {
    const TileKey k = key_at(offset);
    if (tiles_apart(k, before) > r) consider(k);
  }
}

void TileStreamer::release(std::int32_t slot) {
  Entry& e = entries_[slot];
  e.tile.reset();
  e.state = State::kFree;
  entries_.release(slot);
}

void TileStreamer::arrive(Read& r) {
  Entry* e = entry(r.key);
  const bool current = e && e->state == State::kRequested && !r.cancelled.load(std::memory_order_relaxed);
  if (current && !r.tile) {
    failures_.push_back({r.key, r.message});
    failed_.insert(r.key);
    release(slot_.at(r.key));
    slot_.erase(r.key);
  } else if (current) {
    e->tile = std::move(r.tile);
    e->state = State::kUploading;
    upload_queue_.push_back(r.key);
  }
  r.tile.reset();
  r.message.clear();
}

StreamingFrame TileStreamer::update(glm::dvec3 camera) {
  StreamingFrame frame;
  // Finished reads, oldest first; the others stay.
  // A failed read reports its message as a tile failure; what escapes read() is a bug, rethrown.
  if (const std::exception_ptr error = reads_.collect(0, [this](Read& r) { arrive(r); }))
    std::rethrow_exception(error);

  // Rebase before this frame's uploads so arrivals get page entries for the new origin.
  // Horizontal distance: the origin stays at y = 0, so height alone must not trigger a rebase.
  const glm::dvec3 from_origin = camera - world_.render_origin();
  if (options_.rebase_distance > 0.0 && std::hypot(from_origin.x, from_origin.z) > options_.rebase_distance) {
    const double s = double(options_.tile_size);
    world_.rebase({std::floor(camera.x / s) * s, 0.0, std::floor(camera.z / s) * s});
    frame.rebased = true;
  }

  // The ring's candidates follow the camera's tile before the unloads, which hand theirs back to it.
  const double size = double(options_.tile_size), radius = double(options_.load_radius);
  auto cell = [&](double v) {
    return static_cast<std::int32_t>(std::clamp(std::floor(v / size), -2e9, 2e9));
  };
  follow_ring({cell(camera.x), cell(camera.z)});

  const double unload_radius = double(options_.load_radius) + double(options_.hysteresis);
  far_.clear();
  for (const Entry& e : entries_) {
    if (e.state == State::kFree) continue;
    const double d = tile_distance(e.key, camera);
    if (d > unload_radius) far_.push_back({d, e.key});
  }
  // Farthest first, then by key: the pools free pages the same on every machine.
  std::sort(far_.begin(), far_.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  frame.unloaded = unload_pacer_.share(far_.size(), 0);
  for (std::size_t i = 0; i < frame.unloaded; ++i) unload(far_[i].second);
  frame.unloads_waiting = unloads_waiting_ = far_.size() - frame.unloaded;

  // Every tile within the load radius lies in the ring around the camera's tile; the candidates are the
  // ring's tiles not held, so a frame only measures their distances.
  std::vector<Wanted>& wanted = wanted_;
  wanted.clear();
  for (std::size_t i = 0; i < candidates_.size(); ++i) {
    const double d = tile_distance(candidates_[i], camera);
    if (d <= radius) wanted.push_back({d, candidates_[i], i});
  }
  std::sort(wanted.begin(), wanted.end());  // nearest first
  const auto batch = reads_.batch();        // one wake for the frame's reads
  for (const auto& w : wanted) {
    if (reads_.full()) break;
    const std::int32_t s = entries_.acquire();
    entries_[s] = Entry{w.key};
    slot_[w.key] = s;
    Read& r = reads_.next();
    r.key = w.key;
    r.cancelled.store(false, std::memory_order_relaxed);
    reads_.launch(std::int64_t(w.distance), [this](Read& job, WorkerPool::Local&) { read(job); });
    ++frame.requested;
  }
  // The launched tiles leave the candidates by swapping in the last one, highest index first so the one
  // swapped in is never one still to leave (their order does not matter: the wanted list is sorted).
  launched_.clear();
  for (std::size_t i = 0; i < frame.requested; ++i) launched_.push_back(wanted[i].candidate);
  std::sort(launched_.begin(), launched_.end(), std::greater<>());
  for (const std::size_t i : launched_) {
    candidates_[i] = candidates_.back();
    candidates_.pop_back();
  }
  frame.deferred = deferred_ = wanted.size() - frame.requested;

  std::size_t budget = copy_budget(camera);
  const std::size_t frame_budget = budget;
  while (!upload_queue_.empty() && budget >= kRuntimeBytesPerInstance) {
    Entry& e = entries_[slot_.at(upload_queue_.front())];
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
    const Entry& e = entries_[slot_.at(k)];
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
  return upload_queue_.empty() && deferred_ == 0 && unloads_waiting_ == 0 && reads_.in_flight() == 0;
}

std::size_t TileStreamer::loading() const {
  std::size_t n = 0;
  for (const Entry& e : entries_) n += e.state == State::kRequested ? 1 : 0;
  // Read but not yet taken by an update: no longer loading.
  reads_.for_each_in_flight([&](const Read& r) {
    if (!r.done.load(std::memory_order_acquire) || r.cancelled.load(std::memory_order_relaxed)) return;
    const Entry* e = entry(r.key);
    if (e && e->state == State::kRequested && n > 0) --n;
  });
  return n;
}

bool TileStreamer::held(TileKey key) const { return entry(key) != nullptr; }

bool TileStreamer::resident(TileKey key) const {
  const Entry* e = entry(key);
  return e && e->state == State::kResident;
}

std::size_t TileStreamer::resident_count() const {
  std::size_t n = 0;
  for (const Entry& e : entries_) n += e.state == State::kResident ? 1 : 0;
  return n;
}

std::vector<TileKey> TileStreamer::resident_tiles() const {
  std::vector<TileKey> out;
  resident_tiles(out);
  return out;
}

void TileStreamer::resident_tiles(std::vector<TileKey>& out) const {
  out.clear();
  for (const Entry& e : entries_)
    if (e.state == State::kResident) out.push_back(e.key);
  std::sort(out.begin(), out.end());
}

}  // namespace myriad::vegetation
