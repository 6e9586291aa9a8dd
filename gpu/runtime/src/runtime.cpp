// The CUDA runtime layer's host code (include/mmvram/gpu/runtime/).
#include <mutex>
#include <new>
#include <utility>
#include <vector>

#include "mmvram/gpu/runtime/buffer.hpp"
#include "mmvram/gpu/runtime/device.hpp"
#include "mmvram/gpu/runtime/error.hpp"
#include "mmvram/gpu/runtime/stream.hpp"

namespace mmv::gpu::runtime {

device_buffer::device_buffer(std::size_t bytes) : bytes_(bytes) {
  if (bytes == 0) return;
  const cudaError_t e = cudaMalloc(&ptr_, bytes);
  if (e != cudaSuccess) {
    ptr_ = nullptr;
    check(e, "cudaMalloc(" + std::to_string(bytes) + " bytes)");
  }
}

device_buffer::device_buffer(device_buffer&& o) noexcept
    : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}

device_buffer& device_buffer::operator=(device_buffer&& o) noexcept {
  if (this != &o) {
    if (ptr_ != nullptr) cudaFree(ptr_);
    ptr_ = std::exchange(o.ptr_, nullptr);
    bytes_ = std::exchange(o.bytes_, 0);
  }
  return *this;
}

device_buffer::~device_buffer() {
  if (ptr_ != nullptr) cudaFree(ptr_);
}

host_buffer::host_buffer(std::size_t bytes, pinning p) {
  if (bytes == 0) bytes = 1;
  if (p == pinning::always) {
    check(cudaMallocHost(&ptr_, bytes), "cudaMallocHost");
    pinned_ = true;
    return;
  }
  if (bytes >= (std::size_t{64} << 20)) {  // small buffers: pinning costs more than it saves
    if (cudaMallocHost(&ptr_, bytes) == cudaSuccess) {
      pinned_ = true;
      return;
    }
    cudaGetLastError();
  }
  ptr_ = ::operator new(bytes);
}

host_buffer::~host_buffer() {
  if (pinned_) cudaFreeHost(ptr_);
  else ::operator delete(ptr_);
}

void throw_if_context_lost(std::string_view what) {
  const cudaError_t sticky = cudaDeviceSynchronize();
  if (sticky != cudaSuccess)
    throw cuda_error("CUDA context lost after " + std::string(what) + ": " + cudaGetErrorString(sticky));
  cudaGetLastError();
}

stream::stream() { check(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags"); }
stream::~stream() {
  cudaStreamSynchronize(s_);
  cudaStreamDestroy(s_);
}
void stream::synchronize() const { check(cudaStreamSynchronize(s_), "cudaStreamSynchronize"); }

event_timer::event_timer() {
  check(cudaEventCreate(&begin_), "cudaEventCreate");
  check(cudaEventCreate(&end_), "cudaEventCreate");
}
event_timer::~event_timer() {
  cudaEventDestroy(begin_);
  cudaEventDestroy(end_);
}
void event_timer::start(cudaStream_t s) { check(cudaEventRecord(begin_, s), "cudaEventRecord"); }
void event_timer::stop(cudaStream_t s) { check(cudaEventRecord(end_, s), "cudaEventRecord"); }
float event_timer::elapsed_ms() {
  check(cudaEventSynchronize(end_), "cudaEventSynchronize");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, begin_, end_), "cudaEventElapsedTime");
  return ms;
}

bool current_device(device_info& info, std::string& why) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    why = e != cudaSuccess ? std::string("cudaGetDeviceCount: ") + cudaGetErrorString(e)
                           : std::string("cudaGetDeviceCount returned 0");
    return false;
  }
  cudaDeviceProp p{};
  if (cudaGetDevice(&info.index) != cudaSuccess || cudaGetDeviceProperties(&p, info.index) != cudaSuccess) {
    why = "cudaGetDeviceProperties failed";
    return false;
  }
  info.name = p.name;
  info.sm_count = p.multiProcessorCount;
  info.cc_major = p.major;
  info.cc_minor = p.minor;
  info.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
  info.memory_bytes = p.totalGlobalMem;
  if (cudaDeviceGetAttribute(&info.sm_clock_khz, cudaDevAttrClockRate, info.index) != cudaSuccess) info.sm_clock_khz = 0;
  cudaRuntimeGetVersion(&info.runtime_version);
  cudaDriverGetVersion(&info.driver_version);
  return true;
}

device_info require_device() {
  device_info dev;
  std::string why;
  if (!current_device(dev, why)) throw cuda_error("no CUDA device: " + why);
  return dev;
}

std::string cuda_version_string(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

std::size_t free_device_bytes() {
  std::size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) != cudaSuccess) return 0;
  return free;
}

int sm_count() {
  static std::mutex lock;
  static std::vector<int> counts;  // per device index; 0: not read yet
  int dev = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  std::lock_guard<std::mutex> guard(lock);
  if (counts.size() <= std::size_t(dev)) counts.resize(std::size_t(dev) + 1, 0);
  if (counts[std::size_t(dev)] == 0)
    check(cudaDeviceGetAttribute(&counts[std::size_t(dev)], cudaDevAttrMultiProcessorCount, dev),
          "cudaDeviceGetAttribute(multiProcessorCount)");
  return counts[std::size_t(dev)];
}

}  // namespace mmv::gpu::runtime
