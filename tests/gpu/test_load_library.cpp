// runtime::load_library (gpu/runtime/library.hpp), which opens cuBLAS and NCCL at run time: by
// the override variable first, then by name, with an error naming every attempt. No device is
// needed (libcudart is loaded, not initialised).
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cstdlib>
#include <string>

#include "catch.hpp"
#include "mmvram/gpu/runtime/error.hpp"
#include "mmvram/gpu/runtime/library.hpp"

namespace {

namespace runtime = mmv::gpu::runtime;

constexpr const char* missing = "libmmvram_no_such_library.so.1";
constexpr const char* variable = "MMVRAM_TEST_LOAD_LIBRARY";

// The file libcudart was loaded from (a library that surely exists, outside the test's own name).
std::string cudart_path() {
  Dl_info info{};
  REQUIRE(dladdr(reinterpret_cast<void*>(&cudaGetDeviceCount), &info) != 0);
  return info.dli_fname;
}

// The message of the cuda_error load_library throws, or "" when it returns.
std::string failure(const char* name, const char* env) {
  try {
    (void)runtime::load_library(name, runtime::symbols::local, env);
  } catch (const mmv::gpu::cuda_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("load_library opens a library by name and refuses a missing one, naming each attempt", "[runtime]") {
  unsetenv(variable);
  void* h = runtime::load_library("libm.so.6", runtime::symbols::local);
  REQUIRE(h != nullptr);
  CHECK(dlsym(h, "cos") != nullptr);
  const std::string plain = failure(missing, nullptr);
  CHECK(plain.rfind(std::string("cannot load ") + missing + ": ", 0) == 0);
  CHECK(plain.find("; ") != std::string::npos);  // by name, then beside libcudart
  CHECK(plain.find(" or set ") == std::string::npos);
  CHECK(failure(missing, variable).find(std::string("(or set ") + variable + " to its path)") != std::string::npos);
}

TEST_CASE("load_library tries the override variable's file first, and skips it when empty", "[runtime]") {
  setenv(variable, cudart_path().c_str(), 1);
  void* h = runtime::load_library(missing, runtime::symbols::global, variable);
  REQUIRE(h != nullptr);
  CHECK(dlsym(h, "cudaGetDeviceCount") != nullptr);
  setenv(variable, "/nonexistent/libmmvram_override.so", 1);
  const std::string both = failure(missing, variable);
  CHECK(both.find("/nonexistent/libmmvram_override.so") < both.find(missing, both.find(": ")));
  CHECK(runtime::load_library("libm.so.6", runtime::symbols::local, variable) != nullptr);  // falls back to the name
  setenv(variable, "", 1);  // ignored: the same two attempts as without the variable
  const std::string empty = failure(missing, variable), plain = failure(missing, nullptr);
  CHECK(empty.substr(empty.find(": ")) == plain.substr(plain.find(": ")));
  unsetenv(variable);
}
