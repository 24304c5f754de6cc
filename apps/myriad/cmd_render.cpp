// `myriad render`: renders a scene headless to PNG and writes its stats as JSON in --out.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "myriad/core/binary_io.hpp"
#include "myriad/core/image_io.hpp"
#include "myriad/gpu/context.hpp"
#include "myriad/render/smoke_scene.hpp"

namespace myriad::app {
namespace {

struct RenderOptions {
  std::string scene = "smoke";
  std::string out = "out";
  std::uint32_t width = 1280;
  std::uint32_t height = 720;
};

void write_text(const std::filesystem::path& path, const std::string& text) {
  write_file_atomic(path, std::as_bytes(std::span(text.data(), text.size())));
}

int run_render(const RenderOptions& options) {
  if (options.width == 0 || options.height == 0 || options.width > 16384 || options.height > 16384) {
    throw Error("image size must be between 1 and 16384 pixels per side", "--width/--height");
  }
  std::filesystem::create_directories(options.out);
  std::printf("[1/3] starting Vulkan\n");
  gpu::Context ctx;
  std::printf("      device: %s%s\n", ctx.device_name().c_str(),
              ctx.validation_enabled() ? " (validation on)" : "");

  std::printf("[2/3] rendering scene '%s' at %ux%u\n", options.scene.c_str(), options.width, options.height);
  render::SmokeSceneOptions scene;
  scene.width = options.width;
  scene.height = options.height;
  const render::SmokeSceneResult r = render::render_smoke_scene(ctx, scene);

  std::printf("[3/3] writing results to %s/\n", options.out.c_str());
  const std::filesystem::path png = std::filesystem::path(options.out) / (options.scene + ".png");
  write_png_rgba8(png, r.width, r.height, r.rgba);

  nlohmann::ordered_json stats;
  stats["scene"] = options.scene;
  stats["device"] = ctx.device_name();
  stats["width"] = r.width;
  stats["height"] = r.height;
  stats["instances"] = r.instances;
  stats["visible"] = r.visible;
  stats["culled"] = r.instances - r.visible;
  stats["visible_cpu_reference"] = r.visible_cpu;
  stats["draw_calls"] = r.draw_calls;
  stats["pipeline_binds"] = r.pipeline_binds;
  stats["triangles"] = r.triangles;
  stats["depth_pyramid_levels"] = r.pyramid_levels;
  stats["cpu_record_ms"] = r.record_ms;
  stats["frame_ms"] = r.frame_ms;
  stats["frame_ms_source"] = ctx.is_cpu_device() ? "wall-clock (CPU emulation)" : "wall-clock";
  stats["gpu_timing"] = gpu::timing_source_name(r.timing);
  for (const auto& interval : r.gpu_intervals) stats["gpu_ms"][interval.name] = interval.ms;
  stats["validation_messages"] = ctx.validation_message_count();
  const std::filesystem::path json = std::filesystem::path(options.out) / (options.scene + "_stats.json");
  write_text(json, stats.dump(2) + "\n");

  std::printf("%s\n", stats.dump(2).c_str());
  std::printf("wrote %s and %s\n", png.c_str(), json.c_str());
  if (ctx.validation_message_count() > 0) {
    std::fprintf(stderr, "myriad: %u validation messages\n", ctx.validation_message_count());
    return 3;
  }
  if (r.visible != r.visible_cpu) {
    std::fprintf(stderr, "myriad: GPU culling kept %u instances, the CPU reference %u\n", r.visible,
                 r.visible_cpu);
    return 4;
  }
  return 0;
}

}  // namespace

Command add_render_command(CLI::App& app) {
  auto options = std::make_shared<RenderOptions>();
  CLI::App* sub = app.add_subcommand("render", "Render a scene headless to PNG + stats JSON");
  sub->add_option("--scene", options->scene, "Scene to render")->check(CLI::IsMember({"smoke"}));
  sub->add_option("--out", options->out, "Output folder");
  sub->add_option("--width", options->width, "Image width in pixels");
  sub->add_option("--height", options->height, "Image height in pixels");
  return {sub, [options] { return run_render(*options); }};
}

}  // namespace myriad::app
