#include "timelineinput.h"

#include "timelineinputhost.h"
#include "session/viewstate.h"

#include "model/trace.h"

#include <QApplication>
#include <QContextMenuEvent>
#include <QMenu>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace lanescope {

bool TimelineInput::wheel(QWheelEvent *event)
{
    if (!m_view.trace())
        return false;
    ViewState *zoom = m_view.viewState();
    const QPoint angle = event->angleDelta();
    const QPointF pos = event->position();
    if (event->modifiers() & Qt::ControlModifier) {
        const double factor = std::pow(0.85, angle.y() / 120.0);
        const int64_t anchor = pos.x() >= m_view.timeArea().left() ? m_view.timeAtX(pos.x())
                                                                   : zoom->visibleStart() + zoom->visibleSpan() / 2;
        zoom->zoom(factor, anchor);
    } else if ((event->modifiers() & Qt::ShiftModifier) || std::abs(angle.x()) > std::abs(angle.y())) {
        const int d = angle.x() ? angle.x() : angle.y();
        zoom->pan(-int64_t(double(d) / 120.0 * 0.1 * double(zoom->visibleSpan())));
    } else {
        const int dy = event->pixelDelta().y() ? event->pixelDelta().y()
                                               : angle.y() * 3 * m_view.layout().metrics().rowHeight / 120;
        m_view.setLaneScroll(m_view.laneScroll() - dy);
    }
    return true;
}

bool TimelineInput::press(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton || !m_view.trace())
        return false;
    m_pressPos = event->position().toPoint();
    m_pressRange = m_view.visibleRange();
    m_pressScroll = m_view.laneScroll();
    m_pressTime = m_view.timeAtX(m_pressPos.x());
    m_drag = Drag::Pending;
    const bool inTime = m_view.timeArea().contains(m_pressPos) || m_pressPos.y() < m_view.timeArea().top();
    m_pressTrack = m_view.trackAtY(m_pressPos.y());
    if (!inTime && m_pressTrack.isValid() && m_pressPos.x() < m_view.timeArea().left())
        m_pendingKind = Drag::Reorder;
    else if (inTime && (event->modifiers() & Qt::ShiftModifier))
        m_pendingKind = Drag::Range;
    else if (inTime && (event->modifiers() & Qt::ControlModifier))
        m_pendingKind = Drag::Box;
    else
        m_pendingKind = Drag::Pan;
    return true;
}

void TimelineInput::move(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    m_mousePos = pos;
    if (m_drag == Drag::None) {
        m_view.hostWidget()->update(); // cursor readout: repaint from the cache
        return;
    }
    if (m_drag == Drag::Pending) {
        if ((pos - m_pressPos).manhattanLength() < QApplication::startDragDistance())
            return;
        m_drag = m_pendingKind;
        if (m_drag == Drag::Pan)
            m_view.hostWidget()->setCursor(Qt::ClosedHandCursor);
        else if (m_drag == Drag::Reorder)
            m_view.hostWidget()->setCursor(Qt::SizeVerCursor);
        else
            m_view.hostWidget()->setCursor(Qt::IBeamCursor);
    }
    switch (m_drag) {
    case Drag::Pan: {
        const double px = m_view.frame().viewport().pxPerNs();
        if (px > 0) {
            const int64_t dt = int64_t(std::llround((pos.x() - m_pressPos.x()) / px));
            m_view.viewState()->setVisibleRange(m_pressRange.first - dt, m_pressRange.second - dt);
        }
        m_view.setLaneScroll(m_pressScroll - (pos.y() - m_pressPos.y()));
        break;
    }
    case Drag::Range:
        m_view.viewState()->setMarkedRange(m_pressTime, m_view.timeAtX(pos.x()));
        break;
    case Drag::Box:
    case Drag::Reorder:
        m_view.hostWidget()->update();
        break;
    default:
        break;
    }
}

void TimelineInput::finishBox(QPoint pos)
{
    const int64_t a = m_pressTime, b = m_view.timeAtX(pos.x());
    if (std::abs(pos.x() - m_pressPos.x()) < 3)
        return;
    m_view.viewState()->pushHistory();
    m_view.viewState()->setVisibleRange(std::min(a, b), std::max(a, b));
}

bool TimelineInput::release(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton || m_drag == Drag::None)
        return false;
    const Drag was = m_drag;
    m_drag = Drag::None;
    m_view.hostWidget()->unsetCursor();
    const QPoint pos = event->position().toPoint();
    if (was == Drag::Box) {
        finishBox(pos);
        m_view.hostWidget()->update();
        return true;
    }
    if (was == Drag::Reorder) {
        finishReorder(pos);
        m_view.hostWidget()->update();
        return true;
    }
    if (was != Drag::Pending)
        return true;
    if (const int row = m_view.frame().foldableRowAtY(pos.y()); row >= 0) {
        m_view.toggleRow(row);
        return true;
    }
    m_view.setSelectedSlice(m_view.sliceAt(pos));
    return true;
}

bool TimelineInput::doubleClick(QMouseEvent *event)
{
    const SliceId id = m_view.sliceAt(event->position().toPoint());
    if (!id.isValid())
        return false;
    m_view.setSelectedSlice(id);
    m_view.fitSlice(id);
    return true;
}

void TimelineInput::finishReorder(QPoint pos)
{
    const TrackId target = m_view.trackAtY(pos.y());
    if (!target.isValid() || target == m_pressTrack)
        return;
    // Dropped on a lane below: go after it; above: before it.
    const auto &layout = m_view.layout();
    if (layout.rowOfTrack(target) > layout.rowOfTrack(m_pressTrack)) {
        const auto order = layout.siblingTracks(target);
        const auto it = std::find(order.begin(), order.end(), target.value);
        const TrackId after = (it != order.end() && it + 1 != order.end()) ? TrackId(*(it + 1)) : TrackId();
        if (after == m_pressTrack)
            return;
        m_view.moveTrack(m_pressTrack, after);
    } else {
        m_view.moveTrack(m_pressTrack, target);
    }
}

void TimelineInput::contextMenu(QContextMenuEvent *event)
{
    if (!m_view.trace())
        return;
    const TrackId track = m_view.trackAtY(event->pos().y());
    QMenu menu(m_view.hostWidget());
    if (const int row = m_view.frame().foldableRowAtY(event->pos().y()); row >= 0) {
        const TimelineLayout::Row &r = m_view.layout().rows()[size_t(row)];
        const QString name = m_view.frame().foldName(r);
        menu.addAction(r.collapsed ? QCoreApplication::translate("TimelineView", "Expand \"%1\"").arg(name)
                                   : QCoreApplication::translate("TimelineView", "Collapse \"%1\"").arg(name),
                       m_view.hostWidget(), [this, row] { m_view.toggleRow(row); });
    }
    if (track.isValid()) {
        const QString name = m_view.frame().trackName(track);
        menu.addAction(QCoreApplication::translate("TimelineView", "Hide \"%1\"").arg(name), m_view.hostWidget(),
                       [this, track] { m_view.setTrackHidden(track, true); });
        const bool pinned = m_view.layout().isPinned(track);
        menu.addAction(pinned ? QCoreApplication::translate("TimelineView", "Unpin") : QCoreApplication::translate("TimelineView", "Pin to Top"), m_view.hostWidget(),
                       [this, track, pinned] { m_view.setTrackPinned(track, !pinned); });
        if (!pinned) {
            menu.addAction(QCoreApplication::translate("TimelineView", "Move Up"), m_view.hostWidget(), [this, track] { m_view.moveTrackBy(track, -1); });
            menu.addAction(QCoreApplication::translate("TimelineView", "Move Down"), m_view.hostWidget(), [this, track] { m_view.moveTrackBy(track, 1); });
        }
    }
    if (m_view.timeArea().contains(event->pos()))
        m_view.extendContextMenu(menu, m_view.timeAtX(event->pos().x()));
    const size_t hidden = m_view.layout().state().hidden.size();
    if (hidden) {
        menu.addSeparator();
        menu.addAction(QCoreApplication::translate("TimelineView", "Show %1 Hidden Lane(s)").arg(hidden), m_view.hostWidget(),
                       [this] { m_view.showAllTracks(); });
    }
    if (!menu.isEmpty())
        menu.exec(event->globalPos());
}

void TimelineInput::leave()
{
    m_mousePos.reset();
    m_view.hostWidget()->update();
}

int64_t TimelineInput::keyAnchor() const
{
    // Zoom at the mouse when it is over the lanes, else at the centre.
    const ViewState *zoom = m_view.viewState();
    if (m_mousePos && m_view.timeArea().contains(*m_mousePos))
        return m_view.timeAtX(m_mousePos->x());
    return zoom->visibleStart() + zoom->visibleSpan() / 2;
}

bool TimelineInput::key(QKeyEvent *event)
{
    if (!m_view.trace())
        return false;
    ViewState *zoom = m_view.viewState();
        const int64_t panStep = std::max<int64_t>(1, int64_t(double(zoom->visibleSpan()) * TimelineInputHost::kKeyPanFraction));
    const bool ctrl = event->modifiers() & Qt::ControlModifier;
    switch (event->key()) {
    case Qt::Key_W:
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoom->zoom(TimelineInputHost::kKeyZoomFactor, keyAnchor());
        break;
    case Qt::Key_S:
    case Qt::Key_Minus:
        zoom->zoom(1.0 / TimelineInputHost::kKeyZoomFactor, keyAnchor());
        break;
    case Qt::Key_A:
    case Qt::Key_Left:
        zoom->pan(-panStep);
        break;
    case Qt::Key_D:
    case Qt::Key_Right:
        zoom->pan(panStep);
        break;
    case Qt::Key_Home:
    case Qt::Key_0:
        zoom->pushHistory();
        zoom->fitAll();
        break;
    case Qt::Key_F:
        if (ctrl) {
            m_view.requestSearch();
            break;
        }
        m_view.fitSelection();
        break;
    case Qt::Key_Slash:
        m_view.requestSearch();
        break;
    case Qt::Key_M:
        if (m_view.selectedSlice().isValid()) {
            const Slice &s = m_view.trace()->slice(m_view.selectedSlice());
            zoom->setMarkedRange(s.start, std::max(s.end(), s.start + 1));
        } else {
            zoom->clearMarkedRange();
        }
        break;
    case Qt::Key_Backspace:
        if (!zoom->undoZoom())
            return false;
        break;
    case Qt::Key_Up:
        m_view.triggerLaneScroll(QAbstractSlider::SliderSingleStepSub);
        break;
    case Qt::Key_Down:
        m_view.triggerLaneScroll(QAbstractSlider::SliderSingleStepAdd);
        break;
    case Qt::Key_PageUp:
        m_view.triggerLaneScroll(QAbstractSlider::SliderPageStepSub);
        break;
    case Qt::Key_PageDown:
        m_view.triggerLaneScroll(QAbstractSlider::SliderPageStepAdd);
        break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (m_view.searchMatches().empty())
            return false;
        m_view.stepMatch(!(event->modifiers() & Qt::ShiftModifier));
        break;
    case Qt::Key_Escape:
        if (zoom->hasMarkedRange()) {
            zoom->clearMarkedRange();
            break;
        }
        if (!m_view.selectedSlice().isValid())
            return false;
        m_view.setSelectedSlice(SliceId());
        break;
    default:
        return false;
    }
    return true;
}

} // namespace lanescope
