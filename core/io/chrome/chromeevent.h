#pragma once
// One Chrome Trace Event as the JSON reader hands it to the ChromeTraceAssembler. Strings are
// already interned; ids are reduced to 64-bit keys.
#include "model/ids.h"

#include <cstdint>
#include <string_view>

namespace lanescope {

// pid / tid as written: an integer (possibly negative) or a string. Numeric strings are numbers.
struct ChromeEntityKey
{
    int64_t number = 0;
    StringId text; // valid when the id was a non-numeric string
    bool operator==(const ChromeEntityKey &) const = default;
};

struct ChromeEvent
{
    char phase = 0;          // first letter of ph (0 when missing)
    StringId name;
    StringId category;
    bool hasTs = false;
    bool hasDur = false;
    int64_t ts = 0;          // ns
    int64_t dur = 0;         // ns
    ChromeEntityKey pid;
    ChromeEntityKey tid;
    bool hasId = false;
    uint64_t id = 0;         // id / id2 reduced to 64 bits
    bool idIsProcessLocal = true; // id2.local (or plain id): scoped to the process
    char scope = 't';        // instants: s = g / p / t
    bool bindEnclosing = false; // bp: "e"
    bool hasBindId = false;
    uint64_t bindId = 0;
    bool flowIn = false;
    bool flowOut = false;
    bool empty = false;      // `{}`: no field at all (rocprof v1 opens its array with one)
    uint64_t offset = 0;     // byte offset of the event in the decompressed input
};

} // namespace lanescope
