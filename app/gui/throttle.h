#pragma once
// Runs an action at most once per interval while its input keeps changing: the first poke() starts
// the interval, later pokes within it are folded into one run at its end (e.g. a range summary that
// follows a shift-drag recomputes every 60 ms, not on every mouse move). Owned by the object that
// needs it; the one delay mechanism of the window's panels.
#include <QObject>
#include <QTimer>

#include <functional>

namespace lanescope {

class Throttle : public QObject
{
    Q_OBJECT
public:
    static constexpr int kDefaultMs = 60;

    explicit Throttle(std::function<void()> action, QObject *parent, int intervalMs = kDefaultMs);

    // Asks for a run: at the end of the current interval, or of a new one.
    void poke();
    bool isPending() const { return m_timer.isActive(); }

private:
    std::function<void()> m_action;
    QTimer m_timer;
};

} // namespace lanescope
