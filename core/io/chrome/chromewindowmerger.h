#pragma once
// Joins parsed windows of a Chrome/Kineto event array (ChromeWindowEvents) to the trace in file
// order, exactly as one reader going through the whole file would have: window-local strings are
// interned when the event that first used them is replayed (so every StringId is the same), the
// reader's warnings go before the event they preceded, and the events reach the assembler in file
// order (so every slice and flow id is the same). Also sums the counts for ImportStats and keeps the
// model inside the memory budget.
#include "chrometraceassembler.h"
#include "chromewindowevents.h"
#include "model/tracebuilder.h"

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace lanescope {

class ChromeWindowMerger
{
public:
    ChromeWindowMerger(TraceBuilder &builder, ChromeTraceAssembler &assembler, const std::string &name, uint64_t memoryBudget);

    // Throws the window's error, if it has one, before merging anything of it.
    void merge(ChromeWindowEvents &window);

    uint64_t elements() const { return m_elements; }
    uint64_t objects() const { return m_objects; }
    // Event objects, phases and categories into the trace's import stats.
    void finishStats(uint64_t bytesRead);

private:
    StringId global(StringId local) const { return local.isValid() ? m_map[local.value] : local; }

    TraceBuilder &m_b;
    ChromeTraceAssembler &m_assembler;
    const std::string &m_name;
    uint64_t m_budget;
    std::vector<StringId> m_map; // local -> global, for the window being merged
    uint64_t m_elements = 0;
    uint64_t m_objects = 0;
    uint64_t m_modelBytes = 0; // estimate: events, args and string bytes merged
    uint64_t m_phaseCounts[256] = {};
    std::map<std::string, uint64_t> m_otherPhases;
    std::vector<uint64_t> m_categoryCounts; // by global StringId
};

} // namespace lanescope
