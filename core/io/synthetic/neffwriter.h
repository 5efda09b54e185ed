#pragma once
// Writes a valid NEFF (AWS Neuron compiled program, ../shared/docs/formats.md section 3) that
// NeffReader reads back: the 1024-byte header (pkg_version 2 with the payload MD5 stored as the real
// files store it, each 4-byte group reversed; uuid; network name; core counts) and a payload that is
// a gzip'd POSIX tar written in memory with libarchive: neff.json, info.json (tool_version),
// kelf-0.json (target), sg00/def.json (variables, DMA queues, engine files), sg00/tensor_map.json,
// and one descriptor JSON (DMA blocks) plus one instruction stream (.bin) per engine. Nothing here is
// a real compiled program: the instruction streams are placeholders of 64-byte instructions. Used for
// the synthetic sample folder and for tests. The output is deterministic (no times are stored).
#include "io/neff/neffinfo.h"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace lanescope {

class NeffWriter
{
public:
    struct Variable
    {
        std::string name;
        std::string type = "input"; // input, output, file, state, state-buffer, ...
        uint64_t size = 0;          // bytes (omitted for state-buffer)
        std::string dtype;          // tensor_map.json, when set
        std::vector<int64_t> shape;
    };
    struct DmaQueue
    {
        std::string name;         // e.g. qSPIO0
        std::string owner = "sp"; // engine key: sp, pool, act, pe, dve
        std::string type = "in";
        int64_t numQueues = 16;
        std::vector<int64_t> semaphores; // semaphore_set
    };
    struct DmaBlock
    {
        NeffEngine engine = NeffEngine::Sync; // the engine whose JSON lists the block
        std::string queue;
        int64_t semaphore = -1;
        std::string comment; // "#comment"
        std::string from, to;
        std::string dtype = "bfloat16";
        std::vector<int64_t> fromSizes, toSizes; // element counts per dimension
    };
    enum class Md5Layout : uint8_t { WordSwapped, Plain };

    NeffWriter();

    void setUuid(const std::string &hex32); // 32 hex digits (dashes allowed)
    void setNetworkName(std::string name) { m_networkName = std::move(name); }
    void setCompilerVersion(std::string v) { m_compilerVersion = std::move(v); }
    void setTarget(std::string t) { m_target = std::move(t); }
    void setPkgVersion(uint64_t v) { m_pkgVersion = v; } // 1 or 2
    void setVersion(uint64_t major, uint64_t minor) { m_major = major; m_minor = minor; }
    void setMd5Layout(Md5Layout l) { m_md5Layout = l; }
    void addVariable(Variable v) { m_variables.push_back(std::move(v)); }
    void addDmaQueue(DmaQueue q) { m_queues.push_back(std::move(q)); }
    void addDmaBlock(DmaBlock b) { m_blocks.push_back(std::move(b)); }
    // The raw instruction stream of an engine (.bin); by default one 64-byte placeholder instruction.
    void setInstructions(NeffEngine engine, std::string bytes);
    // Any other member (debug members, hlo_stats.json), written after the others in the order added.
    void addMember(std::string name, std::string bytes) { m_extra.emplace_back(std::move(name), std::move(bytes)); }
    // hlo_stats.json as neuronx-cc writes it for an XLA graph (docs/neff.md; keys sorted, 3-space
    // indent, " : "): HloMacCount, Traffic (bytes), ArithmeticIntensity = 2 x MACs / Traffic, the
    // sizes 0 and the counts -1 as in every corpus file.
    static std::string hloStatsJson(int64_t macCount, int64_t traffic);

    // Engine file stem as the compiler names it: PE, Activation, Pool, DVE, SP.
    static const char *engineFileStem(NeffEngine e);
    // def.json key: pe, act, pool, dve, sp.
    static const char *engineKey(NeffEngine e);

    // The gzip'd tar payload. Throws std::runtime_error when libarchive fails.
    std::string payload() const;
    // Header + payload.
    std::string bytes() const;
    // Writes bytes() to `path`; throws std::runtime_error naming the path on I/O errors.
    void save(const std::string &path) const;

private:
    std::string header(const std::string &payload) const;
    std::vector<std::pair<std::string, std::string>> members() const; // name, content, in tar order
    std::string defJson() const;
    std::string engineJson(NeffEngine e) const;
    std::string tensorMapJson() const;

    std::array<uint8_t, 16> m_uuid{};
    std::string m_networkName = "graph.neff";
    std::string m_compilerVersion = "2.21.0.0+synthetic";
    std::string m_target = "sunda";
    uint64_t m_pkgVersion = 2;
    uint64_t m_major = 2, m_minor = 0;
    Md5Layout m_md5Layout = Md5Layout::WordSwapped;
    std::vector<Variable> m_variables;
    std::vector<DmaQueue> m_queues;
    std::vector<DmaBlock> m_blocks;
    std::array<std::string, 5> m_instructions; // by NeffEngine Tensor..Sync
    std::vector<std::pair<std::string, std::string>> m_extra; // addMember
};

} // namespace lanescope
