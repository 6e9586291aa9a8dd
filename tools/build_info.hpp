// The checkout a binary was built from, read by git at build time (tools/build_info.cmake), so
// every result a tool writes can name its commit.
#pragma once

namespace mmv {

// The commit hash of HEAD when the binary was built, or "unknown" outside a git checkout.
const char* build_commit();
// True when the checkout had uncommitted or untracked changes at build time (or no git).
bool build_dirty();

}  // namespace mmv
