#include "myriad/anim/pose/skeleton.hpp"

#include "myriad/core/io/error.hpp"

namespace myriad::anim {

void LocalPose::resize(std::size_t joints) {
  translation.resize(joints);
  rotation.resize(joints);
  scale.resize(joints);
}

void Skeleton::validate() const {
  const std::size_t n = parents.size();
  if (names.size() != n || rest.size() != n) {
    throw Error("skeleton arrays differ in size", "skeleton",
                "names, parents and rest pose need one entry per joint");
  }
  if (n > 32767) throw Error("skeleton has more than 32767 joints", "skeleton.parents");
  for (std::size_t i = 0; i < n; ++i) {
    if (parents[i] != kNoParent && (parents[i] < 0 || static_cast<std::size_t>(parents[i]) >= i)) {
      throw Error("joint parent does not precede the joint", "skeleton.parents[" + std::to_string(i) + "]",
                  "order joints depth-first (depth_first_order)");
    }
  }
}

std::vector<int> depth_first_order(std::span<const int> parents) {
  const int n = static_cast<int>(parents.size());
  std::vector<std::vector<int>> children(parents.size());
  std::vector<int> roots;
  for (int i = 0; i < n; ++i) {
    const int p = parents[static_cast<std::size_t>(i)];
    if (p < 0) {
      roots.push_back(i);
    } else if (p >= n) {
      throw Error("parent index out of range", "parents[" + std::to_string(i) + "]");
    } else {
      children[static_cast<std::size_t>(p)].push_back(i);
    }
  }
  std::vector<int> order;
  order.reserve(parents.size());
  std::vector<int> stack;
  for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.push_back(*it);
  while (!stack.empty()) {
    const int j = stack.back();
    stack.pop_back();
    order.push_back(j);
    const auto& c = children[static_cast<std::size_t>(j)];
    for (auto it = c.rbegin(); it != c.rend(); ++it) stack.push_back(*it);
  }
  if (order.size() != parents.size()) throw Error("joint hierarchy has a cycle", "parents");
  return order;
}

}  // namespace myriad::anim
