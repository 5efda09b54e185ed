#include "neffreader.h"

#include "neffheaderreader.h"

#include <QFile>
#include <QFileInfo>

#include <archive.h>
#include <archive_entry.h>
#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <set>

namespace lanescope {

namespace {

namespace dom = simdjson::dom;

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
std::string_view baseName(std::string_view path)
{
    return path.substr(path.rfind('/') + 1); // npos + 1 == 0
}
std::string_view stemOf(std::string_view file)
{
    return file.substr(0, file.rfind('.'));
}

// "./a/b" -> "a/b": how tar writers sometimes spell relative names.
std::string_view normalized(std::string_view name)
{
    while (name.substr(0, 2) == "./")
        name.remove_prefix(2);
    return name;
}

// "sg00/def.json" -> "sg00"; empty unless the first component is "sg" followed by digits.
std::string_view subgraphOf(std::string_view name)
{
    const size_t slash = name.find('/');
    if (slash == std::string_view::npos || slash < 3 || name.substr(0, 2) != "sg")
        return {};
    for (size_t i = 2; i < slash; ++i)
        if (name[i] < '0' || name[i] > '9')
            return {};
    return name.substr(0, slash);
}

// An absolute path or a ".." component (either slash): such a name could escape a target folder.
bool isUnsafeName(std::string_view name)
{
    std::string n = "/" + std::string(name) + "/";
    std::replace(n.begin(), n.end(), '\\', '/');
    return !name.empty() && (n[1] == '/' || n.find("/../") != std::string::npos);
}

uint64_t satAdd(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

std::string errorText(archive *a)
{
    const char *why = archive_error_string(a);
    return why ? why : "data ends early";
}

std::string mib(uint64_t bytes)
{
    return std::to_string(bytes >> 20) + " MiB";
}

// ---- small JSON helpers over simdjson DOM (error codes, never exceptions) ----

std::string jsonString(dom::element e)
{
    std::string_view v;
    return e.get_string().get(v) == simdjson::SUCCESS ? std::string(v) : std::string();
}

bool jsonInt(dom::element e, int64_t &out)
{
    uint64_t u = 0;
    if (e.get_int64().get(out) == simdjson::SUCCESS)
        return true;
    if (e.get_uint64().get(u) != simdjson::SUCCESS)
        return false;
    out = INT64_MAX; // above 2^63: saturate
    return true;
}

std::string fieldString(dom::object o, std::string_view key)
{
    dom::element e;
    return o.at_key(key).get(e) == simdjson::SUCCESS ? jsonString(e) : std::string();
}

bool fieldInt(dom::object o, std::string_view key, int64_t &out)
{
    dom::element e;
    return o.at_key(key).get(e) == simdjson::SUCCESS && jsonInt(e, out);
}

std::vector<int64_t> intArray(dom::object o, std::string_view key)
{
    std::vector<int64_t> out;
    dom::array a;
    if (o.at_key(key).get_array().get(a) != simdjson::SUCCESS)
        return out;
    for (dom::element e : a) {
        int64_t v = 0;
        if (jsonInt(e, v))
            out.push_back(v);
    }
    return out;
}

// Product of a sizes array (bytes moved by one descriptor side), saturating; 0 when absent.
uint64_t sizesProduct(dom::object o, std::string_view key)
{
    const std::vector<int64_t> sizes = intArray(o, key);
    if (sizes.empty())
        return 0;
    uint64_t p = 1;
    for (int64_t s : sizes) {
        if (s < 0)
            return 0;
        if (__builtin_mul_overflow(p, uint64_t(s), &p))
            return UINT64_MAX;
    }
    return p;
}

NeffMemberType memberType(archive_entry *e)
{
    const auto ft = archive_entry_filetype(e);
    return archive_entry_hardlink(e) ? NeffMemberType::Hardlink
           : ft == AE_IFREG          ? NeffMemberType::File
           : ft == AE_IFDIR          ? NeffMemberType::Directory
           : ft == AE_IFLNK          ? NeffMemberType::Symlink
                                     : NeffMemberType::Other;
}

struct ArchiveFree
{
    void operator()(archive *a) const { archive_read_free(a); }
};
using ArchivePtr = std::unique_ptr<archive, ArchiveFree>;

using TensorInfo = std::pair<std::string, std::vector<int64_t>>; // dtype, shape

// One read of a NEFF: header, payload check, tar walk, JSON members -> NeffInfo.
class NeffParse
{
public:
    NeffParse(std::string_view bytes, const std::string &name, const LoadOptions &options)
        : m_bytes(bytes), m_name(name), m_options(options)
    {
        m_info.file = name;
        m_info.fileSize = bytes.size();
    }

    NeffInfo run();

private:
    void walk();
    static bool wanted(std::string_view name);
    bool readMember(archive *a, const std::string &name, uint64_t size);
    bool skipMember(archive *a);
    void checkCancel() const
    {
        if (m_options.cancelled())
            throw LoadCancelled();
    }
    void warn(std::string_view message, std::string_view where = {}) { m_info.diagnostics.warn(message, where); }
    uint64_t payloadOffset(archive *a) const { return NeffReader::kHeaderSize + uint64_t(archive_filter_bytes(a, -1)); }

    bool rootObject(const std::string &member, dom::element &root, dom::object &o);
    void parseInfo();
    void parseHloStats();
    void parseKelf();
    void collectSubgraphs();
    void parseDefinition(NeffSubgraph &sg);
    void parseEngineJson(NeffSubgraph &sg, NeffEngineFile &file);
    void parseTensorMap(NeffSubgraph &sg);
    void addEngineFile(NeffSubgraph &sg, const std::string &member, NeffEngine engine, NeffEngineFileRole role);

    std::string_view m_bytes;
    std::string m_name;
    const LoadOptions &m_options;
    NeffInfo m_info;
    std::string_view m_payload;

    std::map<std::string, simdjson::padded_string, std::less<>> m_json; // normalized name -> bytes (JSON, debug protobuf)
    std::map<std::string, uint64_t, std::less<>> m_sizes;               // normalized name -> size
    std::vector<std::pair<std::string, std::string>> m_kelfGraphs;      // name, definition
    uint64_t m_held = 0; // bytes of JSON text and member names held in memory
    uint64_t m_jsonCap = 0;
    dom::parser m_parser;
};

NeffInfo NeffParse::run()
{
    m_payload = NeffHeaderReader::read(m_bytes, m_name, m_info);
    NeffHeaderReader::checkMd5(m_payload, m_info, m_options);
    if (m_payload.size() >= 2 && uint8_t(m_payload[0]) == 0x1f && uint8_t(m_payload[1]) == 0x8b) {
        m_info.compression = NeffPayloadCompression::Gzip;
    } else if (m_payload.size() >= 262 && m_payload.substr(257, 5) == "ustar") {
        m_info.compression = NeffPayloadCompression::Tar;
    } else {
        throw ImportError(m_name, NeffReader::kHeaderSize,
                          "NEFF payload is neither gzip (1f 8b) nor a POSIX tar (\"ustar\" at payload byte 257)");
    }
    m_jsonCap = std::min(NeffReader::kMaxJsonMember, m_options.memoryBudget);
    walk();
    parseInfo();
    parseHloStats();
    parseKelf();
    collectSubgraphs();
    for (NeffSubgraph &sg : m_info.subgraphs) {
        for (size_t i = 0; i < sg.engineFiles.size(); ++i)
            if (sg.engineFiles[i].role == NeffEngineFileRole::Descriptors)
                parseEngineJson(sg, sg.engineFiles[i]);
        parseTensorMap(sg);
    }
    std::vector<std::string> names;
    for (const NeffSubgraph &sg : m_info.subgraphs)
        names.push_back(sg.name);
    m_info.debug = NeffDebugInfo::parse(
        [this](std::string_view member) -> std::optional<std::string_view> {
            const auto it = m_json.find(member);
            return it == m_json.end() ? std::nullopt : std::optional<std::string_view>(std::string_view(it->second.data(), it->second.size()));
        },
        names, m_name, m_info.diagnostics);
    m_options.report(1000);
    return std::move(m_info);
}

// The members kept in memory: info.json, kelf-*.json and the direct children sgNN/*.json (def.json,
// tensor_map.json, the engine files whatever def.json calls them, and a few small tables), and the
// debug members of the instruction-to-op chain (debug_info/*.dbg_sg*, sgNN/debug_info_*.dbg).
bool NeffParse::wanted(std::string_view name)
{
    if (name.find('/') == std::string_view::npos)
        return name == "info.json" || name == "hlo_stats.json" || (name.substr(0, 5) == "kelf-" && endsWith(name, ".json"));
    if (name.substr(0, 11) == "debug_info/" && name.find('/', 11) == std::string_view::npos && name.find(".dbg_sg") != std::string_view::npos)
        return true;
    const std::string_view sg = subgraphOf(name);
    if (sg.empty() || name.find('/', sg.size() + 1) != std::string_view::npos)
        return false;
    const std::string_view base = name.substr(sg.size() + 1);
    return endsWith(name, ".json") || (base.substr(0, 11) == "debug_info_" && endsWith(name, ".dbg"));
}

// Walks the tar in memory once: lists every member, keeps the wanted JSON, skips the rest.
void NeffParse::walk()
{
    ArchivePtr a(archive_read_new());
    if (!a)
        throw ImportError(m_name, "cannot create a libarchive reader");
    archive_read_support_filter_gzip(a.get());
    archive_read_support_format_tar(a.get());
    if (archive_read_open_memory(a.get(), m_payload.data(), m_payload.size()) != ARCHIVE_OK)
        throw ImportError(m_name, NeffReader::kHeaderSize,
                          "cannot open the NEFF payload as a tar: " + errorText(a.get()));
    const char *const kBroken = "NEFF payload breaks off or is damaged; later members are missing";
    for (;;) {
        checkCancel();
        archive_entry *e = nullptr;
        const int r = archive_read_next_header(a.get(), &e);
        if (r == ARCHIVE_EOF) {
            m_info.complete = true;
            break;
        }
        if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
            if (m_info.members.empty())
                throw ImportError(m_name, payloadOffset(a.get()),
                                  "NEFF payload is not a readable tar: " + errorText(a.get()));
            warn(kBroken, "byte " + std::to_string(payloadOffset(a.get())) + ", after member '" +
                              m_info.members.back().name + "': " + errorText(a.get()));
            break;
        }
        if (r == ARCHIVE_WARN)
            warn("tar reader warning", errorText(a.get()));
        if (m_info.members.size() >= NeffReader::kMaxMembers || m_held + sizeof(NeffMember) > m_options.memoryBudget) {
            warn("too many tar members (member count or memory budget); the rest were not listed",
                 "member #" + std::to_string(m_info.members.size()));
            break;
        }
        const char *pathname = archive_entry_pathname(e);
        NeffMember m;
        m.name = pathname ? pathname : "";
        m.size = archive_entry_size_is_set(e) && archive_entry_size(e) > 0 ? uint64_t(archive_entry_size(e)) : 0;
        m.type = memberType(e);
        m.unsafeName = isUnsafeName(m.name);
        const std::string norm(normalized(m.name));
        const bool regular = m.type == NeffMemberType::File && !m.unsafeName;
        if (m.unsafeName)
            warn("member name is an absolute path or contains '..' (listed only; nothing is written to disk)",
                 "member '" + m.name + "'");
        if (regular && baseName(norm) == "kernel_debug_info.json") {
            m_info.hasKernelDebugInfo = true;
            m_info.kernelDebugInfoSize = m.size;
        }
        if (regular)
            m_sizes[norm] = m.size;
        m_held += m.name.size() + sizeof(NeffMember);
        m_info.members.push_back(m);
        const bool ok = regular && wanted(norm) ? readMember(a.get(), norm, m.size) : skipMember(a.get());
        m_info.tarBytes = uint64_t(archive_filter_bytes(a.get(), 0));
        m_options.report(200 + int(700 * std::min<uint64_t>(m_payload.size(), archive_filter_bytes(a.get(), -1)) /
                                   m_payload.size()));
        if (!ok) {
            warn(kBroken, "byte " + std::to_string(payloadOffset(a.get())) + ", in member '" + m.name +
                              "': " + errorText(a.get()));
            break;
        }
        if (m_info.tarBytes > m_options.memoryBudget) {
            warn("decompressed NEFF payload exceeds the memory budget; later members were not read",
                 "budget " + mib(m_options.memoryBudget));
            break;
        }
    }
    m_info.tarBytes = uint64_t(archive_filter_bytes(a.get(), 0));
}

// Reads one wanted member (JSON or debug protobuf) into memory, within the per-member cap and the total budget.
// Returns false when the data breaks off (the walk stops); an over-size member is skipped.
bool NeffParse::readMember(archive *a, const std::string &name, uint64_t size)
{
    // deflate expands at most ~1032:1, so a larger size in a tar header cannot be real data.
    const uint64_t plausible =
        m_info.compression == NeffPayloadCompression::Gzip
            ? (m_payload.size() > UINT64_MAX / 1032 ? UINT64_MAX : uint64_t(m_payload.size()) * 1032)
            : uint64_t(m_payload.size());
    const char *skip = size > plausible   ? "member header claims more bytes than the payload can hold; member skipped"
                       : size > m_jsonCap ? "member larger than the per-member cap was skipped (not read)"
                       : m_held + size > m_options.memoryBudget ? "member skipped: the memory budget is used up"
                                                                : nullptr;
    if (skip) {
        warn(skip, name + " (" + std::to_string(size) + " bytes; cap " + mib(m_jsonCap) + ")");
        return skipMember(a);
    }
    if (m_json.count(name))
        warn("member appears more than once; the last copy is used", name);
    simdjson::padded_string text(static_cast<size_t>(size));
    if (size > 0 && !text.data())
        throw ImportError(m_name, "out of memory reading NEFF member " + name);
    size_t got = 0;
    while (got < size) {
        checkCancel();
        const la_ssize_t n = archive_read_data(a, text.data() + got, size_t(size) - got);
        if (n <= 0)
            return false;
        got += size_t(n);
    }
    m_held += size;
    m_json.insert_or_assign(name, std::move(text));
    return true;
}

bool NeffParse::skipMember(archive *a)
{
    const void *block = nullptr;
    size_t n = 0;
    la_int64_t offset = 0;
    for (;;) {
        checkCancel();
        const int r = archive_read_data_block(a, &block, &n, &offset);
        if (r == ARCHIVE_EOF)
            return true;
        if (r != ARCHIVE_OK && r != ARCHIVE_WARN)
            return false;
        if (uint64_t(archive_filter_bytes(a, 0)) > m_options.memoryBudget)
            return true; // the caller stops the walk with a budget warning
    }
}

// Parses a kept JSON member whose top level must be an object. The parser is reused, so `root`
// and `o` stay valid only until the next call.
bool NeffParse::rootObject(const std::string &member, dom::element &root, dom::object &o)
{
    auto it = m_json.find(member);
    if (it == m_json.end())
        return false;
    const simdjson::error_code err = m_parser.parse(it->second).get(root);
    if (err != simdjson::SUCCESS) {
        warn("JSON member is not valid JSON and was ignored", member + ": " + simdjson::error_message(err));
        return false;
    }
    if (root.get_object().get(o) != simdjson::SUCCESS) {
        warn("JSON member has an unexpected shape", member + ": expected an object");
        return false;
    }
    return true;
}

void NeffParse::parseInfo()
{
    dom::element root;
    dom::object o;
    if (!rootObject("info.json", root, o)) {
        if (!m_json.count("info.json"))
            warn("info.json is missing: compiler version unknown");
        return;
    }
    m_info.compilerVersion = fieldString(o, "tool_version");
    fieldInt(o, "num_tpb", m_info.infoTpbCount);
    if (m_info.compilerVersion.empty())
        warn("info.json has no tool_version: compiler version unknown");
}

// hlo_stats.json: optional (NKI NEFFs have none). A member that is there but unusable is a warning
// naming it; the rest of the NEFF loads and the program has no FLOP count.
void NeffParse::parseHloStats()
{
    dom::element root;
    dom::object o;
    if (!rootObject("hlo_stats.json", root, o))
        return; // absent, or warned by rootObject
    NeffHloStats &h = m_info.hloStats;
    h.present = true;
    dom::element e;
    if (o.at_key("HloMacCount").get(e) != simdjson::SUCCESS) {
        warn("hlo_stats.json has no HloMacCount: the program's FLOPs are unknown", "hlo_stats.json");
    } else if (int64_t v = 0; !jsonInt(e, v) || v < 0) {
        warn("hlo_stats.json: HloMacCount is not a whole number >= 0: the program's FLOPs are unknown",
             "hlo_stats.json: " + std::string(simdjson::to_string(e)));
    } else {
        h.macCount = v;
    }
    fieldInt(o, "Traffic", h.traffic);
    double ai = 0;
    if (o.at_key("ArithmeticIntensity").get_double().get(ai) == simdjson::SUCCESS)
        h.arithmeticIntensity = ai;
}

void NeffParse::parseKelf()
{
    bool any = false;
    for (const auto &[name, text] : m_json) {
        if (name.find('/') != std::string::npos || name.substr(0, 5) != "kelf-")
            continue;
        any = true;
        dom::element root;
        dom::object o;
        if (!rootObject(name, root, o))
            continue;
        const std::string target = fieldString(o, "target");
        if (m_info.target.empty()) {
            m_info.target = target;
            m_info.kelfVersion = fieldString(o, "version");
        } else if (!target.empty() && target != m_info.target) {
            warn("kelf files name different targets; the first is shown", name + ": " + target);
        }
        dom::array graphs;
        if (o.at_key("graphs").get_array().get(graphs) == simdjson::SUCCESS)
            for (dom::element g : graphs) {
                dom::object go;
                if (g.get_object().get(go) != simdjson::SUCCESS)
                    continue;
                m_kelfGraphs.emplace_back(fieldString(go, "name"), fieldString(go, "definition"));
            }
    }
    if (!any)
        warn("no kelf-*.json member: target unknown");
    else if (m_info.target.empty())
        warn("kelf-*.json has no target");
}

// Subgraphs named by kelf-*.json, then any other sgNN/ folder; their def.json, then the members
// of sgNN/ recognised by stem (PE.json, Activation.bin, ...) that def.json did not name.
void NeffParse::collectSubgraphs()
{
    auto add = [&](std::string_view name, std::string_view def) {
        for (const NeffSubgraph &s : m_info.subgraphs)
            if (s.name == name)
                return;
        NeffSubgraph sg;
        sg.name = std::string(name);
        sg.definition = def.empty() ? sg.name + "/def.json" : std::string(normalized(def));
        m_info.subgraphs.push_back(std::move(sg));
    };
    for (const auto &[name, def] : m_kelfGraphs)
        if (!name.empty())
            add(name, def);
    std::set<std::string, std::less<>> folders;
    for (const NeffMember &m : m_info.members)
        if (const std::string_view sg = subgraphOf(normalized(m.name)); !m.unsafeName && !sg.empty())
            folders.insert(std::string(sg));
    for (const std::string &name : folders)
        add(name, {});

    for (NeffSubgraph &sg : m_info.subgraphs) {
        parseDefinition(sg);
        for (const NeffMember &m : m_info.members) {
            const std::string norm(normalized(m.name));
            if (m.unsafeName || m.type != NeffMemberType::File || subgraphOf(norm) != sg.name ||
                norm.find('/', sg.name.size() + 1) != std::string::npos)
                continue;
            const std::string_view base = baseName(norm);
            const bool bin = endsWith(base, ".bin");
            const NeffEngine engine = neffEngineFromName(stemOf(base));
            if (engine != NeffEngine::Unknown && (bin || endsWith(base, ".json")))
                addEngineFile(sg, norm, engine,
                              bin ? NeffEngineFileRole::Instructions : NeffEngineFileRole::Descriptors);
            if (!bin)
                continue;
            NeffEngine owner = NeffEngine::Unknown;
            for (const NeffEngineFile &f : sg.engineFiles)
                if (f.name == norm)
                    owner = f.engine;
            sg.binFiles.push_back({norm, m.size, owner});
        }
        std::stable_sort(sg.engineFiles.begin(), sg.engineFiles.end(),
                         [](const NeffEngineFile &a, const NeffEngineFile &b) {
                             return std::pair(a.engine, a.role) < std::pair(b.engine, b.role);
                         });
    }
}

void NeffParse::addEngineFile(NeffSubgraph &sg, const std::string &member, NeffEngine engine, NeffEngineFileRole role)
{
    for (const NeffEngineFile &f : sg.engineFiles)
        if (f.name == member)
            return;
    auto size = m_sizes.find(member);
    if (size == m_sizes.end()) {
        warn("def.json names an engine file that is not in the NEFF", member);
        return;
    }
    sg.engineFiles.push_back({member, size->second, engine, role, 0});
}

void NeffParse::parseDefinition(NeffSubgraph &sg)
{
    dom::element root;
    dom::object o;
    if (!rootObject(sg.definition, root, o)) {
        if (!m_json.count(sg.definition))
            warn("subgraph has no readable def.json: variables and DMA queues unknown", sg.definition);
        return;
    }
    sg.hasDefinition = true;
    sg.defVersion = fieldString(o, "version");
    const std::string dir = sg.name + "/";

    dom::object vars;
    if (o.at_key("var").get_object().get(vars) == simdjson::SUCCESS) {
        for (auto field : vars) {
            dom::object vo;
            NeffVariable v;
            v.name = std::string(field.key);
            if (field.value.get_object().get(vo) == simdjson::SUCCESS) {
                v.type = fieldString(vo, "type");
                fieldInt(vo, "var_id", v.varId);
                int64_t size = 0;
                if (fieldInt(vo, "size", size) && size >= 0) {
                    v.hasSize = true;
                    v.size = uint64_t(size);
                }
                v.fileName = fieldString(vo, "file_name");
            } else {
                warn("def.json variable is not an object", sg.definition + ": " + v.name);
            }
            v.kind = neffVariableKindFromType(v.type);
            sg.variables.push_back(std::move(v));
        }
    } else {
        warn("def.json has no \"var\" object", sg.definition);
    }

    dom::object queues;
    if (o.at_key("dma_queue").get_object().get(queues) == simdjson::SUCCESS) {
        for (auto field : queues) {
            NeffDmaQueue q;
            q.name = std::string(field.key);
            dom::object qo;
            if (field.value.get_object().get(qo) == simdjson::SUCCESS) {
                q.owner = fieldString(qo, "owner");
                q.type = fieldString(qo, "type");
                q.fabricPath = fieldString(qo, "fabric_path");
                fieldInt(qo, "num_queues", q.numQueues);
                q.semaphores = intArray(qo, "semaphore_set");
            }
            sg.dmaQueues.push_back(std::move(q));
        }
    }

    // Engine keys: "pe": "PE.json", "pe_instr": "PE.bin", "pe_asm_dbg" / "pe_dbg": [...].
    for (auto field : o) {
        std::string key(field.key);
        std::transform(key.begin(), key.end(), key.begin(),
                       [](char c) { return c >= 'A' && c <= 'Z' ? char(c + 32) : c; });
        std::string_view stem = key;
        NeffEngineFileRole role = NeffEngineFileRole::Descriptors;
        for (const auto &[suffix, r] :
             {std::pair<std::string_view, NeffEngineFileRole>{"_asm_dbg", NeffEngineFileRole::DebugInfo},
              {"_dbg", NeffEngineFileRole::DebugInfo},
              {"_instr", NeffEngineFileRole::Instructions}})
            if (endsWith(key, suffix)) {
                stem = stem.substr(0, key.size() - suffix.size());
                role = r;
                break;
            }
        const NeffEngine engine = neffEngineFromName(stem);
        if (engine == NeffEngine::Unknown)
            continue;
        std::vector<std::string> files;
        dom::array list;
        if (field.value.get_array().get(list) == simdjson::SUCCESS)
            for (dom::element f : list)
                files.push_back(jsonString(f));
        else
            files.push_back(jsonString(field.value));
        for (const std::string &f : files)
            if (!f.empty())
                addEngineFile(sg, dir + f, engine, role);
    }
}

// <engine>.json "dma": the DMA blocks the engine triggers; totals go to the queue they name.
void NeffParse::parseEngineJson(NeffSubgraph &sg, NeffEngineFile &file)
{
    dom::element root;
    dom::object o;
    if (!rootObject(file.name, root, o))
        return;
    dom::array dma;
    uint64_t count = 0;
    if (o.at_key("dma").get_array().get(dma) == simdjson::SUCCESS) {
        for (dom::element be : dma) {
            dom::object bo;
            if (be.get_object().get(bo) != simdjson::SUCCESS)
                continue;
            NeffDmaBlock b;
            b.engine = file.engine;
            fieldInt(bo, "id", b.id);
            b.queue = fieldString(bo, "queue");
            fieldInt(bo, "semaphore", b.semaphore);
            b.comment = fieldString(bo, "#comment");
            dom::array descs;
            if (bo.at_key("desc").get_array().get(descs) == simdjson::SUCCESS)
                for (dom::element de : descs) {
                    dom::object d;
                    if (de.get_object().get(d) != simdjson::SUCCESS)
                        continue;
                    if (b.descriptorCount++ == 0) {
                        b.from = fieldString(d, "from");
                        b.to = fieldString(d, "to");
                    }
                    b.readBytes = satAdd(b.readBytes, sizesProduct(d, "from_sizes"));
                    b.writeBytes = satAdd(b.writeBytes, sizesProduct(d, "to_sizes"));
                }
            auto q = std::find_if(sg.dmaQueues.begin(), sg.dmaQueues.end(),
                                  [&](const NeffDmaQueue &x) { return x.name == b.queue; });
            if (q != sg.dmaQueues.end()) {
                ++q->blockCount;
                q->readBytes = satAdd(q->readBytes, b.readBytes);
                q->writeBytes = satAdd(q->writeBytes, b.writeBytes);
            } else {
                warn("DMA block names a queue that def.json does not declare", file.name + ": " + b.queue);
            }
            sg.dmaBlocks.push_back(std::move(b));
            ++count;
        }
    }
    file.dmaBlockCount = count;
}

void NeffParse::parseTensorMap(NeffSubgraph &sg)
{
    dom::element root;
    dom::object o;
    if (!rootObject(sg.name + "/tensor_map.json", root, o))
        return;
    std::map<std::string, TensorInfo, std::less<>> byName, byFile;
    for (auto field : o) {
        dom::object to;
        if (field.value.get_object().get(to) != simdjson::SUCCESS)
            continue;
        TensorInfo t{fieldString(to, "dtype"), intArray(to, "tf_shape")};
        if (t.second.empty())
            t.second = intArray(to, "sim_shape");
        const std::string file = fieldString(to, "tf_file");
        if (!file.empty())
            byFile[file] = t;
        byName[std::string(field.key)] = std::move(t);
    }
    for (NeffVariable &v : sg.variables) {
        const TensorInfo *t = nullptr;
        if (auto it = byName.find(v.name); it != byName.end())
            t = &it->second;
        else if (auto f = byFile.find(v.fileName); !v.fileName.empty() && f != byFile.end())
            t = &f->second;
        if (t) {
            v.dtype = t->first;
            v.shape = t->second;
        }
    }
}

} // namespace

bool NeffReader::looksLikeNeff(std::string_view head, uint64_t fileSize)
{
    return NeffHeaderReader::looksLikeNeff(head, fileSize);
}

NeffInfo NeffReader::readBytes(std::string_view bytes, const std::string &name, const LoadOptions &options)
{
    return NeffParse(bytes, name, options).run();
}

NeffInfo NeffReader::read(const std::string &path, const LoadOptions &options)
{
    const QString qpath = QString::fromStdString(path);
    const QFileInfo fi(qpath);
    if (fi.isDir())
        throw ImportError(path, "is a folder; expected a NEFF file");
    // A FIFO, socket or device: opening a FIFO without a writer would wait forever.
    if (fi.exists() && !fi.isFile())
        throw ImportError(path, "is not a regular file (a FIFO, socket or device); expected a NEFF file");
    QFile file(qpath);
    if (!file.open(QIODevice::ReadOnly))
        throw ImportError(path, "cannot open: " + file.errorString().toStdString());
    const qint64 size = file.size();
    // A read-only mapping: nothing is copied, and nothing of the file is ever written anywhere.
    if (uchar *mapped = file.map(0, size)) {
        NeffInfo info =
            readBytes(std::string_view(reinterpret_cast<const char *>(mapped), size_t(size)), path, options);
        file.unmap(mapped);
        return info;
    }
    if (uint64_t(size) > options.memoryBudget)
        throw ImportError(path, "file is larger than the memory budget of " + MemoryBudget::format(options.memoryBudget) +
                                    " and cannot be mapped (" + MemoryBudget::hint() + ")");
    const QByteArray all = file.readAll();
    if (all.size() != size)
        throw ImportError(path, uint64_t(all.size()), "read error: " + file.errorString().toStdString());
    return readBytes(std::string_view(all.constData(), size_t(all.size())), path, options);
}

} // namespace lanescope
