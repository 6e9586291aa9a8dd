// Shared libraries the GPU half loads at run time (dlopen) instead of linking them, so a machine
// without them still runs everything else: cuBLAS (the cuda backend's MMU) and NCCL (gpu/multi).
#pragma once
#include <string>

namespace mmv::gpu::runtime {

// Whether a loaded library's symbols serve libraries loaded after it (RTLD_GLOBAL) or not
// (RTLD_LOCAL).
enum class symbols { local, global };

// Opens the shared library `name` (e.g. "libcublas.so.13") with RTLD_NOW, trying in order: the
// file named by the environment variable `env_override` (when given, set and non-empty), `name`
// on the loader's search path, and `name` in libcudart's directory (where the toolkit's own
// libraries lie). Returns the handle (never closed). Throws cuda_error("cannot load <name> (or
// set <env_override> to its path): <dlerror() of each attempt, joined by "; ">") when none opens.
void* load_library(const std::string& name, symbols visibility, const char* env_override = nullptr);

}  // namespace mmv::gpu::runtime
