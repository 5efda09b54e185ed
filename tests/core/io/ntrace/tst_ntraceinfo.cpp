// NtraceInfoReader on the real trace_info.pb (values written here from NTRACE_VERIFIED.md, not from the
// reader), on NtraceWriter's, and cut at every byte: it never throws, keeps the fields before the cut and
// the entries of a table cut in the middle, and says where the damage is.
#include "corpus.h"
#include "filebytes.h"
#include "io/ntrace/ntraceinfo.h"
#include "io/synthetic/protobufwire.h"
#include "ntracesession.h"

#include <QTest>

#include <algorithm>

using namespace lanescope;

namespace {

const QString kInfo = QStringLiteral("neuron-trn2-capture/i-0af76a70a6d3864dd_pid_713479/trace_info.pb");

} // namespace

class TestNtraceInfo : public QObject
{
    Q_OBJECT

private slots:
    void realCapture()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kInfo);
        const std::string bytes = test::readFile(test::corpusFile(kInfo));
        QCOMPARE(bytes.size(), size_t(1891));
        Diagnostics d;
        const NtraceInfo info = NtraceInfoReader::read(bytes, "trace_info.pb", d);
        QVERIFY(d.empty());
        QVERIFY(!info.damaged);
        QCOMPARE(info.format, uint64_t(2));
        QCOMPARE(info.pid, uint64_t(713479));
        QCOMPARE(info.instanceId, std::string("i-0af76a70a6d3864dd"));
        QCOMPARE(info.instanceType, std::string("trn2.3xlarge"));
        QCOMPARE(info.hostName, std::string("ip-172-31-131-112"));
        QCOMPARE(info.hostIp, std::string("172.31.131.112"));
        QCOMPARE(info.cpuCount, uint64_t(12));
        QCOMPARE(info.cpuModel, std::string("Intel(R) Xeon(R) Platinum 8488C"));
        QCOMPARE(info.hostMemoryBytes, uint64_t(133'975'228'416));
        QCOMPARE(info.sessionStart, int64_t(1773237643508494611));
        QCOMPARE(info.sessionEnd, int64_t(1773238243677100845));
        QCOMPARE(info.recordCount, uint64_t(1676));
        QCOMPARE(info.systemTrace.records, uint64_t(1676));
        QCOMPARE(info.systemTrace.path, std::string("./output/i-0af76a70a6d3864dd_pid_713479/ntrace.pb"));
        QCOMPARE(info.cpuUtil.records, uint64_t(600));
        QCOMPARE(info.hostMem.records, uint64_t(600));
        QCOMPARE(info.tables.size(), size_t(4));
        const NtraceEnumTable *types = info.table(NtraceInfo::kTypeTable);
        QVERIFY(types);
        QCOMPARE(types->names.size(), size_t(40));
        QCOMPARE(info.name(NtraceInfo::kTypeTable, 0), std::string_view("generic")); // its number written explicitly as 0
        QCOMPARE(info.name(NtraceInfo::kTypeTable, 3), std::string_view("nrt_execute"));
        QCOMPARE(info.name(NtraceInfo::kTypeTable, 7), std::string_view("nc_exec_running"));
        QCOMPARE(info.name(NtraceInfo::kTypeTable, 25), std::string_view("timestamp_sync_point"));
        QCOMPARE(info.name(NtraceInfo::kTypeTable, 39), std::string_view("exec_consume_gpsimd_stdio"));
        QCOMPARE(info.name(NtraceInfo::kTypeTable, 40), std::string_view());
        QCOMPARE(info.table(NtraceInfo::kInternedTable)->names.size(), size_t(2));
        QCOMPARE(info.name(NtraceInfo::kInternedTable, 171450338541704),
                 std::string_view("/tmp/ubuntu/neuroncc_compile_workdir/0fea466a-efd2-4f94-873a-64903b4e6fa3/"
                                  "model.MODULE_297095076442530781+fad94d7c.neff"));
        // 22 usage types, all strings: "pe", "ucode" and "act table" also parse as protobuf messages
        QCOMPARE(info.table(NtraceInfo::kMemUsageTable)->names.size(), size_t(22));
        QCOMPARE(info.name(NtraceInfo::kMemUsageTable, 1), std::string_view("pe"));
        QCOMPARE(info.name(NtraceInfo::kMemUsageTable, 8), std::string_view("act table"));
        QCOMPARE(info.name(NtraceInfo::kMemUsageTable, 13), std::string_view("ucode"));
        QCOMPARE(info.name(NtraceInfo::kMemUsageTable, 20), std::string_view("dma rings io"));
        QCOMPARE(info.name(NtraceInfo::kAllocErrnoTable, 12), std::string_view("OUT_OF_MEMORY"));
    }

    // Cut at every byte: no exception, a warning naming the file and the offset; a table whose entries
    // were partly read keeps them; what lies wholly before the cut is read.
    void cutAtEveryByte()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kInfo);
        const std::string bytes = test::readFile(test::corpusFile(kInfo));
        size_t previousTypes = 0;
        for (size_t cut = 0; cut < bytes.size(); ++cut) {
            Diagnostics d;
            const NtraceInfo info = NtraceInfoReader::read(std::string_view(bytes).substr(0, cut), "trace_info.pb", d);
            const NtraceEnumTable *types = info.table(NtraceInfo::kTypeTable);
            const size_t n = types ? types->names.size() : 0;
            QVERIFY2(n >= previousTypes || cut <= 262, qPrintable(QString::number(cut))); // never fewer as more is read
            previousTypes = n;
            if (cut >= 1209) // the type table (bytes 262..1209) is whole
                QCOMPARE(n, size_t(40));
            if (cut > 320 && cut < 1209) { // inside the type table: the entries before the cut
                QVERIFY2(n > 0 && n < 40, qPrintable(QString::number(cut)));
                QCOMPARE(d.count("trace_info.pb: enum tables cut short (the entries before the cut are used)"), uint64_t(1));
            }
            if (cut < 1826)
                QVERIFY(!info.hasSession() || cut >= 1826);
            if (cut > 0 && cut < bytes.size() && info.damaged) {
                QVERIFY(d.count("trace_info.pb: damaged or cut (what follows the damage is missing)") == 1);
                bool named = false;
                for (const Warning &w : d.warnings())
                    named = named || w.firstSeen.starts_with("byte ");
                QVERIFY(named);
            }
        }
    }

    void writerRoundTrip()
    {
        test::MiniSession m;
        std::vector<std::string> reversed = m.typeNames;
        std::reverse(reversed.begin(), reversed.end());
        m.typeNames = reversed;
        const NtraceWriter w = m.writer();
        Diagnostics d;
        const NtraceInfo info = NtraceInfoReader::read(w.traceInfo(), "trace_info.pb", d);
        QVERIFY(d.empty());
        QCOMPARE(info.pid, uint64_t(1000));
        QCOMPARE(info.name(NtraceInfo::kTypeTable, 39), std::string_view("generic"));
        QCOMPARE(info.name(NtraceInfo::kInternedTable, m.model), std::string_view(m.network));
    }

    void fieldsOfAnotherWireType()
    {
        std::string m = pbwire::bytes(2, "713479"); // pid as text
        pbwire::appendInteger(m, 10, 5);           // a table as a number
        pbwire::appendBytes(m, 4, "i-0abc");
        Diagnostics d;
        const NtraceInfo info = NtraceInfoReader::read(m, "trace_info.pb", d);
        QVERIFY(!info.hasPid);
        QCOMPARE(info.instanceId, std::string("i-0abc"));
        QCOMPARE(d.count("trace_info.pb: fields of another wire type than documented (ignored)"), uint64_t(2));
        QVERIFY(d.warnings().front().firstSeen.starts_with("byte 0: field 2 is length-delimited bytes; expected the process id"));
    }
};

QTEST_GUILESS_MAIN(TestNtraceInfo)
#include "tst_ntraceinfo.moc"
