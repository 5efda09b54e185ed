#pragma once
// The memory budget every load runs under (LoadOptions::memoryBudget): decompressed text, the parse
// index and the model together stay below it, and going past it is a clear error instead of swapping or
// being killed. 16 GiB unless $LANESCOPE_MEMORY_BUDGET says otherwise ("512M", "8G", "8GiB", "1.5G",
// "1073741824"); `--memory-budget SIZE` of lanescope and lanescope-cli sets that variable.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lanescope {

class MemoryBudget
{
public:
    static constexpr uint64_t kDefault = uint64_t(16) << 30;
    static constexpr const char *kEnvironmentVariable = "LANESCOPE_MEMORY_BUDGET";

    // Bytes for "123", "512K", "512M", "8G", "1T", with an optional "i", "B" or "iB" ("8GiB", "512MB"),
    // binary multiples, fractions allowed ("1.5G"); nothing for anything else, zero, or more than 2^62.
    static std::optional<uint64_t> parse(std::string_view text);
    // The budget from the environment, else kDefault (an unparsable value is ignored).
    static uint64_t fromEnvironment();
    // "1536 MiB", "16 GiB": for messages.
    static std::string format(uint64_t bytes);
    // What every budget message ends with: how to raise it.
    static std::string hint();
    // Throws ImportError(name, 0, ...) when parsing `textBytes` of JSON would go past `budget`: the
    // text plus simdjson's structural index (4 bytes per structural character; on real traces about as
    // large as the text itself, so the estimate is twice the text).
    static void requireForParsing(uint64_t textBytes, const std::string &name, uint64_t budget);
};

} // namespace lanescope
