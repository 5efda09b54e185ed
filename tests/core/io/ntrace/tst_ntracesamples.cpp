// NtraceSamplesReader on the real cpu_util.pb and host_mem.pb (7,200 = 12 CPUs x 600 samples, 600
// samples of two values; numbers from NTRACE_VERIFIED.md and a dump of the first records), on
// NtraceWriter's, and on damaged files (cut, a field of another wire type, no timestamp): counted
// warnings naming the file and the byte offset, the other samples kept.
#include "corpus.h"
#include "filebytes.h"
#include "io/ntrace/ntracesamples.h"
#include "io/synthetic/protobufwire.h"
#include "ntracesession.h"

#include <QTest>

#include <map>
#include <set>

using namespace lanescope;

namespace {

const QString kCapture = QStringLiteral("neuron-trn2-capture/i-0af76a70a6d3864dd_pid_713479/");

std::string frame(const std::string &message)
{
    std::string out;
    const uint32_t n = uint32_t(message.size());
    for (int i = 0; i < 4; ++i)
        out.push_back(char((n >> (8 * i)) & 0xff));
    return out + message;
}

} // namespace

class TestNtraceSamples : public QObject
{
    Q_OBJECT

private slots:
    void realCpuUtil()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kCapture + QStringLiteral("cpu_util.pb"));
        const std::string bytes = test::readFile(test::corpusFile(kCapture + QStringLiteral("cpu_util.pb")));
        Diagnostics d;
        const std::vector<NtraceCpuSample> s = NtraceSamplesReader::readCpuUtil(bytes, "cpu_util.pb", d);
        QVERIFY(d.empty());
        QCOMPARE(s.size(), size_t(7200));
        std::map<int64_t, int> perTime;
        std::set<int64_t> cpus;
        double top = 0;
        for (const NtraceCpuSample &x : s) {
            ++perTime[x.ts];
            cpus.insert(x.cpu);
            top = std::max(top, x.percent);
        }
        QCOMPARE(perTime.size(), size_t(600));
        QCOMPARE(cpus.size(), size_t(12));
        for (const auto &[ts, n] : perTime)
            QCOMPARE(n, 12);
        QCOMPARE(s.front().ts, int64_t(1773237643676937891));
        QCOMPARE(s.front().percent, 0.0); // the first sample is all zeros (field 1 left out)
        QCOMPARE(s[12].cpu, int64_t(0));    // CPU 0 of sample 2: field 3 left out
        QCOMPARE(float(s[12].percent), 29.421627044677734f);
        QCOMPARE(s[13].cpu, int64_t(1));
        QCOMPARE(float(top), 73.73737335205078f);
    }

    void realHostMem()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kCapture + QStringLiteral("host_mem.pb"));
        const std::string bytes = test::readFile(test::corpusFile(kCapture + QStringLiteral("host_mem.pb")));
        Diagnostics d;
        const std::vector<NtraceMemorySample> s = NtraceSamplesReader::readHostMem(bytes, "host_mem.pb", d);
        QVERIFY(d.empty());
        QCOMPARE(s.size(), size_t(600));
        std::set<uint64_t> values;
        for (const NtraceMemorySample &x : s)
            values.insert(x.bytes);
        QCOMPARE(values, (std::set<uint64_t>{14'472'425'472, 15'042'867'200}));
        QCOMPARE(s.front().ts, int64_t(1773237643676937891)); // the cpu_util sample times
    }

    void writerRoundTrip()
    {
        const NtraceWriter w = test::MiniSession().writer();
        Diagnostics d;
        QCOMPARE(NtraceSamplesReader::readCpuUtil(w.cpuUtil(), "cpu_util.pb", d).size(), size_t(6));
        QCOMPARE(NtraceSamplesReader::readHostMem(w.hostMem(), "host_mem.pb", d).size(), size_t(3));
        QVERIFY(d.empty());
    }

    void damaged()
    {
        std::string good;
        pbwire::appendInteger(good, 2, 5);
        pbwire::appendInteger(good, 3, 1);
        std::string noTime = pbwire::integer(3, 1);
        std::string wrong = pbwire::integer(1, 7) + good; // utilisation as a varint, not a float
        const std::string bytes = frame(good) + frame(noTime) + frame(wrong) + frame(good) + std::string("\x09\x00\x00\x00\x10", 5);
        Diagnostics d;
        const std::vector<NtraceCpuSample> s = NtraceSamplesReader::readCpuUtil(bytes, "cpu_util.pb", d);
        QCOMPARE(s.size(), size_t(2));
        QCOMPARE(d.count("cpu_util.pb: samples that cannot be read (skipped)"), uint64_t(2));
        QCOMPARE(d.count("cpu_util.pb: a record length runs past the end of the file (the rest of the file is skipped)"), uint64_t(1));
        const std::string first = d.warnings().front().firstSeen;
        QVERIFY2(first.starts_with("byte " + std::to_string(frame(good).size()) + ": no timestamp"), first.c_str());
        Diagnostics m;
        QCOMPARE(NtraceSamplesReader::readHostMem(frame(pbwire::bytes(1, "x") + good), "host_mem.pb", m).size(), size_t(0));
        QVERIFY(m.warnings().front().firstSeen.find("field 1 is length-delimited bytes; expected a varint (bytes)") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestNtraceSamples)
#include "tst_ntracesamples.moc"
