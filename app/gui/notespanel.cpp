#include "notespanel.h"

#include "session.h"

#include "overlays/annotationsoverlay.h"
#include "style/durationformat.h"

#include "model/trace.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QGridLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace lanescope {

namespace {

enum Column { Number, Kind, Where, Text, ColumnCount };

QIcon swatch(const QColor &c)
{
    QPixmap pm(12, 12);
    pm.fill(c);
    return QIcon(pm);
}

} // namespace

NotesPanel::NotesPanel(Session *session, QMainWindow *window)
    : Panel(tr("Notes"), QStringLiteral("notesDock"), session, window)
{
    buildWhenSeen([this] { ensureBody(); });
}

void NotesPanel::ensureBody()
{
    if (m_list)
        return;
    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);
    layout->setContentsMargins(4, 4, 4, 4);
    m_location = new QLabel(body);
    m_location->setWordWrap(true);
    m_location->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_location);
    m_list = new QTreeWidget(body);
    m_list->setColumnCount(ColumnCount);
    m_list->setHeaderLabels({tr("#"), tr("Kind"), tr("Where"), tr("Note")});
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAllColumnsShowFocus(true);
    // Shown as #, Note, Where, Kind (the columns keep their indices): in the narrow right dock group the
    // text is what must be on screen, not the kind and the times with the text scrolled out of view.
    m_list->header()->setStretchLastSection(false);
    m_list->header()->moveSection(m_list->header()->visualIndex(Text), 1);
    m_list->installEventFilter(this);
    m_list->viewport()->installEventFilter(this);
    layout->addWidget(m_list, 1);
    // Two rows of buttons: the dock shares the narrow right group with Details, so the timeline keeps
    // its width on a 1366-pixel screen.
    auto *buttons = new QGridLayout;
    m_goTo = new QPushButton(tr("&Go To"), body);
    m_edit = new QPushButton(tr("&Edit..."), body);
    m_delete = new QPushButton(tr("De&lete"), body);
    m_add = new QPushButton(tr("&Add Note..."), body);
    auto *add = m_add;
    buttons->addWidget(m_goTo, 0, 0);
    buttons->addWidget(m_edit, 0, 1);
    buttons->addWidget(m_delete, 1, 0);
    buttons->addWidget(add, 1, 1);
    layout->addLayout(buttons);
    setWidget(body);

    connect(add, &QPushButton::clicked, this, &NotesPanel::addRequested);
    connect(m_goTo, &QPushButton::clicked, this, [this] { emit goToRequested(currentId()); });
    connect(m_edit, &QPushButton::clicked, this, [this] { emit editRequested(currentId()); });
    connect(m_delete, &QPushButton::clicked, this, [this] { emit removeRequested(currentId()); });
    connect(m_list, &QTreeWidget::itemActivated, this, [this] { emit goToRequested(currentId()); });
    connect(m_list, &QTreeWidget::currentItemChanged, this, [this] {
        const bool any = currentId() > 0;
        for (QPushButton *b : {m_goTo, m_edit, m_delete})
            b->setEnabled(any);
        emit currentChanged(currentId());
    });
    m_add->setToolTip(m_addTip);
    fill();
}

QTreeWidget *NotesPanel::list()
{
    ensureBody();
    return m_list;
}

QLabel *NotesPanel::location()
{
    ensureBody();
    return m_location;
}

void NotesPanel::setAddToolTip(const QString &tip)
{
    m_addTip = tip;
    if (m_add)
        m_add->setToolTip(tip);
}

int NotesPanel::currentId() const
{
    const QTreeWidgetItem *item = m_list ? m_list->currentItem() : nullptr;
    return item ? item->data(Number, Qt::UserRole).toInt() : 0;
}

void NotesPanel::setNotes(const std::vector<Annotation> &notes, const QString &location)
{
    m_notes = notes;
    m_where = location;
    setWindowTitle(notes.empty() ? tr("Notes") : tr("Notes (%1)").arg(notes.size()));
    if (m_list)
        fill();
}

void NotesPanel::fill()
{
    const int current = currentId();
    const auto &trace = session()->trace();
    const int64_t origin = trace ? trace->startNs() : 0;
    m_list->clear();
    for (const Annotation &note : m_notes) {
        QString where;
        switch (note.kind) {
        case Annotation::Kind::Range:
            where = tr("%1 – %2").arg(DurationFormat::format(note.startNs - origin), DurationFormat::format(note.endNs - origin));
            break;
        case Annotation::Kind::Event:
            where = tr("%1 at %2%3").arg(QString::fromStdString(note.eventName), DurationFormat::format(note.startNs - origin),
                                         note.eventFound ? QString() : tr(" (not found)"));
            break;
        case Annotation::Kind::Point: where = DurationFormat::format(note.startNs - origin); break;
        }
        auto *item = new QTreeWidgetItem(m_list, {QString::number(note.id), QString::fromLatin1(Annotation::kindName(note.kind)),
                                                  where, QString::fromStdString(note.text)});
        item->setData(Number, Qt::UserRole, note.id);
        item->setIcon(Number, swatch(AnnotationsOverlay::colorOf(note)));
        for (int c : {Number, Kind, Where, Text})
            item->setToolTip(c, QStringLiteral("%1\n%2").arg(where, QString::fromStdString(note.text)));
        if (note.id == current)
            m_list->setCurrentItem(item);
    }
    fitColumns();
    m_location->setText(m_where);
    const bool any = currentId() > 0;
    for (QPushButton *b : {m_goTo, m_edit, m_delete})
        b->setEnabled(any);
}

void NotesPanel::fitColumns()
{
    for (int c : {Number, Kind, Where, Text})
        m_list->resizeColumnToContents(c);
    const int available = m_list->viewport()->width() - m_list->columnWidth(Number);
    const int rest = m_list->columnWidth(Where) + m_list->columnWidth(Kind);
    // Wide enough for all: the text takes the slack. Narrow: the text fills the view (at least 120 px),
    // where and kind are a scroll away (and in every cell's tool tip).
    m_list->setColumnWidth(Text, std::max({120, available - rest, std::min(m_list->columnWidth(Text), available)}));
}

bool NotesPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (m_list && watched == m_list->viewport() && event->type() == QEvent::Resize)
        fitColumns();
    if (m_list && watched == m_list && event->type() == QEvent::KeyPress
        && static_cast<QKeyEvent *>(event)->key() == Qt::Key_Delete && currentId() > 0) {
        emit removeRequested(currentId());
        return true;
    }
    return Panel::eventFilter(watched, event);
}

} // namespace lanescope
