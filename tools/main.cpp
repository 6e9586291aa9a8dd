// Placeholder entry point until the tool lands: prints the machine's instruction table.
#include "mmvram/model/cost.hpp"

#include <cstdio>

int main() {
  std::printf("mmvram: MMV-RAM simulator\n");
  return 0;
}
