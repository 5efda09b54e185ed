#include "ntracereader.h"

#include "io/input/importerror.h"
#include "io/protobuf/protobufreader.h"
#include "ntraceframes.h"

namespace lanescope {

namespace {

using Field = ProtobufReader::Field;
using Wire = ProtobufReader::WireType;

// Decodes one record into `out`; returns the problem ("" when read), with `at` its byte offset.
std::string decode(const NtraceFrame &frame, const std::string &file, NtraceRecords &all, NtraceRecord &out, uint64_t &at)
{
    ProtobufReader r(frame.message, file, frame.messageOffset);
    Field f;
    bool hasPhase = false;
    uint64_t phase = 0;
    const size_t attrsBefore = all.attributes.size();
    auto fail = [&](const Field &field, std::string problem) {
        all.attributes.resize(attrsBefore);
        at = field.offset;
        return problem;
    };
    try {
        while (r.next(f)) {
            const bool varint = f.type == Wire::Varint;
            switch (f.number) {
            case 2:
                if (!varint)
                    return fail(f, "field 2 (timestamp) is " + std::string(ProtobufReader::wireTypeName(f.type)) + "; expected a varint");
                if (f.value > uint64_t(INT64_MAX))
                    return fail(f, "timestamp " + std::to_string(f.value) + " is past 2^63 ns; expected Unix-epoch ns");
                out.ts = int64_t(f.value);
                break;
            case 7:
            case 9:
            case 10:
            case 14:
            case 15:
                if (!varint)
                    return fail(f, "field " + std::to_string(f.number) + " is " + ProtobufReader::wireTypeName(f.type) +
                                       "; expected a varint");
                if (f.number == 7)
                    out.type = f.value;
                else if (f.number == 9)
                    out.thread = int64_t(f.value & uint64_t(INT64_MAX));
                else if (f.number == 10)
                    out.id = f.value;
                else if (f.number == 15)
                    out.correlation = f.value;
                else {
                    phase = f.value;
                    hasPhase = true;
                }
                break;
            case 12: {
                if (f.type != Wire::LengthDelimited)
                    return fail(f, "field 12 (attribute) is " + std::string(ProtobufReader::wireTypeName(f.type)) +
                                       "; expected a message {1 key, 2 value}");
                ProtobufReader a = r.nested(f);
                NtraceAttribute kv;
                Field g;
                while (a.next(g)) {
                    if ((g.number == 1 || g.number == 2) && g.type != Wire::LengthDelimited)
                        return fail(g, "attribute field " + std::to_string(g.number) + " is " +
                                           ProtobufReader::wireTypeName(g.type) + "; expected a string");
                    if (g.number == 1)
                        kv.key = g.bytes;
                    else if (g.number == 2)
                        kv.value = g.bytes;
                }
                all.attributes.push_back(kv);
                break;
            }
            default: break; // a field this reader does not know: ignored
            }
        }
    } catch (const ImportError &e) {
        all.attributes.resize(attrsBefore);
        at = e.offset();
        return e.problem();
    }
    if (!hasPhase || phase < 1 || phase > 3) {
        all.attributes.resize(attrsBefore);
        at = frame.offset;
        return "phase (field 14) is " + (hasPhase ? std::to_string(phase) : std::string("absent")) +
               "; expected 1 (begin), 2 (end) or 3 (single)";
    }
    out.phase = NtracePhase(phase);
    out.attrBegin = uint32_t(attrsBefore);
    out.attrCount = uint32_t(all.attributes.size() - attrsBefore);
    return {};
}

} // namespace

const std::string_view *NtraceRecords::find(const NtraceRecord &r, std::string_view key) const
{
    for (const NtraceAttribute &a : attrs(r))
        if (a.key == key)
            return &a.value;
    return nullptr;
}

NtraceRecords NtraceReader::read(std::string_view bytes, const std::string &file, Diagnostics &diagnostics,
                                 const LoadOptions &options)
{
    NtraceRecords out;
    out.records.reserve(bytes.size() / 128);
    out.attributes.reserve(bytes.size() / 24);
    NtraceFrames frames(bytes, file, diagnostics);
    NtraceFrame frame;
    uint64_t n = 0;
    while (frames.next(frame)) {
        if ((++n & 0xffff) == 0 && options.cancelled())
            throw LoadCancelled();
        NtraceRecord r;
        r.offset = frame.offset;
        uint64_t at = 0;
        if (const std::string problem = decode(frame, file, out, r, at); !problem.empty()) {
            ++out.skipped;
            diagnostics.warn(file + ": records that cannot be read (skipped)", "byte " + std::to_string(at) + ": " + problem);
            continue;
        }
        out.records.push_back(r);
    }
    out.bytes = frames.position();
    return out;
}

} // namespace lanescope
