#pragma once
// The Details dock: the selected slice (args, parent, children, flows, dependencies as links) and
// its dependency chain (ChainController: the graph is built in the background for each trace). Above
// them, for a device execution of a profile folder whose NEFF is known, an "Open NEFF" link that
// shows the program in the NEFF panel (ExecutionNeff). Selecting a slice of a "layers" / "HLO ops"
// lane makes its instructions the timeline's search matches (Enter / Shift+Enter step through them).
#include "panel.h"

class QLabel;

namespace lanescope {

class ChainController;
class SliceDetailsView;
class TimelineView;

class DetailsPanel : public Panel
{
    Q_OBJECT
public:
    DetailsPanel(Session *session, TimelineView *timeline, QMainWindow *window);

    ChainController *chain() const { return m_chain; }
    SliceDetailsView *view() const { return m_details; }
    // The NEFF the "Open NEFF" link opens; empty while the link is hidden.
    QString neffPath() const { return m_neffPath; }
    // What clicking the link does: opens the NEFF in the NEFF panel (the trace stays).
    void openNeff();

protected:
    void changeEvent(QEvent *event) override;

private:
    void showSlice();
    // The link's text in the palette's link colour (rich text keeps the colour it was set with).
    void updateNeffLink();

    SliceDetailsView *m_details;
    TimelineView *m_timeline;
    ChainController *m_chain;
    QLabel *m_neffLink;
    QString m_neffPath;
};

} // namespace lanescope
