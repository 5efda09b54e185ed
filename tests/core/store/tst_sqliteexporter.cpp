// SqliteExporter: row counts equal the model's, ids and parents agree with the model, args keep their
// types, and every example query of docs/sqlite-schema.md runs and returns rows.
#include "corpusorsample.h"

#include "analysis/enginebreakdown.h"
#include "analysis/launchindex.h"
#include "analysis/optable.h"
#include "annotations/annotation.h"
#include "io/traceloader.h"
#include "store/sqliteexporter.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

using namespace lanescope;

namespace {

class Db
{
public:
    explicit Db(const std::string &path) { sqlite3_open_v2(path.c_str(), &m_db, SQLITE_OPEN_READONLY, nullptr); }
    ~Db() { sqlite3_close(m_db); }
    // First column of the first row as an integer (-1 on error).
    int64_t scalar(const char *sql)
    {
        sqlite3_stmt *s = nullptr;
        int64_t v = -1;
        if (sqlite3_prepare_v2(m_db, sql, -1, &s, nullptr) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
            v = sqlite3_column_int64(s, 0);
        sqlite3_finalize(s);
        return v;
    }
    // Rows returned, or -1 with the error in `error`.
    int rows(const QString &sql, QString *error)
    {
        sqlite3_stmt *s = nullptr;
        const QByteArray text = sql.toUtf8();
        if (sqlite3_prepare_v2(m_db, text.constData(), -1, &s, nullptr) != SQLITE_OK) {
            *error = QString::fromUtf8(sqlite3_errmsg(m_db));
            return -1;
        }
        int n = 0;
        int rc;
        while ((rc = sqlite3_step(s)) == SQLITE_ROW)
            ++n;
        if (rc != SQLITE_DONE) {
            *error = QString::fromUtf8(sqlite3_errmsg(m_db));
            n = -1;
        }
        sqlite3_finalize(s);
        return n;
    }
    sqlite3 *get() const { return m_db; }

private:
    sqlite3 *m_db = nullptr;
};

QStringList docQueries()
{
    QFile f(QStringLiteral(LANESCOPE_SOURCE_DIR "/docs/sqlite-schema.md"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QString text = QString::fromUtf8(f.readAll());
    QStringList out;
    const QRegularExpression re(QStringLiteral("```sql\\n(.*?)```"), QRegularExpression::DotMatchesEverythingOption);
    for (auto it = re.globalMatch(text); it.hasNext();)
        out << it.next().captured(1).trimmed();
    return out;
}

} // namespace

class TestSqliteExporter : public QObject
{
    Q_OBJECT
private slots:
    void matchesTheModel_data()
    {
        test::addCorpusOrSampleRows({
            {"ntff", "neuron-cs149-asst4/stream_256k_fd1k.ntff"},
            {"counters", "catapult/instance_counters.json"},
        });
    }

    void matchesTheModel()
    {
        QFETCH(QString, relative);
        LANESCOPE_REQUIRE_CORPUS_ROW(relative);
        QTemporaryDir tmp;
        const std::string path = test::corpusOrSample(relative, tmp);
        const LoadResult r = TraceLoader::load(path);
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace &t = *r.trace;
        const std::string out = tmp.path().toStdString() + "/out.db";
        std::string error;
        int lastProgress = -1;
        LoadOptions options;
        options.progress = [&](int p) { lastProgress = p; };
        QVERIFY2(SqliteExporter::exportTo(t, out, options, &error), error.c_str());
        QCOMPARE(lastProgress, 1000);
        QVERIFY(!QFile::exists(QString::fromStdString(out + ".partial")));

        Db db(out);
        QCOMPARE(db.scalar("SELECT COUNT(*) FROM slices"), int64_t(t.allSlices().size()));
        QCOMPARE(db.scalar("SELECT COUNT(*) FROM instants"), int64_t(t.allInstants().size()));
        QCOMPARE(db.scalar("SELECT COUNT(*) FROM counters"), int64_t(t.allCounterSamples().size()));
        QCOMPARE(db.scalar("SELECT COUNT(*) FROM flows"), int64_t(t.flows().size()));
        QCOMPARE(db.scalar("SELECT COUNT(*) FROM tracks"), int64_t(t.tracks().size()));
        QCOMPARE(db.scalar("SELECT COUNT(*) FROM groups"), int64_t(t.groups().size()));
        QCOMPARE(db.scalar("SELECT COUNT(*) FROM strings"), int64_t(t.strings().size()));
        QCOMPARE(db.scalar("SELECT COUNT(*) FROM args"), int64_t(t.args().argCount()));
        QCOMPARE(db.scalar("SELECT COUNT(*) FROM warnings"), int64_t(t.diagnostics().warnings().size()));
        QCOMPARE(db.scalar("SELECT value FROM meta WHERE key = 'schema_version'"), int64_t(SqliteExporter::kSchemaVersion));
        QCOMPARE(db.scalar("SELECT value FROM meta WHERE key = 'start_ns'"), t.startNs());
        QCOMPARE(db.scalar("SELECT value FROM meta WHERE key = 'end_ns'"), t.endNs());
        QCOMPARE(db.scalar("SELECT SUM(dur) FROM slices"), [&] {
            int64_t sum = 0;
            for (const Slice &s : t.allSlices())
                sum += s.duration;
            return t.allSlices().empty() ? int64_t(-1) : sum; // SUM of no rows is NULL
        }());
        const OpTable::Result ops = OpTable::compute(t, LaunchIndex::build(t), OpTable::Options());
        QCOMPARE(db.scalar("SELECT COUNT(*) FROM ops"), int64_t(ops.rows.size()));
        if (!ops.rows.empty()) {
            QCOMPARE(db.scalar("SELECT MAX(cpu_total_ns) FROM ops"), ops.rows.front().cpuTotal); // sorted by CPU total
            QCOMPARE(db.scalar("SELECT SUM(calls) FROM ops"), [&] {
                int64_t n = 0;
                for (const auto &r : ops.rows)
                    n += int64_t(r.calls);
                return n;
            }());
        }
        const EngineBreakdownResult engines = EngineBreakdown::compute(t);
        QCOMPARE(db.scalar("SELECT COUNT(*) FROM engines"), int64_t(engines.engines.size()));
        if (relative.contains(QLatin1String("ntff")))
            QVERIFY(!engines.engines.empty());
        if (relative.contains(QLatin1String("kineto")))
            QVERIFY(!ops.rows.empty());
        QVERIFY(db.scalar("SELECT COUNT(*) FROM files") >= 1);
        if (relative.isEmpty())
            QVERIFY(db.scalar("SELECT COUNT(*) FROM files") >= 3); // trace.json + NEFFs + NTFFs

        // parent_id is the model's parent, slice by slice.
        sqlite3_stmt *s = nullptr;
        QCOMPARE(sqlite3_prepare_v2(db.get(), "SELECT id, parent_id, track_id, name FROM slices ORDER BY id", -1, &s, nullptr), SQLITE_OK);
        uint64_t checked = 0;
        while (sqlite3_step(s) == SQLITE_ROW) {
            const auto id = SliceId(uint32_t(sqlite3_column_int64(s, 0)));
            const TrackId track = t.trackOfSlice(id);
            QCOMPARE(uint32_t(sqlite3_column_int64(s, 2)), track.value);
            QCOMPARE(QByteArray(reinterpret_cast<const char *>(sqlite3_column_text(s, 3))),
                     QByteArray(t.str(t.slice(id).name).data(), qsizetype(t.str(t.slice(id).name).size())));
            if (t.track(track).kind != TrackKind::Slices)
                continue;
            const SliceId parent = t.parent(id);
            if (sqlite3_column_type(s, 1) == SQLITE_NULL)
                QVERIFY2(!parent.isValid(), qPrintable(QString::number(id.value)));
            else
                QCOMPARE(uint32_t(sqlite3_column_int64(s, 1)), parent.value);
            ++checked;
        }
        sqlite3_finalize(s);
        QVERIFY(checked > 0 || t.allSlices().empty() || relative.contains(QLatin1String("ntff")));
    }

    void argsKeepTheirTypes()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("kineto/tb_samples_2021-01__resnet50_num_workers_0__worker0.pt.trace.json.gz"));
        const LoadResult r = TraceLoader::load(test::corpusFile(QStringLiteral("kineto/tb_samples_2021-01__resnet50_num_workers_0__worker0.pt.trace.json.gz")).toStdString());
        QVERIFY(r.ok());
        QTemporaryDir tmp;
        const std::string out = tmp.path().toStdString() + "/out.db";
        QVERIFY(SqliteExporter::exportTo(*r.trace, out, {}, nullptr));
        Db db(out);
        QCOMPARE(db.scalar("SELECT COUNT(*) FROM args WHERE type IN ('int', 'bool') AND typeof(value) <> 'integer'"), int64_t(0));
        QCOMPARE(db.scalar("SELECT COUNT(*) FROM args WHERE type = 'real' AND typeof(value) <> 'real'"), int64_t(0));
        QCOMPARE(db.scalar("SELECT COUNT(*) FROM args WHERE type IN ('string', 'json') AND typeof(value) <> 'text'"), int64_t(0));
        QVERIFY(db.scalar("SELECT COUNT(*) FROM args WHERE type = 'int'") > 0);
        QVERIFY(db.scalar("SELECT COUNT(*) FROM args WHERE type = 'string'") > 0);
        // Every arg set a slice names exists.
        QCOMPARE(db.scalar("SELECT COUNT(*) FROM slices s WHERE s.arg_set_id IS NOT NULL AND NOT EXISTS"
                           " (SELECT 1 FROM args a WHERE a.arg_set_id = s.arg_set_id)"),
                 int64_t(0));
    }

    // The user's notes (issue 19): one row per note, event notes joined to their slice, a note whose
    // event is gone without slice_id; the table exists (empty) without notes.
    void notesTableHasTheNotes()
    {
        const QString file = QStringLiteral("kineto/tb_samples_2021-01__resnet50_num_workers_0__worker0.pt.trace.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(file);
        const LoadResult r = TraceLoader::load(test::corpusFile(file).toStdString());
        QVERIFY(r.ok());
        const Trace &t = *r.trace;
        uint32_t longest = 0;
        for (uint32_t i = 0; i < t.allSlices().size(); ++i)
            if (t.allSlices()[i].duration > t.allSlices()[longest].duration)
                longest = i;
        std::vector<Annotation> notes;
        notes.push_back(Annotation::range(t.startNs() + 1000000, t.startNs() + 2500000, "slow data loader"));
        notes.back().id = 1;
        notes.back().color = "#d64541";
        notes.push_back(Annotation::event(t, SliceId(longest), "the longest slice"));
        notes.back().id = 2;
        notes.push_back(Annotation::point(t.startNs() + 7, "here"));
        notes.back().id = 5;
        Annotation gone = Annotation::event(t, SliceId(0), "was in the old capture");
        gone.id = 6;
        gone.eventName = "aten::not_in_this_trace";
        QVERIFY(!gone.resolve(t));
        notes.push_back(gone);

        QTemporaryDir tmp;
        const std::string out = tmp.path().toStdString() + "/out.db";
        std::string error;
        QVERIFY2(SqliteExporter::exportTo(t, out, {}, &error, notes), error.c_str());
        Db db(out);
        QCOMPARE(db.scalar("SELECT COUNT(*) FROM notes"), int64_t(4));
        QCOMPARE(db.scalar("SELECT COUNT(*) FROM notes WHERE kind = 'range' AND color = '#d64541' AND text = 'slow data loader'"), int64_t(1));
        QCOMPARE(db.scalar("SELECT end_ts - ts FROM notes WHERE id = 1"), int64_t(1500000));
        QCOMPARE(db.scalar("SELECT slice_id FROM notes WHERE id = 2"), int64_t(longest));
        QCOMPARE(db.scalar("SELECT COUNT(*) FROM notes n JOIN slices s ON s.id = n.slice_id"
                           " WHERE s.name = n.event_name AND s.ts = n.ts AND s.ts + s.dur = n.end_ts"),
                 int64_t(1));
        QCOMPARE(db.scalar("SELECT ts - (SELECT value FROM meta WHERE key = 'start_ns') FROM notes WHERE id = 5"), int64_t(7));
        QCOMPARE(db.scalar("SELECT COUNT(*) FROM notes WHERE id = 6 AND slice_id IS NULL AND event_name = 'aten::not_in_this_trace'"), int64_t(1));
        QCOMPARE(db.scalar("SELECT COUNT(*) FROM notes WHERE color IS NULL"), int64_t(3));

        const std::string empty = tmp.path().toStdString() + "/empty.db";
        QVERIFY(SqliteExporter::exportTo(t, empty, {}, nullptr));
        QCOMPARE(Db(empty).scalar("SELECT COUNT(*) FROM notes"), int64_t(0));
    }

    void documentedQueriesRun()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("kineto/tb_samples_2021-01__resnet50_num_workers_0__worker0.pt.trace.json.gz"));
        const QStringList queries = docQueries();
        QCOMPARE(queries.size(), 3);
        const LoadResult r = TraceLoader::load(test::corpusFile(QStringLiteral("kineto/tb_samples_2021-01__resnet50_num_workers_0__worker0.pt.trace.json.gz")).toStdString());
        QVERIFY(r.ok());
        QTemporaryDir tmp;
        const std::string out = tmp.path().toStdString() + "/out.db";
        QVERIFY(SqliteExporter::exportTo(*r.trace, out, {}, nullptr));
        Db db(out);
        for (const QString &q : queries) {
            QString error;
            const int n = db.rows(q, &error);
            QVERIFY2(n > 0, qPrintable(q + QStringLiteral("\n-> ") + (n < 0 ? error : QStringLiteral("no rows"))));
        }
    }

    void unwritableOutputIsAClearError()
    {
        const LoadResult r = TraceLoader::load(LANESCOPE_TEST_DATA "/cli_info_small.json");
        QVERIFY(r.ok());
        std::string error;
        QVERIFY(!SqliteExporter::exportTo(*r.trace, "/nonexistent-dir/out.db", {}, &error));
        QVERIFY2(error.find("/nonexistent-dir/out.db") != std::string::npos, error.c_str());
    }

    void cancelStopsAndLeavesNoFile()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("tracelens/xdit_sd35_rank0.json.gz"));
        const LoadResult r = TraceLoader::load(test::corpusFile(QStringLiteral("tracelens/xdit_sd35_rank0.json.gz")).toStdString());
        QVERIFY(r.ok());
        QTemporaryDir tmp;
        const std::string out = tmp.path().toStdString() + "/out.db";
        std::atomic<bool> cancel{true};
        LoadOptions options;
        options.cancel = &cancel;
        std::string error;
        QVERIFY(!SqliteExporter::exportTo(*r.trace, out, options, &error));
        QVERIFY2(error.find("cancelled") != std::string::npos, error.c_str());
        QVERIFY(!QFile::exists(QString::fromStdString(out)));
        QVERIFY(!QFile::exists(QString::fromStdString(out + ".partial")));
    }
};

QTEST_GUILESS_MAIN(TestSqliteExporter)
#include "tst_sqliteexporter.moc"
