#pragma once
// The Details dock: the selected slice (args, parent, children, flows, dependencies as links) and
// its dependency chain (ChainController: the graph is built in the background for each trace).
#include "panel.h"

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

private:
    SliceDetailsView *m_details;
    ChainController *m_chain;
};

} // namespace lanescope
