// NtraceReader on the real capture (../shared/corpus/neuron-trn2-capture, counts from
// /work/notes/ntrace/NTRACE_VERIFIED.md, written here as numbers), on a session written by NtraceWriter,
// and on damaged files: a length prefix past the end, bytes after the last record, records that are not
// protobuf, of another wire type or of an unknown phase. Each is a counted warning naming the file and
// the byte offset, and the records before (and after, where the framing holds) are kept.
#include "corpus.h"
#include "filebytes.h"
#include "io/ntrace/ntracereader.h"
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

// A record: ts, type 3, thread 7, id, phase, correlation; no attributes.
std::string record(uint64_t id, int phase, uint64_t correlation)
{
    std::string m;
    pbwire::appendInteger(m, 2, 1000 + id);
    pbwire::appendInteger(m, 7, 3);
    pbwire::appendInteger(m, 9, 7);
    pbwire::appendInteger(m, 10, id);
    pbwire::appendInteger(m, 14, uint64_t(phase));
    pbwire::appendInteger(m, 15, correlation);
    return m;
}

bool warned(const Diagnostics &d, const std::string &message, const std::string &where)
{
    for (const Warning &w : d.warnings())
        if (w.message.find(message) != std::string::npos && w.firstSeen.find(where) != std::string::npos)
            return true;
    return false;
}

} // namespace

class TestNtraceReader : public QObject
{
    Q_OBJECT

private slots:
    void realCapture()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kCapture + QStringLiteral("ntrace.pb"));
        const std::string bytes = test::readFile(test::corpusFile(kCapture + QStringLiteral("ntrace.pb")));
        QCOMPARE(bytes.size(), size_t(230'793));
        Diagnostics d;
        const NtraceRecords r = NtraceReader::read(bytes, "ntrace.pb", d);
        QVERIFY(d.empty());
        QCOMPARE(r.records.size(), size_t(1676));
        QCOMPARE(r.bytes, uint64_t(230'793)); // the framing ends exactly at the end of the file
        QCOMPARE(r.attributes.size(), size_t(9025));
        std::map<NtracePhase, int> phases;
        std::set<int64_t> threads;
        std::set<uint64_t> ids, types;
        int64_t first = INT64_MAX, last = INT64_MIN;
        for (const NtraceRecord &x : r.records) {
            ++phases[x.phase];
            threads.insert(x.thread);
            ids.insert(x.id);
            types.insert(x.type);
            first = std::min(first, x.ts);
            last = std::max(last, x.ts);
            // every record names its NeuronCore and worker, and the worker is the id's top bits
            QVERIFY(r.find(x, "nc_idx") && r.find(x, "worker_gid"));
            QCOMPARE(std::to_string(x.id >> 50), std::string(*r.find(x, "worker_gid")));
            if (x.phase != NtracePhase::End)
                QCOMPARE(x.correlation, x.id);
        }
        QCOMPARE(phases[NtracePhase::Begin], 837);
        QCOMPARE(phases[NtracePhase::End], 837);
        QCOMPARE(phases[NtracePhase::Single], 2);
        QCOMPARE(threads.size(), size_t(17));
        QCOMPARE(ids.size(), size_t(1676));
        QCOMPARE(types.size(), size_t(20));
        QCOMPARE(first, int64_t(1773237645742008195));
        QCOMPARE(last, int64_t(1773237645758435066));
        // 0x-hex addresses stay text
        QCOMPARE(std::string(*r.find(r.records[0], "nc_idx")), std::string("0"));
    }

    void writerRoundTrip()
    {
        const NtraceWriter w = test::MiniSession().writer();
        Diagnostics d;
        const std::string bytes = w.ntrace();
        const NtraceRecords r = NtraceReader::read(bytes, "ntrace.pb", d);
        QVERIFY(d.empty());
        QCOMPARE(r.records.size(), w.recordCount());
        QCOMPARE(r.bytes, uint64_t(bytes.size()));
    }

    void lengthPastTheEnd()
    {
        std::string bytes = frame(record(1, 1, 1)) + frame(record(2, 2, 1));
        const size_t cut = bytes.size();
        bytes += frame(record(3, 3, 3)).substr(0, 9); // its length says more than follows
        Diagnostics d;
        const NtraceRecords r = NtraceReader::read(bytes, "ntrace.pb", d);
        QCOMPARE(r.records.size(), size_t(2));
        QCOMPARE(d.total(), uint64_t(1));
        QVERIFY(warned(d, "ntrace.pb: a record length runs past the end of the file", "byte " + std::to_string(cut) + ": length "));
        QVERIFY(warned(d, "ntrace.pb", "expected a 4-byte length and that many bytes"));
        QCOMPARE(r.bytes, uint64_t(cut));
    }

    void bytesAfterTheLastRecord()
    {
        const std::string bytes = frame(record(1, 3, 1)) + std::string("\x01\x02", 2);
        Diagnostics d;
        const NtraceRecords r = NtraceReader::read(bytes, "ntrace.pb", d);
        QCOMPARE(r.records.size(), size_t(1));
        QVERIFY(warned(d, "no whole length prefix", "byte " + std::to_string(bytes.size() - 2) + ": 2 bytes left"));
    }

    void damagedRecordsAreSkipped_data()
    {
        QTest::addColumn<QByteArray>("message");
        QTest::addColumn<QString>("expected");
        auto bytes = [](const std::string &s) { return QByteArray(s.data(), qsizetype(s.size())); };
        std::string cutVarint = record(5, 1, 5);
        cutVarint.back() = char(0x80); // the last varint never ends
        QTest::newRow("not protobuf") << bytes(cutVarint) << QStringLiteral("expected a complete varint");
        QTest::newRow("phase 7") << bytes(record(5, 7, 5)) << QStringLiteral("phase (field 14) is 7; expected 1 (begin), 2 (end) or 3");
        std::string noPhase;
        pbwire::appendInteger(noPhase, 2, 5);
        QTest::newRow("no phase") << bytes(noPhase) << QStringLiteral("phase (field 14) is absent");
        QTest::newRow("timestamp as bytes") << bytes(pbwire::bytes(2, "x") + record(5, 1, 5))
                                            << QStringLiteral("field 2 (timestamp) is length-delimited bytes; expected a varint");
        QTest::newRow("attribute as varint") << bytes(pbwire::integer(12, 1) + record(5, 1, 5))
                                             << QStringLiteral("field 12 (attribute) is varint; expected a message");
        QTest::newRow("timestamp past 2^63") << bytes(pbwire::integer(2, uint64_t(1) << 63) + record(5, 1, 5))
                                             << QStringLiteral("past 2^63 ns");
    }

    void damagedRecordsAreSkipped()
    {
        QFETCH(QByteArray, message);
        QFETCH(QString, expected);
        const std::string bad(message.constData(), size_t(message.size()));
        const std::string before = frame(record(1, 1, 1));
        const std::string bytes = before + frame(bad) + frame(record(2, 2, 1));
        Diagnostics d;
        const NtraceRecords r = NtraceReader::read(bytes, "ntrace.pb", d);
        QCOMPARE(r.records.size(), size_t(2)); // the ones around it
        QCOMPARE(r.skipped, uint64_t(1));
        QCOMPARE(d.count("ntrace.pb: records that cannot be read (skipped)"), uint64_t(1));
        QVERIFY2(warned(d, "records that cannot be read", expected.toStdString()), d.warnings().front().firstSeen.c_str());
        // the byte offset of the damage: inside that record
        const std::string &where = d.warnings().front().firstSeen;
        QVERIFY(where.starts_with("byte "));
        const uint64_t at = std::stoull(where.substr(5));
        QVERIFY2(at >= before.size() && at < before.size() + 4 + bad.size(), where.c_str());
    }

    void emptyAndTiny()
    {
        for (const std::string &bytes : {std::string(), std::string("\x00", 1), std::string("\x00\x00\x00\x00", 4)}) {
            Diagnostics d;
            const NtraceRecords r = NtraceReader::read(bytes, "ntrace.pb", d);
            QVERIFY(r.records.size() <= 1);
        }
    }
};

QTEST_GUILESS_MAIN(TestNtraceReader)
#include "tst_ntracereader.moc"
