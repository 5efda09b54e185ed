#pragma once
// The Warnings dock: the trace's counted import warnings, and the trace cache's notices of the load
// (stale or corrupt entry rebuilt, cache unavailable); its title counts them.
#include "panel.h"

#include <cstdint>

namespace lanescope {

class WarningsModel;

class WarningsPanel : public Panel
{
    Q_OBJECT
public:
    WarningsPanel(Session *session, QMainWindow *window);

    // Warnings listed, each counted as often as it occurred.
    uint64_t total() const;

private:
    void refresh();

    WarningsModel *m_model;
};

} // namespace lanescope
