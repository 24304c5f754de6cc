// `--prefab NAME=plant.glb` (repeatable): plant types drawn with imported glTF models. Each file is
// imported and checked here, before anything is baked or written; errors name the file and the node.
#pragma once

#include <algorithm>
#include <cctype>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "myriad/core/io/error.hpp"
#include "myriad/vegetation/plant/plant_gltf.hpp"

namespace myriad::app {

using PlantPrefabs = std::vector<std::pair<std::string, std::shared_ptr<const vegetation::PlantModel>>>;

inline PlantPrefabs load_prefabs(const std::vector<std::string>& specs) {
  PlantPrefabs out;
  for (const std::string& spec : specs) {
    const std::size_t eq = spec.find('=');
    const std::string name = spec.substr(0, eq);
    const bool valid_name = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
    });
    if (eq == std::string::npos || eq + 1 == spec.size() || !valid_name)
      throw Error("expected NAME=FILE (NAME of letters, digits, _ and -)", "--prefab " + spec,
                  "e.g. --prefab tree=oak.glb");
    for (const auto& [other, model] : out)
      if (other == name) throw Error("plant type '" + name + "' is given twice", "--prefab " + spec);
    out.emplace_back(name, std::make_shared<const vegetation::PlantModel>(
                               vegetation::import_plant_gltf(spec.substr(eq + 1))));
  }
  return out;
}

}  // namespace myriad::app
