#pragma once
// The Neuron Explorer device reader's state, shared by its files: explorerdevicereader.cpp (tables of one
// row: Metadata, Summary, NeffHeader; cores, DMA queues, the finish), explorerdevicerows.cpp (Instruction,
// DmaPacket, DmaPacketAggregated, SemaphoreUpdate, Throttle), explorerdeviceseries.cpp (usage series,
// memory usage, SBUF allocation, active time, lookup tables kept as reported values),
// explorerdevicelanes.cpp (collectives, core barriers, errors) and explorerdevicehierarchy.cpp (the
// compiler hierarchy tables, Flow). Internal to core/io/explorer; include explorerdevicereader.h elsewhere.
#include "explorerdirectory.h"
#include "io/input/loadoptions.h"
#include "io/neuronprofile/neuronprofileopcodes.h"
#include "io/ntff/ntffprofile.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope::explorer {

// The columns of one table, found by name. A column the table lacks is remembered, and note() reports
// them all in one note naming the table's file; a column of another type is LoadedTable::column's
// warning (and treated as absent, without a second mention).
class TableColumns
{
public:
    TableColumns(LoadedTable &table, Diagnostics &diag) : m_table(table), m_diag(diag) {}
    const parquet::ColumnData *integer(std::string_view name) { return get(name, ValueKind::Integer); }
    const parquet::ColumnData *real(std::string_view name) { return get(name, ValueKind::Real); }
    const parquet::ColumnData *text(std::string_view name) { return get(name, ValueKind::Text); }
    const parquet::ColumnData *boolean(std::string_view name) { return get(name, ValueKind::Boolean); }
    // One note listing the missing columns, with what their absence costs; nothing when none is missing.
    void note(std::string_view consequence);
    // The table's first file name, for messages ("Instruction_0.parquet").
    std::string where() const;
    size_t rows() const { return size_t(m_table.rows); }

private:
    const parquet::ColumnData *get(std::string_view name, ValueKind kind);
    LoadedTable &m_table;
    Diagnostics &m_diag;
    std::vector<std::string> m_missing;
};

struct DeviceState;

// A table opened for reading: read whole (splits concatenated) and its columns found by name, the
// boilerplate every table reader shares. `if (DeviceTable t(s, "CcOp"); t) ...`: false when the profile
// has no such table (or it cannot be read: ProfileDirectory's warning).
struct LoadedTableHolder
{
    LoadedTable table;
};
class DeviceTable : private LoadedTableHolder, public TableColumns
{
public:
    DeviceTable(DeviceState &s, std::string_view name);
    DeviceTable(const DeviceTable &) = delete;
    DeviceTable &operator=(const DeviceTable &) = delete;
    explicit operator bool() const { return m_ok; }
    LoadedTable &loaded() { return table; }

private:
    bool m_ok = false;
};

inline std::optional<int64_t> intAt(const parquet::ColumnData *c, size_t row)
{
    if (!c || row >= c->rows() || c->isNull(row) || row >= c->ints.size())
        return std::nullopt;
    return c->ints[row];
}
inline std::optional<double> realAt(const parquet::ColumnData *c, size_t row)
{
    if (!c || row >= c->rows() || c->isNull(row) || row >= c->reals.size())
        return std::nullopt;
    return c->reals[row];
}
inline std::optional<std::string_view> textAt(const parquet::ColumnData *c, size_t row)
{
    if (!c || row >= c->rows() || c->isNull(row) || row >= c->textEnds.size())
        return std::nullopt;
    return c->textAt(row);
}
// The duration of a row: duration_ns, else end_ts - start_ts; -1 when neither gives one >= 0.
inline int64_t durationOf(const parquet::ColumnData *duration, const parquet::ColumnData *end, std::optional<int64_t> start,
                          size_t row)
{
    if (!start)
        return -1;
    if (auto d = intAt(duration, row))
        return *d >= 0 ? *d : -1;
    if (auto e = intAt(end, row); e && *e >= *start)
        return *e - *start;
    return -1;
}
// Any column's value as text, as a report shows it: integers in decimal, FLOAT by the shortest text that
// reads back as the same float (3.6351609e-05 stays 3.635161e-05, not 3.63516087e-05), DOUBLE likewise,
// booleans true / false; nullopt for null.
std::optional<std::string> valueText(const parquet::ColumnData &c, size_t row);

// Counted row problems of one table, reported once each when the table is done.
class RowProblems
{
public:
    void add(std::string message) { ++m_counts[index(std::move(message))].second; }
    void report(Diagnostics &diag, const std::string &where) const;

private:
    size_t index(std::string message);
    std::vector<std::pair<std::string, uint64_t>> m_counts;
};

struct DeviceState
{
    DeviceState(const ProfileDirectory &d, const LoadOptions &o, NtffProfile &p) : dir(d), options(o), profile(p) {}

    const ProfileDirectory &dir;
    const LoadOptions &options;
    NtffProfile &profile;
    std::optional<int64_t> physicalCores; // Metadata.num_physical_cores
    uint8_t coreCount = 1;                // cores the rows use: max(num_physical_cores, pcore_idx + 1)
    // pcore_idx -> DMA engine numbers >= 16 seen on it (trn2 numbers engines 16 x physical core + 0..15):
    // the physical core number, when one
    std::array<std::optional<uint32_t>, kNtffMaxCores> coreNumber{};
    std::array<bool, kNtffMaxCores> coreNumberConflict{};
    // DMA queue lanes: the first packet's queue_name per engine * 16 + queue
    std::vector<std::string> queueLane = std::vector<std::string>(256 * 16);
    std::vector<bool> queueSeen = std::vector<bool>(256 * 16);
    std::vector<uint8_t> queueCore = std::vector<uint8_t>(256 * 16);
    std::vector<std::pair<int64_t, int16_t>> blockSemaphore; // DmaPacketAggregated id -> semaphore, sorted
    // Row ids -> positions: Instruction.id -> `instructions`, DmaPacketAggregated.id -> `dmaBlocks` (the
    // Flow table's ends); sorted once the table is read
    std::vector<std::pair<int64_t, uint32_t>> instructionIds, blockIds;
    // Parallel to `instructions` when Instruction has the columns: raw_framework_id / raw_hlo_id (the
    // keys of FrameworkInstruction / HloInstruction); nullopt = none
    std::vector<std::optional<int64_t>> rawFrameworkId, rawHloId;
    uint64_t rowsRead = 0;

    // The position in `cores` of a row's pcore_idx (0 for null or out of range, counted in `problems`).
    uint8_t core(std::optional<int64_t> pcore, RowProblems &problems);
    void noteEngine(uint8_t core, int64_t engine);
    uint32_t opcodeCode(std::string_view name);
    uint32_t nameIndex(std::string_view name);
    // nameIndex for a name that is text as written ("unknown" kept); 0 only for "".
    uint32_t textIndex(std::string_view name);
    // The lane `name` of `core` (kNtffLogicalCore: the NeuronCore itself), made on first use.
    uint32_t eventLane(std::string_view name, std::string_view category, uint8_t core, int64_t sortIndex);
    // An event on `lane` with the args added since beginEvent() (arg* below).
    void beginEvent() { m_firstArg = uint32_t(profile.eventArgs.size()); }
    void argInt(std::string_view key, std::optional<int64_t> v);
    void argReal(std::string_view key, std::optional<double> v);
    void argText(std::string_view key, std::optional<std::string_view> v);
    void addEvent(uint32_t lane, int64_t ts, int64_t duration, std::string_view name);
    void noteSemaphoreName(uint8_t core, uint8_t id, std::string_view name, const std::string &where);
    // The text of a table's rows kept verbatim as "<prefix>[i].<column>" (row 0 of one-row tables:
    // "<prefix>.<column>" when `indexed` is false).
    void keepRows(LoadedTable &table, const std::string &prefix, bool indexed);

private:
    uint32_t m_firstArg = 0;
    npjson::OpcodeTable m_extraOpcodes;
    npjson::OpcodeTable m_names;
};

void readInstructions(DeviceState &s);
void readDmaBlocks(DeviceState &s); // before the packets: the packets take their block's semaphore
void readDmaPackets(DeviceState &s);
void readSemaphores(DeviceState &s);
void readThrottle(DeviceState &s);
void readCounters(DeviceState &s);
void readMemoryUsage(DeviceState &s);
void readLookupTables(DeviceState &s);
void readCollectives(DeviceState &s); // CcOp, CcInstruction, CoreBarriers (after the cores are placed)
void readErrors(DeviceState &s);
void readSbufAllocation(DeviceState &s);
void readActiveTime(DeviceState &s);
void readHierarchy(DeviceState &s);   // after the instructions: their raw ids -> layer / HLO op names
void readDependencies(DeviceState &s); // after the instructions and DMA transfers

} // namespace lanescope::explorer
