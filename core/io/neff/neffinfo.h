#pragma once
// Plain data read from a NEFF (AWS Neuron compiled program, ../shared/docs/formats.md section 3):
// the 1024-byte header, the payload check, the tar member list and, per subgraph (sgNN/), the
// variables, DMA queues, DMA blocks and engine files. Produced by NeffReader; consumed by the CLI,
// NEFF<->NTFF pairing (uuid) and the NTFF view (queue names, semaphore names, variable names).
// Nothing here is decoded from the instruction streams (*.bin): their encoding is not public.
#include "model/diagnostics.h"
#include "neffdebuginfo.h"
#include "util/textutil.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

struct NeffHeader
{
    uint64_t pkgVersion = 0;                // @0: 1 or 2
    uint64_t headerSize = 0;                // @8: 1024
    uint64_t dataSize = 0;                  // @16: payload bytes after the header
    uint64_t versionMajor = 0;              // @24
    uint64_t versionMinor = 0;              // @32
    std::string buildVersion;               // @40, 128 bytes, NUL-terminated (empty in every corpus file)
    uint32_t tpbCount = 0;                  // @168: NeuronCores (TPBs) required
    std::array<uint8_t, 32> hash{};         // @172
    std::array<uint8_t, 16> uuid{};         // @204: the same bytes are in the paired NTFF (protobuf field 2)
    std::string networkName;                // @220, 256 bytes, NUL-terminated
    uint32_t requestedCoreCount = 0;        // @476
    std::array<uint8_t, 64> coresPerNode{}; // @480, raw; in the corpus one byte per node, equal to
                                            // info.json num_tpb_per_node
    uint64_t featureBits = 0;               // @544: names not public, shown raw
    uint32_t lncSize = 0;                   // @552: logical NeuronCore size

    std::string hashHex() const { return text::hex(hash.data(), hash.size()); }
    std::string uuidHex() const { return text::hex(uuid.data(), uuid.size()); } // 32 lowercase hex digits
    std::string uuidDashed() const // 8-4-4-4-12
    {
        const std::string h = uuidHex();
        return h.substr(0, 8) + '-' + h.substr(8, 4) + '-' + h.substr(12, 4) + '-' + h.substr(16, 4) + '-' +
               h.substr(20);
    }
    std::string coresPerNodeHex() const { return text::hex(coresPerNode.data(), coresPerNode.size()); }
    std::string featureBitsHex() const // "0x209c00"
    {
        std::string s;
        uint64_t v = featureBits;
        do {
            s.insert(s.begin(), "0123456789abcdef"[v & 15]);
            v >>= 4;
        } while (v);
        return "0x" + s;
    }
};

enum class NeffPayloadCompression : uint8_t { Gzip, Tar };

// pkg_version 2: the first 16 hash bytes are the MD5 of the payload. Every corpus file stores the
// digest as four 32-bit words with the bytes of each word reversed (md5 c4 66 c7 2b .. is stored as
// 2b c7 66 c4 ..); the plain byte order is accepted too.
enum class NeffMd5Check : uint8_t {
    NotApplicable, // pkg_version 1, or the payload was not hashed
    Ok,
    Mismatch, // a warning, not an error
};

enum class NeffMd5Layout : uint8_t { None, WordSwapped, Plain };

enum class NeffEngine : uint8_t { Tensor, Scalar, GpSimd, Vector, Sync, Unknown };

inline std::string_view neffEngineName(NeffEngine e)
{
    switch (e) {
    case NeffEngine::Tensor: return "Tensor";
    case NeffEngine::Scalar: return "Scalar";
    case NeffEngine::GpSimd: return "GpSimd";
    case NeffEngine::Vector: return "Vector";
    case NeffEngine::Sync: return "Sync";
    case NeffEngine::Unknown: break;
    }
    return "unknown";
}

// Engine named by a file stem or def.json key, case-insensitively: pe/act/pool/dve/sp,
// Activation/DVE/Pool/..., Tensor/Scalar/GpSimd/Vector/Sync. Unknown when none matches.
inline NeffEngine neffEngineFromName(std::string_view name)
{
    std::string n(name);
    for (char &c : n)
        c = (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
    if (n == "pe" || n == "tensor" || n == "tensore" || n == "tensormatrix")
        return NeffEngine::Tensor;
    if (n == "act" || n == "activation" || n == "scalar" || n == "scalare")
        return NeffEngine::Scalar;
    if (n == "pool" || n == "gpsimd" || n == "gpsimde")
        return NeffEngine::GpSimd;
    if (n == "dve" || n == "vector" || n == "vectore")
        return NeffEngine::Vector;
    if (n == "sp" || n == "sync" || n == "synce")
        return NeffEngine::Sync;
    return NeffEngine::Unknown;
}

enum class NeffMemberType : uint8_t { File, Directory, Symlink, Hardlink, Other };

struct NeffMember
{
    std::string name;
    uint64_t size = 0; // as the tar header says
    NeffMemberType type = NeffMemberType::File;
    bool unsafeName = false; // absolute path or a ".." component: listed, never written
};

enum class NeffVariableKind : uint8_t { Input, Output, Weight, State, Other };

inline std::string_view neffVariableKindName(NeffVariableKind k)
{
    switch (k) {
    case NeffVariableKind::Input: return "input";
    case NeffVariableKind::Output: return "output";
    case NeffVariableKind::Weight: return "weight";
    case NeffVariableKind::State: return "state";
    case NeffVariableKind::Other: break;
    }
    return "other";
}

// def.json "type" -> kind: a "file" variable is a constant loaded from an .npy member (a weight);
// state-buffer (the on-chip SBUF), virtual and dge-table are Other.
inline NeffVariableKind neffVariableKindFromType(std::string_view type)
{
    if (type == "input")
        return NeffVariableKind::Input;
    if (type == "output")
        return NeffVariableKind::Output;
    if (type == "file" || type == "weight" || type == "const")
        return NeffVariableKind::Weight;
    if (type == "state")
        return NeffVariableKind::State;
    return NeffVariableKind::Other;
}

// One entry of def.json "var". `type` is the compiler's word: input, output, file (a constant
// loaded from an .npy member: kind Weight), state (kind State), state-buffer / virtual / dge-table
// (kind Other).
struct NeffVariable
{
    std::string name;
    std::string type;
    NeffVariableKind kind = NeffVariableKind::Other;
    int64_t varId = -1;
    bool hasSize = false;
    uint64_t size = 0;          // bytes
    std::string fileName;       // "file" variables: the .npy member in the subgraph folder
    std::string dtype;          // from tensor_map.json when it names this variable
    std::vector<int64_t> shape; // from tensor_map.json (tf_shape)
};

// One entry of def.json "dma_queue", with totals over the DMA blocks of the engine JSON files
// that name this queue.
struct NeffDmaQueue
{
    std::string name;  // e.g. qSPIO0
    std::string owner; // engine key: sp, pool, act, ...
    std::string type;  // in, data, dynamic, ...
    std::string fabricPath;
    int64_t numQueues = -1;
    std::vector<int64_t> semaphores; // semaphore_set: S[n] belongs to this queue
    uint64_t blockCount = 0;
    uint64_t readBytes = 0;  // sum over descriptors of the product of from_sizes
    uint64_t writeBytes = 0; // sum over descriptors of the product of to_sizes
};

// One entry of an engine JSON "dma" array (a DMA block the engine triggers).
struct NeffDmaBlock
{
    NeffEngine engine = NeffEngine::Unknown;
    int64_t id = -1;
    std::string queue;
    int64_t semaphore = -1;
    std::string comment; // "#comment", e.g. I-4-0-block-1
    uint32_t descriptorCount = 0;
    std::string from; // variable names of the first descriptor
    std::string to;
    uint64_t readBytes = 0;
    uint64_t writeBytes = 0;
};

// A member of sgNN/ that belongs to an engine: its descriptor JSON, its instruction stream (.bin)
// or its debug info (.dbg, protobuf without a public schema).
enum class NeffEngineFileRole : uint8_t { Descriptors, Instructions, DebugInfo };

struct NeffEngineFile
{
    std::string name; // path inside the tar, e.g. sg00/PE.bin
    uint64_t size = 0;
    NeffEngine engine = NeffEngine::Unknown;
    NeffEngineFileRole role = NeffEngineFileRole::Descriptors;
    uint64_t dmaBlockCount = 0; // Descriptors only
};

struct NeffBinFile
{
    std::string name;
    uint64_t size = 0;
    NeffEngine engine = NeffEngine::Unknown; // Unknown: a table (default_*_table.bin, ...), not a stream
};

struct NeffSubgraph
{
    std::string name;           // sg00
    std::string definition;     // sgNN/def.json (from kelf-*.json when listed there)
    bool hasDefinition = false; // def.json was found and parsed
    std::string defVersion;
    std::vector<NeffVariable> variables;
    std::vector<NeffDmaQueue> dmaQueues;
    std::vector<NeffDmaBlock> dmaBlocks;
    std::vector<NeffEngineFile> engineFiles;
    std::vector<NeffBinFile> binFiles;

    const NeffVariable *variable(std::string_view n) const
    {
        for (const auto &v : variables)
            if (v.name == n)
                return &v;
        return nullptr;
    }
    const NeffDmaQueue *queue(std::string_view n) const
    {
        for (const auto &q : dmaQueues)
            if (q.name == n)
                return &q;
        return nullptr;
    }
    // What queue `n` moves: "<from type>-><to type>" (def.json variable types, e.g.
    // "input->state-buffer") of its DMA blocks carrying the most bytes; empty without blocks.
    std::string queueTraffic(std::string_view n) const
    {
        std::vector<std::pair<std::string, uint64_t>> byPair;
        for (const auto &b : dmaBlocks) {
            if (b.queue != n)
                continue;
            const NeffVariable *from = variable(b.from), *to = variable(b.to);
            const std::string pair = (from ? from->type : std::string("?")) + "->" + (to ? to->type : std::string("?"));
            auto it = std::find_if(byPair.begin(), byPair.end(), [&](const auto &e) { return e.first == pair; });
            if (it == byPair.end())
                byPair.emplace_back(pair, b.readBytes);
            else
                it->second += b.readBytes;
        }
        auto best = std::max_element(byPair.begin(), byPair.end(), [](const auto &a, const auto &b) { return a.second < b.second; });
        return best == byPair.end() ? std::string() : best->first;
    }
    // The queue whose semaphore_set holds semaphore `id` (for "S[8] (qSPIO0)" display names).
    const NeffDmaQueue *queueForSemaphore(int64_t id) const
    {
        for (const auto &q : dmaQueues)
            for (int64_t s : q.semaphores)
                if (s == id)
                    return &q;
        return nullptr;
    }
};

// hlo_stats.json (XLA-built NEFFs only; docs/neff.md): the compiler's whole-program estimate. Its
// HloMacCount counts the multiply-accumulates of the program's dots / convolutions once per
// execution, so the model FLOPs of one execution are 2 x HloMacCount (ArithmeticIntensity =
// 2 x HloMacCount / Traffic in every corpus file). Elementwise ops and reductions count 0 MACs.
struct NeffHloStats
{
    bool present = false;      // the member exists and parsed as a JSON object
    int64_t macCount = -1;     // HloMacCount, -1 = missing or not a whole number >= 0
    int64_t traffic = -1;      // Traffic (bytes), -1 = missing
    double arithmeticIntensity = -1; // -1 = missing

    bool hasMacCount() const { return present && macCount >= 0; }
    double modelFlops() const { return 2.0 * double(macCount); } // per execution; valid when hasMacCount()
};

struct NeffInfo
{
    std::string file; // path or name given to the reader
    uint64_t fileSize = 0;
    NeffHeader header;

    NeffPayloadCompression compression = NeffPayloadCompression::Gzip;
    uint64_t tarBytes = 0; // decompressed bytes walked
    bool complete = false; // the whole tar was read up to its end marker

    NeffMd5Check md5 = NeffMd5Check::NotApplicable;
    NeffMd5Layout md5Layout = NeffMd5Layout::None;
    std::string md5Hex; // the digest computed over the payload (plain byte order)

    std::string compilerVersion; // info.json tool_version
    std::string target;          // kelf-*.json target: sunda (Trn1/Inf2), cayman (Trn2), ...
    std::string kelfVersion;
    int64_t infoTpbCount = -1; // info.json num_tpb

    std::vector<NeffMember> members; // in tar order
    std::vector<NeffSubgraph> subgraphs;
    bool hasKernelDebugInfo = false; // kernel_debug_info.json (NKI source mapping) is a member
    uint64_t kernelDebugInfoSize = 0;
    NeffHloStats hloStats; // hlo_stats.json; a member that does not parse is a warning naming it
    // Per subgraph, per engine instruction: its BIR instruction, Penguin op, HLO op and framework
    // scope (neffdebuginfo.h); empty when the NEFF has no debug members.
    std::vector<NeffSubgraphDebug> debug;

    Diagnostics diagnostics;

    const NeffSubgraph *subgraph(std::string_view n) const
    {
        for (const auto &s : subgraphs)
            if (s.name == n)
                return &s;
        return nullptr;
    }
    const NeffMember *member(std::string_view n) const
    {
        for (const auto &m : members)
            if (m.name == n)
                return &m;
        return nullptr;
    }
};

} // namespace lanescope
