#include "neffwriter.h"

#include <QCryptographicHash>

#include <archive.h>
#include <archive_entry.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace lanescope {

namespace {

constexpr std::array<NeffEngine, 5> kEngines = {NeffEngine::Tensor, NeffEngine::Scalar, NeffEngine::GpSimd,
                                                NeffEngine::Vector, NeffEngine::Sync};
constexpr size_t kHeaderSize = 1024;

std::string quoted(std::string_view s)
{
    std::string out = "\"";
    for (const char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(static_cast<unsigned char>(c)));
            out += buf;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

std::string intList(const std::vector<int64_t> &v)
{
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i)
        out += (i ? ", " : "") + std::to_string(v[i]);
    return out + "]";
}

// Row-major steps for `sizes` (innermost dimension first, as the compiler lists them).
std::vector<int64_t> steps(const std::vector<int64_t> &sizes)
{
    std::vector<int64_t> s;
    int64_t step = 1;
    for (int64_t n : sizes) {
        s.push_back(step);
        step *= std::max<int64_t>(1, n);
    }
    return s;
}

void putU64(std::string &h, size_t at, uint64_t v)
{
    for (int i = 0; i < 8; ++i)
        h[at + size_t(i)] = char((v >> (8 * i)) & 0xff);
}

void putU32(std::string &h, size_t at, uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        h[at + size_t(i)] = char((v >> (8 * i)) & 0xff);
}

struct ArchiveFree
{
    void operator()(archive *a) const { archive_write_free(a); }
};

la_ssize_t appendCallback(archive *, void *client, const void *buffer, size_t length)
{
    static_cast<std::string *>(client)->append(static_cast<const char *>(buffer), length);
    return la_ssize_t(length);
}

size_t engineIndex(NeffEngine e)
{
    return std::min<size_t>(static_cast<size_t>(e), 4);
}

} // namespace

NeffWriter::NeffWriter()
{
    for (NeffEngine e : kEngines) {
        std::string nop(64, '\0');
        nop[0] = char(0xa4); // NOP, as the runtime's name table knows it
        nop[1] = char(0x10);
        m_instructions[engineIndex(e)] = nop;
    }
}

void NeffWriter::setUuid(const std::string &hex32)
{
    auto nibble = [](char c) -> int {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    };
    m_uuid.fill(0);
    size_t n = 0;
    for (size_t i = 0; i + 1 < hex32.size() && n < 16;) {
        const int hi = nibble(hex32[i]);
        if (hi < 0) {
            ++i;
            continue;
        }
        const int lo = nibble(hex32[i + 1]);
        m_uuid[n++] = uint8_t(hi << 4 | std::max(lo, 0));
        i += 2;
    }
}

void NeffWriter::setInstructions(NeffEngine engine, std::string bytes)
{
    if (engine != NeffEngine::Unknown)
        m_instructions[engineIndex(engine)] = std::move(bytes);
}

const char *NeffWriter::engineFileStem(NeffEngine e)
{
    switch (e) {
    case NeffEngine::Tensor: return "PE";
    case NeffEngine::Scalar: return "Activation";
    case NeffEngine::GpSimd: return "Pool";
    case NeffEngine::Vector: return "DVE";
    case NeffEngine::Sync: return "SP";
    case NeffEngine::Unknown: break;
    }
    return "SP";
}

const char *NeffWriter::engineKey(NeffEngine e)
{
    switch (e) {
    case NeffEngine::Tensor: return "pe";
    case NeffEngine::Scalar: return "act";
    case NeffEngine::GpSimd: return "pool";
    case NeffEngine::Vector: return "dve";
    case NeffEngine::Sync: return "sp";
    case NeffEngine::Unknown: break;
    }
    return "sp";
}

std::string NeffWriter::defJson() const
{
    std::string j = "{\n";
    for (NeffEngine e : kEngines) {
        const std::string stem = engineFileStem(e);
        j += "    " + quoted(engineKey(e)) + ": " + quoted(stem + ".json") + ",\n";
        j += "    " + quoted(std::string(engineKey(e)) + "_instr") + ": " + quoted(stem + ".bin") + ",\n";
    }
    j += "    \"cc_streams\": {\"num_streams\": 0},\n    \"dma_queue\": {";
    for (size_t i = 0; i < m_queues.size(); ++i) {
        const DmaQueue &q = m_queues[i];
        j += std::string(i ? "," : "") + "\n        " + quoted(q.name) + ": {\"fabric_path\": \"main\", \"num_queues\": " +
             std::to_string(q.numQueues) + ", \"owner\": " + quoted(q.owner) + ", \"semaphore_set\": " +
             intList(q.semaphores) + ", \"type\": " + quoted(q.type) + "}";
    }
    j += "\n    },\n    \"name\": \"definition\",\n    \"neff_features\": [],\n";
    j += "    \"runtime_event_count\": 12,\n    \"runtime_semaphore_count\": 3,\n    \"var\": {";
    for (size_t i = 0; i < m_variables.size(); ++i) {
        const Variable &v = m_variables[i];
        j += std::string(i ? "," : "") + "\n        " + quoted(v.name) + ": {";
        if (v.type != "state-buffer")
            j += "\"ops\": [], \"size\": " + std::to_string(v.size) + ", ";
        j += "\"type\": " + quoted(v.type) + ", \"var_id\": " + std::to_string(i) + "}";
    }
    return j + "\n    },\n    \"version\": \"0.6\"\n}\n";
}

std::string NeffWriter::engineJson(NeffEngine e) const
{
    const std::string stem = engineFileStem(e);
    std::string j = "{\"dma\":[";
    int64_t id = 0;
    for (const DmaBlock &b : m_blocks) {
        if (b.engine != e)
            continue;
        const std::vector<int64_t> to = b.toSizes.empty() ? b.fromSizes : b.toSizes;
        j += std::string(id ? "," : "") + "{\"#comment\":" + quoted(b.comment) + ",\"desc\":[{\"from\":" + quoted(b.from) +
             ",\"from_dtype\":" + quoted(b.dtype) + ",\"from_off\":0,\"from_sizes\":" + intList(b.fromSizes) +
             ",\"from_steps\":" + intList(steps(b.fromSizes)) + ",\"num_tiling_dimensions\":1,\"op\":\"copy\",\"to\":" +
             quoted(b.to) + ",\"to_dtype\":" + quoted(b.dtype) + ",\"to_off\":0,\"to_sizes\":" + intList(to) +
             ",\"to_steps\":" + intList(steps(to)) + "}],\"id\":" + std::to_string(id) + ",\"queue\":" + quoted(b.queue) +
             ",\"semaphore\":" + std::to_string(b.semaphore) + "}";
        ++id;
    }
    return j + "],\"instr\":" + quoted(stem + ".bin") + ",\"name\":" + quoted(stem + ".json") + "}";
}

std::string NeffWriter::tensorMapJson() const
{
    std::string j = "{";
    bool first = true;
    for (const Variable &v : m_variables) {
        if (v.dtype.empty())
            continue;
        j += std::string(first ? "" : ",") + "\n    " + quoted(v.name) + ": {\"dtype\": " + quoted(v.dtype) +
             ", \"is_const\": false, \"kind\": " + quoted(v.type) + ", \"layer_name\": " + quoted(v.name) +
             ", \"sim_shape\": " + intList(v.shape) + ", \"tf_file\": " + quoted("value_" + v.name + ".npy") +
             ", \"tf_shape\": " + intList(v.shape) + "}";
        first = false;
    }
    return j + "\n}\n";
}

std::vector<std::pair<std::string, std::string>> NeffWriter::members() const
{
    std::vector<std::pair<std::string, std::string>> m;
    std::string perNode = "[1";
    for (int i = 1; i < 64; ++i)
        perNode += ", 0";
    perNode += "]";
    m.emplace_back("info.json", "{\n    \"tool_version\": " + quoted(m_compilerVersion) +
                                    ",\n    \"kelp_version\": \"Dynamic\",\n    \"name\": " + quoted(m_networkName) +
                                    ",\n    \"num_tpb\": 1,\n    \"num_tpb_requested\": 1,\n    \"num_tpb_per_node\": " +
                                    perNode + "\n}");
    m.emplace_back("kelf-0.json", "{\n    \"graphs\": [{\"definition\": \"sg00/def.json\", \"name\": \"sg00\"}],\n"
                                  "    \"version\": \"0.5\",\n    \"target\": " + quoted(m_target) + "\n}\n");
    std::string nodes, inputs;
    for (const Variable &v : m_variables) {
        if (v.type != "input")
            continue;
        nodes += std::string(nodes.empty() ? "" : ",") + "\n        {\"op\": \"null\", \"name\": " + quoted(v.name) +
                 ", \"inputs\": [], \"output_names\": [" + quoted(v.name) + "], \"is_param\": \"0\"}";
        inputs += std::string(inputs.empty() ? "" : ", ") + quoted(v.name) + ": {\"dtype\": " +
                  quoted(v.dtype.empty() ? "bfloat16" : v.dtype) + ", \"shape\": " + intList(v.shape) + "}";
    }
    m.emplace_back("neff.json", "{\n    \"nodes\": [" + nodes +
                                    ",\n        {\"op\": \"tvm_op\", \"name\": \"sg_coreV10\", \"attrs\": {\"func_name\": "
                                    "\"__kelf\", \"kelf\": \"kelf-0.json\"}, \"inputs\": [], \"output_names\": []}\n    ],\n"
                                    "    \"metadata\": {\"signatures\": {\"default\": {\"inputs\": {" + inputs +
                                    "}, \"outputs\": {}}}}\n}\n");
    for (NeffEngine e : kEngines) {
        const std::string stem = std::string("sg00/") + engineFileStem(e);
        m.emplace_back(stem + ".bin", m_instructions[engineIndex(e)]);
        m.emplace_back(stem + ".json", engineJson(e));
    }
    m.emplace_back("sg00/def.json", defJson());
    m.emplace_back("sg00/tensor_map.json", tensorMapJson());
    m.insert(m.end(), m_extra.begin(), m_extra.end());
    return m;
}

std::string NeffWriter::hloStatsJson(int64_t macCount, int64_t traffic)
{
    char intensity[64];
    std::snprintf(intensity, sizeof intensity, "%.17g", traffic > 0 ? 2.0 * double(macCount) / double(traffic) : 0.0);
    std::string ai = intensity;
    if (ai.find_first_of(".e") == std::string::npos)
        ai += ".0";
    return "{\n   \"AliasedOutputSize\" : 0,\n   \"ArithmeticIntensity\" : " + ai +
           ",\n   \"ConstantSize\" : 0,\n   \"HloInputCount\" : -1,\n   \"HloMacCount\" : " + std::to_string(macCount) +
           ",\n   \"HloOutputCount\" : -1,\n   \"IfmapSize\" : 0,\n   \"OfmapSize\" : 0,\n   \"OutputsReadFromCount\" : -1,\n"
           "   \"PassthroughTensorsCount\" : -1,\n   \"RedundantOutputCount\" : -1,\n   \"Traffic\" : " + std::to_string(traffic) +
           "\n}\n";
}

std::string NeffWriter::payload() const
{
    std::string out;
    std::unique_ptr<archive, ArchiveFree> a(archive_write_new());
    if (!a)
        throw std::runtime_error("cannot create a libarchive writer");
    auto check = [&a](int rc, const char *what) {
        if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) {
            const char *why = archive_error_string(a.get());
            throw std::runtime_error(std::string("NEFF payload: ") + what + ": " + (why ? why : "libarchive error"));
        }
    };
    check(archive_write_set_format_ustar(a.get()), "tar format");
    check(archive_write_add_filter_gzip(a.get()), "gzip filter");
    check(archive_write_set_filter_option(a.get(), "gzip", "timestamp", nullptr), "gzip option"); // no time: deterministic
    check(archive_write_open(a.get(), &out, nullptr, appendCallback, nullptr), "open");
    std::unique_ptr<archive_entry, void (*)(archive_entry *)> e(archive_entry_new(), archive_entry_free);
    for (const auto &[name, content] : members()) {
        archive_entry_clear(e.get());
        archive_entry_set_pathname(e.get(), name.c_str());
        archive_entry_set_filetype(e.get(), AE_IFREG);
        archive_entry_set_perm(e.get(), 0664);
        archive_entry_set_size(e.get(), la_int64_t(content.size()));
        archive_entry_set_uname(e.get(), "nobody");
        archive_entry_set_gname(e.get(), "nobody");
        archive_entry_set_mtime(e.get(), 0, 0);
        check(archive_write_header(a.get(), e.get()), "member header");
        if (!content.empty() && archive_write_data(a.get(), content.data(), content.size()) != la_ssize_t(content.size()))
            check(ARCHIVE_FATAL, "member data");
    }
    check(archive_write_close(a.get()), "close");
    return out;
}

std::string NeffWriter::header(const std::string &payload) const
{
    std::string h(kHeaderSize, '\0');
    putU64(h, 0, m_pkgVersion);
    putU64(h, 8, kHeaderSize);
    putU64(h, 16, payload.size());
    putU64(h, 24, m_major);
    putU64(h, 32, m_minor);
    putU32(h, 168, 1); // NeuronCores required
    if (m_pkgVersion == 2) {
        const QByteArray md5 = QCryptographicHash::hash(QByteArrayView(payload.data(), qsizetype(payload.size())),
                                                        QCryptographicHash::Md5);
        for (size_t i = 0; i < 16; ++i) {
            const size_t at = m_md5Layout == Md5Layout::WordSwapped ? (i & ~size_t(3)) + 3 - (i & 3) : i;
            h[172 + at] = md5[qsizetype(i)];
        }
    }
    std::memcpy(h.data() + 204, m_uuid.data(), m_uuid.size());
    std::memcpy(h.data() + 220, m_networkName.data(), std::min<size_t>(m_networkName.size(), 255));
    putU32(h, 476, 1); // requested core count
    h[480] = 1;        // cores per node: one on node 0
    putU32(h, 552, 1); // logical-core size
    return h;
}

std::string NeffWriter::bytes() const
{
    const std::string p = payload();
    return header(p) + p;
}

void NeffWriter::save(const std::string &path) const
{
    const std::string data = bytes();
    std::FILE *f = std::fopen(path.c_str(), "wb");
    if (!f)
        throw std::runtime_error(path + ": cannot open for writing: " + std::strerror(errno));
    const size_t written = std::fwrite(data.data(), 1, data.size(), f);
    const bool closed = std::fclose(f) == 0;
    if (written != data.size() || !closed)
        throw std::runtime_error(path + ": write failed: " + std::strerror(errno));
}

} // namespace lanescope
