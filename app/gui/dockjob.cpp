#include "dockjob.h"

namespace lanescope {

DockJob::DockJob(QDockWidget *dock, std::function<void()> compute, int throttleMs)
    : QObject(dock), m_dock(dock), m_compute(std::move(compute)), m_throttle(new Throttle([this] { m_compute(); }, this, throttleMs))
{
    connect(dock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && m_stale)
            m_compute();
    });
}

void DockJob::request()
{
    if (m_dock->isVisible())
        m_throttle->poke();
    else
        m_stale = true;
}

void DockJob::drop()
{
    ++m_generation;
    m_pending = false;
    m_stale = true;
}

} // namespace lanescope
