#include "neuronprofilecores.h"

#include <algorithm>
#include <map>
#include <optional>

namespace lanescope {

namespace {

constexpr const char *kRowTables[] = {"instruction", "dma", "semaphore_update", "ham"};

template <class Rows> void remap(Rows &rows, const std::array<uint8_t, 256> &to)
{
    for (auto &r : rows)
        r.core = to[r.core];
}

} // namespace

uint8_t NeuronProfileCores::provisional(const std::string &name, uint64_t offset)
{
    for (size_t i = 0; i < m_subgraphs.size(); ++i)
        if (m_subgraphs[i] == name)
            return uint8_t(i);
    if (m_subgraphs.size() >= kSubgraphOverflow)
        return kSubgraphOverflow;
    m_subgraphs.push_back(name);
    m_first.push_back(offset);
    return uint8_t(m_subgraphs.size() - 1);
}

void NeuronProfileCores::adopt(NeuronProfileJsonPart &part)
{
    for (size_t t = 0; t < m_without.size(); ++t)
        if (part.withoutSubgraph[t].rows) {
            if (m_without[t].rows == 0)
                m_without[t].first = part.withoutSubgraph[t].first;
            m_without[t].rows += part.withoutSubgraph[t].rows;
        }
    m_memoryNc.insert(m_memoryNc.end(), part.memoryNc.begin(), part.memoryNc.end());
    if (part.subgraphs.empty())
        return; // every row is kNoSubgraph: nothing to rewrite
    std::array<uint8_t, 256> to;
    for (size_t i = 0; i < to.size(); ++i)
        to[i] = uint8_t(i);
    for (size_t i = 0; i < part.subgraphs.size(); ++i)
        to[i] = provisional(part.subgraphs[i], i < part.subgraphFirst.size() ? part.subgraphFirst[i] : 0);
    NtffProfile &rows = part.rows;
    remap(rows.instructions, to);
    remap(rows.dma, to);
    remap(rows.semaphores, to);
    remap(rows.throttle, to);
    for (auto &c : rows.counters)
        c.core = to[c.core];
    for (auto &q : part.queueLanes)
        q.core = to[q.core];
    for (auto &s : part.semaphoreNames)
        s.core = to[s.core];
}

uint8_t NeuronProfileCores::coreOf(const NtffProfile &profile, std::string_view subgraph, bool &known)
{
    for (size_t k = 0; k < profile.cores.size(); ++k)
        if (profile.cores[k].subgraphName == subgraph) {
            known = true;
            return uint8_t(k);
        }
    known = false;
    return 0;
}

std::array<uint8_t, 256> NeuronProfileCores::place(NtffProfile &profile, const NeuronProfileJsonTables &tables, bool cut)
{
    Diagnostics &d = profile.diagnostics;
    std::vector<NtffCore> cores;
    std::vector<int> modelInfoCore(tables.modelInfo.size(), -1); // model_info row -> position in cores
    std::vector<std::pair<uint32_t, uint8_t>> byIndex;           // nc_idx -> position
    for (size_t i = 0; i < tables.modelInfo.size(); ++i) {
        const NeuronProfileJsonTables::ModelInfoRow &m = tables.modelInfo[i];
        const auto same = [&m](const NtffCore &c) { return c.subgraphName == m.subgraph; };
        if (m.subgraph.empty()) {
            d.warnAtByte("model_info rows without a valid \"sg_name\" (expected the subgraph of a physical core, "
                         "\"sg00\"; the row is ignored)", m.offset);
        } else if (std::any_of(cores.begin(), cores.end(), same)) {
            d.warnAtByte("model_info rows naming a subgraph an earlier row names (expected one row per physical core; "
                         "the later row is ignored)", m.offset);
        } else if (cores.size() >= kNtffMaxCores) {
            d.warnAtByte("model_info rows beyond the " + std::to_string(kNtffMaxCores) +
                             " physical cores a logical core is read with (ignored)", m.offset);
        } else {
            modelInfoCore[i] = int(cores.size());
            if (m.index)
                byIndex.emplace_back(*m.index, uint8_t(cores.size()));
            NtffCore c;
            c.subgraphName = m.subgraph;
            c.index = m.index;
            cores.push_back(std::move(c));
        }
    }
    // Subgraphs the rows name beyond model_info's: a core of their own while there is room.
    std::array<uint8_t, 256> to{}; // provisional -> position; kNoSubgraph and overflow -> 0
    std::array<bool, 256> lost{};  // subgraphs beyond kNtffMaxCores
    lost[kSubgraphOverflow] = true;
    std::optional<uint64_t> lostFirst;
    for (size_t p = 0; p < m_subgraphs.size(); ++p) {
        const auto it = std::find_if(cores.begin(), cores.end(), [&](const NtffCore &c) { return c.subgraphName == m_subgraphs[p]; });
        if (it != cores.end()) {
            to[p] = uint8_t(it - cores.begin());
        } else if (cores.size() < kNtffMaxCores) {
            if (!tables.modelInfo.empty())
                d.warnAtByte("rows of a subgraph that model_info does not list (expected one model_info row per "
                             "physical core; shown as a physical core of its own, number unknown)", m_first[p]);
            to[p] = uint8_t(cores.size());
            NtffCore c;
            c.subgraphName = m_subgraphs[p];
            cores.push_back(std::move(c));
        } else {
            lost[p] = true;
            lostFirst = std::min(lostFirst.value_or(m_first[p]), m_first[p]);
        }
    }
    if (cores.empty()) { // no model_info and no "subgraph": one core, unnamed
        NtffCore c;
        c.subgraphName = profile.subgraphName;
        cores.push_back(std::move(c));
    }
    // On a one-core device the NTFF numbers no core (nc_idx is 0 there): so neither does the JSON.
    const bool several = cores.size() > 1 || tables.physicalCores.value_or(1) > 1;
    if (!several)
        for (NtffCore &c : cores)
            c.index.reset();
    profile.cores = std::move(cores);
    profile.subgraphName = profile.cores.front().subgraphName;
    if (profile.cores.size() > 1) // summary.total_time is the first core's (NTFF sg00 total_time)
        profile.cores.front().totalTimePs = profile.totalTimePs;

    // Rows without a subgraph: the one core of a 2.27 export; in an export whose rows name theirs, lost.
    for (size_t t = 0; t < m_without.size(); ++t)
        if (m_without[t].rows && !m_subgraphs.empty())
            d.report(DiagnosticSeverity::Warning,
                     std::string(kRowTables[t]) + " rows without a valid \"subgraph\" (expected the physical core's "
                                                  "subgraph, \"sg00\", as the export's other rows have; the first core assumed)",
                     "byte " + std::to_string(m_without[t].first), m_without[t].rows);
    uint64_t lostRows = 0;
    const auto countLost = [&](const auto &rows) {
        for (const auto &r : rows)
            lostRows += lost[r.core];
    };
    countLost(profile.instructions);
    countLost(profile.dma);
    countLost(profile.semaphores);
    countLost(profile.throttle);
    if (lostRows)
        d.warn("rows of subgraphs beyond the " + std::to_string(kNtffMaxCores) +
                   " physical cores a logical core is read with (expected at most that many; shown on the first core)",
               lostFirst ? "byte " + std::to_string(*lostFirst) : std::string(), lostRows);
    remap(profile.instructions, to);
    remap(profile.dma, to);
    remap(profile.semaphores, to);
    remap(profile.throttle, to);
    remap(profile.counters, to);
    std::map<uint32_t, std::string> names; // the first name of each (core, id) wins
    for (auto &[key, name] : profile.semaphoreNames)
        names.emplace(uint32_t(to[(key / 256u) & 255u]) * 256u + key % 256u, std::move(name));
    profile.semaphoreNames = std::move(names);

    // nc_mem_usage "nc" is model_info's nc_idx
    for (size_t i = 0; i < profile.memoryUsage.size() && i < m_memoryNc.size(); ++i) {
        const auto [nc, offset] = m_memoryNc[i];
        const auto it = std::find_if(byIndex.begin(), byIndex.end(), [nc = nc](const auto &b) { return int64_t(b.first) == nc; });
        if (it != byIndex.end())
            profile.memoryUsage[i].core = it->second;
        else if (profile.cores.size() > 1)
            d.warnAtByte("nc_mem_usage rows whose \"nc\" is no model_info nc_idx (expected a physical core number "
                         "of this logical core; the first core assumed)", offset);
    }
    profile.eventRecordCount = 0;
    for (const auto &m : tables.modelInfo)
        profile.eventRecordCount += m.events.value_or(0);
    checkModelInfo(profile, tables, modelInfoCore, cut);
    return to;
}

// neuron-profile counts each engine's instruction rows per subgraph in model_info (70/70 on the corpus):
// a difference means rows were lost (skipped as invalid, or a cut file) or the export is inconsistent.
void NeuronProfileCores::checkModelInfo(NtffProfile &profile, const NeuronProfileJsonTables &tables,
                                        const std::vector<int> &modelInfoCore, bool cut) const
{
    std::vector<std::array<uint64_t, kNtffEngineCount>> rows(profile.cores.size());
    for (const NtffInstructionRow &r : profile.instructions) {
        const size_t e = size_t(r.engine) - 1;
        if (r.core < rows.size() && e < size_t(kNtffEngineCount))
            ++rows[r.core][e];
    }
    for (size_t i = 0; i < tables.modelInfo.size(); ++i) {
        if (modelInfoCore[i] < 0)
            continue;
        const NeuronProfileJsonTables::ModelInfoRow &m = tables.modelInfo[i];
        for (int e = 0; e < kNtffEngineCount; ++e) {
            const auto stated = m.instructions[size_t(e)];
            const uint64_t counted = rows[size_t(modelInfoCore[i])][size_t(e)];
            if (!stated || *stated == counted)
                continue;
            const std::string engine(ntffEngineName(NtffEngine(e + 1)));
            profile.diagnostics.report(cut ? DiagnosticSeverity::Note : DiagnosticSeverity::Warning,
                                       cut ? "model_info instruction counts that differ from the rows of a cut file (the rows "
                                             "before the cut are shown)"
                                           : "model_info instruction counts that differ from the instruction rows (expected "
                                             "equal: rows were skipped or the export is inconsistent; the rows are shown)",
                                       "byte " + std::to_string(m.offset) + ": " + m.subgraph + " " + engine + " " +
                                           std::to_string(*stated) + " in model_info, " + std::to_string(counted) + " rows");
        }
    }
}

} // namespace lanescope
