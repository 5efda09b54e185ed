#pragma once
// A small Kineto trace built event by event the way PyTorch's profiler writes it (us with 3
// decimals; host thread pid/tid 100, GPU 0 stream 7), written into a temporary folder and read by
// the real loader: the insights and capture-check tests build their cases with it.
#include "loadtrace.h"

#include <QFile>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

namespace lanescope::test {

class KinetoEvents
{
public:
    // A complete event; the "args" members are given as JSON text.
    void x(const char *cat, const QString &name, int pid, int tid, double ts, double dur, const QString &args = {})
    {
        m_events << QStringLiteral("{\"ph\":\"X\",\"cat\":\"%1\",\"name\":\"%2\",\"pid\":%3,\"tid\":%4,\"ts\":%5,\"dur\":%6,\"args\":{%7}}")
                        .arg(QLatin1String(cat), name)
                        .arg(pid)
                        .arg(tid)
                        .arg(ts, 0, 'f', 3)
                        .arg(dur, 0, 'f', 3)
                        .arg(args);
    }
    // A host op (cpu_op, user_annotation, ...) with its External id.
    void op(const char *cat, const char *name, double ts, double dur, int ext)
    {
        x(cat, QLatin1String(name), 100, 100, ts, dur, QStringLiteral("\"External id\":%1").arg(ext));
    }
    // A runtime call at `ts` launching one piece of device work at `kts` (the next correlation id) on
    // GPU 0's `stream`; `kernelArgs` (JSON members) are added to the work's args.
    void launch(const char *call, double ts, double dur, int ext, const char *cat, const char *kernel, double kts, double kdur,
                qint64 bytes = 0, int stream = 7, const QString &kernelArgs = {})
    {
        const int c = ++m_corr;
        x("cuda_runtime", QLatin1String(call), 100, 100, ts, dur, QStringLiteral("\"External id\":%1,\"correlation\":%2").arg(ext).arg(c));
        QString extra = bytes ? QStringLiteral(",\"bytes\":%1").arg(bytes) : QString();
        if (!kernelArgs.isEmpty())
            extra += QLatin1Char(',') + kernelArgs;
        x(cat, QLatin1String(kernel), 0, stream, kts, kdur,
          QStringLiteral("\"External id\":%1,\"correlation\":%2,\"device\":0,\"stream\":%3%4").arg(ext).arg(c).arg(stream).arg(extra));
    }
    // A runtime call that launches nothing.
    void runtime(const char *name, double ts, double dur) { x("cuda_runtime", QLatin1String(name), 100, 100, ts, dur); }
    // ProfilerStep#n with one aten::add launching one kernel (correlation 1000 + n), `stepUs` long.
    void step(int n, double ts, double stepUs, bool kernel = true)
    {
        x("user_annotation", QStringLiteral("ProfilerStep#%1").arg(n), 100, 100, ts, stepUs, QStringLiteral("\"External id\":%1").arg(n * 10));
        const int ext = n * 10 + 1, c = 1000 + n;
        x("cpu_op", QStringLiteral("aten::add"), 100, 100, ts + 1, 20, QStringLiteral("\"External id\":%1").arg(ext));
        x("cuda_runtime", QStringLiteral("cudaLaunchKernel"), 100, 100, ts + 5, 8, QStringLiteral("\"External id\":%1,\"correlation\":%2").arg(ext).arg(c));
        if (kernel)
            x("kernel", QStringLiteral("add_kernel"), 0, 7, ts + 15, 10,
              QStringLiteral("\"External id\":%1,\"correlation\":%2,\"device\":0,\"stream\":7").arg(ext).arg(c));
    }
    // Writes dir/file and loads it (nullptr when either fails). Not `terminated`: the bare-array form
    // cut after an event, as a profiler killed mid-write leaves it.
    std::shared_ptr<const Trace> load(const QTemporaryDir &dir, const char *file, bool terminated = true) const
    {
        const QString path = write(dir, file, terminated);
        return path.isEmpty() ? nullptr : lanescope::test::load(path);
    }
    // Writes dir/file; its path, empty when it cannot be written.
    QString write(const QTemporaryDir &dir, const char *file, bool terminated = true) const
    {
        const QString path = dir.filePath(QLatin1String(file));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        const QByteArray events = m_events.join(QStringLiteral(",\n")).toUtf8();
        if (terminated)
            f.write("{\"schemaVersion\":1,\"deviceProperties\":[{\"id\":0,\"name\":\"Test GPU\"}],\"traceEvents\":[\n" + events + "\n]}\n");
        else
            f.write("[\n" + events + ",\n");
        f.close();
        return path;
    }

private:
    QStringList m_events;
    int m_corr = 0;
};

} // namespace lanescope::test
