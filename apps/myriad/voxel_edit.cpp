#include "voxel_edit.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <thread>

#include <nlohmann/json.hpp>

#include "myriad/core/image/image_io.hpp"
#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/gpu/device/context.hpp"
#include "myriad/render/voxel/streamed_voxel_scene.hpp"
#include "myriad/render/voxel/voxel_scene.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/edit/edit_script.hpp"
#include "output_path.hpp"
#include "render_streamed_voxel.hpp"

namespace myriad::app {
namespace {

// Frames an edit may take to become visible before the command gives up on it.
constexpr std::uint32_t kMaxFramesPerEdit = 2000;
// The small frames between the two images carry the uploads; their pixels are not read.
constexpr std::uint32_t kLoadingWidth = 64, kLoadingHeight = 36;

struct EditFigures {
  std::uint64_t sections_remeshed = 0, sections_uploaded = 0;
  double frame_thread_ms = 0.0;
  std::uint32_t frames_to_visible = 0;
};

// A view from above and in front of the edited cells, far enough to see them all and their surroundings
// (heights counted from the surface resolved against `cells`, as the world is before the edits).
render::SceneCamera edits_camera(const std::vector<voxel::VoxelEdit>& edits, const voxel::PickCells& cells) {
  glm::vec3 lo(std::numeric_limits<float>::max()), hi(std::numeric_limits<float>::lowest());
  for (const voxel::VoxelEdit& e : edits) {
    const glm::vec3 p(voxel::resolve_surface(e, cells).cell);
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  hi += glm::vec3(1.0f);
  const glm::vec3 centre = (lo + hi) * 0.5f;
  const float reach = std::max(14.0f, 1.3f * glm::length(hi - lo));
  glm::vec3 eye = centre + glm::vec3(-0.55f, 0.6f, 0.7f) * reach;
  // Above the ground under the eye (and the grass on it), wherever the hills rise.
  const glm::ivec3 below(glm::floor(eye));
  if (below.x >= 0 && below.z >= 0 && below.x < cells.size.x && below.z < cells.size.z) {
    voxel::VoxelEdit probe;
    probe.cell = {below.x, 0, below.z};
    probe.from_surface = true;
    eye.y = std::max(eye.y, float(voxel::resolve_surface(probe, cells).cell.y) + 5.0f);
  }
  return render::SceneCamera::look_at(eye, centre, glm::radians(55.0f));
}

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

// Edits with a ~N height are checked in x and z here, in y once resolved (apply_edit).
void check_inside(const std::vector<voxel::VoxelEdit>& edits, glm::ivec3 size, const std::string& script) {
  for (const voxel::VoxelEdit& e : edits)
    if (e.cell.x < 0 || e.cell.z < 0 || e.cell.x >= size.x || e.cell.z >= size.z ||
        (!e.from_surface && (e.cell.y < 0 || e.cell.y >= size.y)))
      throw Error("the edit '" + voxel::describe_edit(e) + "' is outside the " + std::to_string(size.x) +
                      " x " + std::to_string(size.y) + " x " + std::to_string(size.z) + " world",
                  script + ":" + std::to_string(e.line), "use cells 0 <= x, y, z < the world's size");
}

// Resolves a ~N height and applies the edit; errors name the script's line.
template <class Apply>
auto apply_edit(const voxel::VoxelEdit& e, const voxel::PickCells& cells, const std::string& script,
                Apply apply) {
  try {
    return apply(voxel::resolve_surface(e, cells));
  } catch (const Error& error) {
    throw Error(error.problem(), script + ":" + std::to_string(e.line), error.hint());
  }
}

void write_image(const std::filesystem::path& png, std::uint32_t w, std::uint32_t h,
                 const std::vector<std::uint8_t>& rgba) {
  write_png_rgba8(png, w, h, rgba);
  std::printf("wrote %s\n", png.string().c_str());
}

// The fixed world: each edit re-meshes its sections on this thread; frames follow until nothing is queued.
std::vector<EditFigures> edit_fixed(gpu::Context& ctx, const VoxelEditCommand& o,
                                    const std::vector<voxel::VoxelEdit>& edits) {
  render::VoxelSceneOptions options;
  options.seed = o.seed;
  options.size = {o.size[0], o.size[1], o.size[2]};
  options.width = o.width;
  options.height = o.height;
  render::FixedVoxelScene scene(ctx, options);
  const voxel::PickCells cells = voxel::pick_cells(scene.world());
  const render::SceneCamera camera = edits_camera(edits, cells);
  const std::filesystem::path out(o.out);
  write_image(out / "voxel_edit_before.png", o.width, o.height,
              scene.render("before", camera, o.width, o.height).rgba);
  std::vector<EditFigures> figures;
  for (const voxel::VoxelEdit& e : edits) {
    const render::FixedWorldEditor::Outcome r =
        apply_edit(e, cells, o.script, [&](const voxel::VoxelEdit& at) { return scene.edit(at); });
    EditFigures f;
    f.sections_remeshed = r.sections.size();
    f.sections_uploaded = r.uploaded;
    f.frame_thread_ms = r.cpu_ms;
    do {
      scene.render("edit", camera, kLoadingWidth, kLoadingHeight, false);
      ++f.frames_to_visible;
    } while (scene.uploads_pending() && f.frames_to_visible < kMaxFramesPerEdit);
    figures.push_back(f);
  }
  write_image(out / "voxel_edit_after.png", o.width, o.height,
              scene.render("after", camera, o.width, o.height).rgba);
  return figures;
}

// The streamed world: each edit goes to the stream; frames (update, record) follow until the stream has
// relit and re-meshed what it changed and the frames have uploaded it.
std::vector<EditFigures> edit_streamed(gpu::Context& ctx, const VoxelEditCommand& o,
                                       const render::StreamedVoxelSceneOptions& options,
                                       const std::vector<voxel::VoxelEdit>& edits,
                                       const render::SceneCamera& first_camera) {
  render::StreamedVoxelScene scene(ctx, options);
  render::OffscreenTarget target(ctx, o.width, o.height);
  render::OffscreenTarget loading(ctx, kLoadingWidth, kLoadingHeight);
  const std::filesystem::path out(o.out);
  // Streamed in around a first view, the surface heights are known and the view can frame the edits.
  stream_in(ctx, scene, first_camera, target, loading);
  const voxel::PickCells cells = voxel::pick_cells(scene.world());
  const render::SceneCamera camera = edits_camera(edits, cells);
  stream_in(ctx, scene, camera, target, loading);
  write_image(out / "voxel_edit_before.png", o.width, o.height, target.read_color());
  std::vector<EditFigures> figures;
  const render::FrameOptions settings;
  for (const voxel::VoxelEdit& e : edits) {
    const render::VoxelEditStats before = scene.edit_stats();
    apply_edit(e, cells, o.script, [&](const voxel::VoxelEdit& at) {
      scene.edit(at);
      return 0;
    });
    EditFigures f;
    f.frame_thread_ms = scene.edit_stats().last_cpu_ms;
    while (scene.edit_stats().waiting && f.frames_to_visible < kMaxFramesPerEdit) {
      scene.update(1.0 / 60.0, camera, kLoadingWidth, kLoadingHeight, settings);
      f.frame_thread_ms += scene.stats().cpu_stream_ms + scene.stats().cpu_upload_ms;
      ctx.submit_and_wait([&](VkCommandBuffer cmd) { scene.record(cmd, settings, loading); });
      scene.finish_frame();
      ++f.frames_to_visible;
      // Frames at a steady pace: the workers relight and re-mesh between them.
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    f.sections_remeshed = scene.edit_stats().sections_remeshed - before.sections_remeshed;
    f.sections_uploaded = scene.edit_stats().sections_uploaded - before.sections_uploaded;
    figures.push_back(f);
  }
  stream_in(ctx, scene, camera, target, loading);
  write_image(out / "voxel_edit_after.png", o.width, o.height, target.read_color());
  if (!o.save_dir.empty()) {
    const int written = scene.world().save_all();
    std::printf("saved %d edited columns to %s\n", written, o.save_dir.c_str());
  }
  return figures;
}

}  // namespace

int run_voxel_edit(const VoxelEditCommand& o) {
  const std::vector<voxel::VoxelEdit> edits = voxel::read_edit_script(o.script);
  if (edits.empty())
    throw Error("the edit script holds no edits", o.script, "one edit per line: dig X Y Z or place X Y Z");
  const bool streamed = o.world_size > 0;
  if (!streamed && !o.save_dir.empty())
    throw Error("only a streamed world has a save directory", "--save", "add --world-size N");
  if (o.size.size() != 3) throw Error("--size takes X Y Z", "--size");
  const glm::ivec3 size = streamed ? glm::ivec3(int(o.world_size), kStreamedWorldHeight, int(o.world_size))
                                   : glm::ivec3(o.size[0], o.size[1], o.size[2]);
  if (!streamed) render::check_voxel_world_size(size, "--size");
  // Everything is checked before the GPU starts: the script, every edit's cell, the streamed radius.
  check_inside(edits, size, o.script);
  // Before the world exists: heights from the surface are taken as half the world's height.
  voxel::PickCells unknown{size, [](glm::ivec3, std::uint8_t& material, std::uint8_t& form) {
                             material = voxel::kStone;
                             form = voxel::kFormFull;
                             return voxel::CellLookup::kCell;
                           }};
  unknown.size.y = size.y / 2;
  const render::SceneCamera camera = edits_camera(edits, unknown);
  render::StreamedVoxelSceneOptions streamed_options;
  if (streamed) {
    streamed_options = streamed_scene_options(o.world_size, o.seed, o.stream_radius, o.save_dir);
    const glm::ivec2 eye_column(glm::floor(glm::vec2(camera.eye.x, camera.eye.z) / 16.0f));
    for (const voxel::VoxelEdit& e : edits) {
      const glm::ivec2 d = glm::abs(glm::ivec2(e.cell.x >> 4, e.cell.z >> 4) - eye_column);
      if (std::max(d.x, d.y) > o.stream_radius - 1)
        throw Error("the edit '" + voxel::describe_edit(e) + "' lies " + std::to_string(std::max(d.x, d.y)) +
                        " columns from the view of the edits, beyond the streamed radius",
                    o.script + ":" + std::to_string(e.line),
                    "keep a script's edits close together, or raise --stream-radius (now " +
                        std::to_string(o.stream_radius) + ")");
    }
    if (!o.save_dir.empty()) prepare_output_folder(o.save_dir, "--save");
  }
  prepare_output_folder(o.out, "--out");

  gpu::Context ctx;
  std::printf("%zu edits from %s on the %s world\n", edits.size(), o.script.c_str(),
              streamed ? "streamed" : "fixed");
  const std::vector<EditFigures> figures =
      streamed ? edit_streamed(ctx, o, streamed_options, edits, camera) : edit_fixed(ctx, o, edits);

  nlohmann::ordered_json json;
  json["script"] = o.script;
  json["world"] = streamed ? "streamed" : "fixed";
  json["world_size"] = {size.x, size.y, size.z};
  json["edits"] = edits.size();
  std::uint64_t remeshed = 0, uploaded = 0;
  std::uint32_t max_frames = 0;
  std::vector<double> ms, frames;
  for (std::size_t i = 0; i < edits.size(); ++i) {
    const EditFigures& f = figures[i];
    remeshed += f.sections_remeshed;
    uploaded += f.sections_uploaded;
    max_frames = std::max(max_frames, f.frames_to_visible);
    ms.push_back(f.frame_thread_ms);
    frames.push_back(double(f.frames_to_visible));
    json["per_edit"].push_back({{"line", edits[i].line},
                                {"edit", voxel::describe_edit(edits[i])},
                                {"sections_remeshed", f.sections_remeshed},
                                {"sections_uploaded", f.sections_uploaded},
                                {"frame_thread_ms", f.frame_thread_ms},
                                {"frames_to_visible", f.frames_to_visible}});
  }
  json["sections_remeshed"] = remeshed;
  json["sections_uploaded"] = uploaded;
  json["frame_thread_ms_median"] = median(ms);
  json["frame_thread_ms_max"] = *std::max_element(ms.begin(), ms.end());
  json["frames_to_visible_median"] = median(frames);
  json["frames_to_visible_max"] = max_frames;
  const std::string text = json.dump(1);
  write_file_atomic(std::filesystem::path(o.out) / "voxel_edit.json",
                    std::as_bytes(std::span(text.data(), text.size())));
  std::printf(
      "%zu edits: %llu sections re-meshed, %llu uploaded; frame thread %.2f ms median per edit, "
      "visible after %.0f frames (median, at most %u)\n",
      edits.size(), static_cast<unsigned long long>(remeshed), static_cast<unsigned long long>(uploaded),
      median(ms), median(frames), max_frames);
  if (max_frames >= kMaxFramesPerEdit) {
    std::fprintf(stderr, "myriad: an edit was not visible after %u frames\n", kMaxFramesPerEdit);
    return 1;
  }
  if (ctx.validation_message_count() > 0) {
    std::fprintf(stderr, "myriad: %u validation messages\n", ctx.validation_message_count());
    return 1;
  }
  return 0;
}

}  // namespace myriad::app
