// gen_rankset TRACE OUTDIR [--ranks N] [--slow R] [--late R] [--slow-factor F] [--late-us U]: writes
// the N rank files of one distributed job made from one real Kineto trace, as each rank's profiler
// writes its own (tests/common/rankset.h: distributedInfo rank / world size / process groups set,
// every rank on its own clock, rank R of --slow running F times slower, rank R of --late arriving U µs
// late at every collective), as OUTDIR/rank<R>.pt.trace.json. The job summary benchmark
// (run-benchmarks.sh) writes 256 ranks of HTA's NCCL trace with it, summarises them and opens the
// summaries; it removes them afterwards.
#include "gzipjson.h"
#include "rankset.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char **argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: gen_rankset TRACE OUTDIR [--ranks N] [--slow R] [--late R] [--slow-factor F] [--late-us U]\n");
        return 2;
    }
    lanescope::test::JobRankSet set;
    set.ranks = 256;
    for (int i = 3; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        const char *v = argv[i + 1];
        if (flag == "--ranks")
            set.ranks = std::atoll(v);
        else if (flag == "--slow")
            set.slowRank = std::atoll(v);
        else if (flag == "--late")
            set.lateRank = std::atoll(v);
        else if (flag == "--slow-factor")
            set.slowFactor = std::atof(v);
        else if (flag == "--late-us")
            set.lateUs = std::atof(v);
        else {
            std::fprintf(stderr, "gen_rankset: unknown option %s\n", flag.c_str());
            return 2;
        }
    }
    const QJsonObject trace = lanescope::test::loadGzipJson(QString::fromLocal8Bit(argv[1]));
    if (trace.isEmpty() || set.ranks < 2) {
        std::fprintf(stderr, "gen_rankset: %s is not a readable Kineto trace (or fewer than 2 ranks asked)\n", argv[1]);
        return 2;
    }
    uint64_t bytes = 0;
    const bool ok = lanescope::test::writeJobRanks(trace, set, QString::fromLocal8Bit(argv[2]), [&](int64_t, const QString &path) {
        bytes += uint64_t(QFileInfo(path).size());
    });
    if (!ok) {
        std::fprintf(stderr, "gen_rankset: cannot write into %s\n", argv[2]);
        return 2;
    }
    std::printf("gen_rankset: %lld ranks (slow %lld x %.2f, late %lld by %.0f us) in %s, %.1f MB\n", (long long)set.ranks,
                (long long)set.slowRank, set.slowFactor, (long long)set.lateRank, set.lateUs, argv[2], double(bytes) / 1e6);
    return 0;
}
