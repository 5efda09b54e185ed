#include "panel.h"

#include <QHeaderView>
#include <QMainWindow>
#include <QSortFilterProxyModel>
#include <QTableView>

namespace lanescope {

Panel::Panel(const QString &title, const QString &objectName, Session *session, QMainWindow *window)
    : QDockWidget(title, window), m_session(session), m_window(window)
{
    setObjectName(objectName);
}

QTableView *Panel::makeTable(QAbstractItemModel *model, int sortRole, int sortColumn)
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
    setWidget(view);
    return view;
}

} // namespace lanescope
