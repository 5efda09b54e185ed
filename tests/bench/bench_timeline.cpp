// bench_timeline [SLICES] [WIDTHxHEIGHT]: frame cost of the TimelineView on a generated trace.
//
// Builds a trace of SLICES slices (default 20,000,000) with lanescope::TraceBuilder: 8 threads in
// 2 processes, nested up to depth 8 (about 75 slices per top-level tree, trees spread over the
// whole span), 200 names, plus a counter track of 100,000 samples, then prints:
//   generate        building the slices and TraceBuilder::finish()
//   set trace       TimelineView::setTrace (index build: depth index, layout, summaries)
//   ms/frame        median of N frames painted into a QImage offscreen (QWidget::render) for
//                   whole trace, mid zoom (1/1000 of the trace), deep zoom (200 us), while panning
//                   (a tenth of the span per frame at mid zoom: geometry rebuilt every frame) and
//                   repaint from cache (same range: hover / selection repaint).
// Targets: whole-trace frame < 16 ms, repaint from cache < 5 ms.
#include "timelineview.h"
#include "zoomcontrol.h"

#include "model/tracebuilder.h"

#include <QApplication>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <chrono>
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

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n == 0 ? 0 : (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
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

Trace generate(size_t sliceCount)
{
    TraceBuilder b;
    b.reserveSlices(sliceCount);
    Lcg rng;
    std::vector<StringId> names;
    for (int i = 0; i < 200; ++i)
        names.push_back(b.intern("op_" + std::to_string(i) + (i % 3 ? "_forward" : "_backward_kernel")));
    const StringId cat = b.intern("cpu_op");
    constexpr int kThreads = 8;
    std::vector<TrackId> tracks;
    TrackId mem;
    for (int p = 0; p < 2; ++p) {
        const GroupId g = b.addGroup(GroupKind::Process, b.intern("python " + std::to_string(p)), {}, 100 + p);
        for (int t = 0; t < kThreads / 2; ++t)
            tracks.push_back(b.addTrack(g, TrackKind::Slices, b.intern("thread " + std::to_string(t)), t + 1));
        if (p == 0)
            mem = b.addTrack(g, TrackKind::Counter, b.intern("memory"), 99);
    }
    // Roots of 0.2-0.6 ms with small gaps: 20M slices span about 100 s, busy everywhere.
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
    int w = 1920, h = 1080;
    if (argc > 2)
        std::sscanf(argv[2], "%dx%d", &w, &h);

    auto t0 = Clock::now();
    auto trace = std::make_shared<const Trace>(generate(sliceCount));
    auto t1 = Clock::now();
    std::printf("trace           %zu slices, %zu tracks, span %.3f s, %zu bytes/slice resident\n",
                trace->allSlices().size(), trace->tracks().size(), double(trace->endNs() - trace->startNs()) / 1e9,
                trace->sliceResidentBytes() / std::max<size_t>(1, trace->allSlices().size()));
    std::printf("generate        %.1f ms\n", ms(t0, t1));

    TimelineView view;
    view.resize(w, h);
    t0 = Clock::now();
    view.setTrace(trace);
    t1 = Clock::now();
    std::printf("set trace       %.1f ms\n", ms(t0, t1));

    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    const auto frame = [&] {
        const auto a = Clock::now();
        image.fill(Qt::white);
        QPainter p(&image);
        view.render(&p);
        return ms(a, Clock::now());
    };
    const auto measure = [&](const char *label, int frames, const std::function<void(int)> &before) {
        std::vector<double> v;
        for (int i = 0; i < frames; ++i) {
            if (before)
                before(i);
            v.push_back(frame());
        }
        std::printf("%-15s %.2f ms/frame (median of %d, max %.2f)\n", label, median(v), frames,
                    *std::max_element(v.begin(), v.end()));
    };
    ZoomControl *zoom = view.zoomControl();
    const int64_t start = trace->startNs(), span = trace->endNs() - trace->startNs();

    // Whole trace: every frame rebuilds geometry (the range is reset to force it).
    // LANESCOPE_BENCH_SAVE=DIR keeps one frame of each view as a PNG to look at.
    const QString saveDir = qEnvironmentVariable("LANESCOPE_BENCH_SAVE");
    const auto save = [&](const char *name) {
        if (!saveDir.isEmpty())
            image.save(saveDir + QStringLiteral("/bench_timeline_") + QString::fromLatin1(name) + QStringLiteral(".png"));
    };
    measure("whole trace", 15, [&](int i) { zoom->setVisibleRange(start + (i % 2), start + span); });
    save("whole");
    measure("cached repaint", 15, nullptr);
    const int64_t mid = start + span / 2;
    measure("mid zoom", 15, [&](int i) { zoom->setVisibleRange(mid + i, mid + span / 1000 + i); });
    save("mid");
    measure("deep zoom", 15, [&](int i) { zoom->setVisibleRange(mid + i, mid + 200'000 + i); });
    save("deep");
    zoom->setVisibleRange(mid, mid + span / 1000);
    measure("panning", 30, [&](int) { zoom->pan(zoom->visibleSpan() / 10); });
    zoom->fitAll();
    measure("whole, dark", 15, [&](int i) {
        view.setTheme(i % 2 ? TimelinePalette::Theme::Dark : TimelinePalette::Theme::Light);
        zoom->setVisibleRange(start + (i % 2), start + span);
    });
    save("whole_dark");
    return 0;
}
