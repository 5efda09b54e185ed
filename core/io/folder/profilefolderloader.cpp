#include "profilefolderloader.h"

#include "capturesession.h"
#include "clockalignment.h"
#include "io/fileimporter.h"
#include "io/formats.h"
#include "neffhierarchy.h"
#include "io/neff/neffreader.h"
#include "io/ntff/neuroncorelanes.h"
#include "io/ntff/ntffimporter.h"
#include "io/systemprofile/systemprofilejoin.h"
#include "model/tracemerger.h"
#include "util/textutil.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <tuple>

namespace lanescope {

namespace {

constexpr int64_t kDeviceSortBase = 1000;

std::string baseName(std::string_view path) { return std::string(path.substr(path.rfind('/') + 1)); }
std::string stemOf(std::string_view file)
{
    const std::string b = baseName(file);
    const size_t dot = b.find('.');
    return dot == std::string::npos || dot == 0 ? b : b.substr(0, dot);
}

struct Source
{
    size_t file = 0;
    FileFormat kind{}; // of its file (FolderFile::kind)
    FolderRole role = FolderRole::None;
    std::shared_ptr<Trace> trace; // not const: a folder's lone trace is moved into the result (merge)
    std::string name; // top group name, without the aligned suffix
    std::string program; // device traces: the name before a repeat got its path (the executions of one NEFF share it)
    // devices
    std::vector<std::string> tokens; // hash, uuid (plain and dashed), lowercase
    std::string key;                 // identity + core: device traces of one NEFF on one core
    int64_t core = 0;
    int64_t deviceCore = -1; // the physical core its timeline ran on, when its file says (NTFF v6)
    bool aligned = false;
    bool exact = false; // placed at an nc_exec_running of a system trace (not approximate)
    bool systemApprox = false; // placed at an nc_exec_running of its NEFF, but its own device clock disagrees
    int system = -1;    // that system trace's source index
    uint32_t systemSlice = 0;
    int64_t offset = 0;
    std::string alignment;
    int host = -1;          // source index of the framework trace it is aligned to
    uint32_t hostSlice = 0; // slice index in that trace
    std::string networkName; // of the paired NEFF
    std::string where;       // " · <instance label>" when the folder has several
    int64_t first = 0, last = 0; // its events' span on its own clock
};

// The span of a device timeline's slices on its own clock (its counters when it has none).
std::pair<int64_t, int64_t> spanOf(const Trace &t)
{
    int64_t first = INT64_MAX, last = INT64_MIN;
    for (uint32_t i = 0; i < t.tracks().size(); ++i)
        for (const Slice &x : t.slices(TrackId(i))) {
            first = std::min(first, x.start);
            last = std::max(last, x.end());
        }
    if (first > last)
        return {t.startNs(), t.endNs()};
    return {first, last};
}

// The framework op around a host execution event (nrt_execute inside aten::mul), or the event itself.
uint32_t launchingOp(const Trace &t, uint32_t slice)
{
    for (SliceId p = t.parent(SliceId(slice)); p.isValid(); p = t.parent(p)) {
        const std::string cat = text::lower(t.str(t.slice(p).category));
        if (cat == "cpu_op" || cat == "user_annotation" || cat == "operator")
            return p.value;
    }
    return slice;
}

class Loader
{
public:
    Loader(const ProfileFolder &folder, const LoadOptions &options) : m_folder(folder), m_options(options) {}
    Trace run();

private:
    void loadAll();
    void loadOne(size_t index, const LoadOptions &sub);
    void nameFromNeff(const FolderFile &ntff, NtffProfile &profile);
    void identify(Source &s);
    void align();
    void joinSystem(std::vector<int> &devices);
    static std::string suffix(const Source &s) { return s.aligned && !s.exact ? ProfileFolderLoader::kAlignedSuffix : ""; }
    void nameSources();
    Trace merge();
    int64_t pidOf(const Source &s) const;
    const FolderFile &file(const Source &s) const { return m_folder.files()[s.file]; }
    // Importers restart at 0 after reading their input: the folder's progress only moves forward.
    void report(int permille)
    {
        if (permille > m_reported) {
            m_reported = permille;
            m_options.report(permille);
        }
    }

    ProfileFolder m_folder; // a copy: outcomes of loading are written into it
    const LoadOptions &m_options;
    std::vector<Source> m_sources;
    std::vector<std::pair<std::string, std::string>> m_deviceNotes; // metadata from paired NEFFs
    std::string m_networkName;                                      // of the NEFF nameFromNeff() read last
    Diagnostics m_neffDiagnostics;  // problems of paired NEFFs that lose the trace something (hlo_stats.json)
    Diagnostics m_loadDiagnostics;  // system traces that cannot be read (the rest of the folder loads)
    std::set<size_t> m_neffsWarned; // NEFF files whose problems are in m_neffDiagnostics (read once per NTFF)
    int m_reported = -1;
    size_t m_budgeted = 0; // sources whose memory is counted against the budget
};

void Loader::loadAll()
{
    const auto &files = m_folder.files();
    uint64_t total = 0;
    std::vector<size_t> todo;
    for (size_t i = 0; i < files.size(); ++i) {
        const FolderFile &f = files[i];
        // Every file with an importer whose scan outcome lets it load (a timeline of its own or a device trace).
        if (ProfileFolder::loadable(f)) {
            todo.push_back(i);
            total += std::max<uint64_t>(1, f.size);
        }
    }
    uint64_t done = 0, used = 0;
    for (size_t i : todo) {
        if (m_options.cancelled())
            throw LoadCancelled();
        const uint64_t weight = std::max<uint64_t>(1, files[i].size);
        // One budget for the whole folder: what earlier files hold is not available to later ones.
        for (size_t k = m_budgeted; k < m_sources.size(); ++k)
            used += m_sources[k].trace->memoryUsage();
        m_budgeted = m_sources.size();
        if (used >= m_options.memoryBudget) {
            m_folder.setOutcome(i, FileOutcome::NotReadable,
                                "not loaded: the memory budget of " + MemoryBudget::format(m_options.memoryBudget) +
                                    " is used up by the files loaded before it (" + MemoryBudget::hint() + ")");
            continue;
        }
        LoadOptions sub;
        sub.cancel = m_options.cancel;
        sub.memoryBudget = m_options.memoryBudget - used;
        if (m_options.progress) {
            const uint64_t before = done;
            sub.progress = [this, before, weight, total](int permille) {
                report(int(900 * (before * 1000 + weight * uint64_t(std::clamp(permille, 0, 1000))) / (total * 1000)));
            };
        }
        loadOne(i, sub);
        done += weight;
        report(int(900 * done / total));
    }
}

void Loader::loadOne(size_t index, const LoadOptions &sub)
{
    const FolderFile f = m_folder.files()[index];
    Source s;
    s.file = index;
    s.kind = f.kind;
    s.role = Formats::info(f.kind).role;
    try {
        // Read the way the formats table says (FileImporter): streamed in windows when the format has a
        // stream reader (Kineto / Chrome JSON, neuron-profile JSON, system_profile.json), else whole.
        if (f.status == FileOutcome::Paired && !f.pairedWith.empty() && FileImporter::hasRows(f.kind)) {
            // A device trace with its NEFF: the rows first, named from the NEFF, then the timeline.
            LoadOptions decode;
            decode.cancel = sub.cancel;
            decode.memoryBudget = sub.memoryBudget;
            if (sub.progress)
                decode.progress = [&sub](int permille) { sub.report(permille * 9 / 10); };
            NtffProfile profile = FileImporter::readRowsAs(f.path, f.kind, decode);
            m_networkName.clear();
            nameFromNeff(f, profile);
            s.networkName = m_networkName;
            s.trace = std::make_shared<Trace>(NtffImporter::build(profile, f.path, sub));
        } else {
            s.trace = std::make_shared<Trace>(FileImporter::importAs(f.path, f.kind, sub));
        }
        if (s.role == FolderRole::DeviceTrace) {
            identify(s);
            std::tie(s.first, s.last) = spanOf(*s.trace);
        } else if (s.role == FolderRole::SystemTrace) {
            CaptureSession::reportFiles(m_folder, index, *s.trace);
            CaptureSession::pairPrograms(m_folder, index, *s.trace);
        }
    } catch (const LoadCancelled &) {
        throw;
    } catch (const ImportError &e) {
        m_folder.setOutcome(index, FileOutcome::NotReadable, e.what());
        if (s.role == FolderRole::SystemTrace) {
            m_loadDiagnostics.warn("system traces that cannot be read (the rest of the folder loads)", e.what());
            CaptureSession::reportUnread(m_folder, index, e.problem());
        }
        return;
    } catch (const std::bad_alloc &) {
        m_folder.setOutcome(index, FileOutcome::NotReadable, "out of memory while loading");
        return;
    } catch (const std::exception &e) {
        m_folder.setOutcome(index, FileOutcome::NotReadable, f.path + ": " + e.what());
        return;
    }
    m_sources.push_back(std::move(s));
}

// The paired NEFF names the semaphores of its DMA queues (S[8] -> qSPIO0) and gives the compiler and
// target for the metadata. A NEFF that cannot be read leaves the NTFF loaded without names.
void Loader::nameFromNeff(const FolderFile &ntff, NtffProfile &profile)
{
    const size_t n = size_t(ntff.pairedWith.front());
    const FolderFile &neff = m_folder.files()[n];
    NeffInfo info;
    try {
        LoadOptions quiet;
        quiet.cancel = m_options.cancel;
        quiet.memoryBudget = m_options.memoryBudget;
        info = NeffReader::read(neff.path, quiet);
    } catch (const ImportError &e) {
        m_folder.setOutcome(n, FileOutcome::NotReadable,
                            "its header uuid matches " + ntff.relativePath + " but it cannot be read: " + e.what());
        return;
    }
    const std::string p = ntff.relativePath + ": neff.";
    m_deviceNotes.emplace_back(p + "file", neff.relativePath);
    m_deviceNotes.emplace_back(p + "network_name", info.header.networkName);
    m_networkName = info.header.networkName;
    m_deviceNotes.emplace_back(p + "compiler_version", info.compilerVersion);
    m_deviceNotes.emplace_back(p + "target", info.target);
    // The program's model FLOPs per execution (2 x hlo_stats.json HloMacCount): OpTable charges them to
    // the op that launched each execution of this NTFF (ExecutionCost). Absent: no FLOP count (an NKI
    // NEFF, or an hlo_stats.json that did not parse: a warning naming the NEFF and the member).
    if (info.hloStats.hasMacCount())
        m_deviceNotes.emplace_back(p + "model_flops", std::to_string(info.hloStats.macCount * 2));
    if (m_neffsWarned.insert(n).second)
        for (const Warning &w : info.diagnostics.warnings())
            if (w.message.find("hlo_stats.json") != std::string::npos || w.firstSeen.find("hlo_stats.json") != std::string::npos)
                m_neffDiagnostics.report(w.severity, neff.relativePath + ": " + w.message + " (the rest of the NEFF loads)",
                                         w.firstSeen, w.count);
    const NeffSubgraph *sg = info.subgraph(profile.subgraphName);
    if (!sg && !info.subgraphs.empty())
        sg = &info.subgraphs.front();
    if (!sg)
        return;
    for (const NtffSemaphoreRow &r : profile.semaphores)
        if (const uint32_t key = uint32_t(r.core) * 256u + r.id; !profile.semaphoreNames.count(key))
            if (const NeffDmaQueue *q = sg->queueForSemaphore(r.id))
                profile.semaphoreNames.emplace(key, ntffQueueDisplayName(q->name));
    // What each DMA queue moves (variable types, e.g. "input->state-buffer"; insights' queue kinds).
    for (const NeffDmaQueue &q : sg->dmaQueues)
        if (const std::string traffic = sg->queueTraffic(q.name); !traffic.empty())
            m_deviceNotes.emplace_back(p + "dma_queue." + ntffQueueDisplayName(q.name), traffic);
    // The NEFF's tensors (TensorTable lists them for a trace without neuron-profile's neff_node).
    for (size_t i = 0; i < sg->variables.size(); ++i) {
        const NeffVariable &v = sg->variables[i];
        const std::string key = p + "variable[" + std::to_string(i) + "].";
        std::string shape = "[";
        for (size_t d = 0; d < v.shape.size(); ++d)
            shape += (d ? " " : "") + std::to_string(v.shape[d]);
        m_deviceNotes.emplace_back(key + "name", v.name);
        m_deviceNotes.emplace_back(key + "type", v.type);
        m_deviceNotes.emplace_back(key + "dtype", v.dtype);
        m_deviceNotes.emplace_back(key + "shape", v.shape.empty() ? std::string() : shape + "]");
        m_deviceNotes.emplace_back(key + "size", v.hasSize ? std::to_string(v.size) : std::string());
    }
    // Each instruction's HLO op and framework scope, from the NEFF's debug chain (the layers / HLO ops lanes).
    const size_t named = NeffHierarchy::apply(info, profile);
    m_deviceNotes.emplace_back(p + "instructions_with_hlo_op", std::to_string(named));
}

// Hash, uuid and core of a device trace, for matching host events.
void Loader::identify(Source &s)
{
    const FolderFile &f = file(s);
    auto recorded = [&s](const char *key) { // what the importer read from the file itself
        const std::string *v = s.trace ? s.trace->metadata().find(key) : nullptr;
        return v ? *v : std::string();
    };
    const std::string neffName = f.neffName.empty() ? recorded("neff_name") : f.neffName;
    const std::string uuid = f.uuid.empty() ? text::lower(recorded("uuid")) : f.uuid;
    std::string hash = f.name.hash;
    if (hash.empty() && !f.pairedWith.empty())
        hash = m_folder.files()[size_t(f.pairedWith.front())].name.hash;
    if (hash.empty() && !neffName.empty())
        hash = ProfileFolder::parseName(baseName(neffName)).hash;
    if (!hash.empty())
        s.tokens.push_back(text::lower(hash));
    if (uuid.size() == 32 && uuid.find_first_not_of('0') != std::string::npos) {
        s.tokens.push_back(uuid);
        s.tokens.push_back(uuid.substr(0, 8) + '-' + uuid.substr(8, 4) + '-' + uuid.substr(12, 4) + '-' +
                           uuid.substr(16, 4) + '-' + uuid.substr(20));
    }
    s.core = std::max<int64_t>(0, f.name.core);
    s.deviceCore = f.deviceCores.empty() ? -1 : f.deviceCores.front();
    s.key = (hash.empty() ? uuid : hash) + "#" + std::to_string(s.core) + "@" + std::to_string(f.group);
}

int64_t Loader::pidOf(const Source &s) const
{
    const FolderFile &f = file(s);
    if (f.name.pid >= 0)
        return f.name.pid;
    if (!s.trace)
        return -1;
    // The process with the most slices.
    std::map<int64_t, uint64_t> count;
    for (const Track &t : s.trace->tracks())
        for (GroupId g = t.group; g.isValid(); g = s.trace->group(g).parent)
            if (s.trace->group(g).kind == GroupKind::Process) {
                count[s.trace->group(g).externalId] += t.sliceCount;
                break;
            }
    int64_t pid = -1;
    uint64_t most = 0;
    for (const auto &[p, n] : count)
        if (n > most) {
            most = n;
            pid = p;
        }
    return pid;
}

void Loader::align()
{
    std::vector<int> devices;
    std::vector<ClockAlignment::HostTrace> hosts;
    std::vector<ClockAlignment::HostExecution> events;
    for (int i = 0; i < int(m_sources.size()); ++i) {
        const Source &s = m_sources[size_t(i)];
        if (s.role == FolderRole::FrameworkTrace) {
            hosts.push_back({i, file(s).group});
            auto mine = ClockAlignment::hostExecutions(*s.trace, i);
            events.insert(events.end(), std::make_move_iterator(mine.begin()), std::make_move_iterator(mine.end()));
        } else if (s.role == FolderRole::DeviceTrace) {
            devices.push_back(i); // NTFFs and neuron-profile JSON exports
        }
    }
    auto order = [this](int a, int b) {
        const FolderFile &x = file(m_sources[size_t(a)]), &y = file(m_sources[size_t(b)]);
        return std::tie(x.name.exec, x.name.session, x.name.instanceIndex, x.relativePath) <
               std::tie(y.name.exec, y.name.session, y.name.instanceIndex, y.relativePath);
    };
    std::sort(devices.begin(), devices.end(), order);
    joinSystem(devices); // exact placements first: what they place is only linked to its host event
    std::vector<ClockAlignment::Device> list;
    for (int di : devices) {
        const Source &d = m_sources[size_t(di)];
        list.push_back({d.tokens, d.key, file(d).group, file(d).name.pid, d.first, d.last, d.exact || d.systemApprox, d.offset,
                        d.alignment, d.systemApprox});
    }
    const std::vector<ClockAlignment::Placement> placed = ClockAlignment::align(hosts, std::move(events), list);
    for (size_t k = 0; k < devices.size(); ++k) {
        Source &d = m_sources[size_t(devices[k])];
        const ClockAlignment::Placement &p = placed[k];
        d.aligned = p.aligned();
        d.exact = p.rule == AlignmentRule::SyncPoint;
        d.offset = p.offset;
        d.alignment = p.note;
        d.host = p.host;
        d.hostSlice = p.hostSlice;
    }
}

// Each system trace: its host clock (SystemProfileJoin::hostOffset against the framework trace of its
// process folder, else any) and the device timelines of its process folder (all of the folder when it is
// the only system trace) placed at its nc_exec_running events (marked exact; align() then only links them to
// their host event).
void Loader::joinSystem(std::vector<int> &devices)
{
    int systems = 0;
    std::map<int, std::set<std::string>> instances; // process folder -> instance ids of its system traces
    for (const Source &s : m_sources) {
        systems += s.role == FolderRole::SystemTrace;
        if (const std::string *id = s.role == FolderRole::SystemTrace ? s.trace->metadata().find("session.instance_id") : nullptr)
            instances[file(s).group].insert(*id);
    }
    for (const auto &[group, ids] : instances)
        if (ids.size() > 1) {
            std::string list;
            for (const std::string &id : ids)
                list += (list.empty() ? "" : ", ") + id;
            m_loadDiagnostics.warn("system traces of different instances in one process folder (each in its instance group; "
                                   "device traces there may be placed by either)",
                                   list);
        }
    std::set<int> placed;
    for (int si = 0; si < int(m_sources.size()); ++si) {
        Source &sys = m_sources[size_t(si)];
        if (sys.role != FolderRole::SystemTrace)
            continue;
        for (int pass = 0; pass < 2 && sys.host < 0; ++pass)
            for (int i = 0; i < int(m_sources.size()) && sys.host < 0; ++i)
                if (m_sources[size_t(i)].role == FolderRole::FrameworkTrace && (pass == 1 || file(m_sources[size_t(i)]).group == file(sys).group))
                    sys.host = i;
        sys.offset = SystemProfileJoin::hostOffset(sys.host >= 0 ? m_sources[size_t(sys.host)].trace.get() : nullptr, *sys.trace,
                                                   sys.alignment);
        std::vector<int> mine;
        std::vector<SystemProfileJoin::Device> list;
        for (int di : devices) {
            const Source &d = m_sources[size_t(di)];
            if (!placed.count(di) && (systems == 1 || file(d).group == file(sys).group) && !CaptureSession::otherInstance(*sys.trace, file(d))) {
                mine.push_back(di);
                list.push_back({d.core, d.tokens, d.deviceCore});
            }
        }
        for (const SystemProfileJoin::Placement &p : SystemProfileJoin::placeDevices(*sys.trace, list)) {
            Source &d = m_sources[size_t(mine[size_t(p.device)])];
            // A device trace that says where it ran on the device clock (NTFF v6) must lie inside the
            // execution it is placed at: else it comes from another run (CaptureSession).
            const CaptureSession::Placement check = CaptureSession::checkWindow(*sys.trace, file(d), d.deviceCore, p.slice, p.start);
            d.aligned = true;
            d.exact = !check.approximate;
            d.systemApprox = check.approximate;
            d.offset = check.start + sys.offset;
            d.system = si;
            d.systemSlice = check.slice;
            d.alignment = (check.approximate ? "approximate: placed at nc_exec_running ts=" : "sync points: placed at nc_exec_running ts=") +
                          std::to_string(d.offset) + " of " + file(sys).relativePath + " (" + p.how +
                          (check.note.empty() ? std::string() : "; " + check.note) + ")";
            placed.insert(mine[size_t(p.device)]);
        }
    }
}

void Loader::nameSources()
{
    std::set<int> groupsUsed;
    for (const Source &s : m_sources)
        groupsUsed.insert(file(s).group);
    std::set<std::string> used;
    for (Source &s : m_sources) {
        const FolderFile &f = file(s);
        const std::string where = s.where = groupsUsed.size() > 1 && !m_folder.groups()[size_t(f.group)].label.empty()
                                      ? " · " + m_folder.groups()[size_t(f.group)].label
                                      : std::string();
        if (s.role == FolderRole::SystemTrace) {
            s.name = baseName(f.relativePath) + " (system trace: runtime API, hardware)" + where;
        } else if (s.role == FolderRole::FrameworkTrace) {
            std::string what = "framework";
            if (f.name.rank >= 0)
                what += ", rank " + std::to_string(f.name.rank);
            if (const int64_t pid = pidOf(s); pid > 0)
                what += ", pid " + std::to_string(pid);
            s.name = baseName(f.relativePath) + " (" + what + ")";
        } else {
            std::string program;
            const std::string recorded = f.neffName.empty() && s.trace && s.trace->metadata().find("neff_name")
                                             ? *s.trace->metadata().find("neff_name")
                                             : f.neffName;
            if (!f.pairedWith.empty())
                program = stemOf(m_folder.files()[size_t(f.pairedWith.front())].relativePath);
            else if (!f.name.hash.empty())
                program = "neff_" + f.name.hash;
            else if (const std::string h = ProfileFolder::parseName(baseName(recorded)).hash; !h.empty())
                program = "neff_" + h; // the NEFF name recorded in the trace
            else
                program = stemOf(f.relativePath);
            s.name = "NeuronCore " + std::to_string(s.core) + " · " + program + where;
            if (f.name.session >= 0)
                s.name += " · session " + std::to_string(f.name.session);
            if (const char *note = Formats::info(s.kind).folderGroupSuffix)
                s.name += note;
        }
        s.program = s.name;
        if (!used.insert(s.name).second) {
            s.name += " (" + f.relativePath + ")";
            used.insert(s.name);
        }
    }
}

Trace Loader::merge()
{
    TraceBuilder b;
    TraceMetadata &md = b.metadata();
    md.format = "profile-folder";
    md.sourcePath = m_folder.root();
    std::map<FileOutcome, size_t> counts;
    for (const FolderFile &f : m_folder.files())
        ++counts[f.status];
    std::string summary = std::to_string(m_folder.files().size()) + " files:";
    for (const auto &[st, n] : counts)
        summary += " " + std::to_string(n) + " " + fileOutcomeName(st);
    md.entries.emplace_back("folder", m_folder.root());
    md.entries.emplace_back("folder.files", summary);
    for (const FolderFile &f : m_folder.files()) {
        md.files.push_back(m_folder.report(f));
        md.entries.emplace_back("file." + f.relativePath, md.files.back().text());
    }
    size_t sequenced = 0;
    for (const Source &s : m_sources) {
        if (s.role != FolderRole::FrameworkTrace)
            md.entries.emplace_back("alignment." + file(s).relativePath, s.alignment);
        sequenced += s.alignment.starts_with("sequence: ");
    }
    if (sequenced) // the folder's rule, as the alignment.<file> entries give each file's
        md.entries.emplace_back("alignment", "sequence: " + std::to_string(sequenced) +
                                                 " device profiles without a framework or system trace, laid out one after "
                                                 "another in folder order, a gap apart (ClockAlignment)");
    md.entries.insert(md.entries.end(), m_deviceNotes.begin(), m_deviceNotes.end());
    for (const Warning &w : m_folder.diagnostics().warnings())
        b.diagnostics().report(w.severity, "folder scan: " + w.message, w.firstSeen, w.count);
    for (const Warning &w : m_neffDiagnostics.warnings())
        b.diagnostics().report(w.severity, w.message, w.firstSeen, w.count);
    for (const Warning &w : m_loadDiagnostics.warnings())
        b.diagnostics().report(w.severity, w.message, w.firstSeen, w.count);

    // Framework traces first, then device timelines in host-time order.
    std::vector<size_t> order(m_sources.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [this](size_t a, size_t b) {
        const Source &x = m_sources[a], &y = m_sources[b];
        auto rank = [](const Source &s) { return s.role == FolderRole::FrameworkTrace ? 0 : s.role == FolderRole::SystemTrace ? 1 : 2; };
        if (rank(x) != rank(y))
            return rank(x) < rank(y);
        if (x.aligned != y.aligned)
            return x.aligned;
        return x.offset < y.offset;
    });
    TraceMerger merger(b);
    std::vector<MergeResult> results(m_sources.size());
    auto append = [&](size_t k, GroupId parent) {
        const size_t i = order[k];
        const Source &s = m_sources[i];
        const FolderFile &f = file(s);
        MergeOptions mo;
        mo.parent = parent;
        mo.timeOffsetNs = s.offset;
        if (s.role == FolderRole::DeviceTrace) {
            mo.skipGroupLevels = 2; // NtffImporter::build's "Neuron device / NeuronCore 0 (sg00)"
            mo.shareLanes = true;   // one set of lanes per NeuronCore (NeuronCoreLanes)
        }
        mo.diagnosticsPrefix = f.relativePath + ": ";
        mo.metadataPrefix = f.relativePath + ": ";
        mo.cancel = m_options.cancel;
        results[i] = merger.append(*s.trace, mo);
        if (results[i].cancelled)
            throw LoadCancelled();
        report(900 + int(90 * (k + 1) / order.size()));
    };
    size_t hostCount = 0; // framework and system traces: each its own top group
    for (; hostCount < order.size() && m_sources[order[hostCount]].role != FolderRole::DeviceTrace; ++hostCount) {
        const Source &s = m_sources[order[hostCount]];
        const bool system = s.role == FolderRole::SystemTrace;
        const GroupId top = b.addGroup(system ? GroupKind::Global : GroupKind::Process, b.intern(s.name + suffix(s)), {},
                                       system ? 0 : std::max<int64_t>(0, pidOf(s)));
        b.group(top).sortIndex = int64_t(hostCount);
        if (m_sources.size() == 1) {
            // The folder's one timeline (folder/trace.json): moved below its group, not copied, so the
            // folder costs no more time or memory than the file alone.
            Trace t = b.finishAround(std::move(*m_sources.front().trace), top, file(s).relativePath + ": ");
            report(1000);
            return t;
        }
        append(hostCount, top);
    }
    // Device timelines: one group per (instance, NeuronCore), an executions lane, the launching op linked.
    std::vector<NeuronCoreLanes::Execution> executions;
    std::vector<int64_t> launchers; // merged provisional slice index of the op (or host event), -1 none
    for (size_t k = hostCount; k < order.size(); ++k) {
        const Source &d = m_sources[order[k]];
        const FolderFile &f = file(d);
        NeuronCoreLanes::Execution e;
        e.instance = f.group;
        e.instanceLabel = d.where;
        e.core = d.core;
        e.start = d.first + d.offset;
        e.end = d.last + d.offset;
        const std::string prefix = NeuronCoreLanes::coreGroupName(d.core, std::string()) + " \xC2\xB7 ";
        e.program = d.program.starts_with(prefix) ? d.program.substr(prefix.size()) : d.program;
        e.networkName = d.networkName;
        e.ntff = f.relativePath;
        if (!f.pairedWith.empty())
            e.neff = m_folder.files()[size_t(f.pairedWith.front())].relativePath;
        e.alignment = d.alignment;
        int64_t launcher = -1;
        if (d.host >= 0) {
            const Trace &host = *m_sources[size_t(d.host)].trace;
            const uint32_t op = launchingOp(host, d.hostSlice);
            e.launchedBy = std::string(host.str(host.slice(SliceId(op)).name));
            launcher = int64_t(results[size_t(d.host)].firstSlice) + op;
        }
        executions.push_back(std::move(e));
        launchers.push_back(launcher);
    }
    const std::vector<NeuronCoreLanes::Placement> lanes = NeuronCoreLanes::place(b, executions, kDeviceSortBase + int64_t(hostCount));
    const StringId launchCat = b.intern("neuron"), launchName = b.intern("launched execution");
    for (size_t k = hostCount; k < order.size(); ++k) {
        append(k, lanes[k - hostCount].parent);
        if (launchers[k - hostCount] >= 0)
            b.addFlow(FlowEnd::slice(uint32_t(launchers[k - hostCount])), FlowEnd::slice(lanes[k - hostCount].slice), launchCat,
                      launchName, 0);
    }

    // A flow from each host execution event to the first slice of the device timeline placed there:
    // from the system trace's nc_exec_running when placed exactly, and from the framework trace's event when one matched.
    const StringId cat = b.intern("neuron"), flowName = b.intern("device execution");
    const StringId execCat = b.intern("exec"), execName = b.intern("device instructions");
    const StringId nrtCat = b.intern("nrt"), callName = b.intern("runtime call");
    for (size_t i = 0; i < m_sources.size(); ++i) {
        const Source &s = m_sources[i];
        if (s.role != FolderRole::SystemTrace || s.host < 0)
            continue;
        for (const SystemProfileJoin::Link &l : SystemProfileJoin::frameworkLinks(*m_sources[size_t(s.host)].trace, *s.trace, s.offset))
            b.addFlow(FlowEnd::slice(results[size_t(s.host)].firstSlice + l.frameworkSlice), FlowEnd::slice(results[i].firstSlice + l.callSlice),
                      nrtCat, callName, 0);
    }
    for (size_t i = 0; i < m_sources.size(); ++i) {
        const Source &d = m_sources[i];
        if (!d.aligned || (d.host < 0 && d.system < 0) || d.role == FolderRole::SystemTrace)
            continue;
        int64_t first = INT64_MAX;
        TrackId track;
        for (uint32_t t = 0; t < d.trace->tracks().size(); ++t) {
            const auto sl = d.trace->slices(TrackId(t));
            if (!sl.empty() && sl.front().start < first) {
                first = sl.front().start;
                track = results[i].tracks[t];
            }
        }
        if (track.isValid() && d.system >= 0) // also when placed approximately at its NEFF's execution
            b.addFlow(FlowEnd::slice(results[size_t(d.system)].firstSlice + d.systemSlice), FlowEnd::next(track, first + d.offset),
                      execCat, execName, 0);
        if (track.isValid() && d.host >= 0)
            b.addFlow(FlowEnd::slice(results[size_t(d.host)].firstSlice + d.hostSlice), FlowEnd::next(track, first + d.offset),
                      cat, flowName, 0);
    }
    Trace t = b.finish();
    report(1000);
    return t;
}

Trace Loader::run()
{
    report(0);
    loadAll();
    if (m_sources.empty()) {
        std::string what;
        size_t listed = 0;
        for (const FolderFile &f : m_folder.files())
            if (listed++ < 6)
                what += "\n  " + f.relativePath + ": " + m_folder.statusText(f);
        if (m_folder.files().size() > 6)
            what += "\n  ... and " + std::to_string(m_folder.files().size() - 6) + " more";
        throw ImportError(m_folder.root(), m_folder.files().empty()
                                               ? std::string("the folder holds no files")
                                               : "no file in this folder has a timeline (a trace JSON or an NTFF); found:" + what);
    }
    align();
    nameSources();
    for (const Source &s : m_sources) {
        const FolderFile &f = file(s);
        std::string detail = f.detail;
        const std::string shown = "'" + s.name + suffix(s) + "'";
        const std::string as = "loaded as " + shown;
        if (f.status == FileOutcome::Loaded) // a timeline of its own (framework, system, neuron-profile JSON)
            detail = "as " + shown + ", " + std::to_string(s.trace->allSlices().size()) + " slices" +
                     (s.trace->metadata().synthetic ? ", synthetic data" : "");
        else if (f.status == FileOutcome::Unpaired)
            detail += "; " + as + " without NEFF";
        else
            detail = as;
        m_folder.setOutcome(s.file, f.status, detail);
    }
    return merge();
}

} // namespace

Trace ProfileFolderLoader::load(const ProfileFolder &folder, const LoadOptions &options)
{
    return Loader(folder, options).run();
}

} // namespace lanescope
