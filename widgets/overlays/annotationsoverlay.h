#pragma once
// The user's notes over the lanes (AnnotationStore's Annotations, absolute ns): a range note is a
// band in the note's colour with a line at each edge, a point note a vertical line, an event note an
// outline round its slice and a line at its start. Each carries a flag at the top of the time area
// with its number and text (elided); flags that would overlap move down a row. Shown in the window,
// in File > Export Image and in `screenshot --notes`.
#include "timelineoverlay.h"

#include "annotations/annotation.h"

#include <QColor>

#include <vector>

namespace lanescope {

class AnnotationsOverlay : public TimelineOverlay
{
public:
    static constexpr int kFlagMaxWidth = 260; // px; longer texts are elided
    static constexpr int kFlagRows = 4;       // rows of flags before they overlap anyway

    // The colour of notes without one: an amber that reads on the light and the dark palette.
    static QColor defaultColor() { return QColor(0xe0, 0x9a, 0x10); }
    static QColor colorOf(const Annotation &note);

    void setNotes(std::vector<Annotation> notes);
    const std::vector<Annotation> &notes() const { return m_notes; }
    // The note drawn emphasised (selected in the Notes dock); 0: none.
    void setCurrent(int id);
    void setVisible(bool visible);
    bool isVisible() const { return m_visible; }

    void paint(QPainter &p, const TimelineFrame &frame) override;
    // Notes stay across traces only when set again: the owner sets them for each trace.
    void reset() override {}

private:
    void paintFlag(QPainter &p, const TimelineFrame &frame, const Annotation &note, double x,
                   std::vector<std::vector<std::pair<double, double>>> &rows) const;

    std::vector<Annotation> m_notes;
    int m_current = 0;
    bool m_visible = true;
};

} // namespace lanescope
