#include "myriad/batch/property_set.hpp"

#include "myriad/core/io/error.hpp"

namespace myriad::batch {

std::uint32_t PropertySet::floats_per_instance() const {
  std::uint32_t n = 0;
  for (const PropertyDesc& p : properties) n += p.components;
  return n;
}

PropertySetRegistry::PropertySetRegistry() { sets_.push_back(PropertySet{"none", {}, {}}); }

BatchType PropertySetRegistry::add(PropertySet set) {
  const std::string where = "property set '" + set.name + "'";
  if (sets_.size() >= 65535) throw Error("too many property sets", where, "share sets between renderers");
  for (const PropertySet& s : sets_) {
    if (s.name == set.name) throw Error("duplicate property set name", where);
  }
  for (const PropertyDesc& p : set.properties) {
    if (p.components < 1 || p.components > 4)
      throw Error("property needs 1 to 4 components", where + "." + p.name);
  }
  if (set.defaults.empty()) set.defaults.assign(set.floats_per_instance(), 0.0f);
  if (set.defaults.size() != set.floats_per_instance()) {
    throw Error("defaults size differs from the properties' floats", where + ".defaults");
  }
  sets_.push_back(std::move(set));
  return static_cast<BatchType>(sets_.size() - 1);
}

std::uint32_t PropertySetRegistry::offset_of(BatchType type, const std::string& property) const {
  std::uint32_t off = 0;
  for (const PropertyDesc& p : sets_.at(type).properties) {
    if (p.name == property) return off;
    off += p.components;
  }
  throw Error("property set has no property '" + property + "'", "property set '" + sets_[type].name + "'");
}

}  // namespace myriad::batch
