#pragma once
// The protobuf metadata message of an NTFF (../shared/docs/ntff.md; no public schema, the field
// numbers are ours): NEFF name, uuid, capture time, runtime / driver / collectives versions, instance
// type, and of the first NeuronCore subgraph its programs (opcodes, notify hints, semaphore fields per
// instruction), runtime blocks, payload sections, DMA queues, memory usage, clocks and total time.
// NtffReader decodes the payload records with what this fills in.
#include "ntffprofile.h"

namespace lanescope {

class ProtobufReader;

class NtffMetadataReader
{
public:
    // Fills `profile` from the metadata message `top` (at kNtffMetadataOffset of the file). Throws
    // ImportError (naming the file and byte) when the message is malformed or has no subgraph; odd
    // but readable content (duplicate programs, extra subgraphs, ...) becomes counted warnings.
    static void read(const ProtobufReader &top, NtffProfile &profile);

private:
    explicit NtffMetadataReader(NtffProfile &profile) : m_profile(profile) {}
    void readMetadata(const ProtobufReader &top);
    void readSubgraph(const ProtobufReader &sg);
    void readProgram(const ProtobufReader &msg);
    void readRuntimeBlocks(const ProtobufReader &msg);
    void readClocks(const ProtobufReader &msg);

    NtffProfile &m_profile;
};

} // namespace lanescope
