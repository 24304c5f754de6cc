#include "myriad/core/stream/pacer.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "myriad/core/io/error.hpp"

namespace myriad {

void PacerOptions::validate(const char* prefix) const {
  const std::string at(prefix);
  if (frames < 1)
    throw Error("pacing frames must be at least 1", at + "frames", "use 1 (all at once) or more");
  if (smoothing_frames < 0)
    throw Error("the pacing's smoothing must not be negative", at + "smoothing_frames",
                "use 0 (no rate) or more frames");
  if (!(headroom >= 1.0) || !std::isfinite(headroom))
    throw Error("the pacing's headroom must be a finite number >= 1", at + "headroom");
}

Pacer::Pacer(const PacerOptions& options) : options_(options) { options.validate(); }

std::size_t Pacer::share(std::size_t waiting, std::size_t arrived) {
  if (options_.smoothing_frames > 0) rate_ += (double(arrived) - rate_) / double(options_.smoothing_frames);
  if (waiting == 0) {
    credit_ = 0.0;
    return 0;
  }
  const auto frames = std::size_t(options_.frames);
  const std::size_t floor_share = (waiting + frames - 1) / frames;
  credit_ += rate_ * options_.headroom;
  const auto from_rate = std::size_t(credit_);
  const std::size_t n = std::min(waiting, std::max({floor_share, from_rate, std::size_t(1)}));
  // What was taken beyond the rate's credit (the floor) is not owed back, and what a short queue could not
  // give is not saved up: only the fraction of an item carries over, so no later frame takes a burst.
  credit_ = std::max(0.0, credit_ - double(n));
  credit_ -= std::floor(credit_);
  return n;
}

}  // namespace myriad
