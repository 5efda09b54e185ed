#pragma once
// Streaming decoder for NTFF v4, v5 and v6 (raw AWS Neuron device trace; layout in docs/ntff.md).
// Reads the protobuf metadata (NtffMetadataReader: per physical core its programs, runtime blocks,
// sections, DMA queues, clock table), then walks the 16-byte records of each payload section in chunks
// (cancel checked and progress reported per chunk), converting raw ticks to integer picoseconds with
// 128-bit-safe arithmetic, pairing instruction begin/end records and DMA packets per physical core, and
// producing an NtffProfile of plain rows.
//
// Errors (ImportError naming file, byte offset and expectation): an unsupported version, a malformed
// metadata message, section offsets past the end of the file or inconsistent sizes. A payload cut
// short (a truncated file) loads what is complete and adds a counted warning.
#include "io/input/loadoptions.h"
#include "ntffprofile.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace lanescope {

class NtffReader
{
public:
    static constexpr size_t kChunkRecords = size_t(1) << 16;

    // `data` must stay alive while reading; `file` names the input in errors.
    NtffReader(std::string_view data, std::string file, const LoadOptions &options = {});

    // Decodes everything. Throws ImportError or LoadCancelled.
    NtffProfile read();
    static NtffProfile read(std::string_view data, const std::string &file, const LoadOptions &options = {});

    static bool isSupportedVersion(uint8_t version) { return version >= 4 && version <= 6; }
    static constexpr const char *kSupportedVersions = "4, 5 and 6";

private:
    struct Clock
    {
        bool valid = false;
        uint64_t base = 0, mul = 1, div = 1;
        uint64_t fastLimit = 0; // |raw - base| up to this: 64-bit arithmetic is exact
    };
    struct OpenInstruction
    {
        int64_t t0 = 0;
        uint32_t arg = 0;
        uint8_t flags = 0;
        uint8_t open = 0;
    };
    struct EngineState
    {
        bool valid = false;     // has a program and a clock
        uint32_t base16 = 0;    // low 16 bits of the program's word address
        uint32_t programSize = 0;
        const NtffProgram *program = nullptr;
        std::vector<uint8_t> notifyKind; // per pc: 0, 2 = start NOTIFY, 3 = end NOTIFY
        Clock clock;
        int64_t lastBeginPs = INT64_MIN;     // latest begin of a completed instruction
        int64_t endNotifyBeginPs = INT64_MAX; // begin of its completed end NOTIFY (hint 3)
        // The instruction begun at each pc and not yet ended: a table the size of the program (so a small
        // or hostile file does not pay for 64 K entries per engine), and a map for pcs outside it.
        std::vector<OpenInstruction> open;
        std::unordered_map<uint32_t, OpenInstruction> openOutside;
        OpenInstruction &openAt(uint32_t pc) { return pc < open.size() ? open[pc] : openOutside[pc]; }
    };
    // The decoding state of one physical core (NtffProfile::cores).
    struct CoreState
    {
        std::array<EngineState, kNtffEngineCount> engines;
        Clock eventClock;
        Clock throttleClock;
        std::array<Clock, 16> dmaClocks;
        uint32_t dmaEngineBase = 0; // 16 x the physical core number: neuron-profile's number of local DMA engine 0
    };
    enum Issue : int {
        InstrUnknownEngine,
        InstrNoProgram,
        InstrEndWithoutBegin,
        InstrBeginWithoutEnd,
        InstrBeginReplaced,
        InstrOutsideProgram,
        InstrBeforeOrigin,
        EventNoClock,
        EventBeforeOrigin,
        DmaNoClock,
        DmaCompletionWithoutStart,
        DmaStartWithoutCompletion,
        DmaBeforeOrigin,
        DmaUnknownType,
        ThrottleNoClock,
        ThrottleBeforeOrigin,
        TimeOutOfRange,
        InstrRunningAtEnd,
        InstrAuxiliary,
        InstrAfterWindow,
        DmaCompletionBeforeStart,
        DmaCompletionAfterDroppedStart,
        IssueCount
    };
    static bool isExpectedFiltering(int issue);
    struct IssueCounter
    {
        uint64_t count = 0;
        uint64_t firstOffset = 0;
    };

    void readHeader();
    void layoutSections();
    void prepareDecoders();
    Clock makeClock(uint8_t core, uint32_t field, uint32_t index) const;

    void findOrigin();
    void findFallbackOrigin();
    uint64_t recordCount(uint32_t kind) const;
    void decodeInstructions();
    void decodeEvents();
    void decodeDma();
    void decodeThrottle();
    void flushIssues();

    template <class Fn>
    void forEachRecord(uint32_t kind, Fn &&fn);
    void note(Issue issue, const char *record);
    void advanceProgress(uint64_t records);

    std::string_view m_data;
    std::string m_file;
    const LoadOptions &m_options;
    NtffProfile m_profile;
    uint64_t m_payloadOffset = 0;
    uint64_t m_metadataSize = 0;

    std::vector<CoreState> m_cores; // parallel to m_profile.cores
    float m_evtWaitGHz = 1.4f;      // the clock evt_wait_time cycles are divided by
    std::array<IssueCounter, IssueCount> m_issues{};
    int64_t m_lastEndPs = 0; // latest instruction end, relative to the origin
    bool m_haveLastEnd = false;

    uint64_t m_work = 0; // records to visit (instruction records twice)
    uint64_t m_done = 0;
    int m_lastPermille = -1;
};

} // namespace lanescope
