#pragma once
// Opcode byte -> name, learned from a neuron-profile JSON export of the same program as an NTFF. The
// NTFF carries only the opcode byte of each instruction (ntff.md section 6); the built-in table
// (ntffOpcodeName) names the 15 bytes seen so far and shows the others as "op 0x41". The JSON's
// instruction rows carry the name neuron-profile gives, with the row's engine (subgroup) and pc; the
// NTFF's program for that engine holds the byte at that pc.
//
// Same program, checked before anything is learned (README, "opcode names"):
//   1. identity: the JSON's neff_header uuid equals the NTFF's uuid; where either lacks one, the
//      JSON's profile_info.ntff_filename has the NTFF's file name;
//   2. instruction stream: every JSON row's pc lies inside the NTFF's program for its engine, and on
//      the rows whose byte the built-in table names, the names agree (at most 1 % may differ).
// A byte the JSON names two ways is not learned (counted in conflicts()).
#include "ntffprofile.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

class OpcodeNameTable
{
public:
    static constexpr double kMaxDisagreement = 0.01; // of the rows both sources name

    // An empty table, and `whyNot` says why, when the two are not the same program.
    // `ntffFileName`: the NTFF's file name (for the identity rule without uuids); may be empty.
    static OpcodeNameTable learn(const NtffProfile &ntff, const NtffProfile &json, const std::string &ntffFileName,
                                 std::string *whyNot = nullptr);

    bool empty() const { return m_named == 0; }
    std::string_view name(uint8_t opcode) const { return m_names[opcode]; } // empty: not named
    size_t namedCount() const { return m_named; }
    size_t conflicts() const { return m_conflicts; }
    size_t rowsCompared() const { return m_compared; }   // JSON rows matched to a byte
    size_t rowsAgreeing() const { return m_agreeing; }   // ... whose byte the built-in table names alike
    size_t rowsDisagreeing() const { return m_disagreeing; }
    // The bytes this table names that the built-in table does not know, ascending.
    std::vector<uint8_t> newNames() const;

    // Gives each row of `ntff` whose byte the built-in table does not know the learned name (through
    // extraOpcodeNames; the byte itself is kept). Returns the number of rows renamed.
    size_t apply(NtffProfile &ntff) const;

private:
    std::array<std::string, 256> m_names;
    std::array<bool, 256> m_conflict{};
    size_t m_named = 0, m_conflicts = 0, m_compared = 0, m_agreeing = 0, m_disagreeing = 0;
};

} // namespace lanescope
