#include "docklayout.h"

#include <QDockWidget>
#include <QLayout>
#include <QMainWindow>
#include <QTabBar>

#include <algorithm>
#include <array>
#include <cstring>

namespace lanescope {

namespace {

using Shown = DockLayout::Shown;

constexpr std::array kPlacements = {
    DockLayout::Placement{"detailsDock", Qt::RightDockWidgetArea, Shown::Yes, true},
    DockLayout::Placement{"neffDock", Qt::RightDockWidgetArea},
    DockLayout::Placement{"notesDock", Qt::RightDockWidgetArea, Shown::No}, // View > Notes, or N
    DockLayout::Placement{"jobDock", Qt::BottomDockWidgetArea, Shown::ByPanel}, // rank summaries opened (a job overview)
    DockLayout::Placement{"analysisDock", Qt::BottomDockWidgetArea, Shown::Yes, true},
    DockLayout::Placement{"enginesDock", Qt::BottomDockWidgetArea, Shown::ByPanel},
    DockLayout::Placement{"tensorsDock", Qt::BottomDockWidgetArea, Shown::ByPanel}, // Neuron profiles with tensors / memory
    DockLayout::Placement{"collectivesDock", Qt::BottomDockWidgetArea, Shown::ByPanel}, // traces with NCCL / RCCL kernels
    DockLayout::Placement{"summaryDock", Qt::BottomDockWidgetArea},
    DockLayout::Placement{"queryDock", Qt::BottomDockWidgetArea, Shown::No}, // View > Query, Ctrl+Shift+Q
    DockLayout::Placement{"statisticsDock", Qt::BottomDockWidgetArea, Shown::No}, // Shift+S
    DockLayout::Placement{"flameGraphDock", Qt::BottomDockWidgetArea, Shown::ByPanel}, // call stacks; Shift+F
    DockLayout::Placement{"sourceDock", Qt::BottomDockWidgetArea, Shown::No}, // Ctrl+U, beside the flame graph
    DockLayout::Placement{"rangeDock", Qt::BottomDockWidgetArea},
    DockLayout::Placement{"compareDock", Qt::BottomDockWidgetArea, Shown::ByPanel},
    DockLayout::Placement{"filesDock", Qt::BottomDockWidgetArea},
    DockLayout::Placement{"warningsDock", Qt::BottomDockWidgetArea},
};

QDockWidget *findDock(QMainWindow *window, const char *name)
{
    return window->findChild<QDockWidget *>(QLatin1String(name), Qt::FindDirectChildrenOnly);
}

} // namespace

std::span<const DockLayout::Placement> DockLayout::placements()
{
    return kPlacements;
}

const DockLayout::Placement *DockLayout::placement(const QDockWidget *dock)
{
    const QByteArray name = dock->objectName().toLatin1();
    for (const Placement &p : kPlacements)
        if (name == p.objectName)
            return &p;
    return nullptr;
}

void DockLayout::apply(QMainWindow *window)
{
    QDockWidget *firstOf[2] = {nullptr, nullptr}; // right, bottom
    QDockWidget *frontOf[2] = {nullptr, nullptr};
    for (const Placement &p : kPlacements) {
        QDockWidget *dock = findDock(window, p.objectName);
        if (!dock)
            continue;
        const int group = p.area == Qt::RightDockWidgetArea ? 0 : 1;
        if (dock->isFloating())
            dock->setFloating(false); // not a no-op when docked: it re-lays the dock out
        window->removeDockWidget(dock); // hides it
        window->addDockWidget(p.area, dock);
        if (firstOf[group])
            window->tabifyDockWidget(firstOf[group], dock);
        else
            firstOf[group] = dock;
        if (p.front)
            frontOf[group] = dock;
        dock->setVisible(p.shown == Shown::Yes);
    }
    for (QDockWidget *dock : frontOf)
        if (dock)
            dock->raise();
    window->layout()->activate(); // the groups' tab bars exist from here
    scrollTabs(window);
    resizeGroups(window);
}

void DockLayout::resizeGroups(QMainWindow *window)
{
    // The first dock of each group in the table (the group's size is its size) and the one in front.
    QDockWidget *firstOf[2] = {nullptr, nullptr}; // right, bottom
    QDockWidget *frontOf[2] = {nullptr, nullptr};
    for (const Placement &p : kPlacements) {
        QDockWidget *dock = findDock(window, p.objectName);
        if (!dock || dock->isFloating() || window->dockWidgetArea(dock) != p.area)
            continue;
        const int group = p.area == Qt::RightDockWidgetArea ? 0 : 1;
        if (!firstOf[group])
            firstOf[group] = dock;
        if (p.front)
            frontOf[group] = dock;
    }
    if (firstOf[0]) {
        const QDockWidget *front = frontOf[0] ? frontOf[0] : firstOf[0];
        const int wanted = front->widget() ? front->widget()->sizeHint().width() : 0;
        // Below kWideWindow the timeline keeps its share (60 %): the dock stays at 15 % and its values wrap.
        const double most = window->width() >= kWideWindow ? kRightMaxWidth : kRightWidth;
        const int width = std::clamp(wanted, int(window->width() * kRightWidth), int(window->width() * most));
        window->resizeDocks({firstOf[0]}, {width}, Qt::Horizontal);
    }
    if (firstOf[1])
        window->resizeDocks({firstOf[1]}, {std::max(kBottomMinHeight, int(window->height() * kBottomHeight))}, Qt::Vertical);
}

void DockLayout::scrollTabs(QMainWindow *window)
{
    // A group's tabs scroll instead of widening the window: eight tabs in the bottom group are wider
    // than a 1366-pixel screen.
    for (QTabBar *tabs : window->findChildren<QTabBar *>()) {
        tabs->setUsesScrollButtons(true);
        tabs->setElideMode(Qt::ElideRight);
    }
}

void DockLayout::place(QMainWindow *window, QDockWidget *dock)
{
    const Placement *p = placement(dock);
    const Qt::DockWidgetArea area = p ? p->area : Qt::RightDockWidgetArea;
    window->addDockWidget(area, dock);
    for (const Placement &other : kPlacements) {
        QDockWidget *first = findDock(window, other.objectName);
        if (other.area == area && first && first != dock && !first->isFloating() && window->dockWidgetArea(first) == area) {
            window->tabifyDockWidget(first, dock);
            break;
        }
    }
    dock->show();
    dock->raise();
    window->layout()->activate();
    scrollTabs(window);
}

} // namespace lanescope
