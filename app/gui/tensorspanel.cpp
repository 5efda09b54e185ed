#include "tensorspanel.h"

#include "dockjob.h"
#include "session.h"

#include "style/durationformat.h"
#include "tables/rowtablemodel.h"
#include "timeline/timelineview.h"

#include "analysis/tablerows.h"
#include "model/trace.h"
#include "util/unittext.h"

#include <QHeaderView>
#include <QMainWindow>
#include <QLabel>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace lanescope {

namespace {

struct Computed
{
    TensorTableResult tensors;
    MemoryReport memory;
};

QString bytesText(double b)
{
    return QString::fromStdString(UnitText::bytes(b));
}

QString counterValue(double v, const std::string &unit)
{
    if (unit == "fraction")
        return QStringLiteral("%1 %").arg(100.0 * v, 0, 'g', 4);
    if (unit == "bytes/s")
        return bytesText(v) + QStringLiteral("/s");
    return QString::number(v, 'g', 6);
}

// The Memory tab as one rich-text page: three small tables.
QString memoryHtml(const MemoryReport &m)
{
    if (m.empty())
        return TensorsPanel::tr("No device memory numbers in this trace: neuron-profile JSON exports carry them "
                                "(an NTFF has the static memory table only).");
    QString h;
    const auto row = [](const QString &a, const QString &b, const QString &c = QString()) {
        return QStringLiteral("<tr><td>%1</td><td align=right>&nbsp;&nbsp;%2</td><td align=right>&nbsp;&nbsp;%3</td></tr>")
            .arg(a.toHtmlEscaped(), b.toHtmlEscaped(), c.toHtmlEscaped());
    };
    if (m.hasTraffic() || m.mbuPercent) {
        h += TensorsPanel::tr("<b>Traffic</b> (neuron-profile summary)<table>");
        for (const MemoryReport::Traffic &t : m.traffic)
            if (t.bytes)
                h += row(QString::fromUtf8(t.label), bytesText(*t.bytes), QString::number(*t.bytes, 'f', 0) + TensorsPanel::tr(" bytes"));
        if (m.mbuPercent)
            h += row(TensorsPanel::tr("MBU"), QStringLiteral("%1 %").arg(*m.mbuPercent, 0, 'g', 4));
        if (m.mfuPercent)
            h += row(TensorsPanel::tr("MFU"), QStringLiteral("%1 %").arg(*m.mfuPercent, 0, 'g', 4));
        if (m.hfuPercent)
            h += row(TensorsPanel::tr("HFU"), QStringLiteral("%1 %").arg(*m.hfuPercent, 0, 'g', 4));
        h += QStringLiteral("</table><br>");
    }
    if (!m.counters.empty()) {
        h += TensorsPanel::tr("<b>Over time</b> (the counter lanes of the NeuronCore)<table>");
        h += QStringLiteral("<tr><td><i>%1</i></td><td align=right><i>%2</i></td><td align=right><i>%3</i></td></tr>")
                 .arg(TensorsPanel::tr("counter"), TensorsPanel::tr("peak"), TensorsPanel::tr("mean"));
        for (const MemoryReport::Counter &c : m.counters)
            h += row(QString::fromStdString(c.name), counterValue(c.peak, c.unit), counterValue(c.mean, c.unit));
        h += QStringLiteral("</table><br>");
    }
    if (!m.staticMemory.empty()) {
        h += TensorsPanel::tr("<b>Static memory</b> by usage type<table>");
        for (const MemoryReport::Usage &u : m.staticMemory)
            h += row(QString::fromStdString(u.category), bytesText(double(u.bytes)), QString::number(u.bytes) + TensorsPanel::tr(" bytes"));
        h += QStringLiteral("</table>");
    }
    return h;
}

} // namespace

TensorsPanel::TensorsPanel(Session *session, TimelineView *timeline, QMainWindow *window)
    : ComputedDock(tr("Tensors"), QStringLiteral("tensorsDock"), session, window), m_timeline(timeline),
      m_model(new RowModel<TensorRow, TensorTableResult>(TableRows::tensors(), {}, this))
{
    window->addDockWidget(Qt::BottomDockWidgetArea, this);
    buildWhenSeen([this] { ensureBody(); });
}

// The tabs: made when the dock is first seen or has a result (most traces have no tensors).
void TensorsPanel::ensureBody()
{
    if (m_tabs)
        return;
    m_tabs = new QTabWidget(this);
    m_status = new QLabel(this);
    m_memory = new QLabel(this);
    m_tensorView = newTable(m_model, RowTableModel::SortRole, m_model->column("dma_transfer_bytes"));
    m_tensorView->setToolTip(tr("Double-click or Enter: the tensor's DMAs become the timeline's matches"));
    auto *page = new QWidget(m_tabs);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    m_status->setWordWrap(true);
    m_status->setContentsMargins(6, 2, 6, 2);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setText(m_statusText);
    layout->addWidget(m_status);
    layout->addWidget(m_tensorView, 1);
    m_tabs->addTab(page, tr("Tensors"));
    m_memory->setObjectName(QStringLiteral("memoryText"));
    m_memory->setTextFormat(Qt::RichText);
    m_memory->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_memory->setContentsMargins(8, 6, 8, 6);
    m_memory->setWordWrap(true);
    m_memory->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *scroll = new QScrollArea(m_tabs);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setWidget(m_memory);
    m_tabs->addTab(scroll, tr("Memory"));
    setWidget(m_tabs);
    const auto activate = [this](const QModelIndex &index) {
        const auto *proxy = static_cast<const QSortFilterProxyModel *>(m_tensorView->model());
        findTensor(proxy->mapToSource(index).row());
    };
    connect(m_tensorView, &QTableView::activated, this, activate);
}

QTabWidget *TensorsPanel::tabs()
{
    ensureBody();
    return m_tabs;
}

QTableView *TensorsPanel::tensorTable()
{
    ensureBody();
    return m_tensorView;
}

QLabel *TensorsPanel::memoryText()
{
    ensureBody();
    return m_memory;
}

bool TensorsPanel::hasContentFor(const Trace &trace) const
{
    return TensorTable::hasTensors(trace) || !MemoryReport::compute(trace).empty();
}

void TensorsPanel::clear()
{
    m_model->setResult({});
    if (m_memory)
        m_memory->clear();
}

void TensorsPanel::compute()
{
    std::shared_ptr<const Trace> trace = session()->trace();
    job()->start<Computed>([trace] { return Computed{TensorTable::compute(*trace), MemoryReport::compute(*trace)}; },
                           [this](const Computed &c, double) {
                               present(c.tensors, c.memory);
                               emit computed();
                           });
}

void TensorsPanel::present(const TensorTableResult &tensors, const MemoryReport &memory)
{
    ensureBody();
    m_model->setResult(tensors);
    m_tensorView->resizeColumnsToContents();
    m_statusText = tensors.rows.empty() ? QString::fromStdString(tensors.note)
                                        : tr("%n tensor(s); double-click one to find its DMAs in the timeline", nullptr, int(tensors.rows.size()));
    if (!tensors.rows.empty() && !tensors.note.empty())
        m_statusText += QStringLiteral(" · ") + QString::fromStdString(tensors.note);
    m_status->setText(m_statusText);
    m_memory->setText(memoryHtml(memory));
    setWindowTitle(tensors.rows.empty() ? tr("Tensors") : tr("Tensors (%1)").arg(tensors.rows.size()));
}

size_t TensorsPanel::findTensor(int sourceRow)
{
    const TensorRow *row = m_model->row(sourceRow);
    const std::shared_ptr<const Trace> &trace = session()->trace();
    if (!row || !trace)
        return 0;
    const std::vector<SliceId> slices = TensorTable::slicesOf(*trace, row->name);
    std::vector<uint32_t> ids;
    ids.reserve(slices.size());
    for (SliceId s : slices)
        ids.push_back(s.value);
    m_statusText = slices.empty() ? tr("No DMA in this trace names %1").arg(QString::fromStdString(row->name))
                                  : tr("%n DMA(s) of %1 are the timeline's matches (Enter / Shift+Enter step through them)", nullptr,
                                       int(slices.size()))
                                        .arg(QString::fromStdString(row->name));
    ensureBody();
    m_status->setText(m_statusText);
    if (!ids.empty()) {
        m_timeline->setSearchMatches(std::move(ids));
        m_timeline->goToMatch(0);
    }
    return slices.size();
}

} // namespace lanescope
