#include "throttle.h"

namespace lanescope {

Throttle::Throttle(std::function<void()> action, QObject *parent, int intervalMs)
    : QObject(parent), m_action(std::move(action))
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(intervalMs);
    connect(&m_timer, &QTimer::timeout, this, [this] { m_action(); });
}

void Throttle::poke()
{
    if (!m_timer.isActive())
        m_timer.start();
}

} // namespace lanescope
