#include "chromewindowmerger.h"

#include "io/input/importerror.h"
#include "io/input/memorybudget.h"

namespace lanescope {

namespace {

// What one event costs in the model at most, resident (slice or instant record, track index, flow
// and pending matching entries); args and strings are counted on their own.
constexpr uint64_t kModelBytesPerEvent = 96;

} // namespace

ChromeWindowMerger::ChromeWindowMerger(TraceBuilder &builder, ChromeTraceAssembler &assembler, const std::string &name, uint64_t memoryBudget)
    : m_b(builder), m_assembler(assembler), m_name(name), m_budget(memoryBudget)
{
}

void ChromeWindowMerger::merge(ChromeWindowEvents &w)
{
    if (w.error)
        std::rethrow_exception(w.error);
    m_map.assign(w.strings.size(), StringId());
    if (!m_map.empty())
        m_map[0] = StringId(0); // the empty string, in every pool
    uint32_t mapped = 1;
    size_t warning = 0;
    uint32_t argsFrom = 0;
    uint64_t stringBytes = 0;
    auto replayWarnings = [&](size_t beforeEvent) {
        for (; warning < w.warnings.size() && w.warnings[warning].beforeEvent <= beforeEvent; ++warning)
            m_b.diagnostics().reportAtByte(w.warnings[warning].note ? DiagnosticSeverity::Note : DiagnosticSeverity::Warning,
                                           w.warnings[warning].message, w.warnings[warning].offset);
    };
    for (size_t i = 0; i < w.events.size(); ++i) {
        for (; mapped < w.stringsEnd[i]; ++mapped) {
            const std::string_view s = w.strings.view(StringId(mapped));
            m_map[mapped] = m_b.intern(s);
            stringBytes += s.size();
        }
        replayWarnings(i);
        ChromeEvent e = w.events[i];
        e.name = global(e.name);
        e.category = global(e.category);
        e.pid.text = global(e.pid.text);
        e.tid.text = global(e.tid.text);
        const std::span<Arg> args(w.args.data() + argsFrom, w.argsEnd[i] - argsFrom);
        argsFrom = w.argsEnd[i];
        for (Arg &a : args) {
            a.key = global(a.key);
            if (a.type == ArgType::String || a.type == ArgType::Json)
                a.value.s = global(StringId(a.value.s)).value;
        }
        m_assembler.add(e, args);
    }
    replayWarnings(w.events.size());
    if (w.numericStrings > 1) // the first was replayed in place
        m_b.diagnostics().note(ChromeTraceAssembler::kNumericStrings, {}, w.numericStrings - 1);

    m_elements += w.elements;
    m_objects += w.objects;
    for (int c = 0; c < 256; ++c)
        m_phaseCounts[c] += w.phaseCounts[c];
    for (const auto &[k, n] : w.otherPhases)
        m_otherPhases[k] += n;
    for (size_t c = 0; c < w.categoryCounts.size(); ++c) {
        if (!w.categoryCounts[c])
            continue;
        const uint32_t g = global(StringId(uint32_t(c))).value;
        if (m_categoryCounts.size() <= g)
            m_categoryCounts.resize(g + 64, 0);
        m_categoryCounts[g] += w.categoryCounts[c];
    }

    // The budget bounds the model now (the text is read a window at a time).
    m_modelBytes += w.events.size() * kModelBytesPerEvent + w.args.size() * sizeof(Arg) + stringBytes;
    if (m_modelBytes > m_budget)
        throw ImportError(m_name, w.events.empty() ? 0 : w.events.back().offset,
                          "the trace model grows past the memory budget of " + MemoryBudget::format(m_budget) + " ("
                              + MemoryBudget::format(m_modelBytes) + " after " + std::to_string(m_objects) + " events; "
                              + MemoryBudget::hint() + ")");
}

void ChromeWindowMerger::finishStats(uint64_t bytesRead)
{
    ImportStats &st = m_b.stats();
    st.eventsRead = m_objects; // event objects; other array elements are skipped with a warning
    st.bytesRead = bytesRead;
    for (int c = 0; c < 256; ++c)
        if (m_phaseCounts[c])
            st.phases[std::string(1, char(c))] += m_phaseCounts[c];
    for (const auto &[k, n] : m_otherPhases)
        st.phases[k] += n;
    for (size_t i = 0; i < m_categoryCounts.size(); ++i)
        if (m_categoryCounts[i])
            st.categories[std::string(m_b.str(StringId(uint32_t(i))))] += m_categoryCounts[i];
}

} // namespace lanescope
