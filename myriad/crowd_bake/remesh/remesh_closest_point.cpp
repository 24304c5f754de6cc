#include "myriad/crowd_bake/remesh/remesh_closest_point.hpp"

#include "myriad/core/io/error.hpp"

#include <embree3/rtcore.h>

#include <cstring>
#include <limits>
#include <string>

namespace myriad::crowd {

ClosestHit closest_on_triangle(glm::vec3 p, glm::vec3 a, glm::vec3 b, glm::vec3 c) {
  // Ericson, Real-Time Collision Detection 5.1.5: Voronoi regions of the vertices, edges and face.
  auto hit = [&](glm::vec3 bary) {
    ClosestHit h;
    h.bary = bary;
    h.point = bary.x * a + bary.y * b + bary.z * c;
    h.distance = glm::length(p - h.point);
    return h;
  };
  const glm::vec3 ab = b - a, ac = c - a, ap = p - a;
  const float d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
  if (d1 <= 0.0f && d2 <= 0.0f) return hit({1.0f, 0.0f, 0.0f});
  const glm::vec3 bp = p - b;
  const float d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
  if (d3 >= 0.0f && d4 <= d3) return hit({0.0f, 1.0f, 0.0f});
  const float vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
    const float v = d1 / (d1 - d3);
    return hit({1.0f - v, v, 0.0f});
  }
  const glm::vec3 cp = p - c;
  const float d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
  if (d6 >= 0.0f && d5 <= d6) return hit({0.0f, 0.0f, 1.0f});
  const float vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
    const float w = d2 / (d2 - d6);
    return hit({1.0f - w, 0.0f, w});
  }
  const float va = d3 * d6 - d5 * d4;
  if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f) {
    const float w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return hit({0.0f, 1.0f - w, w});
  }
  const float sum = va + vb + vc;
  if (!(sum > 0.0f)) return hit({1.0f, 0.0f, 0.0f});  // degenerate triangle: its first corner
  const float v = vb / sum, w = vc / sum;
  return hit({1.0f - v - w, v, w});
}

struct ClosestPointQuery::Impl {
  std::vector<glm::vec3> positions;
  std::vector<std::uint32_t> indices;
  RTCDevice device = nullptr;
  RTCScene scene = nullptr;
};

namespace {

struct QueryState {
  const std::vector<glm::vec3>* positions;
  const std::vector<std::uint32_t>* indices;
  glm::vec3 point;
  ClosestHit best;
};

bool visit_triangle(RTCPointQueryFunctionArguments* args) {
  auto* state = static_cast<QueryState*>(args->userPtr);
  const std::uint32_t t = args->primID;
  const std::uint32_t* f = &(*state->indices)[3 * static_cast<std::size_t>(t)];
  const std::vector<glm::vec3>& p = *state->positions;
  ClosestHit hit = closest_on_triangle(state->point, p[f[0]], p[f[1]], p[f[2]]);
  if (hit.distance >= state->best.distance) return false;
  hit.triangle = t;
  state->best = hit;
  args->query->radius = hit.distance;
  return true;
}

}  // namespace

ClosestPointQuery::ClosestPointQuery(const std::vector<glm::vec3>& positions,
                                     const std::vector<std::uint32_t>& indices)
    : impl_(std::make_unique<Impl>()) {
  if (positions.empty() || indices.size() < 3) throw Error("closest point query: the mesh has no triangles");
  impl_->positions = positions;
  impl_->indices = indices;
  impl_->device = rtcNewDevice(nullptr);
  if (!impl_->device) throw Error("closest point query: Embree device creation failed");
  impl_->scene = rtcNewScene(impl_->device);
  RTCGeometry geometry = rtcNewGeometry(impl_->device, RTC_GEOMETRY_TYPE_TRIANGLE);
  // Embree pads buffers it allocates itself for its 16-byte vertex loads.
  auto* vertices = static_cast<float*>(rtcSetNewGeometryBuffer(
      geometry, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, sizeof(float) * 3, positions.size()));
  std::memcpy(vertices, positions.data(), positions.size() * sizeof(glm::vec3));
  auto* triangles = static_cast<std::uint32_t*>(rtcSetNewGeometryBuffer(
      geometry, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, sizeof(std::uint32_t) * 3, indices.size() / 3));
  std::memcpy(triangles, indices.data(), (indices.size() / 3) * 3 * sizeof(std::uint32_t));
  rtcSetGeometryPointQueryFunction(geometry, visit_triangle);
  rtcCommitGeometry(geometry);
  rtcAttachGeometry(impl_->scene, geometry);
  rtcReleaseGeometry(geometry);
  rtcCommitScene(impl_->scene);
  if (rtcGetDeviceError(impl_->device) != RTC_ERROR_NONE) {
    throw Error("closest point query: Embree could not build the scene");
  }
}

ClosestPointQuery::~ClosestPointQuery() {
  if (impl_->scene) rtcReleaseScene(impl_->scene);
  if (impl_->device) rtcReleaseDevice(impl_->device);
}

ClosestHit ClosestPointQuery::closest(glm::vec3 p) const {
  QueryState state{&impl_->positions, &impl_->indices, p, {}};
  state.best.distance = std::numeric_limits<float>::infinity();
  RTCPointQuery query;
  query.x = p.x;
  query.y = p.y;
  query.z = p.z;
  query.time = 0.0f;
  query.radius = std::numeric_limits<float>::infinity();
  RTCPointQueryContext context;
  rtcInitPointQueryContext(&context);
  rtcPointQuery(impl_->scene, &query, &context, nullptr, &state);
  return state.best;
}

}  // namespace myriad::crowd
