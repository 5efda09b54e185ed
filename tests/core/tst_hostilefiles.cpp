// Hostile files: what a viewer is handed by colleagues, CI artifacts and the internet. Every case is
// generated at test time inside a QTemporaryDir, from real corpus files where there is one to start
// from (truncations, flipped bytes, patched headers and section tables) or synthetically (bombs, deep
// nesting, huge strings, tar members with escaping names, FIFOs and symbolic-link loops).
//
// Each case must end within a time bound with either a partial load plus counted warnings, or a clear
// error that names the file (and "at byte" where a position is meaningful): never a crash, never
// unbounded memory (peak RSS is measured where a case could blow up), never a file written outside
// the case's folder. Loads go through TraceLoader::load (what the GUI and the CLI call), NEFFs through
// NeffReader::read (TraceLoader does not load NEFFs on their own). The inputs that the fuzzers of
// tests/fuzz once failed on (tests/data/fuzz-regressions/<harness>/) are replayed here too, so they stay
// fixed in every `make test` / `make test-asan`, with or without clang.
//
// Under ASan/UBSan (make test-asan) time bounds are multiplied by LANESCOPE_HOSTILE_TIME_SCALE (default
// 4 when built with -fsanitize=address, else 1), and the huge-string case uses
// LANESCOPE_HOSTILE_STRING_MB megabytes (default 100).
#include "corpus.h"

#include "io/chromejsonimporter.h"
#include "io/inputbuffer.h"
#include "io/neffreader.h"
#include "io/neuronprofilejsonimporter.h"
#include "io/ntffimporter.h"
#include "io/ntffreader.h"
#include "io/profilefolder.h"
#include "io/profilefolderloader.h"
#include "io/protobufreader.h"
#include "io/systemprofileimporter.h"
#include "io/traceloader.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <zlib.h>
#include <zstd.h>

#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <set>

#include <sys/stat.h>
#include <unistd.h>

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

namespace {

// ---- environment ----

int envInt(const char *name, int fallback)
{
    bool ok = false;
    const int v = qEnvironmentVariableIntValue(name, &ok);
    return ok && v > 0 ? v : fallback;
}

int timeScale() { return envInt("LANESCOPE_HOSTILE_TIME_SCALE", LANESCOPE_HOSTILE_ASAN ? 4 : 1); }
qint64 boundMs(int seconds) { return qint64(seconds) * 1000 * timeScale(); }

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

std::string readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray b = f.readAll();
    return std::string(b.constData(), size_t(b.size()));
}

bool writeFile(const QString &path, std::string_view bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes.data(), qint64(bytes.size())) == qint64(bytes.size());
}

QStringList listing(const QString &dir)
{
    QStringList out;
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        out << it.next();
    out.sort();
    return out;
}

void putU64(std::string &s, size_t o, uint64_t v)
{
    for (size_t i = 0; i < 8; ++i, v >>= 8)
        s[o + i] = char(v & 0xff);
}

// ---- compression ----

// Streaming gzip writer, so bombs and huge members never exist uncompressed in memory.
class Gzip
{
public:
    // Z_RLE: fast, and close to deflate's 1032:1 limit on runs of one byte (the bombs).
    explicit Gzip(int level = 1, int strategy = Z_DEFAULT_STRATEGY)
    {
        deflateInit2(&m_z, level, Z_DEFLATED, 15 + 16, 9, strategy);
    }
    ~Gzip() { deflateEnd(&m_z); }
    void add(std::string_view in) { run(in, Z_NO_FLUSH); }
    void addRepeated(char c, uint64_t n)
    {
        const std::string chunk(size_t(1) << 20, c);
        for (; n >= chunk.size(); n -= chunk.size())
            add(chunk);
        add(std::string_view(chunk).substr(0, size_t(n)));
    }
    std::string finish()
    {
        run({}, Z_FINISH);
        return std::move(m_out);
    }

private:
    void run(std::string_view in, int flush)
    {
        m_z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(in.data()));
        m_z.avail_in = uInt(in.size());
        char buf[1 << 16];
        do {
            m_z.next_out = reinterpret_cast<Bytef *>(buf);
            m_z.avail_out = sizeof buf;
            deflate(&m_z, flush);
            m_out.append(buf, sizeof buf - m_z.avail_out);
        } while (m_z.avail_out == 0 || (flush == Z_FINISH && m_z.avail_in > 0));
    }
    z_stream m_z{};
    std::string m_out;
};

std::string gzipOf(std::string_view s)
{
    Gzip g(6);
    g.add(s);
    return g.finish();
}

std::string zstdOf(std::string_view s, int level = 3)
{
    std::string out(ZSTD_compressBound(s.size()), '\0');
    out.resize(ZSTD_compress(out.data(), out.size(), s.data(), s.size(), level));
    return out;
}

// ---- POSIX tar, written by hand so every header field can lie ----

std::string tarHeader(const std::string &name, uint64_t size, char type = '0', const std::string &link = {})
{
    std::string h(512, '\0');
    std::memcpy(h.data(), name.data(), std::min<size_t>(name.size(), 100));
    auto octal = [&h](size_t off, size_t width, uint64_t v) { // width digits, then NUL
        for (size_t i = width; i-- > 0; v >>= 3)
            h[off + i] = char('0' + (v & 7));
    };
    octal(100, 7, 0644);
    octal(108, 7, 0);
    octal(116, 7, 0);
    octal(124, 11, size);
    octal(136, 11, 0);
    h[156] = type;
    std::memcpy(h.data() + 157, link.data(), std::min<size_t>(link.size(), 100));
    std::memcpy(h.data() + 257, "ustar\0" "00", 8);
    std::memset(h.data() + 148, ' ', 8);
    unsigned sum = 0;
    for (unsigned char c : h)
        sum += c;
    octal(148, 6, sum);
    h[154] = '\0';
    h[155] = ' ';
    return h;
}

std::string tarMember(const std::string &name, std::string_view content, char type = '0', const std::string &link = {})
{
    std::string m = tarHeader(name, content.size(), type, link);
    m.append(content);
    m.append((512 - content.size() % 512) % 512, '\0');
    return m;
}

// A NEFF (pkg_version 1: no MD5) around `payload`.
std::string neffAround(const std::string &payload)
{
    std::string h(NeffReader::kHeaderSize, '\0');
    putU64(h, 0, 1);
    putU64(h, 8, NeffReader::kHeaderSize);
    putU64(h, 16, payload.size());
    putU64(h, 24, 2);
    std::memcpy(h.data() + 220, "hostile.neff", 12);
    return h + payload;
}

// ---- NTFF patching (the section table is protobuf inside the metadata message) ----

struct NtffLayout
{
    uint64_t payloadOffset = 0;
    std::vector<NtffSection> sections;
};

NtffLayout ntffLayout(const std::string &file)
{
    const NtffProfile p = NtffReader::read(file, "layout.ntff");
    NtffLayout l;
    l.payloadOffset = kNtffMetadataOffset + (uint32_t(uint8_t(file[1])) | uint32_t(uint8_t(file[2])) << 8 |
                                             uint32_t(uint8_t(file[3])) << 16 | uint32_t(uint8_t(file[4])) << 24);
    l.sections = p.sections;
    return l;
}

// File offset and byte length of varint `field` of payload-section descriptor `section`.
std::pair<uint64_t, size_t> sectionField(const std::string &file, size_t section, uint32_t field)
{
    const uint32_t n = uint32_t(uint8_t(file[1])) | uint32_t(uint8_t(file[2])) << 8 |
                       uint32_t(uint8_t(file[3])) << 16 | uint32_t(uint8_t(file[4])) << 24;
    const ProtobufReader top(std::string_view(file).substr(kNtffMetadataOffset, n), "patch", kNtffMetadataOffset);
    ProtobufReader r = *top.message(4)->message(4)->message(1);
    ProtobufReader::Field f;
    size_t index = 0;
    while (r.next(f)) {
        if (f.number != 6 || index++ != section)
            continue;
        const auto g = r.nested(f).find(field);
        if (!g)
            return {0, 0};
        size_t len = 1;
        while (uint8_t(file[g->valueOffset + len - 1]) & 0x80)
            ++len;
        return {g->valueOffset, len};
    }
    return {0, 0};
}

// Rewrites a varint in place, keeping its length (non-minimal encodings are valid protobuf).
bool patchVarint(std::string &file, std::pair<uint64_t, size_t> at, uint64_t value)
{
    if (at.second == 0 || (at.second < 10 && value >> (7 * at.second)))
        return false;
    for (size_t i = 0; i < at.second; ++i, value >>= 7)
        file[at.first + i] = char((value & 0x7f) | (i + 1 < at.second ? 0x80 : 0));
    return true;
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

Outcome loadTrace(const QString &path, const LoadOptions &options = {})
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

Outcome loadNeff(const QString &path, const LoadOptions &options = {}, NeffInfo *out = nullptr)
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
std::string traceProblem(const Trace &t)
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
std::string problem(const Outcome &o, const QString &path, qint64 bound, bool atByte)
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

bool contains(const std::string &s, std::string_view what) { return s.find(what) != std::string::npos; }

// The corpus inputs the derived cases start from (small, one per reader).
struct Source
{
    const char *name;
    const char *relative;
    bool neff;        // NeffReader::read instead of TraceLoader::load
    bool partialOk;   // a cut file may still load (with a warning)
};
const Source kSources[] = {
    {"kineto-object", "kineto/docs__after_fix_trace.json", false, false},
    {"torch-array", "generated-torch-cpu/rmsnorm_naive.trace.json", false, true}, // unterminated arrays are accepted
    {"chrome-gzip", "catapult/webview.json.gz", false, false},
    {"ntff", "neuron-profile-json/profile_128x128x256.ntff", false, true},
    {"neuron-profile-json", "neuron-profile-json/profile_128x128x256.json", false, false},
    {"neff", "neuron-cs149-asst4/stream_256k_fd1k.neff", true, true},
};

} // namespace

class TestHostileFiles : public QObject
{
    Q_OBJECT

    QTemporaryDir m_outer;  // holds m_work and nothing else; checked unchanged at the end
    QString m_work;         // every case writes below here
    QString m_cwd;          // the working directory during the tests: must stay empty
    QString m_oldCwd;

    QString path(const QString &name) const { return m_work + QLatin1Char('/') + name; }
    QString fresh(const QString &name) const
    {
        const QString p = path(name);
        QFile::remove(p);
        return p;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_outer.isValid());
        m_work = m_outer.filePath(QStringLiteral("work"));
        m_cwd = m_outer.filePath(QStringLiteral("cwd"));
        QVERIFY(QDir().mkpath(m_work));
        QVERIFY(QDir().mkpath(m_cwd));
        m_oldCwd = QDir::currentPath();
        QVERIFY(QDir::setCurrent(m_cwd)); // a reader that writes relative paths would write here
        qInfo("time bounds x%d%s", timeScale(), LANESCOPE_HOSTILE_ASAN ? " (AddressSanitizer build)" : "");
    }

    void cleanupTestCase()
    {
        QDir::setCurrent(m_oldCwd);
        QCOMPARE(QDir(m_cwd).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot),
                 QStringList());
        QCOMPARE(QDir(m_outer.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot),
                 (QStringList{QStringLiteral("cwd"), QStringLiteral("work")}));
    }

    // ---- derived from real files ----

    void truncatedAtManyOffsets_data()
    {
        QTest::addColumn<int>("source");
        for (int i = 0; i < int(std::size(kSources)); ++i)
            QTest::newRow(kSources[i].name) << i;
    }

    void truncatedAtManyOffsets()
    {
        LANESCOPE_REQUIRE_CORPUS();
        QFETCH(int, source);
        const Source &src = kSources[source];
        const std::string full = readFile(lanescope::test::corpusFile(QString::fromUtf8(src.relative)));
        QVERIFY2(!full.empty(), src.relative);
        // the first bytes one by one (headers), then 40 cuts spread over the file, then the last bytes
        std::set<size_t> cuts;
        for (size_t i = 0; i < 24 && i < full.size(); ++i)
            cuts.insert(i);
        for (size_t k = 1; k < 40; ++k)
            cuts.insert(full.size() * k / 40);
        for (size_t i = 1; i <= 4 && i < full.size(); ++i)
            cuts.insert(full.size() - i);
        cuts.insert(127);
        cuts.insert(128);
        cuts.insert(1023);
        cuts.insert(1024);
        cuts.insert(1536);
        // cutting only trailing whitespace leaves a complete file
        size_t meaningful = full.size();
        while (meaningful > 0 && std::strchr(" \t\r\n", full[meaningful - 1]))
            --meaningful;
        int loaded = 0, failed = 0;
        uint64_t warnings = 0;
        const QString p = path(QStringLiteral("truncated-%1").arg(QString::fromUtf8(src.name)));
        for (size_t cut : cuts) {
            if (cut >= full.size())
                continue;
            QVERIFY(writeFile(p, std::string_view(full).substr(0, cut)));
            const Outcome o = src.neff ? loadNeff(p) : loadTrace(p);
            // An error always names the file; the JSON and binary readers also say where.
            VERIFY_OUTCOME(o, p, boundMs(10), !src.neff);
            loaded += o.ok;
            failed += !o.ok;
            warnings += o.warnings;
            if (o.ok && cut > 0 && cut < meaningful && !src.partialOk)
                QFAIL(qPrintable(QStringLiteral("%1 cut at %2 of %3 bytes loaded without an error")
                                     .arg(QString::fromUtf8(src.name)).arg(cut).arg(full.size())));
        }
        qInfo("%s: %d cuts: %d partial loads (%llu warnings), %d clear errors", src.name, int(cuts.size()), loaded,
              (unsigned long long)warnings, failed);
        QVERIFY(failed > 0);
        if (src.partialOk && std::string_view(src.name) != "neff") // a cut NEFF payload breaks the header's data_size
            QVERIFY2(loaded > 0 && warnings > 0, "a cut file that can load partly never did (or without a warning)");
    }

    void flippedBytes_data() { truncatedAtManyOffsets_data(); }

    void flippedBytes()
    {
        LANESCOPE_REQUIRE_CORPUS();
        QFETCH(int, source);
        const Source &src = kSources[source];
        const std::string full = readFile(lanescope::test::corpusFile(QString::fromUtf8(src.relative)));
        QVERIFY(!full.empty());
        std::mt19937_64 rng(0x1a9e5c09e + uint64_t(source));
        const QString p = path(QStringLiteral("flipped-%1").arg(QString::fromUtf8(src.name)));
        int loaded = 0, failed = 0;
        QElapsedTimer total;
        total.start();
        constexpr int kMutants = 120;
        for (int m = 0; m < kMutants; ++m) {
            std::string b = full;
            const int flips = 1 + int(rng() % 8);
            for (int k = 0; k < flips; ++k) {
                // half the flips in the first 2 KiB, where headers and tables live
                const size_t at = (rng() & 1) ? size_t(rng() % std::min<size_t>(b.size(), 2048)) : size_t(rng() % b.size());
                switch (rng() % 4) {
                case 0: b[at] = char(b[at] ^ (1 << (rng() % 8))); break;
                case 1: b[at] = char(0xff); break;
                case 2: b[at] = '\0'; break;
                default: b[at] = "\"{[]},:\\"[rng() % 8]; break;
                }
            }
            QVERIFY(writeFile(p, b));
            const Outcome o = src.neff ? loadNeff(p) : loadTrace(p);
            VERIFY_OUTCOME(o, p, boundMs(10), false);
            loaded += o.ok;
            failed += !o.ok;
        }
        qInfo("%s: %d mutants: %d loaded, %d clear errors, %lld ms", src.name, kMutants, loaded, failed,
              (long long)total.elapsed());
        QCOMPARE(loaded + failed, kMutants);
    }

    void gzipCorruptMidway()
    {
        LANESCOPE_REQUIRE_CORPUS();
        const std::string gz = readFile(lanescope::test::corpusFile(QStringLiteral("catapult/webview.json.gz")));
        QVERIFY(gz.size() > 100000);
        std::string bad = gz;
        const size_t mid = gz.size() / 2;
        for (size_t i = mid; i < mid + 64; ++i)
            bad[i] = char(bad[i] ^ 0xa5);
        const QString p = fresh(QStringLiteral("corrupt-midway.json.gz"));
        QVERIFY(writeFile(p, bad));
        const Outcome o = loadTrace(p);
        VERIFY_OUTCOME(o, p, boundMs(10), true);
        QVERIFY2(!o.ok, "a gzip stream corrupt mid-way loaded");
        QVERIFY2(contains(o.error, "corrupt gzip"), o.error.c_str());
        // the position is in the compressed file, at or after the damage (zlib notices a little later)
        const size_t at = std::stoull(o.error.substr(o.error.find("at byte ") + 8));
        QVERIFY2(at >= mid && at <= gz.size(), o.error.c_str());
        qInfo("%s", o.error.c_str());

        // the same with zstd, compressed here from the decompressed corpus file
        InputBuffer plain = InputBuffer::fromBytes(gz, "webview", {});
        std::string zs = zstdOf(plain.view());
        const size_t zmid = zs.size() / 2;
        for (size_t i = zmid; i < zmid + 64; ++i)
            zs[i] = char(zs[i] ^ 0xa5);
        const QString pz = fresh(QStringLiteral("corrupt-midway.json.zst"));
        QVERIFY(writeFile(pz, zs));
        const Outcome oz = loadTrace(pz);
        VERIFY_OUTCOME(oz, pz, boundMs(10), true);
        QVERIFY2(!oz.ok, "a zstd stream corrupt mid-way loaded");
        QVERIFY2(contains(oz.error, "zstd"), oz.error.c_str());
        // zstd notices at the end of the damaged block: the position is at or after the damage
        const size_t zat = std::stoull(oz.error.substr(oz.error.find("at byte ") + 8));
        QVERIFY2(zat + 4096 > zmid && zat <= zs.size(), oz.error.c_str());
        qInfo("%s", oz.error.c_str());
    }

    // ---- bombs ----

    void compressionBombs_data()
    {
        QTest::addColumn<bool>("zstd");
        QTest::newRow("gzip") << false;
        QTest::newRow("zstd") << true;
    }

    void compressionBombs()
    {
        QFETCH(bool, zstd);
        // 8 GiB of JSON whitespace after a valid head: 128 concatenated members of 64 MiB each (valid
        // gzip / zstd), a few MB on disk. Without the budget this would need 8 GiB.
        constexpr uint64_t kMember = uint64_t(64) << 20;
        constexpr int kMembers = 128;
        const std::string head = "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1,\"name\":\"a\"}";
        std::string member;
        if (zstd) {
            const std::string spaces(kMember, ' ');
            member = zstdOf(spaces, 3);
        } else {
            Gzip g(1, Z_RLE);
            g.addRepeated(' ', kMember);
            member = g.finish();
        }
        const std::string headPacked = zstd ? zstdOf(head) : gzipOf(head);
        const QString p = fresh(zstd ? QStringLiteral("bomb.json.zst") : QStringLiteral("bomb.json.gz"));
        {
            QFile f(p);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(headPacked.data(), qint64(headPacked.size()));
            for (int i = 0; i < kMembers; ++i)
                f.write(member.data(), qint64(member.size()));
        }
        const uint64_t onDisk = uint64_t(QFileInfo(p).size());
        LoadOptions options;
        options.memoryBudget = uint64_t(256) << 20;
        PeakRss rss;
        const bool measured = rss.reset();
        const Outcome o = loadTrace(p, options);
        const uint64_t growth = rss.growthBytes();
        VERIFY_OUTCOME(o, p, boundMs(20), true);
        QVERIFY2(!o.ok, "a compression bomb loaded");
        QVERIFY2(contains(o.error, "memory budget"), o.error.c_str());
        qInfo("%s bomb: %llu bytes on disk, %llu GiB inflated: %lld ms, peak RSS +%llu MiB: %s", zstd ? "zstd" : "gzip",
              (unsigned long long)onDisk, (unsigned long long)(kMember * kMembers >> 30), (long long)o.ms,
              (unsigned long long)(growth >> 20), o.error.c_str());
        QFile::remove(p);
        if (measured)
            QVERIFY2(growth < options.memoryBudget * 3, qPrintable(QStringLiteral("peak RSS grew %1 MiB for a 256 MiB budget").arg(growth >> 20)));
    }

    // ---- JSON shapes ----

    void deepNesting_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<QByteArray>("tail");
        QTest::newRow("in args") << QByteArray("{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1,\"name\":\"a\",\"args\":{\"x\":")
                                 << QByteArray("}}]}");
        QTest::newRow("bare array") << QByteArray("[") << QByteArray("]");
        QTest::newRow("top-level key") << QByteArray("{\"traceEvents\":[],\"deviceProperties\":") << QByteArray("}");
        QTest::newRow("neuron-profile") << QByteArray("{\"instruction\":[{\"timestamp\":1,\"duration\":1,\"label\":\"Tensor\",\"opcode\":")
                                        << QByteArray("}]}");
        QTest::newRow("unclosed") << QByteArray("{\"traceEvents\":") << QByteArray();
    }

    void deepNesting()
    {
        QFETCH(QByteArray, head);
        QFETCH(QByteArray, tail);
        constexpr int kDepth = 100000;
        std::string json(head.constData(), size_t(head.size()));
        for (int i = 0; i < kDepth; ++i)
            json += (i & 1) ? "{\"k\":" : "[";
        json += "1";
        if (!tail.isEmpty()) {
            for (int i = kDepth; i-- > 0;)
                json += (i & 1) ? "}" : "]";
            json += tail.toStdString();
        }
        const QString p = fresh(QStringLiteral("deep.json"));
        QVERIFY(writeFile(p, json));
        const Outcome o = loadTrace(p);
        VERIFY_OUTCOME(o, p, boundMs(10), true);
        qInfo("%s", o.ok ? qPrintable(QStringLiteral("loaded, %1 warnings").arg(o.warnings)) : o.error.c_str());
        if (!o.ok)
            QVERIFY2(contains(o.error, "nested") || contains(o.error, "end of file") || contains(o.error, "JSON"),
                     o.error.c_str());
    }

    void hugeString()
    {
        const uint64_t mb = uint64_t(envInt("LANESCOPE_HOSTILE_STRING_MB", 100));
        const QString p = fresh(QStringLiteral("huge-string.json"));
        {
            QFile f(p);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":5,\"pid\":1,\"tid\":1,\"name\":\"");
            const QByteArray chunk(1 << 20, 'n');
            for (uint64_t i = 0; i < mb; ++i)
                f.write(chunk);
            f.write("\",\"args\":{\"s\":\"");
            for (uint64_t i = 0; i < 4; ++i)
                f.write(chunk);
            f.write("\"}},{\"ph\":\"X\",\"ts\":2,\"dur\":1,\"pid\":1,\"tid\":1,\"name\":\"small\"}]}");
        }
        const uint64_t size = uint64_t(QFileInfo(p).size());
        PeakRss rss;
        const bool measured = rss.reset();
        const Outcome o = loadTrace(p);
        const uint64_t growth = rss.growthBytes();
        VERIFY_OUTCOME(o, p, boundMs(30), true);
        qInfo("%llu MiB string: %s in %lld ms, peak RSS +%llu MiB (%.1f x the file)", (unsigned long long)mb,
              o.ok ? "loaded" : o.error.c_str(), (long long)o.ms, (unsigned long long)(growth >> 20),
              double(growth) / double(size));
        QFile::remove(p);
        QVERIFY2(o.ok, o.error.c_str());
        QCOMPARE(o.trace->allSlices().size(), size_t(2));
        // the file in memory, simdjson's index and the interned name: a small multiple of the file
        if (measured)
            QVERIFY2(growth < size * 10, qPrintable(QStringLiteral("peak RSS grew %1 MiB for a %2 MiB file").arg(growth >> 20).arg(size >> 20)));
    }

    void numbersOutOfRange_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("sane"); // events that must survive as slices (the rest may be dropped)
        const QByteArray ok = "{\"ph\":\"X\",\"ts\":10,\"dur\":2,\"pid\":1,\"tid\":1,\"name\":\"fine\"}";
        auto wrap = [&](const char *events) { return "{\"traceEvents\":[" + ok + "," + QByteArray(events) + "]}"; };
        QTest::newRow("ts 1e400") << wrap("{\"ph\":\"X\",\"ts\":1e400,\"dur\":1,\"pid\":1,\"tid\":1,\"name\":\"a\"}") << 1;
        QTest::newRow("ts -1e400") << wrap("{\"ph\":\"X\",\"ts\":-1e400,\"dur\":1,\"pid\":1,\"tid\":1,\"name\":\"a\"}") << 1;
        QTest::newRow("ts \"1e400\"") << wrap("{\"ph\":\"X\",\"ts\":\"1e400\",\"dur\":1,\"pid\":1,\"tid\":1,\"name\":\"a\"}") << 1;
        QTest::newRow("dur -5") << wrap("{\"ph\":\"X\",\"ts\":5,\"dur\":-5,\"pid\":1,\"tid\":1,\"name\":\"a\"}") << 1;
        QTest::newRow("dur 1e400") << wrap("{\"ph\":\"X\",\"ts\":5,\"dur\":1e400,\"pid\":1,\"tid\":1,\"name\":\"a\"}") << 1;
        QTest::newRow("pid 1e30") << wrap("{\"ph\":\"X\",\"ts\":5,\"dur\":1,\"pid\":1e30,\"tid\":-1e30,\"name\":\"a\"}") << 1;
        QTest::newRow("int64 edges") << wrap("{\"ph\":\"X\",\"ts\":9223372036854775807,\"dur\":9223372036854775807,\"pid\":1,\"tid\":2,\"name\":\"a\"},"
                                             "{\"ph\":\"X\",\"ts\":-9223372036854775808,\"dur\":18446744073709551615,\"pid\":1,\"tid\":3,\"name\":\"b\"}") << 1;
        QTest::newRow("end overflows") << wrap("{\"ph\":\"X\",\"ts\":9223372036854775,\"dur\":9223372036854775,\"pid\":1,\"tid\":2,\"name\":\"a\"},"
                                               "{\"ph\":\"X\",\"ts\":-9223372036854775,\"dur\":1,\"pid\":1,\"tid\":2,\"name\":\"b\"},"
                                               "{\"ph\":\"B\",\"ts\":9223372036854775,\"pid\":1,\"tid\":3,\"name\":\"c\"},"
                                               "{\"ph\":\"E\",\"ts\":-9223372036854775,\"pid\":1,\"tid\":3}") << 1;
        QTest::newRow("B/E 1e308") << wrap("{\"ph\":\"B\",\"ts\":1e308,\"pid\":1,\"tid\":1,\"name\":\"a\"},{\"ph\":\"E\",\"ts\":-1e308,\"pid\":1,\"tid\":1}") << 1;
        QTest::newRow("counter 1e400") << wrap("{\"ph\":\"C\",\"ts\":3,\"pid\":1,\"name\":\"c\",\"args\":{\"v\":1e400,\"w\":-1e400,\"x\":1e30}}") << 1;
        QTest::newRow("flow ids") << wrap("{\"ph\":\"s\",\"ts\":1e400,\"id\":1e30,\"pid\":1,\"tid\":1,\"name\":\"f\",\"cat\":\"c\"},"
                                          "{\"ph\":\"f\",\"ts\":-5,\"id\":\"1e30\",\"pid\":1,\"tid\":1,\"name\":\"f\",\"cat\":\"c\",\"bp\":\"e\"}") << 1;
        QTest::newRow("async 1e400") << wrap("{\"ph\":\"b\",\"ts\":1e400,\"id\":1,\"pid\":1,\"tid\":1,\"name\":\"a\",\"cat\":\"c\"},"
                                             "{\"ph\":\"e\",\"ts\":-5,\"id\":1,\"pid\":1,\"tid\":1,\"name\":\"a\",\"cat\":\"c\"}") << 1;
        QTest::newRow("neuron-profile") << QByteArray("{\"instruction\":[{\"timestamp\":1e400,\"duration\":-5,\"label\":\"Tensor\",\"subgroup\":\"Tensor\",\"opcode\":\"NOP\",\"pc\":1e30},"
                                                      "{\"timestamp\":10,\"duration\":2,\"label\":\"Tensor\",\"subgroup\":\"Tensor\",\"opcode\":\"NOP\",\"pc\":1}],"
                                                      "\"dma\":[{\"timestamp\":-1e400,\"duration\":1e30,\"dma_queue\":\"1e30\",\"dma_engine\":\"-5\",\"transfer_size\":1e400}],"
                                                      "\"semaphore_update\":[{\"id\":\"1e30\",\"timestamp\":1e400,\"value\":-5}]}")
                                        << 1;
        QTest::newRow("neuron-profile int64 edges")
            << QByteArray("{\"instruction\":[{\"timestamp\":9223372036854775807,\"duration\":9223372036854775807,\"label\":\"Tensor\",\"subgroup\":\"Tensor\",\"opcode\":\"NOP\",\"pc\":1},"
                          "{\"timestamp\":-9223372036854775808,\"duration\":9223372036854775807,\"label\":\"Vector\",\"subgroup\":\"Vector\",\"opcode\":\"NOP\",\"pc\":2},"
                          "{\"timestamp\":10,\"duration\":2,\"label\":\"Tensor\",\"subgroup\":\"Tensor\",\"opcode\":\"NOP\",\"pc\":3}],"
                          "\"dma\":[{\"timestamp\":9223372036854775807,\"duration\":9223372036854775807,\"dma_queue\":\"1\",\"dma_engine\":\"1\",\"transfer_size\":64,\"aggregated\":\"no\"},"
                          "{\"timestamp\":-9223372036854775808,\"duration\":9223372036854775807,\"dma_queue\":\"1\",\"dma_engine\":\"1\",\"transfer_size\":64,\"aggregated\":\"no\"}],"
                          "\"ham\":[{\"timestamp\":9223372036854775807,\"duration\":9223372036854775807,\"k\":1,\"n\":2,\"type\":0}],"
                          "\"semaphore_update\":[{\"id\":\"3\",\"timestamp\":-9223372036854775808,\"value\":1}]}")
            << 1;
    }

    void numbersOutOfRange()
    {
        QFETCH(QByteArray, json);
        QFETCH(int, sane);
        const QString p = fresh(QStringLiteral("numbers.json"));
        QVERIFY(writeFile(p, std::string_view(json.constData(), size_t(json.size()))));
        const Outcome o = loadTrace(p);
        VERIFY_OUTCOME(o, p, boundMs(5), true);
        QVERIFY2(o.ok, o.error.c_str());
        QVERIFY(o.trace->allSlices().size() >= size_t(sane));
        std::string warnings;
        for (const Warning &w : o.trace->diagnostics().warnings())
            warnings += "\n  " + Diagnostics::format(w) + " (" + w.firstSeen + ")";
        qInfo("%zu slices, %llu warnings:%s", o.trace->allSlices().size(), (unsigned long long)o.warnings,
              warnings.c_str());
    }

    // ---- NEFF ----

    void neffHeaderLies_data()
    {
        QTest::addColumn<int>("offset");
        QTest::addColumn<quint64>("value");
        QTest::addColumn<bool>("mustFail");
        QTest::addColumn<int>("errorAt"); // the byte the error names, -1: any
        QTest::newRow("data_size past the end") << 16 << quint64(1) << true << 16; // value: file size + 1
        QTest::newRow("data_size 2^64-1") << 16 << quint64(UINT64_MAX) << true << 16;
        QTest::newRow("data_size 0") << 16 << quint64(0) << true << 16;
        QTest::newRow("data_size cuts the payload") << 16 << quint64(3000) << false << -1;
        QTest::newRow("data_size 10 bytes") << 16 << quint64(10) << true << -1;
        QTest::newRow("header_size 4096") << 8 << quint64(4096) << true << 8;
        QTest::newRow("header_size 0") << 8 << quint64(0) << true << 8;
        QTest::newRow("pkg_version 7") << 0 << quint64(7) << true << 0;
        QTest::newRow("major version 99") << 24 << quint64(99) << true << 24;
        QTest::newRow("tpb count 2^32-1") << 168 << quint64(0xffffffffu) << false << -1;
    }

    void neffHeaderLies()
    {
        LANESCOPE_REQUIRE_CORPUS();
        QFETCH(int, offset);
        QFETCH(quint64, value);
        QFETCH(bool, mustFail);
        QFETCH(int, errorAt);
        std::string b = readFile(lanescope::test::corpusFile(QStringLiteral("neuron-cs149-asst4/stream_256k_fd1k.neff")));
        QVERIFY(b.size() > 4096);
        if (offset == 16 && value == 1)
            value = b.size() - NeffReader::kHeaderSize + 1;
        putU64(b, size_t(offset), value);
        const QString p = fresh(QStringLiteral("lying-header.neff"));
        QVERIFY(writeFile(p, b));
        const Outcome o = loadNeff(p);
        VERIFY_OUTCOME(o, p, boundMs(5), true);
        if (mustFail) {
            QVERIFY2(!o.ok, "a NEFF header that lies was accepted");
            if (errorAt >= 0)
                QVERIFY2(contains(o.error, ": at byte " + std::to_string(errorAt) + ":"), o.error.c_str());
        }
        qInfo("%s", o.ok ? qPrintable(QStringLiteral("read with %1 warnings").arg(o.warnings)) : o.error.c_str());
        // TraceLoader does not load a NEFF on its own: a clear error too, never a crash
        const Outcome t = loadTrace(p);
        VERIFY_OUTCOME(t, p, boundMs(5), false);
    }

    void neffTarUnsafeMemberNames()
    {
        // Names that would escape an extraction folder. Nothing is extracted, so nothing may appear.
        const QString marker = QStringLiteral("lanescope_hostile_%1").arg(::getpid());
        const std::string m = marker.toStdString();
        const std::string absolute = QDir::tempPath().toStdString() + "/" + m + "_absolute";
        std::string tar;
        tar += tarMember("info.json", "{\"tool_version\":\"hostile\"}");
        tar += tarMember(absolute, "{\"x\":1}");
        tar += tarMember("../" + m + "_up", "{\"x\":1}");
        tar += tarMember("sg00/../../" + m + "_sg", "{\"x\":1}");
        tar += tarMember("..\\" + m + "_backslash", "{}");
        tar += tarMember("sg00/def.json", "{\"var\":{},\"pe\":\"../../../etc/passwd\"}");
        tar += tarMember("sg00/link.json", "", '2', "/etc/passwd");
        tar += tarMember("sg00/hard.json", "", '1', "../../etc/shadow");
        tar += tarMember("sg00/PE.json", "{\"dma\":[]}");
        tar += std::string(1024, '\0');
        const QString dir = m_work + QStringLiteral("/unsafe");
        const QString p = dir + QStringLiteral("/neff_42.neff");
        QVERIFY(writeFile(p, neffAround(gzipOf(tar))));

        const QStringList outerBefore = listing(m_outer.path());
        NeffInfo info;
        const Outcome o = loadNeff(p, {}, &info);
        VERIFY_OUTCOME(o, p, boundMs(5), true);
        QVERIFY2(o.ok, o.error.c_str());
        int unsafe = 0;
        for (const NeffMember &mem : info.members)
            unsafe += mem.unsafeName;
        QCOMPARE(unsafe, 4); // absolute, ../, sg00/../../, ..\ (the links are listed, never followed)
        QVERIFY(info.diagnostics.count("member name is an absolute path or contains '..' (listed only; nothing is written to disk)") >= 4);
        QCOMPARE(info.compilerVersion, std::string("hostile"));
        QCOMPARE(listing(m_outer.path()), outerBefore);
        QVERIFY(!QFileInfo::exists(QString::fromStdString(absolute)));
        QVERIFY(!QFileInfo::exists(QFileInfo(m_work).absolutePath() + QLatin1Char('/') + marker + QStringLiteral("_up")));
        QVERIFY(!QFileInfo::exists(QDir::tempPath() + QLatin1Char('/') + marker + QStringLiteral("_sg")));
        QVERIFY(!QFileInfo::exists(m_outer.path() + QLatin1Char('/') + marker + QStringLiteral("_sg")));
        qInfo("%zu members, %d with unsafe names, %llu warnings", info.members.size(), unsafe, (unsigned long long)o.warnings);
        // the folder loader sees the same file: listed, never extracted
        const Outcome t = loadTrace(dir);
        VERIFY_OUTCOME(t, dir, boundMs(10), false);
        qInfo("as a folder: %s", t.ok ? "loaded" : t.error.c_str());
        QCOMPARE(listing(m_outer.path()), outerBefore);
        QDir(dir).removeRecursively();
    }

    void neffTarHugeMembers()
    {
        // sg00/PE.json really holds 300 MiB (of spaces, gzip'd to ~300 KiB); kelf-0.json claims 8 GiB
        // in its tar header and holds 10 bytes. Budget 64 MiB.
        constexpr uint64_t kHuge = uint64_t(300) << 20;
        Gzip g(1, Z_RLE);
        g.add(tarMember("info.json", "{\"tool_version\":\"hostile\"}"));
        g.add(tarMember("sg00/def.json", "{\"var\":{},\"pe\":\"PE.json\"}"));
        g.add(tarHeader("sg00/PE.json", kHuge));
        g.addRepeated(' ', kHuge);
        g.add(tarHeader("kelf-0.json", (uint64_t(1) << 33) - 1));
        g.add("{\"a\":1}\n\n\n");
        const std::string payload = g.finish();
        const QString p = fresh(QStringLiteral("huge-members.neff"));
        QVERIFY(writeFile(p, neffAround(payload)));

        LoadOptions options;
        options.memoryBudget = uint64_t(64) << 20;
        PeakRss rss;
        const bool measured = rss.reset();
        NeffInfo info;
        const Outcome o = loadNeff(p, options, &info);
        const uint64_t growth = rss.growthBytes();
        VERIFY_OUTCOME(o, p, boundMs(20), true);
        QVERIFY2(o.ok, o.error.c_str());
        QVERIFY(info.member("sg00/PE.json"));
        QCOMPARE(info.member("sg00/PE.json")->size, kHuge);
        QVERIFY(!info.complete);
        QVERIFY(info.tarBytes <= options.memoryBudget + (uint64_t(4) << 20));
        std::string warnings;
        for (const Warning &w : info.diagnostics.warnings())
            warnings += "\n  " + Diagnostics::format(w) + " (" + w.firstSeen + ")";
        qInfo("payload %zu bytes: %zu members, %llu tar bytes walked, %lld ms, peak RSS +%llu MiB, warnings:%s",
              payload.size(), info.members.size(), (unsigned long long)info.tarBytes, (long long)o.ms,
              (unsigned long long)(growth >> 20), warnings.c_str());
        QVERIFY(info.diagnostics.count("JSON member larger than the per-member cap was skipped (not read)") == 1);
        if (measured)
            QVERIFY2(growth < (uint64_t(256) << 20), qPrintable(QStringLiteral("peak RSS grew %1 MiB").arg(growth >> 20)));

        // With room for the whole walk, the 8 GiB claim is caught by the payload size, not allocated.
        options.memoryBudget = uint64_t(1) << 30;
        rss.reset();
        const Outcome o2 = loadNeff(p, options, &info);
        VERIFY_OUTCOME(o2, p, boundMs(30), true);
        QVERIFY2(o2.ok, o2.error.c_str());
        QVERIFY(info.member("kelf-0.json"));
        QVERIFY(info.diagnostics.count("member header claims more bytes than the payload can hold; member skipped") +
                    info.diagnostics.count("NEFF payload breaks off or is damaged; later members are missing") >= 1);
        if (measured)
            QVERIFY2(rss.growthBytes() < (uint64_t(512) << 20), qPrintable(QStringLiteral("peak RSS grew %1 MiB").arg(rss.growthBytes() >> 20)));
        QFile::remove(p);
    }

    // ---- NTFF ----

    void ntffHostileTables_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<bool>("mustFail");
        QTest::addColumn<QString>("expected"); // in the error, or in a warning when it loads
        QTest::newRow("unknown version 7") << "version7" << true << "unsupported NTFF version 7";
        QTest::newRow("unknown version 200") << "version200" << true << "unrecognised file format";
        QTest::newRow("metadata length past the end") << "metadataPastEnd" << true << "";
        QTest::newRow("section offset past the end") << "offsetPastEnd" << true << "past the end of the file";
        QTest::newRow("section size past the end") << "sizePastEnd" << false << "NTFF payload truncated";
        QTest::newRow("section size not whole records") << "partialRecord" << true << "not a multiple of 16";
        QTest::newRow("sections overlap") << "overlap" << true << "overlaps";
        QTest::newRow("begin/end records unmatched") << "unmatched" << false << "instruction";
        QTest::newRow("payload cut mid-record") << "cutMidRecord" << false << "NTFF payload truncated";
    }

    void ntffHostileTables()
    {
        LANESCOPE_REQUIRE_CORPUS();
        QFETCH(QString, kind);
        QFETCH(bool, mustFail);
        QFETCH(QString, expected);
        std::string b = readFile(lanescope::test::corpusFile(QStringLiteral("neuron-profile-json/profile_128x128x256.ntff")));
        QVERIFY(b.size() > 1000);
        const NtffLayout layout = ntffLayout(b);
        QVERIFY(layout.sections.size() >= 3);
        size_t last = 0, instr = 0;
        for (size_t i = 0; i < layout.sections.size(); ++i) {
            if (layout.sections[i].offset >= layout.sections[last].offset)
                last = i;
            if (layout.sections[i].kind == 0)
                instr = i;
        }
        const NtffSection &ls = layout.sections[last];
        if (kind == QLatin1String("version7")) {
            b[0] = 7;
        } else if (kind == QLatin1String("version200")) {
            b[0] = char(200);
        } else if (kind == QLatin1String("metadataPastEnd")) {
            b[4] = char(0x7f);
        } else if (kind == QLatin1String("offsetPastEnd")) {
            const auto at = sectionField(b, last, 5);
            QVERIFY(patchVarint(b, at, (uint64_t(1) << (7 * std::min<size_t>(at.second, 8))) - 1));
        } else if (kind == QLatin1String("sizePastEnd")) {
            // as far past the end as the varint's length allows (it is rewritten in place)
            const auto at = sectionField(b, last, 6);
            const uint64_t most = at.second >= 10 ? UINT64_MAX : (uint64_t(1) << (7 * at.second)) - 1;
            const uint64_t size = std::min<uint64_t>(ls.size + 16 * 1000, most / 16 * 16);
            QVERIFY(size > ls.size);
            QVERIFY(patchVarint(b, at, size));
        } else if (kind == QLatin1String("partialRecord")) {
            QVERIFY(patchVarint(b, sectionField(b, instr, 6), layout.sections[instr].size + 1));
        } else if (kind == QLatin1String("overlap")) {
            size_t first = 0; // the section right before the last one
            for (size_t i = 0; i < layout.sections.size(); ++i)
                if (layout.sections[i].size && layout.sections[i].offset < ls.offset &&
                    layout.sections[i].offset >= layout.sections[first].offset)
                    first = i;
            QVERIFY(patchVarint(b, sectionField(b, first, 6), layout.sections[first].size + 32));
        } else if (kind == QLatin1String("unmatched")) {
            const NtffSection &s = layout.sections[instr];
            uint64_t flipped = 0;
            for (uint64_t r = 0; r * 16 < s.size; r += 3, ++flipped) {
                const size_t at = size_t(layout.payloadOffset + s.offset + r * 16 + 3);
                b[at] = char(b[at] ^ 0x01); // bit 24: begin <-> end
            }
            QVERIFY(flipped > 10);
        } else if (kind == QLatin1String("cutMidRecord")) {
            b.resize(size_t(layout.payloadOffset + ls.offset + ls.size / 2 + 7));
        }
        const QString p = fresh(QStringLiteral("hostile.ntff"));
        QVERIFY(writeFile(p, b));
        const Outcome o = loadTrace(p);
        VERIFY_OUTCOME(o, p, boundMs(5), true);
        std::string warnings;
        if (o.ok)
            for (const Warning &w : o.trace->diagnostics().warnings())
                warnings += "\n  " + Diagnostics::format(w) + " (" + w.firstSeen + ")";
        qInfo("%s", o.ok ? ("loaded, " + std::to_string(o.warnings) + " warnings:" + warnings).c_str() : o.error.c_str());
        if (mustFail) {
            QVERIFY2(!o.ok, "a hostile NTFF table was accepted");
            QVERIFY2(contains(o.error, expected.toStdString()), o.error.c_str());
        } else {
            QVERIFY2(o.ok, o.error.c_str());
            QVERIFY(o.warnings > 0);
            QVERIFY2(contains(warnings, expected.toStdString()), warnings.c_str());
        }
    }

    // ---- folders ----

    void folderWithUnreadableFilesAndLoops()
    {
        LANESCOPE_REQUIRE_CORPUS();
        const QString root = m_work + QStringLiteral("/folder");
        QDir(root).removeRecursively();
        const QString run = root + QStringLiteral("/i-0hostile_pid_7/20250101_000000");
        QVERIFY(QDir().mkpath(run + QStringLiteral("/sub/deeper")));
        QVERIFY(writeFile(run + QStringLiteral("/trace.json"),
                          readFile(lanescope::test::corpusFile(QStringLiteral("generated-torch-cpu/rmsnorm_naive.trace.json")))));
        const std::string ntff = readFile(lanescope::test::corpusFile(QStringLiteral("neuron-cs149-asst4/stream_256k_fd1k.ntff")));
        QVERIFY(writeFile(run + QStringLiteral("/neff_1234.neff"),
                          readFile(lanescope::test::corpusFile(QStringLiteral("neuron-cs149-asst4/stream_256k_fd1k.neff")))));
        QVERIFY(writeFile(run + QStringLiteral("/1234_vnc_0.ntff"), ntff));
        QVERIFY(writeFile(run + QStringLiteral("/5678_vnc_0.ntff"), ntff.substr(0, ntff.size() / 3))); // cut
        QVERIFY(writeFile(run + QStringLiteral("/neff_9.neff"), std::string(2000, '\x01')));        // not a NEFF
        QVERIFY(writeFile(run + QStringLiteral("/broken.json"), "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":"));
        const QByteArray fifo = (run + QStringLiteral("/stuck.json")).toLocal8Bit();
        QVERIFY(::mkfifo(fifo.constData(), 0600) == 0);
        auto symlink = [&](const char *target, const QString &rel) {
            return ::symlink(target, (run + QLatin1Char('/') + rel).toLocal8Bit().constData()) == 0;
        };
        QVERIFY(symlink("missing.ntff", QStringLiteral("gone.ntff")));   // dangling
        QVERIFY(symlink("self.json", QStringLiteral("self.json")));      // resolves to itself (ELOOP)
        QVERIFY(symlink("..", QStringLiteral("sub/back")));              // folder loop
        QVERIFY(symlink("../../..", QStringLiteral("sub/deeper/top")));  // loop to the scanned folder
        QVERIFY(symlink("../trace.json", QStringLiteral("sub/same_trace.json")));
        const QString secret = run + QStringLiteral("/secret.json");
        QVERIFY(writeFile(secret, "{\"traceEvents\":[]}"));
        QVERIFY(::chmod(secret.toLocal8Bit().constData(), 0) == 0); // root reads it anyway; others cannot

        const QStringList before = listing(m_outer.path());
        const Outcome o = loadTrace(root);
        VERIFY_OUTCOME(o, root, boundMs(30), false);
        QVERIFY2(o.ok, o.error.c_str());
        QCOMPARE(listing(m_outer.path()), before);
        std::map<std::string, std::string> files;
        for (const auto &[k, v] : o.trace->metadata().entries)
            if (k.rfind("file.", 0) == 0)
                files[k.substr(5)] = v;
        std::string all;
        for (const auto &[k, v] : files)
            all += "\n  " + k + ": " + v;
        qInfo("folder loaded in %lld ms, %llu warnings, files:%s", (long long)o.ms, (unsigned long long)o.warnings, all.c_str());
        const std::string prefix = "i-0hostile_pid_7/20250101_000000/";
        auto status = [&](const char *rel) { return files.count(prefix + rel) ? files[prefix + rel] : std::string("(not listed)"); };
        QVERIFY2(contains(status("stuck.json"), "FIFO"), status("stuck.json").c_str());
        QVERIFY2(contains(status("gone.ntff"), "broken symbolic link"), status("gone.ntff").c_str());
        QVERIFY2(contains(status("self.json"), "loop"), status("self.json").c_str());
        // trace.json and the link to it are one file: loaded once, the other listed as the same file
        QVERIFY2(contains(status("trace.json") + status("sub/same_trace.json"), "loaded"), all.c_str());
        QVERIFY2(contains(status("trace.json") + status("sub/same_trace.json"), "same file"), all.c_str());
        QVERIFY2(o.trace->diagnostics().count("symbolic link loops (not followed)") >= 1 ||
                     contains(status("sub/back/"), "loop") || contains(status("sub/back/"), "same folder"),
                 all.c_str());

        // The same hostile entries opened one by one: each ends at once with an error naming it.
        for (const char *rel : {"stuck.json", "gone.ntff", "self.json", "broken.json", "neff_9.neff", "5678_vnc_0.ntff"}) {
            const QString p = run + QLatin1Char('/') + QLatin1String(rel);
            const Outcome one = loadTrace(p);
            VERIFY_OUTCOME(one, p, boundMs(5), false);
            qInfo("%s: %s", rel, one.ok ? qPrintable(QStringLiteral("loaded, %1 warnings").arg(one.warnings)) : one.error.c_str());
        }
        // A FIFO without a writer, opened directly: ends at once (as an empty file), as a NEFF too.
        const QString fifoPath = run + QStringLiteral("/stuck.json");
        const Outcome asTrace = loadTrace(fifoPath);
        VERIFY_OUTCOME(asTrace, fifoPath, boundMs(5), false);
        QVERIFY(!asTrace.ok);
        const Outcome asNeff = loadNeff(fifoPath);
        VERIFY_OUTCOME(asNeff, fifoPath, boundMs(5), false);
        QVERIFY(!asNeff.ok);
        qInfo("FIFO: %s / %s", asTrace.error.c_str(), asNeff.error.c_str());
        QCOMPARE(listing(m_outer.path()), before);
        QDir(root).removeRecursively();
    }

    void devices()
    {
        // Endless or special files: a clear error at once, never a read until the budget is gone.
        for (const char *dev : {"/dev/zero", "/dev/urandom", "/dev/null"}) {
            if (!QFileInfo::exists(QLatin1String(dev)))
                continue;
            const QString p = QLatin1String(dev);
            const Outcome o = loadTrace(p);
            VERIFY_OUTCOME(o, p, boundMs(5), false);
            QVERIFY(!o.ok);
            const Outcome n = loadNeff(p);
            VERIFY_OUTCOME(n, p, boundMs(5), false);
            QVERIFY(!n.ok);
            qInfo("%s: %s / %s", dev, o.error.c_str(), n.error.c_str());
        }
    }

    // ---- inputs the fuzzers once failed on ----

    void fuzzRegressions_data()
    {
        QTest::addColumn<QString>("harness");
        QTest::addColumn<QString>("file");
        const QString base = QStringLiteral(LANESCOPE_TEST_DATA "/fuzz-regressions");
        for (const QFileInfo &h : QDir(base).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
            for (const QFileInfo &f : QDir(h.filePath()).entryInfoList(QDir::Files, QDir::Name))
                QTest::newRow(qPrintable(h.fileName() + QLatin1Char('/') + f.fileName())) << h.fileName() << f.filePath();
    }

    void fuzzRegressions()
    {
        QFETCH(QString, harness);
        QFETCH(QString, file);
        const std::string bytes = readFile(file);
        // the harness's own path through the readers, on the bytes as the fuzzer saw them
        LoadOptions options;
        options.memoryBudget = uint64_t(64) << 20;
        QElapsedTimer t;
        t.start();
        std::string outcome = "ok";
        try {
            if (harness == QLatin1String("fuzz_neff")) {
                NeffReader::readBytes(bytes, "regression", options);
            } else if (harness == QLatin1String("fuzz_protobuf")) {
                ProtobufReader r(bytes, "regression", 128);
                ProtobufReader::Field f;
                while (r.next(f))
                    if (f.type == ProtobufReader::WireType::LengthDelimited)
                        (void)r.nested(f).find(1);
            } else if (harness == QLatin1String("fuzz_profilefolder")) {
                outcome = "(folder inputs are replayed by the fuzzer binary only)";
            } else {
                InputBuffer in = InputBuffer::fromBytes(bytes, "regression", options);
                if (harness == QLatin1String("fuzz_chromejson"))
                    (void)ChromeJsonImporter::import(in, "regression", options);
                else if (harness == QLatin1String("fuzz_ntff"))
                    (void)NtffImporter::import(in, "regression", options);
                else if (harness == QLatin1String("fuzz_neuronprofilejson"))
                    (void)NeuronProfileJsonImporter::import(in, "regression", options);
                else if (harness == QLatin1String("fuzz_systemprofile"))
                    (void)SystemProfileImporter::import(in, "regression", options);
                else if (harness != QLatin1String("fuzz_inputbuffer"))
                    QFAIL(qPrintable(QStringLiteral("no replay for the inputs of harness %1").arg(harness)));
            }
        } catch (const ImportError &e) {
            outcome = e.what();
            QVERIFY2(contains(outcome, "regression"), e.what());
        }
        QVERIFY2(t.elapsed() < boundMs(10), qPrintable(QStringLiteral("took %1 ms").arg(t.elapsed())));
        // and through TraceLoader from a file, as a user would open it
        if (harness != QLatin1String("fuzz_protobuf") && harness != QLatin1String("fuzz_profilefolder")) {
            const QString p = fresh(QStringLiteral("regression.bin"));
            QVERIFY(writeFile(p, bytes));
            const Outcome o = harness == QLatin1String("fuzz_neff") ? loadNeff(p, options) : loadTrace(p, options);
            VERIFY_OUTCOME(o, p, boundMs(10), false);
        }
        qInfo("%s", outcome.c_str());
    }
};

QTEST_GUILESS_MAIN(TestHostileFiles)
#include "tst_hostilefiles.moc"
