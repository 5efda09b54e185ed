#pragma once
// Opcode names as neuron-profile writes them ("MATMUL", "TENSOR_TENSOR") -> the NTFF opcode byte that
// ntffOpcodeName gives that name. Shared by the readers that take instruction rows with opcode names
// (neuron-profile's JSON export, Neuron Explorer's Parquet Instruction table), so both give a name the
// same byte; a name the table lacks becomes an NtffProfile::extraOpcodeNames entry in each reader.
#include "io/ntff/ntffprofile.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace lanescope::npjson {

struct NameHash
{
    using is_transparent = void;
    size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>()(s); }
};

using OpcodeTable = std::unordered_map<std::string, uint32_t, NameHash, std::equal_to<>>;

// The names ntffOpcodeName gives the 256 opcode bytes (the first byte of a name given twice).
inline const OpcodeTable &builtinOpcodes()
{
    static const OpcodeTable table = [] {
        OpcodeTable t;
        for (int op = 0; op < 256; ++op)
            t.emplace(std::string(ntffOpcodeName(uint8_t(op))), uint32_t(op));
        return t;
    }();
    return table;
}

} // namespace lanescope::npjson
