#pragma once
// The first-run arrangement of the window's docks, as one table: dock object name -> area, and whether
// the dock is shown on first run. Docks of one area are tabbed in table order (the bottom group and
// the right group), so the timeline keeps most of the window; View > Reset Layout applies it again.
// Adding a dock is one line in kPlacements (docklayout.cpp).
#include <Qt>

#include <span>

class QDockWidget;
class QMainWindow;

namespace lanescope {

class DockLayout
{
public:
    enum class Shown {
        Yes,
        No,
        ByPanel // the panel decides (Engines: traces with NeuronCore engines; Compare: a comparison)
    };
    struct Placement
    {
        const char *objectName; // the dock's QObject name, e.g. "warningsDock"
        Qt::DockWidgetArea area;
        Shown shown = Shown::Yes;
        bool front = false; // the tab in front of its group
    };

    // Share of the window the groups get. The right group: as wide as its front dock asks (the
    // Details dock: its values readable, SliceDetailsView::sizeHint), between these shares of the
    // window's width (at 1920 px 288..480, at 1366 px 204..341). The bottom group's height.
    static constexpr double kRightWidth = 0.15;
    static constexpr double kRightMaxWidth = 0.25;
    static constexpr int kWideWindow = 1600; // px: narrower windows give the right group kRightWidth only
    static constexpr double kBottomHeight = 0.15;
    static constexpr int kBottomMinHeight = 120;

    static std::span<const Placement> placements();
    static const Placement *placement(const QDockWidget *dock);

    // Every dock of the window named in the table goes to its area, tabbed with the others there, and
    // gets the group's size; docks not in the table are left alone.
    static void apply(QMainWindow *window);
    // Only the groups' sizes, for the window's size now (apply() placed the docks while the window was
    // not shown yet and had no size of its own).
    static void resizeGroups(QMainWindow *window);
    // One dock created later (the NEFF panel): into its group, in front.
    static void place(QMainWindow *window, QDockWidget *dock);
    // Tabs of every dock group scroll and elide, so a group never widens the window.
    static void scrollTabs(QMainWindow *window);
};

} // namespace lanescope
