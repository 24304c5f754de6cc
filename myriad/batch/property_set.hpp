// Property sets (SPEC B2): a named list of per-instance material properties (tint, skin tone,
// pattern id, ...). A renderer's property set is its batch type: instances of different types never
// share a draw. Keep the number of sets small; each instance gets initial values at creation.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace myriad::batch {

using BatchType = std::uint16_t;

struct PropertyDesc {
  std::string name;
  std::uint32_t components = 4;  // floats, 1..4
};

struct PropertySet {
  std::string name;
  std::vector<PropertyDesc> properties;
  std::vector<float> defaults;  // floats_per_instance() values used when a renderer gives none

  std::uint32_t floats_per_instance() const;
};

class PropertySetRegistry {
 public:
  // Type 0 is the empty set (renderers with no per-instance properties).
  PropertySetRegistry();
  // Registers a set and returns its batch type. Throws myriad::Error on a bad description or a
  // duplicate name; at most 65535 sets.
  BatchType add(PropertySet set);
  const PropertySet& get(BatchType type) const { return sets_[type]; }
  std::size_t size() const { return sets_.size(); }
  // Offset of a property within an instance's floats; throws when the set has no such property.
  std::uint32_t offset_of(BatchType type, const std::string& property) const;

 private:
  std::vector<PropertySet> sets_;
};

}  // namespace myriad::batch
