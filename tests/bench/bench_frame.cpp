// bench_frame [SLICES] [LANES] [WIDTHxHEIGHT]: frame cost of the TimelineView on a generated trace.
//
// Builds a trace of SLICES slices (default 20,000,000) over LANES thread lanes (default 300, in
// processes of 10 threads) with lanescope::TraceBuilder, nested up to depth 8, 200 names, plus a
// counter track of 100,000 samples, then prints:
//   generate / set trace   building the model; TimelineView::setTrace (depth index, summaries, layout)
//   resident               model bytes per slice (records + index) and the view's index bytes per slice
//   zoom levels            whole trace, then 1/10, 1/100, ... of it down to 1 us: median and p99 ms
//                          per frame over 40 frames (after one uncounted warm-up frame) painted into a QImage offscreen (QWidget::render),
//                          each frame at a slightly shifted range so geometry is rebuilt every time
//   panning / cached       a tenth of the view per frame at mid zoom; repaint of an unchanged range
// Target: p99 <= 16 ms at every zoom level (painting is single-threaded: one core). Each level also
// prints the painting thread's CPU time per frame, which a loaded machine does not inflate.
#include "timeline/timelineview.h"
#include "session/viewstate.h"

#include "model/tracebuilder.h"

#include <QApplication>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

using namespace lanescope;

namespace {

using Clock = std::chrono::steady_clock;

double ms(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double, std::milli>(b - a).count();
}

// CPU time of this thread, ms: what a frame costs without the waits of a loaded machine.
double threadCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n == 0 ? 0 : (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
}

double p99(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(double(v.size()) * 0.99))];
}

// Resident set size of this process, from /proc/self/statm.
size_t residentBytes()
{
    std::FILE *f = std::fopen("/proc/self/statm", "r");
    if (!f)
        return 0;
    unsigned long pages = 0, rss = 0;
    const int n = std::fscanf(f, "%lu %lu", &pages, &rss);
    std::fclose(f);
    return n == 2 ? size_t(rss) * 4096 : 0;
}

struct Lcg
{
    uint64_t state = 0x9e3779b97f4a7c15ull;
    uint32_t next()
    {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return uint32_t(state >> 33);
    }
    uint32_t below(uint32_t n) { return next() % n; }
};

// Appends a slice of [start, start + dur) at `depth` and children nested inside it, until `budget`
// slices have been added. Returns the number added.
size_t addTree(TraceBuilder &b, Lcg &rng, TrackId track, const std::vector<StringId> &names, StringId cat,
               int64_t start, int64_t dur, int depth, size_t budget)
{
    if (budget == 0)
        return 0;
    b.addSlice(track, start, dur, names[rng.below(uint32_t(names.size()))], cat);
    size_t added = 1;
    if (depth >= 8 || dur < 40)
        return added;
    // 0-3 children (at least one below a root): about 75 slices per tree of depth 8.
    const uint32_t kids = depth == 0 ? 1 + rng.below(3) : rng.below(4);
    if (kids == 0)
        return added;
    const int64_t slot = dur / int64_t(kids);
    for (uint32_t k = 0; k < kids && added < budget; ++k) {
        const int64_t childDur = slot * (50 + rng.below(45)) / 100;
        const int64_t childStart = start + int64_t(k) * slot + (slot - childDur) / 2;
        added += addTree(b, rng, track, names, cat, childStart, childDur, depth + 1, budget - added);
    }
    return added;
}

Trace generate(size_t sliceCount, int lanes)
{
    TraceBuilder b;
    b.reserveSlices(sliceCount);
    Lcg rng;
    std::vector<StringId> names;
    for (int i = 0; i < 200; ++i)
        names.push_back(b.intern("op_" + std::to_string(i) + (i % 3 ? "_forward" : "_backward_kernel")));
    const StringId cat = b.intern("cpu_op");
    const int kThreads = std::max(1, lanes);
    std::vector<TrackId> tracks;
    TrackId mem;
    for (int p = 0; p * 10 < kThreads; ++p) {
        const GroupId g = b.addGroup(GroupKind::Process, b.intern("python " + std::to_string(p)), {}, 100 + p);
        for (int t = 0; t < 10 && p * 10 + t < kThreads; ++t)
            tracks.push_back(b.addTrack(g, TrackKind::Slices, b.intern("thread " + std::to_string(t)), t + 1));
        if (p == 0)
            mem = b.addTrack(g, TrackKind::Counter, b.intern("memory"), 99);
    }
    // Roots of 0.2-0.6 ms with small gaps, busy everywhere.
    const size_t perThread = sliceCount / kThreads;
    int64_t endTs = 0;
    for (size_t t = 0; t < tracks.size(); ++t) {
        size_t budget = t + 1 == tracks.size() ? sliceCount - perThread * (kThreads - 1) : perThread;
        int64_t ts = 0;
        while (budget > 0) {
            const int64_t dur = 200'000 + rng.below(400'000);
            const size_t n = addTree(b, rng, tracks[t], names, cat, ts, dur, 0, budget);
            budget -= n;
            ts += dur + 1'000 + rng.below(20'000);
        }
        endTs = std::max(endTs, ts);
    }
    constexpr int kSamples = 100'000;
    for (int i = 0; i < kSamples; ++i)
        b.addCounterSample(mem, endTs / kSamples * i, double(rng.below(1000)));
    return b.finish();
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const size_t sliceCount = argc > 1 ? size_t(std::strtoull(argv[1], nullptr, 10)) : 20'000'000;
    const int lanes = argc > 2 ? std::atoi(argv[2]) : 300;
    int w = 1920, h = 1080;
    if (argc > 3)
        std::sscanf(argv[3], "%dx%d", &w, &h);

    auto t0 = Clock::now();
    auto trace = std::make_shared<const Trace>(generate(sliceCount, lanes));
    auto t1 = Clock::now();
    const double slices = double(std::max<size_t>(1, trace->allSlices().size()));
    std::printf("trace           %zu slices, %zu tracks, span %.3f s\n", trace->allSlices().size(),
                trace->tracks().size(), double(trace->endNs() - trace->startNs()) / 1e9);
    std::printf("generate        %.1f ms\n", ms(t0, t1));

    TimelineView view;
    view.resize(w, h);
    const size_t rssBefore = residentBytes();
    t0 = Clock::now();
    view.setTrace(trace);
    t1 = Clock::now();
    const size_t rssAfter = residentBytes();
    std::printf("set trace       %.1f ms\n", ms(t0, t1));
    std::printf("resident        model %.1f bytes/slice (records + index), view index +%.1f bytes/slice, "
                "process %.1f bytes/slice\n",
                double(trace->sliceResidentBytes()) / slices, double(rssAfter - std::min(rssAfter, rssBefore)) / slices,
                double(rssAfter) / slices);

    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    double lastCpu = 0;
    const auto frame = [&] {
        const auto a = Clock::now();
        const double cpu0 = threadCpuMs();
        image.fill(Qt::white);
        QPainter p(&image);
        view.render(&p);
        lastCpu = threadCpuMs() - cpu0;
        return ms(a, Clock::now());
    };
    bool allMet = true;
    const auto measure = [&](const std::string &label, int frames, const std::function<void(int)> &before) {
        std::vector<double> v, cpu;
        if (before) // one warm-up frame per level, not counted (first-use caches: glyphs, layout)
            before(frames);
        frame();
        for (int i = 0; i < frames; ++i) {
            if (before)
                before(i);
            v.push_back(frame());
            cpu.push_back(lastCpu);
        }
        const double worst = p99(v);
        allMet = allMet && worst <= 16.0;
        std::printf("%-22s median %6.2f ms   p99 %6.2f ms   (cpu median %6.2f, p99 %6.2f)%s\n", label.c_str(), median(v),
                    worst, median(cpu), p99(cpu), worst <= 16.0 ? "" : "   (> 16 ms)");
    };
    ViewState *zoom = view.viewState();
    const int64_t start = trace->startNs(), span = trace->endNs() - trace->startNs();
    const int64_t mid = start + span / 2;

    // LANESCOPE_BENCH_SAVE=DIR keeps one frame of some levels as PNGs to look at.
    const QString saveDir = qEnvironmentVariable("LANESCOPE_BENCH_SAVE");
    const auto save = [&](const std::string &name) {
        if (!saveDir.isEmpty())
            image.save(saveDir + QStringLiteral("/bench_frame_") + QString::fromStdString(name) + QStringLiteral(".png"));
    };
    constexpr int kFrames = 40;
    for (int64_t visible = span; visible >= 1000; visible /= 10) {
        char label[64];
        if (visible == span)
            std::snprintf(label, sizeof label, "whole trace");
        else
            std::snprintf(label, sizeof label, "visible %.3g s", double(visible) / 1e9);
        const int64_t from = visible == span ? start : mid - visible / 2;
        // The whole trace cannot shift (ViewState clamps it back to the same range, and the lanes
        // would repaint from their cache): its end moves by 1 ns instead, so every frame rebuilds.
        if (visible == span)
            measure(label, kFrames, [&](int i) { zoom->setVisibleRange(start, start + span - (i % 2)); });
        else
            measure(label, kFrames, [&](int i) { zoom->setVisibleRange(from + (i % 2), from + visible + (i % 2)); });
        save(visible == span ? "whole" : std::to_string(visible) + "ns");
        if (visible / 10 < 1000 && visible > 1000) {
            measure("visible 1 us", kFrames, [&](int i) { zoom->setVisibleRange(mid + (i % 2), mid + 1000 + (i % 2)); });
            save("1us");
        }
    }
    zoom->setVisibleRange(mid, mid + span / 1000);
    measure("panning (mid zoom)", kFrames, [&](int) { zoom->pan(zoom->visibleSpan() / 10); });
    measure("cached repaint", kFrames, nullptr);
    zoom->fitAll();
    // The same frames as "whole trace" (rebuilt every time), in the dark palette.
    view.setTheme(TimelinePalette::Theme::Dark);
    measure("whole trace, dark", kFrames, [&](int i) { zoom->setVisibleRange(start, start + span - (i % 2)); });
    save("whole_dark");
    view.setTheme(TimelinePalette::Theme::Light);
    std::printf("target p99 <= 16 ms at every level: %s\n", allMet ? "met" : "NOT met");
    return 0;
}
