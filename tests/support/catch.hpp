// Catch2 shim: the tests compile against Debian's Catch2 2.13 and against Catch2 v3.
#pragma once
#if defined(MMVRAM_CATCH2_V3)
#include <catch2/catch_all.hpp>
#else
#include <catch2/catch.hpp>
#endif
