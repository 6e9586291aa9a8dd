// NCCL, loaded on first use (dlopen) rather than at program start: `mmvram` links gpu/multi, and
// a machine without NCCL must still run everything else. Only the nine entry points used here.
#pragma once
#include <nccl.h>

namespace mmv::gpu::multi {

struct nccl_library {
  decltype(&ncclCommInitAll) comm_init_all;
  decltype(&ncclCommDestroy) comm_destroy;
  decltype(&ncclCommCount) comm_count;
  decltype(&ncclCommUserRank) comm_user_rank;
  decltype(&ncclCommCuDevice) comm_cu_device;
  decltype(&ncclAllGather) all_gather;
  decltype(&ncclGroupStart) group_start;
  decltype(&ncclGroupEnd) group_end;
  decltype(&ncclGetErrorString) error_string;
};

// Loads the library named by $MMVRAM_NCCL_LIBRARY, else libnccl.so.2 from the loader's paths or
// beside libcudart, once per process; throws cuda_error naming what is missing.
const nccl_library& nccl();

}  // namespace mmv::gpu::multi
