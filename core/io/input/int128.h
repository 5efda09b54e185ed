#pragma once
// 128-bit intermediates (GCC/Clang extension) without -Wpedantic noise.
namespace lanescope {
__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;
} // namespace lanescope
