#include "slicedetailsview.h"

#include "durationformat.h"

#include "model/trace.h"

#include <QHeaderView>

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

} // namespace

SliceDetailsView::SliceDetailsView(QWidget *parent) : QTreeWidget(parent)
{
    setColumnCount(2);
    setHeaderLabels({tr("Field"), tr("Value")});
    setRootIsDecorated(true);
    setAlternatingRowColors(true);
    setUniformRowHeights(true);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    header()->setStretchLastSection(true);
    showSlice({});
}

void SliceDetailsView::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    showSlice({});
}

QTreeWidgetItem *SliceDetailsView::addField(const QString &field, const QString &value, QTreeWidgetItem *parent)
{
    auto *item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(this);
    item->setText(0, field);
    item->setText(1, value);
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
        addField(tr("No slice selected"), tr("click a slice in the timeline"));
        return;
    }
    m_slice = id;
    const Trace &t = *m_trace;
    const Slice &s = t.slice(id);
    addField(tr("Name"), fromView(t.str(s.name)));
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
        addField(tr("Parent"), fromView(t.str(t.slice(parent).name)));
    const QString flags = flagsText(s);
    if (!flags.isEmpty())
        addField(tr("Flags"), flags);
    const auto out = t.flowsFrom(id), in = t.flowsTo(id);
    if (!out.empty() || !in.empty())
        addField(tr("Flows"), tr("%1 out, %2 in").arg(out.size()).arg(in.size()));
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
}

} // namespace lanescope
