#pragma once
// Shared by the hostile-file tests (tst_hostilefiles: text formats, compression, folders, devices;
// tst_hostilebinaries: NEFF and NTFF; tst_fuzzregressions: what the fuzzers once failed on): time bounds,
// peak memory, file helpers, the outcome of a load and what makes it acceptable, and the scratch folders
// a case may write in.
//
// Under ASan/UBSan (make test-asan) time bounds are multiplied by LANESCOPE_HOSTILE_TIME_SCALE (default
// 4 when built with -fsanitize=address, else 1).
#include "filebytes.h"

#include "io/neff/neffreader.h"
#include "io/traceloader.h"
#include "model/trace.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <memory>
#include <string>
#include <string_view>

using namespace lanescope;

#if defined(__SANITIZE_ADDRESS__)
#define LANESCOPE_HOSTILE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LANESCOPE_HOSTILE_ASAN 1
#endif
#endif
#ifndef LANESCOPE_HOSTILE_ASAN
#define LANESCOPE_HOSTILE_ASAN 0
#endif

namespace lanescope::test {

// ---- environment ----

inline int envInt(const char *name, int fallback)
{
    bool ok = false;
    const int v = qEnvironmentVariableIntValue(name, &ok);
    return ok && v > 0 ? v : fallback;
}

inline int timeScale() { return envInt("LANESCOPE_HOSTILE_TIME_SCALE", LANESCOPE_HOSTILE_ASAN ? 4 : 1); }
inline qint64 boundMs(int seconds) { return qint64(seconds) * 1000 * timeScale(); }

// Peak resident memory of this process since the last resetPeak(), in bytes above the RSS at reset.
struct PeakRss
{
    uint64_t base = 0;

    static uint64_t statusKb(const char *key)
    {
        QFile f(QStringLiteral("/proc/self/status"));
        if (!f.open(QIODevice::ReadOnly))
            return 0;
        for (const QByteArray &line : f.readAll().split('\n'))
            if (line.startsWith(key))
                return line.mid(int(std::strlen(key))).trimmed().split(' ').value(0).toULongLong();
        return 0;
    }
    // Writing 5 to clear_refs resets VmHWM to the current RSS (Linux >= 4.0).
    bool reset()
    {
        QFile f(QStringLiteral("/proc/self/clear_refs"));
        const bool ok = f.open(QIODevice::WriteOnly) && f.write("5") == 1;
        f.close();
        base = statusKb("VmRSS:");
        return ok && base > 0;
    }
    uint64_t growthBytes() const
    {
        const uint64_t hwm = statusKb("VmHWM:");
        return hwm > base ? (hwm - base) << 10 : 0;
    }
};

// ---- files ----

inline QStringList listing(const QString &dir)
{
    QStringList out;
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        out << it.next();
    out.sort();
    return out;
}

inline void putU64(std::string &s, size_t o, uint64_t v)
{
    for (size_t i = 0; i < 8; ++i, v >>= 8)
        s[o + i] = char(v & 0xff);
}

// ---- outcomes ----

struct Outcome
{
    bool ok = false;
    std::string error;
    uint64_t warnings = 0;
    qint64 ms = 0;
    bool cancelled = false;
    std::shared_ptr<const Trace> trace;
};

inline Outcome loadTrace(const QString &path, const LoadOptions &options = {})
{
    Outcome o;
    QElapsedTimer t;
    t.start();
    const LoadResult r = TraceLoader::load(path.toStdString(), options);
    o.ms = t.elapsed();
    o.ok = r.ok();
    o.error = r.error;
    o.cancelled = r.cancelled;
    o.trace = r.trace;
    if (r.trace)
        o.warnings = r.trace->diagnostics().total();
    return o;
}

inline Outcome loadNeff(const QString &path, const LoadOptions &options = {}, NeffInfo *out = nullptr)
{
    Outcome o;
    QElapsedTimer t;
    t.start();
    try {
        NeffInfo info = NeffReader::read(path.toStdString(), options);
        o.ok = true;
        o.warnings = info.diagnostics.total();
        if (out)
            *out = std::move(info);
    } catch (const ImportError &e) {
        o.error = e.what();
    }
    o.ms = t.elapsed();
    return o;
}

// Slices of a successful load are well formed (durations >= 0, ends representable, sorted).
inline std::string traceProblem(const Trace &t)
{
    for (uint32_t ti = 0; ti < t.tracks().size(); ++ti) {
        const auto s = t.slices(TrackId(ti));
        for (size_t i = 0; i < s.size(); ++i) {
            int64_t end = 0;
            if (s[i].duration < 0)
                return "negative duration in track " + t.trackPath(TrackId(ti));
            if (__builtin_add_overflow(s[i].start, s[i].duration, &end))
                return "slice end overflows int64 in track " + t.trackPath(TrackId(ti));
            if (i && s[i - 1].start > s[i].start)
                return "slices not sorted in track " + t.trackPath(TrackId(ti));
        }
    }
    return {};
}

// Empty when the outcome is acceptable: within the bound, and either a load or an error naming `path`
// (with "at byte" when `atByte`).
inline std::string problem(const Outcome &o, const QString &path, qint64 bound, bool atByte)
{
    const std::string p = path.toStdString();
    if (o.ms > bound)
        return "took " + std::to_string(o.ms) + " ms, bound " + std::to_string(bound) + " ms";
    if (o.cancelled)
        return "reported as cancelled without a cancel request";
    if (o.ok)
        return o.trace ? traceProblem(*o.trace) : std::string();
    if (o.error.empty())
        return "neither a trace nor an error";
    if (o.error.find(p) == std::string::npos)
        return "error does not name the file: " + o.error;
    if (atByte && o.error.find("at byte") == std::string::npos)
        return "error does not say where (\"at byte\"): " + o.error;
    return {};
}

#define VERIFY_OUTCOME(o, path, bound, atByte)                                                          \
    do {                                                                                                \
        const std::string why_ = problem(o, path, bound, atByte);                                       \
        QVERIFY2(why_.empty(), (QString(path) + QStringLiteral(": ") + QString::fromStdString(why_)).toUtf8().constData()); \
    } while (0)

inline bool contains(const std::string &s, std::string_view what) { return s.find(what) != std::string::npos; }


// The folders a case may write in. Every case writes below work(); during the tests the working directory
// is an empty folder of its own (a reader that writes relative paths would write there). finish() restores
// the working directory and says what was written where nothing may be (empty: nothing).
class HostileScratch
{
public:
    bool init()
    {
        if (!m_outer.isValid())
            return false;
        m_work = m_outer.filePath(QStringLiteral("work"));
        m_cwd = m_outer.filePath(QStringLiteral("cwd"));
        m_oldCwd = QDir::currentPath();
        return QDir().mkpath(m_work) && QDir().mkpath(m_cwd) && QDir::setCurrent(m_cwd);
    }
    std::string finish()
    {
        QDir::setCurrent(m_oldCwd);
        const auto all = QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot;
        const QStringList inCwd = QDir(m_cwd).entryList(all);
        if (!inCwd.isEmpty())
            return "written into the working directory: " + inCwd.join(QStringLiteral(", ")).toStdString();
        const QStringList outer = QDir(m_outer.path()).entryList(all);
        if (outer != QStringList{QStringLiteral("cwd"), QStringLiteral("work")})
            return "written next to the work folder: " + outer.join(QStringLiteral(", ")).toStdString();
        return {};
    }
    QString outer() const { return m_outer.path(); }
    QString work() const { return m_work; }
    QString path(const QString &name) const { return m_work + QLatin1Char('/') + name; }
    // path(name) with no file there
    QString fresh(const QString &name) const
    {
        const QString p = path(name);
        QFile::remove(p);
        return p;
    }

private:
    QTemporaryDir m_outer; // holds work/ and cwd/ and nothing else
    QString m_work;
    QString m_cwd;
    QString m_oldCwd;
};

} // namespace lanescope::test
