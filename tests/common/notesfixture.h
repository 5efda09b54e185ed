#pragma once
// What the notes tests (core store, CLI, window) share: whole-file reads and writes (filebytes.h),
// and a small PyTorch profiler step (torch.profiler's export_chrome_trace: µs timestamps with ns decimals) that
// starts at kNotesTraceStartNs on the trace clock. Slice ids: 0 aten::linear, 1 aten::mm, 2 aten::add.
#include "filebytes.h"

#include <QByteArray>
#include <QFile>
#include <QString>

#include <cstdint>

namespace lanescope::test {

constexpr int64_t kNotesTraceStartNs = 1733001234500000;

inline QByteArray notesTrace()
{
    return R"({"schemaVersion": 1, "deviceProperties": [], "traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 2, "tid": 7, "ts": 1733001234500.000, "dur": 40.5, "args": {"External id": 3}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 2, "tid": 7, "ts": 1733001234502.250, "dur": 30.0, "args": {"External id": 4}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 2, "tid": 7, "ts": 1733001234560.000, "dur": 3.25, "args": {"External id": 5}}
]}
)";
}

} // namespace lanescope::test
