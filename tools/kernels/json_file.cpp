#include "json_file.hpp"

#include <ctime>

#include "build_info.hpp"
#include "output.hpp"  // tools/output.hpp: write_output_file, the tool's one checked write

namespace mmv::tool::kernels {

void write_json_file(const std::string& path, const json& doc) {
  json stamped = doc;
  if (stamped.is_object()) {
    stamped["commit"] = build_commit();
    stamped["commit_dirty"] = build_dirty();
  }
  // The project's JSON text: two-space indent, bytes that are not UTF-8 written as U+FFFD (as the
  // run report and the device profile are written), so a stray byte never aborts the write.
  tool::write_output_file(path, stamped.dump(2, ' ', false, json::error_handler_t::replace) + '\n',
                          "the JSON file '" + path + "'");
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace mmv::tool::kernels
