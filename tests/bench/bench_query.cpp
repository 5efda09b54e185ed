// bench_query: SQL over the loaded trace (QueryEngine, core/query) against the same query on the
// exported SQLite file, for the issue 48 target: `SELECT name, count(*), sum(dur) FROM slices GROUP BY
// name` over the ~1 GB generated Kineto trace in < 2 s, with peak memory during it at most 10 % above
// the loaded model.
//   bench_query [--runs R] PATH...
// Without PATH: the TraceLens xdit trace of the corpus; `make bench` also runs it on the ~1 GB trace
// gen_kineto tiles from that file. Prints per PATH:
//   load          TraceLoader::load, and the model's bytes (Trace::memoryUsage) and resident memory after it;
//   engine        the first run (builds the name index the GROUP BY reads) and the median of R runs,
//                 wall and CPU; peak resident memory during the runs against before them (VmHWM reset
//                 first), and that growth against the model (goal <= 10 %);
//   export        SqliteExporter::exportTo into a temporary folder (time, file size), then the same
//                 query on that file through SQLite (first run and median of R).
// Not a test.
#include "benchinputs.h"
#include "peakrss.h"

#include "io/traceloader.h"
#include "model/trace.h"
#include "query/queryengine.h"
#include "store/sqliteexporter.h"

#include <QTemporaryDir>

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

using namespace lanescope;

namespace {

constexpr const char *kQuery = "SELECT name, count(*), sum(dur) FROM slices GROUP BY name";

double seconds(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double cpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) / 1e9;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

class CountRows : public QueryResultSink
{
public:
    uint64_t rows = 0;
    bool begin(const std::vector<std::string> &) override { return true; }
    bool row(const QueryRow &) override
    {
        ++rows;
        return true;
    }
};

// The query on an SQLite file: rows, or -1 on an error (printed).
int64_t fileQuery(sqlite3 *db)
{
    sqlite3_stmt *s = nullptr;
    if (sqlite3_prepare_v2(db, kQuery, -1, &s, nullptr) != SQLITE_OK) {
        std::fprintf(stderr, "bench_query: %s\n", sqlite3_errmsg(db));
        return -1;
    }
    int64_t rows = 0;
    while (sqlite3_step(s) == SQLITE_ROW)
        ++rows;
    sqlite3_finalize(s);
    return rows;
}

} // namespace

int main(int argc, char **argv)
{
    int runs = 3;
    std::vector<std::string> paths;
    if (!lanescope::test::benchInputs(argc, argv, "bench_query", runs, paths))
        return 2;
    for (const std::string &path : paths) {
        const std::string file = std::filesystem::path(path).filename().string();
        auto t0 = std::chrono::steady_clock::now();
        const LoadResult loaded = TraceLoader::load(path);
        if (!loaded.ok()) {
            std::fprintf(stderr, "bench_query: %s\n", loaded.error.c_str());
            return 2;
        }
        const double loadS = seconds(t0);
        const Trace &trace = *loaded.trace;
        const double model = double(trace.memoryUsage());
        std::printf("%s: %zu slices, load %.2f s, model %.0f MB, resident after load %.0f MB\n", file.c_str(),
                    trace.allSlices().size(), loadS, model / 1e6, double(test::currentRss()) / 1e6);

        // The engine: first run (name index built), then R runs.
        const uint64_t before = test::currentRss();
        lanescope::test::resetPeakRss();
        QueryEngine engine(loaded.trace);
        std::vector<double> wall, cpu;
        uint64_t groups = 0;
        double first = 0, firstCpu = 0;
        for (int r = 0; r <= runs; ++r) {
            CountRows rows;
            QueryError error;
            t0 = std::chrono::steady_clock::now();
            const double c0 = cpuSeconds();
            if (!engine.run(kQuery, rows, {}, &error)) {
                std::fprintf(stderr, "bench_query: %s\n", error.message.c_str());
                return 2;
            }
            const double w = seconds(t0), c = cpuSeconds() - c0;
            groups = rows.rows;
            if (r == 0) {
                first = w;
                firstCpu = c;
            } else {
                wall.push_back(w);
                cpu.push_back(c);
            }
        }
        const uint64_t peak = lanescope::test::peakRss();
        const double growth = peak > before ? double(peak - before) : 0;
        std::printf("  engine   %s: %llu groups; first %.3f s (cpu %.3f s, builds the name index), then %.3f s median of %d "
                    "(cpu %.3f s) (goal < 2 s: %s)\n",
                    kQuery, static_cast<unsigned long long>(groups), first, firstCpu, median(wall), runs, median(cpu),
                    std::max(first, median(wall)) < 2 ? "met" : "NOT met");
        std::printf("  engine   memory: resident %.0f MB before, peak %.0f MB during: +%.1f MB = %.1f %% of the model "
                    "(goal <= 10 %%: %s); name index %.1f MB\n",
                    double(before) / 1e6, double(peak) / 1e6, growth / 1e6, 100 * growth / model,
                    growth <= 0.1 * model ? "met" : "NOT met", double(engine.memoryUsage()) / 1e6);

        // The export, then the query on the file.
        QTemporaryDir tmp;
        const std::string db = tmp.filePath(QStringLiteral("bench.db")).toStdString();
        t0 = std::chrono::steady_clock::now();
        std::string error;
        if (!SqliteExporter::exportTo(trace, db, {}, &error)) {
            std::fprintf(stderr, "bench_query: %s\n", error.c_str());
            return 2;
        }
        const double exportS = seconds(t0);
        sqlite3 *h = nullptr;
        sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr);
        std::vector<double> fileWall;
        double fileFirst = 0;
        int64_t fileGroups = 0;
        for (int r = 0; r <= runs; ++r) {
            t0 = std::chrono::steady_clock::now();
            fileGroups = fileQuery(h);
            if (r == 0)
                fileFirst = seconds(t0);
            else
                fileWall.push_back(seconds(t0));
        }
        sqlite3_close(h);
        std::printf("  export   export-sqlite %.2f s (%.0f MB file), then the query on it: first %.3f s, %.3f s median of %d; "
                    "%lld groups (%s the engine's)\n",
                    exportS, double(std::filesystem::file_size(db)) / 1e6, fileFirst, median(fileWall), runs,
                    static_cast<long long>(fileGroups), uint64_t(fileGroups) == groups ? "same as" : "NOT");
        std::printf("  engine vs export + file query: %.3f s vs %.2f s\n", std::max(first, median(wall)),
                    exportS + fileFirst);
    }
    return 0;
}
