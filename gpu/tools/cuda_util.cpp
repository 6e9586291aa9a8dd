#include "cuda_util.hpp"

#include <new>
#include <utility>

namespace mmv::gpu::harness {

void cuda_check(cudaError_t e, const std::string& what) {
  if (e != cudaSuccess) throw cuda_error(what + ": " + cudaGetErrorString(e));
}

device_buffer::device_buffer(std::size_t bytes) : bytes_(bytes) {
  if (bytes == 0) return;
  const cudaError_t e = cudaMalloc(&ptr_, bytes);
  if (e != cudaSuccess) {
    cudaGetLastError();  // allocation failures are not sticky; clear them
    ptr_ = nullptr;
    throw cuda_error("cudaMalloc(" + std::to_string(bytes) + " bytes): " + cudaGetErrorString(e));
  }
}

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

host_buffer::host_buffer(std::size_t bytes) {
  if (bytes == 0) bytes = 1;
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

event_timer::event_timer() {
  cuda_check(cudaEventCreate(&begin_), "cudaEventCreate");
  cuda_check(cudaEventCreate(&end_), "cudaEventCreate");
}
event_timer::~event_timer() {
  cudaEventDestroy(begin_);
  cudaEventDestroy(end_);
}
void event_timer::start(cudaStream_t s) { cuda_check(cudaEventRecord(begin_, s), "cudaEventRecord"); }
void event_timer::stop(cudaStream_t s) { cuda_check(cudaEventRecord(end_, s), "cudaEventRecord"); }
float event_timer::elapsed_ms() {
  cuda_check(cudaEventSynchronize(end_), "cudaEventSynchronize");
  float ms = 0;
  cuda_check(cudaEventElapsedTime(&ms, begin_, end_), "cudaEventElapsedTime");
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

std::string cuda_version_string(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

std::size_t free_device_bytes() {
  std::size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) != cudaSuccess) return 0;
  return free;
}

device_info require_device() {
  device_info dev;
  std::string why;
  if (!current_device(dev, why)) throw cuda_error("no CUDA device: " + why);
  return dev;
}

}  // namespace mmv::gpu::harness
