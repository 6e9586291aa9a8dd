// PyTorch binding of the state propagation (gpu/kernels/include/mmvram/gpu/state_passing.hpp): torch
// tensors in, the kernels on PyTorch's current stream. Built by mmvram_torch/__init__.py with
// torch.utils.cpp_extension against the PyTorch that imports it.
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/extension.h>

#include <optional>

#include "mmvram/gpu/state_passing.hpp"

namespace {

using mmv::gpu::decay_layout;
using mmv::gpu::state_passing_method;
using mmv::gpu::state_passing_shape;

// local [G, H, N, V] contiguous; log_decay [G, H, N] (per_row, rows contiguous) or [G, H]
// (per_head, any strides: mamba's [H, G] transposed view works as is).
state_passing_shape shape_of(const torch::Tensor& local, const torch::Tensor& log_decay, bool per_row) {
  TORCH_CHECK(local.dim() == 4 && local.is_contiguous(), "local must be a contiguous [G, H, N, V] tensor");
  TORCH_CHECK(local.is_cuda() && log_decay.device() == local.device(), "local and log_decay on one CUDA device");
  TORCH_CHECK(log_decay.dim() == (per_row ? 3 : 2), "log_decay must be [G, H, N] (per_row) or [G, H] (per_head)");
  TORCH_CHECK(log_decay.size(0) == local.size(0) && log_decay.size(1) == local.size(1), "log_decay's G, H differ");
  if (per_row) TORCH_CHECK(log_decay.size(2) == local.size(2) && log_decay.stride(2) == 1, "per-row decays [G, H, N], rows contiguous");
  state_passing_shape s;
  s.chunks = local.size(0);
  s.heads = int(local.size(1));
  s.rows = int(local.size(2));
  s.cols = int(local.size(3));
  s.decay = per_row ? decay_layout::per_row : decay_layout::per_head;
  s.chunk_stride = log_decay.stride(0);
  s.head_stride = log_decay.stride(1);
  return s;
}

const std::uint8_t* starts_of(const std::optional<torch::Tensor>& starts, const torch::Tensor& local) {
  if (!starts) return nullptr;
  TORCH_CHECK(starts->scalar_type() == torch::kUInt8 && starts->is_contiguous() && starts->numel() == local.size(0),
              "starts must be a contiguous uint8 tensor of G entries");
  TORCH_CHECK(starts->device() == local.device(), "starts must be on local's device");
  return starts->data_ptr<std::uint8_t>();
}

torch::Tensor forward(torch::Tensor local, torch::Tensor log_decay, std::optional<torch::Tensor> starts,
                      std::int64_t method, bool per_row) {
  const auto s = shape_of(local, log_decay, per_row);
  TORCH_CHECK(method >= 0 && method <= 2, "method must be 0 (cuda_core), 1 (tensor_core) or 2 (speculative)");
  const auto m = static_cast<state_passing_method>(method);
  const c10::cuda::OptionalCUDAGuard guard(local.device());
  const auto stream = at::cuda::getCurrentCUDAStream(local.device().index()).stream();
  const auto* st = starts_of(starts, local);
  if (local.scalar_type() == torch::kDouble) {
    TORCH_CHECK(log_decay.scalar_type() == torch::kDouble, "float64 local needs float64 log_decay");
    auto out = torch::empty_like(local);
    mmv::gpu::state_passing(local.data_ptr<double>(), log_decay.data_ptr<double>(), st, out.data_ptr<double>(), s, m, stream);
    return out;
  }
  TORCH_CHECK(log_decay.scalar_type() == torch::kFloat, "log_decay must be float32 for float32/bfloat16 local");
  auto out = torch::empty(local.sizes(), local.options().dtype(torch::kFloat));
  if (local.scalar_type() == torch::kBFloat16)
    mmv::gpu::state_passing(reinterpret_cast<const std::uint16_t*>(local.data_ptr<at::BFloat16>()),
                            log_decay.data_ptr<float>(), st, out.data_ptr<float>(), s, m, stream);
  else {
    TORCH_CHECK(local.scalar_type() == torch::kFloat, "local must be float32, bfloat16 or float64");
    mmv::gpu::state_passing(local.data_ptr<float>(), log_decay.data_ptr<float>(), st, out.data_ptr<float>(), s, m, stream);
  }
  return out;
}

// One warp chain per (sequence, 32 lanes) over chunk_offsets (int64 [S + 1] on the device; their
// values are checked by the Python wrapper: 0 first, G last, non-decreasing).
torch::Tensor per_sequence(torch::Tensor local, torch::Tensor log_decay, torch::Tensor chunk_offsets, bool per_row) {
  const auto s = shape_of(local, log_decay, per_row);
  TORCH_CHECK(local.scalar_type() == torch::kFloat && log_decay.scalar_type() == torch::kFloat, "float32 only");
  TORCH_CHECK(chunk_offsets.scalar_type() == torch::kLong && chunk_offsets.dim() == 1 && chunk_offsets.numel() >= 1 &&
                  chunk_offsets.is_contiguous() && chunk_offsets.device() == local.device(),
              "chunk_offsets must be a contiguous int64 tensor [S + 1] on local's device");
  const c10::cuda::OptionalCUDAGuard guard(local.device());
  auto out = torch::empty_like(local);
  mmv::gpu::state_passing_per_sequence(local.data_ptr<float>(), log_decay.data_ptr<float>(),
                                       chunk_offsets.data_ptr<std::int64_t>(), chunk_offsets.numel() - 1,
                                       out.data_ptr<float>(), s,
                                       at::cuda::getCurrentCUDAStream(local.device().index()).stream());
  return out;
}

}  // namespace

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("forward", &forward, "states h_j of every chunk (state_passing.hpp)");
  m.def("per_sequence", &per_sequence, "the per-sequence grid (float32)");
}
