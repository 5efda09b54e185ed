// Neuron Explorer's system tables (explorer::SystemDirectoryImporter, docs/parquet.md "System tables")
// against the raw system trace of the same capture. The real trn2 capture's ntrace.pb is listed by
// `lanescope-cli export-parquet`, tests/parquet/explorer-system-from-capture.mjs maps that listing in JS
// to SystemProfileEvents (two numbered splits, flow_id as list<str>), CpuUsage and HostMemUsage and
// DuckDB writes them; the directory then opens (TraceLoader, `lanescope-cli info DIR`) with the lanes of
// ntrace.pb: the same tracks, slices per track (start, duration, name) and counter samples, the same two
// flows. Counts are also checked against constants written here from NTRACE_VERIFIED.md (as
// tst_ntraceimporter): 837 slices (398 dmem_buf_copyin, 395 nrt_dma_mem_alloc, ...), 2 sync points,
// 7,200 cpu_util samples of 12 CPUs, 600 host memory samples. Bad input (a wrong-typed column, a gap in
// the splits) warns and the rest loads; a small hand-made directory covers the other tables, flow_id
// as list<i64>, framework events, an unknown source.
#include "clirun.h"
#include "corpus.h"
#include "duckdb.h"

#include "io/traceloader.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <set>
#include <tuple>

using namespace lanescope;

namespace {

const QString kCapture = QStringLiteral("neuron-trn2-capture/i-0af76a70a6d3864dd_pid_713479/ntrace.pb");

// "group path / track name" -> (kind, slices + instants or counter samples)
std::map<std::string, std::pair<int, uint64_t>> lanesOf(const Trace &t)
{
    std::map<std::string, std::pair<int, uint64_t>> out;
    for (const Track &tr : t.tracks())
        out[t.groupPath(tr.group) + " / " + std::string(t.str(tr.name))] = {
            int(tr.kind), tr.kind == TrackKind::Counter ? uint64_t(tr.counterCount) : uint64_t(tr.sliceCount) + tr.instantCount};
    return out;
}

const Track *trackNamed(const Trace &t, std::string_view name)
{
    for (const Track &tr : t.tracks())
        if (t.str(tr.name) == name)
            return &tr;
    return nullptr;
}

const Arg *argOf(const Trace &t, const Slice &s, std::string_view key)
{
    for (const Arg &a : t.args().args(s.args))
        if (t.str(a.key) == key)
            return &a;
    return nullptr;
}

std::vector<std::string> warningsOf(const Trace &t)
{
    std::vector<std::string> out;
    for (const auto &w : t.diagnostics().warnings())
        if (!w.isNote())
            out.push_back(w.message + " [" + w.firstSeen + "]");
    return out;
}

bool anyWarning(const Trace &t, std::string_view part)
{
    for (const auto &w : t.diagnostics().warnings())
        if (w.message.find(part) != std::string::npos || w.firstSeen.find(part) != std::string::npos)
            return true;
    return false;
}

QString nodeScript() { return QStringLiteral(LANESCOPE_SOURCE_DIR "/tests/parquet/explorer-system-from-capture.mjs"); }

} // namespace

class TestCliExplorerSystem : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_dir;        // the system tables written from the capture
    QJsonObject m_listed; // what the script wrote

    // Exports the capture, maps it to the system tables (once for the test functions that need it).
    bool makeTables()
    {
        if (!m_dir.isEmpty())
            return true;
        const QString ntrace = test::corpusFile(kCapture);
        const QString exportDir = m_tmp.filePath(QStringLiteral("export"));
        const test::CliRun ex = test::runCli({QStringLiteral("export-parquet"), ntrace, QStringLiteral("-o"), exportDir,
                                              QStringLiteral("--no-cache")});
        if (ex.exitCode != 0) {
            qWarning("export-parquet: %s", ex.err.constData());
            return false;
        }
        const QString out = m_tmp.filePath(QStringLiteral("SystemProfile@latest"));
        QProcess p;
        p.start(QStringLiteral("node"), {nodeScript(), test::duckdbCacheDir(), exportDir, out});
        p.waitForFinished(600000);
        if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            qWarning("explorer-system-from-capture.mjs: %s", p.readAllStandardError().constData());
            return false;
        }
        m_listed = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        m_dir = out;
        return true;
    }

private slots:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    void captureTablesOpenInNtraceLanes()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kCapture);
        LANESCOPE_REQUIRE_DUCKDB();
        QVERIFY(makeTables());
        // What the script wrote, against NTRACE_VERIFIED.md's counts: 837 begin/end pairs, 2 single
        // records (the sync points), 2 flows (nrt_execute -> each nc_exec_running), 12 CPUs x 600 samples,
        // 600 host memory samples.
        QCOMPARE(m_listed[QStringLiteral("slices")].toInt(), 837);
        QCOMPARE(m_listed[QStringLiteral("instants")].toInt(), 2);
        QCOMPARE(m_listed[QStringLiteral("flows")].toInt(), 2);
        QCOMPARE(m_listed[QStringLiteral("cpu")].toInt(), 7200);
        QCOMPARE(m_listed[QStringLiteral("mem")].toInt(), 600);
        QVERIFY(QFile::exists(m_dir + QStringLiteral("/SystemProfileEvents_0.parquet")));
        QVERIFY(QFile::exists(m_dir + QStringLiteral("/SystemProfileEvents_1.parquet")));

        const LoadResult raw = TraceLoader::load(test::corpusFile(kCapture).toStdString());
        const LoadResult tables = TraceLoader::load(m_dir.toStdString());
        QVERIFY2(raw.ok() && tables.ok(), (raw.error + tables.error).c_str());
        const Trace &a = *raw.trace, &b = *tables.trace;
        QCOMPARE(b.metadata().format, std::string("explorer-system-parquet"));
        const std::vector<std::string> warnings = warningsOf(b);
        QVERIFY2(warnings.empty(), warnings.empty() ? "" : warnings.front().c_str());

        // The same lanes: every track of ntrace.pb but its device memory counters (not in these tables),
        // and mem_usage (%) besides (HostMemUsage.used_percent).
        auto lanesA = lanesOf(a), lanesB = lanesOf(b);
        size_t deviceMemory = 0;
        for (auto it = lanesA.begin(); it != lanesA.end();)
            if (it->first.find(" / device memory · ") != std::string::npos) {
                it = lanesA.erase(it);
                ++deviceMemory;
            } else {
                ++it;
            }
        QVERIFY(deviceMemory > 0);
        const std::string percent = "instance i-0af76a70a6d3864dd / process 713479 / mem_usage (%)";
        QVERIFY(lanesB.count(percent));
        QCOMPARE(lanesB[percent].second, uint64_t(600));
        lanesB.erase(percent);
        QStringList diff;
        for (const auto &[name, v] : lanesA)
            if (!lanesB.count(name) || lanesB[name] != v)
                diff << QStringLiteral("ntrace %1: %2 %3, tables: %4")
                            .arg(QString::fromStdString(name))
                            .arg(v.first)
                            .arg(v.second)
                            .arg(lanesB.count(name) ? QString::number(lanesB[name].second) : QStringLiteral("absent"));
        for (const auto &[name, v] : lanesB)
            if (!lanesA.count(name))
                diff << QStringLiteral("only in the tables: %1").arg(QString::fromStdString(name));
        QVERIFY2(diff.isEmpty(), qPrintable(diff.join(QLatin1Char('\n'))));

        // Slice by slice on each lane: start, duration, name, depth.
        uint64_t compared = 0;
        for (const Track &ta : a.tracks()) {
            if (ta.kind == TrackKind::Counter)
                continue;
            const Track *tb = trackNamed(b, a.str(ta.name));
            QVERIFY(tb);
            const auto sa = a.slices(TrackId(uint32_t(&ta - a.tracks().data())));
            const auto sb = b.slices(TrackId(uint32_t(tb - b.tracks().data())));
            QCOMPARE(sa.size(), sb.size());
            for (size_t i = 0; i < sa.size(); ++i) {
                QCOMPARE(sb[i].start, sa[i].start);
                QCOMPARE(sb[i].duration, sa[i].duration);
                QCOMPARE(b.str(sb[i].name), a.str(sa[i].name));
                QCOMPARE(sb[i].depth, sa[i].depth);
                ++compared;
            }
        }
        QCOMPARE(compared, uint64_t(837));
        QCOMPARE(b.allSlices().size(), size_t(837));
        QCOMPARE(b.allInstants().size(), size_t(2));

        // Per name, against the verified counts.
        std::map<std::string, size_t> names;
        for (const Slice &s : b.allSlices())
            ++names[std::string(b.str(s.name))];
        QCOMPARE(names.at("dmem_buf_copyin"), size_t(398));
        QCOMPARE(names.at("nrt_dma_mem_alloc"), size_t(395));
        QCOMPARE(names.at("nrt_tensor_allocate"), size_t(9));
        QCOMPARE(names.at("nrt_tensor_write"), size_t(8));
        QCOMPARE(names.at("nrt_load"), size_t(4));
        QCOMPARE(names.at("nc_exec_running"), size_t(2));
        QCOMPARE(names.at("nrt_execute"), size_t(1));

        // The flows come from flow_id now (external id = the flow id), the same two links.
        QCOMPARE(b.flows().size(), size_t(2));
        QCOMPARE(a.flows().size(), size_t(2));
        for (const Flow &f : b.flows()) {
            QCOMPARE(b.str(f.category), std::string_view("exec"));
            QCOMPARE(b.str(b.slice(f.from).name), std::string_view("nrt_execute"));
            QCOMPARE(b.str(b.slice(f.to).name), std::string_view("nc_exec_running"));
        }
        // The hardware executions keep their attributes (extra_attributes_json) and physical core.
        int running = 0;
        for (const Slice &s : b.allSlices())
            if (b.str(s.name) == "nc_exec_running") {
                const Arg *model = argOf(b, s, "model_id"), *core = argOf(b, s, "pcore_idx");
                QVERIFY(model && model->type == ArgType::Int && model->value.i == 171450338541704);
                QVERIFY(core && core->type == ArgType::Int && (core->value.i == 4 || core->value.i == 5));
                ++running;
            }
        QCOMPARE(running, 2);
        qInfo("capture: %zu lanes equal (%llu slices compared one by one), %zu device memory counters only in ntrace.pb",
              lanesA.size(), (unsigned long long)compared, deviceMemory);

        // lanescope-cli opens the directory as a trace too.
        const test::CliRun info = test::runCli({QStringLiteral("info"), m_dir, QStringLiteral("--json"), QStringLiteral("--no-cache")});
        QCOMPARE(info.exitCode, 0);
        const QJsonObject o = test::jsonOf(info);
        QCOMPARE(o[QStringLiteral("format")].toString(), QStringLiteral("explorer-system-parquet"));
        QCOMPARE(o[QStringLiteral("slices")].toInt(), 837);
        QCOMPARE(o[QStringLiteral("instants")].toInt(), 2);
        QCOMPARE(o[QStringLiteral("counter_samples")].toInt(), 7200 + 600 + 600);
        QCOMPARE(o[QStringLiteral("flows")].toInt(), 2);
    }

    // A SystemProfileEvents split whose thread_id is DOUBLE, the next split missing (_0, _2), no
    // HostMemUsage: warnings naming the file, column and gap; every row still loads.
    // Explorer's data path with a system profile and a device profile beside it
    // (<P>/profiles/global/{system@latest, neuron_profile_001@latest}): opening <P> merges both on the
    // system clock, the device placed at the nc_exec_running of its NeuronCore (the folder loader's
    // sync-point rule, SystemProfileJoin: by order, the first execution of NeuronCore 0). The device
    // profile is written by DuckDB from the trn2 JSON export fused_bf16_s512 (tests/parquet/
    // explorer-from-json.mjs); it is another run than the capture, so it is placed by order, not
    // identity. Expected: every device slice shifted by the first nc_exec_running's start, which DuckDB
    // reads from SystemProfileEvents itself; the JSON's earliest row (instruction or DMA) starts at 7 ns
    // (python: min of the "timestamp" of its instruction and dma rows).
    void deviceProfileBesideSystemProfile()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kCapture);
        const QString json = QStringLiteral("neuron-trn2-v6/fused_bf16_s512/fused_exec_2_profile_full.json");
        LANESCOPE_REQUIRE_CORPUS_FILE(json);
        LANESCOPE_REQUIRE_DUCKDB();
        QVERIFY(makeTables());
        const QString global = m_tmp.filePath(QStringLiteral("datapath/profiles/global"));
        const QString system = global + QStringLiteral("/system@latest");
        QVERIFY(QDir().mkpath(system));
        for (const QString &f : QDir(m_dir).entryList({QStringLiteral("*.parquet")}, QDir::Files))
            QVERIFY(QFile::copy(m_dir + QLatin1Char('/') + f, system + QLatin1Char('/') + f));
        QProcess p;
        p.start(QStringLiteral("node"), {QStringLiteral(LANESCOPE_SOURCE_DIR "/tests/parquet/explorer-from-json.mjs"),
                                         test::duckdbCacheDir(), test::corpusFile(json),
                                         global + QStringLiteral("/neuron_profile_001@latest")});
        QVERIFY(p.waitForFinished(600000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());

        const test::DuckResult first = test::duckdb(
            QStringLiteral("SELECT min(start_ts) FROM read_parquet('%1/SystemProfileEvents_*.parquet') "
                           "WHERE name = 'nc_exec_running' AND nc_idx = 0")
                .arg(system));
        QVERIFY2(first.error.isEmpty() && first.rows.size() == 1, qPrintable(first.error));
        const int64_t exec = first.rows[0].toArray()[0].toString().toLongLong();
        QVERIFY(exec > 0);

        const LoadResult merged = TraceLoader::load(m_tmp.filePath(QStringLiteral("datapath")).toStdString());
        QVERIFY2(merged.ok(), merged.error.c_str());
        const Trace &t = *merged.trace;
        QCOMPARE(t.metadata().format, std::string("profile-folder"));
        const std::string *how = t.metadata().find("alignment.profiles/global/neuron_profile_001@latest");
        QVERIFY(how);
        QVERIFY2(how->starts_with("sync points: placed at nc_exec_running ts=" + std::to_string(exec)), how->c_str());
        // The system profile's lanes sit below its directory's group; the device's join the NeuronCore's
        // lanes ("NeuronCore 0 / pcore 4 / Tensor").
        int64_t earliest = INT64_MAX;
        size_t deviceSlices = 0, systemSlices = 0;
        for (size_t ti = 0; ti < t.tracks().size(); ++ti) {
            const std::string path = t.trackPath(TrackId(uint32_t(ti)));
            const std::span<const Slice> slices = t.slices(TrackId(uint32_t(ti)));
            if (!path.starts_with("system@latest")) {
                for (const Slice &s : slices)
                    if (t.str(s.category) == "instruction" || t.str(s.category) == "dma") {
                        ++deviceSlices;
                        earliest = std::min(earliest, s.start);
                    }
            } else {
                systemSlices += slices.size();
            }
        }
        QCOMPARE(systemSlices, size_t(837)); // the capture's slices (NTRACE_VERIFIED.md)
        QCOMPARE(deviceSlices, size_t(436 + 977)); // the JSON's instruction rows and DMA packets (python count)
        QCOMPARE(earliest, exec + 7);
    }

    void badTablesWarnAndLoad()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kCapture);
        LANESCOPE_REQUIRE_DUCKDB();
        QVERIFY(makeTables());
        const QString bad = m_tmp.filePath(QStringLiteral("bad"));
        QVERIFY(QDir().mkpath(bad));
        const test::DuckResult d = test::duckdb(
            QStringLiteral("COPY (SELECT * REPLACE (thread_id::DOUBLE AS thread_id) FROM read_parquet('%1/SystemProfileEvents_0.parquet'))"
                           " TO '%2/SystemProfileEvents_0.parquet' (FORMAT parquet);\n"
                           "COPY (SELECT * FROM read_parquet('%1/SystemProfileEvents_1.parquet')) TO '%2/SystemProfileEvents_2.parquet' (FORMAT parquet);\n"
                           "COPY (SELECT * FROM read_parquet('%1/CpuUsage.parquet')) TO '%2/CpuUsage.parquet' (FORMAT parquet);\n"
                           "SELECT 1")
                .arg(m_dir, bad));
        QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
        const LoadResult r = TraceLoader::load(bad.toStdString());
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace &t = *r.trace;
        QVERIFY(anyWarning(t, "SystemProfileEvents_1.parquet is missing"));
        QVERIFY(anyWarning(t, "thread_id"));
        QVERIFY(anyWarning(t, "expected an integer"));
        QCOMPARE(t.allSlices().size() + t.allInstants().size(), size_t(839));
        QVERIFY(trackNamed(t, "neuron_rt · NC 0")); // without threads: one runtime lane per NeuronCore
        QVERIFY(!trackNamed(t, "mem_usage (bytes)"));
        QVERIFY(trackNamed(t, "cpu_util · CPU 11"));
        bool absentNoted = false;
        for (const auto &w : t.diagnostics().warnings())
            absentNoted = absentNoted || (w.isNote() && w.firstSeen == "HostMemUsage.parquet");
        QVERIFY(absentNoted);
    }

    // The other tables and shapes, written by DuckDB from values chosen here.
    void handMadeTables()
    {
        LANESCOPE_REQUIRE_DUCKDB();
        QTemporaryDir dir;
        const QString p = dir.path();
        const test::DuckResult d = test::duckdb(QStringLiteral(
            "COPY (SELECT * FROM (VALUES\n"
            "  (1, 'aten::matmul', 1000, 9000, 8000, 'framework', 'i-1', 7, 70, NULL, NULL, NULL, [11, 12], NULL),\n"
            "  (2, 'nrt_execute', 2000, 7000, 5000, 'neuron_rt', 'i-1', 7, 70, 0, NULL, 3, [11], '{\"model_id\": \"42\", \"exec\": {\"a\": 1}}'),\n"
            "  (3, 'nrt_tensor_read', 7500, 8500, 1000, 'neuron_rt', 'i-1', 7, 70, 0, NULL, 3, [12], NULL),\n"
            "  (4, 'nc_exec_running', 3000, 6000, 3000, 'neuron_hw', 'i-1', 7, 70, 0, 4, 3, [11], '{\"model_id\": 42}'),\n"
            "  (5, 'mystery', 3000, 3100, 100, 'neuron_xyz', 'i-1', 7, 70, 1, NULL, NULL, NULL, 'not json'),\n"
            "  (6, 'nrt_load', NULL, 3100, 100, 'neuron_rt', 'i-1', 7, 70, 1, NULL, NULL, NULL, NULL)\n"
            ") t(id, name, start_ts, end_ts, duration_ns, trace_event_source, instance_id, process_id, thread_id, nc_idx, pcore_idx,\n"
            "    worker_gid, flow_id, extra_attributes_json)) TO '%1/SystemProfileEvents.parquet' (FORMAT parquet);\n"
            "COPY (SELECT * FROM (VALUES (1000, 10.5::FLOAT, '0', 'i-1'), (2000, 20.0::FLOAT, 'average', 'i-1'),\n"
            "  (3000, 30.0::FLOAT, 'x', 'i-1')) t(timestamp, util_percent, cpu_id, instance_id)) TO '%1/CpuUsage.parquet' (FORMAT parquet);\n"
            "COPY (SELECT * FROM (VALUES (1000, 1024, 5, 0, 'i-1', 0, 0), (2000, 2048, 5, 0, 'i-1', 0, 1), (3000, 4096, 5, 0, 'i-1', 0, 0))\n"
            "  t(timestamp, tensors_bytes, total_bytes, io_bytes, instance_id, device_idx, hbm_idx)) TO '%1/SystemProfileHbmUsage.parquet' (FORMAT parquet);\n"
            "COPY (SELECT '2025-12-18 15:35:56.592459482 +0000 UTC' AS first_ts, '1766072156592459482' AS first_ts_ns, 2 AS ntff_version)\n"
            "  TO '%1/SystemProfileMetadata.parquet' (FORMAT parquet);\n"
            "COPY (SELECT * FROM (VALUES ('neuron_profile_001', 'i-1', 7, 0, 1, NULL), ('neuron_profile_002', 'i-1', 7, 1, NULL, 42))\n"
            "  t(device_profile_name, instance_id, process_id, nc_id, session_id, model_id)) TO '%1/DeviceProfileList.parquet' (FORMAT parquet);\n"
            "SELECT 1").arg(p));
        QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
        const LoadResult r = TraceLoader::load(p.toStdString());
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace &t = *r.trace;
        // 5 events with a start (row 6 has none: skipped, counted), one of them on the unknown source's lane.
        QCOMPARE(t.allSlices().size(), size_t(5));
        QVERIFY(anyWarning(t, "without start_ts"));
        QVERIFY(anyWarning(t, "neuron_xyz"));
        QVERIFY(anyWarning(t, "not a JSON object"));
        QVERIFY(trackNamed(t, "framework 70"));
        QVERIFY(trackNamed(t, "neuron_rt · NC 0 · thread 70"));
        QVERIFY(trackNamed(t, "hardware · NC 0 · core 4"));
        QVERIFY(trackNamed(t, "neuron_xyz · NC 1"));
        // flow 11: matmul -> nrt_execute -> nc_exec_running; flow 12: matmul -> nrt_tensor_read.
        std::multiset<std::tuple<std::string, std::string, std::string, uint64_t>> flows;
        for (const Flow &f : t.flows())
            flows.insert({std::string(t.str(t.slice(f.from).name)), std::string(t.str(t.slice(f.to).name)),
                          std::string(t.str(f.category)), f.externalId});
        const std::multiset<std::tuple<std::string, std::string, std::string, uint64_t>> expected = {
            {"aten::matmul", "nrt_execute", "nrt", 11}, {"nrt_execute", "nc_exec_running", "exec", 11},
            {"aten::matmul", "nrt_tensor_read", "nrt", 12}};
        QVERIFY(flows == expected);
        for (const Slice &s : t.allSlices())
            if (t.str(s.name) == "nrt_execute") {
                const Arg *m = argOf(t, s, "model_id"), *e = argOf(t, s, "exec"), *w = argOf(t, s, "worker_gid");
                QVERIFY(m && m->type == ArgType::Int && m->value.i == 42);
                QVERIFY(e && e->type == ArgType::Json);
                QVERIFY(w && w->type == ArgType::Int && w->value.i == 3);
            }
        // Counters: CPU 0 and the average; cpu_id "x" skipped; HBM categories but the all-zero io_bytes.
        QVERIFY(trackNamed(t, "cpu_util · CPU 0"));
        QVERIFY(trackNamed(t, "cpu_util"));
        QVERIFY(anyWarning(t, "cpu_id"));
        const Track *tensors = trackNamed(t, "device memory · device 0 · HBM 0 · tensors");
        QVERIFY(tensors && tensors->counterCount == 2);
        QVERIFY(trackNamed(t, "device memory · device 0 · HBM 1 · total"));
        QVERIFY(!trackNamed(t, "device memory · device 0 · HBM 0 · io"));
        QCOMPARE(*t.metadata().find("explorer.system.first_ts_ns"), std::string("1766072156592459482"));
        QCOMPARE(*t.metadata().find("explorer.device_profile.2"),
                 std::string("neuron_profile_002: instance i-1, process 7, NC 1, model 42"));
        QVERIFY(anyWarning(t, "DeviceProfileList"));
    }
};

QTEST_GUILESS_MAIN(TestCliExplorerSystem)
#include "tst_cliexplorersystem.moc"
