// Shared by the time-model tests: a small hand-checkable device profile and a path in the
// system's temporary directory.
#pragma once
#include <filesystem>
#include <string>

#include "mmvram/prediction/time_model.hpp"

namespace mt {

// Four classes with round constants (stream: 1 us + 2 bytes per ns), for predictions by hand.
inline mmv::device_profile small_profile() {
  mmv::device_profile p;
  p.device = "test GPU";
  p.date = "2026-11-23";
  p.backend = "cuda";
  p.classes["stream"] = {1000, 0.5, 0, 0, 0, 1};  // 1 us + 2 bytes per ns
  p.classes["mmu-word/s4"] = {2000, 0.25, 0.01, 0, 0, 1};
  p.classes["mmu-word/s16"] = {9000, 0.25, 0.01, 0, 0, 1};
  p.classes["gather"] = {3000, 1.0, 0, 0, 0, 1};
  return p;
}

inline std::string temp_path(const char* name) { return (std::filesystem::temp_directory_path() / name).string(); }

}  // namespace mt
