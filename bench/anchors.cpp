#include "anchors.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"

namespace myriad::bench {
namespace {

using Json = nlohmann::json;

const Json& member(const Json& object, const char* name, Json::value_t type, const std::string& where) {
  const auto it = object.find(name);
  if (it == object.end()) throw Error(std::string("missing field \"") + name + "\"", where);
  const bool number_ok = type == Json::value_t::number_float && it->is_number();
  if (it->type() != type && !number_ok) {
    throw Error(std::string("field \"") + name + "\" has the wrong type (" + it->type_name() + ")", where);
  }
  return *it;
}

std::string string_member(const Json& object, const char* name, const std::string& where) {
  return member(object, name, Json::value_t::string, where).get<std::string>();
}

}  // namespace

const Anchor* AnchorSet::find(std::string_view key) const {
  const auto it = anchors.find(std::string(key));
  return it == anchors.end() ? nullptr : &it->second;
}

AnchorSet parse_anchors(std::string_view text, std::string source) {
  Json root;
  try {
    root = Json::parse(text);
  } catch (const Json::exception& e) {
    // Not only parse_error: a number beyond double range (1e999) throws out_of_range.
    throw Error("not valid JSON: " + std::string(e.what()), source);
  }
  if (!root.is_object()) throw Error("the top level must be an object", source);
  const auto format = root.find("format");
  if (format == root.end() || *format != "myriad-benchmark-anchors") {
    throw Error("not a benchmark anchors file", source, "expected \"format\": \"myriad-benchmark-anchors\"");
  }
  const Json& version = member(root, "version", Json::value_t::number_unsigned, source);
  if (version.get<unsigned>() != 1) {
    throw Error("unsupported anchors version " + version.dump(), source, "this build reads version 1");
  }
  const Json& machines = member(root, "machines", Json::value_t::object, source);
  const Json& anchors = member(root, "anchors", Json::value_t::object, source);

  AnchorSet set;
  set.source = source;
  for (const auto& [key, entry] : anchors.items()) {
    const std::string where = source + ": anchors." + key;
    if (!entry.is_object()) throw Error("an anchor must be an object", where);
    Anchor a;
    a.value = member(entry, "value", Json::value_t::number_float, where).get<double>();
    if (!std::isfinite(a.value)) throw Error("\"value\" must be a finite number", where);
    a.unit = string_member(entry, "unit", where);
    a.date = string_member(entry, "date", where);
    const std::string machine = string_member(entry, "machine", where);
    const auto described = machines.find(machine);
    if (described == machines.end() || !described->is_string()) {
      throw Error("machine \"" + machine + "\" is not described under \"machines\"", where);
    }
    a.machine = described->get<std::string>();
    a.command = string_member(entry, "command", where);
    if (entry.contains("note")) a.note = string_member(entry, "note", where);
    set.anchors.emplace(key, std::move(a));
  }
  return set;
}

AnchorSet load_anchors(const std::filesystem::path& path) {
  const std::vector<std::byte> bytes = read_file(path);
  return parse_anchors(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                       path.string());
}

std::filesystem::path default_anchors_path() {
  const std::filesystem::path local = std::filesystem::path("docs") / "benchmark_anchors.json";
  std::error_code ec;
  if (std::filesystem::is_regular_file(local, ec)) return local;
#ifdef MYRIAD_DEFAULT_ANCHORS
  return MYRIAD_DEFAULT_ANCHORS;
#else
  return local;
#endif
}

}  // namespace myriad::bench
