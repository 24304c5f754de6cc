#include "myriad/gpu/device/context.hpp"

#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/memory/buffer_guards.hpp"
#include "myriad/gpu/memory/command_memory.hpp"
#include "myriad/gpu/memory/staging_ring.hpp"
#include "myriad/gpu/memory/upload_queue.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace myriad::gpu {
namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";
constexpr const char* kNoDriverHint =
    "install a Vulkan 1.3 driver: 'apt-get install mesa-vulkan-drivers' gives the CPU renderer "
    "(lavapipe); on a GPU machine install its vendor's Vulkan driver";

int type_rank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return 3;
    default:
      return 4;
  }
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

std::vector<VkPhysicalDevice> physical_devices(VkInstance instance) {
  std::uint32_t count = 0;
  check(vkEnumeratePhysicalDevices(instance, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> devices(count);
  check(vkEnumeratePhysicalDevices(instance, &count, devices.data()), "vkEnumeratePhysicalDevices");
  return devices;
}

// Names of required (and extra-required) features the device lacks.
std::vector<std::string> missing_features(VkPhysicalDevice device, const DeviceCapabilities& caps,
                                          const std::vector<std::string>& extra) {
  std::vector<std::string> missing;
  if (VK_API_VERSION_MINOR(caps.properties.apiVersion) < 3 &&
      VK_API_VERSION_MAJOR(caps.properties.apiVersion) == 1) {
    missing.emplace_back("Vulkan 1.3");
    return missing;
  }
  FeatureChain supported;
  vkGetPhysicalDeviceFeatures2(device, &supported.core);
  for (const FeatureInfo& f : required_features()) {
    if (!feature_supported(f.name, supported, caps)) missing.emplace_back(f.name);
  }
  for (const std::string& name : extra) {
    if (!feature_supported(name.c_str(), supported, caps)) missing.push_back(name);
  }
  return missing;
}

// The first queue family with graphics and compute: the one queue Myriad uses.
std::optional<std::uint32_t> graphics_compute_family(VkPhysicalDevice device) {
  std::uint32_t families = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device, &families, nullptr);
  std::vector<VkQueueFamilyProperties> fams(families);
  vkGetPhysicalDeviceQueueFamilyProperties(device, &families, fams.data());
  for (std::uint32_t i = 0; i < families; ++i) {
    if ((fams[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) && (fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT)) return i;
  }
  return std::nullopt;
}

// What keeps a device from presenting to a window (empty when it can, or when not asked to).
std::vector<std::string> missing_presentation(VkInstance instance, VkPhysicalDevice device,
                                              const DeviceCapabilities& caps, const ContextOptions& options) {
  std::vector<std::string> missing;
  if (!options.presentation) return missing;
  if (std::find(caps.extensions.begin(), caps.extensions.end(), VK_KHR_SWAPCHAIN_EXTENSION_NAME) ==
      caps.extensions.end()) {
    missing.emplace_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
  }
  const std::optional<std::uint32_t> family = graphics_compute_family(device);
  if (options.can_present && family && !options.can_present(instance, device, *family)) {
    missing.emplace_back("presentation to this window system from the graphics queue");
  }
  return missing;
}

// Warnings and errors of every type, delivered to Context::debug_callback with `user`.
VkDebugUtilsMessengerCreateInfoEXT messenger_info(void* user, PFN_vkDebugUtilsMessengerCallbackEXT callback) {
  VkDebugUtilsMessengerCreateInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  info.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  info.pfnUserCallback = callback;
  info.pUserData = user;
  return info;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

}  // namespace

const char* device_type_name(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return "CPU";
    default:
      return "other";
  }
}

bool Context::pretends_missing(std::string_view feature) const {
  return std::find(pretend_missing_.begin(), pretend_missing_.end(), feature) != pretend_missing_.end();
}

ContextOptions ContextOptions::from_environment() {
  ContextOptions o;
  if (const char* v = std::getenv("MYRIAD_VALIDATION")) o.validation = std::strcmp(v, "1") == 0;
  o.buffer_guards = o.validation;
  if (const char* v = std::getenv("MYRIAD_BUFFER_GUARDS")) o.buffer_guards = std::strcmp(v, "1") == 0;
  if (const char* d = std::getenv("MYRIAD_DEVICE")) o.device = d;
  if (const char* v = std::getenv("MYRIAD_COMMAND_ARENA")) o.command_arena = std::strcmp(v, "0") != 0;
  if (const char* v = std::getenv("MYRIAD_PRETEND_MISSING")) {
    for (std::string_view rest = v; !rest.empty();) {
      const std::size_t comma = rest.find(',');
      const std::string_view name = rest.substr(0, comma);
      if (!name.empty()) o.pretend_missing.emplace_back(name);
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
  }
  return o;
}

// The copies an open upload batch has queued, and the staging memory they read: chunks filled in
// order (an upload larger than a chunk gets one of its own).
struct Context::UploadBatch {
  static constexpr VkDeviceSize kChunkBytes = 16ull << 20;
  std::vector<Buffer> chunks;     // filled in order; the last one is open
  VkDeviceSize chunk_used = 0;    // bytes used in the open chunk
  std::vector<Buffer> dedicated;  // uploads larger than a chunk
  std::vector<std::function<void(VkCommandBuffer)>> copies;

  // After the queued copies completed: the newest chunk is reused, everything else freed.
  void recycle() {
    dedicated.clear();
    if (chunks.size() > 1) chunks.erase(chunks.begin(), chunks.end() - 1);
    chunk_used = 0;
  }
};

void ContextOptions::validate() const {
  for (const std::string& name : extra_required) {
    if (!is_known_feature(name)) {
      throw Error("unknown Vulkan feature '" + name + "'", "ContextOptions::extra_required",
                  "use a feature name `myriad info` lists");
    }
  }
  for (const std::string& name : pretend_missing) {
    if (!is_known_feature(name)) {
      throw Error("unknown Vulkan feature '" + name + "'",
                  "ContextOptions::pretend_missing (MYRIAD_PRETEND_MISSING)",
                  "use a feature name `myriad info` lists");
    }
  }
  if (staging_ring_bytes == 0)
    throw Error("the staging ring needs bytes", "ContextOptions::staging_ring_bytes",
                "the default is 128 MiB");
  if (staging_frame_budget == 0 || staging_frame_budget > staging_ring_bytes)
    throw Error("the staging frame budget must be 1 to " + std::to_string(staging_ring_bytes) +
                    " bytes (the staging ring's size)",
                "ContextOptions::staging_frame_budget", "the default is 16 MiB");
}

Context::Context(const ContextOptions& options)
    : pretend_missing_(options.pretend_missing),
      command_arena_(options.command_arena),
      ring_capacity_(options.staging_ring_bytes),
      ring_frame_budget_(options.staging_frame_budget) {
  options.validate();
  try {
    create_instance(options);
    choose_device(options);
    create_device(options);
    if (options.buffer_guards) guards_ = std::make_unique<BufferGuards>(*this);
  } catch (...) {
    destroy();
    throw;
  }
}

Context::Context(const ExternalDevice& device, const ContextOptions& options)
    : pretend_missing_(options.pretend_missing),
      command_arena_(options.command_arena),
      ring_capacity_(options.staging_ring_bytes),
      ring_frame_budget_(options.staging_frame_budget) {
  options.validate();
  owns_device_ = false;
  const std::vector<std::string> missing = missing_for_external_device(device);
  if (!missing.empty()) {
    throw Error("the application's Vulkan device lacks what Myriad needs: " + join(missing),
                "gpu::ExternalDevice",
                "create the device with these features and extensions enabled (see `myriad info` or "
                "gpu::required_features())");
  }
  try {
    adopt_device(device);
    if (options.buffer_guards) guards_ = std::make_unique<BufferGuards>(*this);
  } catch (...) {
    destroy();
    throw;
  }
}

void Context::adopt_device(const ExternalDevice& device) {
  instance_ = device.instance;
  physical_ = device.physical_device;
  device_ = device.device;
  queue_ = device.queue;
  queue_family_ = device.queue_family;
  caps_ = read_capabilities(physical_);
  device_name_ = caps_.properties.deviceName;
  presentation_ = std::find(device.enabled_extensions.begin(), device.enabled_extensions.end(),
                            VK_KHR_SWAPCHAIN_EXTENSION_NAME) != device.enabled_extensions.end();
  if (device.count_validation_messages) {
    validation_ = true;
    create_messenger();
  }
  cmd_push_descriptor_set = reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(
      vkGetDeviceProcAddr(device_, "vkCmdPushDescriptorSetKHR"));
  if (!cmd_push_descriptor_set) throw Error("vkCmdPushDescriptorSetKHR is unavailable", device_name_);
  FeatureChain supported;
  vkGetPhysicalDeviceFeatures2(physical_, &supported.core);
  timestamps_ = feature_supported("timestamps", supported, caps_);
  create_pool_and_fence();
}

void Context::create_messenger() {
  auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
  if (!create) {
    throw Error("vkCreateDebugUtilsMessengerEXT is unavailable", "validation messages",
                "enable VK_EXT_debug_utils on the instance");
  }
  const VkDebugUtilsMessengerCreateInfoEXT info = messenger_info(this, &Context::debug_callback);
  check(create(instance_, &info, nullptr, &messenger_), "vkCreateDebugUtilsMessengerEXT");
}

void Context::create_pool_and_fence() {
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT | VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pool_info.queueFamilyIndex = queue_family_;
  if (command_arena_) command_memory_ = std::make_unique<CommandMemory>();
  check(vkCreateCommandPool(device_, &pool_info, pool_callbacks(), &pool_), "vkCreateCommandPool");
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  check(vkCreateFence(device_, &fence_info, nullptr, &fence_), "vkCreateFence");
}

const VkAllocationCallbacks* Context::pool_callbacks() const {
  return command_memory_ ? command_memory_->callbacks() : nullptr;
}

Context::~Context() { destroy(); }

void Context::destroy() noexcept {
  if (device_) {
    // An adopted device may be busy with the application's other work: wait for Myriad's queue only.
    if (owns_device_) {
      vkDeviceWaitIdle(device_);
    } else if (queue_) {
      vkQueueWaitIdle(queue_);
    }
    batch_.reset();
    uploads_.reset();
    ring_.reset();
    guards_.reset();
    if (fence_) vkDestroyFence(device_, fence_, nullptr);
    if (pool_) vkDestroyCommandPool(device_, pool_, pool_callbacks());
    if (owns_device_) vkDestroyDevice(device_, nullptr);
    device_ = VK_NULL_HANDLE;
  }
  if (messenger_) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy) destroy(instance_, messenger_, nullptr);
    messenger_ = VK_NULL_HANDLE;
  }
  if (instance_) {
    if (owns_device_) vkDestroyInstance(instance_, nullptr);
    instance_ = VK_NULL_HANDLE;
  }
}

void Context::create_instance(const ContextOptions& options) {
  const bool validation = options.validation;
  std::uint32_t version = 0;
  if (vkEnumerateInstanceVersion(&version) != VK_SUCCESS || version < VK_API_VERSION_1_3) {
    throw Error("the Vulkan loader does not offer Vulkan 1.3", "",
                "install libvulkan1 from Debian 12 or newer");
  }
  std::vector<const char*> layers;
  std::vector<const char*> extensions;
  if (validation) {
    std::uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, nullptr);
    std::vector<VkLayerProperties> props(count);
    vkEnumerateInstanceLayerProperties(&count, props.data());
    const bool found = std::any_of(props.begin(), props.end(), [](const VkLayerProperties& p) {
      return std::strcmp(p.layerName, kValidationLayer) == 0;
    });
    if (!found) {
      throw Error(
          "validation requested (MYRIAD_VALIDATION=1) but VK_LAYER_KHRONOS_validation is not installed", "",
          "apt-get install vulkan-validationlayers");
    }
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  }
  validation_ = validation;
  if (!options.instance_extensions.empty()) {
    std::uint32_t count = 0;
    vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> props(count);
    vkEnumerateInstanceExtensionProperties(nullptr, &count, props.data());
    for (const std::string& name : options.instance_extensions) {
      const bool found = std::any_of(props.begin(), props.end(),
                                     [&](const VkExtensionProperties& p) { return name == p.extensionName; });
      if (!found) {
        throw Error("the Vulkan loader lacks the instance extension " + name + " needed to open a window", "",
                    "install a Vulkan driver with window-system support (mesa-vulkan-drivers)");
      }
      extensions.push_back(name.c_str());
    }
  }

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "myriad";
  app.pEngineName = "myriad";
  app.apiVersion = VK_API_VERSION_1_3;

  const VkValidationFeatureEnableEXT enables[] = {
      VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = enables;

  VkDebugUtilsMessengerCreateInfoEXT messenger = messenger_info(this, &Context::debug_callback);
  if (validation) {
    features.pNext = &messenger;
  }

  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pNext = validation ? &features : nullptr;
  info.pApplicationInfo = &app;
  info.enabledLayerCount = std::uint32_t(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = std::uint32_t(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  const VkResult r = vkCreateInstance(&info, nullptr, &instance_);
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER) throw Error("no Vulkan driver found", "", kNoDriverHint);
  check(r, "vkCreateInstance");

  if (validation) create_messenger();
}

void Context::choose_device(const ContextOptions& options) {
  const std::vector<VkPhysicalDevice> devices = physical_devices(instance_);
  if (devices.empty()) throw Error("no Vulkan device found", "", kNoDriverHint);

  std::vector<std::size_t> order(devices.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::vector<DeviceCapabilities> caps;
  for (VkPhysicalDevice d : devices) caps.push_back(read_capabilities(d));

  if (!options.device.empty()) {
    // MYRIAD_DEVICE: an index into enumeration order, or a case-insensitive name substring.
    const std::string want = lower(options.device);
    std::vector<std::size_t> matches;
    char* end = nullptr;
    const unsigned long index = std::strtoul(want.c_str(), &end, 10);
    if (end && *end == '\0' && index < devices.size()) {
      matches.push_back(index);
    } else {
      for (std::size_t i = 0; i < devices.size(); ++i) {
        if (lower(caps[i].properties.deviceName).find(want) != std::string::npos) matches.push_back(i);
      }
    }
    if (matches.empty()) {
      std::string names;
      for (std::size_t i = 0; i < devices.size(); ++i) {
        names += (i ? ", " : "") + std::to_string(i) + ": " + caps[i].properties.deviceName;
      }
      throw Error("no Vulkan device matches '" + options.device + "'", "MYRIAD_DEVICE",
                  "available: " + names);
    }
    order = matches;
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return type_rank(caps[a].properties.deviceType) < type_rank(caps[b].properties.deviceType);
  });

  for (std::size_t i : order) {
    if (missing_features(devices[i], caps[i], options.extra_required).empty() &&
        missing_presentation(instance_, devices[i], caps[i], options).empty()) {
      physical_ = devices[i];
      caps_ = std::move(caps[i]);
      device_name_ = caps_.properties.deviceName;
      return;
    }
  }
  const std::size_t best = order.front();
  std::vector<std::string> missing = missing_features(devices[best], caps[best], options.extra_required);
  if (missing.empty()) {
    throw Error(std::string("Vulkan device '") + caps[best].properties.deviceName +
                    "' cannot present to a window: it lacks " +
                    join(missing_presentation(instance_, devices[best], caps[best], options)),
                "device selection", "run headless (`myriad render`) or use a device that can present");
  }
  throw Error(std::string("Vulkan device '") + caps[best].properties.deviceName +
                  "' lacks required features: " + join(missing),
              "device selection", "use a Vulkan 1.3 device with these features (see `myriad info`)");
}

void Context::create_device(const ContextOptions& options) {
  const std::optional<std::uint32_t> family = graphics_compute_family(physical_);
  if (!family) throw Error("the Vulkan device has no graphics+compute queue", device_name_);
  queue_family_ = *family;

  FeatureChain enabled;
  std::vector<const char*> extensions;
  for (const FeatureInfo& f : required_features()) {
    if (f.kind == FeatureKind::kExtension) extensions.push_back(f.name);
    if (f.kind == FeatureKind::kFeature) enable_feature(f.name, enabled);
  }
  for (const std::string& name : options.extra_required) enable_feature(name.c_str(), enabled);
  if (options.presentation) extensions.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
  presentation_ = options.presentation;

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;

  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.pNext = &enabled.core;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue_info;
  info.enabledExtensionCount = std::uint32_t(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  check(vkCreateDevice(physical_, &info, nullptr, &device_), "vkCreateDevice");
  vkGetDeviceQueue(device_, queue_family_, 0, &queue_);

  cmd_push_descriptor_set = reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(
      vkGetDeviceProcAddr(device_, "vkCmdPushDescriptorSetKHR"));
  if (!cmd_push_descriptor_set) throw Error("vkCmdPushDescriptorSetKHR is unavailable", device_name_);

  FeatureChain supported;
  vkGetPhysicalDeviceFeatures2(physical_, &supported.core);
  timestamps_ = feature_supported("timestamps", supported, caps_);

  create_pool_and_fence();
}

void Context::begin_upload_batch() {
  if (batch_depth_++ == 0) batch_ = std::make_unique<UploadBatch>();
}

void Context::end_upload_batch() {
  if (batch_depth_ == 0) throw Error("end_upload_batch without begin_upload_batch", "gpu::Context");
  if (--batch_depth_ > 0) return;
  if (!batch_->copies.empty()) submit_and_wait([](VkCommandBuffer) {});
  batch_.reset();
}

void Context::abandon_upload_batch() noexcept {
  batch_depth_ = 0;
  batch_.reset();
}

void Context::submit_upload(std::span<const std::byte> bytes,
                            std::function<void(VkCommandBuffer, VkBuffer, VkDeviceSize)> record) {
  if (!batch_) {
    Buffer staging(*this, bytes.size(), 0, MemoryKind::kUpload);
    std::memcpy(staging.mapped(), bytes.data(), bytes.size());
    staging.flush();
    submit_and_wait([&](VkCommandBuffer cmd) { record(cmd, staging.handle(), 0); });
    return;
  }
  UploadBatch& b = *batch_;
  const VkDeviceSize size = bytes.size();
  Buffer* chunk = nullptr;
  VkDeviceSize at = 0;
  if (size > UploadBatch::kChunkBytes) {
    b.dedicated.emplace_back(*this, size, 0, MemoryKind::kUpload);
    chunk = &b.dedicated.back();
  } else {
    at = (b.chunk_used + 15) & ~VkDeviceSize(15);
    if (b.chunks.empty() || at + size > UploadBatch::kChunkBytes) {
      b.chunks.emplace_back(*this, UploadBatch::kChunkBytes, 0, MemoryKind::kUpload);
      at = 0;
    }
    chunk = &b.chunks.back();
    b.chunk_used = at + size;
  }
  std::memcpy(static_cast<std::byte*>(chunk->mapped()) + at, bytes.data(), size);
  chunk->flush();
  b.copies.push_back([record = std::move(record), buffer = chunk->handle(), at](VkCommandBuffer cmd) {
    record(cmd, buffer, at);
  });
}

StagingRing& Context::staging_ring() {
  if (!ring_) ring_ = std::make_unique<StagingRing>(*this, ring_capacity_, ring_frame_budget_);
  return *ring_;
}

UploadQueue& Context::uploads() {
  if (!uploads_) uploads_ = std::make_unique<UploadQueue>(staging_ring());
  return *uploads_;
}

void Context::submit_and_wait(const std::function<void(VkCommandBuffer)>& record) {
  if (recording_)
    throw Error("submit_and_wait called while recording another submission (setup inside a frame)");
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = pool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  check(vkAllocateCommandBuffers(device_, &alloc, &cmd), "vkAllocateCommandBuffers");
  struct Free {
    VkDevice device;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    ~Free() { vkFreeCommandBuffers(device, pool, 1, &cmd); }
  } free_on_exit{device_, pool_, cmd};

  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
  // The recorded commands' host memory comes from the pool's arena until the recording ends (closed
  // before the command buffer is freed, on every path).
  struct Open {
    CommandMemory* memory;
    explicit Open(CommandMemory* m) : memory(m) {
      if (memory) memory->open();
    }
    ~Open() {
      if (memory) memory->close();
    }
  } open{command_memory_.get()};
  record_guard_fills(cmd);
  // An open upload batch's copies first: the work below may need them.
  std::vector<std::function<void(VkCommandBuffer)>> queued;
  if (batch_) queued.swap(batch_->copies);
  for (const auto& copy : queued) copy(cmd);
  {
    struct Recording {
      bool& flag;
      ~Recording() { flag = false; }
    } recording{recording_ = true};
    record(cmd);
  }
  record_guard_copies(cmd);
  check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");

  VkCommandBufferSubmitInfo cmd_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
  cmd_info.commandBuffer = cmd;
  VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
  submit.commandBufferInfoCount = 1;
  submit.pCommandBufferInfos = &cmd_info;
  check(vkQueueSubmit2(queue_, 1, &submit, fence_), "vkQueueSubmit2");
  check(vkWaitForFences(device_, 1, &fence_, VK_TRUE, UINT64_MAX), "vkWaitForFences");
  check(vkResetFences(device_, 1, &fence_), "vkResetFences");
  ++submits_;
  // The queued copies' staging is free again.
  if (batch_ && !queued.empty()) batch_->recycle();
  if (ring_) ring_->complete_all();
  check_guards();
}

void Context::record_guard_fills(VkCommandBuffer cmd) {
  if (guards_) guards_->record_fills(cmd);
}

void Context::record_guard_copies(VkCommandBuffer cmd) {
  if (guards_) guards_->record_copies(cmd);
}

void Context::check_guards() {
  if (!guards_) return;
  for (std::string& m : guards_->compare()) {
    std::fprintf(stderr, "validation error: %s\n", m.c_str());
    add_message("validation error: " + m);
  }
}

void Context::add_message(std::string text) {
  {
    std::lock_guard lock(messages_mutex_);
    if (messages_.size() < 64) messages_.push_back(std::move(text));
  }
  message_count_.fetch_add(1);
}

std::vector<std::string> Context::validation_messages() const {
  std::lock_guard lock(messages_mutex_);
  return messages_;
}

void Context::reset_validation_messages() {
  std::lock_guard lock(messages_mutex_);
  messages_.clear();
  message_count_ = 0;
}

VKAPI_ATTR VkBool32 VKAPI_CALL Context::debug_callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                       VkDebugUtilsMessageTypeFlagsEXT,
                                                       const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                       void* user) {
  auto* self = static_cast<Context*>(user);
  const char* level = severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning";
  std::string text =
      std::string("validation ") + level + ": " + (data && data->pMessage ? data->pMessage : "");
  std::fprintf(stderr, "%s\n", text.c_str());
  self->add_message(std::move(text));
  return VK_FALSE;
}

std::vector<DeviceSummary> Context::enumerate_devices() {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  const VkResult r = vkCreateInstance(&info, nullptr, &instance);
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER) throw Error("no Vulkan driver found", "", kNoDriverHint);
  check(r, "vkCreateInstance");
  std::vector<DeviceSummary> out;
  try {
    for (VkPhysicalDevice d : physical_devices(instance)) {
      VkPhysicalDeviceProperties p;
      vkGetPhysicalDeviceProperties(d, &p);
      out.push_back({p.deviceName, p.deviceType, p.apiVersion, p.driverVersion});
    }
  } catch (...) {
    vkDestroyInstance(instance, nullptr);
    throw;
  }
  vkDestroyInstance(instance, nullptr);
  return out;
}

}  // namespace myriad::gpu
