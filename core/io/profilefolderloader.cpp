#include "profilefolderloader.h"

#include "chromejsonimporter.h"
#include "inputbuffer.h"
#include "model/tracemerger.h"
#include "neffreader.h"
#include "ntffimporter.h"
#include "ntffreader.h"
#include "systemprofileimporter.h"
#include "systemprofilejoin.h"
#include "traceloader.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <tuple>

namespace lanescope {

namespace {

constexpr int64_t kDeviceSortBase = 1000;

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char &c : out)
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    return out;
}

bool isAlnum(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// `token` occurs in `text` with no letter or digit right before or after it.
bool hasToken(std::string_view text, std::string_view token)
{
    if (token.empty())
        return false;
    for (size_t at = text.find(token); at != std::string_view::npos; at = text.find(token, at + 1)) {
        const bool before = at == 0 || !isAlnum(text[at - 1]);
        const bool after = at + token.size() >= text.size() || !isAlnum(text[at + token.size()]);
        if (before && after)
            return true;
    }
    return false;
}

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
    FolderFileKind kind = FolderFileKind::Other;
    std::shared_ptr<const Trace> trace;
    std::string name; // top group name, without the aligned suffix
    // devices
    std::vector<std::string> tokens; // hash, uuid (plain and dashed), lowercase
    std::string key;                 // identity + core: device traces of one NEFF on one core
    int64_t core = 0;
    bool aligned = false;
    bool exact = false; // placed at an nc_exec_running of a system trace (not approximate)
    int system = -1;    // that system trace's source index
    uint32_t systemSlice = 0;
    int64_t offset = 0;
    std::string alignment;
    int host = -1;          // source index of the framework trace it is aligned to
    uint32_t hostSlice = 0; // slice index in that trace
};

struct HostEvent
{
    int source = -1;
    uint32_t slice = 0;
    int64_t start = 0;
    int tier = 0; // 0 runtime execute, 1 other runtime call, 2 driver
    int64_t pid = -1;
    std::string name;
    std::string text; // name and args, lowercase
    bool claimed = false;
};

// Host execution events of a framework trace: privateuse1_runtime / privateuse1_driver slices.
void collectHostEvents(const Trace &t, int source, std::vector<HostEvent> &out)
{
    const StringId runtime = t.strings().find("privateuse1_runtime");
    const StringId driver = t.strings().find("privateuse1_driver");
    if (!runtime.isValid() && !driver.isValid())
        return;
    for (uint32_t ti = 0; ti < t.tracks().size(); ++ti) {
        const Track &tr = t.tracks()[ti];
        int64_t pid = -1;
        for (GroupId g = tr.group; g.isValid(); g = t.group(g).parent)
            if (t.group(g).kind == GroupKind::Process)
                pid = t.group(g).externalId;
        const auto slices = t.slices(TrackId(ti));
        for (uint32_t i = 0; i < slices.size(); ++i) {
            const Slice &s = slices[i];
            const bool isRuntime = runtime.isValid() && s.category == runtime;
            if (!isRuntime && !(driver.isValid() && s.category == driver))
                continue;
            HostEvent e;
            e.source = source;
            e.slice = tr.sliceBegin + i;
            e.start = s.start;
            e.pid = pid;
            e.name = std::string(t.str(s.name));
            e.text = lower(e.name);
            for (const Arg &a : t.args().args(s.args)) {
                e.text += ' ';
                if (a.type == ArgType::String || a.type == ArgType::Json)
                    e.text += lower(t.str(a.stringValue()));
                else if (a.type == ArgType::Int)
                    e.text += std::to_string(a.value.i);
                else if (a.type == ArgType::UInt)
                    e.text += std::to_string(a.value.u);
            }
            e.tier = !isRuntime ? 2 : lower(e.name).find("exec") != std::string::npos ? 0 : 1;
            out.push_back(std::move(e));
        }
    }
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
    std::vector<HostEvent> m_events;
    std::vector<std::pair<std::string, std::string>> m_deviceNotes; // metadata from paired NEFFs
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
        const bool loadable = (f.kind == FolderFileKind::ChromeTrace || f.kind == FolderFileKind::NeuronProfileJson ||
                               f.kind == FolderFileKind::Ntff || f.kind == FolderFileKind::SystemProfileJson) &&
                              (f.status == FolderFileStatus::Loaded || f.status == FolderFileStatus::Paired ||
                               f.status == FolderFileStatus::Unpaired);
        if (loadable) {
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
            m_folder.setOutcome(i, FolderFileStatus::NotReadable,
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
    try {
        if (f.kind == FolderFileKind::NeuronProfileJson) {
            LoadResult r = TraceLoader::load(f.path, sub);
            if (r.cancelled)
                throw LoadCancelled();
            if (!r.ok()) {
                m_folder.setOutcome(index, FolderFileStatus::NotReadable, r.error);
                return;
            }
            s.trace = r.trace;
            identify(s);
        } else if (f.kind == FolderFileKind::ChromeTrace) {
            InputBuffer input = InputBuffer::read(f.path, sub);
            s.trace = std::make_shared<const Trace>(ChromeJsonImporter::import(input, f.path, sub));
        } else if (f.kind == FolderFileKind::SystemProfileJson) {
            InputBuffer input = InputBuffer::read(f.path, sub);
            s.trace = std::make_shared<const Trace>(SystemProfileImporter::import(input, f.path, sub));
        } else {
            InputBuffer input = InputBuffer::read(f.path, sub);
            LoadOptions decode;
            decode.cancel = sub.cancel;
            decode.memoryBudget = sub.memoryBudget;
            if (sub.progress)
                decode.progress = [&sub](int permille) { sub.report(permille * 9 / 10); };
            NtffProfile profile = NtffReader::read(input.view(), f.path, decode);
            if (f.status == FolderFileStatus::Paired && !f.pairedWith.empty())
                nameFromNeff(f, profile);
            s.trace = std::make_shared<const Trace>(NtffImporter::build(profile, f.path, sub));
            identify(s);
        }
    } catch (const ImportError &e) {
        m_folder.setOutcome(index, FolderFileStatus::NotReadable, e.what());
        return;
    } catch (const std::bad_alloc &) {
        m_folder.setOutcome(index, FolderFileStatus::NotReadable, "out of memory while loading");
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
        m_folder.setOutcome(n, FolderFileStatus::NotReadable,
                            "its header uuid matches " + ntff.relativePath + " but it cannot be read: " + e.what());
        return;
    }
    const std::string p = ntff.relativePath + ": neff.";
    m_deviceNotes.emplace_back(p + "file", neff.relativePath);
    m_deviceNotes.emplace_back(p + "network_name", info.header.networkName);
    m_deviceNotes.emplace_back(p + "compiler_version", info.compilerVersion);
    m_deviceNotes.emplace_back(p + "target", info.target);
    const NeffSubgraph *sg = info.subgraph(profile.subgraphName);
    if (!sg && !info.subgraphs.empty())
        sg = &info.subgraphs.front();
    if (!sg)
        return;
    for (const NtffSemaphoreRow &r : profile.semaphores)
        if (!profile.semaphoreNames.count(r.id))
            if (const NeffDmaQueue *q = sg->queueForSemaphore(r.id))
                profile.semaphoreNames.emplace(r.id, ntffQueueDisplayName(q->name));
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
    const std::string uuid = f.uuid.empty() ? lower(recorded("uuid")) : f.uuid;
    std::string hash = f.name.hash;
    if (hash.empty() && !f.pairedWith.empty())
        hash = m_folder.files()[size_t(f.pairedWith.front())].name.hash;
    if (hash.empty() && !neffName.empty())
        hash = ProfileFolder::parseName(baseName(neffName)).hash;
    if (!hash.empty())
        s.tokens.push_back(lower(hash));
    if (uuid.size() == 32 && uuid.find_first_not_of('0') != std::string::npos) {
        s.tokens.push_back(uuid);
        s.tokens.push_back(uuid.substr(0, 8) + '-' + uuid.substr(8, 4) + '-' + uuid.substr(12, 4) + '-' +
                           uuid.substr(16, 4) + '-' + uuid.substr(20));
    }
    s.core = std::max<int64_t>(0, f.name.core);
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
    for (int i = 0; i < int(m_sources.size()); ++i) {
        Source &s = m_sources[size_t(i)];
        if (s.kind == FolderFileKind::ChromeTrace)
            collectHostEvents(*s.trace, i, m_events);
        else if (s.kind != FolderFileKind::SystemProfileJson)
            devices.push_back(i); // NTFFs and neuron-profile JSON exports
    }
    auto order = [this](int a, int b) {
        const FolderFile &x = file(m_sources[size_t(a)]), &y = file(m_sources[size_t(b)]);
        return std::tie(x.name.exec, x.name.session, x.name.instanceIndex, x.relativePath) <
               std::tie(y.name.exec, y.name.session, y.name.instanceIndex, y.relativePath);
    };
    std::sort(devices.begin(), devices.end(), order);
    joinSystem(devices); // exact placements first: what they place is only linked to its host event below
    auto sameGroupHosts = [this](const Source &d) {
        std::set<int> hosts;
        for (int i = 0; i < int(m_sources.size()); ++i)
            if (m_sources[size_t(i)].kind == FolderFileKind::ChromeTrace && file(m_sources[size_t(i)]).group == file(d).group)
                hosts.insert(i);
        return hosts;
    };
    // Identity matches are specific enough to look in every framework trace when none shares the folder.
    auto identityHosts = [&](const Source &d) {
        std::set<int> hosts = sameGroupHosts(d);
        for (int i = 0; hosts.empty() && i < int(m_sources.size()); ++i)
            if (m_sources[size_t(i)].kind == FolderFileKind::ChromeTrace)
                hosts.insert(i);
        return hosts;
    };
    // A device trace the system trace placed exactly keeps that placement: its host event only links it
    // (the framework trace's runtime call -> the device timeline), so analyses find the launching op.
    auto place = [](Source &d, const HostEvent &e, const std::string &how) {
        d.host = e.source;
        d.hostSlice = e.slice;
        if (d.exact)
            return;
        d.aligned = true;
        d.offset = e.start;
        d.alignment = "approximate: placed at " + e.name + " ts=" + std::to_string(e.start) + " (" + how + ")";
    };

    // 1. By identity: the hash or uuid appears in the event.
    std::map<std::string, std::vector<int>> byKey; // devices of one NEFF on one core, in order
    std::set<int> matchedByIdentity;
    for (int di : devices) {
        Source &d = m_sources[size_t(di)];
        if (d.tokens.empty())
            continue;
        const std::set<int> hosts = identityHosts(d);
        bool any = false;
        for (const HostEvent &e : m_events)
            if (hosts.count(e.source))
                for (const std::string &t : d.tokens)
                    any = any || hasToken(e.text, t);
        if (any)
            byKey[d.key].push_back(di);
    }
    for (auto &[key, list] : byKey) {
        Source &first = m_sources[size_t(list.front())];
        const std::set<int> hosts = identityHosts(first);
        std::vector<HostEvent *> matches;
        std::string matchedToken;
        for (HostEvent &e : m_events) {
            if (!hosts.count(e.source))
                continue;
            for (const std::string &t : first.tokens)
                if (hasToken(e.text, t)) {
                    matches.push_back(&e);
                    if (matchedToken.empty())
                        matchedToken = t;
                    break;
                }
        }
        int tier = 3;
        for (const HostEvent *e : matches)
            tier = std::min(tier, e->tier);
        std::erase_if(matches, [tier](const HostEvent *e) { return e->tier != tier; });
        std::stable_sort(matches.begin(), matches.end(), [](const HostEvent *a, const HostEvent *b) { return a->start < b->start; });
        const std::string what = matchedToken.size() == 32 || matchedToken.size() == 36 ? "uuid " : "NEFF hash ";
        for (size_t k = 0; k < list.size(); ++k) {
            Source &d = m_sources[size_t(list[k])];
            matchedByIdentity.insert(list[k]);
            if (k >= matches.size()) {
                if (!d.exact)

                    d.alignment = "none: own clock, 0 = start of this device trace (" + std::to_string(list.size()) +
                              " device traces but only " + std::to_string(matches.size()) +
                              " host execution events carry " + what + matchedToken + ")";
                continue;
            }
            matches[k]->claimed = true;
            place(d, *matches[k], "the " + what + matchedToken + " appears in the event; execution " + std::to_string(k + 1) +
                                      " of " + std::to_string(matches.size()) + " carrying it");
        }
    }

    // 2. By order: remaining device traces and unclaimed execution events of the same process folder.
    std::map<int, std::vector<int>> byGroup;
    for (int di : devices)
        if (!matchedByIdentity.count(di))
            byGroup[file(m_sources[size_t(di)]).group].push_back(di);
    for (auto &[group, list] : byGroup) {
        const std::set<int> hosts = sameGroupHosts(m_sources[size_t(list.front())]);
        if (hosts.empty()) {
            for (int di : list)
                if (!m_sources[size_t(di)].exact)

                    m_sources[size_t(di)].alignment =
                    "none: own clock, 0 = start of this device trace (no framework trace in its process folder)";
            continue;
        }
        const int64_t pid = file(m_sources[size_t(list.front())]).name.pid;
        std::vector<HostEvent *> events;
        for (int tier : {0, 2}) {
            for (HostEvent &e : m_events)
                if (hosts.count(e.source) && !e.claimed && e.tier == tier)
                    events.push_back(&e);
            if (!events.empty())
                break;
        }
        if (pid >= 0 && std::any_of(events.begin(), events.end(), [pid](const HostEvent *e) { return e->pid == pid; }))
            std::erase_if(events, [pid](const HostEvent *e) { return e->pid != pid; });
        std::stable_sort(events.begin(), events.end(), [](const HostEvent *a, const HostEvent *b) { return a->start < b->start; });
        for (size_t k = 0; k < list.size(); ++k) {
            Source &d = m_sources[size_t(list[k])];
            if (k >= events.size()) {
                if (!d.exact)

                    d.alignment = "none: own clock, 0 = start of this device trace (" +
                              (events.empty() ? std::string("the framework trace has no privateuse1 execution events")
                                              : "more device traces (" + std::to_string(list.size()) + ") than unmatched execution events (" +
                                                    std::to_string(events.size()) + ")") +
                              ")";
                continue;
            }
            events[k]->claimed = true;
            place(d, *events[k], "by order: device trace " + std::to_string(k + 1) + " of " + std::to_string(list.size()) +
                                     ", execution event " + std::to_string(k + 1) + " of " + std::to_string(events.size()) +
                                     " without a hash or uuid match");
        }
    }
}

// Each system trace: its host clock (SystemProfileJoin::hostOffset against the framework trace of its
// process folder, else any) and the device timelines of its process folder (all of the folder when it is
// the only system trace) placed at its nc_exec_running events (marked exact; align() then only links them to
// their host event).
void Loader::joinSystem(std::vector<int> &devices)
{
    int systems = 0;
    for (const Source &s : m_sources)
        systems += s.kind == FolderFileKind::SystemProfileJson;
    std::set<int> placed;
    for (int si = 0; si < int(m_sources.size()); ++si) {
        Source &sys = m_sources[size_t(si)];
        if (sys.kind != FolderFileKind::SystemProfileJson)
            continue;
        for (int pass = 0; pass < 2 && sys.host < 0; ++pass)
            for (int i = 0; i < int(m_sources.size()) && sys.host < 0; ++i)
                if (m_sources[size_t(i)].kind == FolderFileKind::ChromeTrace && (pass == 1 || file(m_sources[size_t(i)]).group == file(sys).group))
                    sys.host = i;
        sys.offset = SystemProfileJoin::hostOffset(sys.host >= 0 ? m_sources[size_t(sys.host)].trace.get() : nullptr, *sys.trace,
                                                   sys.alignment);
        std::vector<int> mine;
        std::vector<SystemProfileJoin::Device> list;
        for (int di : devices) {
            const Source &d = m_sources[size_t(di)];
            if (!placed.count(di) && (systems == 1 || file(d).group == file(sys).group)) {
                mine.push_back(di);
                list.push_back({d.core, d.tokens});
            }
        }
        for (const SystemProfileJoin::Placement &p : SystemProfileJoin::placeDevices(*sys.trace, list)) {
            Source &d = m_sources[size_t(mine[size_t(p.device)])];
            d.aligned = d.exact = true;
            d.offset = p.start + sys.offset;
            d.system = si;
            d.systemSlice = p.slice;
            d.alignment = "sync points: placed at nc_exec_running ts=" + std::to_string(d.offset) + " of " + file(sys).relativePath +
                          " (" + p.how + ")";
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
        const std::string where = groupsUsed.size() > 1 && !m_folder.groups()[size_t(f.group)].label.empty()
                                      ? " · " + m_folder.groups()[size_t(f.group)].label
                                      : std::string();
        if (s.kind == FolderFileKind::SystemProfileJson) {
            s.name = baseName(f.relativePath) + " (system trace: runtime API, hardware)" + where;
        } else if (s.kind == FolderFileKind::ChromeTrace) {
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
            if (s.kind == FolderFileKind::NeuronProfileJson)
                s.name += " (neuron-profile JSON)";
        }
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
    std::map<FolderFileStatus, size_t> counts;
    for (const FolderFile &f : m_folder.files())
        ++counts[f.status];
    std::string summary = std::to_string(m_folder.files().size()) + " files:";
    for (const auto &[st, n] : counts)
        summary += " " + std::to_string(n) + " " + ProfileFolder::statusName(st);
    md.entries.emplace_back("folder", m_folder.root());
    md.entries.emplace_back("folder.files", summary);
    for (const FolderFile &f : m_folder.files())
        md.entries.emplace_back("file." + f.relativePath, m_folder.statusText(f));
    for (const Source &s : m_sources)
        if (s.kind != FolderFileKind::ChromeTrace)
            md.entries.emplace_back("alignment." + file(s).relativePath, s.alignment);
    md.entries.insert(md.entries.end(), m_deviceNotes.begin(), m_deviceNotes.end());
    for (const Warning &w : m_folder.diagnostics().warnings())
        b.diagnostics().warn("folder scan: " + w.message, w.firstSeen, w.count);

    // Framework traces first, then device timelines in host-time order.
    std::vector<size_t> order(m_sources.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [this](size_t a, size_t b) {
        const Source &x = m_sources[a], &y = m_sources[b];
        auto rank = [](const Source &s) { return s.kind == FolderFileKind::ChromeTrace ? 0 : s.kind == FolderFileKind::SystemProfileJson ? 1 : 2; };
        if (rank(x) != rank(y))
            return rank(x) < rank(y);
        if (x.aligned != y.aligned)
            return x.aligned;
        return x.offset < y.offset;
    });
    TraceMerger merger(b);
    std::vector<MergeResult> results(m_sources.size());
    for (size_t k = 0; k < order.size(); ++k) {
        const size_t i = order[k];
        const Source &s = m_sources[i];
        const FolderFile &f = file(s);
        const bool system = s.kind == FolderFileKind::SystemProfileJson;
        const bool device = s.kind != FolderFileKind::ChromeTrace && !system;
        const std::string name = s.name + suffix(s);
        const GroupId top = b.addGroup(system ? GroupKind::Global : device ? GroupKind::NeuronCore : GroupKind::Process, b.intern(name), {},
                                       device ? s.core : system ? 0 : std::max<int64_t>(0, pidOf(s)));
        b.group(top).sortIndex = device ? kDeviceSortBase + int64_t(k) : int64_t(k);
        MergeOptions mo;
        mo.parent = top;
        mo.timeOffsetNs = s.offset;
        mo.skipGroupLevels = device ? 2 : 0; // NtffImporter::build's "Neuron device / NeuronCore 0 (sg00)"
        mo.diagnosticsPrefix = f.relativePath + ": ";
        mo.metadataPrefix = f.relativePath + ": ";
        mo.cancel = m_options.cancel;
        results[i] = merger.append(*s.trace, mo);
        if (results[i].cancelled)
            throw LoadCancelled();
        report(900 + int(90 * (k + 1) / order.size()));
    }

    // A flow from each host execution event to the first slice of the device timeline placed there:
    // from the system trace's nc_exec_running when placed exactly, and from the framework trace's event when one matched.
    const StringId cat = b.intern("neuron"), flowName = b.intern("device execution");
    const StringId execCat = b.intern("exec"), execName = b.intern("device instructions");
    const StringId nrtCat = b.intern("nrt"), callName = b.intern("runtime call");
    for (size_t i = 0; i < m_sources.size(); ++i) {
        const Source &s = m_sources[i];
        if (s.kind != FolderFileKind::SystemProfileJson || s.host < 0)
            continue;
        for (const SystemProfileJoin::Link &l : SystemProfileJoin::frameworkLinks(*m_sources[size_t(s.host)].trace, *s.trace, s.offset))
            b.addFlow(FlowEnd::slice(results[size_t(s.host)].firstSlice + l.frameworkSlice), FlowEnd::slice(results[i].firstSlice + l.callSlice),
                      nrtCat, callName, 0);
    }
    for (size_t i = 0; i < m_sources.size(); ++i) {
        const Source &d = m_sources[i];
        if (!d.aligned || (d.host < 0 && !d.exact) || d.kind == FolderFileKind::SystemProfileJson)
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
        if (track.isValid() && d.exact)
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
        if (s.kind == FolderFileKind::ChromeTrace || s.kind == FolderFileKind::NeuronProfileJson ||
            s.kind == FolderFileKind::SystemProfileJson)
            detail = "as " + shown + ", " + std::to_string(s.trace->allSlices().size()) + " slices" +
                     (s.trace->metadata().synthetic ? ", synthetic data" : "");
        else if (f.status == FolderFileStatus::Unpaired)
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
