// bench_export [FILE] [RUNS]: the two exports of a loaded trace side by side, in the same run.
//
// Loads FILE (default: the corpus file tracelens/xdit_sd35_rank0.json.gz) once, then RUNS times
// (default 3), alternating so both see the same machine:
//   sqlite export    SqliteExporter::exportTo into a temporary database (what `export-sqlite` runs);
//   parquet export   ParquetExporter::exportTo into a temporary folder, ZSTD (what `export-parquet` runs);
// and reads each result back whole:
//   sqlite read      every table, SELECT * with every column of every row fetched (sqlite3_column_*);
//   parquet read     every file, every column decoded (parquet::TableReader, Lanescope's own reader).
// Prints the medians: wall and CPU seconds, output bytes, rows/s, MB/s of the input file and of the
// output, and the extra peak resident memory of each phase over the loaded model. Goal (issue 47):
// the Parquet export is not slower than the SQLite export (ratio sqlite / parquet >= 1).
#include "io/parquet/parquettablereader.h"
#include "io/traceloader.h"
#include "peakrss.h"
#include "store/parquetexporter.h"
#include "store/sqliteexporter.h"
#include "util/contentfingerprint.h"

#include <QTemporaryDir>

#include <sqlite3.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

using namespace lanescope;

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n == 0 ? 0 : (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
}

double cpuNow()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

struct Phase
{
    std::vector<double> wall, cpu, peakExtra;
    uint64_t bytes = 0, rows = 0;
};

// Runs fn, recording wall, CPU and the peak RSS above `base`.
template <class Fn> bool timed(Phase &p, uint64_t base, Fn &&fn)
{
    test::resetPeakRss();
    const auto t0 = Clock::now();
    const double c0 = cpuNow();
    const bool ok = fn();
    p.wall.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    p.cpu.push_back(cpuNow() - c0);
    const uint64_t peak = test::peakRss();
    p.peakExtra.push_back(peak > base ? double(peak - base) : 0.0);
    return ok;
}

uint64_t folderBytes(const std::string &dir)
{
    uint64_t n = 0;
    std::error_code ec;
    for (const auto &e : std::filesystem::directory_iterator(dir, ec))
        n += e.is_regular_file(ec) ? uint64_t(e.file_size(ec)) : 0;
    return n;
}

// Every row of every table, every column fetched. Rows read, or 0 on an error.
uint64_t readSqlite(const std::string &path)
{
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        return 0;
    }
    std::vector<std::string> tables;
    sqlite3_stmt *st = nullptr;
    sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type = 'table'", -1, &st, nullptr);
    while (sqlite3_step(st) == SQLITE_ROW)
        tables.emplace_back(reinterpret_cast<const char *>(sqlite3_column_text(st, 0)));
    sqlite3_finalize(st);
    uint64_t rows = 0, sink = 0;
    for (const std::string &t : tables) {
        if (sqlite3_prepare_v2(db, ("SELECT * FROM \"" + t + "\"").c_str(), -1, &st, nullptr) != SQLITE_OK)
            continue;
        const int columns = sqlite3_column_count(st);
        while (sqlite3_step(st) == SQLITE_ROW) {
            ++rows;
            for (int c = 0; c < columns; ++c)
                switch (sqlite3_column_type(st, c)) {
                case SQLITE_INTEGER: sink += uint64_t(sqlite3_column_int64(st, c)); break;
                case SQLITE_FLOAT: sink += uint64_t(sqlite3_column_double(st, c) != 0); break;
                case SQLITE_TEXT: sink += uint64_t(sqlite3_column_bytes(st, c)); break;
                default: break;
                }
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return sink == 0xdeadbeef ? rows + 1 : rows; // keeps the loop's values alive
}

uint64_t readParquet(const std::string &dir)
{
    uint64_t rows = 0;
    std::error_code ec;
    for (const auto &e : std::filesystem::directory_iterator(dir, ec)) {
        parquet::Table t;
        std::string error;
        if (!parquet::TableReader::read(e.path().string(), &t, &error)) {
            std::fprintf(stderr, "bench_export: %s\n", error.c_str());
            return 0;
        }
        rows += t.rows;
    }
    return rows;
}

void print(const char *name, const Phase &p, double inputMb)
{
    const double w = median(p.wall);
    std::printf("%-16s %7.3f s  cpu %7.3f s  %9.0f rows/s  %7.1f MB/s of the input  %7.1f MB/s of its %.1f MB  peak +%.0f MB\n",
                name, w, median(p.cpu), double(p.rows) / w, inputMb / w, double(p.bytes) / 1e6 / w, double(p.bytes) / 1e6,
                median(p.peakExtra) / 1e6);
}

} // namespace

int main(int argc, char **argv)
{
    const std::string file = argc > 1 ? argv[1] : std::string(LANESCOPE_CORPUS_DEFAULT) + "/tracelens/xdit_sd35_rank0.json.gz";
    const int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) {
        std::printf("SKIP: %s not found (pass a trace file or folder)\n", file.c_str());
        return 0;
    }
    const double mb = double(ContentFingerprint::ofPath(file).size) / 1e6;
    const LoadResult loaded = TraceLoader::load(file);
    if (!loaded.ok()) {
        std::fprintf(stderr, "bench_export: %s\n", loaded.error.c_str());
        return 1;
    }
    const Trace &trace = *loaded.trace;
    test::resetPeakRss();
    const uint64_t base = test::peakRss(); // the loaded model

    QTemporaryDir tmp;
    const std::string db = tmp.filePath(QStringLiteral("trace.db")).toStdString();
    const std::string dir = tmp.filePath(QStringLiteral("parquet")).toStdString();
    Phase sqliteExport, parquetExport, sqliteRead, parquetRead;
    for (int i = 0; i < runs; ++i) {
        std::filesystem::remove(db, ec);
        std::filesystem::remove_all(dir, ec);
        std::string error;
        if (!timed(sqliteExport, base, [&] { return SqliteExporter::exportTo(trace, db, LoadOptions(), &error); })) {
            std::fprintf(stderr, "bench_export: %s\n", error.c_str());
            return 1;
        }
        ParquetExporter::Result written;
        if (!timed(parquetExport, base, [&] {
                return ParquetExporter::exportTo(trace, dir, LoadOptions(), &error, {}, parquet::WriteOptions(), &written);
            })) {
            std::fprintf(stderr, "bench_export: %s\n", error.c_str());
            return 1;
        }
        sqliteExport.bytes = uint64_t(std::filesystem::file_size(db, ec));
        parquetExport.bytes = folderBytes(dir);
        parquetExport.rows = sqliteExport.rows = written.rows;
        uint64_t rows = 0;
        timed(sqliteRead, base, [&] { return (rows = readSqlite(db)) > 0; });
        sqliteRead.rows = rows;
        sqliteRead.bytes = sqliteExport.bytes;
        timed(parquetRead, base, [&] { return (rows = readParquet(dir)) > 0; });
        parquetRead.rows = rows;
        parquetRead.bytes = parquetExport.bytes;
    }
    std::printf("file             %s (%.1f MB on disk, %zu slices; model peak %.0f MB)\n", file.c_str(), mb,
                trace.allSlices().size(), double(base) / 1e6);
    print("sqlite export", sqliteExport, mb);
    print("parquet export", parquetExport, mb);
    print("sqlite read", sqliteRead, mb);
    print("parquet read", parquetRead, mb);
    const double ratio = median(sqliteExport.wall) / median(parquetExport.wall);
    std::printf("ratio            parquet export %.2fx the speed of the sqlite export (goal >= 1: %s); read %.2fx; "
                "files %.2fx the size\n",
                ratio, ratio >= 1 ? "met" : "NOT met", median(sqliteRead.wall) / median(parquetRead.wall),
                double(parquetExport.bytes) / double(std::max<uint64_t>(1, sqliteExport.bytes)));
    return 0;
}
