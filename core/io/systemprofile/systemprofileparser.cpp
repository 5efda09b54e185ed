#include "systemprofileparser.h"

#include "io/input/inputbuffer.h"
#include "io/json/jsonobjectpieces.h"
#include "io/json/jsonreaderbase.h"
#include "io/json/jsonstringreader.h"
#include "util/textutil.h"

#include <simdjson.h>

#include <charconv>
#include <algorithm>
#include <cmath>
#include <optional>

namespace lanescope {

namespace sj = simdjson::ondemand;

namespace {

constexpr size_t kMaxKeptMetadataBytes = 1 << 20;


using text::trim;

// text::parseInt, except that a number that is not a whole integer ("12.5", "1e9") still leaves its
// leading integer in `out` (12, 1), as std::from_chars did in this reader's own copy: a framework
// event's duration and a sample's time read that way are used as such (keep the numbers as they were).
bool intOrPrefix(std::string_view s, int64_t &out)
{
    if (text::parseInt(s, out))
        return true;
    s = trim(s);
    std::from_chars(s.data(), s.data() + s.size(), out, 10);
    return false;
}

// Progress 100..800 (the importer reports the rest); this reader's messages as they always were.
constexpr JsonReaderBase::Style kStyle{100, 700, "a string is never closed (truncated file?)",
                                       "a control character inside a string is not escaped"};

// Strings go to the part's own pool and warnings to its diagnostics (SystemProfileReader maps them
// when it merges the part); top-level keys that are no arrays of events go to `meta` (pieces only).
class Parser : JsonReaderBase
{
public:
    Parser(InputBuffer &input, uint64_t offset, uint64_t fileEnd, const std::string &name, const LoadOptions &options,
           sj::parser *parser, SystemProfilePart &part, TraceBuilder *meta)
        : JsonReaderBase(input, name, options, kStyle, parser), m_part(part), m_data(part.data), m_meta(meta)
    {
        setTextOffset(offset, fileEnd);
    }
    void runWindow(uint32_t key);
    void runPiece(SystemProfileParser::Piece piece, std::string &keys);

private:
    void readEvents(sj::array events);
    void readEvent(sj::object obj, uint64_t offset);
    void readField(std::string_view key, sj::value v, SystemProfileEvent &e, SystemProfileSample &s, uint64_t offset);
    void readSamples(sj::array a, std::vector<SystemProfileSample> &out, const char *what);
    void readSample(sj::object obj, SystemProfileSample &s);
    bool stringOf(sj::value v, std::string_view &out);
    // The text of a scalar (number token or string contents); false for objects, arrays, null.
    bool scalarText(sj::value v, std::string_view &out);
    bool intOf(sj::value v, int64_t &out);
    Arg argOf(StringId k, sj::value v, bool numeric);
    // {"Neuron_Runtime_API_Event": {...}}: AWS's exports wrap each element in an object naming its kind.
    void readFields(sj::object obj, SystemProfileEvent &e, SystemProfileSample &s, uint64_t offset, const char *what);
    void keepMetadata(std::string_view key, sj::value v);

    StringId intern(std::string_view s) { return m_part.strings.intern(s); }
    std::string_view str(StringId id) const { return m_part.strings.view(id); }
    Diagnostics &diagnostics() { return m_part.diagnostics; }
    void checkCancel();

    SystemProfilePart &m_part;
    SystemProfileData &m_data;
    TraceBuilder *m_meta;
    bool m_whole = false;
    JsonStringReader m_strings;
    uint64_t m_count = 0;
    bool m_isSample = false; // the current trace_events object turned out to be a sample
    bool m_isCpu = false;
};

bool Parser::stringOf(sj::value v, std::string_view &out)
{
    return m_strings.read(m_parser, v, out);
}

bool Parser::scalarText(sj::value v, std::string_view &out)
{
    sj::json_type t;
    if (v.type().get(t))
        return false;
    if (t == sj::json_type::number) {
        out = trim(v.raw_json_token());
        return true;
    }
    return t == sj::json_type::string && stringOf(v, out);
}

bool Parser::intOf(sj::value v, int64_t &out)
{
    std::string_view text;
    return scalarText(v, text) && intOrPrefix(text, out);
}

// A number's text as an arg: int64, else uint64 (ids past 2^63), else a double; nullopt when it is no number.
std::optional<Arg> numberArg(StringId k, std::string_view tok)
{
    tok = trim(tok);
    int64_t i = 0;
    if (text::parseInt(tok, i))
        return Arg::makeInt(k, i);
    uint64_t u = 0;
    if (auto r = std::from_chars(tok.data(), tok.data() + tok.size(), u); r.ec == std::errc() && r.ptr == tok.data() + tok.size())
        return Arg::makeUInt(k, u);
    double d = 0;
    if (auto r = std::from_chars(tok.data(), tok.data() + tok.size(), d);
        !tok.empty() && r.ec == std::errc() && r.ptr == tok.data() + tok.size() && std::isfinite(d))
        return Arg::makeDouble(k, d);
    return std::nullopt;
}

// The fields AWS's documentation shows as JSON numbers, which its exports also write as strings
// (process_id and lnc_idx are strings in both).
bool isNumericField(std::string_view key)
{
    static constexpr std::string_view keys[] = {"size",   "tensor_id", "cpu_id", "thread_id",     "id",   "parent_id",
                                                "type",   "util",      "usage",  "percent_usage", "nc_idx", "device_id"};
    return std::find(std::begin(keys), std::end(keys), key) != std::end(keys);
}

Arg Parser::argOf(StringId k, sj::value v, bool numeric)
{
    sj::json_type t;
    if (v.type().get(t))
        failJson(v.type().error(), "expected a value");
    switch (t) {
    case sj::json_type::number: {
        const std::string_view tok = trim(v.raw_json_token());
        if (const std::optional<Arg> n = numberArg(k, tok); n && n->type != ArgType::Double)
            return *n;
        double d = 0;
        if (v.get_double().get(d) == simdjson::SUCCESS)
            return Arg::makeDouble(k, d);
        return Arg::makeJson(k, intern(tok));
    }
    case sj::json_type::string: {
        std::string_view s;
        if (!stringOf(v, s))
            failJson(simdjson::STRING_ERROR, "expected a valid JSON string");
        if (numeric) // AWS's exports write numbers as strings: "size": "4", "tensor_id": "4900392441224765051"
            if (const std::optional<Arg> n = numberArg(k, s))
                return *n;
        return Arg::makeString(k, intern(s));
    }
    case sj::json_type::boolean: {
        bool b = false;
        if (v.get_bool().get(b))
            failJson(simdjson::INCORRECT_TYPE, "expected true or false");
        return Arg::makeBool(k, b);
    }
    case sj::json_type::null:
        return Arg::makeNull(k);
    case sj::json_type::object: {
        sj::object o;
        std::string_view raw;
        if (v.get_object().get(o) || o.raw_json().get(raw))
            failJson(simdjson::TAPE_ERROR, "expected a JSON object");
        return Arg::makeJson(k, intern(trim(raw)));
    }
    case sj::json_type::array: {
        sj::array a;
        std::string_view raw;
        if (v.get_array().get(a) || a.raw_json().get(raw))
            failJson(simdjson::TAPE_ERROR, "expected a JSON array");
        return Arg::makeJson(k, intern(trim(raw)));
    }
    }
    return Arg::makeNull(k);
}

void Parser::readField(std::string_view key, sj::value v, SystemProfileEvent &e, SystemProfileSample &s, uint64_t offset)
{
    std::string_view text;
    if (key == "timestamp") {
        e.hasTs = intOf(v, e.ts);
        if (!e.hasTs)
            diagnostics().warnAtByte("timestamp that is not an integer of nanoseconds (event skipped)", offset);
        s.ts = e.ts;
        return;
    }
    if (key == "duration") {
        e.hasDuration = intOf(v, e.duration);
        if (!e.hasDuration)
            diagnostics().warnAtByte("duration that is not an integer of nanoseconds (taken as 0)", offset);
        return;
    }
    if (key == "name") {
        e.name = scalarText(v, text) ? intern(text) : intern(trim(v.raw_json_token()));
        return;
    }
    if (key == "group") {
        if (scalarText(v, text))
            e.group = intern(text);
        return;
    }
    if (key == "instance_id") {
        if (scalarText(v, text))
            e.instance = s.instance = intern(text);
        return;
    }
    if (key == "process_id") {
        if (scalarText(v, text)) {
            e.process = s.process = intern(text);
            if (!text::parseInt(text, e.pid))
                e.pid = -1;
        }
        return;
    }
    if (key == "args") { // nested fields: read like top-level ones
        sj::object o;
        if (v.get_object().get(o) == simdjson::SUCCESS) {
            for (auto fr : o) {
                sj::field f;
                if (auto err = std::move(fr).get(f))
                    failJson(err, "expected a field inside \"args\"");
                const std::string kk(keyOf(f, "expected a valid key inside \"args\"")); // the key's buffer may be reused by nested reads
                readField(kk, f.value(), e, s, offset);
            }
            return;
        }
    }
    // Everything else is an arg; some are also read into the record.
    const Arg a = argOf(intern(key), v, isNumericField(key));
    auto asInt = [&](int64_t &out) {
        if (a.type == ArgType::Int) {
            out = a.value.i;
            return true;
        }
        return a.type == ArgType::String && intOrPrefix(str(a.stringValue()), out);
    };
    auto asId = [&](SystemProfileId &out) {
        if (a.type == ArgType::Int || a.type == ArgType::UInt)
            out = {a.value.u, true};
        else if (a.type == ArgType::String)
            out = SystemProfileId::fromText(str(a.stringValue()));
    };
    auto asDouble = [&](double &out) {
        if (a.type == ArgType::Int)
            out = double(a.value.i);
        else if (a.type == ArgType::UInt)
            out = double(a.value.u);
        else if (a.type == ArgType::Double)
            out = a.value.d;
        else
            return false;
        return true;
    };
    if (key == "type")
        e.hasType = asInt(e.type);
    else if (key == "id")
        asId(e.id);
    else if (key == "parent_id")
        asId(e.parent);
    else if (key == "thread_id") {
        if (!asInt(e.thread))
            e.thread = -1;
    } else if (key == "lnc_idx") {
        if (!asInt(e.lnc))
            e.lnc = -1;
    } else if (key == "sync_host_ts")
        e.hasSyncHost = asInt(e.syncHost);
    else if (key == "sync_device_ts")
        e.hasSyncDevice = asInt(e.syncDevice);
    else if (key == "util") {
        m_isSample = m_isCpu = true;
        s.hasValue = asDouble(s.value);
    } else if (key == "cpu_id") {
        if (!asInt(s.cpu))
            s.cpu = -1;
    } else if (key == "percent_usage") {
        m_isSample = true;
        s.hasPercent = asDouble(s.percent);
    } else if (key == "usage") {
        m_isSample = true;
        s.hasValue = asDouble(s.value);
    }
    m_data.args.push_back(a);
}

void Parser::readFields(sj::object obj, SystemProfileEvent &e, SystemProfileSample &s, uint64_t offset, const char *what)
{
    bool first = true;
    for (auto fr : obj) {
        sj::field f;
        if (auto err = std::move(fr).get(f))
            failJson(err, what);
        const std::string k(keyOf(f));
        sj::value v = f.value();
        sj::json_type t;
        sj::object inner;
        // A first field that is an object and no field of an event: the element's kind around it.
        if (first && k != "args" && v.type().get(t) == simdjson::SUCCESS && t == sj::json_type::object &&
            v.get_object().get(inner) == simdjson::SUCCESS) {
            first = false;
            readFields(inner, e, s, offset, what);
            continue;
        }
        first = false;
        readField(k, v, e, s, offset);
    }
}

void Parser::readEvent(sj::object obj, uint64_t offset)
{
    SystemProfileEvent e;
    SystemProfileSample s;
    e.offset = s.offset = offset;
    e.argBegin = uint32_t(m_data.args.size());
    m_isSample = m_isCpu = false;
    readFields(obj, e, s, offset, "expected a field of a trace event (\"name\": value)");
    if (m_isSample && !e.name.isValid()) {
        m_data.args.resize(e.argBegin);
        (m_isCpu ? m_data.cpuUtil : m_data.memUsage).push_back(s);
        return;
    }
    e.argCount = uint32_t(m_data.args.size() - e.argBegin);
    m_data.events.push_back(e);
}

void Parser::readEvents(sj::array events)
{
    m_data.sawEvents = true;
    for (auto er : events) {
        sj::value v;
        if (auto err = std::move(er).get(v))
            failJson(err, "expected a trace event object or ']'");
        if ((++m_count & 0xffff) == 0)
            checkCancel();
        sj::object obj;
        const uint64_t offset = location();
        const auto err = v.get_object().get(obj);
        if (err == simdjson::INCORRECT_TYPE) {
            diagnostics().warnAtByte("trace_events elements that are not objects skipped", offset);
            continue;
        }
        if (err)
            failJson(err, "expected a trace event object");
        readEvent(obj, offset);
    }
}

void Parser::readSample(sj::object obj, SystemProfileSample &s)
{
    SystemProfileEvent e;
    const size_t argsBefore = m_data.args.size();
    readFields(obj, e, s, s.offset, "expected a field of a sample");
    m_data.args.resize(argsBefore);
    if (!e.hasTs)
        s.offset = UINT64_MAX; // no time: dropped by the caller
}

void Parser::readSamples(sj::array a, std::vector<SystemProfileSample> &out, const char *what)
{
    for (auto er : a) {
        sj::value v;
        if (auto err = std::move(er).get(v))
            failJson(err, std::string("expected a ") + what + " sample object or ']'");
        if ((++m_count & 0xffff) == 0)
            checkCancel();
        SystemProfileSample s;
        s.offset = location();
        const uint64_t at = s.offset;
        sj::object obj;
        if (v.get_object().get(obj)) {
            diagnostics().warnAtByte(std::string(what) + " elements that are not objects skipped", at);
            continue;
        }
        readSample(obj, s);
        if (s.offset == UINT64_MAX)
            diagnostics().warnAtByte(std::string(what) + " samples without an integer timestamp skipped", at);
        else
            out.push_back(s);
    }
}

void Parser::keepMetadata(std::string_view key, sj::value v)
{
    std::string_view raw;
    sj::json_type t;
    if (v.type().get(t))
        failJson(v.type().error(), "expected a value for top-level key \"" + std::string(key) + "\"");
    if (t == sj::json_type::string) {
        if (!stringOf(v, raw))
            failJson(simdjson::STRING_ERROR, "expected a valid JSON string");
    } else if (t == sj::json_type::object) {
        sj::object o;
        if (v.get_object().get(o) || o.raw_json().get(raw))
            failJson(simdjson::TAPE_ERROR, "expected a JSON object for \"" + std::string(key) + "\"");
    } else if (t == sj::json_type::array) {
        sj::array a;
        if (v.get_array().get(a) || a.raw_json().get(raw))
            failJson(simdjson::TAPE_ERROR, "expected a JSON array for \"" + std::string(key) + "\"");
    } else {
        raw = v.raw_json_token();
        if (key == "synthetic" && trim(raw) == "true")
            m_meta->metadata().synthetic = true;
    }
    raw = trim(raw);
    m_meta->metadata().entries.emplace_back(std::string(key), raw.size() > kMaxKeptMetadataBytes
                                                              ? "(" + std::to_string(raw.size()) + " bytes, not kept)"
                                                              : std::string(raw));
}

// Progress on the scale of this text only for the whole file: a window or a piece is a part of it,
// reported when merged.
void Parser::checkCancel()
{
    if (m_whole)
        progress();
    else if (m_options.cancelled())
        throw LoadCancelled();
}

void Parser::runWindow(uint32_t key)
{
    startDocument();
    sj::array a;
    if (key == 0) {
        if (auto err = m_doc.get_array().get(a))
            failJson(err, "expected an array of trace events");
        return readEvents(a);
    }
    const std::string &what = SystemProfileParser::windowedKeys()[key];
    if (auto err = m_doc.get_array().get(a))
        failJson(err, "expected \"" + what + "\" to be an array");
    readSamples(a, key == 1 ? m_data.memUsage : m_data.cpuUtil, what.c_str());
}

void Parser::runPiece(SystemProfileParser::Piece piece, std::string &keys)
{
    const std::string_view text = m_input.view();
    m_whole = piece == SystemProfileParser::Piece::Whole;
    const size_t first = firstByte();
    if (m_whole) {
        if (first >= text.size())
            fail(textOffset(), "file is empty; expected a system profile (a JSON object with \"trace_events\")");
        if (text[first] != '{' && text[first] != '[')
            fail(textOffset() + first, "expected '{' at the start of a system profile (a JSON object with \"trace_events\")");
        m_data.events.reserve(text.size() / 300);
    }
    startDocument();
    if (text[first] == '[') {
        sj::array events;
        if (auto err = m_doc.get_array().get(events))
            failJson(err, "expected an array of trace events");
        readEvents(events);
        return;
    }
    sj::object top = topObject();
    for (auto fr : top) {
        sj::field f = fieldOf(std::move(fr), "expected a top-level key and value");
        const std::string key(keyOf(f));
        if (key == "trace_events" || key == "mem_usage" || key == "cpu_util") {
            sj::array a;
            if (auto err = f.value().get_array().get(a))
                failJson(err, "expected \"" + key + "\" to be an array");
            if (key == "trace_events")
                readEvents(a);
            else
                readSamples(a, key == "mem_usage" ? m_data.memUsage : m_data.cpuUtil, key.c_str());
        } else {
            if (keys.size() < 200)
                keys += (keys.empty() ? "" : ", ") + key;
            keepMetadata(key, f.value());
        }
    }
    // A piece before a windowed array whose object closed before it: what simdjson says of the whole
    // text there.
    if (piece != SystemProfileParser::Piece::Whole && piece != SystemProfileParser::Piece::After && location() < fileSize()) {
        size_t close = size_t(location() - textOffset()); // the '}' that closed it, where a single pass stops
        while (close > 0 && text[close] != '}')
            --close;
        fail(textOffset() + close, std::string("invalid JSON (") + simdjson::error_message(simdjson::TAPE_ERROR) +
                                       "); expected a top-level key and value");
    }
}

} // namespace

const std::vector<std::string> &SystemProfileParser::windowedKeys()
{
    static const std::vector<std::string> keys{"trace_events", "mem_usage", "cpu_util"};
    return keys;
}

void SystemProfileParser::parseWindow(JsonWindow &window, const std::string &name, const LoadOptions &options,
                                      simdjson::ondemand::parser *parser, SystemProfilePart &out)
{
    try {
        Parser p(window.text, window.offset, window.end, name, options, parser, out, nullptr);
        p.runWindow(window.key);
    } catch (...) {
        out.error = std::current_exception();
    }
}

void SystemProfileParser::parsePiece(InputBuffer &text, uint64_t offset, Piece piece, const std::string &name,
                                     const LoadOptions &options, TraceBuilder &meta, std::string &keys, SystemProfilePart &out)
{
    Parser p(text, offset, 0, name, options, nullptr, out, &meta);
    p.runPiece(piece, keys);
}

} // namespace lanescope
