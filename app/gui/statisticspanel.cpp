#include "statisticspanel.h"

#include "docklayout.h"
#include "session.h"
#include "shortcuts.h"
#include "throttle.h"

#include "charts/durationhistogramview.h"
#include "session/comparesession.h"
#include "style/clearbutton.h"
#include "style/durationformat.h"
#include "timeline/timelineview.h"

#include "model/trace.h"
#include "util/workerpool.h"

#include <QAction>
#include <QComboBox>
#include <QCompleter>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMainWindow>
#include <QPushButton>
#include <QRegularExpression>
#include <QStringListModel>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>

namespace lanescope {

namespace {

struct Job
{
    std::shared_ptr<const Trace> trace;
    std::vector<QString> labels;               // per side
    std::vector<std::vector<TrackId>> tracks;  // per side (empty list: every track)
    DurationStats::Options options;
};

std::vector<StatisticsPanel::Side> run(const Job &job)
{
    std::vector<StatisticsPanel::Side> sides;
    for (size_t i = 0; i < job.labels.size(); ++i) {
        DurationStats::Options o = job.options;
        o.tracks = job.tracks[i];
        sides.push_back({job.labels[i], DurationStats::compute(*job.trace, o)});
        if (!sides.back().result.ok())
            break;
    }
    return sides;
}

QString count(uint64_t n)
{
    return QLocale::c().toString(qulonglong(n));
}

} // namespace

StatisticsPanel::StatisticsPanel(Session *session, TimelineView *timeline, QMainWindow *window)
    : Panel(tr("Statistics"), QStringLiteral("statisticsDock"), session, window), m_timeline(timeline),
      m_action(new QAction(tr("Duration &Statistics of Selected Name"), this)), m_edit(new QLineEdit),
      m_names(new QStringListModel(this)), m_rows(new QComboBox), m_scope(new QLabel), m_numbers(new QLabel),
      m_matches(new QLabel), m_histogram(new DurationHistogramView), m_slowest(new QPushButton(tr("Slowest"))),
      m_fastest(new QPushButton(tr("Fastest"))), m_rangeThrottle(new Throttle([this] { recompute(); }, this, 150))
{
    Shortcuts::bind(m_action, Shortcuts::Id::DurationStatistics);
    m_action->setToolTip(tr("Count, total, mean, median, p90, p99, min, max, stddev and a histogram of the selected slice's name"));
    connect(m_action, &QAction::triggered, this, &StatisticsPanel::showForSelection);

    auto *body = new QWidget;
    auto *layout = new QVBoxLayout(body);
    layout->setContentsMargins(6, 4, 6, 4);
    auto *top = new QHBoxLayout;
    m_edit->setPlaceholderText(tr("Slice name or regular expression (Shift+S: the selected slice's name)"));
    addClearButtonWhenShown(m_edit);
    auto *completer = new QCompleter(m_names, this);
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    completer->setFilterMode(Qt::MatchContains);
    m_edit->setCompleter(completer);
    m_rows->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_rows->setMinimumContentsLength(16);
    m_rows->setToolTip(tr("The names the pattern matches, by total time"));
    m_rows->hide();
    m_slowest->setToolTip(tr("Select and reveal the longest occurrence"));
    m_fastest->setToolTip(tr("Select and reveal the shortest occurrence"));
    top->addWidget(m_edit, 3);
    top->addWidget(m_rows, 2);
    top->addWidget(m_slowest);
    top->addWidget(m_fastest);
    layout->addLayout(top);
    m_scope->setWordWrap(true);
    layout->addWidget(m_scope);
    auto *middle = new QHBoxLayout;
    m_numbers->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_numbers->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    middle->addWidget(m_numbers);
    middle->addWidget(m_histogram, 1);
    layout->addLayout(middle, 1);
    m_matches->setWordWrap(true);
    layout->addWidget(m_matches);
    setWidget(body);

    connect(m_edit, &QLineEdit::returnPressed, this, [this] { showPattern(m_edit->text()); });
    connect(completer, qOverload<const QString &>(&QCompleter::activated), this, &StatisticsPanel::showName);
    connect(m_rows, &QComboBox::activated, this, [this](int i) { showRow(m_rows->itemText(i)); });
    connect(m_slowest, &QPushButton::clicked, this, [this] { jumpTo(true); });
    connect(m_fastest, &QPushButton::clicked, this, [this] { jumpTo(false); });
    connect(m_histogram, &DurationHistogramView::binClicked, this, &StatisticsPanel::selectBin);
    connect(session, &Session::traceChanged, this, &StatisticsPanel::onTraceChanged);
    // A hidden dock recomputes for a new range when it is shown again.
    connect(session, &Session::markedRangeChanged, this, [this] {
        if (m_pattern.isEmpty())
            return;
        if (isVisible())
            m_rangeThrottle->poke();
        else
            m_stale = true;
    });
    connect(this, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (!visible)
            return;
        ensureNames();
        if (m_stale)
            recompute();
    });
    showRow(QString());
}

StatisticsPanel::~StatisticsPanel() = default;

void StatisticsPanel::setDark(bool dark)
{
    m_dark = dark;
    m_histogram->setDark(dark);
}

void StatisticsPanel::onTraceChanged()
{
    m_trace = session()->trace();
    m_namesBuilt = false;
    m_sortedNames.clear();
    m_names->setStringList({});
    m_sides.clear();
    m_bins.clear();
    ++m_generation; // a computation for the old trace is dropped
    m_pending = false;
    if (isVisible())
        ensureNames();
    if (!m_pattern.isEmpty())
        recompute();
    else
        showRow(QString());
}

// The distinct slice names for the completion, built when first needed.
void StatisticsPanel::ensureNames()
{
    if (m_namesBuilt || !m_trace)
        return;
    m_namesBuilt = true;
    std::vector<uint8_t> seen(m_trace->strings().size(), 0);
    for (const Slice &s : m_trace->allSlices())
        if (s.name.isValid() && s.name.value < seen.size())
            seen[s.name.value] = 1;
    for (uint32_t i = 0; i < seen.size(); ++i)
        if (seen[i]) {
            const std::string_view v = m_trace->str(StringId(i));
            m_sortedNames << QString::fromUtf8(v.data(), qsizetype(v.size()));
        }
    m_sortedNames.sort();
    m_names->setStringList(m_sortedNames);
}

void StatisticsPanel::showForSelection()
{
    const SliceId id = session()->selectedSlice();
    if (!m_trace || !id.isValid() || id.value >= m_trace->allSlices().size()) {
        present();
        m_edit->setFocus();
        return;
    }
    const std::string_view name = m_trace->str(m_trace->slice(id).name);
    showName(QString::fromUtf8(name.data(), qsizetype(name.size())));
}

// Shows and raises the dock, tall enough for the numbers beside the histogram.
void StatisticsPanel::present()
{
    if (isHidden())
        DockLayout::place(mainWindow(), this); // into its tab group
    else
        raise();
    const int wanted = std::min(kMinHeight, mainWindow()->height() / 4);
    if (!isFloating() && height() < wanted)
        mainWindow()->resizeDocks({this}, {wanted}, Qt::Vertical);
}

void StatisticsPanel::showName(const QString &name)
{
    m_edit->setText(name);
    m_pattern = QLatin1Char('^') + QRegularExpression::escape(name) + QLatin1Char('$');
    m_shownName = name;
    present();
    recompute();
}

void StatisticsPanel::showPattern(const QString &text)
{
    ensureNames();
    if (std::binary_search(m_sortedNames.begin(), m_sortedNames.end(), text)) {
        showName(text);
        return;
    }
    m_pattern = text;
    m_shownName.clear();
    present();
    recompute();
}

void StatisticsPanel::recompute()
{
    m_stale = false;
    if (!m_trace || m_pattern.isEmpty())
        return;
    Job job;
    job.trace = m_trace;
    job.options.pattern = m_pattern;
    if (session()->hasMarkedRange()) {
        job.options.hasRange = true;
        job.options.t0 = session()->markedStart();
        job.options.t1 = session()->markedEnd();
    }
    const CompareSession *compare = session()->compareSession();
    if (session()->isComparing() && compare && compare->comparison().combined == m_trace) {
        const ComparisonResult &c = compare->comparison();
        job.tracks.resize(c.labels.size());
        for (const ComparedLane &lane : c.lanes)
            if (lane.profile < job.tracks.size())
                job.tracks[lane.profile].push_back(lane.combined);
        for (const auto &label : c.labels)
            job.labels.push_back(QString::fromStdString(label));
    } else {
        job.labels = {QString()};
        job.tracks = {{}};
    }
    const uint64_t generation = ++m_generation;
    m_pending = true;
    m_scope->setText(tr("Computing..."));
    auto *watcher = new QFutureWatcher<std::vector<Side>>(this);
    connect(watcher, &QFutureWatcher<std::vector<Side>>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        onComputed(generation, watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(workerPool(), [job = std::move(job)] { return run(job); }));
}

void StatisticsPanel::onComputed(uint64_t generation, std::vector<Side> sides)
{
    if (generation != m_generation)
        return; // a newer request (or another trace) is on its way
    m_pending = false;
    m_sides = std::move(sides);
    m_rows->clear();
    QStringList names;
    for (const Side &s : m_sides)
        for (const auto &r : s.result.rows) {
            const QString n = QString::fromStdString(r.name);
            if (!names.contains(n))
                names << n;
        }
    m_rows->addItems(names);
    m_rows->setVisible(names.size() > 1);
    QString name = m_shownName;
    if (!names.contains(name))
        name = names.value(0);
    m_rows->setCurrentText(name);
    showRow(name);
    emit computed();
}

const DurationStats::Row *StatisticsPanel::shownRow(size_t side) const
{
    if (side >= m_sides.size())
        return nullptr;
    for (const auto &r : m_sides[side].result.rows)
        if (QString::fromStdString(r.name) == m_shownName)
            return &r;
    return nullptr;
}

void StatisticsPanel::showRow(const QString &name)
{
    m_shownName = name;
    m_bins.clear();
    m_matches->clear();
    QString scope;
    if (session()->hasMarkedRange())
        scope = tr("In the marked range (%1), occurrences starting inside.")
                    .arg(DurationFormat::format(session()->markedEnd() - session()->markedStart()));
    else
        scope = tr("Whole trace.");
    if (!m_sides.empty() && !m_sides.front().result.ok()) {
        m_scope->setText(tr("Bad regular expression: %1").arg(m_sides.front().result.error.toHtmlEscaped()));
        m_numbers->clear();
        m_histogram->setSeries({});
        m_slowest->setEnabled(false);
        m_fastest->setEnabled(false);
        return;
    }
    if (m_pattern.isEmpty()) {
        m_scope->setText(tr("Select a slice and press Shift+S, or type a name."));
    } else if (name.isEmpty()) {
        m_scope->setText(tr("No occurrences of '%1'. %2").arg(m_edit->text().toHtmlEscaped(), scope));
    } else {
        m_scope->setText(QStringLiteral("<b>%1</b> &nbsp; %2").arg(name.toHtmlEscaped(), scope));
    }
    // Common bins over every side's min and max, so that A and B overlay bar for bar.
    std::vector<const DurationStats::Row *> rows;
    int64_t lo = INT64_MAX, hi = -1;
    for (size_t s = 0; s < m_sides.size(); ++s) {
        rows.push_back(shownRow(s));
        if (rows.back()) {
            lo = std::min(lo, rows.back()->min);
            hi = std::max(hi, rows.back()->max);
        }
    }
    std::vector<DurationHistogramView::Series> series;
    std::vector<DurationHistogramView::Marker> markers;
    const bool any = hi >= 0;
    if (any) {
        for (size_t s = 0; s < rows.size(); ++s) {
            std::vector<DurationStats::Bin> bins = DurationStats::bins(lo, hi, DurationStats::kDefaultBins);
            if (rows[s] && rows.size() == 1)
                bins = rows[s]->histogram;
            else if (rows[s])
                DurationStats::fill(*m_trace, rows[s]->occurrences, bins);
            m_bins.push_back(bins);
            series.push_back({m_sides[s].label, std::move(bins)});
        }
        if (rows.size() == 1 && rows.front())
            markers = {{tr("median"), rows.front()->median}, {tr("p90"), rows.front()->p90}, {tr("p99"), rows.front()->p99}};
    }
    m_histogram->setSeries(std::move(series));
    m_histogram->setMarkers(std::move(markers));
    m_slowest->setEnabled(any);
    m_fastest->setEnabled(any);

    // The numbers: one column per side.
    QString html = QStringLiteral("<table cellspacing=0 cellpadding=1><tr><td></td>");
    const bool labelled = m_sides.size() > 1;
    for (size_t s = 0; s < m_sides.size() && labelled; ++s)
        html += QStringLiteral("<td align=right><b>&nbsp;&nbsp;%1</b></td>").arg(m_sides[s].label.toHtmlEscaped());
    html += QStringLiteral("</tr>");
    const auto line = [&](const QString &what, auto value) {
        html += QStringLiteral("<tr><td>%1</td>").arg(what);
        for (const auto *r : rows)
            html += QStringLiteral("<td align=right>&nbsp;&nbsp;%1</td>").arg(r ? value(*r) : QStringLiteral("-"));
        html += QStringLiteral("</tr>");
    };
    if (any) {
        const auto d = [](int64_t ns) { return DurationFormat::format(ns); };
        line(tr("count"), [](const DurationStats::Row &r) { return count(r.count); });
        line(tr("total"), [&](const DurationStats::Row &r) { return d(r.total); });
        line(tr("mean"), [&](const DurationStats::Row &r) { return d(int64_t(std::llround(r.mean))); });
        line(tr("median"), [&](const DurationStats::Row &r) { return d(r.median); });
        line(tr("p90"), [&](const DurationStats::Row &r) { return d(r.p90); });
        line(tr("p99"), [&](const DurationStats::Row &r) { return d(r.p99); });
        line(tr("min"), [&](const DurationStats::Row &r) { return d(r.min); });
        line(tr("max"), [&](const DurationStats::Row &r) { return d(r.max); });
        line(tr("stddev"), [&](const DurationStats::Row &r) { return d(int64_t(std::llround(r.stddev))); });
    }
    html += QStringLiteral("</table>");
    m_numbers->setText(any ? html : QString());
    m_numbers->setToolTip(tr("Percentiles by nearest rank (the value at rank ceil(p/100 x count)); population standard deviation"));
}

void StatisticsPanel::selectBin(int bin)
{
    if (!m_trace || bin < 0)
        return;
    std::vector<uint32_t> ids;
    for (size_t s = 0; s < m_sides.size() && s < m_bins.size(); ++s) {
        const DurationStats::Row *row = shownRow(s);
        if (!row || size_t(bin) >= m_bins[s].size())
            continue;
        const auto &b = m_bins[s][size_t(bin)];
        const auto part = DurationStats::binSlices(*m_trace, *row, b.from, b.to);
        ids.insert(ids.end(), part.begin(), part.end());
    }
    const auto all = m_trace->allSlices();
    std::sort(ids.begin(), ids.end(), [&](uint32_t a, uint32_t b) { return all[a].start != all[b].start ? all[a].start < all[b].start : a < b; });
    m_histogram->setSelectedBin(bin);
    const auto &edge = m_bins.front()[size_t(bin)];
    m_matches->setText(tr("%n occurrence(s) of %1 .. %2 are the timeline's matches (Enter / Shift+Enter step through them).",
                          nullptr, int(ids.size()))
                           .arg(DurationFormat::format(edge.from), DurationFormat::format(edge.to)));
    const bool found = !ids.empty();
    m_timeline->setSearchMatches(std::move(ids));
    if (found)
        m_timeline->goToMatch(0);
}

void StatisticsPanel::jumpTo(bool slowest)
{
    SliceId best;
    int64_t bestNs = 0;
    for (size_t s = 0; s < m_sides.size(); ++s) {
        const DurationStats::Row *row = shownRow(s);
        if (!row)
            continue;
        const int64_t ns = slowest ? row->max : row->min;
        if (!best.isValid() || (slowest ? ns > bestNs : ns < bestNs)) {
            best = slowest ? row->slowest : row->fastest;
            bestNs = ns;
        }
    }
    if (!best.isValid())
        return;
    session()->setSelectedSlice(best);
    session()->revealSlice(best);
}

} // namespace lanescope
