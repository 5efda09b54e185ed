// NtraceCalls: begin and end paired by the correlation id (field 15 = the begin's record id). On the
// real capture: 837 pairs and 2 single records, no orphans, and the two nc_exec_running slices of the
// two physical cores (which overlap on one thread without nesting: a stack pairs them wrongly) each
// with its own end, durations 982,590 and 14,763 ns on the device clock. Damaged input: an end without a
// begin, a begin without an end, a second end, an end of another type: counted warnings, the rest paired.
#include "corpus.h"
#include "filebytes.h"
#include "io/ntrace/ntracecalls.h"
#include "io/synthetic/protobufwire.h"

#include <QTest>

#include <charconv>
#include <map>

using namespace lanescope;

namespace {

const QString kTrace = QStringLiteral("neuron-trn2-capture/i-0af76a70a6d3864dd_pid_713479/ntrace.pb");

std::string frame(uint64_t id, int phase, uint64_t correlation, uint64_t type = 3, int64_t ts = -1)
{
    std::string m;
    pbwire::appendInteger(m, 2, uint64_t(ts < 0 ? int64_t(1000 + id) : ts));
    pbwire::appendInteger(m, 7, type);
    pbwire::appendInteger(m, 9, 7);
    pbwire::appendInteger(m, 10, id);
    pbwire::appendInteger(m, 14, uint64_t(phase));
    pbwire::appendInteger(m, 15, correlation);
    std::string out;
    for (int i = 0; i < 4; ++i)
        out.push_back(char((m.size() >> (8 * i)) & 0xff));
    return out + m;
}

int64_t number(const std::string_view *v)
{
    int64_t x = -1;
    if (v)
        std::from_chars(v->data(), v->data() + v->size(), x);
    return x;
}

} // namespace

class TestNtraceCalls : public QObject
{
    Q_OBJECT

private slots:
    void realCapture()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kTrace);
        const std::string bytes = test::readFile(test::corpusFile(kTrace));
        Diagnostics d;
        const NtraceRecords r = NtraceReader::read(bytes, "ntrace.pb", d);
        const std::vector<NtraceCall> calls = NtraceCalls::pair(r, "ntrace.pb", d);
        QVERIFY(d.empty());
        QCOMPARE(calls.size(), size_t(839));
        int singles = 0;
        int64_t previous = INT64_MIN;
        std::map<int64_t, int64_t> running; // device core -> device-clock duration (nc_exec_running: type 7 in this file)
        for (const NtraceCall &c : calls) {
            const NtraceRecord &b = r.records[c.begin];
            QVERIFY(b.ts >= previous); // in time order, though the file is not
            previous = b.ts;
            if (c.single) {
                ++singles;
                continue;
            }
            QVERIFY(c.end != NtraceCall::kNone);
            const NtraceRecord &e = r.records[c.end];
            QCOMPARE(e.type, b.type);
            QCOMPARE(e.thread, b.thread);
            if (b.type == 7)
                running[number(r.find(b, "device_core_idx"))] = number(r.find(e, "nc_timestamp_ns")) - number(r.find(b, "nc_timestamp_ns"));
        }
        QCOMPARE(singles, 2);
        QCOMPARE(running, (std::map<int64_t, int64_t>{{4, 982'590}, {5, 14'763}}));
    }

    void damaged()
    {
        // call 1 fine; an end naming 99 (no begin); begin 3 never ends; a second end of call 1; call 5
        // ended by a record of another type
        const std::string bytes = frame(1, 1, 1) + frame(2, 2, 1) + frame(10, 2, 99) + frame(3, 1, 3) + frame(11, 2, 1) +
                                  frame(5, 1, 5) + frame(12, 2, 5, 9);
        Diagnostics d;
        const NtraceRecords r = NtraceReader::read(bytes, "ntrace.pb", d);
        QCOMPARE(r.records.size(), size_t(7));
        const std::vector<NtraceCall> calls = NtraceCalls::pair(r, "ntrace.pb", d);
        QCOMPARE(calls.size(), size_t(3));
        QCOMPARE(d.count("ntrace.pb: end records without a begin (field 15 names no begin record; skipped)"), uint64_t(1));
        QCOMPARE(d.count("ntrace.pb: begin records without an end (shown with duration 0)"), uint64_t(1));
        QCOMPARE(d.count("ntrace.pb: end records for a call that already ended (skipped)"), uint64_t(1));
        QCOMPARE(d.count("ntrace.pb: end records of another type or thread than their begin (paired by field 15 anyway)"), uint64_t(1));
        for (const Warning &w : d.warnings())
            QVERIFY2(w.firstSeen.starts_with("byte "), w.firstSeen.c_str());
        const Warning *orphan = nullptr;
        for (const Warning &w : d.warnings())
            if (w.message.find("without a begin") != std::string::npos)
                orphan = &w;
        QVERIFY(orphan && orphan->firstSeen.find("correlation id 99; expected the record id of an earlier begin") != std::string::npos);
        QCOMPARE(calls[1].end, NtraceCall::kNone); // begin 3
    }

    // An end written before its begin (the runtime back-dates device records) pairs all the same.
    void endBeforeBegin()
    {
        const std::string bytes = frame(2, 2, 1, 3, 2000) + frame(1, 1, 1, 3, 1000);
        Diagnostics d;
        const NtraceRecords r = NtraceReader::read(bytes, "ntrace.pb", d);
        const std::vector<NtraceCall> calls = NtraceCalls::pair(r, "ntrace.pb", d);
        QVERIFY(d.empty());
        QCOMPARE(calls.size(), size_t(1));
        QCOMPARE(r.records[calls[0].end].ts, int64_t(2000));
    }
};

QTEST_GUILESS_MAIN(TestNtraceCalls)
#include "tst_ntracecalls.moc"
