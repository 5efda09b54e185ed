#pragma once
// The protobuf metadata message of an NTFF (docs/ntff.md; no public schema, the field numbers are
// ours): NEFF name, uuid, capture time, runtime / driver / collectives versions, instance type, and of
// each physical core's subgraph (one on inf2 / trn1, two on trn2) its programs (opcodes, notify hints,
// semaphore fields per instruction), runtime blocks, payload sections, DMA queues, memory usage, clocks
// and total time. Version 6 keeps the program bytes in the payload (the subgraph gives offset and size)
// and the section table at the top level (each section tagged with its physical core), and records the
// trace window. NtffReader decodes the payload records with what this fills in.
#include "ntffprofile.h"

#include <string_view>

namespace lanescope {

class ProtobufReader;

class NtffMetadataReader
{
public:
    // Fills `profile` from the metadata message `top` (at kNtffMetadataOffset of the file). Throws
    // ImportError (naming the file and byte) when the message is malformed or has no subgraph; odd
    // but readable content (duplicate programs, extra subgraphs, ...) becomes counted warnings.
    // `payload`: the file's bytes after the metadata (v6 programs live there; may be cut short), starting
    // at file byte `payloadOffset`.
    static void read(const ProtobufReader &top, NtffProfile &profile, std::string_view payload = {}, uint64_t payloadOffset = 0);

private:
    NtffMetadataReader(NtffProfile &profile, std::string_view payload, uint64_t payloadOffset)
        : m_profile(profile), m_payload(payload), m_payloadOffset(payloadOffset)
    {
    }
    void readMetadata(const ProtobufReader &top);
    void readSubgraph(const ProtobufReader &sg, uint8_t core);
    void readTopSections(const ProtobufReader &top);
    void readProgram(const ProtobufReader &msg, uint8_t core);
    void readRuntimeBlocks(const ProtobufReader &msg, uint8_t core);
    void readClocks(const ProtobufReader &msg, uint8_t core);

    NtffProfile &m_profile;
    std::string_view m_payload;
    uint64_t m_payloadOffset = 0;
};

} // namespace lanescope
