#include "slicedetailsview.h"

#include "style/durationformat.h"

#include "analysis/dependencygraph.h"
#include "analysis/opbreakdown.h"
#include "analysis/waittrace.h"
#include "model/trace.h"

#include <QAction>
#include <QClipboard>
#include <QEvent>
#include <QGuiApplication>
#include <QHeaderView>
#include <QKeyEvent>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QTreeWidgetItemIterator>

#include <algorithm>

namespace lanescope {

namespace {

QString fromView(std::string_view v)
{
    return QString::fromUtf8(v.data(), qsizetype(v.size()));
}

QString flagsText(const Slice &s)
{
    QStringList parts;
    if (s.has(SliceFlag::Unfinished))
        parts << QStringLiteral("unfinished (no end in the trace)");
    if (s.has(SliceFlag::Async))
        parts << QStringLiteral("async");
    if (s.has(SliceFlag::FromBeginEnd))
        parts << QStringLiteral("from B/E pair");
    if (s.has(SliceFlag::NoDuration))
        parts << QStringLiteral("no duration given");
    return parts.join(QStringLiteral(", "));
}

// Row heights of wrapped values: a value is measured at its column's width (QTreeView asks the
// delegate without one, which measures one long line).
class WrappingDelegate : public QStyledItemDelegate
{
public:
    explicit WrappingDelegate(QTreeView *view) : QStyledItemDelegate(view), m_view(view) {}

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        if (index.column() != 1)
            return QStyledItemDelegate::sizeHint(option, index);
        QStyleOptionViewItem o(option);
        o.rect = QRect(0, 0, m_view->columnWidth(1), 1 << 20); // a valid rect: the style wraps in it
        return QStyledItemDelegate::sizeHint(o, index);
    }

private:
    QTreeView *m_view;
};

} // namespace

SliceDetailsView::SliceDetailsView(QWidget *parent) : QTreeWidget(parent), m_copy(new QAction(tr("Copy"), this))
{
    setColumnCount(2);
    setHeaderLabels({tr("Field"), tr("Value")});
    setRootIsDecorated(true);
    setAlternatingRowColors(true);
    setUniformRowHeights(false); // wrapped values take several lines
    setWordWrap(true);
    setItemDelegate(new WrappingDelegate(this));
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setTextElideMode(Qt::ElideMiddle); // a long value keeps its start and its end
    header()->setSectionResizeMode(0, QHeaderView::Interactive);
    header()->setStretchLastSection(true);
    connect(header(), &QHeaderView::sectionResized, this, [this](int section) {
        if (section == 0 && !m_fitting)
            m_userSizedField = true;
        scheduleDelayedItemsLayout(); // wrapped values take the lines the new width needs
    });
    // Queued: QTreeView emits expanded() from inside its layout pass (expandAll, '*' on an item); measuring
    // the column there lays the items out again under the running pass, which then writes into freed memory.
    connect(this, &QTreeWidget::itemExpanded, this, &SliceDetailsView::fitFieldColumn, Qt::QueuedConnection);
    m_copy->setToolTip(tr("Copy the full value (several rows: field and value, one row per line)"));
    connect(m_copy, &QAction::triggered, this, [this] {
        if (QClipboard *clipboard = QGuiApplication::clipboard())
            clipboard->setText(copyText());
    });
    addAction(m_copy);
    setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(this, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        const SliceId target = linkOf(item);
        if (target.isValid())
            emit sliceActivated(target);
    });
    connect(this, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem *item, int column) {
        const SliceId target = linkOf(item);
        if (target.isValid() && column == 1)
            emit sliceActivated(target);
    });
    showSlice({});
}

SliceId SliceDetailsView::linkOf(const QTreeWidgetItem *item)
{
    if (!item)
        return {};
    const QVariant v = item->data(1, Qt::UserRole);
    return v.isValid() ? SliceId(v.toUInt()) : SliceId();
}

QString SliceDetailsView::copyText() const
{
    QList<const QTreeWidgetItem *> rows;
    for (QTreeWidgetItemIterator it(const_cast<SliceDetailsView *>(this), QTreeWidgetItemIterator::Selected); *it; ++it)
        rows << *it; // tree order, whatever order they were selected in
    if (rows.isEmpty() && currentItem())
        rows << currentItem();
    if (rows.size() == 1)
        return rows.front()->text(1);
    QStringList lines;
    for (const QTreeWidgetItem *row : rows)
        lines << row->text(0) + QLatin1Char('\t') + row->text(1);
    return lines.join(QLatin1Char('\n'));
}

QSize SliceDetailsView::sizeHint() const
{
    const QFontMetrics fm = fontMetrics();
    int field = 0;
    for (const QString &name : {tr("Predecessors ([)"), tr("Successors (])"), tr("Category"), tr("Duration")})
        field = std::max(field, fm.horizontalAdvance(name));
    const int margins = 2 * (style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, this) + 1);
    const int value = fm.horizontalAdvance(QString(kValueChars, QLatin1Char('x'))); // averageCharWidth() reads under 1 px with some fonts (the offscreen platform's)
    const int chrome = 2 * frameWidth() + style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this);
    return {indentation() + field + value + 2 * margins + chrome, QTreeWidget::sizeHint().height()};
}

void SliceDetailsView::fitFieldColumn()
{
    if (m_userSizedField || viewport()->width() <= 0)
        return;
    const int limit = int(viewport()->width() * kMaxFieldFraction);
    const int wanted = std::max(sizeHintForColumn(0), header()->sectionSizeHint(0));
    m_fitting = true;
    setColumnWidth(0, std::max(std::min(wanted, limit), header()->minimumSectionSize()));
    m_fitting = false;
}

void SliceDetailsView::applyLinkColour()
{
    for (QTreeWidgetItemIterator it(this); *it; ++it)
        if (linkOf(*it).isValid())
            (*it)->setForeground(1, palette().link());
}

void SliceDetailsView::changeEvent(QEvent *event)
{
    QTreeWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyLinkColour(); // links stay readable when the theme turns dark (or back)
    else if (event->type() == QEvent::FontChange)
        fitFieldColumn();
}

void SliceDetailsView::keyPressEvent(QKeyEvent *event)
{
    // Ctrl+C is the view's key, not a window action (the window's keys are app/gui/shortcuts' list).
    if (event->matches(QKeySequence::Copy)) {
        m_copy->trigger();
        event->accept();
        return;
    }
    QTreeWidget::keyPressEvent(event);
}

void SliceDetailsView::resizeEvent(QResizeEvent *event)
{
    QTreeWidget::resizeEvent(event);
    fitFieldColumn();
}

QTreeWidgetItem *SliceDetailsView::addLink(const QString &field, SliceId target, QTreeWidgetItem *parent)
{
    const Trace &t = *m_trace;
    const Slice &s = t.slice(target);
    const QString text = tr("%1 (%2, at %3)")
                             .arg(fromView(t.str(s.name)), DurationFormat::format(s.duration),
                                  DurationFormat::formatPrecise(s.start - t.startNs()));
    QTreeWidgetItem *item = addField(field, text, parent);
    item->setData(1, Qt::UserRole, target.value);
    QFont f = font();
    f.setUnderline(true);
    item->setFont(1, f);
    item->setForeground(1, palette().link());
    item->setToolTip(1, tr("Go to %1 on %2").arg(text, fromView(t.trackPath(t.trackOfSlice(target)))));
    return item;
}

void SliceDetailsView::addInstructions(SliceId id)
{
    const std::vector<SliceId> instructions = OpBreakdown::instructionsOf(*m_trace, id);
    if (instructions.empty())
        return;
    const OpBreakdownRow row = OpBreakdown::summarize(*m_trace, id, instructions);
    // One line per engine in one value (it wraps in a narrow dock; nested field names would be elided).
    QStringList engines;
    for (int e = 0; e < kNeuronEngineCount; ++e) {
        const OpEngineTime &t = row.engines[size_t(e)];
        if (t.instructionCount == 0)
            continue;
        engines << tr("%1: %2 instr., %3 busy, %4 active, %5 waits")
                       .arg(fromView(EngineBreakdown::engineName(NeuronEngine(e))))
                       .arg(t.instructionCount)
                       .arg(DurationFormat::formatPrecise(t.instructionTimeNs), DurationFormat::formatPrecise(t.activeTimeNs))
                       .arg(t.semaphoreWaitCount);
    }
    addField(tr("Engines"), engines.join(QLatin1Char('\n')));
    QTreeWidgetItem *item = addField(tr("Instructions"), tr("%1 (the timeline's matches)").arg(instructions.size()));
    for (size_t k = 0; k < instructions.size() && k < size_t(kMaxChildrenListed); ++k)
        addLink(QString::number(k + 1), instructions[k], item);
    if (instructions.size() > size_t(kMaxChildrenListed))
        addField(tr("..."), tr("%1 more").arg(instructions.size() - size_t(kMaxChildrenListed)), item);
    item->setExpanded(instructions.size() <= 20);
}

void SliceDetailsView::addChildren(SliceId id)
{
    const Trace &t = *m_trace;
    const Slice &s = t.slice(id);
    const TrackId track = t.trackOfSlice(id);
    if (!track.isValid() || t.track(track).kind == TrackKind::Async)
        return;
    const Track &tr_ = t.track(track);
    std::vector<SliceId> children;
    size_t total = 0;
    // Children follow their parent in start order and start before it ends.
    for (uint32_t i = id.value + 1; i < tr_.sliceBegin + tr_.sliceCount; ++i) {
        const Slice &c = t.slice(SliceId(i));
        if (c.start > s.end() || c.depth <= s.depth)
            break;
        if (c.depth == s.depth + 1) {
            ++total;
            if (children.size() < size_t(kMaxChildrenListed))
                children.push_back(SliceId(i));
        }
    }
    if (total == 0)
        return;
    QTreeWidgetItem *item = addField(tr("Children"), QString::number(total));
    for (size_t k = 0; k < children.size(); ++k)
        addLink(QString::number(k + 1), children[k], item);
    if (total > children.size())
        addField(tr("..."), tr("%1 more").arg(total - children.size()), item);
    item->setExpanded(total <= 20);
}

void SliceDetailsView::addFlows(SliceId id)
{
    const Trace &t = *m_trace;
    const auto out = t.flowsFrom(id), in = t.flowsTo(id);
    if (out.empty() && in.empty())
        return;
    QTreeWidgetItem *item = addField(tr("Flows"), tr("%1 out, %2 in").arg(out.size()).arg(in.size()));
    for (FlowId f : out) {
        const Flow &flow = t.flows()[f.value];
        if (flow.to.isValid())
            addLink(tr("to"), flow.to, item);
    }
    for (FlowId f : in) {
        const Flow &flow = t.flows()[f.value];
        if (flow.from.isValid())
            addLink(tr("from"), flow.from, item);
    }
    item->setExpanded(true);
}

void SliceDetailsView::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    m_graph.reset();
    showSlice({});
}

void SliceDetailsView::setDependencyGraph(std::shared_ptr<const DependencyGraph> graph)
{
    m_graph = graph && graph->trace() == m_trace.get() ? std::move(graph) : nullptr;
    showSlice(m_slice);
}

void SliceDetailsView::addDependencies(SliceId id)
{
    if (!m_graph)
        return;
    const Trace &t = *m_trace;
    const auto label = [&t](const DependencyEdge &e) {
        QString text = QString::fromLatin1(dependencyKindName(e.kind));
        if (e.flow.isValid() && e.flow.value < t.flows().size()) {
            const std::string_view name = t.str(t.flows()[e.flow.value].name);
            if (!name.empty() && e.kind != DependencyKind::Flow)
                text += QStringLiteral(": ") + fromView(name);
            else if (e.kind == DependencyKind::Flow)
                text += QStringLiteral(" ") + fromView(t.str(t.flows()[e.flow.value].category));
        }
        return text;
    };
    const auto section = [&](const QString &title, const std::vector<DependencyEdge> &edges, bool forward) {
        if (edges.empty())
            return;
        QTreeWidgetItem *item = addField(title, QString::number(edges.size()));
        for (size_t k = 0; k < edges.size() && k < size_t(kMaxChildrenListed); ++k)
            addLink(label(edges[k]), forward ? edges[k].to : edges[k].from, item);
        if (edges.size() > size_t(kMaxChildrenListed))
            addField(tr("..."), tr("%1 more").arg(edges.size() - size_t(kMaxChildrenListed)), item);
        item->setExpanded(edges.size() <= 20);
    };
    // Predecessors: everything it depends on, its parent included. Successors: what depends on it,
    // children left out (listed under Children above).
    section(tr("Predecessors ([)"), m_graph->predecessors(id), false);
    std::vector<DependencyEdge> successors;
    m_graph->forEachSuccessor(id, [&successors](const DependencyEdge &e) {
        if (e.kind == DependencyKind::Nesting)
            return false; // children come last: none of them is listed here
        successors.push_back(e);
        return true;
    });
    section(tr("Successors (])"), successors, true);
    addWaitTrace(id);
}

// A NeuronCore instruction: where its time went upstream (WaitTrace), the wait first, then the steps.
void SliceDetailsView::addWaitTrace(SliceId id)
{
    const WaitTraceResult w = WaitTrace::upstream(*m_trace, *m_graph, id);
    const bool waited = w.stop == WaitTraceResult::Stop::SemaphoreWait || w.stop == WaitTraceResult::Stop::IdleGap;
    if (!waited && (w.stop == WaitTraceResult::Stop::NotAnInstruction || w.steps.size() < 2))
        return;
    QString summary;
    if (w.stop == WaitTraceResult::Stop::SemaphoreWait)
        summary = tr("%1 sat idle %2 waiting%3").arg(QString::fromStdString(w.engine), DurationFormat::formatPrecise(w.waitNs),
                                                     w.semaphore.empty() ? QString() : tr(" on %1").arg(QString::fromStdString(w.semaphore)));
    else if (w.stop == WaitTraceResult::Stop::IdleGap)
        summary = tr("%1 sat idle %2 (no producer in the trace explains it)").arg(QString::fromStdString(w.engine), DurationFormat::formatPrecise(w.waitNs));
    else
        summary = tr("no wait upstream (%1)").arg(QString::fromLatin1(WaitTraceResult::stopName(w.stop)));
    QTreeWidgetItem *item = addField(tr("Wait upstream"), summary);
    if (w.releasedBy.isValid())
        addLink(tr("released by"), w.releasedBy, item);
    for (size_t k = 1; k < w.steps.size() && k <= size_t(kMaxChildrenListed); ++k)
        addLink(QString::fromLatin1(WaitTraceResult::viaName(w.steps[k].via)), w.steps[k].slice, item);
    item->setExpanded(w.steps.size() <= 12);
}

QTreeWidgetItem *SliceDetailsView::addField(const QString &field, const QString &value, QTreeWidgetItem *parent)
{
    auto *item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(this);
    item->setText(0, field);
    item->setText(1, value);
    item->setToolTip(0, field);
    item->setToolTip(1, value);
    return item;
}

QString SliceDetailsView::formatArg(const Trace &trace, const Arg &arg)
{
    switch (arg.type) {
    case ArgType::Null:
        return QStringLiteral("null");
    case ArgType::Bool:
        return arg.value.i ? QStringLiteral("true") : QStringLiteral("false");
    case ArgType::Int:
        return QString::number(qlonglong(arg.value.i));
    case ArgType::UInt:
        return QString::number(qulonglong(arg.value.u));
    case ArgType::Double:
        return QString::number(arg.value.d, 'g', QLocale::FloatingPointShortest);
    case ArgType::String:
    case ArgType::Json:
        return fromView(trace.str(arg.stringValue()));
    }
    return {};
}

void SliceDetailsView::showSlice(SliceId id)
{
    clear();
    m_slice = SliceId();
    if (!m_trace || !id.isValid() || id.value >= m_trace->allSlices().size()) {
        // two short lines across both columns (a narrow dock shows them whole); Field's width is for field names
        for (const QString &line : {tr("No slice selected."), tr("Click a slice in the timeline.")})
            addField(line, QString())->setFirstColumnSpanned(true);
        fitFieldColumn();
        return;
    }
    m_slice = id;
    const Trace &t = *m_trace;
    const Slice &s = t.slice(id);
    addField(tr("Name"), fromView(t.str(s.name)));
    addField(tr("Event id"), QString::number(id.value)); // what `lanescope-cli chain --event` takes
    addField(tr("Category"), fromView(t.str(s.category)));
    addField(tr("Start"), DurationFormat::formatPrecise(s.start - t.startNs()) + tr(" after trace start"));
    addField(tr("Duration"), DurationFormat::formatPrecise(s.duration));
    addField(tr("End"), DurationFormat::formatPrecise(s.end() - t.startNs()));
    const TrackId track = t.trackOfSlice(id);
    if (track.isValid())
        addField(tr("Track"), fromView(t.trackPath(track)));
    addField(tr("Depth"), QString::number(s.depth));
    const SliceId parent = t.parent(id);
    if (parent.isValid())
        addLink(tr("Parent"), parent);
    addChildren(id);
    addInstructions(id);
    const QString flags = flagsText(s);
    if (!flags.isEmpty())
        addField(tr("Flags"), flags);
    addFlows(id);
    addDependencies(id);
    const auto args = t.args().args(s.args);
    if (!args.empty()) {
        QTreeWidgetItem *argsItem = addField(tr("Args"), tr("%1").arg(args.size()));
        for (const Arg &a : args) {
            QTreeWidgetItem *item = addField(fromView(t.str(a.key)), formatArg(t, a), argsItem);
            if (a.type == ArgType::Json)
                item->setFont(1, QFont(QStringLiteral("monospace")));
        }
        argsItem->setExpanded(true);
    }
    fitFieldColumn();
}

} // namespace lanescope
