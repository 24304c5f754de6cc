// The Vulkan 1.3 context every GPU module works on: instance, physical device, device, one queue for
// graphics, compute and transfer, a command pool, and submit-and-wait for setup uploads, tests and tools.
// Either Myriad creates them (headless: the validation layer when asked, the physical device chosen
// discrete > integrated > virtual > CPU, or MYRIAD_DEVICE), or an application hands over its own
// (ExternalDevice: bring your own device; Myriad checks the features it needs and owns none of it).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "myriad/gpu/device/features.hpp"
#include "myriad/gpu/device/vk.hpp"

namespace myriad::gpu {

class BufferGuards;
class CommandMemory;
class StagingRing;
class UploadQueue;

struct ContextOptions {
  // Khronos validation layer with synchronization validation. Default: the MYRIAD_VALIDATION
  // environment variable ("1" = on).
  bool validation = false;
  // Guard words past the end of every buffer, checked after each submission (buffer_guards.hpp);
  // damage is reported as a validation message. Default: MYRIAD_BUFFER_GUARDS ("1" on, "0" off),
  // else on exactly when validation is.
  bool buffer_guards = false;
  // Device name substring or index into the list `myriad info` prints. Default: MYRIAD_DEVICE.
  std::string device;
  // Extra features to require (test hook, names as in features.hpp or core feature names).
  std::vector<std::string> extra_required;
  // Features decisions between optional paths treat as missing although the device has them (test
  // hook: compute_culling_support reports them, so `auto` culling takes the CPU path). Names as in
  // features.hpp. Default: MYRIAD_PRETEND_MISSING, comma-separated.
  std::vector<std::string> pretend_missing;
  // Presentation to a window (the viewer): instance extensions the window system needs (surface
  // extensions), and with `presentation` the device must offer VK_KHR_swapchain (enabled) and its
  // queue must pass `can_present` when given. Headless contexts leave these empty.
  std::vector<std::string> instance_extensions;
  bool presentation = false;
  std::function<bool(VkInstance, VkPhysicalDevice, std::uint32_t queue_family)> can_present;
  // The staging ring (Context::staging_ring): its bytes, and what budgeted (streaming) uploads may
  // stage per frame (at most the ring's bytes).
  std::uint64_t staging_ring_bytes = 128ull << 20;
  std::uint64_t staging_frame_budget = 16ull << 20;
  // Myriad's command pool allocates recorded commands' host memory from an arena (command_memory.hpp).
  // Off: the driver's own allocator. Default: MYRIAD_COMMAND_ARENA ("0" off), else on.
  bool command_arena = true;

  static ContextOptions from_environment();

  // Throws myriad::Error naming the first invalid field (both constructors call it).
  void validate() const;
};

// An application's own Vulkan objects, handed to Myriad (Context(const ExternalDevice&, ...)).
// Myriad takes no ownership: it never destroys them. It makes its own command pool and fence on
// `device` for setup uploads (submit_and_wait), and submits those to `queue`; the application must not
// use that queue from another thread while a Myriad call runs (queues are externally synchronised).
struct ExternalDevice {
  VkInstance instance = VK_NULL_HANDLE;
  // The apiVersion the application gave VkApplicationInfo (Myriad's shaders need 1.3).
  std::uint32_t instance_api_version = 0;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  // A queue of `queue_family`, which must support graphics and compute.
  VkQueue queue = VK_NULL_HANDLE;
  std::uint32_t queue_family = 0;
  // What the application enabled at vkCreateDevice, checked against what Myriad needs (an error names
  // every missing feature and extension): the VkDeviceCreateInfo::pNext chain it passed (any of
  // VkPhysicalDeviceFeatures2, VkPhysicalDeviceVulkan11/12/13Features and the per-feature structs
  // promoted into them), VkDeviceCreateInfo::pEnabledFeatures when it used that instead, and the
  // enabled device extensions.
  const void* enabled_features_chain = nullptr;
  const VkPhysicalDeviceFeatures* enabled_core_features = nullptr;
  std::vector<std::string> enabled_extensions;
  // When the instance has VK_EXT_debug_utils enabled (with the validation layer): Myriad adds a
  // messenger of its own so validation_message_count() counts messages, as for its own contexts.
  bool count_validation_messages = false;
};

// The device features and extensions Myriad needs that `device` lacks (empty when it can be adopted),
// as the Context constructor checks them; names as in the Vulkan spec.
std::vector<std::string> missing_for_external_device(const ExternalDevice& device);

struct DeviceSummary {
  std::string name;
  VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
  std::uint32_t api_version = 0;
  std::uint32_t driver_version = 0;
};

class Context {
 public:
  explicit Context(const ContextOptions& options = ContextOptions::from_environment());
  // Over an application's instance, device and queue (see ExternalDevice). Of `options` only the
  // buffer guards, staging ring sizes and pretend_missing apply. Throws an Error naming every missing
  // feature. Destroy the Context (and every Myriad object made with it) only after the application's work
  // that uses them has completed; the destructor waits for `queue` to be idle and destroys only
  // Myriad's own pool, fence and messenger.
  Context(const ExternalDevice& device, const ContextOptions& options);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  VkInstance instance() const { return instance_; }
  VkPhysicalDevice physical_device() const { return physical_; }
  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  std::uint32_t queue_family() const { return queue_family_; }
  const DeviceCapabilities& capabilities() const { return caps_; }
  const VkPhysicalDeviceLimits& limits() const { return caps_.properties.limits; }
  const std::string& device_name() const { return device_name_; }
  bool is_cpu_device() const { return caps_.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU; }
  bool has_timestamps() const { return timestamps_; }
  bool validation_enabled() const { return validation_; }
  bool presentation_enabled() const { return presentation_; }
  // False for a Context over an application's device (ExternalDevice).
  bool owns_device() const { return owns_device_; }
  // ContextOptions::pretend_missing names `feature`.
  bool pretends_missing(std::string_view feature) const;

  // Records `record` into a fresh command buffer, submits it and waits for completion. Copies queued
  // by an open upload batch go first, in the same command buffer. Afterwards everything staged in the
  // staging ring before is free again (all recorded work that read it has completed).
  // Throws when called from inside another submit_and_wait's `record`: a submission nested in a
  // recording runs before the outer one and waits inside the frame (and sees guard words the outer
  // command buffer has not written yet); setup belongs outside, or in the open command buffer.
  void submit_and_wait(const std::function<void(VkCommandBuffer)>& record);
  // Submissions so far: each submit_and_wait (an upload batch's is one) counts one.
  std::uint64_t submit_count() const { return submits_; }

  // Setup uploads in one submission. Between begin_upload_batch() and end_upload_batch() (nested
  // pairs join the outermost), gpu::upload and gpu::upload_image stage their bytes and queue their
  // copies instead of each submitting and waiting; end_upload_batch() submits them all at once. Work
  // that needs the uploads (any submit_and_wait) takes the queued copies first. The destination
  // buffers and images must live until the batch is submitted. abandon_upload_batch() drops what is
  // queued (error paths).
  void begin_upload_batch();
  void end_upload_batch();
  void abandon_upload_batch() noexcept;
  bool upload_batch_open() const { return batch_depth_ > 0; }
  // For upload functions: stages `bytes` and runs `record(cmd, staging buffer, offset)` with the open
  // batch, or at once in a submit_and_wait.
  void submit_upload(std::span<const std::byte> bytes,
                     std::function<void(VkCommandBuffer, VkBuffer, VkDeviceSize)> record);

  // The per-frame upload path (staging_ring.hpp), made on first use with the sizes ContextOptions
  // gives. Allocate from it only while recording the command buffer that reads the allocation.
  StagingRing& staging_ring();
  // The frame's upload queue over the staging ring (upload_queue.hpp): every system stages its
  // per-frame and streamed data through it under a named share of the frame budget.
  UploadQueue& uploads();

  // Buffer guards (null when off). Code that submits its own command buffers (the viewer) brackets
  // each with record_guard_fills / record_guard_copies and calls check_guards once it completed;
  // submit_and_wait does all three itself.
  BufferGuards* buffer_guards() const { return guards_.get(); }
  // The host memory of Myriad's command pool (command_memory.hpp), whose arena serves submit_and_wait's
  // recordings; null with ContextOptions::command_arena off.
  const CommandMemory* command_memory() const { return command_memory_.get(); }
  void record_guard_fills(VkCommandBuffer cmd);
  void record_guard_copies(VkCommandBuffer cmd);
  void check_guards();

  // Validation messages (warnings and errors) seen since creation or the last reset.
  std::uint32_t validation_message_count() const { return message_count_.load(); }
  std::vector<std::string> validation_messages() const;
  void reset_validation_messages();

  // Function pointers of extensions Myriad uses.
  PFN_vkCmdPushDescriptorSetKHR cmd_push_descriptor_set = nullptr;

  // Devices the loader reports, in enumeration order (what MYRIAD_DEVICE indexes).
  static std::vector<DeviceSummary> enumerate_devices();

 private:
  static VKAPI_ATTR VkBool32 VKAPI_CALL debug_callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                       VkDebugUtilsMessageTypeFlagsEXT types,
                                                       const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                       void* user);
  void create_instance(const ContextOptions& options);
  void choose_device(const ContextOptions& options);
  void create_device(const ContextOptions& options);
  void adopt_device(const ExternalDevice& device);
  void create_messenger();
  void create_pool_and_fence();
  const VkAllocationCallbacks* pool_callbacks() const;  // null: the driver's allocator
  void destroy() noexcept;
  void add_message(std::string text);

  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::uint32_t queue_family_ = 0;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  DeviceCapabilities caps_;
  std::string device_name_;
  bool timestamps_ = false;
  bool validation_ = false;
  bool presentation_ = false;
  bool owns_device_ = true;
  std::vector<std::string> pretend_missing_;

  std::unique_ptr<BufferGuards> guards_;
  bool command_arena_ = true;
  std::unique_ptr<CommandMemory> command_memory_;  // outlives pool_ (destroyed through it)
  struct UploadBatch;
  std::unique_ptr<UploadBatch> batch_;
  int batch_depth_ = 0;
  bool recording_ = false;  // inside submit_and_wait's `record`
  std::uint64_t submits_ = 0;
  std::unique_ptr<StagingRing> ring_;
  std::unique_ptr<UploadQueue> uploads_;
  std::uint64_t ring_capacity_ = 0, ring_frame_budget_ = 0;

  std::atomic<std::uint32_t> message_count_{0};
  mutable std::mutex messages_mutex_;
  std::vector<std::string> messages_;
};

const char* device_type_name(VkPhysicalDeviceType type);

// An upload batch open for a scope (setup code): submit() sends it; leaving the scope without submit()
// (an exception on the way) drops what is queued.
class UploadBatchScope {
 public:
  explicit UploadBatchScope(Context& ctx) : ctx_(ctx) { ctx_.begin_upload_batch(); }
  ~UploadBatchScope() {
    if (open_) ctx_.abandon_upload_batch();
  }
  UploadBatchScope(const UploadBatchScope&) = delete;
  UploadBatchScope& operator=(const UploadBatchScope&) = delete;
  void submit() {
    open_ = false;
    ctx_.end_upload_batch();
  }

 private:
  Context& ctx_;
  bool open_ = true;
};

}  // namespace myriad::gpu
