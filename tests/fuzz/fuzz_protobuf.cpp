// libFuzzer harness: the schema-less protobuf reader (core/io/ntff/protobufreader.h) on its own: every
// field of a message, nested messages to a bounded depth, and the lookups the NTFF reader uses.
// Seeds are NTFF metadata messages (file bytes 128 .. 128 + N).
#include "fuzz_common.h"

#include "io/protobuf/protobufreader.h"

using namespace lanescope;

namespace {

volatile uint64_t g_sink = 0;

void walk(const ProtobufReader &msg, int depth)
{
    ProtobufReader r = msg;
    ProtobufReader::Field f;
    uint64_t last = msg.baseOffset();
    while (r.next(f)) {
        LANESCOPE_FUZZ_CHECK(f.offset >= last && f.offset < r.offset());
        LANESCOPE_FUZZ_CHECK(r.offset() <= msg.baseOffset() + msg.data().size());
        last = r.offset();
        if (f.type == ProtobufReader::WireType::LengthDelimited) {
            LANESCOPE_FUZZ_CHECK(f.bytes.data() >= msg.data().data() &&
                                 f.bytes.data() + f.bytes.size() <= msg.data().data() + msg.data().size());
            if (depth < 8) {
                try {
                    walk(r.nested(f), depth + 1); // most byte strings are not messages
                } catch (const ImportError &) {
                }
            }
        } else {
            g_sink = g_sink + f.value;
        }
    }
    LANESCOPE_FUZZ_CHECK(r.atEnd());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const ProtobufReader top(fuzz::asView(data, size), "fuzz.pb", 128);
    try {
        walk(top, 0);
    } catch (const ImportError &e) {
        LANESCOPE_FUZZ_CHECK(e.file() == "fuzz.pb" && e.hasOffset());
        LANESCOPE_FUZZ_CHECK(e.offset() >= 128 && e.offset() <= 128 + size);
    }
    for (uint32_t n : {1u, 2u, 4u, 8u, 14u}) {
        try {
            g_sink = g_sink + top.integer(n, 7);
        } catch (const ImportError &) {
        }
        try {
            g_sink = g_sink + top.bytes(n).size();
        } catch (const ImportError &) {
        }
        try {
            if (auto m = top.message(n))
                g_sink = g_sink + m->data().size();
        } catch (const ImportError &) {
        }
    }
    return 0;
}
