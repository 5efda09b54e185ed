#include "panel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace lanescope {

Panel::Panel(const QString &title, const QString &objectName, Session *session, QMainWindow *window)
    : QDockWidget(title, window), m_session(session), m_window(window)
{
    setObjectName(objectName);
}

void Panel::buildWhenSeen(std::function<void()> build)
{
    connect(this, &QDockWidget::visibilityChanged, this, [this, build = std::move(build)](bool visible) {
        if (!visible)
            return;
        QMetaObject::invokeMethod(this, [this, build] {
            if (isVisible() && !visibleRegion().isEmpty()) // a tab behind the current one has none
                build();
        }, Qt::QueuedConnection);
    });
}

void Panel::tableWhenSeen(QAbstractItemModel *model, int sortRole, int sortColumn, std::function<void(QTableView *)> setUp)
{
    m_makeTable = [this, model, sortRole, sortColumn, setUp = std::move(setUp)] {
        QTableView *view = makeTable(model, sortRole, sortColumn);
        if (setUp)
            setUp(view);
        return view;
    };
    buildWhenSeen([this] { table(); });
}

QTableView *Panel::table()
{
    if (!m_table && m_makeTable)
        m_table = m_makeTable();
    return m_table;
}

QTableView *Panel::makeTable(QAbstractItemModel *model, int sortRole, int sortColumn)
{
    QTableView *view = newTable(model, sortRole, sortColumn);
    setWidget(view);
    return view;
}

QTableView *Panel::newTable(QAbstractItemModel *model, int sortRole, int sortColumn)
{
    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(model);
    proxy->setSortRole(sortRole);
    auto *view = new QTableView(this);
    view->setModel(proxy);
    view->setSortingEnabled(true);
    view->sortByColumn(sortColumn, Qt::DescendingOrder);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    return view;
}

void Panel::setBody(std::initializer_list<std::pair<QWidget *, int>> controls, QLabel *status, QWidget *view)
{
    auto *body = new QWidget;
    auto *layout = new QVBoxLayout(body);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *bar = new QHBoxLayout;
    for (const auto &[control, stretch] : controls)
        bar->addWidget(control, stretch);
    layout->addLayout(bar);
    status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status->setWordWrap(true);
    layout->addWidget(status);
    layout->addWidget(view, 1);
    setWidget(body);
}

} // namespace lanescope
