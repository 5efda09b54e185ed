#pragma once
// The NEFF dock: what NeffReader found in a compiled program (NeffInfoView). The window creates it
// when the first NEFF is opened and hands it each NEFF the Session has read.
#include "panel.h"

namespace lanescope {

class NeffInfoView;
struct NeffInfo;

class NeffPanel : public Panel
{
    Q_OBJECT
public:
    NeffPanel(Session *session, QMainWindow *window);

    void showNeff(const QString &path, const NeffInfo &info);
    NeffInfoView *view() const { return m_view; }

private:
    NeffInfoView *m_view;
};

} // namespace lanescope
