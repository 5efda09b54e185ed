// gen_kineto INPUT OUTPUT TARGET_MB: makes a large, realistic Kineto trace by tiling a real one.
//
// The events of INPUT (any Chrome/Kineto JSON the importer reads, gzip/zstd/zip included) are written
// again and again, each copy ("tile") shifted in time by the trace's span plus a small gap, with every
// numeric id that links events (External id, correlation, flow id / bind_id, Python id / parent id)
// offset by a per-tile stride so flows and cpu_op <-> runtime <-> kernel links stay paired within their
// tile and never collide across tiles. Metadata (ph "M") events are written once. Timestamps are
// re-written digit-exact (integer ns, printed as µs with 3 decimals). The other top-level keys are
// copied from INPUT. The output is plain JSON, written streaming; it stops after the first tile that
// reaches TARGET_MB (10^6 bytes).
#include "io/chrome/timestampparser.h"
#include "io/input/inputbuffer.h"

#include <simdjson.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace lanescope;
namespace sj = simdjson::ondemand;

namespace {

constexpr uint64_t kSmallId = uint64_t(1) << 40; // larger ids (hashes, pointers) are left alone

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\n' || s.front() == '\r' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

// The key as written, quotes included (escapes kept verbatim).
std::string_view rawKey(sj::field &f)
{
    const char *p = f.key().raw();
    const char *q = p;
    while (*q != '"') {
        if (*q == '\\')
            ++q;
        ++q;
    }
    return {p - 1, size_t(q - p) + 2};
}

// The unescaped key (fast path without escapes: the raw text).
std::string_view keyText(std::string_view quoted)
{
    return quoted.substr(1, quoted.size() - 2);
}

bool isLinkKey(std::string_view k)
{
    return k == "External id" || k == "correlation" || k == "id" || k == "bind_id" || k == "Python id" ||
           k == "Python parent id";
}

// The raw JSON text of any value (objects and arrays whole).
std::string_view rawValue(sj::value v)
{
    sj::json_type t;
    if (v.type().get(t))
        return {};
    std::string_view raw;
    if (t == sj::json_type::object) {
        sj::object o;
        if (v.get_object().get(o) || o.raw_json().get(raw))
            return {};
        return trim(raw);
    }
    if (t == sj::json_type::array) {
        sj::array a;
        if (v.get_array().get(a) || a.raw_json().get(raw))
            return {};
        return trim(raw);
    }
    return trim(v.raw_json_token());
}

bool parseId(std::string_view raw, uint64_t &id)
{
    if (raw.empty() || raw[0] < '0' || raw[0] > '9')
        return false;
    char *end = nullptr;
    const std::string s(raw);
    id = std::strtoull(s.c_str(), &end, 10);
    return end && *end == '\0';
}

void appendMicros(std::string &out, int64_t ns)
{
    char buf[40];
    const uint64_t v = ns < 0 ? uint64_t(0) - uint64_t(ns) : uint64_t(ns);
    std::snprintf(buf, sizeof buf, "%s%llu.%03llu", ns < 0 ? "-" : "", static_cast<unsigned long long>(v / 1000),
                  static_cast<unsigned long long>(v % 1000));
    out += buf;
}

struct Scan
{
    int64_t minTs = INT64_MAX;
    int64_t maxEnd = INT64_MIN;
    uint64_t maxId = 0;
    uint64_t events = 0;
};

class Tiler
{
public:
    Tiler(InputBuffer &input, std::FILE *out) : m_input(input), m_out(out) {}

    // Iterates the events of the document; calls fn(obj) for each event object.
    template <class Fn> bool forEachEvent(Fn &&fn, std::string *topLevel)
    {
        simdjson::padded_string_view psv(m_input.data(), m_input.size(), m_input.capacity());
        sj::document doc;
        if (m_parser.iterate(psv).get(doc))
            return false;
        sj::json_type t;
        if (doc.type().get(t))
            return false;
        if (t == sj::json_type::array) {
            sj::array a;
            return doc.get_array().get(a) == simdjson::SUCCESS && eachIn(a, fn);
        }
        sj::object top;
        if (doc.get_object().get(top))
            return false;
        for (auto fr : top) {
            sj::field f;
            if (std::move(fr).get(f))
                return false;
            const std::string_view key = rawKey(f);
            if (keyText(key) == "traceEvents") {
                sj::array a;
                if (f.value().get_array().get(a) || !eachIn(a, fn))
                    return false;
            } else if (topLevel) {
                *topLevel += "  ";
                *topLevel += key;
                *topLevel += ": ";
                *topLevel += rawValue(f.value());
                *topLevel += ",\n";
            }
        }
        return true;
    }

    bool scan(Scan &s, std::string &topLevel)
    {
        return forEachEvent(
            [&](sj::object obj) {
                ++s.events;
                int64_t ts = 0, dur = 0;
                bool hasTs = false;
                for (auto fr : obj) {
                    sj::field f;
                    if (std::move(fr).get(f))
                        return false;
                    const std::string_view k = keyText(rawKey(f));
                    if (k == "ts" || k == "dur") {
                        std::string_view v = trim(f.value().raw_json_token());
                        if (!v.empty() && v.front() == '"')
                            v = v.substr(1, v.size() - 2);
                        int64_t ns = 0;
                        if (TimestampParser::microsToNs(v, ns)) {
                            (k == "ts" ? ts : dur) = ns;
                            hasTs |= k == "ts";
                        }
                    } else if (isLinkKey(k)) {
                        noteId(f.value(), s.maxId);
                    } else if (k == "args") {
                        sj::object args;
                        if (f.value().get_object().get(args) == simdjson::SUCCESS)
                            for (auto ar : args) {
                                sj::field a;
                                if (std::move(ar).get(a))
                                    return false;
                                if (isLinkKey(keyText(rawKey(a))))
                                    noteId(a.value(), s.maxId);
                            }
                    }
                }
                if (hasTs) {
                    s.minTs = std::min(s.minTs, ts);
                    s.maxEnd = std::max(s.maxEnd, ts + std::max<int64_t>(dur, 0));
                }
                return true;
            },
            &topLevel);
    }

    // Writes one tile; returns false on a parse error.
    bool writeTile(int tile, int64_t shiftNs, uint64_t idOffset, bool &first)
    {
        return forEachEvent(
            [&](sj::object obj) {
                m_line.clear();
                m_line += '{';
                bool firstField = true;
                bool metadata = false;
                for (auto fr : obj) {
                    sj::field f;
                    if (std::move(fr).get(f))
                        return false;
                    const std::string_view key = rawKey(f);
                    const std::string_view k = keyText(key);
                    if (!firstField)
                        m_line += ", ";
                    firstField = false;
                    m_line += key;
                    m_line += ": ";
                    if (k == "ts") {
                        std::string_view v = trim(f.value().raw_json_token());
                        if (!v.empty() && v.front() == '"')
                            v = v.substr(1, v.size() - 2);
                        int64_t ns = 0;
                        if (TimestampParser::microsToNs(v, ns))
                            appendMicros(m_line, ns + shiftNs);
                        else
                            m_line += rawValue(f.value());
                    } else if (k == "ph") {
                        const std::string_view v = rawValue(f.value());
                        metadata = v == "\"M\"";
                        m_line += v;
                    } else if (isLinkKey(k)) {
                        appendId(f.value(), idOffset);
                    } else if (k == "args") {
                        appendArgs(f.value(), idOffset);
                    } else {
                        m_line += rawValue(f.value());
                    }
                }
                m_line += '}';
                if (metadata && tile > 0)
                    return true;
                std::fputs(first ? "\n" : ",\n", m_out);
                first = false;
                m_written += m_line.size() + 2;
                return std::fwrite(m_line.data(), 1, m_line.size(), m_out) == m_line.size();
            },
            nullptr);
    }

    uint64_t written() const { return m_written; }

private:
    template <class Fn> bool eachIn(sj::array a, Fn &fn)
    {
        for (auto er : a) {
            sj::object obj;
            if (er.get_object().get(obj))
                continue; // not an event object: dropped
            if (!fn(obj))
                return false;
        }
        return true;
    }

    static void noteId(sj::value v, uint64_t &maxId)
    {
        uint64_t id = 0;
        if (parseId(trim(v.raw_json_token()), id) && id < kSmallId)
            maxId = std::max(maxId, id);
    }

    void appendId(sj::value v, uint64_t offset)
    {
        const std::string_view raw = rawValue(v);
        uint64_t id = 0;
        if (offset && parseId(raw, id) && id < kSmallId)
            m_line += std::to_string(id + offset);
        else
            m_line += raw;
    }

    void appendArgs(sj::value v, uint64_t offset)
    {
        sj::object args;
        if (v.get_object().get(args)) {
            m_line += rawValue(v);
            return;
        }
        m_line += '{';
        bool first = true;
        for (auto ar : args) {
            sj::field a;
            if (std::move(ar).get(a))
                break;
            if (!first)
                m_line += ", ";
            first = false;
            const std::string_view key = rawKey(a);
            m_line += key;
            m_line += ": ";
            if (isLinkKey(keyText(key)))
                appendId(a.value(), offset);
            else
                m_line += rawValue(a.value());
        }
        m_line += '}';
    }

    InputBuffer &m_input;
    std::FILE *m_out;
    sj::parser m_parser;
    std::string m_line;
    uint64_t m_written = 0;
};

} // namespace

int main(int argc, char **argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: gen_kineto INPUT OUTPUT TARGET_MB\n"
                             "  tiles the events of a real Kineto trace (shifted in time, ids offset) until the\n"
                             "  output reaches TARGET_MB megabytes (10^6 bytes)\n");
        return 2;
    }
    const std::string inPath = argv[1], outPath = argv[2];
    const double targetMb = std::atof(argv[3]);
    if (!(targetMb > 0)) {
        std::fprintf(stderr, "gen_kineto: TARGET_MB must be a positive number, got '%s'\n", argv[3]);
        return 2;
    }
    InputBuffer input;
    try {
        input = InputBuffer::read(inPath, LoadOptions());
    } catch (const std::exception &e) {
        std::fprintf(stderr, "gen_kineto: %s\n", e.what());
        return 2;
    }

    {
        // A bare array may be unterminated (older exporters; Chrome accepts it): close it.
        const std::string_view v = input.view();
        const size_t first = v.find_first_not_of(" \t\r\n");
        const size_t end = v.find_last_not_of(" \t\r\n");
        if (first != std::string_view::npos && v[first] == '[' && v[end] != ']')
            input.replaceTail(v[end] == ',' ? end : end + 1, "]");
    }

    std::FILE *out = std::fopen(outPath.c_str(), "wb");
    if (!out) {
        std::fprintf(stderr, "gen_kineto: %s: cannot open for writing: %s\n", outPath.c_str(), std::strerror(errno));
        return 2;
    }
    std::unique_ptr<char[]> buffer(new char[size_t(8) << 20]);
    std::setvbuf(out, buffer.get(), _IOFBF, size_t(8) << 20);

    Tiler tiler(input, out);
    Scan scan;
    std::string topLevel;
    if (!tiler.scan(scan, topLevel) || scan.events == 0 || scan.minTs > scan.maxEnd) {
        std::fprintf(stderr, "gen_kineto: %s: not a Chrome/Kineto trace with timed events\n", inPath.c_str());
        std::fclose(out);
        return 2;
    }
    const int64_t span = scan.maxEnd - scan.minTs;
    const int64_t period = span + std::max<int64_t>(span / 100, 1000000); // span + 1% (at least 1 ms)
    const uint64_t idStride = scan.maxId + 1;
    const uint64_t target = uint64_t(targetMb * 1e6);

    std::fputs("{\n", out);
    std::fputs(topLevel.c_str(), out);
    std::fputs("  \"traceEvents\": [", out);
    bool first = true;
    int tiles = 0;
    while (tiler.written() < target) {
        if (idStride * uint64_t(tiles + 1) >= kSmallId * 16) {
            std::fprintf(stderr, "gen_kineto: id space exhausted after %d tiles\n", tiles);
            break;
        }
        if (!tiler.writeTile(tiles, int64_t(tiles) * period, idStride * uint64_t(tiles), first)) {
            std::fprintf(stderr, "gen_kineto: %s: parse error while tiling\n", inPath.c_str());
            std::fclose(out);
            return 2;
        }
        ++tiles;
    }
    std::fputs("\n  ]\n}\n", out);
    const bool ok = std::fflush(out) == 0 && !std::ferror(out);
    if (std::fclose(out) != 0 || !ok) {
        std::fprintf(stderr, "gen_kineto: %s: write failed: %s\n", outPath.c_str(), std::strerror(errno));
        return 2;
    }
    std::printf("gen_kineto: wrote %s: %.1f MB, %d tiles of %llu events (%.1f MB of JSON in, span %.3f ms)\n",
                outPath.c_str(), double(tiler.written()) / 1e6, tiles, static_cast<unsigned long long>(scan.events),
                double(input.size()) / 1e6, double(span) / 1e6);
    return 0;
}
